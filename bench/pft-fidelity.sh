#!/bin/bash
# pft fidelity: the mmbench pft plugin against a standalone pft 0.12x
# stand-in (bench/pft-ref/pft-ref.c, written from the behaviour reference,
# sharing no code with the plugin), interleaved on the same kernel under the
# same THP state (by default THP off for both through bench/pft-ref/no-thp,
# a prctl(PR_SET_THP_DISABLE) wrapper: base-page faults like the mmtests
# recipe, and no system setting is touched).  Prints, per mode and client
# count, the Hmean and CoV of faults/sec and faults/cpu for both sides, and
# the plugin/reference ratio of the Hmeans, and the paired ratio (geometric
# mean of the per-round plugin/reference ratios) with its 95% confidence
# interval, which cancels load drift shared by the two runs of a round.
#
# usage: bench/pft-fidelity.sh [-s SIZE] [-c "1 2"] [-m threads|processes|both]
#                              [-i ITERATIONS] [-o RAW.tsv] [-H] [-p SECONDS] [-r PFT]
#   -s  region size: 4096, 64K, 512M, 1G or N%mem (default 1G)
#   -c  client counts (default: 1 and the number of CPUs)
#   -m  worker mode (default both)
#   -i  measured iterations per side and variant (default 10; 1 warm-up each)
#   -o  also write every raw sample as TSV (side mode clients iter metric value)
#   -H  leave THP as the system has it (both sides still see the same state)
#   -p  seconds to pause before every run of either side (default 0): the
#       same gap after the other side freed its memory, for a VM whose
#       host takes freed memory back (free page reporting)
#   -r  the original pft binary (gormanm/pft, built by the user: docs/
#       workloads.md) instead of the stand-in; also PFT_ORIG in the
#       environment.  Only the original measures fidelity: the stand-in is
#       a smoke test of the bench.
# Free page reporting is held off where the kernel allows it, and a side
# the host took memory back from anyway is run again (bench/lib.sh).
# env: MMBENCH_BUILD (default build), CC (default cc), PFT_ORIG.
# Not part of `make check`: it takes minutes and asserts nothing about speed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)	# its own folder: a copy of bench/ runs from anywhere
ROOT=$(cd "$HERE/.." && pwd)
B=${MMBENCH_BUILD:-$ROOT/build}
# the samples view reads blocks through mmb_samples() (docs/store.md); a
# build from before the extension (bench/fidelity-bisect.sh runs old ones)
# keeps samples as a plain table
MMB_SQLEXT=$(cd "$B" && pwd)/sqlite/mmbsamples
if [ -e "$MMB_SQLEXT.so" ]; then
	sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
fi
MMB=$B/mmbench
SIZE=1G
CLIENTS=""
MODES="threads processes"
ITER=10
RAW=""
NOTHP=1
PAUSE=0
ORIG=${PFT_ORIG:-}

usage() { sed -n '/^# usage:/,/^# Not part/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "pft-fidelity: $*" >&2; exit 1; }

while getopts "s:c:m:i:o:Hr:p:h" o; do
	case $o in
	s) SIZE=$OPTARG ;;
	c) CLIENTS=$OPTARG ;;
	m) case $OPTARG in
	   threads|processes) MODES=$OPTARG ;;
	   both) MODES="threads processes" ;;
	   *) echo "pft-fidelity: -m: '$OPTARG' is not threads, processes or both" >&2; exit 2 ;;
	   esac ;;
	i) ITER=$OPTARG ;;
	o) RAW=$OPTARG ;;
	H) NOTHP=0 ;;
	p) PAUSE=$OPTARG ;;
	r) ORIG=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
[[ $PAUSE =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "pft-fidelity: -p: '$PAUSE' is not a number of seconds" >&2; exit 2; }
[[ $ITER =~ ^[1-9][0-9]*$ ]] || { echo "pft-fidelity: -i: '$ITER' is not a positive integer" >&2; exit 2; }
NCPU=$(getconf _NPROCESSORS_ONLN)
[ -n "$CLIENTS" ] || CLIENTS=$( [ "$NCPU" -gt 1 ] && echo "1 $NCPU" || echo 1)
for c in $CLIENTS; do
	[[ $c =~ ^[1-9][0-9]*$ ]] && [ "$c" -le 128 ] ||
		{ echo "pft-fidelity: -c: '$c' is not a client count in 1..128" >&2; exit 2; }
done

# One size string both sides read the same way: bytes, or K/M/G (2^10..2^30).
if [[ $SIZE =~ ^([0-9]+)%mem$ ]]; then
	memkb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	SIZE=$(( memkb * 1024 * ${BASH_REMATCH[1]} / 100 ))
elif ! [[ $SIZE =~ ^[0-9]+[KMG]?$ ]]; then
	echo "pft-fidelity: -s: '$SIZE' is not a size (4096, 64K, 512M, 1G, 20%mem)" >&2
	exit 2
fi

[ -x "$MMB" ] || die "$MMB not built (run make)"
[ -f "$B/workloads/pft.so" ] || die "$B/workloads/pft.so not built (run make)"
command -v sqlite3 >/dev/null || die "needs the sqlite3 CLI (apt-get install sqlite3)"

T=$(mktemp -d) || die "mktemp failed"
trap 'bench_knobs_replay; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
. "$HERE/lib.sh"
BENCH_RERUNS=$T/reruns
bench_hold_reporting || die "cannot journal the knob it would change"
# Run a private copy: a rebuild of the tree during the comparison must not
# swap the binary or the plugin under us.  The copy finds its plugin in
# <dir of mmbench>/workloads, first in the search path after MMBENCH_PLUGIN_PATH.
mkdir -p "$T/bin/workloads"
cp "$MMB" "$T/bin/mmbench" && cp "$B/workloads/pft.so" "$T/bin/workloads/pft.so" ||
	die "cannot copy $MMB and $B/workloads/pft.so"
MMB=$T/bin/mmbench
unset MMBENCH_PLUGIN_PATH
REF=$T/pft-ref
if [ -n "$ORIG" ]; then
	[ -x "$ORIG" ] || die "-r $ORIG: not an executable"
	REF=$ORIG
	echo "reference: the original pft, $ORIG"
else
	echo "reference: the stand-in bench/pft-ref (a smoke test, not fidelity: give the original with -r or PFT_ORIG)"
	${CC:-cc} -O3 -D_GNU_SOURCE -std=gnu11 -o "$REF" "$HERE/pft-ref/pft-ref.c" -lpthread -lrt ||
		die "cannot build bench/pft-ref/pft-ref.c"
fi
WRAP=()
if [ $NOTHP = 1 ]; then
	${CC:-cc} -O2 -std=gnu11 -o "$T/no-thp" "$HERE/pft-ref/no-thp.c" ||
		die "cannot build bench/pft-ref/no-thp.c"
	WRAP=("$T/no-thp")
fi

# The generated experiment has no environment section, so the harness
# changes nothing: both sides see the same THP state.  Say what it is.
THP=/sys/kernel/mm/transparent_hugepage
thp_state() {
	local s="" f v kb
	[ -r "$THP/enabled" ] || { echo "no THP"; return; }
	s="enabled=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP/enabled")"
	for f in "$THP"/hugepages-*kB/enabled; do
		[ -r "$f" ] || continue
		v=$(sed 's/.*\[\(.*\)\].*/\1/' "$f")
		[ "$v" = never ] && continue
		kb=${f#"$THP"/hugepages-}
		s="$s ${kb%/enabled}=$v"
	done
	echo "$s"
}
THP0=$(thp_state)
[ $NOTHP = 0 ] || THP0="off for both (PR_SET_THP_DISABLE; system: $THP0)"

# One experiment (and database) per variant, so samples need no variant label.
for mode in $MODES; do
	for c in $CLIENTS; do
		cat > "$T/$mode-$c.yaml" <<EOF
experiment: pft-fidelity
iterations: 1
warmup: 0
workloads:
  - name: pft
    params:
      size: $SIZE
      clients: $c
      mode: $mode
EOF
	done
done

: > "$T/raw"
run_ref() {	# mode clients iteration(0 = warm-up)
	sleep "$PAUSE"
	local flag=-t line
	[ "$1" = processes ] && flag=-n
	line=$("${WRAP[@]}" "$REF" -m "$SIZE" "$flag" "$2" 2>>"$T/ref.err" | tr -d s) ||
		die "pft-ref -m $SIZE $flag $2 failed: $(cat "$T/ref.err")"
	[ "$3" -gt 0 ] || return 0
	# fields: Gb Thr CLine User System Wall flt/cpu/s fault/wsec
	set -- "$1" "$2" "$3" $line
	printf 'pft-ref\t%s\t%s\t%s\tfaults/sec\t%s\n' "$1" "$2" "$3" "${11}" > "$T/row"
	printf 'pft-ref\t%s\t%s\t%s\tfaults/cpu\t%s\n' "$1" "$2" "$3" "${10}" >> "$T/row"
}
run_mmb() {	# mode clients iteration(0 = warm-up)
	sleep "$PAUSE"
	local db=$T/$1-$2.db
	[ "$3" -gt 0 ] || db=$T/warmup.db
	# Another mmbench holding the settings lock: wait for it (up to 30 min).
	for try in $(seq 1 360); do
		"${WRAP[@]}" "$MMB" run "$T/$1-$2.yaml" --db "$db" -q >"$T/mmb.log" 2>&1 && break
		# a busy machine: the value is kept (both sides ran in it), and counted
		if grep -q "every iteration of .* was disturbed" "$T/mmb.log"; then
			echo x >> "$T/disturbed"
			break
		fi
		grep -q "runs must not overlap" "$T/mmb.log" ||
			die "mmbench run ($1, clients=$2) failed: $(cat "$T/mmb.log")"
		[ $try -lt 360 ] || die "gave up waiting for another mmbench: $(cat "$T/mmb.log")"
		sleep 5
	done
	[ "$3" -gt 0 ] || return 0
	sqlite3 -batch -noheader -separator $'\t' "$db" \
		"SELECT 'mmbench', '$1', '$2', $3, metric, value FROM samples
		 WHERE run_id = (SELECT max(id) FROM runs)
		 AND metric IN ('faults/sec', 'faults/cpu')" > "$T/row"
}
# side RUN_FN mode clients iteration: one side's run, run again while the
# host took memory back during it (bench_run_side, bench/lib.sh);
# the last run's rows go to the raw file
side() {
	: > "$T/row"
	bench_run_side "$@"
	cat "$T/row" >> "$T/raw"
}

total=$(( (ITER + 1) * $(echo $MODES | wc -w) * $(echo $CLIENTS | wc -w) ))
done_=0
progress() { [ -t 2 ] && printf '\r  %d/%d runs per side' "$done_" "$total" >&2; }
echo "pft fidelity on $(uname -r): size $SIZE, clients {$CLIENTS}, $ITER iterations + 1 warm-up, THP $THP0"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 0 "$ITER"); do
	for mode in $MODES; do
		for c in $CLIENTS; do
			# Alternate which side goes first so slow drift hits both.
			if [ $((i % 2)) -eq 0 ]; then
				side run_ref "$mode" "$c" "$i"; side run_mmb "$mode" "$c" "$i"
			else
				side run_mmb "$mode" "$c" "$i"; side run_ref "$mode" "$c" "$i"
			fi
			done_=$((done_ + 1)); progress
		done
	done
done
[ -t 2 ] && printf '\r%40s\r' '' >&2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
bench_reclaim_notes
[ -s "$T/disturbed" ] && echo "note: $(wc -l < "$T/disturbed") mmbench runs were marked disturbed (foreign load or settings change); their values are kept here, since the reference ran beside the same load"
THP1=$(thp_state)
[ $NOTHP = 0 ] || THP1="off for both (PR_SET_THP_DISABLE; system: $THP1)"
[ "$THP0" = "$THP1" ] || [ $NOTHP = 1 ] ||
	echo "warning: THP state changed during the comparison ($THP0 -> $THP1): numbers are suspect"
if [ -s "$T/ref.err" ]; then
	echo "pft-ref warnings:"; sort "$T/ref.err" | uniq -c | sed 's/^/  /'
fi
[ -z "$RAW" ] || cp "$T/raw" "$RAW" || die "cannot write $RAW"

# Hmean (rates, higher is better: what mmtests reports), CoV from the
# sample standard deviation, the plugin/reference ratio of the Hmeans and
# the paired per-round ratio with its 95% CI (Student t on the log ratios).
awk -F'\t' '
function tq(df) {	# two-sided 95% t quantile
  split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
  return df <= 30 ? t[df] : 1.96
}
{ k = $2 SUBSEP $3 SUBSEP $5 SUBSEP $1
  val[k, $4] = $6; if ($4 > maxi) maxi = $4
  n[k]++; s[k] += $6; ss[k] += $6 * $6; inv[k] += 1 / $6
  if (!(k in mn) || $6 < mn[k]) mn[k] = $6
  if (!(k in mx) || $6 > mx[k]) mx[k] = $6
  if (!seen[$2 SUBSEP $3 SUBSEP $5]++) order[++no] = $2 SUBSEP $3 SUBSEP $5 }
END {
  printf "%-10s %7s  %-10s  %-8s %3s %14s %7s %14s %14s  %-10s %s\n",
         "mode", "clients", "metric", "side", "n", "hmean", "CoV", "min", "max", "plugin/ref",
         "paired ratio [95% CI]"
  for (o = 1; o <= no; o++) {
    split(order[o], f, SUBSEP)
    for (side = 1; side <= 2; side++) {
      sd = side == 1 ? "pft-ref" : "mmbench"; k = order[o] SUBSEP sd
      if (!(k in n)) continue
      hm = n[k] / inv[k]; am = s[k] / n[k]
      var = n[k] > 1 ? (ss[k] - n[k] * am * am) / (n[k] - 1) : 0
      cov = am > 0 && var > 0 ? 100 * sqrt(var) / am : 0
      h[sd] = hm
      ratio = ""; paired = ""
      if (side == 2 && h["pft-ref"] > 0) {
        ratio = sprintf("%.3f", hm / h["pft-ref"])
        kr = order[o] SUBSEP "pft-ref"; np = 0; ls = 0; lss = 0
        for (i = 1; i <= maxi; i++)
          if (((kr, i) in val) && ((k, i) in val) && val[kr, i] > 0 && val[k, i] > 0) {
            r = log(val[k, i] / val[kr, i]); np++; ls += r; lss += r * r
          }
        if (np > 1) {
          lm = ls / np; lsd = lss - np * lm * lm; lsd = lsd > 0 ? sqrt(lsd / (np - 1)) : 0
          hw = tq(np - 1) * lsd / sqrt(np)
          paired = sprintf("%.3f [%.3f, %.3f]", exp(lm), exp(lm - hw), exp(lm + hw))
        }
      }
      printf "%-10s %7s  %-10s  %-8s %3d %14.1f %6.2f%% %14.1f %14.1f  %-10s %s\n",
             f[1], f[2], f[3], sd, n[k], hm, cov, mn[k], mx[k], ratio, paired
      if (side == 1) rcov = cov
      if (side == 2 && np > 1)
        verdict[o] = sprintf("%s %s %s: CI %s 1.00, %s 0.98-1.02; CoV %.2f%% vs %.2f%% (x%.2f, %s 1.2)",
          f[1], f[2], f[3], (lm - hw <= 0 && lm + hw >= 0) ? "contains" : "MISSES",
          (exp(lm - hw) >= 0.98 && exp(lm + hw) <= 1.02) ? "within" : "NOT within",
          cov, rcov, rcov > 0 ? cov / rcov : 0, (rcov > 0 && cov <= 1.2 * rcov) ? "<=" : "ABOVE")
    }
    delete h
  }
  print "target (paired CI contains 1.00 and lies within 0.98-1.02; plugin CoV <= 1.2x the reference):"
  for (o = 1; o <= no; o++) if (o in verdict) print "  " verdict[o]
}' "$T/raw"
