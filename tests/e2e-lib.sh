# Shared helpers for the end-to-end scripts (sourced, not run).
set -eu
MMB=${MMBENCH_BUILD:-build}/mmbench
TMP=$(mktemp -d)
BG_PIDS=
# background harnesses a failing test leaves behind are stopped (SIGINT: they restore)
cleanup() {
	for p in $BG_PIDS; do kill -INT "$p" 2>/dev/null || true; done
	for p in $BG_PIDS; do wait "$p" 2>/dev/null || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
export MMBENCH_DB=$TMP/mmbench.db
# the suite runs on shared machines: record interference, but only the
# interference tests (which unset this) let load mark iterations disturbed
export MMBENCH_INTERFERENCE=${MMBENCH_INTERFERENCE-record}
skip() { echo "skip: $*"; exit 77; }
die() { echo "FAIL: $*" >&2; exit 1; }
# the samples view reads blocks through mmb_samples(): the shell loads it
# as a user does (docs/store.md); `command sqlite3` is the bare shell
sqlite3() { command sqlite3 -cmd ".load ${MMBENCH_BUILD:-build}/sqlite/mmbsamples" "$@"; }
q() { sqlite3 -batch -noheader "$MMBENCH_DB" "$@"; }
# compare's default text within 80 columns, each line joined with its
# indented continuation lines (a folded row's values, a wrapped note)
unwrap() {
	awk 'NR > 1 && /^  [^ ]/ { sub(/^  /, " "); printf "%s", $0; next }
	     NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$@"
}
need_root() { [ "$(id -u)" = 0 ] || skip "needs root: $*"; }
# The busy share of all CPUs over a second, in percent (user, nice,
# system, irq, softirq of /proc/stat): tests of interference need a quiet machine.
busy_share() {
	read -r _ u1 n1 s1 i1 w1 q1 sq1 st1 _ < /proc/stat
	sleep 1
	read -r _ u2 n2 s2 i2 w2 q2 sq2 st2 _ < /proc/stat
	local busy=$(( (u2+n2+s2+q2+sq2) - (u1+n1+s1+q1+sq1) )) all=$(( (u2+n2+s2+i2+w2+q2+sq2+st2) - (u1+n1+s1+i1+w1+q1+sq1+st1) ))
	echo $(( all ? 100 * busy / all : 0 ))
}

# mmbench run, waiting while another harness owns the settings lock
# (benchmarks never overlap).  Sets rc, $TMP/out and $TMP/err.
run() {
	for _ in $(seq 1 120); do
		set +e
		"$MMB" run "$@" -q >"$TMP/out" 2>"$TMP/err"
		rc=$?
		set -e
		[ $rc -ne 0 ] && grep -q "runs must not overlap" "$TMP/err" || return 0
		sleep 5
	done
}

# One run per label of the test plugin spin over ms 5, 10 and 20, two
# iterations each: the plot tests' typed numeric axis.  Needs
# MMBENCH_PLUGIN_PATH at the test plugins.
spin_ms_runs() {
	cat > "$TMP/spin.yaml" <<EOC
experiment: spin-ms
iterations: 2
warmup: 0
workloads:
  - name: spin
    params: { threads: 1, ms: [5, 10, 20] }
EOC
	for l in "$@"; do
		run --name "$l" "$TMP/spin.yaml"
		[ $rc -eq 0 ] || die "spin run $l failed: $(cat "$TMP/err")"
	done
}

# The experiment's environment: section pinning THP and every mTHP size to
# never, when we may set them (root, THP writable); empty otherwise.  Large
# folios would turn base-page faults into a few folio faults (pft, counters).
thp_never_env() {
	local thp=/sys/kernel/mm/transparent_hugepage d kb m=""
	[ "$(id -u)" = 0 ] && [ -w "$thp/enabled" ] || return 0
	printf 'environment:\n  thp: never\n'
	for d in "$thp"/hugepages-*kB; do
		[ -e "$d/enabled" ] || continue
		kb=${d##*/hugepages-}; kb=${kb%kB}
		m="$m${m:+, }${kb}K: never"
	done
	[ -z "$m" ] || printf '  mthp: { %s }\n' "$m"
}

# A synthetic 0-day report of aim9 brk_test naming two commits, aaaaaaaaaa
# (base) and bbbbbbbbbb (suspect), with a 1 s testtime, into FILE; rows
# read from stdin follow the KPI row (reproduce e2e tests).
aim9_report() {	# FILE
	cat >"$1" <<'R'
Greeting,

kernel test robot noticed a -5.0% regression of aim9.brk_test.ops_per_sec on:

commit: bbbbbbbbbb0123456789abcdef0123456789abcd ("mm: the suspect")

testcase: aim9
test machine: 2 threads 1 sockets QEMU Virtual CPU with 24G memory
parameters:

	testtime: 1s
	test: brk_test

=========================================================================================
compiler/kconfig/rootfs/tbox_group/test/testcase/testtime:
  gcc-12/x86_64-rhel-8.3/debian-12-x86_64-20240206.cgz/vm-2/brk_test/aim9/1s

commit: 
  aaaaaaaaaa ("mm: the base")
  bbbbbbbbbb ("mm: the suspect")

aaaaaaaaaa012345 bbbbbbbbbb0123456789abcdef0 
---------------- --------------------------- 
         %stddev     %change         %stddev
             \          |                \  
   1322908            -5.0%    1256536        aim9.brk_test.ops_per_sec
R
	cat >>"$1"
}
# The layer lint's tests: the tracked tree and the built objects copied to
# $tree (set here, with $top and $B), and check ARGS running
# tools/check-layout.py on it into $TMP/out.
lint_tree() {
	top=$(cd "$(dirname "$0")/../.." && pwd)
	B=$(cd "${MMBENCH_BUILD:-build}" && pwd)
	command -v nm >/dev/null || skip "nm (binutils) not installed"
	command -v python3 >/dev/null || skip "python3 not installed"
	git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout"
	[ -d "$B/obj/harness" ] || die "$B/obj: no objects (build first)"
	tree=$TMP/tree
	mkdir -p "$tree/build"
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$tree"
	cp -r "$B/obj" "$B/workloads" "$tree/build/"
	check() { python3 "$tree/tools/check-layout.py" "$@" "$tree" > "$TMP/out" 2>&1; }
}
