#!/bin/bash
# e2e: the stress-ng plugin.
#  1. Against a stand-in stress-ng (tests/fixtures/stress-ng): the command
#     is lkp's (--timeout T --times --verify --metrics --no-rand-seed, the
#     stressor's --oom-avoid, --S-method all only where --help offers "all"),
#     and its output is parsed by lkp's rules: S.ops and S.ops_per_sec from
#     the table (10 or 12 columns), the miscellaneous lines under their
#     normalized names, 0-valued ones and lines after "run time:" ignored;
#     0 bogo ops fails the iteration with stress-ng's reason; a stressor not
#     implemented says so; the version is in run_env as tool.stress-ng.
#  2. Without stress-ng on PATH every variant is skipped with the apt-get line.
#  3. With the real stress-ng (make deps installs it): every stressor of the
#     shipped quick config runs for 1 s and either stores a positive
#     ops_per_sec or fails with stress-ng's reason.
. "$(dirname "$0")/../e2e-lib.sh"
B=${MMBENCH_BUILD:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$MMB" ] || die "$MMB not built"
[ -f "$B/workloads/stress-ng.so" ] || die "stress-ng plugin not built"
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}
MMB=$(cd "$(dirname "$MMB")" && pwd)/$(basename "$MMB")
export MMBENCH_PLUGIN_PATH=$(cd "$B/workloads" && pwd)

mkdir -p "$TMP/fakebin"
ln -s "$top/tests/fixtures/stress-ng/fake-stress-ng" "$TMP/fakebin/stress-ng"
cat >"$TMP/f.yaml" <<'Y'
experiment: sng-fake
iterations: 1
warmup: 0
workloads:
  - name: stress-ng
    params:
      test: [pagemove, brk, vm, tmpfs, userfaultfd]
      nr_threads: 2
      testtime: 3s
      dir: /tmp
Y
export FAKE_SNG_LOG=$TMP/argv
PATH=$TMP/fakebin:$PATH run "$TMP/f.yaml" --name fake
grep -q "2 iteration(s) failed" "$TMP/err" || die "want 2 failed iterations: $(cat "$TMP/err")"
val() { q "select value from samples where variant = 'test=$1' and metric = '$2'"; }
[ "$(val pagemove pagemove.ops)" = 123.0 ] || die "pagemove.ops: $(val pagemove pagemove.ops)"
[ "$(val pagemove pagemove.ops_per_sec)" = 41.0 ] || die "pagemove.ops_per_sec (after 'run time:' is ignored)"
[ "$(val pagemove pagemove.page_remaps_per_sec)" = 30499.49 ] || die "pagemove.page_remaps_per_sec"
[ "$(q "select count(*) from samples where variant = 'test=pagemove'")" = 3 ] ||
	die "pagemove: an undeclared metric was stored"
[ "$(val brk brk.ops_per_sec)" = 550000.0 ] || die "brk: the 10-column table of older stress-ng"
[ "$(val brk brk.nanosecs_per_sbrk_page_expand)" = 3699.79 ] || die "brk expand"
[ "$(q "select better from samples where metric = 'brk.nanosecs_per_sbrk_page_expand'")" = -1 ] ||
	die "nanosecs per call is lower-is-better"
[ -z "$(val brk brk.nanosecs_per_sbrk_page_shrink)" ] || die "a 0.00 metric is lkp's .fail, not a value"
[ "$(val vm vm.ops_per_sec)" = 272.67 ] || die "vm.ops_per_sec"
[ "$(q "select unit from samples where metric = 'vm.ops_per_sec'")" = bogo-ops/s ] || die "unit"
q "select reason from iterations where variant = 'test=tmpfs'" |
	grep -qx 'tmpfs: 0 bogo ops (lkp: tmpfs.fail): tmpfs: cannot find writeable free space on a tmpfs filesystem' ||
	die "tmpfs reason: $(q "select reason from iterations where variant = 'test=tmpfs'")"
q "select reason from iterations where variant = 'test=userfaultfd'" |
	grep -q 'this stressor is not implemented on this system' || die "userfaultfd reason"
# lkp's command line
grep -qx -- '--timeout 3 --times --verify --metrics --no-rand-seed --temp-path /tmp --pagemove 2' "$TMP/argv" ||
	die "pagemove argv: $(cat "$TMP/argv")"
grep -qx -- '--timeout 3 --times --verify --metrics --no-rand-seed --oom-avoid --temp-path /tmp --brk 2' "$TMP/argv" ||
	die "brk argv (--oom-avoid)"
grep -qx -- '--timeout 3 --times --verify --metrics --no-rand-seed --vm-method all --temp-path /tmp --vm 2' "$TMP/argv" ||
	die "vm argv (--vm-method all)"
[ "$(q "select value from run_env where key = 'tool.stress-ng'")" = 0.14.00 ] || die "tool.stress-ng not in run_env"
# an explicit method is passed as given
printf 'experiment: m\nworkloads:\n  - name: stress-ng\n    params: { test: vm, nr_threads: 1, testtime: 1s, method: flip }\n' >"$TMP/m.yaml"
: >"$TMP/argv"
PATH=$TMP/fakebin:$PATH run "$TMP/m.yaml" --name fake --iterations 1
grep -q -- '--vm-method flip ' "$TMP/argv" || die "method not passed: $(cat "$TMP/argv")"
for bad in 'method: "--all"' 'testtime: 1500ms' 'nr_threads: 0' 'test: cpu'; do
	printf 'experiment: b\nworkloads:\n  - name: stress-ng\n    params: { %s }\n' "$bad" >"$TMP/b.yaml"
	set +e
	PATH=$TMP/fakebin:$PATH "$MMB" run "$TMP/b.yaml" >/dev/null 2>&1
	rc=$?
	set -e
	[ $rc = 2 ] || die "'$bad': exit $rc, want 2"
done

# 2. not installed
mkdir -p "$TMP/emptybin"
set +e
PATH=$TMP/emptybin "$MMB" run "$TMP/f.yaml" --name none -q >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
[ $rc = 0 ] || die "without stress-ng: exit $rc: $(cat "$TMP/err")"
[ "$(q "select count(*) from iterations i join runs r on r.id = i.run_id join kernels k on k.id = r.kernel_id
        where k.label = 'none' and i.status = 'skipped'
        and i.reason = 'stress-ng is not installed (apt-get install stress-ng)'")" = 5 ] ||
	die "without stress-ng: want 5 variants skipped with the apt-get line"

# 3. the real stress-ng, every shipped stressor
command -v stress-ng >/dev/null || { echo "ok (real stress-ng not installed: part 3 not run)"; exit 0; }
run "$top/configs/stress-ng-mm-quick.yaml" --name real
n=0
for t in $(awk '/test: \[/,/\]/' "$top/configs/stress-ng-mm-quick.yaml" | tr -d '[],' | sed 's/test://'); do
	n=$((n + 1))
	st=$(q "select i.status from iterations i join runs r on r.id = i.run_id join kernels k on k.id = r.kernel_id
	        where k.label = 'real' and i.variant = 'test=$t'")
	case $st in
	ok) [ "$(q "select count(*) from samples s join runs r on r.id = s.run_id join kernels k on k.id = r.kernel_id
	            where k.label = 'real' and s.variant = 'test=$t' and s.metric = '$t.ops_per_sec' and s.value > 0")" = 1 ] ||
		die "$t: ok without a positive $t.ops_per_sec" ;;
	failed) q "select reason from iterations where variant = 'test=$t' and status = 'failed'" | grep -q "^$t" ||
		die "$t failed without stress-ng's reason" ;;
	*) die "$t: status '$st'" ;;
	esac
done
[ $n = 37 ] || die "quick config has $n stressors, want 37 (all but mmapfork)"
echo "ok"
