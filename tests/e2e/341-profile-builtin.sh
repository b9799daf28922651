#!/bin/bash
# run --profile without perf on PATH (as in a guest): the built-in sampler
# (cpu-clock on every CPU, kernel symbols from /proc/kallsyms) stores the
# profile in the same tables perf's go to, so compare --profile and the
# report show it; MMBENCH_PERF=builtin asks for it where perf is; the
# guest agent (vm run/ab --profile) streams it as a P record.  Needs root
# (sampling every CPU and reading kallsyms' addresses): docs/profiles.md.
. "$(dirname "$0")/../e2e-lib.sh"
need_root "samples every CPU"
mkdir -p "$TMP/bin"	# a PATH without perf
cat >"$TMP/pft.yaml" <<EOC
experiment: pft-builtin-profile
iterations: 2
warmup: 0
workloads:
  - name: pft
    params:
      size: 32M
      clients: 1
EOC
prun() {	# label, then env: a run waiting while another harness has the lock
	local l=$1
	shift
	for _ in $(seq 1 120); do
		set +e
		env "$@" "$MMB" run "$TMP/pft.yaml" --name "$l" --profile >"$TMP/out.$l" 2>"$TMP/err.$l"
		rc=$?
		set -e
		[ $rc -ne 0 ] && grep -q "runs must not overlap" "$TMP/err.$l" || break
		sleep 5
	done
	[ $rc = 0 ] || { cat "$TMP/out.$l" "$TMP/err.$l"; die "run $l exited $rc"; }
}
prun a PATH="$TMP/bin"
grep -q "the built-in sampler cannot run" "$TMP/err.a" && skip "the built-in sampler cannot run here: $(cat "$TMP/err.a")"
prun b PATH="$TMP/bin"
prun c MMBENCH_PERF=builtin
grep -q "profile: no perf, the built-in sampler" "$TMP/err.a" ||
	die "run a did not say it used the built-in sampler: $(cat "$TMP/err.a")"
grep -q "profile: MMBENCH_PERF=builtin, the built-in sampler" "$TMP/err.c" ||
	die "run c did not say it used the built-in sampler: $(cat "$TMP/err.c")"
for l in a b c; do
	id=$(q "SELECT r.id FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = '$l'")
	[ "$(q "SELECT event || '|' || note FROM profiles WHERE run_id = $id")" = \
	  "cpu-clock|built-in sampler, every CPU" ] || die "run $l: no built-in profile"
	[ "$(q "SELECT value FROM run_env WHERE run_id = $id AND key = 'profile.event'")" = \
	  "cpu-clock (built-in sampler, every CPU)" ] || die "run $l: profile.event not recorded"
	[ "$(q "SELECT count(*) FROM profile_rows WHERE run_id = $id AND kind = 'calltrace'")" -ge 1 ] ||
		die "run $l: no calltrace rows"
	# kernel samples are named: a self row that is a symbol, not [user] or [kernel]
	[ "$(q "SELECT count(*) FROM profile_rows WHERE run_id = $id AND kind = 'self'
		AND name NOT LIKE '[%'")" -ge 1 ] || die "run $l: no kernel symbol among the rows"
	[ "$(q "SELECT sum(pct) <= 100.0001 FROM profile_rows WHERE run_id = $id AND kind = 'self'")" = 1 ] ||
		die "run $l: self shares above 100%"
	[ "$(q "SELECT count(*) FROM iterations WHERE run_id = $id")" = 2 ] ||
		die "run $l: the profiled iteration got a row"
done
"$MMB" compare --profile a b >"$TMP/cmp" 2>"$TMP/cmp.err" || { cat "$TMP/cmp.err"; die "compare --profile"; }
grep -q "^perf-profile of pft: a (1 profiled run" "$TMP/cmp" || die "no perf-profile block: $(cat "$TMP/cmp")"
grep -q "sampled cpu-clock (built-in sampler, every CPU)" "$TMP/cmp" ||
	die "compare does not name the built-in sampler: $(cat "$TMP/cmp")"
grep -Eq ' perf-profile\.self\.cycles-pp\.[^ []+$' "$TMP/cmp" || die "no symbol rows: $(cat "$TMP/cmp")"
"$MMB" report --no-plots --out "$TMP/rep" a b >/dev/null 2>"$TMP/rep.err" || { cat "$TMP/rep.err"; die "report"; }
grep -q "^Profiles$" "$TMP/rep/report.txt" || die "report.txt has no Profiles section"

# the guest agent, run here with a file for its port: --profile reaches the
# runner, and the profile goes out as a P record
printf -- '--\0run\0%s\0--profile\0' "$TMP/pft.yaml" >"$TMP/args"
( cd "$TMP" && PATH="$TMP/bin" MMBENCH_VM_PORT="$TMP/stream" "$MMB" vm guest "$TMP/args" ) \
	>"$TMP/gout" 2>&1 || { cat "$TMP/gout"; die "the guest agent failed"; }
grep -q "^P	pft		cpu-clock	built-in sampler, every CPU	[0-9]" "$TMP/stream" ||
	{ cat "$TMP/gout"; die "no built-in profile record in the guest's stream"; }
grep -q '^X	0$' "$TMP/stream" || die "the guest agent's run did not end well"
echo ok
