#!/bin/bash
# kernel build / vm run / ab without building a kernel (fast; the real
# builds and boots are in `make check-kernel`):
#  - argument errors exit 2 with a message naming the argument
#  - a patch that does not apply on a small git tree: exit 2, names the
#    patch and the file, the user's tree, branch and index untouched
#  - a good patch on a tree that is not a kernel: exit 1 with the log path
#  - a kernel that never boots (bogus bzImage): the run is recorded as
#    failed with its console log, exit 1
set -u
MM="$MMBENCH_BUILD/mmbench"
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MMBENCH_CACHE="$work/cache" MMBENCH_DB="$work/db.sqlite"
fail() { echo "FAIL: $*"; exit 1; }
expect() {	# expect RC PATTERN -- command...
	local want=$1 pat=$2 rc=0
	shift 3
	"$@" >"$work/out" 2>"$work/err" || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/err"; fail "$*: exit $rc, expected $want"; }
	grep -q -- "$pat" "$work/err" || { cat "$work/err"; fail "$*: no '$pat' in the message"; }
}
command -v git >/dev/null || { echo "git not installed"; exit 77; }

expect 2 "--tree DIR is required" -- "$MM" kernel build --name x
expect 2 "--name LABEL is required" -- "$MM" kernel build --tree "$work"
expect 2 "character ' ' not allowed" -- "$MM" kernel build --tree "$work" --name "a b"
expect 2 "--base-config 'nope'" -- "$MM" kernel build --tree "$work" --name x --base-config nope
expect 2 "--tree /nonexistent" -- "$MM" kernel build --tree /nonexistent --name x
expect 2 "unknown subcommand 'frob'" -- "$MM" kernel frob
expect 2 "no kernel labelled 'nope'" -- "$MM" kernel rm nope
expect 2 "no kernel labelled 'nope'" -- "$MM" vm run --kernel nope "$top/configs/quick.yaml"
expect 2 "--accel 'hvf'" -- "$MM" vm run --kernel x --accel hvf "$top/configs/quick.yaml"
expect 2 "--mem '12Q'" -- "$MM" vm run --kernel x --mem 12Q "$top/configs/quick.yaml"
expect 2 "which CONFIG.yaml" -- "$MM" vm run --kernel x
expect 2 "no --patch or --new given" -- "$MM" ab --tree "$work" "$top/configs/quick.yaml"
expect 2 "--rounds 'zero'" -- "$MM" ab --tree "$work" --patch p --rounds zero x.yaml
"$MM" kernel list >"$work/out" 2>&1 || fail "kernel list on an empty cache"

# a small git tree standing in for a kernel
t="$work/tree"
mkdir -p "$t/mm"
printf 'line one\nline two\nline three\n' >"$t/mm/mmap.c"
git -C "$t" init -q -b main
git -C "$t" add -A
git -C "$t" -c user.name=t -c user.email=t@t commit -q -m base
head=$(git -C "$t" rev-parse HEAD)
expect 2 "--ref nosuchref: not a commit" -- "$MM" kernel build --tree "$t" --ref nosuchref --name x

# the fixture patch targets 6.12's mm/mmap.c: it cannot apply here
echo "dirty" >"$t/untracked-file"
expect 2 "0001-mm-mmap-does-not-apply.patch does not apply on HEAD" -- \
	"$MM" kernel build --tree "$t" --patch "$top/tests/fixtures/kernel/bad" --name bad
grep -q "mm/mmap.c" "$work/err" || fail "the failing file is not named"
[ "$(git -C "$t" rev-parse HEAD)" = "$head" ] || fail "the user's HEAD moved"
[ "$(git -C "$t" symbolic-ref HEAD)" = refs/heads/main ] || fail "the user's branch changed"
[ "$(git -C "$t" status --porcelain)" = "?? untracked-file" ] || fail "the user's tree was touched"

# a patch that applies, on a tree that is not a kernel: make fails, exit 1
git -C "$t" checkout -q -b topic
echo "line four" >>"$t/mm/mmap.c"
git -C "$t" -c user.name=t -c user.email=t@t commit -q -am "mm: add line four"
git -C "$t" checkout -q main
expect 1 "log: " -- "$MM" kernel build --tree "$t" --patch main..topic --name notakernel

# a killed `kernel build` takes its make with it (make runs in its own process
# group, so nothing else would reach it): a stand-in make that only sleeps
mkdir -p "$work/bin"
printf '#!/bin/sh\necho $$ > "%s/make.pid"\nexec sleep 300\n' "$work" >"$work/bin/make"
chmod +x "$work/bin/make"
PATH="$work/bin:$PATH" "$MM" kernel build --tree "$t" --patch main..topic --name slow >/dev/null 2>&1 &
kb=$!
for _ in $(seq 600); do [ -s "$work/make.pid" ] && break; sleep 0.1; done
[ -s "$work/make.pid" ] || { kill $kb; fail "the stand-in make never started"; }
kill -TERM $kb
wait $kb 2>/dev/null
mk=$(cat "$work/make.pid")
for _ in $(seq 300); do kill -0 "$mk" 2>/dev/null || break; sleep 0.1; done
kill -0 "$mk" 2>/dev/null && { kill "$mk"; fail "make (pid $mk) outlived the killed kernel build"; }

# a "kernel" that never boots: a cache entry with a bogus bzImage
command -v qemu-system-x86_64 >/dev/null || { echo "qemu not installed"; exit 77; }
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || command -v busybox >/dev/null ||
	{ echo "busybox not installed (apt-get install busybox-static): no initramfs for vm run"; exit 77; }
mkdir -p "$MMBENCH_CACHE/kernels/k0" "$MMBENCH_CACHE/labels"
echo "not a kernel" >"$MMBENCH_CACHE/kernels/k0/bzImage"
printf 'key=k0\nrelease=0.0-bogus\nbase_commit=%s\npatches=[]\n' "$head" >"$MMBENCH_CACHE/kernels/k0/meta"
ln -s ../kernels/k0 "$MMBENCH_CACHE/labels/bogus"
"$MM" kernel list | grep -q "^bogus .*0.0-bogus" || fail "kernel list does not show the entry"
cat >"$work/exp.yaml" <<'EOF'
experiment: tiny
iterations: 1
warmup: 0
workloads:
  - name: skeleton
EOF
expect 1 "QEMU exited with 1 before the guest started" -- \
	"$MM" vm run --kernel bogus --accel tcg --boot-timeout 60 "$work/exp.yaml"
grep -q "samples received are kept" "$work/err" || fail "no 'samples kept' message"
if command -v sqlite3 >/dev/null; then
	[ "$(sqlite3 "$MMBENCH_DB" "SELECT status || ' ' || accel FROM runs r JOIN kernels k ON r.kernel_id = k.id WHERE k.label = 'bogus'")" = "failed tcg" ] ||
		fail "the run is not recorded as failed under tcg"
	sqlite3 "$MMBENCH_DB" "SELECT value FROM run_env WHERE key = 'vm.console_log'" | grep -q console.log ||
		fail "the console log path is not recorded"
fi

# the guest agent, run on the host with a file for the virtio port: it
# runs the experiment into the stream (the environment found, every
# iteration as it ends, the final status), then the exit code; no DB
runs() { sqlite3 "$MMBENCH_DB" "SELECT count(*) FROM runs" 2>/dev/null || echo none; }
before=$(runs)
printf -- '--\0run\0%s\0' "$work/exp.yaml" >"$work/args"
( cd "$work" && MMBENCH_VM_PORT="$work/stream" "$MM" vm guest "$work/args" ) >"$work/out" 2>&1 ||
	{ cat "$work/out"; fail "the guest agent failed"; }
for rec in '^V	mmbench-stream	1$' '^M	' '^R	tiny	' '^N	swap.total_kb	' '^I	skeleton	' '^S	' \
	'^H	' '^F	complete$' '^X	0$'; do
	grep -q "$rec" "$work/stream" || { cat "$work/stream"; fail "no record '$rec' in the stream"; }
done
[ "$(runs)" = "$before" ] || fail "the guest agent wrote a run into $MMBENCH_DB"
ls "$work"/*.db "$work"/results* >/dev/null 2>&1 && fail "the guest agent wrote a database: $(ls "$work")"
# a runner option the agent does not take: exit 2, and the host hears it
printf -- '--\0run\0%s\0--db\0x.db\0' "$work/exp.yaml" >"$work/args"
rc=0
MMBENCH_VM_PORT="$work/stream2" "$MM" vm guest "$work/args" >"$work/out" 2>&1 || rc=$?
[ $rc = 2 ] || { cat "$work/out"; fail "vm guest with --db: exit $rc, expected 2"; }
grep -q '^X	2$' "$work/stream2" || { cat "$work/stream2"; fail "no 'X 2' record"; }

"$MM" kernel rm bogus || fail "kernel rm"
[ ! -e "$MMBENCH_CACHE/kernels/k0" ] || fail "kernel rm left the build behind"
echo "ok"
