#!/bin/bash
# make bench: speed, memory and fidelity targets (never part of make check:
# this machine is shared and noisy).  Each script prints its own numbers.
set -u
cd "$(dirname "$0")/.."
export MMBENCH_BUILD=${MMBENCH_BUILD:-build}
rc=0
for b in bench/overhead.sh bench/interference-overhead.sh bench/interference-sensitivity.sh bench/compare-bench.sh bench/pft-fidelity.sh bench/fidelity-workloads.sh; do
	[ -x "$b" ] || [ -f "$b" ] || continue
	echo "== $b"
	bash "$b" || { echo "$b failed"; rc=1; }
done
# ~13 minutes of machine time: only when asked (make bench SENS=1)
if [ -n "${SENS:-}" ]; then
	echo "== bench/sensitivity.sh"
	bash bench/sensitivity.sh || { echo "bench/sensitivity.sh failed"; rc=1; }
fi
exit $rc
