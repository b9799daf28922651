# Shared helpers for the end-to-end scripts (sourced, not run).
set -eu
MMB=${MMBENCH_BUILD:-build}/mmbench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export MMBENCH_DB=$TMP/mmbench.db
skip() { echo "skip: $*"; exit 77; }
die() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 -batch -noheader "$MMBENCH_DB" "$@"; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root: $*"; }
