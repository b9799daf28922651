# bash completion for mmbench (make install puts it where bash-completion
# looks; or `source` it).  Every word comes from mmbench itself: commands
# and subcommands from `mmbench __complete`, options from the command's own
# option table (`mmbench CMD --list-options`), labels and run ids from the
# results database (--db FILE, $MMBENCH_DB or ./mmbench.db), workloads from
# the plugin path, formats from the renderer table.
#
# Candidates are data, never code: labels come from other people's
# databases (merge, fleet collect), and `compgen -W` expands $(...) and
# ${...} in its word list.  So no word list goes through compgen -W (nor
# eval): _mmbench_reply matches the prefix in bash and quotes each
# candidate with printf %q before it reaches the command line.

_mmbench_words()	# the candidates of `mmbench __complete WHAT`
{
	"$_mmbench_bin" __complete "$@" ${_mmbench_db:+--db "$_mmbench_db"} 2> /dev/null
}

# COMPREPLY += the lines printed by "$@" that start with $cur (as typed, or
# as quoted), each quoted for the command line
_mmbench_reply()
{
	local w q
	local -a cands
	mapfile -t cands < <("$@")
	for w in "${cands[@]}"; do
		[ -n "$w" ] || continue
		printf -v q '%q' "$w"
		[[ $w == "$cur"* || $q == "$cur"* ]] && COMPREPLY+=("$q")
	done
}

# COMPREPLY += file names starting with $cur (only those matching the glob
# $1 when given) and folders; bash quotes them (-o filenames)
_mmbench_files()
{
	local f
	compopt -o filenames 2> /dev/null
	while IFS= read -r f; do
		if [ -d "$f" ] || [ -z "${1-}" ] || [[ $f == $1 ]]; then
			COMPREPLY+=("$f")
		fi
	done < <(compgen -f -- "$cur")
}

_mmbench_dirs()
{
	local f
	compopt -o filenames 2> /dev/null
	while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -d -- "$cur")
}

_mmbench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd="" sub="" w i with_value=""
	_mmbench_bin=${COMP_WORDS[0]}
	_mmbench_db=""
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--db) _mmbench_db=${COMP_WORDS[i + 1]} ;;
		--db=*) _mmbench_db=${w#--db=} ;;
		esac
	done
	# the command, its subcommand, the options that take a value (skipped)
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == -* ]]; then
			[[ $w != *=* && " $with_value " == *" $w "* ]] && ((i++))
			continue
		fi
		if [ -z "$cmd" ]; then
			cmd=$w
			with_value=$("$_mmbench_bin" "$cmd" --list-options 2> /dev/null |
				awk 'NF > 1 && $2 != "[=" { print $1 }' | tr '\n' ' ')
		elif [ -z "$sub" ]; then
			sub=$w
			case $cmd in kernel|vm|fleet)
				with_value=$("$_mmbench_bin" "$cmd" "$sub" --list-options 2> /dev/null |
					awk 'NF > 1 && $2 != "[=" { print $1 }' | tr '\n' ' ') ;;
			esac
		fi
	done
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			_mmbench_reply printf '%s\n' --version --help --quiet
		else
			_mmbench_reply _mmbench_words commands
		fi
		return
	fi
	# the value of an option
	case $prev in
	--db) _mmbench_files '*.db'; return ;;
	--format) _mmbench_reply _mmbench_words formats; return ;;
	--workload|-w) _mmbench_reply _mmbench_words workloads; return ;;
	--name|--label|--compare|--base-name|--new-name)
		_mmbench_reply _mmbench_words labels; return ;;
	--resume) _mmbench_reply _mmbench_words runs; return ;;
	--out|--tree) _mmbench_dirs; return ;;
	esac
	if [[ " $with_value " == *" $prev "* ]]; then
		_mmbench_files
		return
	fi
	if [[ $cur == -* ]]; then
		local -a words=("$cmd")
		case $cmd in kernel|vm|fleet) [ -n "$sub" ] && words+=("$sub") ;; esac
		_mmbench_reply _mmbench_options "${words[@]}"
		return
	fi
	case $cmd in
	kernel|vm|fleet)
		if [ -z "$sub" ]; then
			_mmbench_reply _mmbench_words subcommands "$cmd"
		elif [ "$cmd $sub" = "vm run" ] || [ "$cmd $sub" = "fleet submit" ]; then
			_mmbench_files '*.yaml'
		fi ;;
	list) [ -z "$sub" ] && _mmbench_reply printf '%s\n' workloads runs kernels ;;
	help) _mmbench_reply _mmbench_words commands ;;
	compare|plot|report) _mmbench_reply _mmbench_words labels ;;
	show|rm) _mmbench_reply _mmbench_words runs ;;
	run|ab) _mmbench_files '*.yaml' ;;
	merge) _mmbench_files '*.db' ;;
	import|reproduce) _mmbench_files ;;
	esac
}

_mmbench_options()	# CMD [SUB]: the first word of each line of its --list-options
{
	"$_mmbench_bin" "$@" --list-options 2> /dev/null | awk '{ print $1 }'
}
complete -F _mmbench mmbench
