#!/bin/bash
# Issue 27 items 13-15 and 17: outputs that failed said they worked, and a
# cut input imported.  stdout into /dev/full, a PNG cut short under
# gnuplot (a full disk; gnuplot exits 0), a CSV cut mid-line.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$TMP"
printf 'workload,metric,variant,iteration,value\nw,m,,1,1\nw,m,,2,2\nw,m,,3,3\n' > a.csv
"$MMB" import --name base a.csv > /dev/null
"$MMB" import --name new a.csv > /dev/null

# item 15: stdout is checked at exit (it exited 0)
for cmd in "list runs" "show 1" "compare base new"; do
	rc=0
	# shellcheck disable=SC2086
	"$MMB" $cmd > /dev/full 2> err || rc=$?
	[ $rc = 1 ] || die "$cmd > /dev/full: exit $rc"
	grep -qF "write error on standard output" err || die "$cmd > /dev/full: $(cat err)"
done
"$MMB" list runs | head -c 1 > /dev/null || die "a reader that goes away is no error"

# item 17: a CSV cut mid-line (no newline at the end) is refused
printf 'workload,metric,variant,iteration,value\nw,m,,1,12345\nw,m,,2,12' > cut.csv
rc=0
"$MMB" import --name cut cut.csv > /dev/null 2> err || rc=$?
[ $rc = 2 ] || die "a cut CSV: exit $rc"
grep -qF "cut.csv:3: the file does not end with a newline" err || die "cut CSV: $(cat err)"
[ "$(q "SELECT count(*) FROM kernels WHERE label = 'cut'")" = 0 ] || die "a cut CSV was imported"

# item 14: a picture cut short (gnuplot exits 0 on a full disk) is no plot
if command -v gnuplot > /dev/null; then
	real=$(command -v gnuplot)
	cat > fakegp <<EOS
#!/bin/bash
# the real gnuplot, then every picture it wrote cut to half, as a full disk does
"$real" "\$@"
rc=\$?
for f in .*.tmp*; do
	case \$f in *.dat.tmp*|*.gp.tmp*) continue ;; esac
	[ -f "\$f" ] && truncate -s \$(( \$(stat -c %s "\$f") / 2 )) "\$f"
done
exit \$rc
EOS
	chmod +x fakegp
	rc=0
	MMBENCH_GNUPLOT=$TMP/fakegp "$MMB" plot --out plots base new > out 2> err || rc=$?
	[ $rc != 0 ] || die "plot of cut pictures: exit 0: $(cat err)"
	grep -q "wrote" err && die "plot said it wrote: $(cat err)"
	grep -qF "no whole picture written" err || die "no reason: $(cat err)"
	MMBENCH_GNUPLOT=$real "$MMB" plot --out plots2 base new > /dev/null 2>&1 || die "plot failed"
fi
echo ok
