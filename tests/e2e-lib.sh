# Shared helpers for the end-to-end scripts (sourced, not run).
set -eu
MMB=${MMBENCH_BUILD:-build}/mmbench
TMP=$(mktemp -d)
BG_PIDS=
# background harnesses a failing test leaves behind are stopped (SIGINT: they restore)
cleanup() {
	for p in $BG_PIDS; do kill -INT "$p" 2>/dev/null || true; done
	for p in $BG_PIDS; do wait "$p" 2>/dev/null || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
export MMBENCH_DB=$TMP/mmbench.db
# the suite runs on shared machines: record interference, but only the
# interference tests (which unset this) let load mark iterations disturbed
export MMBENCH_INTERFERENCE=${MMBENCH_INTERFERENCE-record}
skip() { echo "skip: $*"; exit 77; }
die() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 -batch -noheader "$MMBENCH_DB" "$@"; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root: $*"; }

# mmbench run, waiting while another harness owns the settings lock
# (benchmarks never overlap).  Sets rc, $TMP/out and $TMP/err.
run() {
	for _ in $(seq 1 120); do
		set +e
		"$MMB" run "$@" -q >"$TMP/out" 2>"$TMP/err"
		rc=$?
		set -e
		[ $rc -ne 0 ] && grep -q "runs must not overlap" "$TMP/err" || return 0
		sleep 5
	done
}

# The experiment's environment: section pinning THP and every mTHP size to
# never, when we may set them (root, THP writable); empty otherwise.  Large
# folios would turn base-page faults into a few folio faults (pft, counters).
thp_never_env() {
	local thp=/sys/kernel/mm/transparent_hugepage d kb m=""
	[ "$(id -u)" = 0 ] && [ -w "$thp/enabled" ] || return 0
	printf 'environment:\n  thp: never\n'
	for d in "$thp"/hugepages-*kB; do
		[ -e "$d/enabled" ] || continue
		kb=${d##*/hugepages-}; kb=${kb%kB}
		m="$m${m:+, }${kb}K: never"
	done
	[ -z "$m" ] || printf '  mthp: { %s }\n' "$m"
}
