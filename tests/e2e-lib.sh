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
skip() { echo "skip: $*"; exit 77; }
die() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 -batch -noheader "$MMBENCH_DB" "$@"; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root: $*"; }
