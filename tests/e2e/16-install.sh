#!/bin/bash
# make install PREFIX=...: the installed binary finds its plugins, configs,
# docs and man pages without the build tree.
. "$(dirname "$0")/../e2e-lib.sh"
cd "$(dirname "$0")/../.."
make --no-print-directory -s install BUILD="$MMBENCH_BUILD" PREFIX="$TMP/p" > "$TMP/log" 2>&1 || { cat "$TMP/log"; die "make install failed"; }
for f in bin/mmbench lib/mmbench/pft.so lib/mmbench/skeleton.so share/mmbench/configs/quick.yaml \
	share/doc/mmbench/README.md share/doc/mmbench/writing-workloads.md; do
	[ -e "$TMP/p/$f" ] || die "not installed: $f"
done
ls "$TMP/p/share/man/man1/"mmbench*.1 > /dev/null 2>&1 || die "no man pages installed"
[ -f "$TMP/p/share/bash-completion/completions/mmbench" ] || die "no bash completion installed"
[ -f "$TMP/p/share/zsh/site-functions/_mmbench" ] || die "no zsh completion installed"
unset MMBENCH_PLUGIN_PATH
cd "$TMP"
"$TMP/p/bin/mmbench" list workloads | grep -q '^pft ' || die "installed mmbench does not find pft"
cat > s.yaml <<EOC
experiment: installed
iterations: 2
warmup: 0
workloads:
  - name: skeleton
EOC
"$TMP/p/bin/mmbench" run s.yaml -q > /dev/null || die "installed mmbench cannot run"
[ "$(q "SELECT count(*) FROM samples WHERE workload = 'skeleton'")" -gt 0 ] || die "no samples"
"$TMP/p/bin/mmbench" --version | grep -q '^mmbench ' || die "--version"
