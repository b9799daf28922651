#!/bin/bash
# tools/install-deps.sh and ab --host: `make deps` installs kexec-tools (the
# machine's kexec), the kernel set (make check-abhost) kexec-tools and
# e2fsprogs (mkfs.ext4 -d, debugfs), and kexec-tools goes in with its
# "handle reboots" question answered no, so a reboot stays a reboot to the
# default kernel.  dpkg, apt-get, id and debconf are fakes on PATH: nothing
# is installed.
. "$(dirname "$0")/../e2e-lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$TMP/bin"
cat > "$TMP/bin/dpkg-query" <<'EOT'
#!/bin/sh
exit 1
EOT
cat > "$TMP/bin/dpkg" <<'EOT'
#!/bin/sh
echo arm64
EOT
cat > "$TMP/bin/apt-get" <<'EOT'
#!/bin/sh
echo "apt-get $*" >> "$TMP/log"
EOT
cat > "$TMP/bin/debconf-set-selections" <<'EOT'
#!/bin/sh
echo "debconf $(cat)" >> "$TMP/log"
EOT
printf '#!/bin/sh\necho "${FAKE_UID:-1000}"\n' > "$TMP/bin/id"
chmod +x "$TMP/bin/"*
export TMP PATH=$TMP/bin:$PATH

# deps SET...: what install-deps.sh asks for, as a user (it only prints)
deps() { sh "$top/tools/install-deps.sh" "$@" 2>&1 | sed -n 's/^mmbench needs these Debian packages://p'; }
for set in "run host" kernel all; do
	# shellcheck disable=SC2086 # the sets as words
	deps $set | tr ' ' '\n' | grep -qx kexec-tools || die "install-deps.sh $set does not ask for kexec-tools"
done
deps kernel | tr ' ' '\n' | grep -qx e2fsprogs || die "install-deps.sh kernel does not ask for e2fsprogs"
grep -q '^	@./tools/install-deps.sh run host$' "$top/Makefile" || die "make deps does not install the host set"

# as root: kexec-tools' question answered no before apt-get installs it
: > "$TMP/log"
FAKE_UID=0 sh "$top/tools/install-deps.sh" host >/dev/null 2>&1 || die "install-deps.sh host as root failed"
grep -qx "debconf kexec-tools kexec-tools/load_kexec boolean false" "$TMP/log" ||
	die "kexec-tools/load_kexec not preseeded to false: $(cat "$TMP/log")"
[ "$(grep -n . "$TMP/log" | grep debconf | cut -d: -f1)" -lt "$(grep -n 'apt-get install' "$TMP/log" | cut -d: -f1)" ] ||
	die "the preseed must come before apt-get install: $(cat "$TMP/log")"
grep -q "apt-get install .*kexec-tools" "$TMP/log" || die "kexec-tools not installed: $(cat "$TMP/log")"
echo ok
