#!/bin/bash
# Issue 27 item 3: a fleet manifest is input; a job id like '-uroot' made
# `fleet cancel` run `scancel -uroot` (cancel every job of root).  Job ids
# are N or N_M, hosts do not start with '-', and scancel gets '--' before
# the id.  Fake Slurm tools on PATH log what they were given.
. "$(dirname "$0")/../e2e-lib.sh"
B=$TMP/bin
mkdir -p "$B" "$TMP/f"
cat > "$B/squeue" <<'EOS'
#!/bin/bash
# every job asked for is running on node1
while [ $# -gt 0 ]; do [ "$1" = --jobs ] && ids=$2; shift; done
IFS=, read -ra a <<< "$ids"
for i in "${a[@]}"; do echo "$i|RUNNING|node1|None"; done
EOS
cat > "$B/scancel" <<EOS
#!/bin/bash
printf '%s\n' "\$*" >> "$TMP/scancel.log"
EOS
cp "$B/scancel" "$B/scontrol"
chmod +x "$B"/*
export PATH=$B:$PATH
manifest() { printf 'mmbench-fleet 1\nengine slurm\n%s\n' "$1" > "$TMP/f/fleet"; }

for line in 'job 1 1 node1 -uroot' 'job 1 1 node1 --user=root' 'job 1 1 -wnode1 12' \
	'job 1 1 node1 12abc' 'job 1 1 node1 1_-u'; do
	manifest "$line"
	rc=0
	"$MMB" fleet cancel "$TMP/f" > /dev/null 2> "$TMP/err" || rc=$?
	[ $rc -ne 0 ] || die "'$line' accepted"
	grep -qF "bad line" "$TMP/err" || die "'$line': $(cat "$TMP/err")"
	[ ! -e "$TMP/scancel.log" ] || die "'$line' reached scancel: $(cat "$TMP/scancel.log")"
done
printf 'mmbench-fleet 1\nengine slurm\njob 1 1 node1 123\njob 2 1 node1 124_7\n' > "$TMP/f/fleet"
"$MMB" fleet cancel "$TMP/f" > /dev/null 2> "$TMP/err" || die "fleet cancel: $(cat "$TMP/err")"
# one scancel for both, the ids after --
[ "$(cat "$TMP/scancel.log")" = "-- 123 124_7" ] || die "scancel got: $(cat "$TMP/scancel.log")"
echo ok
