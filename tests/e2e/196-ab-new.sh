#!/bin/bash
# Issue 30 item 1: `ab --new REF` A/Bs two refs of one tree; labels default
# to `git describe` of each ref; bad uses are refused before anything is
# built.  A tree of two tagged commits (not a kernel: the build that
# follows the labels fails at once, so nothing boots here; make
# check-kernel boots a real two-ref A/B).
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_CACHE=$TMP/cache
R=$TMP/tree
git init -q "$R"
git -C "$R" -c user.email=t@t -c user.name=t commit -q --allow-empty -m one
git -C "$R" tag v6.1
git -C "$R" -c user.email=t@t -c user.name=t commit -q --allow-empty -m two
git -C "$R" tag v6.12
git -C "$R" -c user.email=t@t -c user.name=t commit -q --allow-empty -m three
printf 'experiment: x\niterations: 1\nworkloads:\n  - name: skeleton\n' > "$TMP/x.yaml"
refused() {	# MESSAGE ARGS...: exit 2 with MESSAGE, nothing built
	local msg=$1 rc=0
	shift
	"$MMB" ab "$@" "$TMP/x.yaml" > "$TMP/out" 2> "$TMP/err" || rc=$?
	[ $rc = 2 ] || die "ab $*: exit $rc, want 2: $(cat "$TMP/err")"
	grep -qF -- "$msg" "$TMP/err" || die "ab $*: no '$msg' in: $(cat "$TMP/err")"
	[ ! -d "$MMBENCH_CACHE/kernels" ] || die "ab $*: built something"
}
refused "ab: --new REF needs --tree DIR" --base v6.1 --new v6.12
refused "ab: --new" --tree "$R" --base v6.1 --new=-x
refused "not a commit" --tree "$R" --base v6.1 --new v9.9
refused "are the same commit" --tree "$R" --base v6.12 --new v6.12
refused "no --patch or --new given" --tree "$R" --base v6.1
# labels: git describe of each ref (the build then fails: not a kernel tree)
"$MMB" ab --tree "$R" --base v6.1 --new v6.12 "$TMP/x.yaml" > "$TMP/out" 2> "$TMP/err" || true
grep -qF "ab: A = v6.1 (v6.1), B = v6.12 (v6.12 + 0 patch arguments)" "$TMP/err" ||
	die "default labels: $(cat "$TMP/err")"
"$MMB" ab --tree "$R" --base v6.1 --new HEAD "$TMP/x.yaml" > "$TMP/out" 2> "$TMP/err" || true
grep -qE "B = v6\.12-1-g[0-9a-f]+ \(HEAD " "$TMP/err" || die "describe of an untagged ref: $(cat "$TMP/err")"
# --base-name/--new-name still win
"$MMB" ab --tree "$R" --base v6.1 --new v6.12 --base-name old --new-name new "$TMP/x.yaml" \
	> "$TMP/out" 2> "$TMP/err" || true
grep -qF "ab: A = old (v6.1), B = new (v6.12" "$TMP/err" || die "names: $(cat "$TMP/err")"
echo ok
