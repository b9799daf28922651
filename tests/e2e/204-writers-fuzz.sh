#!/bin/bash
# Issue 42 item 6 and its done-when: concurrent writers against old-schema
# files, property-tested.  TRIALS (200) times: a copy of a stored old file
# (fixtures/store: schema 2, 8 or 10) or a path that does not exist yet,
# then two to four of these at once, each after a random short delay:
# imports of a tiny CSV, merges of another old file, a reader (list runs),
# and now and then a run of the skeleton plugin.  Afterwards every writer
# and reader succeeded (two writers migrating one file used to leave a
# file every command refused, or fail "migration 9 -> 10 failed"; two
# creating one failed "table kernels already exists"), the file is at the
# newest version, integrity_check is ok, every run is there once (no uuid
# twice), every import and merge landed, and every reader reads it.
# No timing is checked: only what the interleavings leave behind.
. "$(dirname "$0")/../e2e-lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/store" && pwd)
TRIALS=${TRIALS:-200}
cd "$TMP"
printf 'workload,metric,variant,iteration,value\nw,m,,1,1.5\nw,m,,2,1.6\n' > a.csv
printf 'experiment: f\niterations: 1\nwarmup: 0\nworkloads:\n  - name: skeleton\n' > f.yaml
sq() { command sqlite3 -batch -noheader "$@"; }
"$MMB" -q import --db ref.db --name ref a.csv
newest=$(sq ref.db 'PRAGMA user_version')
bases=(old-v2.db old-v8.db v10.db "")
# old-v2 and old-v8 both name kernels base and new, different ones: merged under their own
renames() { case $1 in old-v2.db) echo "--rename base=v2base --rename new=v2new" ;;
	old-v8.db) echo "--rename base=v8base --rename new=v8new" ;; esac; }
RANDOM=42

for t in $(seq 1 "$TRIALS"); do
	rm -rf trial && mkdir trial
	base=${bases[RANDOM % 4]}
	[ -z "$base" ] || cp "$FIX/$base" trial/t.db
	before=0
	[ -z "$base" ] || before=$(sq trial/t.db "SELECT count(*) FROM runs")
	nw=$((2 + RANDOM % 3))
	pids=() what=() imports=0 merged=() ran=
	for w in $(seq 1 "$nw"); do
		delay=0.0$((RANDOM % 5))
		case $((RANDOM % 10)) in
		0)	# one run at a time: benchmarks never overlap (a second is refused)
			if [ -z "$ran" ] && { [ $t -le 20 ] || [ $((t % 10)) = 0 ]; }; then
				ran=1
				what+=("run"); ( sleep "$delay"; exec "$MMB" -q run --db trial/t.db f.yaml ) \
					> "trial/out$w" 2> "trial/err$w" &
			else
				what+=("list"); ( sleep "$delay"; exec "$MMB" list runs --db trial/t.db ) \
					> "trial/out$w" 2> "trial/err$w" &
			fi ;;
		1|2)	src=${bases[RANDOM % 3]}
			cp "$FIX/$src" "trial/src$w.db"
			echo "$src" > "trial/src$w.db.name"
			merged+=("trial/src$w.db")
			what+=("merge $src"); ( sleep "$delay"; exec "$MMB" -q merge --db trial/t.db $(renames "$src") "trial/src$w.db" ) \
				> "trial/out$w" 2> "trial/err$w" & ;;
		3)	what+=("list"); ( sleep "$delay"; exec "$MMB" list runs --db trial/t.db ) \
				> "trial/out$w" 2> "trial/err$w" & ;;
		*)	imports=$((imports + 1))
			what+=("import"); ( sleep "$delay"; exec "$MMB" -q import --db trial/t.db --name "i$w" a.csv ) \
				> "trial/out$w" 2> "trial/err$w" & ;;
		esac
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		rc=0
		wait "${pids[$i]}" || rc=$?
		w=$((i + 1))
		# a reader started before the file exists finds nothing: that is its answer
		if [ "${what[$i]}" = list ] && [ -z "$base" ] && [ $rc = 2 ] &&
		   grep -q "does not exist" "trial/err$w"; then
			continue
		fi
		[ $rc = 0 ] || die "trial $t (${base:-new file}: ${what[*]}): '${what[$i]}' exit $rc: $(cat "trial/err$w")"
	done
	f=trial/t.db
	[ "$(sq $f 'PRAGMA user_version')" = "$newest" ] || die "trial $t: left at version $(sq $f 'PRAGMA user_version')"
	[ "$(sq $f 'PRAGMA integrity_check')" = ok ] || die "trial $t: integrity_check: $(sq $f 'PRAGMA integrity_check' | head -3)"
	"$MMB" list runs --db $f > trial/list 2> trial/lerr || die "trial $t: list runs refuses the file: $(cat trial/lerr)"
	"$MMB" -q export --db $f > /dev/null 2> trial/lerr || die "trial $t: export refuses the file: $(cat trial/lerr)"
	[ "$(sq $f 'SELECT count(*) - count(DISTINCT uuid) FROM runs')" = 0 ] || die "trial $t: a run is there twice"
	[ "$(sq $f "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label GLOB 'i[0-9]'")" = "$imports" ] ||
		die "trial $t: $imports imports, $(sq $f "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label GLOB 'i[0-9]'") landed"
	for s in "${merged[@]}"; do
		# every ended run of the source is here, by its uuid (the old one's read as readers read it)
		"$MMB" merge --db "$f" $(renames "$(cat "$s.name")") "$s" 2> trial/merr || die "trial $t: merging $s again failed: $(cat trial/merr)"
		grep -q ": 0 runs merged" trial/merr || die "trial $t: merging $s again added runs: $(cat trial/merr)"
	done
	after=$(sq $f "SELECT count(*) FROM runs")
	[ "$after" -ge $((before + imports)) ] || die "trial $t: $after runs, fewer than $before + $imports"
done
echo "ok: $TRIALS trials"
