#!/bin/bash
# The scripts and data plot writes are pinned: every .gp and .dat of the
# fixed samples (three kernels; one sample and a missing metric; eight
# kernels with a CI cut at 0) hashes as tests/fixtures/plot/pinned.sha256
# records (the terminal line, which depends on gnuplot's build, left out).
# A clean-up of the plot code must not change them; a change meant to
# alter a picture updates the list in the same commit, saying why.
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"
FIX=$(cd "$(dirname "$0")/../fixtures/plot" && pwd)

"$MMB" -q import --name v6.8-rc1 "$FIX/base.csv"
"$MMB" -q import --name fork-batching "$FIX/new.csv"
"$MMB" -q import --name fork-batching-v2 "$FIX/new2.csv"
"$MMB" -q import --name sparse "$FIX/sparse.csv"
mkdir "$TMP/out"
"$MMB" plot --out "$TMP/out/full" v6.8-rc1 fork-batching fork-batching-v2 > /dev/null 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "plot of three kernels"; }
"$MMB" plot --out "$TMP/out/sparse" v6.8-rc1 sparse > /dev/null 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "plot of sparse data"; }

# eight kernels of pft-like data (the generator of e2e 55)
export MMBENCH_DB=$TMP/k.db
for k in 0 1 2 3 4 5 6 7; do
	awk -v k="$k" 'BEGIN {
		print "metric,workload,value,iteration,variant,unit,better"
		split("1 2 4 8", cl, " ")
		for (c = 1; c <= 4; c++) for (i = 1; i <= 6; i++) {
			j = ((i * 7 + c * 3 + k) % 5 - 2) / 200
			printf "faults/cpu,pft,%.2f,%d,clients=%d,faults/cpu-s,higher\n", 200000 * (1 + 0.02 * k) * (1 - 0.03 * c) * (1 + j), i, cl[c]
			printf "elapsed,pft,%.6f,%d,clients=%d,s,lower\n", 0.035 * (1 - 0.01 * k) * (1 + 0.05 * c) * (1 + j), i, cl[c]
			if (i <= 2)
				printf "system,pft,%.4f,%d,clients=%d,s,lower\n", (i == 1 ? 0.01 : 0.05) * (1 + 0.1 * k), i, cl[c]
		}
	}' > "$TMP/k$k.csv"
	"$MMB" -q import --name "k$k" "$TMP/k$k.csv"
done
"$MMB" plot --out "$TMP/out/pol8" k0 k1 k2 k3 k4 k5 k6 k7 > /dev/null 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "plot of eight kernels"; }

cd "$TMP/out"
for f in */*.gp */*.dat; do
	printf '%s  %s\n' "$(grep -v '^set terminal ' "$f" | sha256sum | cut -d' ' -f1)" "$f"
done | sort -k2 > "$TMP/got"
[ -n "${UPDATE:-}" ] && cp "$TMP/got" "$FIX/pinned.sha256"
sort -k2 "$FIX/pinned.sha256" > "$TMP/want"
[ "$(wc -l < "$TMP/want")" -gt 60 ] || die "the pinned list is short: $(wc -l < "$TMP/want") files"
diff "$TMP/want" "$TMP/got" > "$TMP/diff" ||
	die "plot wrote other scripts or data than pinned (< pinned, > now):
$(cat "$TMP/diff")"
echo ok
