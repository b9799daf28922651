# Fake Slurm tools for fleet tests (sourced): fake_slurm DIR writes sinfo,
# sbatch, squeue, scancel, scontrol and sacct into DIR/bin and puts it first
# on PATH.  They keep their state under DIR:
#   sbatch.args, scancel.log   every call's arguments, one line each
#   asked.log                  "squeue" or "scontrol" for each such call
#   squeue.state/ID            squeue's "STATE|NODE|REASON" for job ID
#                              (default PENDING|node1|Resources; "-": not
#                              listed, it left the queue); an array task's
#                              ID is ARRAYID_TASK, as squeue -r lists it
#   scontrol.jobs              `scontrol show job -o` records, one a line
#   sinfo.out                  sinfo's "NODE|FEATURES|STATE" lines, if there
# and read the environment at each call:
#   FAKE_NODES         sinfo's nodes (default "node1 node2")
#   FAKE_SBATCH_FAIL_AT=N  the Nth sbatch and later fail, saying
#                      FAKE_SBATCH_ERROR (default: controller unreachable)
#   FAKE_SLURM_DOWN    squeue, scancel and scontrol cannot reach slurmctld
#   FAKE_HANG          squeue hangs
#   FAKE_LEFT_QUEUE    squeue lists nothing
#   FAKE_CANCEL_FAIL   scancel fails
#   FAKE_END_STATE=S   scontrol remembers jobs 101-120 ended in state S
#   FAKE_SACCT         sacct answers (else: accounting disabled); every job
#                      CANCELLED, or sacct.jobs's "ID|STATE|EXIT|NODE" lines
fake_slurm() {
	local d=$1 b=$1/bin
	mkdir -p "$b" "$d/squeue.state"
	cat > "$b/sinfo" << EOS
#!/bin/bash
[ -f "$d/sinfo.out" ] && exec cat "$d/sinfo.out"
for n in \${FAKE_NODES:-node1 node2}; do echo "\$n|(null)|idle"; done
EOS
	cat > "$b/sbatch" << EOS
#!/bin/bash
printf '%s\n' "\$*" >> "$d/sbatch.args"
n=\$(( \$(cat "$d/sbatch.n" 2> /dev/null || echo 0) + 1 ))
echo \$n > "$d/sbatch.n"
if [ -n "\${FAKE_SBATCH_FAIL_AT:-}" ] && [ \$n -ge "\$FAKE_SBATCH_FAIL_AT" ]; then
	echo "sbatch: error: Batch job submission failed: \${FAKE_SBATCH_ERROR:-Unable to contact slurm controller}" >&2
	exit 1
fi
echo \$((100 + n))
EOS
	cat > "$b/squeue" << EOS
#!/bin/bash
echo squeue >> "$d/asked.log"
[ -z "\${FAKE_HANG:-}" ] || exec sleep 600
if [ -n "\${FAKE_SLURM_DOWN:-}" ]; then
	echo "slurm_load_jobs error: Unable to contact slurm controller (connect failure)" >&2
	exit 1
fi
[ -z "\${FAKE_LEFT_QUEUE:-}" ] || exit 0
while [ \$# -gt 0 ]; do [ "\$1" = --jobs ] && ids=\$2; shift; done
IFS=, read -ra a <<< "\$ids"
for i in "\${a[@]}"; do
	if [ -f "$d/squeue.state/\$i" ]; then
		[ "\$(cat "$d/squeue.state/\$i")" = - ] || echo "\$i|\$(cat "$d/squeue.state/\$i")"
	else echo "\$i|PENDING|node1|Resources"; fi
done
EOS
	cat > "$b/scancel" << EOS
#!/bin/bash
if [ -n "\${FAKE_CANCEL_FAIL:-}\${FAKE_SLURM_DOWN:-}" ]; then
	echo "scancel: error: Unable to contact slurm controller" >&2
	exit 1
fi
printf '%s\n' "\$*" >> "$d/scancel.log"
EOS
	cat > "$b/scontrol" << EOS
#!/bin/bash
[ "\$2" = hostnames ] && { tr , '\n' <<< "\$3"; exit 0; }
echo scontrol >> "$d/asked.log"
[ -z "\${FAKE_SLURM_DOWN:-}" ] || exit 1
if [ -n "\${FAKE_END_STATE:-}" ]; then
	for i in \$(seq 101 120); do
		echo "JobId=\$i JobName=x JobState=\$FAKE_END_STATE Reason=TimeLimit ExitCode=0:15 NodeList=node1"
	done
	exit 0
fi
[ -f "$d/scontrol.jobs" ] && cat "$d/scontrol.jobs"
exit 0
EOS
	cat > "$b/sacct" << EOS
#!/bin/bash
[ -n "\${FAKE_SACCT:-}" ] || { echo "sacct: error: Slurm accounting storage is disabled" >&2; exit 1; }
[ -f "$d/sacct.jobs" ] && { cat "$d/sacct.jobs"; exit 0; }
for a; do case \$a in --jobs=*) ids=\${a#--jobs=} ;; esac; done
IFS=, read -ra v <<< "\$ids"
for i in "\${v[@]}"; do echo "\$i|CANCELLED by 0|0:0|node1"; done
EOS
	chmod +x "$b"/*
	export PATH=$b:$PATH
}
