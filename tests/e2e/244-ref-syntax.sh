#!/bin/bash
# Issue 42: `^REF` was accepted as a commit (git rev-parse --verify takes
# "^X^{commit}" and answers "^sha").  A ref names one commit: a commit id,
# tag or branch, optionally followed by ~N or ^N; what git would read as
# other revision syntax (a leading ^, .., :, @{, ^{}, ^!, ^@, ^-) is refused
# with exit 2 before git runs, in every command that takes a ref, and a
# --patch range is A..B of two such refs.
. "$(dirname "$0")/../e2e-lib.sh"
command -v git > /dev/null || skip "git not installed"
top=$(cd "$(dirname "$0")/../.." && pwd)
export MMBENCH_CACHE=$TMP/cache
T=$TMP/tree
git init -q -b main "$T"
g() { git -C "$T" -c user.name=t -c user.email=t@localhost "$@"; }
echo a > "$T/f"; g add f; g commit -q -m base; g tag v1
echo b > "$T/f"; g commit -q -am "mm: change"
real=$(command -v git)
mkdir "$TMP/bin"
printf '#!/bin/sh\nprintf "%%s|" "$@" >> "%s"\necho >> "%s"\nexec "%s" "$@"\n' \
	"$TMP/git.log" "$TMP/git.log" "$real" > "$TMP/bin/git"
chmod +x "$TMP/bin/git"
export PATH=$TMP/bin:$PATH
: > "$TMP/git.log"
cfg=$top/configs/quick.yaml
refused() {	# WHAT REF -- command... : exit 2, the ref named as not a name
	local what=$1 ref=$2 rc=0
	shift 3
	"$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
	[ $rc = 2 ] || die "$what $ref: exit $rc (want 2): $(cat "$TMP/err")"
	grep -qF -- "$what $ref: not a" "$TMP/err" || die "$what $ref: message: $(cat "$TMP/err")"
}
for ref in '^HEAD' 'HEAD^!' 'HEAD^@' 'HEAD^-' ':/change' 'HEAD:f' 'HEAD@{0}' '@{-1}' 'HEAD^{tree}' \
	   'v1..HEAD' 'HEAD~1~x' 'a b' 'ma*n'; do
	refused "kernel build: --ref" "$ref" -- "$MMB" kernel build --tree "$T" "--ref=$ref" --name x
	refused "ab: --base" "$ref" -- "$MMB" ab --tree "$T" "--base=$ref" --patch v1..HEAD "$cfg"
	refused "ab: --new" "$ref" -- "$MMB" ab --tree "$T" "--new=$ref" "$cfg"
	refused "bisect: --good" "$ref" -- "$MMB" bisect --tree "$T" "--good=$ref" --bad HEAD \
		--metric aim9.x "$cfg"
	refused "bisect: --bad" "$ref" -- "$MMB" bisect --tree "$T" --good v1 "--bad=$ref" \
		--metric aim9.x "$cfg"
done
for range in '^v1..HEAD' 'v1...HEAD' 'v1..HEAD..x' 'v1..' '..HEAD' 'v1..HEAD:f' 'HEAD@{1}..HEAD'; do
	refused "kernel build: --patch" "$range" -- "$MMB" kernel build --tree "$T" --ref v1 \
		"--patch=$range" --name x
	refused "ab: --patch" "$range" -- "$MMB" ab --tree "$T" --base v1 "--patch=$range" "$cfg"
done
[ ! -s "$TMP/git.log" ] || { cat "$TMP/git.log"; die "git ran before the refusals"; }
# what a ref may be reaches git: a name, ~N and ^N steps
for ref in v1 HEAD~1 HEAD^ main~1^0 "$(g rev-parse HEAD)"; do
	rc=0
	"$MMB" kernel build --tree "$T" "--ref=$ref" --name x > "$TMP/out" 2> "$TMP/err" || rc=$?
	grep -q 'not a commit, tag or branch' "$TMP/err" && die "--ref $ref refused: $(cat "$TMP/err")"
	grep -qF -- "rev-parse|--verify|--quiet|--end-of-options|$ref^{commit}|" "$TMP/git.log" ||
		die "--ref $ref did not reach git (exit $rc): $(cat "$TMP/err")"
done
echo ok
