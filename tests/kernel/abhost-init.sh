# The init of ab --host's QEMU stand-in machine (tests/kernel/abhost.sh),
# after the head of the vm guests' /init (PATH, libraries, /proc): an
# initramfs-only system without systemd, whose disk (/dev/vda, ext4) holds
# both kernels, this initramfs, the experiment, the DB and the state folder.
# Its resume hook is the file ab --host leaves in the state folder: while it
# is there, each boot runs `mmbench ab --host --resume`.  The first boot
# starts the campaign from start.args (one argument a line, no shell
# evaluation).  A boot that is left with nothing to do records the
# campaign's status and powers the machine off.
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mkdir -p /disk
echo "abhost-guest: up, kernel $(uname -r), cmdline $(cat /proc/cmdline)"
if ! mount -t ext4 /dev/vda /disk; then
	echo "abhost-guest: cannot mount the disk"
	poweroff -f
fi
export MMBENCH_STATE=/disk/state MMBENCH_DB=/disk/ab.db
mkdir -p /disk/state
chmod 700 /disk/state
echo "$(uname -r) $(cat /proc/cmdline)" >> /disk/boots.log
sync
if [ -e /disk/state/ab-host.hook ]; then
	echo "abhost-guest: the resume hook is there: mmbench ab --host --resume"
	mmbench ab --host --resume >> /disk/campaign.out 2>&1
	echo "resume exit $?" >> /disk/campaign.out
elif [ -e /disk/start.args ]; then
	set --
	while IFS= read -r a; do set -- "$@" "$a"; done < /disk/start.args
	rm /disk/start.args
	sync
	echo "abhost-guest: starting the campaign: mmbench ab --host $*"
	mmbench ab --host "$@" >> /disk/campaign.out 2>&1
	echo "start exit $?" >> /disk/campaign.out
fi
mmbench ab --host --status > /disk/status.out 2>&1
echo "abhost-guest: done, powering off"
cat /disk/status.out
sync
umount /disk
poweroff -f
