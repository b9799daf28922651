#!/bin/bash
# Say what else differs (docs/statistics.md): two labels whose runs
# recorded THP madvise vs never and mTHP-64K always vs never get a
# "settings:" line above the verdicts in every layout, a field in json and
# a column in csv; when both labels are one kernel build the headline says
# the comparison is of settings.
. "$(dirname "$0")/../e2e-lib.sh"

gen() {	# label mean seed -> two runs of 5 iterations
	awk -v l="$1" -v m="$2" -v s="$3" 'BEGIN { srand(s)
		print "label,run,workload,variant,metric,unit,better,iteration,seq,value"
		for (r = 1; r <= 2; r++) for (i = 1; i <= 5; i++)
			printf "%s,%d,pft,,faults/sec,faults/s,higher,%d,0,%.1f\n", l, r, i, m * (1 + 0.01 * (rand() - 0.5)) }'
}
gen madv 100000 1 > "$TMP/a.csv"; gen nev 42000 2 > "$TMP/b.csv"
"$MMB" -q import "$TMP/a.csv" || die "import a"
"$MMB" -q import "$TMP/b.csv" || die "import b"
# what a run records: THP and mTHP as found (imports record nothing of their own)
q "INSERT INTO run_env (run_id, key, value, original) SELECT r.id, 'thp.enabled',
     CASE k.label WHEN 'madv' THEN 'madvise' ELSE 'never' END, NULL
   FROM runs r JOIN kernels k ON k.id = r.kernel_id"
q "INSERT INTO run_env (run_id, key, value, original) SELECT r.id, 'mthp.64kB.enabled',
     CASE k.label WHEN 'madv' THEN 'always' ELSE 'never' END, NULL
   FROM runs r JOIN kernels k ON k.id = r.kernel_id"
q "INSERT INTO run_env (run_id, key, value, original) SELECT id, 'kernel.numa_balancing', '0', NULL FROM runs"
# per-boot facts of VM runs differ between any two runs: never a setting
q "INSERT INTO run_env (run_id, key, value, original) SELECT id, 'vm.console_log', 'runs/' || id || '/console.log', NULL FROM runs"
q "INSERT INTO run_env (run_id, key, value, original) SELECT id, 'vm.boot.kernel_s', 1.5 + id / 10.0, NULL FROM runs"
q "INSERT INTO run_env (run_id, key, value, original) SELECT id, 'vm.guest_mem_bytes', 2100625408 - id, NULL FROM runs"
q "INSERT INTO run_env (run_id, key, value, original) SELECT r.id, 'vm.kernel_key', k.label || '-key', NULL FROM runs r JOIN kernels k ON k.id = r.kernel_id"
q "UPDATE kernels SET release = '6.12.9', version = '#1 SMP', config_hash = 'c0ffee', base_commit = '', patches = ''"

want='settings: every label is the same kernel build, so this compares settings; the labels'"'"' runs differ in mthp.64kB.enabled (always -> never), thp.enabled (madvise -> never)'
"$MMB" compare madv nev > "$TMP/text" || die "compare"
# the default text wraps at 80 columns: its continuation lines joined (unwrap)
unwrap "$TMP/text" | grep -qxF "$want" || die "text: no settings line: $(cat "$TMP/text")"
# above the verdict, and only the keys that differ
[ "$(grep -n '^settings:' "$TMP/text" | cut -d: -f1)" -lt "$(grep -n '^verdict:' "$TMP/text" | cut -d: -f1)" ] ||
	die "the settings line is not above the verdict"
! grep -q numa_balancing "$TMP/text" || die "a setting that did not differ is named"
! grep -q 'vm\.' "$TMP/text" || die "a VM run's per-boot record is named as a setting"
for f in markdown mmtests lkp; do
	w=$want
	# markdown's notes are escaped like its cells (issue 42 item 5)
	[ $f = markdown ] && w=${want//->/-\\>}
	"$MMB" compare --format "$f" madv nev | grep -qxF "$w" || die "--format $f has no settings line"
done
"$MMB" compare --format json madv nev > "$TMP/json"
python3 - "$TMP/json" <<'PY' || die "json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["compares_settings"] is True, d["compares_settings"]
assert d["settings_differ"] == [{"key": "mthp.64kB.enabled", "values": ["always", "never"]},
                                {"key": "thp.enabled", "values": ["madvise", "never"]}], d["settings_differ"]
PY
"$MMB" compare --format csv madv nev | awk -F, 'NR > 1 { print $NF }' | sort -u |
	grep -qx 'mthp.64kB.enabled;thp.enabled' || die "csv settings_differ column"

# two kernels: the warning that the change may come from the settings
q "UPDATE kernels SET version = '#2 SMP' WHERE label = 'nev'"
"$MMB" compare madv nev > "$TMP/text2"
unwrap "$TMP/text2" | grep -qF "settings: the labels' runs differ in mthp.64kB.enabled (always -> never), thp.enabled (madvise -> never): changes may come from the settings, not the kernel" ||
	die "two kernels: $(grep settings "$TMP/text2")"
# a label whose own runs differ says so too
q "UPDATE run_env SET value = 'always' WHERE key = 'thp.enabled' AND run_id = (SELECT max(r.id) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = 'madv')"
"$MMB" compare madv nev | grep -qF 'thp.enabled (madv: madvise|always, nev: never)' ||
	die "runs of one label that differ: $("$MMB" compare madv nev | grep settings)"
# the same settings: no line
q "UPDATE run_env SET value = 'never' WHERE key IN ('thp.enabled', 'mthp.64kB.enabled')"
! "$MMB" compare madv nev | grep -q '^settings:' || die "settings line with nothing different"
echo ok
