#!/bin/bash
# run --set KEY=VALUE overrides the experiment's environment for one run:
# checked like the YAML's own value (a bad one is one error naming the
# option, exit 2, nothing run), applied (the iteration child is pinned to
# the pin_cpu list, caches dropped, THP set and restored) and recorded
# (run_env rows, a "# --set" line in the run's config text).
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
ncpu=$(getconf _NPROCESSORS_ONLN)
cat > "$TMP/f.yaml" <<EOC
experiment: set
iterations: 2
warmup: 0
environment:
  pin_cpu: none
  drop_caches: false
workloads:
  - name: faulty
    params:
      script: ok,ok
      state_dir: $TMP
EOC

# 1. bad values: exit 2, exactly one error line, no run recorded
bad() {
	local want=$1 rc
	shift
	set +e
	"$MMB" run "$TMP/f.yaml" -q "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || die "$*: expected exit 2, got $rc: $(cat "$TMP/err")"
	[ "$(wc -l < "$TMP/err")" = 1 ] || die "$*: expected one error line, got: $(cat "$TMP/err")"
	grep -qF -- "$want" "$TMP/err" || die "$*: want '$want', got: $(cat "$TMP/err")"
}
bad "error: --set thp=sometimes: invalid thp value 'sometimes'; valid values: always, madvise, never" \
	--set thp=sometimes
bad "error: --set pin_cpu=$ncpu: 'pin_cpu': CPU $ncpu is not on this machine (CPUs 0..$((ncpu - 1)))" \
	--set pin_cpu=$ncpu
bad "error: --set pin_cpu=1-0: 'pin_cpu': range 1-0 runs backwards; write 0-1" --set=pin_cpu=1-0
bad "error: --set pin_cpu=0-x: 'pin_cpu' expects a CPU list like 0-3,8" --set pin_cpu=0-x
bad "error: --set nosuch=1: unknown environment key 'nosuch'; valid keys: thp," --set nosuch=1
bad "error: --set drop_caches=maybe: 'drop_caches': 'maybe': expected a boolean" \
	--set drop_caches=maybe
bad "error: --set thp: expected KEY=VALUE, e.g. --set thp=never" --set thp
bad "error: --set mthp.64K=sometimes: invalid mthp 64K value 'sometimes'" \
	--set pin_cpu=0 --set mthp.64K=sometimes
bad "error: option --set needs a value" --set
[ ! -e "$MMBENCH_DB" ] || [ "$(q "SELECT count(*) FROM runs")" = 0 ] ||
	die "a rejected --set still recorded a run"

# 2. the file alone pins nothing; --set pin_cpu=0 --set drop_caches=true does
run "$TMP/f.yaml"
[ "$rc" = 0 ] || die "plain run failed ($rc): $(cat "$TMP/err")"
[ "$(q "SELECT count(*) FROM run_env WHERE key IN ('pin_cpu', 'drop_caches')")" = 0 ] ||
	die "the YAML says none/false, yet pin_cpu or drop_caches was recorded"
drops0=$(awk '$1 == "drop_pagecache" { print $2 }' /proc/vmstat)
run "$TMP/f.yaml" --set pin_cpu=0 --set=drop_caches=true
[ "$rc" = 0 ] || die "run with --set failed ($rc): $(cat "$TMP/err")"
drops1=$(awk '$1 == "drop_pagecache" { print $2 }' /proc/vmstat)
id=$(q "SELECT max(id) FROM runs")
[ "$(q "SELECT count(*) FROM iterations WHERE run_id = $id AND status = 'ok'")" = 2 ] ||
	die "expected 2 ok iterations"
[ "$(q "SELECT value FROM run_env WHERE run_id = $id AND key = 'pin_cpu'")" = 0 ] ||
	die "run_env has no pin_cpu = 0"
[ "$(q "SELECT value FROM run_env WHERE run_id = $id AND key = 'drop_caches'")" = 1 ] ||
	die "run_env has no drop_caches = 1"
q "SELECT config_text FROM runs WHERE id = $id" > "$TMP/text"
sed '/^$/d' "$TMP/text" | tail -n 2 | diff - <(printf '# --set pin_cpu=0\n# --set drop_caches=true\n') ||
	die "the recorded config text does not end with the --set lines"
# root drops caches before each iteration (counted by the kernel since 4.x)
if [ "$(id -u)" = 0 ] && [ -n "$drops0" ]; then
	[ $((drops1 - drops0)) -ge 2 ] || die "caches dropped $((drops1 - drops0)) times, want >= 2"
fi

# 3. a CPU list pins the iteration child to that whole set; with root and
#    THP sysfs, --set thp is applied during the run and restored after it
if [ "$ncpu" -ge 3 ]; then pins=0,2; want_list=0,2
elif [ "$ncpu" = 2 ]; then pins=1; want_list=1
else pins=0; want_list=0; fi
THP=/sys/kernel/mm/transparent_hugepage
cur() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
thp_args=()
if [ "$(id -u)" = 0 ] && [ -w $THP/enabled ]; then
	before=$(cur $THP/enabled)
	want=never; [ "$before" = never ] && want=always
	thp_args=(--set "thp=$want")
fi
cat > "$TMP/slow.yaml" <<EOC
experiment: set-slow
iterations: 12
warmup: 0
workloads:
  - name: faulty
    params:
      script: $(printf 'slow,%.0s' $(seq 1 11))slow
      state_dir: $TMP/slow
EOC
mkdir -p "$TMP/slow"
"$MMB" run "$TMP/slow.yaml" -q --set "pin_cpu=$pins" "${thp_args[@]}" >"$TMP/bg.out" 2>"$TMP/bg.err" &
pid=$!
BG_PIDS="$BG_PIDS $pid"
seen= thp_seen=
while kill -0 "$pid" 2>/dev/null; do
	# the iteration child is the fork server's (a child of the harness)
	kids=$(pgrep -P "$pid" || true)
	for c in $kids $(for k in $kids; do pgrep -P "$k" || true; done); do
		l=$(awk '$1 == "Cpus_allowed_list:" { print $2 }' "/proc/$c/status" 2>/dev/null || true)
		[ "$l" = "$want_list" ] && seen=1
	done
	[ ${#thp_args[@]} = 0 ] || [ "$(cur $THP/enabled)" != "$want" ] || thp_seen=1
	[ -n "$seen" ] && { [ ${#thp_args[@]} = 0 ] || [ -n "$thp_seen" ]; } && break
	sleep 0.05
done
set +e; wait "$pid"; rc=$?; set -e
BG_PIDS=
[ "$rc" = 0 ] || die "pinned run failed ($rc): $(cat "$TMP/bg.err")"
[ -n "$seen" ] || die "no iteration child ran with Cpus_allowed_list $want_list"
id=$(q "SELECT max(id) FROM runs")
[ "$(q "SELECT value FROM run_env WHERE run_id = $id AND key = 'pin_cpu'")" = "$want_list" ] ||
	die "run_env pin_cpu is not $want_list"
if [ ${#thp_args[@]} != 0 ]; then
	[ -n "$thp_seen" ] || die "THP was never $want during the run"
	[ "$(cur $THP/enabled)" = "$before" ] || die "THP not restored to $before after the run"
	[ "$(q "SELECT value || '/' || original FROM run_env WHERE run_id = $id AND key = 'thp.enabled'")" = "$want/$before" ] ||
		die "run_env thp.enabled is not $want (was $before)"
	q "SELECT config_text FROM runs WHERE id = $id" | grep -qx -- "# --set thp=$want" ||
		die "the recorded config text has no '# --set thp=$want'"
	echo "thp $before -> $want -> $before"
else
	echo "thp part skipped (needs root and a writable $THP/enabled)"
fi
echo "ok: pinned to $want_list"
