#!/bin/bash
# Golden outputs of the reading commands on a fixed DB, so a refactor of
# the results layer can show it changed nothing: list runs / kernels /
# workloads, show (text and --config), compare on runner rows with
# disturbed iterations (text, csv, json, --keep-disturbed), and report.txt.
# The DB: two imports and two runs of the deterministic `faulty` test
# plugin, with iterations marked disturbed by hand (the record a busy
# machine would leave), and VM runs of two kernels: guests' result
# streams (fixtures/vm/*.stream, the stream sink's bytes as
# tests/tools/vm-stream.c records them) merged as `vm run` merges them.
# Times, hosts and releases are normalised.
# UPDATE=1 rewrites tests/fixtures/golden and the streams (review the diff first).
. "$(dirname "$0")/../e2e-lib.sh"
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
FIX=$(cd "$(dirname "$0")/../fixtures" && pwd)
G=$FIX/golden
fail=0

"$MMB" -q import --name imp-base "$FIX/compare/aim9-base.csv"
"$MMB" -q import --name imp-new "$FIX/compare/aim9-new.csv"
for l in run-a run-b; do
	cat > "$TMP/f.yaml" <<EOC
experiment: golden-$l
iterations: 6
warmup: 0
workloads:
  - name: faulty
    params:
      script: ok,ok,ok,ok,ok,ok
      state_dir: $TMP/$l
EOC
	mkdir -p "$TMP/$l"
	run --name $l "$TMP/f.yaml"
	[ $rc -eq 0 ] || die "run $l failed: $(cat "$TMP/err")"
done
# run-b's iterations 2 and 5 as a busy machine would have left them
q "UPDATE iterations SET disturbed = 'foreign CPU 42% of 2 CPUs (limit 10%)', interference = 0.42
   WHERE run_id = 4 AND iteration IN (2, 5)"
q "UPDATE iterations SET interference = 0.01 WHERE interference IS NULL OR disturbed IS NULL"
# the running kernel's compiler (/proc/version) is this machine's: pin it
q "UPDATE kernels SET compiler = 'gcc-12 (Debian 12.2.0-14) 12.2.0' WHERE label IN ('run-a', 'run-b')"
# runs 5 and 6: VM runs of two kernels, their rows as the guests sent them
VMS=$MMBENCH_BUILD/tests/vm-stream
[ -x "$VMS" ] || die "$VMS is missing (make $VMS)"
cp "$FIX/vm/guest.yaml" "$TMP/vm.yaml"
for k in vm-base vm-new; do
	"$VMS" record $k "$TMP/vm.yaml" > "$TMP/$k.stream" || die "vm-stream record $k failed"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$TMP/$k.stream" "$FIX/vm/$k.stream"
	elif ! cmp -s "$FIX/vm/$k.stream" "$TMP/$k.stream"; then
		echo "FAIL: the stream sink's records differ from fixtures/vm/$k.stream:"
		diff -u "$FIX/vm/$k.stream" "$TMP/$k.stream" | head -30
		fail=1
	fi
	"$VMS" replay $k "$TMP/vm.yaml" "$FIX/vm/$k.stream" > "$TMP/replay" 2>&1 ||
		die "replaying the $k guest stream failed: $(cat "$TMP/replay")"
done

norm() {
	sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}(:[0-9]{2})?( [+-][0-9]{4})?/DATE/g' \
	    -e "s/$(uname -r | sed 's/[.[\*^$/]/\\&/g')/RELEASE/g" \
	    -e "s|$TMP|TMP|g" -e "s/vm@$(uname -n | sed 's/[.[\*^$/]/\\&/g')/vm@HOST/g" \
	    -e 's/(mmbench +)[0-9.]+ \([0-9a-f]+\)/\1VERSION/' \
	    -e 's/^(version|cmdline|config hash|machine|mmbench|started|finished) .*/\1 .../' \
	    -e 's/[0-9]+(\.[0-9]+)? ?(s|ms) ago/AGO/g'
}
# compare a normalised output file with golden/NAME (UPDATE=1 rewrites it)
golden() {	# name, file, what
	norm < "$2" > "$TMP/$1.out"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$TMP/$1.out" "$G/$1"
	elif ! cmp -s "$TMP/$1.out" "$G/$1"; then
		echo "FAIL: $3 differs from golden/$1:"
		diff -u "$G/$1" "$TMP/$1.out" | head -30
		fail=1
	fi
}
check() {	# name, command...
	local name=$1; shift
	"$MMB" "$@" > "$TMP/$name.raw" 2>&1 || true
	# show's environment, vmstat, perf counter and interference sections are the machine's own
	case $name in show*) awk '/^(environment|vmstat|perf counters)/ {skip=1} /^$/ {skip=0} !skip' "$TMP/$name.raw" |
		grep -vE '^  (interference|workload  )|^  faulty .* [0-9]+\.[0-9]%' > "$TMP/$name.f" ;;
		*) cp "$TMP/$name.raw" "$TMP/$name.f" ;; esac
	golden "$name" "$TMP/$name.f" "mmbench $*"
}
check list-runs list runs
check list-kernels list kernels
check show-3 show 3
check show-config-3 show 3 --config
# a VM run's sections are all the guest's (the stream): none is filtered
check vm-show-5 show 5
# the runs' vmstat, counter and rusage rows are the machine's own: compare would list them
q "DELETE FROM monitors WHERE source <> 'interference'"
check compare-runs.text compare run-a run-b
check compare-runs.csv compare --format csv run-a run-b
check compare-runs.json compare --format json run-a run-b
check compare-runs.keep compare --keep-disturbed run-a run-b
check compare-runs.mmtests compare --format mmtests run-a run-b
check compare-runs.lkp compare --format lkp run-a run-b
check compare-imports.markdown compare --format markdown imp-base imp-new
for f in text csv json mmtests lkp markdown; do
	check compare-vm.$f compare --format $f vm-base vm-new
done
check compare-vm.keep compare --keep-disturbed vm-base vm-new
"$MMB" -q report --out "$TMP/rep" imp-base imp-new > /dev/null 2>&1 || die "report failed"
golden report.txt "$TMP/rep/report.txt" report.txt
"$MMB" -q report --out "$TMP/rep-vm" vm-base vm-new > /dev/null 2>&1 || die "report on the VM runs failed"
golden report-vm.txt "$TMP/rep-vm/report.txt" "report.txt of the VM runs"
[ $fail = 0 ] || exit 1
echo ok
