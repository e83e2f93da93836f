# Sourced by the t4xxx tests: ev writes one tl-events 1 row.
#   ev UID PH CAT NAME PID TID TS DUR ID CORR EXT STREAM [ARGS [SRC]]
# "-" stands for an empty field; ARGS defaults to {}.
ev_header() {
	printf '#tl-events 1\n'
	printf 'uid\tsrc\tph\tcat\tname\tpid\ttid\tts\tdur\tid\tcorr\text\tseq\tstream\tdevice\tdims\ttypes\tstrides\tconcrete\targs\textra\n'
}
ev() {
	_a=${13:-'{}'} _s=${14:-0}
	set -- "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}" "${12}"
	for _v; do
		[ "$_v" = - ] && _v=
		set -- "$@" "$_v"
		shift
	done
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\t%s\t\t\t\t\t\t%s\t\n' \
		"$1" "$_s" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}" "${12}" "$_a"
}
