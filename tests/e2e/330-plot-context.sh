#!/bin/bash
# Issue 45 item 6: a plot pasted alone says what was compared.  Two labels
# of one kernel build, THP never (a) vs always (b), b with disturbed
# iterations kept: the key names each label with the setting that differs
# and "disturbed values kept", the unit; the title the experiment; the
# caption the kernel release, the machine and n per label; marks' notes
# (CI cut at 0, unbounded CIs) sit below the axes, not on the data; a time
# axis in ms has tics in ms (not "(s)" over ms tics); gnuplot draws it.
. "$(dirname "$0")/../e2e-lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed (apt-get install gnuplot-nox)"

gen() {	# label factor seed: 3 runs x 4 clients x 4 iterations
	awk -v l="$1" -v f="$2" -v s="$3" 'BEGIN { srand(s)
		print "label,run,workload,variant,metric,unit,better,iteration,seq,value"
		split("1 2 4 8", cl, " ")
		for (r = 1; r <= 3; r++) for (c = 1; c <= 4; c++) for (i = 1; i <= 4; i++) {
			j = 1 + 0.04 * (rand() - 0.5)
			printf "%s,%d,pft,clients=%d,faults/sec,faults/s,higher,%d,0,%.1f\n", l, r, cl[c], i, 400000 * f * j * (1 - 0.05 * c)
			printf "%s,%d,pft,clients=%d,elapsed,s,lower,%d,0,%.6f\n", l, r, cl[c], i, 0.035 / f * j * (1 + 0.05 * c)
			if (i == 1)	# one noisy value a run: wide CIs, cut at 0
				printf "%s,%d,pft,clients=%d,system,s,lower,%d,0,%.5f\n", l, r, cl[c], i, (r == 1 ? 0.002 : 0.09) / f
		} }'
}
gen a 1 1 > "$TMP/a.csv"; gen b 1.8 2 > "$TMP/b.csv"
"$MMB" -q import "$TMP/a.csv" || die "import a"
"$MMB" -q import "$TMP/b.csv" || die "import b"
# what a run records (imports record none of it): THP, the kernel, the experiment
q "INSERT INTO run_env (run_id, key, value, original) SELECT r.id, 'thp.enabled',
     CASE k.label WHEN 'a' THEN 'never' ELSE 'always' END, NULL
   FROM runs r JOIN kernels k ON k.id = r.kernel_id"
q "UPDATE kernels SET release = '6.12.9', version = '#1 SMP', config_hash = 'c0ffee', base_commit = '', patches = ''"
q "UPDATE runs SET experiment = 'thp-pft'"
# b's iterations 2 and 3 disturbed (iteration records of the imported runs)
q "INSERT INTO iterations (run_id, workload, variant, iteration, warmup, status, disturbed)
   SELECT r.id, 'pft', 'clients=' || c.value, i.value, 0, 'ok',
          CASE WHEN i.value IN (2, 3) THEN 'foreign CPU 80% of 2 CPUs (limit 10%)' END
   FROM runs r JOIN kernels k ON k.id = r.kernel_id, json_each('[1,2,4,8]') c, json_each('[1,2,3,4]') i
   WHERE k.label = 'b'"

"$MMB" plot --keep-disturbed --out "$TMP/p" a b > "$TMP/list" 2> "$TMP/err" ||
	{ cat "$TMP/err"; die "plot"; }
P=$TMP/p
for f in faults_sec-scaling elapsed-scaling system-scaling system-change elapsed-dist; do
	[ -s "$P/pft-$f.png" ] || die "no picture pft-$f.png: $(cat "$TMP/err")"
done
gp=$P/pft-elapsed-scaling.gp
# the key: each label with what differs, the disturbed values kept; the unit
grep -q ' title "a: thp.enabled=never"' "$gp" || die "key of a: $(grep -o 'title "[^"]*"' "$gp")"
grep -q ' title "b: thp.enabled=always (disturbed values kept)"' "$gp" || die "key of b: $(grep -o 'title "[^"]*"' "$gp")"
grep -q '^set key title "values in ms"' "$gp" || die "the key does not say the unit"
grep -q ' title "b: thp.enabled=always (disturbed values kept)"' "$P/pft-elapsed-dist.gp" || die "dist key"
grep -q '"b: thp.enabled=always (disturbed values kept) vs a: thp.enabled=never; error bars' "$P/pft-system-change.gp" ||
	die "the change chart does not say what was compared"
# title and caption: experiment, workload, metric, kernel, machine, n per label
grep -q '^set label "thp-pft: pft elapsed vs clients" at screen' "$gp" || die "title without the experiment"
grep -q '^set label "kernel 6.12.9 (one build: the labels differ in settings)    machine: ' "$gp" ||
	die "caption without the kernel release and machine"
grep -q '^set label "n per point: 12 samples per label; runs: 3 per label; disturbed values kept" at screen' "$gp" ||
	die "caption without n per label: $(grep '^set label' "$gp")"
# no label inside the plot area: every annotation is placed on the screen (margins)
! grep -E '^set label .* at (graph|first)' "$P"/*.gp || die "an annotation is drawn inside the data area"
grep -q '^set label "▼ at 0: 95% CI cut at 0; ▲/▼ at an edge: 95% CI unbounded' "$P/pft-system-scaling.gp" ||
	die "the CI marks are not explained below the axes: $(grep '^set label' "$P/pft-system-scaling.gp")"
grep -q '^set label "▲/▼ at an edge: 95% CI unbounded' "$P/pft-system-change.gp" || die "change chart's note"
# a bar's value label sits past the triangle of an open CI, not on it
top=$(sed -n 's/.*valid(4)&&\$4<\([-0-9.e+]*\)?\$4:\([-0-9.e+]*\)).*with labels.*/\1 \2/p' "$P/pft-system-change.gp" | head -1)
[ -n "$top" ] && awk -v t="$top" 'BEGIN { split(t, a, " "); exit !(a[2] > a[1]) }' ||
	die "value labels of open CIs sit on their triangles: $(grep -c 'with labels' "$P/pft-system-change.gp")"
# the unit of the axis is the unit of its tics: ms tics under "(ms)", never "(s)" over ms
grep -q '^set ylabel "elapsed (ms), lower is better"' "$gp" || die "y axis unit: $(grep ylabel "$gp")"
grep -qE '^set ytics \("[0-9]+" 0\.0[0-9]+' "$gp" || die "y tics not in ms: $(grep '^set ytics' "$gp")"
! grep -qE 'ms" [0-9]|\(s\)' "$gp" || die "an (s) axis or ms-suffixed tics"
grep -q '(faults/s), higher is better' "$P/pft-faults_sec-scaling.gp" || die "faults/s axis"
# the scripts draw again with gnuplot, without an error
for f in pft-elapsed-scaling pft-system-scaling pft-system-change pft-elapsed-dist; do
	rm -f "$P/$f.png"
	(cd "$P" && gnuplot "$f.gp") 2> "$TMP/gperr" || { cat "$TMP/gperr"; die "gnuplot failed on $f.gp"; }
	[ -s "$P/$f.png" ] || die "gnuplot drew no $f.png"
	! grep -qi 'error' "$TMP/gperr" || die "gnuplot on $f.gp: $(cat "$TMP/gperr")"
done
# without --keep-disturbed nothing says kept
"$MMB" plot --out "$TMP/q" --metric elapsed a b > /dev/null 2>&1 || true
! grep -q 'disturbed values kept' "$TMP/q"/*.gp 2>/dev/null || die "disturbed values kept without --keep-disturbed"
echo ok
