#!/bin/bash
# ebizzy and aim9 fidelity: the mmbench plugins against independent
# reference programs (bench/ref/ebizzy-ref.c: ebizzy 0.3 with its quirks;
# bench/ref/aim9-ref.c: AIM9 brk_test/page_test with the singleuser loop),
# written from the behaviour reference and sharing no code with the
# plugins.  Reference and plugin runs are interleaved (the side that goes
# first alternates) on the same kernel; prints per case the mean and CoV of
# the throughput of both sides, the ratio of the means and the paired
# per-round ratio with its 95% confidence interval, and whether the case
# meets the fidelity target (the CI contains 1.00 and lies within
# 0.98-1.02; the plugin's CoV is at most 1.2x the reference's).  For ebizzy
# also records per CPU-second (user+sys of the window), which a loaded
# machine disturbs much less than records per wall second.
#
# usage: bench/fidelity-workloads.sh [-i ITERATIONS] [-d SECONDS] [-t THREADS]
#                                    [-c CASES] [-o RAW.tsv]
#   -i  measured runs per side and case (default 30; plus 1 warm-up each)
#   -d  seconds per run: ebizzy -S / aim9 test time (default 2)
#   -t  ebizzy threads (default 2 x CPUs, ebizzy's default)
#   -c  cases, comma separated (default ebizzy-compat,ebizzy-lcg,brk_test):
#       ebizzy-compat  ebizzy 0.3 as is        vs rng: compat
#       ebizzy-lcg     ebizzy-ref -L           vs rng: lcg (mmbench default)
#       ebizzy-mTRp    ebizzy -mTRp            vs the SPF config's params
#       brk_test, page_test   aim9-ref         vs aim9 test: ...
#   -o  also write every raw sample as TSV (side case iteration value)
# env: MMBENCH_BUILD (default build), CC (default cc).
# Not part of `make check`: it takes minutes and asserts nothing about speed.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${MMBENCH_BUILD:-$ROOT/build}
# the samples view reads blocks through mmb_samples() (docs/store.md)
MMB_SQLEXT=$(cd "$B" && pwd)/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
case $B in /*) ;; *) B=$ROOT/$B ;; esac
MMB=$B/mmbench
ITER=30
DUR=2
THREADS=$(( 2 * $(getconf _NPROCESSORS_ONLN) ))
CASES=ebizzy-compat,ebizzy-lcg,brk_test
RAW=""

usage() { sed -n '/^# usage:/,/^# Not part/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "fidelity-workloads: $*" >&2; exit 1; }
posint() { [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "fidelity-workloads: $1: '$2' is not a positive integer" >&2; exit 2; }; }

while getopts "i:d:t:c:o:h" o; do
	case $o in
	i) posint -i "$OPTARG"; ITER=$OPTARG ;;
	d) posint -d "$OPTARG"; DUR=$OPTARG ;;
	t) posint -t "$OPTARG"; THREADS=$OPTARG ;;
	c) CASES=$OPTARG ;;
	o) RAW=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
IFS=, read -r -a CASE_LIST <<< "$CASES"
for c in "${CASE_LIST[@]}"; do
	case $c in
	ebizzy-compat|ebizzy-lcg|ebizzy-mTRp|brk_test|page_test) ;;
	*) echo "fidelity-workloads: -c: unknown case '$c' (ebizzy-compat, ebizzy-lcg, ebizzy-mTRp, brk_test, page_test)" >&2
	   exit 2 ;;
	esac
done

[ -x "$MMB" ] || die "$MMB not built (run make)"
for w in ebizzy aim9; do
	[ -f "$B/workloads/$w.so" ] || die "$B/workloads/$w.so not built (run make)"
done
command -v sqlite3 >/dev/null || die "needs the sqlite3 CLI (apt-get install sqlite3)"

T=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
${CC:-cc} -O2 -std=gnu11 -pthread -o "$T/ebizzy-ref" "$ROOT/bench/ref/ebizzy-ref.c" ||
	die "cannot build bench/ref/ebizzy-ref.c"
${CC:-cc} -O2 -std=gnu11 -o "$T/aim9-ref" "$ROOT/bench/ref/aim9-ref.c" ||
	die "cannot build bench/ref/aim9-ref.c"

# One generated experiment per case; no environment section, so the
# harness changes nothing and both sides see the same system.
for c in "${CASE_LIST[@]}"; do
	case $c in
	ebizzy-*)
		extra="      rng: compat"
		[ "$c" = ebizzy-lcg ] && extra="      rng: lcg"
		[ "$c" = ebizzy-mTRp ] && extra=$(printf '      rng: compat\n      mmap_always: true\n      touch_only: true\n      random_size: true\n      mprotect: true')
		cat > "$T/$c.yaml" <<EOF
experiment: fidelity-$c
iterations: 1
warmup: 0
workloads:
  - name: ebizzy
    params:
      threads: $THREADS
      duration: ${DUR}s
$extra
EOF
		;;
	*)
		cat > "$T/$c.yaml" <<EOF
experiment: fidelity-$c
iterations: 1
warmup: 0
workloads:
  - name: aim9
    params:
      test: $c
      testtime: ${DUR}s
EOF
		;;
	esac
done

: > "$T/raw"
run_ref() {	# case iteration(0 = warm-up)
	local out v
	case $1 in
	ebizzy-compat) out=$("$T/ebizzy-ref" -t "$THREADS" -S "$DUR" 2>&1) ;;
	ebizzy-lcg) out=$("$T/ebizzy-ref" -t "$THREADS" -S "$DUR" -L 2>&1) ;;
	ebizzy-mTRp) out=$("$T/ebizzy-ref" -t "$THREADS" -S "$DUR" -mTRp 2>&1) ;;
	*) out=$("$T/aim9-ref" "$1" "$DUR" 2>&1) ;;
	esac || die "reference for $1 failed: $out"
	case $1 in
	ebizzy-*) v=$(awk '/records\/s/ { print $1; exit }' <<< "$out") ;;
	*) v=$(awk '$2 ~ /_test$/ { print $6; exit }' <<< "$out") ;;
	esac
	[ -n "$v" ] || die "cannot parse the reference output for $1: $out"
	[ "$2" -gt 0 ] || return 0
	printf 'reference\t%s\t%s\t%s\n' "$1" "$2" "$v" >> "$T/raw"
	# records per CPU-second: records/s x whole-second window / (user + sys)
	case $1 in
	ebizzy-*) awk -v c="$1" -v i="$2" -v v="$v" '
		/^real/ { r = $2 } /^user/ { u = $2 } /^sys/ { s = $2 }
		END { if (u + s > 0) printf "reference\t%s/cpu\t%s\t%.1f\n", c, i, v * r / (u + s) }' \
		<<< "$out" >> "$T/raw" ;;
	esac
	return 0
}
# The experiments change no system setting, so the harness gets a private
# journal (and settings lock): like the reference program, the plugin side
# does not wait for other mmbench runs on the machine.
export MMBENCH_STATE=$T/state
mkdir -p "$MMBENCH_STATE"
run_mmb() {	# case iteration(0 = warm-up)
	local db=$T/$1.db metric
	"$MMB" run "$T/$1.yaml" --db "$db" -q >"$T/mmb.log" 2>&1 ||
		die "mmbench run ($1) failed: $(cat "$T/mmb.log")"
	case $1 in
	ebizzy-*) metric=throughput ;;
	*) metric=$1.ops_per_sec ;;
	esac
	[ "$2" -gt 0 ] || return 0
	sqlite3 -batch -noheader -separator $'\t' "$db" \
		"SELECT 'mmbench', '$1', $2, value FROM samples
		 WHERE run_id = (SELECT max(id) FROM runs) AND metric = '$metric'" >> "$T/raw"
	# records per CPU-second over the -d window (the exact window is a few
	# ms longer: this side is biased low by that much, ~0.1-0.5%)
	case $1 in
	ebizzy-*) sqlite3 -batch -noheader -separator $'\t' "$db" \
		"SELECT 'mmbench', '$1/cpu', $2, printf('%.1f', t.value * $DUR / (u.value + s.value))
		 FROM samples t, samples u, samples s
		 WHERE t.run_id = (SELECT max(id) FROM runs) AND u.run_id = t.run_id
		 AND s.run_id = t.run_id AND t.metric = 'throughput' AND u.metric = 'time.user'
		 AND s.metric = 'time.sys' AND u.value + s.value > 0" >> "$T/raw" ;;
	esac
}

echo "workload fidelity on $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs: $ITER runs + 1 warm-up per side, ${DUR}s each, ebizzy threads $THREADS"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
total=$(( (ITER + 1) * ${#CASE_LIST[@]} )) done_=0
for i in $(seq 0 "$ITER"); do
	for c in "${CASE_LIST[@]}"; do
		# Alternate which side goes first so slow drift hits both.
		if [ $((i % 2)) -eq 0 ]; then
			run_ref "$c" "$i"; run_mmb "$c" "$i"
		else
			run_mmb "$c" "$i"; run_ref "$c" "$i"
		fi
		done_=$((done_ + 1))
		[ -t 2 ] && printf '\r  %d/%d' "$done_" "$total" >&2
	done
done
[ -t 2 ] && printf '\r%20s\r' '' >&2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -z "$RAW" ] || cp "$T/raw" "$RAW" || die "cannot write $RAW"

# Per case: mean, CoV (sample standard deviation) and min/max of each side,
# the ratio of the means, and the paired ratio: geometric mean of the
# per-round plugin/reference ratios with its 95% confidence interval
# (Student t), which cancels drift shared by the two runs of a round.
awk -F'\t' '
function tq(df) {	# two-sided 95% t quantile
  split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
  return df <= 30 ? t[df] : 1.96
}
{ k = $2 SUBSEP $1; n[k]++; s[k] += $4; ss[k] += $4 * $4; val[$2, $1, $3] = $4
  if (!(k in mn) || $4 < mn[k]) mn[k] = $4
  if (!(k in mx) || $4 > mx[k]) mx[k] = $4
  if ($3 > maxi) maxi = $3
  if (!seen[$2]++) order[++no] = $2 }
END {
  printf "%-18s %-9s %3s %14s %7s %14s %14s  %-10s %s\n", "case", "side", "n", "mean", "CoV",
         "min", "max", "plugin/ref", "paired ratio [95% CI]"
  for (o = 1; o <= no; o++) {
    c = order[o]
    for (side = 1; side <= 2; side++) {
      sd = side == 1 ? "reference" : "mmbench"; k = c SUBSEP sd
      if (!(k in n)) continue
      am = s[k] / n[k]
      var = n[k] > 1 ? (ss[k] - n[k] * am * am) / (n[k] - 1) : 0
      cov = am > 0 && var > 0 ? 100 * sqrt(var) / am : 0
      m[sd] = am; ratio = ""; paired = ""
      if (side == 2 && m["reference"] > 0) {
        ratio = sprintf("%.3f", am / m["reference"])
        np = 0; ls = 0; lss = 0
        for (i = 1; i <= maxi; i++)
          if (((c, "reference", i) in val) && ((c, "mmbench", i) in val) &&
              val[c, "reference", i] > 0 && val[c, "mmbench", i] > 0) {
            r = log(val[c, "mmbench", i] / val[c, "reference", i]); np++; ls += r; lss += r * r
          }
        if (np > 1) {
          lm = ls / np; lsd = lss - np * lm * lm; lsd = lsd > 0 ? sqrt(lsd / (np - 1)) : 0
          h = tq(np - 1) * lsd / sqrt(np)
          paired = sprintf("%.3f [%.3f, %.3f]", exp(lm), exp(lm - h), exp(lm + h))
        }
      }
      printf "%-18s %-9s %3d %14.2f %6.2f%% %14.2f %14.2f  %-10s %s\n", c, sd, n[k], am,
             cov, mn[k], mx[k], ratio, paired
      if (side == 1) rcov = cov
      if (side == 2 && np > 1)
        verdict[c] = sprintf("%s: CI %s 1.00, %s 0.98-1.02; CoV %.2f%% vs %.2f%% (x%.2f, %s 1.2)", c,
          (lm - h <= 0 && lm + h >= 0) ? "contains" : "MISSES",
          (exp(lm - h) >= 0.98 && exp(lm + h) <= 1.02) ? "within" : "NOT within",
          cov, rcov, rcov > 0 ? cov / rcov : 0, (rcov > 0 && cov <= 1.2 * rcov) ? "<=" : "ABOVE")
    }
  }
  print "target:"
  for (o = 1; o <= no; o++) if (order[o] in verdict) print "  " verdict[order[o]]
}' "$T/raw"
