#!/bin/bash
# `kernel build --base-config FILE` copies FILE into the build folder as
# .config; a secret (0640, like /etc/shadow) once landed there as 0644,
# readable by everyone.  The copy keeps the source's mode (0600 for a
# source that is not a regular file).  The tree is not a kernel, so the
# build fails right after the copy (exit 1): the copy is what is checked.
. "$(dirname "$0")/../e2e-lib.sh"
command -v git > /dev/null || skip "git not installed"
export MMBENCH_CACHE=$TMP/cache
cd "$TMP"
git init -q -b main T
echo a > T/f
git -C T add f
git -C T -c user.name=t -c user.email=t@localhost commit -q -m base

check() {	# check SOURCE WANTED-MODE
	rm -rf "$MMBENCH_CACHE"
	timeout 120 "$MMB" kernel build --tree T --name x --base-config "$1" > out 2> err || true
	cfg=$(find "$MMBENCH_CACHE/obj" -name .config | head -n 1)
	[ -n "$cfg" ] || { cat err; die "--base-config $1: no .config in the build folder"; }
	mode=$(stat -c %a "$cfg")
	[ "$mode" = "$2" ] || die "--base-config $1 ($(stat -L -c %a "$1")): the copy is $mode, expected $2"
	# the fragments follow the base config
	head -c "$(stat -c %s plain)" "$cfg" | cmp -s - plain || die "--base-config $1: not copied"
}
printf 'CONFIG_SECRET=y\n' > secret
cp secret plain
chmod 0640 secret
check secret 640
chmod 0600 secret
check secret 600
# under a permissive umask too: the mode is the source's, not the umask's
(umask 0; check secret 600)
# a source with no mode of its own (a FIFO): 0600
mkfifo fifo
(cat plain > fifo &)
check fifo 600
echo ok
