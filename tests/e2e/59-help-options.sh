#!/bin/bash
# The option tables are the truth: every option a command's parse-options
# table holds (its hidden --list-options) is documented in docs/help/CMD.txt
# and in the man page made from it, in the SYNOPSIS and as an entry of an
# OPTIONS section, under each of its names (--quiet and -q); and nothing is
# documented there that the table does not have.
#
# A SYNOPSIS form is "mmbench WORD..." (the command and its subcommands, in
# lower case) and the table asked for is `mmbench WORD... --list-options`.
# Forms whose tables are the same (list workloads, list runs) share one
# synopsis; a form may say "[VM options]" instead of naming them, but then
# the OPTIONS section still names every one.  An OPTIONS entry is a line
# that starts with an option; its names are the words before the first
# column gap ("--jobs N, -j N    parallel ...").
. "$(dirname "$0")/../e2e-lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)

# The page as plain text: "#SECTION" heading lines, the body without its
# indent.  help text: headings in capitals at column 0, body at column 4.
text_of_help() {
	sed -e 's/^\([A-Z][A-Z ]*\)$/#\1/' -e 's/^    //' "$1"
}
# roff made by tools/gen-man.sh: .SH headings, \- for -, .PP/.nf/.fi requests
text_of_man() {
	sed -e 's/^\.SH \(.*\)$/#\1/' -e '/^\.[A-Za-z\\]/d' \
	    -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\e/\\/g' "$1"
}
section() {	# section TEXT NAME-REGEX: the body of the matching sections
	awk -v want="^#($2)\$" '/^#/ { p = ($0 ~ want); next } p' "$1"
}
# option names in text: --long and -s, standing alone or inside [ ] | ,
option_words() {
	grep -oE '(^|[][ |,])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed -E 's/^[][ |,]//' || true
}
# the names of every OPTIONS entry
entry_names() {
	section "$1" '([A-Z]+ )?OPTIONS' | grep -E '^--?[A-Za-z0-9]' |
		sed -E 's/  .*//' | option_words
}

fails=0
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

check_page() {	# check_page TEXT WHAT CMD
	local text=$1 what=$2 cmd=$3
	local syn=$TMP/syn entries=$TMP/entries forms=$TMP/forms
	section "$text" SYNOPSIS > "$syn"
	[ -s "$syn" ] || { bad "$what: no SYNOPSIS"; return; }
	entry_names "$text" | sort -u > "$entries"

	# split the synopsis into forms: one per line starting "mmbench "
	rm -rf "$forms" && mkdir "$forms"
	awk -v dir="$forms" '
		/^mmbench( |$)/ { n++ }
		n { print > (dir "/" n) }' "$syn"
	: > "$TMP/all-table"
	local f words table key
	for f in "$forms"/*; do
		[ -f "$f" ] || { bad "$what: no 'mmbench ...' line in SYNOPSIS"; return; }
		# the command words: lower-case words after "mmbench", up to the first other
		words=$(head -n 1 "$f" | awk '{ for (i = 2; i <= NF && $i ~ /^[a-z][a-z0-9-]*$/; i++) printf " %s", $i }')
		# shellcheck disable=SC2086 # the words are the argv
		table=$("$MMB" $words --list-options) ||
			{ bad "$what: mmbench$words --list-options failed"; continue; }
		printf '%s\n' "$table" | awk 'NF { print $1 }' >> "$TMP/all-table"
		key=$(printf '%s' "$table" | md5sum | cut -c1-16)
		printf '%s\n' "$table" | awk 'NF { print $1 }' > "$TMP/table.$key"
		cat "$f" >> "$TMP/syn.$key"
		echo "mmbench$words" >> "$TMP/who.$key"
	done
	for t in "$TMP"/table.*; do
		[ -f "$t" ] || continue
		key=${t##*.}
		local placeholder=
		grep -qE '\[[^]]*options[^]]*\]' "$TMP/syn.$key" && placeholder=1
		option_words < "$TMP/syn.$key" | sort -u > "$TMP/synwords"
		sort -u "$t" > "$TMP/tab"
		who=$(paste -sd/ "$TMP/who.$key")
		for opt in $(comm -23 "$TMP/tab" "$entries"); do
			bad "$what: $opt ($who) is in the option table but not an OPTIONS entry"
		done
		[ -n "$placeholder" ] || for opt in $(comm -23 "$TMP/tab" "$TMP/synwords"); do
			bad "$what: $opt ($who) is in the option table but not in the SYNOPSIS"
		done
		rm -f "$t" "$TMP/syn.$key" "$TMP/who.$key"
	done
	# the other way: nothing documented that no table has (--help is every command's)
	sort -u "$TMP/all-table" > "$TMP/known"
	printf '%s\n' --help -h >> "$TMP/known"
	sort -u -o "$TMP/known" "$TMP/known"
	cat "$entries" "$syn" | option_words | sort -u > "$TMP/documented"
	for opt in $(comm -23 "$TMP/documented" "$TMP/known"); do
		bad "$what: $opt is documented but no option table of '$cmd' has it"
	done
}

n=0
for txt in "$SRC"/docs/help/*.txt; do
	cmd=$(basename "$txt" .txt)
	page=$SRC/docs/man/mmbench-$cmd.1
	[ "$cmd" = mmbench ] && page=$SRC/docs/man/mmbench.1
	text_of_help "$txt" > "$TMP/help.text"
	check_page "$TMP/help.text" "docs/help/$cmd.txt" "$cmd"
	if [ -f "$page" ]; then
		text_of_man "$page" > "$TMP/man.text"
		check_page "$TMP/man.text" "docs/man/$(basename "$page")" "$cmd"
	else
		bad "docs/man/$(basename "$page") missing (make runs tools/gen-man.sh)"
	fi
	n=$((n + 1))
done
[ "$n" -ge 15 ] || die "only $n help texts found in $SRC/docs/help"
# the check sees drift: a table option the text leaves out is named
sed '/--no-guard/d' "$SRC/docs/help/compare.txt" > "$TMP/drift.txt"
text_of_help "$TMP/drift.txt" > "$TMP/drift.text"
saved=$fails
check_page "$TMP/drift.text" "drift" compare 2> "$TMP/drift.err"
[ "$fails" -gt "$saved" ] && grep -q -- '--no-guard' "$TMP/drift.err" ||
	die "the check missed --no-guard left out of compare.txt"
fails=$saved
[ "$fails" -eq 0 ] || die "$fails option(s) differ between the tables and the docs"
echo ok
