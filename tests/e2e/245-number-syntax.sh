#!/bin/bash
# Issue 42: 1e-400 was read as 0 and hex floats (0x1p3) were accepted.  A
# number a person writes is read one way everywhere (num_parse()): decimal
# only, an underflow to 0 refused (a subnormal kept), with the place named:
# an experiment value (file:line:col), a CSV value (file:line), a
# matrix.json value (file:line:col) and an option.  Nothing is run or recorded.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
refused() {	# PATTERN -- command...: exit 2 and PATTERN on stderr
	local pat=$1 rc=0
	shift 2
	"$@" > out 2> err || rc=$?
	[ $rc = 2 ] || die "$*: exit $rc (want 2): $(cat err)"
	grep -qF -- "$pat" err || die "$*: no '$pat' in: $(cat err)"
}
for v in 0x1p-2 1e-400 0X.8p0; do
	printf 'experiment: x\niterations: 1\ninterference:\n  foreign_cpu: %s\nworkloads:\n  - name: pft\n' "$v" > c.yaml
	refused "c.yaml:4:16: 'foreign_cpu' expects a share" -- "$MMB" run c.yaml
done
printf 'workload,metric,variant,iteration,value\nw,m,,1,0x1p3\n' > hex.csv
refused "hex.csv:2: value '0x1p3' is not a finite number: a hex number" -- "$MMB" import --name h hex.csv
printf 'workload,metric,variant,iteration,value\nw,m,,1,1e-400\n' > tiny.csv
refused "tiny.csv:2: value '1e-400' is not a finite number: too small: it would read as 0" -- \
	"$MMB" import --name t tiny.csv
mkdir mx
printf '{\n  "w.m": [1, 1e-400]\n}\n' > mx/matrix.json
refused "mx/matrix.json:2:14: too small: it would read as 0" -- "$MMB" import --name j mx/matrix.json
refused "--alpha '0x1p-4': expected a number" -- "$MMB" bisect --tree . --good a --bad b \
	--alpha 0x1p-4 --metric a.b c.yaml
[ ! -e "$MMBENCH_DB" ] || [ "$(q 'SELECT count(*) FROM runs')" = 0 ] || die "a refused input recorded a run"
# what is a number stays one: a subnormal, a zero written small, +5, .5, 5.
printf 'workload,metric,variant,iteration,value\nw,m,,1,4.9e-324\nw,m,,2,0e-999\nw,m,,3,+5\nw,m,,4,.5\nw,m,,5,5.\n' > ok.csv
"$MMB" -q import --name ok ok.csv || die "decimal values refused"
[ "$(q "SELECT group_concat(value, ' ') FROM (SELECT value FROM samples ORDER BY iteration)")" = \
	"4.94065645841247e-324 0.0 5.0 0.5 5.0" ] || die "values read back: $(q 'SELECT value FROM samples')"
echo ok
