#!/bin/sh
# `make run`: quick suite on the running kernel into ./mmbench.db, then the
# comparison with the kernel measured before this one, when there is one.
set -u
MMB=${1:-build}/mmbench
label=$(uname -r)
"$MMB" run configs/quick.yaml --name "$label"
rc=$?
prev=$(sqlite3 -batch -noheader mmbench.db \
	"SELECT k.label FROM kernels k JOIN runs r ON r.kernel_id = k.id
	 WHERE k.label != '$(printf '%s' "$label" | sed "s/'/''/g")' AND r.status IN ('complete', 'interrupted')
	 ORDER BY r.id DESC LIMIT 1" 2>/dev/null)
if [ -n "$prev" ]; then
	echo
	echo "comparison with the previous kernel in mmbench.db ($prev):"
	"$MMB" compare "$prev" "$label"
else
	echo
	echo "mmbench.db holds one kernel so far.  Boot another kernel and run"
	echo "\`make run\` again to see the comparison, or compare any two labels with"
	echo "  $MMB compare BASE NEW"
fi
exit $rc
