#!/bin/sh
# Install the Debian packages mmbench needs, or say exactly what to run.
#   tools/install-deps.sh [build|run|host|test|kernel|lint|all]...   (default: run)
# As root: apt-get installs what is missing.  Otherwise: prints the
# apt-get line and exits 1, so `make run` stops before doing anything.
set -eu

build="gcc make libc6-dev libyaml-dev libsqlite3-dev"
run="$build sqlite3 linux-perf stress-ng"
test="$run libcmocka-dev gnuplot-nox chromium groff-base fonts-dejavu-core procps util-linux valgrind python3-scipy busybox-static slurm-wlm munge zsh"
lint="python3 cppcheck clang-tidy"
# ab --host on the machine itself (make deps): kexec -l / kexec -e
host="kexec-tools"
kernel="git qemu-system-x86 busybox-static cpio gzip xz-utils bc flex bison libelf-dev libssl-dev ccache linux-source-6.12"
# arm64 guests (make guest-arm64, check-arm64): the cross compiler, QEMU's
# aarch64 system emulator, and the arm64 multiarch libraries the guest's
# mmbench links against (the initramfs copies them)
kernel="$kernel gcc-aarch64-linux-gnu qemu-system-arm libc6-dev:arm64 libyaml-dev:arm64 libsqlite3-dev:arm64"
# ab --host's QEMU stand-in (make check-abhost): the guest's kexec, and its
# disk made and read without a mount (mkfs.ext4 -d, debugfs)
kernel="$kernel $host e2fsprogs"

want=""
[ $# -eq 0 ] && set -- run
for set in "$@"; do
	case $set in
	build) want="$want $build" ;;
	run) want="$want $run" ;;
	host) want="$want $host" ;;
	test) want="$want $test" ;;
	kernel) want="$want $kernel" ;;
	lint) want="$want $lint" ;;
	all) want="$want $test $host $kernel $lint" ;;
	*) echo "usage: $0 [build|run|host|test|kernel|lint|all]..." >&2; exit 2 ;;
	esac
done

missing=""
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

multiarch=""
case "$missing" in *:arm64*)
	dpkg --print-foreign-architectures | grep -qx arm64 || multiarch="dpkg --add-architecture arm64 && apt-get update && " ;;
esac
if [ "$(id -u)" != 0 ]; then
	echo "mmbench needs these Debian packages:$missing" >&2
	echo "install them with:" >&2
	echo "  sudo sh -c '${multiarch}apt-get install -y$missing'" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# Debian's kexec-tools asks whether it should turn every reboot into a kexec
# (default yes): no, a reboot stays a reboot to the default kernel; ab
# --host loads its kernels itself (docs/kernel-ab.md, "Bare metal")
case " $missing " in *" kexec-tools "*)
	echo 'kexec-tools kexec-tools/load_kexec boolean false' | debconf-set-selections ;;
esac
[ -z "$multiarch" ] || dpkg --add-architecture arm64
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
