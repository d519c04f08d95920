#!/bin/bash
# The bash completion (completion/touchtape), sourced into bash: commands,
# each command's options as its --help lists them, option values that are
# files, device nodes for DEVICE arguments and files for FILE arguments;
# and `make install DESTDIR=...` puts it where bash-completion looks.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

# shellcheck source=../completion/touchtape
. "$abs_top_srcdir/completion/touchtape"
mkdir -p "$tmp/bin" "$tmp/input" "$tmp/files"
ln -s "$TOUCHTAPE" "$tmp/bin/touchtape"
PATH=$tmp/bin:$PATH
touch "$tmp/input/event3" "$tmp/input/event12" "$tmp/input/mouse0" \
	"$tmp/files/bug.jsonl" "$tmp/files/bug.evemu"
_touchtape_devdir=$tmp/input

# completions LINE: what TAB offers at the end of LINE, sorted, one a line.
completions() {
	COMP_LINE=$1
	read -ra COMP_WORDS <<<"$1"
	[[ $1 == *' ' ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_touchtape 2>/dev/null
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
# expect LINE WANTED...: TAB after LINE offers exactly WANTED.
expect() {
	local line=$1 got want
	shift
	got=$(completions "$line" | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then pass "'$line<TAB>'"; else
		fail "'$line<TAB>' offers '$got', want '$want'"; fi
}

if complete -p touchtape 2>/dev/null | grep -q -- '-F _touchtape'; then
	pass "complete -F _touchtape touchtape"; else fail "the completion is not registered for touchtape"; fi

# Commands: every one 'touchtape --help' lists, and help.
cmds=$("$TOUCHTAPE" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ "$(echo "$cmds" | wc -l)" -ge 9 ] || fail "touchtape --help lists only: $cmds"
# shellcheck disable=SC2086
expect "touchtape " $cmds help
expect "touchtape re" record regress replay
expect "touchtape --" --help --version
expect "touchtape help va" validate

# Options: exactly the long options of 'touchtape analyze --help'.
# shellcheck disable=SC2207
analyze_opts=($("$TOUCHTAPE" analyze --help | grep -oE '^ {2,8}(-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+'))
[ "${#analyze_opts[@]}" -ge 8 ] || fail "analyze --help has only ${#analyze_opts[@]} options"
expect "touchtape analyze --" "${analyze_opts[@]}"
expect "touchtape analyze --pl" --plot
expect "touchtape analyze -j --no-l" --no-link
expect "touchtape record --xi-g" --xi-grab=
expect "touchtape list --x" --xi --xi=
expect "touchtape validate --st" --strict

# Values: files for FILE-like values, nothing for numbers and times.
expect "touchtape analyze --plot $tmp/files/bug." "$tmp/files/bug.evemu" "$tmp/files/bug.jsonl"
expect "touchtape convert -o $tmp/files/bug.e" "$tmp/files/bug.evemu"
expect "touchtape replay --report $tmp/files/bug.j" "$tmp/files/bug.jsonl"
expect "touchtape replay --speed "
expect "touchtape diff -T "

# Arguments: files for FILE, device nodes (and eventN) for DEVICE.
expect "touchtape replay $tmp/files/" "$tmp/files/bug.evemu" "$tmp/files/bug.jsonl"
expect "touchtape replay --dry-run $tmp/files/bug.e" "$tmp/files/bug.evemu"
expect "touchtape validate $tmp/files/bug.jsonl $tmp/files/bug.e" "$tmp/files/bug.evemu"
expect "touchtape record " "$tmp/input/event12" "$tmp/input/event3" event12 event3
expect "touchtape record --grab ev" event12 event3
expect "touchtape record $tmp/input/" "$tmp/input/event12" "$tmp/input/event3" "$tmp/input/mouse0"
expect "touchtape record -o $tmp/files/bug.j" "$tmp/files/bug.jsonl"

# make install puts it where bash-completion loads it on demand.
if [ -f "$abs_top_builddir/Makefile" ]; then
	${MAKE:-make} -s -C "$abs_top_builddir" install-data DESTDIR="$tmp/dest" >"$tmp/install.log" 2>&1 ||
		{ fail "make install-data failed"; sed 's/^/  | /' "$tmp/install.log" | tail -5 >&2; }
	installed=$(find "$tmp/dest" -path '*/bash-completion/completions/touchtape')
	if [ -n "$installed" ] && cmp -s "$installed" "$abs_top_srcdir/completion/touchtape"; then
		pass "make install: ${installed#"$tmp/dest"}"; else
		fail "make install DESTDIR=... did not install bash-completion/completions/touchtape"; fi
	for page in "$abs_top_srcdir"/man/*.[1-8]; do
		[ -n "$(find "$tmp/dest" -name "$(basename "$page")")" ] ||
			fail "make install did not install $(basename "$page")"
	done
fi
finish
