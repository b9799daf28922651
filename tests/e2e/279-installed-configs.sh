#!/bin/bash
# The installed tool finds its configs (issue 45 item 10): after `make
# install PREFIX=...`, outside the tree, `run quick`, `run quick.yaml` and
# `run configs/quick.yaml` load PREFIX/share/mmbench/configs/quick.yaml (an
# unknown --set key then fails after the load: nothing is measured); a
# name close to one says which ("did you mean 'quick'?"); an unknown one
# names the folder and the experiments there; a path of the user's that
# does not exist keeps its own error.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$(dirname "$0")/../.."
make --no-print-directory -s install BUILD="$MMBENCH_BUILD" PREFIX="$TMP/p" >"$TMP/log" 2>&1 ||
	{ cat "$TMP/log"; die "make install failed"; }
unset MMBENCH_PLUGIN_PATH MMBENCH_DATA_DIR
cd "$TMP"
M=$TMP/p/bin/mmbench
for c in quick quick.yaml configs/quick.yaml; do
	"$M" run "$c" --set nosuch=1 >/dev/null 2>"$TMP/err" && die "run $c --set nosuch=1 succeeded"
	grep -q "unknown environment key 'nosuch'" "$TMP/err" ||
		die "run $c did not load the installed config: $(cat "$TMP/err")"
done
rc=0; "$M" run quik >/dev/null 2>"$TMP/err" || rc=$?
[ $rc = 2 ] && grep -q "did you mean 'quick'?" "$TMP/err" || die "run quik: exit $rc: $(cat "$TMP/err")"
"$M" run zzzzzzzzzzzz >/dev/null 2>"$TMP/err" || true
grep -qF "share/mmbench/configs (" "$TMP/err" && grep -q "quick" "$TMP/err" ||
	die "run of an unknown name: $(cat "$TMP/err")"
"$M" run ./no/such.yaml >/dev/null 2>"$TMP/err" || true
grep -q "cannot read an experiment config" "$TMP/err" || die "a user's path: $(cat "$TMP/err")"
echo ok
