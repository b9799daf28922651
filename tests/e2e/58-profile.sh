#!/bin/bash
# e2e: run --profile (docs/profiles.md).  Two short pft runs with --profile
# each store one profile per variant (profiles + profile_rows) and keep
# their iteration count; the sampled event is recorded (cpu-clock, said
# once, when the machine has no hardware PMU); compare --profile prints
# lkp perf-profile rows whose base and new shares sum to <= 100% per kind;
# the report has a Profiles section within 80 columns.  Without perf
# (MMBENCH_PERF pointing nowhere) the run says so once and goes on.
# The row layout is checked against a golden file from fixed DB rows in
# tests/unit/test_profile.c.  Skips (77) only when perf cannot sample here.
set -u

B=${MMBENCH_BUILD:-build}
# the samples view reads blocks through mmb_samples() (docs/store.md)
MMB_SQLEXT=$(cd "$B" && pwd)/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
MMB=$B/mmbench
fail() { echo "FAIL: $*" >&2; exit 1; }

[ -x "$MMB" ] || fail "$MMB not built"
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 CLI not installed"; exit 77; }
[ -f "$B/workloads/pft.so" ] || fail "$B/workloads/pft.so not built"

T=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$T"' EXIT

if ! command -v perf >/dev/null; then
	echo "SKIP: perf is not installed (Debian: linux-perf)"
	exit 77
fi
if ! perf record -q -g -e cpu-clock -o "$T/probe.data" true >"$T/probe.out" 2>&1; then
	echo "SKIP: perf cannot record here: $(tail -n 1 "$T/probe.out")"
	exit 77
fi
NO_PMU=0
perf stat -e cycles true 2>&1 | grep -q "not supported" && NO_PMU=1

ENV=""
THP=/sys/kernel/mm/transparent_hugepage
if [ "$(id -u)" = 0 ] && [ -w "$THP/enabled" ]; then
	ENV=$'environment:\n  thp: never\n'
fi
cat > "$T/pft.yaml" <<EOF
experiment: pft-profile
iterations: 2
warmup: 0
$ENV
workloads:
  - name: pft
    params:
      size: 64M
      clients: 1
      mode: threads
EOF

export MMBENCH_INTERFERENCE=record
run() {
	local label=$1
	shift
	for try in $(seq 1 60); do
		"$MMB" run "$T/pft.yaml" --db "$T/t.db" --name "$label" --profile "$@" \
			>"$T/out.$label" 2>"$T/err.$label"
		rc=$?
		[ $rc -ne 0 ] && grep -q "runs must not overlap" "$T/err.$label" || break
		sleep 5
	done
	[ $rc = 0 ] || { cat "$T/out.$label" "$T/err.$label" >&2; fail "run $label exited $rc"; }
}
q() { sqlite3 -batch -noheader "$T/t.db" "$1"; }

run a
run b

for l in a b; do
	run_id=$(q "SELECT r.id FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = '$l'")
	[ "$(q "SELECT count(*) FROM profiles WHERE run_id = $run_id")" = 1 ] ||
		{ cat "$T/err.$l" >&2; fail "run $l: no profile stored"; }
	[ "$(q "SELECT count(*) FROM profile_rows WHERE run_id = $run_id AND kind = 'self'")" -ge 1 ] ||
		fail "run $l: no self rows"
	[ "$(q "SELECT count(*) FROM profile_rows WHERE run_id = $run_id AND kind = 'calltrace'")" -ge 1 ] ||
		fail "run $l: no calltrace rows"
	# the profiled iteration is neither an iteration row nor a sample
	[ "$(q "SELECT count(*) FROM iterations WHERE run_id = $run_id")" = 2 ] ||
		fail "run $l: $(q "SELECT count(*) FROM iterations WHERE run_id = $run_id") iterations, not 2"
	[ "$(q "SELECT count(*) FROM samples WHERE run_id = $run_id AND metric = 'faults/sec'")" = 2 ] ||
		fail "run $l: the profiled iteration's samples were stored"
	grep -q "2 ok, 0 failed" "$T/out.$l" || fail "run $l summary: $(grep ok "$T/out.$l")"
	# stored shares are of one period: <= 100% per kind
	for k in self calltrace; do
		s=$(q "SELECT sum(pct) <= 100.0001 FROM profile_rows WHERE run_id = $run_id AND kind = '$k'")
		[ "$s" = 1 ] || fail "run $l: $k shares sum above 100%"
	done
	ev=$(q "SELECT event FROM profiles WHERE run_id = $run_id")
	if [ $NO_PMU = 1 ]; then
		[ "$ev" = cpu-clock ] || fail "run $l: no PMU here, but event '$ev'"
		[ "$(grep -c "profile: no hardware PMU, sampled cpu-clock" "$T/err.$l")" = 1 ] ||
			fail "run $l did not say once that it sampled cpu-clock: $(cat "$T/err.$l")"
		[ "$(q "SELECT value FROM run_env WHERE run_id = $run_id AND key = 'profile.event'")" = \
			"cpu-clock (no hardware PMU)" ] || fail "run $l: profile.event not recorded"
	fi
	grep -q "profile of pft: [0-9]* samples of $ev" "$T/err.$l" ||
		fail "run $l did not say what it profiled: $(cat "$T/err.$l")"
done
ls "$MMBENCH_STATE"/profile/run*-pft.data >/dev/null 2>&1 || fail "no perf.data in the state folder"

"$MMB" compare --db "$T/t.db" --profile a b >"$T/cmp" 2>"$T/cmp.err" ||
	{ cat "$T/cmp.err" >&2; fail "compare --profile exited $?"; }
grep -q "^perf-profile of pft: a (1 profiled run" "$T/cmp" || fail "no perf-profile block: $(cat "$T/cmp")"
grep -Eq '^ +[0-9.]+ .* [+-][0-9]+\.[0-9]  .* perf-profile\.self\.cycles-pp\.[^ ]+$' "$T/cmp" ||
	fail "no perf-profile.self rows: $(cat "$T/cmp")"
grep -Eq ' perf-profile\.calltrace\.cycles-pp\.[^ ]+$' "$T/cmp" ||
	fail "no perf-profile.calltrace rows: $(cat "$T/cmp")"
# per kind and side, the listed shares sum to <= 100%
for k in self calltrace; do
	awk -v k="perf-profile.$k.cycles-pp." '
		index($NF, k) == 1 {
			base += $1
			new += ($(NF-2) == "\302\261") ? $(NF-3) : $(NF-1)
			n++
		}
		END {
			if (!n) { print "no " k " rows"; exit 1 }
			if (base > 100.05 || new > 100.05) { print k ": base " base " new " new; exit 1 }
		}' "$T/cmp" || fail "compare --profile $k shares"
done
# the change is new - base in points
awk '/perf-profile\.self/ {
	new = ($(NF-2) == "\302\261") ? $(NF-3) : $(NF-1)
	d = new - $1 - $(($2 == "\302\261") ? 4 : 2)
	if (d > 0.06 || d < -0.06) { print "row: " $0; exit 1 }
}' "$T/cmp" || fail "a change is not new - base"
"$MMB" compare --db "$T/t.db" --profile --format csv a b >/dev/null 2>&1
[ $? = 2 ] || fail "--profile with csv should be a usage error"

"$MMB" report --db "$T/t.db" --no-plots --out "$T/rep" a b >/dev/null 2>"$T/rep.err" ||
	{ cat "$T/rep.err" >&2; fail "report exited $?"; }
grep -q "^Profiles$" "$T/rep/report.txt" || fail "report.txt has no Profiles section"
grep -q "self\." "$T/rep/report.txt" || fail "report.txt lists no self rows"
awk 'length > 80 { print; bad = 1 } END { exit bad }' "$T/rep/report.txt" ||
	fail "report.txt has lines over 80 columns"
grep -q "perf-profile.self.cycles-pp." "$T/rep/report.md" || fail "report.md has no profile rows"
# merge carries the profiles with their runs
"$MMB" merge --db "$T/m.db" "$T/t.db" >/dev/null 2>"$T/merge.err" ||
	{ cat "$T/merge.err" >&2; fail "merge exited $?"; }
[ "$(sqlite3 -batch -noheader "$T/m.db" "SELECT count(*) FROM profiles")" = 2 ] ||
	fail "merge did not copy the profiles"
[ "$(sqlite3 -batch -noheader "$T/m.db" "SELECT count(*) FROM profile_rows")" = \
  "$(q "SELECT count(*) FROM profile_rows")" ] || fail "merge did not copy the profile rows"

# without perf: said once, recorded, the run goes on without a profile
MMBENCH_PERF=$T/no-such-perf run c
[ "$(grep -c "profile: perf is not installed" "$T/err.c")" = 1 ] ||
	fail "a missing perf was not said once: $(cat "$T/err.c")"
run_id=$(q "SELECT r.id FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = 'c'")
[ "$(q "SELECT count(*) FROM profiles WHERE run_id = $run_id")" = 0 ] || fail "run c has a profile"
q "SELECT value FROM run_env WHERE run_id = $run_id AND key = 'profile'" | grep -q "not installed" ||
	fail "run c did not record why it has no profile"
grep -q "2 ok, 0 failed" "$T/out.c" || fail "run c without perf: $(cat "$T/out.c")"
"$MMB" compare --db "$T/t.db" --profile a c >"$T/cmp2" 2>&1 || fail "compare --profile a c exited $?"
grep -q "no workload variant has profiles of both kernels" "$T/cmp2" ||
	fail "compare --profile without profiles: $(cat "$T/cmp2")"
echo "ok"
