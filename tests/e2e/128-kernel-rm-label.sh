#!/bin/bash
# Issue 27 item 2: `kernel rm` takes labels, never paths, and never follows
# a link out of the cache; a cache another user may write is refused.
. "$(dirname "$0")/../e2e-lib.sh"
C=$TMP/cache
export MMBENCH_CACHE=$C
mkdir -p "$C/kernels/k1" "$C/kernels/k2" "$C/labels" "$TMP/victim/sub" "$TMP/x"
echo keep > "$TMP/victim/sub/file"
echo keep > "$TMP/x/file"
printf 'key=k1\nrelease=6.1\n' > "$C/kernels/k1/meta"
printf 'key=k2\nrelease=6.2\n' > "$C/kernels/k2/meta"
ln -s ../kernels/k1 "$C/labels/good"
ln -s ../kernels/k2 "$C/labels/other"
ln -s "$TMP/victim" "$C/labels/out"		# planted: points out of the cache
ln -s ../kernels/../../victim "$C/labels/dots"
ln -s "$TMP/x" "$C/kernels/k3"			# a kernel folder that is a link
ln -s ../kernels/k3 "$C/labels/via"
chmod -R go-w "$C"

# a path as a label: refused, nothing removed (it rm -rf'ed ../../x)
for l in ../../x ../x /abs "a/b" .. -rf $'a\nb'; do
	set +e
	"$MMB" kernel rm -- "$l" > /dev/null 2> "$TMP/err"; rc=$?
	set -e
	[ $rc = 2 ] || die "kernel rm '$l': exit $rc, want 2 ($(cat "$TMP/err"))"
	grep -qF "kernel rm: label" "$TMP/err" || die "kernel rm '$l': $(cat "$TMP/err")"
done
[ -f "$TMP/x/file" ] && [ -f "$TMP/victim/sub/file" ] || die "a file outside the cache went"
# a link out of the cache: the link goes, never what it points at
for l in out dots via; do
	"$MMB" kernel rm "$l" > /dev/null 2>&1 || true
	[ ! -e "$C/labels/$l" ] && [ ! -L "$C/labels/$l" ] || die "label $l kept"
done
[ -f "$TMP/victim/sub/file" ] || die "kernel rm followed a label link out of the cache"
[ -f "$TMP/x/file" ] || die "kernel rm followed a kernels/ link out of the cache"
# a real label still works
"$MMB" kernel rm good > /dev/null 2>&1 || die "kernel rm good failed"
[ ! -e "$C/kernels/k1" ] || die "kernel rm good kept its build"
[ -d "$C/kernels/k2" ] || die "kernel rm removed another kernel"

# a cache anyone may write, or a labels/ that is a link: refused
chmod o+w "$C"
set +e
"$MMB" kernel rm other > /dev/null 2> "$TMP/err"; rc=$?
set -e
[ $rc = 1 ] || die "world-writable cache: exit $rc"
grep -qF "world-writable" "$TMP/err" || die "no reason: $(cat "$TMP/err")"
[ -d "$C/kernels/k2" ] || die "removed from a refused cache"
"$MMB" kernel list > /dev/null 2>&1 && die "kernel list used a world-writable cache"
chmod o-w "$C"
mv "$C/labels" "$TMP/labels.real" && ln -s "$TMP/labels.real" "$C/labels"
"$MMB" kernel list > /dev/null 2> "$TMP/err" && die "labels/ as a symlink was used"
grep -qF "symbolic link" "$TMP/err" || die "no reason: $(cat "$TMP/err")"
rm "$C/labels" && mv "$TMP/labels.real" "$C/labels"
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$C"
	"$MMB" kernel list > /dev/null 2> "$TMP/err" && die "another user's cache was used"
	grep -qF "belongs to uid 65534" "$TMP/err" || die "no reason: $(cat "$TMP/err")"
	chown 0 "$C"
fi

# without HOME the cache is the user's home folder's, never /tmp/.cache
unset MMBENCH_CACHE
out=$(env -u HOME -u XDG_CACHE_HOME "$MMB" kernel list 2>&1) || true
case $out in
*/tmp/.cache/*) die "HOME unset: the cache fell back to /tmp/.cache: $out" ;;
esac
echo ok
