#!/bin/bash
# vm-scalability fidelity: the plugin against the original usemem (and dd
# for the read() cases), run as lkp's case scripts run them, interleaved on
# the same kernel with the side that goes first alternating.  usemem is
# not shipped: build it from the public vm-scalability tree (docs/
# workloads.md, "Fidelity against the originals") and give its path.
#
# usage: bench/vms-fidelity.sh -u USEMEM [-n PAIRS] [-s SIZE_MB] [-t TASKS]
#                              [-c CASES] [-d DIR] [-o RAW.tsv]
#   -u  the usemem binary (or VMS_USEMEM / USEMEM in the environment)
#   -n  pairs per case (default 20: a pair's ratio spreads about 12% on a
#       shared VM, so 8 pairs give a 95% CI of about +-10%, 20 about +-6%)
#   -s  MiB per case, all tasks together (default 1024)
#   -t  nr_task (default 2)
#   -c  cases, comma separated (default: anon-w-seq, anon-r-seq,
#       anon-r-rand, anon-w-rand, anon-cow-seq, lru-file-mmap-read,
#       lru-file-readonce, small-allocs)
#   -d  folder of the sparse files of the lru-file cases (default /tmp)
#   -o  also write every raw value as TSV (side case pair metric value)
# Per case and metric (throughput, median, user and system CPU seconds):
# the plugin/original ratio of the means and the geometric mean of the
# per-pair ratios with its 95% CI (Student t), against the target:
# throughput and median within +-5% with the CI inside +-8%, user and
# system time within 10% ("unresolved" where the original spends under
# 0.1 s there and the CI leaves the band: tick-sampled, see the note).
# The plugin's figures come from the DB, the original's from its own
# output lines (lkp's parse rules: a task's KB/s as printed, throughput =
# their sum, median = the upper middle), and its CPU time from the case's
# processes alone, usemem or dd and the file cases' truncate and rm
# (bench/child-cpu.c, to the microsecond: not the shell around them, nor
# GNU time's hundredths).
# Not part of `make check`: minutes, and it asserts nothing about speed.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${MMBENCH_BUILD:-$ROOT/build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
MMB_SQLEXT=$B/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
MMB=$B/mmbench
USEMEM=${VMS_USEMEM:-${USEMEM:-}}
PAIRS=20 SIZE_MB=1024 TASKS=2 DIR=/tmp RAW=""
CASES=anon-w-seq,anon-r-seq,anon-r-rand,anon-w-rand,anon-cow-seq,lru-file-mmap-read,lru-file-readonce,small-allocs

usage() { sed -n '/^# usage:/,/^# Per case/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "vms-fidelity: $*" >&2; exit 1; }
posint() { [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "vms-fidelity: $1: '$2' is not a positive integer" >&2; exit 2; }; }

while getopts "u:n:s:t:c:d:o:h" o; do
	case $o in
	u) USEMEM=$OPTARG ;;
	n) posint -n "$OPTARG"; PAIRS=$OPTARG ;;
	s) posint -s "$OPTARG"; SIZE_MB=$OPTARG ;;
	t) posint -t "$OPTARG"; TASKS=$OPTARG ;;
	c) CASES=$OPTARG ;;
	d) DIR=$OPTARG ;;
	o) RAW=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
if [ -z "$USEMEM" ]; then
	echo "vms-fidelity: skipped: no usemem given (make bench VMS_USEMEM=/path/to/usemem; docs/workloads.md says how to build it)"
	exit 0
fi
[ -x "$USEMEM" ] || die "-u $USEMEM: not an executable"
[ -x "$MMB" ] && [ -f "$B/workloads/vm-scalability.so" ] || die "$MMB or its vm-scalability plugin not built (run make)"
[ -d "$DIR" ] && [ -w "$DIR" ] || die "-d $DIR: not a writable folder"
CPU=$B/bench/child-cpu
[ -x "$CPU" ] || die "$CPU not built (make bench, or make $CPU)"
IFS=, read -r -a CASE_LIST <<< "$CASES"
for c in "${CASE_LIST[@]}"; do
	case $c in
	anon-w-seq|anon-r-seq|anon-r-rand|anon-w-rand|anon-cow-seq|lru-file-mmap-read|lru-file-readonce|small-allocs) ;;
	*) die "-c: '$c' is not a case this bench runs the original of" ;;
	esac
done

T=$(mktemp -d) || die "mktemp failed"
trap 'bench_knobs_replay; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
. "$ROOT/bench/lib.sh"
BENCH_RERUNS=$T/reruns
bench_hold_reporting || die "cannot journal the knob it would change"
export MMBENCH_STATE=$T/state
# the original judges nothing: neither side is refused for load (the load is printed)
export MMBENCH_INTERFERENCE=record
mkdir -p "$MMBENCH_STATE"
size=$((SIZE_MB << 20)) per=$(((SIZE_MB << 20) / TASKS))
page=$(getconf PAGESIZE)

for c in "${CASE_LIST[@]}"; do
	cat > "$T/$c.yaml" <<EOF
experiment: vms-fidelity-$c
iterations: 1
warmup: 1
workloads:
  - name: vm-scalability
    params: { test: $c, size: ${SIZE_MB}M, nr_task: $TASKS, dir: "$DIR" }
EOF
done

# Each side runs its case once untimed right before the measured run;
# free page reporting is held off where the kernel allows it, and a side
# the host took memory back from anyway is run again (bench/lib.sh):
# lru-file-mmap-read's pair ratios swung 0.3-3.8x on which side paid.

# The original, as lkp's case script runs it; its output lines to $T/out.
run_original() {
	local c=$1 i
	case $c in
	anon-w-seq) "$CPU" "$T/time" "$USEMEM" -n "$TASKS" "$per" ;;
	anon-w-rand) "$CPU" "$T/time" "$USEMEM" -n "$TASKS" --random "$per" ;;
	anon-r-seq) "$CPU" "$T/time" "$USEMEM" -n "$TASKS" --readonly "$per" ;;
	anon-r-rand) "$CPU" "$T/time" "$USEMEM" -n "$TASKS" --readonly --random "$per" ;;
	anon-cow-seq) "$CPU" "$T/time" "$USEMEM" -n "$TASKS" --prealloc --prefault $((size / (TASKS + 1))) ;;
	small-allocs) "$CPU" "$T/time" "$USEMEM" -n "$TASKS" --readonly --unit $((10 * page)) "$per" ;;
	lru-file-mmap-read|lru-file-readonce)
		for i in $(seq 1 "$TASKS"); do
			"$CPU" "$T/time" truncate -s "$per" "$T/sparse-$i"
			if [ "$c" = lru-file-readonce ]; then
				"$CPU" "$T/time" dd bs=4k if="$T/sparse-$i" of=/dev/null 2>&1 &
			else
				"$CPU" "$T/time" "$USEMEM" -f "$T/sparse-$i" --readonly "$per" &
			fi
		done
		wait
		# the file's page cache is freed here: dropping it is the case's
		# work (the plugin's tasks pay it closing their files)
		"$CPU" "$T/time" rm -f "$T"/sparse-* ;;
	esac
}

: > "$T/raw"
# lkp's parse rules on the original's lines: throughput, median; CPU from
# child-cpu's lines, one per process of the case, summed
original_run() {	# case
	local script
	script="$(declare -f run_original); $(declare -p USEMEM CPU TASKS per size page T); run_original $1"
	# the untimed warm-up run, as the plugin's side has one (see above)
	bash -c "$script" > /dev/null 2>&1 || die "original $1 (warm-up) failed"
	: > "$T/time"
	bash -c "$script" > "$T/out" 2>&1 || die "original $1 failed: $(tail -3 "$T/out")"
}
side_original() {	# case pair
	bench_run_side original_run "$1"
	awk -v c="$1" -v p="$2" '
	/bytes \/ [0-9]+ usecs = [0-9]+ KB.s/ { k[n++] = $(NF - 1) }
	/bytes .* copied, / { for (i = 1; i <= NF; i++) if ($i == "copied,") s = $(i + 1)
			      k[n++] = int($1 / 1024) / s }
	END { if (!n) exit 1
	      for (i = 0; i < n; i++) { sum += k[i]; v[i] = k[i] }
	      for (i = 1; i < n; i++) { x = v[i]; for (j = i - 1; j >= 0 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
	      printf "original\t%s\t%s\tthroughput\t%.1f\n", c, p, sum
	      printf "original\t%s\t%s\tmedian\t%.1f\n", c, p, v[int(n / 2)] }' "$T/out" >> "$T/raw" ||
		die "no usemem or dd lines from the original $1: $(head -5 "$T/out")"
	awk -v c="$1" -v p="$2" '/^cpu / { u += $2; s += $3; n++ }
	END { if (!n) exit 1
	      printf "original\t%s\t%s\tuser\t%.6f\noriginal\t%s\t%s\tsys\t%.6f\n", c, p, u, c, p, s }' \
		"$T/time" >> "$T/raw" || die "no CPU time of the original $1 from $CPU"
}
side_plugin() {	# case pair
	local db=$T/p.db
	bench_run_side plugin_run "$1"
	sqlite3 -batch -noheader -separator $'\t' "$db" "
	  SELECT 'plugin', '$1', $2, s.metric, s.value FROM samples s JOIN iterations i ON i.id = s.iteration_id
	   WHERE s.run_id = (SELECT max(id) FROM runs) AND i.warmup = 0 AND s.metric IN ('throughput', 'median')
	  UNION ALL
	  SELECT 'plugin', '$1', $2, CASE m.key WHEN 'user_time' THEN 'user' ELSE 'sys' END, m.delta
	    FROM monitors m JOIN iterations i ON i.id = m.iteration_id
	   WHERE i.run_id = (SELECT max(id) FROM runs) AND i.warmup = 0 AND m.source = 'time'
	     AND m.key IN ('user_time', 'system_time')" >> "$T/raw"
}
plugin_run() {	# case
	local db=$T/p.db try
	# another mmbench holding the machine lock: wait for it (up to 30 min);
	# a run whose iterations were all disturbed is kept (both sides ran
	# beside the same load) and counted in a note
	for try in $(seq 1 360); do
		"$MMB" run "$T/$1.yaml" --db "$db" -q > "$T/mmb.log" 2>&1 && break
		if grep -q "every iteration of .* was disturbed" "$T/mmb.log"; then
			echo x >> "$T/disturbed"
			break
		fi
		grep -q "runs must not overlap" "$T/mmb.log" || die "mmbench run ($1) failed: $(cat "$T/mmb.log")"
		[ "$try" -lt 360 ] || die "gave up waiting for another mmbench: $(cat "$T/mmb.log")"
		sleep 5
	done
}

echo "vm-scalability fidelity on $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, THP $(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo '?'):"
echo "  $PAIRS pairs per case, ${SIZE_MB} MiB, nr_task $TASKS, files in $DIR; $USEMEM"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
total=$((PAIRS * ${#CASE_LIST[@]})) n=0
for p in $(seq 1 "$PAIRS"); do
	for c in "${CASE_LIST[@]}"; do
		if [ $((p % 2)) = 1 ]; then side_original "$c" "$p"; side_plugin "$c" "$p"
		else side_plugin "$c" "$p"; side_original "$c" "$p"; fi
		n=$((n + 1))
		[ -t 2 ] && printf '\r  %d/%d' "$n" "$total" >&2
	done
done
[ -t 2 ] && printf '\r%20s\r' '' >&2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -s "$T/disturbed" ] && echo "note: $(wc -l < "$T/disturbed") plugin runs were marked disturbed (foreign load or a settings change); kept, since the original ran beside the same load"
bench_reclaim_notes
[ -z "$RAW" ] || cp "$T/raw" "$RAW" || die "cannot write $RAW"

awk -F'\t' '
function tq(df) {	# two-sided 95% t quantile
  split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
  return df <= 30 ? t[df] : 1.96
}
{ v[$1, $2, $4, $3] = $5; pairs[$3] = 1; if (!(($2, $4) in seen)) { seen[$2, $4] = 1; order[no++] = $2 SUBSEP $4 } }
END {
  printf "%-20s %-10s %12s %12s %7s %7s  %-17s %s\n", "case", "metric", "original", "plugin", "ratio", "gmean", "95% CI", "verdict"
  for (o = 0; o < no; o++) {
    split(order[o], cm, SUBSEP); c = cm[1]; m = cm[2]
    so = sp = 0; np = 0; ls = 0; lss = 0
    for (p in pairs) {
      if (!(("original", c, m, p) in v) || !(("plugin", c, m, p) in v)) continue
      a = v["original", c, m, p]; b = v["plugin", c, m, p]
      so += a; sp += b; np++
      r = (a > 0 && b > 0) ? log(b / a) : 0; ls += r; lss += r * r
    }
    if (!np || so <= 0) continue
    ratio = sp / so; g = exp(ls / np)
    sd = np > 1 ? sqrt((lss - ls * ls / np) / (np - 1)) : 0
    h = np > 1 ? tq(np - 1) * sd / sqrt(np) : 0
    lo = exp(ls / np - h); hi = exp(ls / np + h)
    if (m == "throughput" || m == "median")
      verdict = (g >= 0.95 && g <= 1.05 && lo >= 0.92 && hi <= 1.08) ? "met" : "missed"
    else
      verdict = (g >= 0.90 && g <= 1.10) ? "met" : "missed"
    # The kernel splits CPU time into user and system by timer-tick samples:
    # a few tens of ms is a handful of ticks, and a wide CI is that, not the plugin.
    if ((m == "user" || m == "sys") && so / np < 0.1 && (lo < 0.90 || hi > 1.10)) {
      verdict = "unresolved"
      notes[nn++] = sprintf("note: %s %s: the original spends %.3f s a run there, a few timer ticks (the kernel splits user and system time by tick samples): the CI [%.3f, %.3f] is that noise; give more MiB (-s) to judge it", c, m, so / np, lo, hi)
    }
    fmt = (m == "user" || m == "sys") ? "%-20s %-10s %12.3f %12.3f %7.3f %7.3f  [%.3f, %.3f]  %s\n" \
				      : "%-20s %-10s %12.1f %12.1f %7.3f %7.3f  [%.3f, %.3f]  %s\n"
    printf fmt, c, m, so / np, sp / np, ratio, g, lo, hi, verdict
    printf "vms-fidelity %s %s\t%s\t%.3f [%.3f, %.3f]\t%s\t%.3f\t%s\n", c, m, \
      (m == "throughput" || m == "median") ? "1 +-5%" : "1 +-10%", g, lo, hi, \
      (m == "throughput" || m == "median") ? "0.95-1.05" : "0.90-1.10", g, verdict > "/dev/stderr"
  }
  for (i = 0; i < nn; i++)
    print notes[i]
}' "$T/raw" 2> "$T/rows"
while IFS=$'\t' read -r fig goal measured limit ratio verdict; do
	bench_row "$fig" "$goal" "$measured" "$limit" "$ratio" "$verdict"
done < "$T/rows"
