#!/bin/bash
# Every file mmbench reads from the user has a cap (docs/reliability.md):
# /dev/zero, an endless FIFO, a pipe on stdin or a sparse huge file is
# refused with one error naming the file and the cap, exit 2, instead of
# being read until memory runs out (`kernel build --config /dev/zero` once
# filled 24 GiB).  A FIFO within its cap is still read.  Nothing here can
# hang: every FIFO has a writer and every command runs under timeout(1).
. "$(dirname "$0")/../e2e-lib.sh"
command -v git > /dev/null || skip "git not installed"
top=$(cd "$(dirname "$0")/../.." && pwd)
export MMBENCH_CACHE=$TMP/cache
cd "$TMP"

expect() {	# expect PATTERN -- command...
	local pat=$1 rc=0
	shift 2
	timeout 120 "$@" > out 2> err || rc=$?
	cat err
	[ "$rc" = 2 ] || die "$*: exit $rc, expected 2"
	grep -qF -- "$pat" err || die "$*: no '$pat' in the message"
}
git init -q -b main T
echo a > T/f
git -C T add f
git -C T -c user.name=t -c user.email=t@localhost commit -q -m base

lim() { echo "$1: larger than $2, the limit for $3"; }
expect "$(lim /dev/zero "1 MiB" "an experiment config")" -- "$MMB" run /dev/zero
expect "$(lim /dev/zero "256 MiB" "an import file")" -- "$MMB" import --name x /dev/zero
expect "$(lim /dev/zero "16 MiB" "a 0-day report")" -- "$MMB" reproduce --dry-run /dev/zero
expect "$(lim "<stdin>" "16 MiB" "a 0-day report")" -- \
	sh -c 'head -c 20000000 /dev/zero | "$0" reproduce --dry-run -' "$MMB"
expect "$(lim /dev/zero "1 MiB" "a kernel config fragment (--config)")" -- \
	"$MMB" kernel build --tree T --name x --config /dev/zero
expect "$(lim /dev/zero "4 MiB" "a base config (--base-config)")" -- \
	"$MMB" kernel build --tree T --name x --base-config /dev/zero
expect "$(lim /dev/zero "64 MiB" "a patch file")" -- \
	"$MMB" kernel build --tree T --name x --patch /dev/zero
expect "$(lim /dev/zero "1 MiB" "an experiment config")" -- \
	"$MMB" ab --base-name a --new-name b /dev/zero

# a huge regular file is refused by its size, before it is read
truncate -s 2G huge.yaml
expect "$(lim huge.yaml "1 MiB" "an experiment config")" -- "$MMB" run huge.yaml

# an endless FIFO: read up to the cap, refused, the writer gets EPIPE
mkfifo endless
(yes 'k: v' > endless 2> /dev/null || true) &
expect "$(lim endless "1 MiB" "an experiment config")" -- "$MMB" run endless
wait

# a FIFO within its cap is a file like any other
mkfifo small
cat "$top/tests/fixtures/compare/aim9-base.csv" > small &
timeout 120 "$MMB" -q import --name fifo small || die "a small FIFO was not imported"
wait
[ "$(q 'select count(*) from samples')" = 6 ] || die "the FIFO's 6 samples were not imported"
echo ok
