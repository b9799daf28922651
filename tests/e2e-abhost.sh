# The machine `ab --host` drives, stood in by files and fake tools (sourced
# by the e2e 310-319 scripts after e2e-lib.sh).  Nothing of the real host is
# read as "the kernel" or written as a boot hook:
#   $ROOT                        MMBENCH_HOST_ROOT: proc/cmdline, osrelease,
#                                boot_id, etc/systemd/system/, run/systemd/system
#                                (systemd runs: the hook is the unit)
#   $TMP/bin/{kexec,systemctl,grub-reboot}  record their argv in $TMP/tools.log;
#   kexec -l remembers the image and cmdline, kexec -e kills its caller (the
#   machine leaves), `boot` below plays firmware and systemd: the loaded
#   kernel's release and cmdline become the running ones, a new boot id, and
#   the enabled hook's ExecStart runs.
export MMBENCH_PLUGIN_PATH=$MMBENCH_BUILD/tests/plugins
export MMBENCH_HOST_ROOT=$TMP/root MMBENCH_STATE=$TMP/state MMBENCH_LOCK=$TMP/lock
ROOT=$TMP/root
UNIT=$ROOT/etc/systemd/system/mmbench-ab-resume.service
mkdir -p "$ROOT/proc/sys/kernel/random" "$ROOT/etc/systemd/system" "$ROOT/run/systemd/system" "$TMP/bin" "$TMP/state"
echo 1111 > "$ROOT/proc/sys/kernel/random/boot_id"
export PATH=$TMP/bin:$PATH
: > "$TMP/tools.log"

cat > "$TMP/bin/kexec" <<'EOT'
#!/bin/bash
echo "kexec $*" >> "$TMP/tools.log"
case $1 in
-l) img=$2; cmd=; for a in "$@"; do case $a in --command-line=*) cmd=${a#--command-line=};; esac; done
    printf '%s\n%s\n' "$img" "$cmd" > "$MMBENCH_HOST_ROOT/loaded";;
-e) [ -e "$MMBENCH_HOST_ROOT/kexec-fails" ] && exit 1
    kill -9 "$PPID"; exit 0;;
esac
EOT
cat > "$TMP/bin/systemctl" <<'EOT'
#!/bin/bash
echo "systemctl $*" >> "$TMP/tools.log"
case $1 in
enable) touch "$MMBENCH_HOST_ROOT/enabled.$2";;
disable) rm -f "$MMBENCH_HOST_ROOT/enabled.$3";;
esac
exit 0
EOT
printf '#!/bin/bash\necho "grub-reboot $*" >> "$TMP/tools.log"\n' > "$TMP/bin/grub-reboot"
chmod +x "$TMP/bin/"*
export TMP

# bzimage FILE RELEASE: a setup header naming RELEASE (what the parser reads)
bzimage() {
	head -c 1024 /dev/zero > "$1"
	printf 'HdrS' | dd of="$1" bs=1 seek=$((0x202)) conv=notrunc status=none
	printf '\x00\x01' | dd of="$1" bs=1 seek=$((0x20e)) conv=notrunc status=none
	printf '%s (mmbench@test) #1 SMP' "$2" | dd of="$1" bs=1 seek=$((0x300)) conv=notrunc status=none
	echo "$2" > "$1.release"
}
# running RELEASE CMDLINE: the kernel that runs now
running() {
	echo "$1" > "$ROOT/proc/sys/kernel/osrelease"
	echo "$2" > "$ROOT/proc/cmdline"
}
nboot=1
# come_up [RELEASE CMDLINE]: the machine boots (the loaded kernel, or the one
# given: a panic back to the default kernel), a new boot id
come_up() {
	local img cmd
	if [ $# = 2 ]; then running "$1" "$2"
	else { read -r img; read -r cmd; } < "$ROOT/loaded"; running "$(cat "$img.release")" "$cmd"; fi
	nboot=$((nboot + 1)); echo "$nboot$nboot$nboot$nboot" > "$ROOT/proc/sys/kernel/random/boot_id"
	rm -f "$ROOT/loaded"
}
# systemd at boot: the enabled hook's ExecStart runs (rc in brc)
hook() {
	[ -e "$ROOT/enabled.mmbench-ab-resume.service" ] || die "boot $nboot: the resume hook is not enabled: $(cat "$TMP/tools.log" "$TMP/state/journal" 2>&1)"
	grep -qx "Environment=\"MMBENCH_STATE=$TMP/state\"" "$UNIT" || die "the unit does not name the state folder"
	local line argv
	line=$(sed -n 's/^ExecStart=//p' "$UNIT")
	read -ra argv <<< "${line//\"/}"
	set +e
	"${argv[@]}" > "$TMP/boot$nboot.out" 2> "$TMP/boot$nboot.err"
	brc=$?
	set -e
}
boot() { come_up "$@"; hook; }
# a one-round experiment of the test plugin spin: seconds, not minutes
cat > "$TMP/exp.yaml" <<'EOC'
experiment: host-ab
iterations: 2
warmup: 0
workloads:
  - name: spin
    params: { threads: 1, ms: 2 }
EOC
bzimage "$TMP/a.img" 6.1.0-mmbA
bzimage "$TMP/b.img" 6.12.0-mmbB
CMD="console=ttyS0 panic=10"
running 6.1.0-mmbA "$CMD"
# start OPTIONS...: a campaign of a.img and b.img (rc, $TMP/out, $TMP/err)
start() {
	set +e
	"$MMB" ab --host --kernel-a "$TMP/a.img" --kernel-b "$TMP/b.img" --base-name kA \
		--new-name kB "$@" "$TMP/exp.yaml" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	set -e
}
# a fresh machine on A: no campaign, no hook, no journal, no tool calls
reset() {
	"$MMB" restore >/dev/null 2>&1 || true
	rm -rf "$TMP/state" "$UNIT" "$ROOT"/enabled.* "$ROOT/kexec-fails"
	mkdir "$TMP/state"
	: > "$TMP/tools.log"
	running 6.1.0-mmbA "$CMD"
}
