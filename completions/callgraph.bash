# bash completion for callgraph(1): options, their arguments, and trace files
# (.trace, .trace.gz, .key, .data) for TRACE and -d BASE.
_callgraph()
{
	local cur prev f
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	case $prev in
	-g|--html|--json|--folded|--pprof|--speedscope|--chrome-trace|--callgrind)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-T)
		COMPREPLY=($(compgen -W "png svg pdf dot gv ps jpg json" -- "$cur"))
		return ;;
	--clock)
		COMPREPLY=($(compgen -W "wall cpu" -- "$cur"))
		return ;;
	-t|-j|--jobs|--max-nodes|--node-fraction|--edge-fraction|--thread|--focus|--hide|--fail-if-slower)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "-g -T -k -t -h --html -o -d --json --folded --clock
			--thread --max-nodes --node-fraction --edge-fraction --no-fold
			--no-merge-threads
			--focus --hide --short-names --slash-names --pprof
			--speedscope --chrome-trace --callgrind --normalise --fail-if-slower
			-j --jobs -q --quiet --help --version" \
			-- "$cur"))
		return
	fi
	while IFS= read -r f; do
		case $f in
		*.trace|*.trace.gz|*.key|*.data) COMPREPLY+=("$f") ;;
		*) [[ -d $f ]] && COMPREPLY+=("$f/") ;;
		esac
	done < <(compgen -f -- "$cur")
}
complete -o nospace -F _callgraph callgraph
