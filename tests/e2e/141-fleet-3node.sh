#!/bin/bash
# mmbench fleet on a real three-node Slurm on one host (issue 32 item 10):
# munged, slurmctld and three `slurmd -N nodeK` of the test's own (own key,
# socket, ports, state and spool under $TMP, stopped by pid whatever
# happens); each node's mmbench is a wrapper giving it its own machine lock,
# state folder and host name (docs/fleet.md, "Several nodes on one host").
# Two fleets (labels base and new) on the three nodes are submitted, waited
# for with `fleet wait`, collected into one DB, and `compare --by machine`
# puts three machines side by side.  Skips (77) where Slurm cannot be
# installed or started, or the test is not root.
. "$(dirname "$0")/../e2e-lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
need_root "slurmd and munged run as root here (SlurmUser=root)"
command -v unshare >/dev/null || skip "unshare (util-linux) missing"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	"$SRC/tools/install-deps.sh" test > "$TMP/apt.log" 2>&1 ||
		skip "cannot install slurm-wlm and munge: $(tail -n 1 "$TMP/apt.log")"
fi
for t in munged munge slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
	command -v "$t" >/dev/null || skip "$t missing after installing slurm-wlm and munge"
done

S=$TMP/slurm
mkdir -p "$S/state" "$S/spool" "$S/log" "$S/munge"
# munged wants its socket's folders searchable by everyone
chmod 755 "$TMP" "$S" "$S/munge"
MUNGE_PID='' CTLD_PID='' SLURMD_PIDS=''

stop() {
	local p
	if [ -n "$CTLD_PID" ]; then
		scancel --full --user=root 2>/dev/null || true
		for _ in $(seq 1 60); do
			[ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
			sleep 1
		done
	fi
	for p in $SLURMD_PIDS $CTLD_PID $MUNGE_PID; do
		kill -TERM "$p" 2>/dev/null || continue
		for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	cleanup
}
trap stop EXIT

# four free ports of our own, so another Slurm on the machine is not disturbed
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base=$((20000 + RANDOM % 9000))
for p in $(seq "$base" $((base + 200))); do
	port_free "$p" && port_free $((p + 1)) && port_free $((p + 2)) &&
		port_free $((p + 3)) && break
done
node=$(hostname -s)

dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$S/munge/munge.key"
munged -F --socket="$S/munge/sock" --key-file="$S/munge/munge.key" \
	--pid-file="$S/munge/pid" --log-file="$S/munge/log" --seed-file="$S/munge/seed" \
	> "$S/log/munged.out" 2>&1 &
MUNGE_PID=$!
for _ in $(seq 1 50); do [ -S "$S/munge/sock" ] && break; sleep 0.2; done
[ -S "$S/munge/sock" ] || { cat "$S/log/munged.out"; die "munged did not start"; }

cat > "$S/slurm.conf" <<EOF
ClusterName=mmbfleet
SlurmctldHost=$node
SlurmctldPort=$p
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool/%n
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd-%n.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=DEFAULT CPUs=1 RealMemory=256 Feature=mmbtest State=UNKNOWN
NodeName=node1 NodeHostname=$node Port=$((p + 1))
NodeName=node2 NodeHostname=$node Port=$((p + 2))
NodeName=node3 NodeHostname=$node Port=$((p + 3))
PartitionName=mmbfleet Nodes=node[1-3] Default=YES OverSubscribe=EXCLUSIVE MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$S/slurm.conf
slurmctld -D -f "$SLURM_CONF" > "$S/log/slurmctld.out" 2>&1 &
CTLD_PID=$!
for n in node1 node2 node3; do
	mkdir -p "$S/spool/$n"
	slurmd -D -f "$SLURM_CONF" -N "$n" > "$S/log/slurmd-$n.out" 2>&1 &
	SLURMD_PIDS="$SLURMD_PIDS $!"
done
up=
for _ in $(seq 1 120); do
	[ "$(sinfo -h -N -o %t 2>/dev/null | grep -c -E '^(idle|mix|alloc)')" = 3 ] && { up=1; break; }
	kill -0 "$CTLD_PID" 2>/dev/null || break
	sleep 1
done
# a slurm-wlm built without multiple-slurmd cannot run three nodes on one host
[ -n "$up" ] || { tail -n 5 "$S"/log/*; skip "the three-node Slurm did not come up on one host"; }
sinfo -N

# each node's mmbench: its own lock, state folder and host name
MMB=$(readlink -f -- "$MMB")
cat > "$TMP/mmb-node" <<EOF
#!/bin/sh
n=\${SLURMD_NODENAME:-submit}
mkdir -p "$TMP/nodes/\$n"
export MMBENCH_LOCK="$TMP/nodes/\$n/lock" MMBENCH_STATE="$TMP/nodes/\$n/state"
[ "\$n" = submit ] && exec "$MMB" "\$@"
exec unshare --uts -- sh -c 'hostname "\$0" && exec "\$@"' "\$n" "$MMB" "\$@"
EOF
chmod 755 "$TMP/mmb-node"

cat > "$TMP/tiny.yaml" <<'EOF'
experiment: fleet-3node
iterations: 3
warmup: 0
workloads:
  - name: skeleton
    params: { size: 4M, passes: 2 }
EOF

for l in base new; do
	"$MMB" fleet submit --engine slurm --partition mmbfleet --nodes 3 --name "$l" \
		--mmbench "$TMP/mmb-node" --dir "$TMP/f-$l" "$TMP/tiny.yaml" > "$TMP/sub-$l.out" 2>&1 ||
		{ cat "$TMP/sub-$l.out"; die "fleet submit $l failed"; }
	cat "$TMP/sub-$l.out"
done
squeue -o '%.8i %.24j %.8T %N'
for l in base new; do
	rc=0
	"$MMB" fleet wait --interval 2 --timeout 900 "$TMP/f-$l" > "$TMP/wait-$l.out" 2>&1 || rc=$?
	cat "$TMP/wait-$l.out"
	[ $rc = 0 ] && grep -q "^3 jobs: 3 done, 0 failed, after " "$TMP/wait-$l.out" ||
		{ cat "$TMP/f-$l"/jobs/*/log; die "fleet wait $l: exit $rc"; }
	"$MMB" fleet status "$TMP/f-$l" > "$TMP/st-$l.out" || die "status $l: not 0"
	cat "$TMP/st-$l.out"
	for n in 1 2 3; do
		grep -q "^r1-n$n .*node$n" "$TMP/st-$l.out" || die "status $l: r1-n$n does not name node$n"
	done
done

M=$TMP/merged.db
for l in base new; do
	"$MMB" fleet collect --db "$M" "$TMP/f-$l" > "$TMP/col-$l.out" 2>&1 ||
		{ cat "$TMP/col-$l.out"; die "collect $l"; }
	cat "$TMP/col-$l.out"
done
[ "$(sqlite3 "$M" "SELECT count(*) FROM runs")" = 6 ] || die "6 runs merged"
[ "$(sqlite3 "$M" "SELECT group_concat(hostname, ' ') FROM (SELECT hostname FROM machines ORDER BY 1)")" = \
  "node1 node2 node3" ] || die "machines: $(sqlite3 "$M" "SELECT hostname FROM machines")"
"$MMB" compare --db "$M" --by machine base new > "$TMP/bym.out" 2> "$TMP/bym.err" ||
	{ cat "$TMP/bym.err"; die "compare --by machine"; }
cat "$TMP/bym.out"
for n in node1 node2 node3; do
	grep -q "for machine [0-9]* ($n)" "$TMP/bym.out" || die "compare --by machine has no $n"
done
grep -q "^change per machine" "$TMP/bym.out" || die "no per-machine change table"

# issue 47 item 12: --array, one array per node (2 rounds each), task ids ID_ROUND
"$MMB" fleet submit --engine slurm --partition mmbfleet --nodes 3 --rounds 2 --array --name arr \
	--mmbench "$TMP/mmb-node" --dir "$TMP/f-arr" "$TMP/tiny.yaml" > "$TMP/sub-arr.out" 2> "$TMP/sub-arr.err" ||
	{ cat "$TMP/sub-arr.out" "$TMP/sub-arr.err"; die "fleet submit --array failed"; }
cat "$TMP/sub-arr.out" "$TMP/sub-arr.err"
[ "$(grep -c '^[0-9]*_[12]$' "$TMP/sub-arr.out")" = 6 ] || die "submit --array: not 6 task ids"
[ "$(sed 's/_.*//' "$TMP/sub-arr.out" | sort -u | wc -l)" = 3 ] || die "submit --array: not 3 arrays"
squeue -r -o '%.10i %.24j %.8T %N'
rc=0
"$MMB" fleet wait --interval 2 --timeout 900 "$TMP/f-arr" > "$TMP/wait-arr.out" 2>&1 || rc=$?
cat "$TMP/wait-arr.out"
[ $rc = 0 ] && grep -q "^6 jobs: 6 done, 0 failed, after " "$TMP/wait-arr.out" ||
	{ cat "$TMP/f-arr"/jobs/*/log; die "fleet wait --array: exit $rc"; }
"$MMB" fleet status "$TMP/f-arr" > "$TMP/st-arr.out" || die "status --array: not 0"
cat "$TMP/st-arr.out"
for n in 1 2 3; do
	for r in 1 2; do
		grep -q "^r$r-n$n *[0-9]*_$r .*node$n .*done" "$TMP/st-arr.out" ||
			die "status --array: r$r-n$n is not task $r done on node$n"
	done
done
"$MMB" fleet collect --db "$M" "$TMP/f-arr" > "$TMP/col-arr.out" 2>&1 || { cat "$TMP/col-arr.out"; die "collect --array"; }
[ "$(sqlite3 "$M" "SELECT count(*) FROM runs")" = 12 ] || die "12 runs merged"
echo ok
