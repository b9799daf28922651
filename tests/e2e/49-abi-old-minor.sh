#!/bin/bash
# A plugin built against the previous ABI minor (abi10: the frozen 1.0
# header, no timed_begin/timed_end, shorter param/metric elements) is listed
# with its own defaults, runs under `mmbench run`, and gets perf-stat rows
# counted over its whole run(): page-faults at least the pages it touched.
. "$(dirname "$0")/../e2e-lib.sh"
[ -f "$MMBENCH_BUILD/tests/plugins/abi10.so" ] || die "abi10.so not built"
# a folder of its own: the test plugins beside it include deliberately bad ones
mkdir "$TMP/plug" && cp "$MMBENCH_BUILD/tests/plugins/abi10.so" "$TMP/plug/"
export MMBENCH_PLUGIN_PATH=$TMP/plug

"$MMB" list workloads -v > "$TMP/all" 2>&1 || die "list workloads -v failed: $(cat "$TMP/all")"
sed -n '/^abi10 /,/^[^ ]/p' "$TMP/all" > "$TMP/list"
grep -q "^  file: .*abi10.so (ABI 1.0)$" "$TMP/list" || die "list does not show ABI 1.0: $(cat "$TMP/list")"
for p in "size  *size  *default 4M .*\[4.0K..1.0G\]" "passes  *int  *default 1 .*\[1..100\]" \
	"mode  *enum  *default touch .*{touch|zero}" "label  *string  *default old " \
	"verbose  *bool  *default false " "ratio  *double  *default 0.5 " \
	"metric pages  *pages  *higher is better" "metric elapsed  *s  *lower is better"; do
	grep -q "$p" "$TMP/list" || die "list does not show '$p': $(cat "$TMP/list")"
done

cat > "$TMP/abi.yaml" <<EOC
experiment: abi10
iterations: 2
warmup: 0
counters: [task-clock, page-faults, minor-faults]
workloads:
  - name: abi10
    params: { size: 8M }
EOC
run --name old "$TMP/abi.yaml"
[ $rc -eq 0 ] || die "the 1.0 plugin's run failed: $(cat "$TMP/err")"
n=$(q "select count(*) from iterations where run_id = 1 and status = 'ok'")
[ "$n" = 2 ] || die "expected 2 ok iterations, got $n"
n=$(q "select count(*) from samples s join iterations i on i.id = s.iteration_id
	where i.run_id = 1 and s.metric = 'pages' and s.value = 2048")
[ "$n" = 2 ] || die "the pages metric is not 2048 in both iterations ($n)"
pages=2048	# 8M / 4K: run() faults each in once
for k in page-faults minor-faults; do
	n=$(q "select count(*) from iterations i join monitors m on m.iteration_id = i.id
		where i.run_id = 1 and m.source = 'perf-stat' and m.key = '$k' and m.delta >= $pages")
	[ "$n" = 2 ] || die "perf-stat $k not counted over run() (>= $pages) in both iterations ($n)"
done
n=$(q "select count(*) from iterations i join monitors m on m.iteration_id = i.id
	where i.run_id = 1 and m.source = 'perf-stat' and m.key = 'task-clock' and m.delta > 0")
[ "$n" = 2 ] || die "perf-stat task-clock not positive in both iterations ($n)"
echo "ok: ABI 1.0 plugin listed, run and counted over its run()"
