#!/bin/sh
# tests/kernel/make-repo.sh REPO: make REPO a git repo of Debian's
# linux-source-6.12 tagged v6.12-debian, once (installs the package when
# root).  Shared by make check-kernel and bench/kernel-ab-power.sh.
# Exit 0 ready, 77 cannot (the reason on stderr), else failed.
set -eu
REPO=$1
TARBALL=/usr/src/linux-source-6.12.tar.xz

git -C "$REPO" rev-parse -q --verify v6.12-debian >/dev/null 2>&1 && exit 0
if [ ! -f "$TARBALL" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "installing linux-source-6.12"
		apt-get install -y -q linux-source-6.12 >/dev/null 2>&1 || apt-get update -q >/dev/null 2>&1
		apt-get install -y -q linux-source-6.12 >/dev/null 2>&1 ||
			{ echo "SKIP: cannot install linux-source-6.12" >&2; exit 77; }
	else
		echo "SKIP: $TARBALL missing (apt-get install linux-source-6.12)" >&2
		exit 77
	fi
fi
echo "making a git repo of $TARBALL in $REPO"
rm -rf "$REPO.tmp"
mkdir -p "$REPO.tmp"
tar -xJf "$TARBALL" -C "$REPO.tmp" --strip-components=1
# Debian's .gitignore ignores the whole top level: drop that section
sed -i '/^# Debian packaging/,$d' "$REPO.tmp/.gitignore"
git -C "$REPO.tmp" init -q -b master
git -C "$REPO.tmp" add -A .
git -C "$REPO.tmp" -c user.name=mmbench -c user.email=mmbench@localhost \
	commit -q -m "linux-source-6.12 (Debian)"
git -C "$REPO.tmp" tag v6.12-debian
rm -rf "$REPO"
mv "$REPO.tmp" "$REPO"
