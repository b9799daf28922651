#!/bin/bash
# vm run / ab refuse a guest bigger than the host: more CPUs than it has
# online on the real clock (`--cpus 99` on a 2-CPU host was accepted; the
# virtual clock runs them in turns and takes more), more memory than its
# MemTotal, or too little to boot (`--mem 1P` is one 4K page: P counts
# pages).  Exit 2, the message names the limit; nothing boots.  What the host
# has is accepted (the next error is the unknown kernel).
. "$(dirname "$0")/../e2e-lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export MMBENCH_CACHE=$TMP/cache
cfg=$top/configs/quick.yaml
ncpu=$(getconf _NPROCESSORS_ONLN)
memk=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)

expect() {	# expect PATTERN -- command...
	local pat=$1 rc=0
	shift 2
	"$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
	cat "$TMP/err"
	[ "$rc" = 2 ] || die "$*: exit $rc, expected 2"
	grep -qF -- "$pat" "$TMP/err" || die "$*: no '$pat' in the message"
}
s=s; [ "$ncpu" = 1 ] && s=
for cmd in "vm run --kernel nope" "ab --base-name a --new-name b"; do
	read -r -a c <<< "$cmd"
	expect "--cpus $((ncpu + 1)): this host has $ncpu online CPU$s" -- \
		"$MMB" "${c[@]}" --cpus $((ncpu + 1)) "$cfg"
	expect "--cpus 99: this host has $ncpu online CPU$s" -- "$MMB" "${c[@]}" --cpus 99 "$cfg"
	expect "--mem '1P' is 4.0K: a guest needs at least 64.0M (P counts pages" -- \
		"$MMB" "${c[@]}" --mem 1P "$cfg"
	expect "more than this host's memory (MemTotal" -- \
		"$MMB" "${c[@]}" --mem $((memk + 1048576))K "$cfg"
done
# on the virtual clock the vCPUs take turns on one host thread: more than
# the host has are allowed (a 4-vCPU arm64 guest on a 2-CPU host)
expect "no kernel labelled 'nope'" -- "$MMB" vm run --kernel nope --cpus $((ncpu + 2)) --clock virtual "$cfg"
expect "--cpus $((ncpu + 2)): this host has $ncpu online CPU$s; a guest on the real clock" -- \
	"$MMB" vm run --kernel nope --cpus $((ncpu + 2)) --clock real "$cfg"
# what the host has passes the checks
expect "no kernel labelled 'nope'" -- "$MMB" vm run --kernel nope --cpus "$ncpu" --mem 64M "$cfg"
expect "no kernel labelled 'nope'" -- "$MMB" vm run --kernel nope --mem "${memk}K" "$cfg"
echo ok
