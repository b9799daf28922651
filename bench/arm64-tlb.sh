#!/bin/bash
# Batched TLB flush in reclaim on arm64 (issue 46): 6.12 against 6.12 with
# tests/fixtures/kernel/arm64-no-batched-tlb (ARCH_WANT_BATCHED_UNMAP_TLB_FLUSH
# off), on the seed's pageout micro-benchmark (bench/arm64-tlb.yaml), in
# arm64 guests under TCG: for each vCPU count the mm spans every vCPU (idle
# threads on the others), on the virtual clock and on the real one; each
# guest profiles its runs with the built-in sampler, and the script prints
# ptep_clear_flush's share per kernel.
#
# usage: bench/arm64-tlb.sh [-c "1 4"] [-k "virtual real"] [-r ROUNDS] [-R REPO]
#   -c  vCPU counts (default "1 4")
#   -k  clocks (default "virtual real")
#   -r  rounds per A/B (default 3)
#   -R  a git repo with the tag v6.12 (default: $MMBENCH_BUILD/cache/linux-versions.git,
#       which bench/kernel-versions.sh makes)
# Needs make guest-arm64.  Measure on a quiet machine; builds may run beside
# other work (KVER_PREPARE_ONLY=1 KVER_ARCH=arm64 bench/kernel-versions.sh).
set -u
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${MMBENCH_BUILD:-build}" && pwd) || exit 1
MM=$B/mmbench
MMB_SQLEXT=$B/sqlite/mmbsamples
sqlite3() { command sqlite3 -cmd ".load $MMB_SQLEXT" "$@"; }
CPUS="1 4" CLOCKS="virtual real" ROUNDS=3 REPO=$B/cache/linux-versions.git
die() { echo "arm64-tlb: $*" >&2; exit 1; }
while getopts "c:k:r:R:" o; do
	case $o in
	c) CPUS=$OPTARG ;;
	k) CLOCKS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	R) REPO=$OPTARG ;;
	*) sed -n '/^# usage:/,/^# Needs/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[[ $ROUNDS =~ ^[0-9]+$ ]] && [ "$ROUNDS" -ge 2 ] || die "-r '$ROUNDS' is not a count >= 2"
for c in $CPUS; do [[ $c =~ ^[1-9][0-9]?$ ]] || die "-c: '$c' is not a vCPU count"; done
for k in $CLOCKS; do [[ $k =~ ^(virtual|real)$ ]] || die "-k: '$k' is not virtual or real"; done
[ -x "$MM" ] || die "$MM not built"
git -C "$REPO" rev-parse -q --verify v6.12 >/dev/null 2>&1 ||
	die "$REPO has no v6.12 (KVER_PREPARE_ONLY=1 KVER_ARCH=arm64 bash bench/kernel-versions.sh makes it)"
export MMBENCH_CACHE=${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}
T=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
export MMBENCH_STATE=$T/state
echo "arm64-tlb: 6.12 vs 6.12 without batched TLB flush, vCPUs {$CPUS}, clocks {$CLOCKS}, $ROUNDS rounds"
for k in $CLOCKS; do
	for c in $CPUS; do
		sed "s/^      idle_threads: 0 .*/      idle_threads: $((c - 1))/" bench/arm64-tlb.yaml > "$T/exp.yaml"
		export MMBENCH_DB=$T/$k-$c.db
		echo "== $k clock, $c vCPU(s), $((c - 1)) idle thread(s); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
		t0=$(date +%s)
		"$MM" ab --arch arm64 --tree "$REPO" --base v6.12 --base-config tinyconfig \
			--patch tests/fixtures/kernel/arm64-no-batched-tlb --accel tcg --clock "$k" \
			--cpus "$c" --mem 512M --rounds "$ROUNDS" --profile --no-plots "$T/exp.yaml" 2>"$T/err" |
			grep -E '^(pageout|arch|unit|verdict)' || { tail -5 "$T/err"; echo "(ab failed)"; }
		echo "   $(( $(date +%s) - t0 )) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
		# ptep_clear_flush's share of the guest's samples per kernel, the mean
		# over its runs (self, and inclusive: the call chains through it;
		# a run that does not list it had it below its listed rows: 0)
		sqlite3 -batch -noheader "$MMBENCH_DB" "
		  WITH pr AS (SELECT DISTINCT run_id FROM profiles WHERE workload = 'pageout')
		  SELECT '   ' || k.label || ' (' || count(DISTINCT pr.run_id) || ' runs): ptep_clear_flush self ' ||
		         printf('%.2f%%', coalesce((SELECT sum(x.pct) FROM profile_rows x JOIN runs r2 ON r2.id = x.run_id
		            WHERE r2.kernel_id = k.id AND x.kind = 'self' AND x.name = 'ptep_clear_flush'), 0) /
		            count(DISTINCT pr.run_id)) || ', with callees ' ||
		         printf('%.2f%%', coalesce((SELECT sum(x.pct) FROM profile_rows x JOIN runs r2 ON r2.id = x.run_id
		            WHERE r2.kernel_id = k.id AND x.kind = 'calltrace' AND instr(x.name, 'ptep_clear_flush') > 0), 0) /
		            count(DISTINCT pr.run_id))
		    FROM pr JOIN runs r ON r.id = pr.run_id JOIN kernels k ON k.id = r.kernel_id
		   GROUP BY k.id" || true
		cp "$MMBENCH_DB" "/tmp/arm64-tlb-$k-$c.db" 2>/dev/null
	done
done
