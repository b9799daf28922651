#!/bin/bash
# Counters per iteration (docs/counters.md):
# 1. pft 256M (threads and processes): page-faults counted in pft's timed
#    region is within 2% of the pages it touched, in every iteration; the
#    perf-stat rows are stored per iteration and `show` prints them;
#    hardware events come out unsupported once, in run_env, on a machine
#    without a PMU; tracepoints count where tracefs can be mounted;
# 2. a missing tracepoint (tracefs faked empty) is recorded unsupported and
#    fails nothing; a plugin that never marks its timed region (spin) is
#    counted over its whole run();
# 3. counters: none, --no-counters and a bad event name;
# 4. the default set counts faults (from getrusage) but not the tracepoints
#    that fire on every page (they slow the faults measured).
. "$(dirname "$0")/../e2e-lib.sh"
[ -f "$MMBENCH_BUILD/workloads/pft.so" ] || die "pft.so not built"

ENV=$(thp_never_env)
cat > "$TMP/pft.yaml" <<EOC
experiment: counters
iterations: 2
warmup: 0
$ENV
# the default set and the per-page tracepoints, which only a list counts
counters: [task-clock, page-faults, minor-faults, major-faults, context-switches, cpu-migrations,
           exceptions:page_fault_user, tlb:tlb_flush, kmem:mm_page_alloc,
           cycles, instructions, cache-references, cache-misses,
           dTLB-loads, dTLB-load-misses, iTLB-loads, iTLB-load-misses]
workloads:
  - name: pft
    params: { size: 256M, clients: 2, mode: [threads, processes] }
EOC

# a private tracefs mount (not the system's: nothing global changes)
TRACE=
if [ "$(id -u)" = 0 ] && mkdir "$TMP/tracefs" && mount -t tracefs nodev "$TMP/tracefs" 2>/dev/null; then
	TRACE=$TMP/tracefs
	trap 'umount "$TRACE" 2>/dev/null || true; cleanup' EXIT
fi
MMBENCH_TRACEFS=${TRACE:-$TMP/no-tracefs} run --name c "$TMP/pft.yaml"
[ $rc -eq 0 ] || die "pft run failed: $(cat "$TMP/err")"
[ -n "$TRACE" ] && umount "$TRACE"

pages=65536	# 256M / 4K, split evenly over 2 workers
data_pages=$pages
# A sanitizer build's stores also fault in ASan's shadow: one shadow page per
# 8 data pages (checked: 65536 + 8192 + a few).  Those faults only read the
# shadow, which maps the zero page: they allocate nothing (checked:
# kmem:mm_page_alloc 65685 beside 73734 page faults).
if ldd "$MMBENCH_BUILD/workloads/pft.so" 2>/dev/null | grep -q 'libasan'; then
	pages=$((pages + pages / 8))
fi
nit=$(q "select count(*) from iterations where run_id = 1 and status = 'ok'")
[ "$nit" = 4 ] || die "expected 4 ok iterations, got $nit"
npf=$(q "select count(*) from iterations i join monitors m on m.iteration_id = i.id
	where i.run_id = 1 and m.source = 'perf-stat' and m.key = 'page-faults'")
[ "$npf" = 4 ] || die "expected a perf-stat page-faults row per iteration, got $npf"
bad=$(q "select i.variant || ' #' || i.iteration || ': ' || m.delta from iterations i
	join monitors m on m.iteration_id = i.id where i.run_id = 1 and m.source = 'perf-stat'
	and m.key = 'page-faults' and abs(m.delta - $pages) > 0.02 * $pages")
[ -z "$bad" ] || die "page-faults in the timed region not within 2% of $pages pages: $bad"
for k in task-clock minor-faults context-switches; do
	n=$(q "select count(*) from iterations i join monitors m on m.iteration_id = i.id
		where i.run_id = 1 and m.source = 'perf-stat' and m.key = '$k' and m.delta > 0")
	[ "$n" = 4 ] || die "perf-stat $k not positive in every iteration ($n of 4)"
done
n=$(q "select count(*) from iterations i join monitors m on m.iteration_id = i.id
	where i.run_id = 1 and m.source = 'counters' and m.key = 'overhead_ms' and m.delta >= 0")
[ "$n" = 4 ] || die "counters overhead not recorded per iteration ($n of 4)"
nu=$(q "select count(*) from run_env where run_id = 1 and key = 'counters.unsupported'")
uns=$(q "select value from run_env where run_id = 1 and key = 'counters.unsupported'")
if [ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	[ "$nu" = 1 ] || die "expected one counters.unsupported row, got $nu"
	case $uns in *"cycles,instructions,"*"iTLB-load-misses (no PMU)"*) ;;
		*) die "hardware events not recorded as unsupported: '$uns'" ;; esac
	n=$(q "select count(*) from monitors where source = 'perf-stat' and key in
		('cycles', 'instructions', 'ipc', 'cache-misses', 'dTLB-load-misses')")
	[ "$n" = 0 ] || die "$n hardware counter rows stored on a machine without a PMU"
fi
if [ -n "$TRACE" ]; then
	case $uns in *exceptions:page_fault_user*|*tlb:tlb_flush*)
		die "tracepoints unsupported with tracefs mounted: '$uns'" ;; esac
	bad=$(q "select i.variant || ' #' || i.iteration || ': ' || m.delta from iterations i
		join monitors m on m.iteration_id = i.id where i.run_id = 1 and m.source = 'perf-stat'
		and m.key = 'exceptions:page_fault_user' and abs(m.delta - $pages) > 0.02 * $pages")
	[ -z "$bad" ] || die "exceptions:page_fault_user not within 2% of $pages: $bad"
	n=$(q "select count(*) from monitors where source = 'perf-stat' and key = 'kmem:mm_page_alloc' and delta >= $data_pages")
	[ "$n" = 4 ] || die "kmem:mm_page_alloc below the pages touched ($n of 4 iterations)"
else
	echo "tracepoint counting part skipped: cannot mount tracefs"
fi
"$MMB" show 1 > "$TMP/show" || die "show failed"
grep -q "^perf counters, per measured iteration" "$TMP/show" || die "show has no counters section: $(cat "$TMP/show")"
# the row's mean, min and max, each within 2% of the pages touched
awk -v p="$pages" '$1 == "pft" && $2 == "mode=threads" && $3 == "perf-stat.page-faults" {
	ok = NF == 6; for (i = 4; i <= 6; i++) if ($i < 0.98 * p || $i > 1.02 * p) ok = 0
	found = ok } END { exit !found }' "$TMP/show" ||
	die "show does not print the page-faults row: $(grep -A30 '^perf counters' "$TMP/show")"
grep -q "counters.unsupported" "$TMP/show" || [ "$nu" = 0 ] || die "show hides counters.unsupported"

# 2. a missing tracepoint; a plugin without a timed region
mkdir -p "$TMP/fake/events"
cat > "$TMP/spin.yaml" <<EOC
experiment: spin
iterations: 2
warmup: 0
counters: [task-clock, page-faults, tlb:tlb_flush]
workloads:
  - name: spin
    params: { threads: 2, ms: 100 }
EOC
MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins MMBENCH_TRACEFS=$TMP/fake run --name s "$TMP/spin.yaml"
[ $rc -eq 0 ] || die "a missing tracepoint failed the run: $(cat "$TMP/err")"
uns=$(q "select value from run_env where run_id = 2 and key = 'counters.unsupported'")
[ "$uns" = "tlb:tlb_flush (no such tracepoint)" ] || die "missing tracepoint recorded as '$uns'"
# spin's setup and teardown do nothing: what is counted is its run()
# (CPU time and the faults of its threads' stacks; no wall-clock bound)
for k in task-clock page-faults; do
	n=$(q "select count(*) from iterations i join monitors m on m.iteration_id = i.id
		where i.run_id = 2 and m.source = 'perf-stat' and m.key = '$k' and m.delta > 0")
	[ "$n" = 2 ] || die "spin's run() not counted: $k positive in $n of 2 iterations"
done
n=$(q "select count(*) from monitors m join iterations i on i.id = m.iteration_id where i.run_id = 2 and m.key = 'tlb:tlb_flush'")
[ "$n" = 0 ] || die "an unsupported tracepoint stored $n rows"

# 3. off, and bad names
sed 's/^counters:.*/counters: none/' "$TMP/spin.yaml" > "$TMP/none.yaml"
MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins run --name n "$TMP/none.yaml"
[ $rc -eq 0 ] || die "counters: none run failed: $(cat "$TMP/err")"
MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins run --name n --no-counters "$TMP/spin.yaml"
[ $rc -eq 0 ] || die "--no-counters run failed: $(cat "$TMP/err")"
n=$(q "select count(*) from monitors m join iterations i on i.id = m.iteration_id
	where i.run_id in (3, 4) and m.source in ('perf-stat', 'counters')")
[ "$n" = 0 ] || die "counting off, yet $n counter rows stored"
n=$(q "select count(*) from run_env where run_id in (3, 4) and key like 'counters%'")
[ "$n" = 0 ] || die "counting off, yet counters noted in run_env"
sed 's/^counters:.*/counters: [page-faults, cycle]/' "$TMP/spin.yaml" > "$TMP/bad.yaml"
MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins run --name b "$TMP/bad.yaml"
[ $rc -eq 2 ] || die "a bad counter name exited $rc, not 2"
grep -q "bad.yaml:4:25: counters: 'cycle': unknown event" "$TMP/err" || die "bad counter name message: $(cat "$TMP/err")"

# 4. the default set: faults counted (getrusage), per-page tracepoints not
sed '/^counters:/,/iTLB-load-misses\]$/d; s/mode: \[threads, processes\]/mode: processes/' \
	"$TMP/pft.yaml" > "$TMP/default.yaml"
grep -q '^counters' "$TMP/default.yaml" && die "default.yaml still lists counters"
if [ -n "$TRACE" ]; then
	mount -t tracefs nodev "$TRACE" 2>/dev/null || TRACE=
fi
MMBENCH_TRACEFS=${TRACE:-$TMP/no-tracefs} run --name d "$TMP/default.yaml"
[ $rc -eq 0 ] || die "default counters run failed: $(cat "$TMP/err")"
[ -n "$TRACE" ] && umount "$TRACE"
rid=$(q "select max(id) from runs")
bad=$(q "select i.iteration || ': ' || m.delta from iterations i join monitors m on m.iteration_id = i.id
	where i.run_id = $rid and m.source = 'perf-stat' and m.key = 'page-faults' and abs(m.delta - $pages) > 0.02 * $pages")
n=$(q "select count(*) from iterations i join monitors m on m.iteration_id = i.id
	where i.run_id = $rid and m.source = 'perf-stat' and m.key = 'page-faults'")
[ "$n" = 2 ] && [ -z "$bad" ] || die "default set: page-faults rows $n of 2, off by more than 2%: $bad"
n=$(q "select count(*) from iterations i join monitors m on m.iteration_id = i.id where i.run_id = $rid
	and m.key in ('exceptions:page_fault_user', 'kmem:mm_page_alloc', 'kmem:mm_page_free')")
[ "$n" = 0 ] || die "the default set counted $n per-page tracepoint rows"
echo "ok: counters"
