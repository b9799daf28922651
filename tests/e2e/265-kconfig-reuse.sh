#!/bin/bash
# kernel build reuses a build folder's resolved .config only for the same
# config recipe on the same base commit.  Another commit of the tree (6.12
# after 6.1) resolves the recipe with other Kconfig files: the 6.1 .config
# reused for 6.12 left CONFIG_ZRAM off.  A fake `make` stands in for
# Kbuild: olddefconfig stamps the tree's KVERSION file into the .config.
# A label that names a build of an older recipe version goes to the new
# build (each ab's automatic labels would otherwise be refused after the
# version changed).
. "$(dirname "$0")/../e2e-lib.sh"
command -v git > /dev/null || skip "git not installed"
export MMBENCH_CACHE=$TMP/cache
mkdir -p "$TMP/bin"
cat > "$TMP/bin/make" <<'EOS'
#!/bin/bash
src= obj= target=
for a in "$@"; do
	case $a in
	O=*) obj=${a#O=} ;;
	-C|-s|-j*|*=*) ;;
	*) [ -d "$a" ] && src=$a || target=$a ;;
	esac
done
case $target in
tinyconfig|defconfig) echo "CONFIG_BASE=y" > "$obj/.config" ;;
olddefconfig) echo "CONFIG_FAKE_KCONFIG_$(cat "$src/KVERSION")=y" >> "$obj/.config" ;;
kernelrelease) echo "$(cat "$src/KVERSION")-fake" ;;
*) mkdir -p "$obj/arch/x86/boot" && echo image > "$obj/arch/x86/boot/bzImage" ;;
esac
EOS
chmod +x "$TMP/bin/make"
export PATH=$TMP/bin:$PATH
cd "$TMP"
git init -q -b main T
echo 1 > T/KVERSION
git -C T add KVERSION
git -C T -c user.name=t -c user.email=t@localhost commit -q -m v1
git -C T tag v1
echo 2 > T/KVERSION
git -C T -c user.name=t -c user.email=t@localhost commit -q -am v2
git -C T tag v2
cat > fix.patch <<'EOP'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: t <t@localhost>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH] a file

---
 NEW | 1 +
 1 file changed, 1 insertion(+)
 create mode 100644 NEW

diff --git a/NEW b/NEW
new file mode 100644
index 0000000..d00491f
--- /dev/null
+++ b/NEW
@@ -0,0 +1 @@
+1
-- 
2.39.2
EOP

build() {	# label ref [patch]
	"$MMB" kernel build --tree T --ref "$2" --name "$1" --base-config tinyconfig -j 1 \
		${3:+--patch "$3"} > "$1.out" 2> "$1.err" || { cat "$1.err"; die "kernel build $1 failed"; }
	cfg=$(cut -f3 "$1.out")
	cfg=$(dirname "$cfg")/config
	[ -f "$cfg" ] || die "$1: no config beside the image ($(cat "$1.out"))"
}
build a v1
grep -qx "CONFIG_FAKE_KCONFIG_1=y" "$cfg" || die "v1's config was not resolved by its own Kconfig: $(cat "$cfg")"
# another commit, the same recipe: configured again by its own Kconfig
build b v2
grep -q "config recipe unchanged" b.err && die "v2 reused v1's resolved .config: $(cat b.err)"
grep -qx "CONFIG_FAKE_KCONFIG_2=y" "$cfg" || die "v2's config is not v2's: $(cat "$cfg")"
grep -q "CONFIG_FAKE_KCONFIG_1" "$cfg" && die "v2's config carries v1's resolution: $(cat "$cfg")"
# the same commit and recipe with a series: reused (Kbuild resolves a series' Kconfig)
build c v2 fix.patch
grep -q "config recipe unchanged" c.err || die "the same commit and recipe configured again: $(cat c.err)"
# a label naming a build of an older recipe version (no recipe= in its
# meta) is given to the new build, with a note; one naming a current build
# of other inputs is still refused
old=$MMBENCH_CACHE/kernels/$(printf '0%.0s' $(seq 64))
mkdir -p "$old"
grep -v '^recipe=' "$(dirname "$cfg")/meta" | sed "s/^key=.*/key=${old##*/}/" > "$old/meta"
ln -sfn "../kernels/${old##*/}" "$MMBENCH_CACHE/labels/d"
build d v1
grep -q "label 'd' named a build of an older recipe" d.err || die "no note for the stale label: $(cat d.err)"
grep -qx "recipe=mmbench-kbuild-2" "$(dirname "$cfg")/meta" || die "the new build's meta has no recipe version"
"$MMB" kernel build --tree T --ref v1 --name c --base-config tinyconfig -j 1 > e.out 2> e.err &&
	die "label c (a current build of v2 + fix) was taken by a build of v1"
grep -q "kernel label 'c' already names another build" e.err || die "refusal message: $(cat e.err)"
echo "ok: a resolved .config is reused only on the same commit"
