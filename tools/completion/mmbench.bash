# bash completion for mmbench (make install puts it where bash-completion
# looks; or `source` it).  Every word comes from mmbench itself: commands
# and subcommands from `mmbench __complete`, options from the command's own
# option table (`mmbench CMD --list-options`), labels and run ids from the
# results database (--db FILE, $MMBENCH_DB or ./mmbench.db), workloads from
# the plugin path, formats from the renderer table.

_mmbench_words()	# the candidates of `mmbench __complete WHAT`
{
	"$_mmbench_bin" __complete "$@" ${_mmbench_db:+--db "$_mmbench_db"} 2> /dev/null
}

_mmbench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd="" sub="" w i opts="" with_value=""
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
			COMPREPLY=($(compgen -W "--version --help --quiet" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_mmbench_words commands)" -- "$cur"))
		fi
		return
	fi
	# the value of an option
	case $prev in
	--db) COMPREPLY=($(compgen -f -X '!*.db' -- "$cur") $(compgen -d -- "$cur")); return ;;
	--format) COMPREPLY=($(compgen -W "$(_mmbench_words formats)" -- "$cur")); return ;;
	--workload|-w) COMPREPLY=($(compgen -W "$(_mmbench_words workloads)" -- "$cur")); return ;;
	--name|--label|--compare|--base-name|--new-name)
		COMPREPLY=($(compgen -W "$(_mmbench_words labels)" -- "$cur")); return ;;
	--resume) COMPREPLY=($(compgen -W "$(_mmbench_words runs)" -- "$cur")); return ;;
	--out|--tree) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	esac
	if [[ " $with_value " == *" $prev "* ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		local words=$cmd
		case $cmd in kernel|vm|fleet) [ -n "$sub" ] && words="$cmd $sub" ;; esac
		opts=$("$_mmbench_bin" $words --list-options 2> /dev/null | awk '{ print $1 }')
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $cmd in
	kernel|vm|fleet)
		if [ -z "$sub" ]; then
			COMPREPLY=($(compgen -W "$(_mmbench_words subcommands "$cmd")" -- "$cur"))
		elif [ "$cmd $sub" = "vm run" ] || [ "$cmd $sub" = "fleet submit" ]; then
			COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -d -- "$cur"))
		fi ;;
	list) [ -z "$sub" ] && COMPREPLY=($(compgen -W "workloads runs kernels" -- "$cur")) ;;
	help) COMPREPLY=($(compgen -W "$(_mmbench_words commands)" -- "$cur")) ;;
	compare|plot|report) COMPREPLY=($(compgen -W "$(_mmbench_words labels)" -- "$cur")) ;;
	show|rm) COMPREPLY=($(compgen -W "$(_mmbench_words runs)" -- "$cur")) ;;
	run|ab) COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -d -- "$cur")) ;;
	merge) COMPREPLY=($(compgen -f -X '!*.db' -- "$cur") $(compgen -d -- "$cur")) ;;
	import|reproduce) COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _mmbench mmbench
