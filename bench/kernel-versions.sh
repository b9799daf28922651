#!/bin/bash
# Kernel versions A/B on real trees (issue 30, item 3; make bench KVER=1,
# never make check): Debian's linux-source-6.1 and linux-source-6.12 as two
# commits of one repo (tags v6.1 and v6.12), then
#   mmbench ab --tree REPO --base v6.1 --new v6.12 bench/kernel-versions.yaml
# Between them landed the fork() batching for PTE-mapped large folios
# (6.9); docs/kernel-ab.md holds what this measured.
#
# Env: MMBENCH_BUILD (build), KVER_REPO ($MMBENCH_BUILD/cache/linux-versions.git),
#   KVER_ROUNDS (8), KVER_ACCEL (auto), KVER_CLOCK (real; virtual: TCG on the
#   virtual clock, docs/kernel-ab.md), KVER_CPUS (2; 1 on the virtual
#   clock, where 6.1 hangs bringing up a second vCPU), KVER_EXP (bench/kernel-versions.yaml),
#   KVER_DB (keep the DB; default a temporary one), KVER_ARCH (the host's;
#   arm64: cross-built, under TCG, after make guest-arm64), MMBENCH_KERNEL_CACHE.
#   KVER_PREPARE_ONLY=1: make the repo and build both kernels (cached for
#   ab), boot nothing: the builds may run beside other work, the A/B not.
set -u
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${MMBENCH_BUILD:-build}" && pwd) || exit 1
MM=$B/mmbench
REPO=${KVER_REPO:-$B/cache/linux-versions.git}
ROUNDS=${KVER_ROUNDS:-8}
ACCEL=${KVER_ACCEL:-auto}
CLOCK=${KVER_CLOCK:-real}
# 1 on the virtual clock: Debian's 6.1 hangs bringing up a second vCPU there
CPUS=${KVER_CPUS:-2}
[ "$CLOCK" = virtual ] && ACCEL=tcg
EXP=${KVER_EXP:-bench/kernel-versions.yaml}
ARCH=${KVER_ARCH:-}
ARCHOPT=()
if [ -n "$ARCH" ]; then
	[[ $ARCH =~ ^(x86_64|arm64)$ ]] || { echo "kernel-versions: KVER_ARCH '$ARCH' is not x86_64 or arm64" >&2; exit 2; }
	ARCHOPT=(--arch "$ARCH")
fi
QEMU=qemu-system-x86_64
[ "$ARCH" = arm64 ] && QEMU=qemu-system-aarch64
export MMBENCH_CACHE=${MMBENCH_KERNEL_CACHE:-$B/cache/kernel}

die() { echo "kernel-versions: $*" >&2; exit 1; }
[ -x "$MM" ] || die "$MM not built (run make)"
[[ $ROUNDS =~ ^[0-9]+$ ]] && [ "$ROUNDS" -ge 2 ] || die "KVER_ROUNDS '$ROUNDS' is not a count >= 2"
command -v $QEMU >/dev/null || die "$QEMU not installed"

# One Debian source package's tree as the next commit of $1 (tag $2).
add_version() {
	local repo=$1 tag=$2 ver=$3 tarball=/usr/src/linux-source-$3.tar.xz
	if [ ! -f "$tarball" ]; then
		[ "$(id -u)" = 0 ] || die "$tarball missing (apt-get install linux-source-$ver)"
		apt-get install -y -q "linux-source-$ver" >/dev/null 2>&1 ||
			die "cannot install linux-source-$ver"
	fi
	echo "kernel-versions: $tarball as $tag"
	find "$repo" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
	tar -xJf "$tarball" -C "$repo" --strip-components=1 || die "cannot unpack $tarball"
	# Debian's .gitignore ignores the whole top level: drop that section
	sed -i '/^# Debian packaging/,$d' "$repo/.gitignore"
	git -C "$repo" add -A . || die "git add failed"
	git -C "$repo" -c user.name=mmbench -c user.email=mmbench@localhost \
		commit -q -m "linux-source-$ver (Debian $(dpkg-query -W -f='${Version}' "linux-source-$ver" 2>/dev/null))" ||
		die "git commit failed"
	git -C "$repo" tag "$tag"
}

if ! git -C "$REPO" rev-parse -q --verify v6.12 >/dev/null 2>&1; then
	rm -rf "$REPO.tmp"
	mkdir -p "$REPO.tmp" && git -C "$REPO.tmp" init -q -b master || die "git init failed"
	add_version "$REPO.tmp" v6.1 6.1
	add_version "$REPO.tmp" v6.12 6.12
	rm -rf "$REPO"
	mv "$REPO.tmp" "$REPO"
fi

if [ -n "${KVER_PREPARE_ONLY:-}" ]; then
	for ref in v6.1 v6.12; do
		"$MM" kernel build "${ARCHOPT[@]}" --tree "$REPO" --ref "$ref" --name "$ref${ARCH:+-$ARCH}" --base-config tinyconfig ||
			die "building $ref failed"
	done
	exit 0
fi

T=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
export MMBENCH_DB=${KVER_DB:-$T/versions.db}
export MMBENCH_STATE=$T/state
echo "kernel-versions: v6.1 vs v6.12${ARCH:+ ($ARCH)}, $ROUNDS rounds, accel $ACCEL, $CLOCK clock, $(getconf _NPROCESSORS_ONLN) host CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s)
"$MM" ab "${ARCHOPT[@]}" --tree "$REPO" --base v6.1 --new v6.12 --base-config tinyconfig \
	--accel "$ACCEL" --clock "$CLOCK" --cpus "$CPUS" --mem 2G --rounds "$ROUNDS" --no-plots "$EXP"
rc=$?
echo "kernel-versions: ab exit $rc in $(( $(date +%s) - t0 )) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# the skipped sizes and their reasons, per kernel
if command -v sqlite3 >/dev/null; then
	sqlite3 "$MMBENCH_DB" "SELECT DISTINCT k.label, i.variant, i.reason FROM iterations i
		JOIN runs r ON r.id = i.run_id JOIN kernels k ON k.id = r.kernel_id
		WHERE i.status = 'skipped'" 2>/dev/null
fi
exit $rc
