#!/bin/bash
# bench: vm-scalability and stress-ng (issue 29).  Needs a quiet machine.
#   bench/vms-stress-ng.sh [-d] [-n N] [-t SECS] [-s STRESSORS]
#   1. per-case CoV of vm-scalability.throughput and stress-ng
#      <stressor>.ops_per_sec across 10 iterations of the quick configs, and
#      each case's mean iteration time;
#   -d also the default configs (configs/vm-scalability.yaml, stress-ng-mm
#      .yaml: hours): CoV per case (target <= 3%) and how long each takes;
#   2. stress-ng through the harness vs the same stress-ng command by hand,
#      interleaved, N pairs per stressor (default 10, T seconds each):
#      the ratio of ops_per_sec, its mean and 95% CI (target: contains 1).
#   -p only part 2 (no quick or default configs);
#   -L N  part 2 beside a load of N CPU hogs (stress-ng --cpu N, started
#         and stopped here): the busy-machine figure of issue 43;
#   -C    part 2 also runs the harness with `counters: none`, a third arm
#         (what counting costs the stressor).
set -eu
cd "$(dirname "$0")/.."
B=${MMBENCH_BUILD:-build}
# the samples view reads blocks through mmb_samples() (docs/store.md)
MMB_SQLEXT=$(cd "$B" && pwd)/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
MMB=$B/mmbench
. bench/lib.sh
default=0 n=10 t=10 stressors="pagemove brk mmap vm-rw" pairs_only=0 load=0 nocount=0
while getopts dn:t:s:pL:C o; do
	case $o in
	d) default=1 ;;
	p) pairs_only=1 ;;
	L) load=$OPTARG ;;
	C) nocount=1 ;;
	n) n=$OPTARG ;;
	t) t=$OPTARG ;;
	s) stressors=$(echo "$OPTARG" | tr , ' ') ;;
	*) echo "usage: $0 [-d] [-p] [-L N] [-C] [-n N] [-t SECS] [-s S1,S2]" >&2; exit 2 ;;
	esac
done
[ -x "$MMB" ] || { echo "$MMB not built" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export MMBENCH_DB=$TMP/bench.db
uptime

cov_table() {	# label metric-pattern: CoV and mean seconds per variant
	sqlite3 -batch -noheader "$MMBENCH_DB" "
	  with s as (select s.variant v, s.value x from samples s join runs r on r.id = s.run_id
	             join kernels k on k.id = r.kernel_id
	             where k.label = '$1' and s.metric like '$2'),
	       t as (select i.variant v, avg(i.elapsed) e, count(*) n from iterations i join runs r on r.id = i.run_id
	             join kernels k on k.id = r.kernel_id where k.label = '$1' and i.status = 'ok' and i.warmup = 0
	             group by i.variant)
	  select printf('%-34s n=%-3d mean %-14.1f CoV %6.2f%%  %7.1f s/iteration', s.v, count(*), avg(x),
	         100.0 * sqrt(max(sum((x - (select avg(x) from s s2 where s2.v = s.v)) *
	                              (x - (select avg(x) from s s2 where s2.v = s.v))) / max(count(*) - 1, 1), 0)) / avg(x),
	         (select e from t where t.v = s.v))
	  from s group by s.v order by s.v"
}

[[ $load =~ ^[0-9]+$ ]] || { echo "-L: '$load' is not a count of CPU hogs" >&2; exit 2; }
if [ $pairs_only = 0 ]; then
echo "== vm-scalability quick (32M, 2 tasks), 10 iterations"
"$MMB" -q run configs/vm-scalability-quick.yaml --name vms-quick --iterations 10 >/dev/null || true
cov_table vms-quick throughput
echo "== stress-ng mm quick (1 s, 1 instance), 10 iterations"
"$MMB" -q run configs/stress-ng-mm-quick.yaml --name sng-quick --iterations 10 >/dev/null || true
cov_table sng-quick '%.ops_per_sec'
if [ $default = 1 ]; then
	echo "== vm-scalability default (configs/vm-scalability.yaml)"
	"$MMB" -q run configs/vm-scalability.yaml --name vms-default >/dev/null || true
	cov_table vms-default throughput
	echo "== stress-ng mm default (configs/stress-ng-mm.yaml)"
	"$MMB" -q run configs/stress-ng-mm.yaml --name sng-default >/dev/null || true
	cov_table sng-default '%.ops_per_sec'
fi
# what the harness adds between these runs' iterations (goal: 0.1% of a run)
echo "== harness gaps of the runs above"
bench_gap_rows "$MMBENCH_DB" "shipped config"
bench_sample_bytes "$MMBENCH_DB" "vm-scalability and stress-ng quick"
fi

command -v stress-ng >/dev/null || { echo "stress-ng not installed: harness vs by-hand skipped"; exit 0; }
hog=
if [ "$load" -gt 0 ]; then
	stress-ng --cpu "$load" --timeout 0 >/dev/null 2>&1 &
	hog=$!
	trap 'kill $hog 2>/dev/null; rm -rf "$TMP"' EXIT
	sleep 5
fi
echo "== stress-ng: harness vs by hand, $n interleaved pairs of ${t}s per stressor${hog:+, beside $load CPU hogs}"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
hrun() {	# label counters-line: the harness's ops/s for this stressor
	printf 'experiment: h\niterations: 1\nwarmup: 0\n%binterference: { foreign_cpu: 1.0 }\nworkloads:\n  - name: stress-ng\n    params: { test: %s, nr_threads: 100%%, testtime: %ss }\n' \
		"$2" "$s" "$t" >"$TMP/h.yaml"
	# another mmbench holding the machine lock: wait for it (up to 30 min)
	for try in $(seq 1 360); do
		"$MMB" -q run "$TMP/h.yaml" --name "$1" >"$TMP/h.log" 2>&1 && break
		grep -q "runs must not overlap" "$TMP/h.log" || break
		sleep 5
	done
	sqlite3 -batch -noheader "$MMBENCH_DB" "select s.value from samples s join runs r on r.id = s.run_id
	     join kernels k on k.id = r.kernel_id where k.label = '$1' and s.metric = '$s.ops_per_sec'"
}
for s in $stressors; do
	: >"$TMP/pairs"
	: >"$TMP/pairs-none"
	for i in $(seq 1 "$n"); do
		h=$(hrun "h-$s-$i" "")
		# the command the plugin runs (lkp's options), its table row's ops/s
		opts=""
		case $s in bigheap|brk|mmaphuge|mmapmany|pageswap) opts=--oom-avoid ;; esac
		m=$(stress-ng --timeout "$t" --times --verify --metrics --no-rand-seed $opts --temp-path /tmp \
			--"$s" "$(nproc)" 2>&1 | awk -v s="$s" '$4 == s && (NF == 10 || NF == 12) { print $9; exit }')
		echo "$h $m" >>"$TMP/pairs"
		if [ $nocount = 1 ]; then
			echo "$(hrun "hn-$s-$i" "counters: none\n") $m" >>"$TMP/pairs-none"
		fi
	done
	for f in pairs pairs-none; do
	[ -s "$TMP/$f" ] || continue
	python3 - "$s$([ $f = pairs-none ] && echo ' (counters: none)')" "$TMP/$f" <<'PY'
import math, sys
s, f = sys.argv[1], sys.argv[2]
r = []
for line in open(f):
    p = line.split()
    if len(p) == 2 and float(p[1]) > 0:
        r.append(float(p[0]) / float(p[1]))
n = len(r)
if n < 2:
    print(f"{s}: {n} valid pairs"); sys.exit(0)
m = sum(r) / n
sd = math.sqrt(sum((x - m) ** 2 for x in r) / (n - 1))
t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}.get(n, 2.09 if n <= 20 else 2.0)
h = t * sd / math.sqrt(n)
print(f"{s:14s} n={n:3d} harness/by-hand ops_per_sec ratio {m:.4f} [95% CI {m - h:.4f}, {m + h:.4f}]  CoV of ratios {100 * sd / m:.2f}%")
PY
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
