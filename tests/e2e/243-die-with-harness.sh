#!/bin/bash
# Issue 42: the fork server and the iteration child die with a SIGKILLed
# harness at once.  An iteration child forked but not yet told "go" read
# the harness's death as "go" (EOF) and ran the plugin orphaned, its
# PR_SET_PDEATHSIG set only then; the server's check after prctl() was
# getppid() == 1, wrong under a subreaper.  Here the harness is killed
# right before it writes "go" (an LD_PRELOAD shim), through the fork
# server and without it (the child's end of file on "go" delayed by the
# shim, so that the race is lost every time): no process of the run may
# live on, and the next command still restores what the run changed.
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_STATE=${MMBENCH_STATE:-$TMP/state}
command -v cc > /dev/null || skip "no C compiler for the LD_PRELOAD shim"
ldd "$MMB" | grep -q libasan && skip "an ASan build does not take an LD_PRELOAD shim first"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
cat > "$TMP/shim.c" <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
/* the harness's one-byte "go" into the iteration's pipe: die just before it */
ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	struct stat st;

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (n == 1 && *(const char *)buf == 'g' && getenv("MMB_E2E_DIE_BEFORE_GO") &&
	    !fstat(fd, &st) && S_ISFIFO(st.st_mode))
		raise(SIGKILL);
	return real(fd, buf, n);
}
/* the child's wait for "go": an end of file comes late, when the harness is gone for sure */
ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	struct stat st;
	ssize_t r;

	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	r = real(fd, buf, n);
	if (r == 0 && n == 1 && getenv("MMB_E2E_DIE_BEFORE_GO") && !fstat(fd, &st) &&
	    S_ISFIFO(st.st_mode))
		usleep(500000);
	return r;
}
EOC
cc -shared -fPIC -o "$TMP/shim.so" "$TMP/shim.c" -ldl || skip "cannot build the shim"
mark="MMB_E2E_MARK=$TMP"
alive() {	# the pids of live (not zombie) processes of this test's runs
	for p in /proc/[0-9]*; do
		{ tr '\0' '\n' < "$p/environ"; } 2> /dev/null | grep -qx "$mark" || continue
		[ "$(awk '/^State:/ { print $2 }' "$p/status" 2> /dev/null)" = Z ] && continue
		echo "${p#/proc/}"
	done
}
trap 'kill -9 $(alive) 2> /dev/null || true; "$MMB" restore > /dev/null 2>&1 || true; cleanup' EXIT
for server in 1 0; do
	mkdir -p "$TMP/s$server"
	cat > "$TMP/h.yaml" <<EOC
experiment: orphan
iterations: 2
warmup: 0
timeout: 60s
workloads:
  - name: faulty
    params:
      script: hang,hang
      state_dir: $TMP/s$server
EOC
	rc=0
	env "$mark" MMB_E2E_DIE_BEFORE_GO=1 LD_PRELOAD="$TMP/shim.so" MMBENCH_FORKSERVER=$server \
		"$MMB" run "$TMP/h.yaml" -q > "$TMP/out" 2> "$TMP/err" || rc=$?
	[ $rc = 137 ] || die "fork server $server: the harness was not killed before go (exit $rc): $(cat "$TMP/err")"
	# the kernel delivers PR_SET_PDEATHSIG as the harness exits; allow for a loaded machine
	for _ in $(seq 1 50); do [ -z "$(alive)" ] && break; sleep 0.1; done
	left=$(alive)
	[ -z "$left" ] || die "fork server $server: outlived the harness: $(for p in $left; do { tr '\0' ' ' < /proc/$p/cmdline; } 2> /dev/null; echo " ($p)"; done)"
	"$MMB" restore > /dev/null 2> "$TMP/err" || die "restore after the kill: $(cat "$TMP/err")"
	[ ! -s "$MMBENCH_STATE/journal" ] || die "fork server $server: the journal was left"
done
echo ok
