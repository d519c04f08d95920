#!/bin/sh
# No wrong file with exit 0 (issue 34, points 7, 8, 9, 12): a --from past
# the end, a --device the file lacks, an input without a device or one
# refused, and options that cannot all be honoured exit 2 with nothing
# on standard output and no file.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

T=$TOUCHTAPE
src="$samples/3m-two-finger.jsonl"
cd "$tmp" || exit 1

# nothing_out WHAT: the last command wrote nothing on standard output.
nothing_out() {
	[ ! -s "$tmp/out" ] && pass "$1: nothing on stdout" || {
		fail "$1: stdout has $(wc -l <"$tmp/out") lines"; head -3 "$tmp/out" | sed 's/^/  | /' >&2; }
}
# no_file FILE WHAT
no_file() {
	[ ! -e "$1" ] && pass "$2: no $1" || fail "$2: $1 written ($(wc -l <"$1") lines)"
}

# 7. --from past the end: exit 2 in every command, nothing written.
for cmd in print convert validate analyze; do
	expect_exit 2 "$cmd --from past the end" -- "$T" $cmd --from 100s "$src"
	nothing_out "$cmd --from past the end"
	expect_grep "touchtape $cmd: --from 100.000000 s is past the end" "$tmp/err" "$cmd says why"
done
expect_exit 2 "convert -o --from past the end" -- "$T" convert --from 100s "$src" -o late.jsonl
no_file late.jsonl "convert -o --from past the end"
# A --from within the recording still works, on stdout too.
expect_exit 0 "print --from within" -- "$T" print --from 0.5s "$src"
expect_grep '^0\.[5-9][0-9]* dev0' "$tmp/out" "print --from within prints frames"

# 9. --device the file lacks: nothing on stdout before the error.
for cmd in print convert; do
	expect_exit 2 "$cmd --device 99" -- "$T" $cmd --device 99 "$src"
	nothing_out "$cmd --device 99"
	expect_grep "touchtape $cmd: .*there is no device 99" "$tmp/err" "$cmd --device 99 says why"
done
expect_exit 2 "convert --device 99 from stdin" -- sh -c "\"$T\" convert --device 99 - <\"$src\""
nothing_out "convert --device 99 from stdin"
expect_exit 2 "convert -F evemu --device 99" -- "$T" convert -F evemu --device 99 "$src"
nothing_out "convert -F evemu --device 99"

# 8. No device to write as evemu or libinput-record: refused, no file.
head -1 "$src" >nodev.jsonl
for f in evemu libinput; do
	expect_exit 2 "convert -F $f of a file without devices" -- "$T" convert -F $f nodev.jsonl -o nodev.$f
	no_file nodev.$f "convert -F $f without devices"
	expect_grep "touchtape convert: nodev\.jsonl has no device" "$tmp/err" "-F $f says there is no device"
	expect_exit 2 "convert -F $f to stdout without devices" -- "$T" convert -F $f nodev.jsonl
	nothing_out "convert -F $f to stdout without devices"
done
# A refused input (libinput record YAML indented with a tab) leaves no
# header-only output, in any format.
printf '# libinput record\nversion: 1\nndevices: 1\nlibinput:\n  version: "1.23.0"\ndevices:\n- node: /dev/input/event1\n\tevdev:\n' >tabs.yml
for f in timeline evemu libinput; do
	expect_exit 2 "convert -F $f of a refused input" -- "$T" convert -F $f tabs.yml -o tabs.$f
	no_file tabs.$f "convert -F $f of a refused input"
	expect_grep 'tabs\.yml:8: not valid YAML' "$tmp/err" "-F $f names the bad line"
done

# 12. Options that cannot all be honoured: refused before any work.
expect_exit 2 "analyze --json --plot -" -- "$T" analyze --json --plot - "$src"
nothing_out "analyze --json --plot -"
expect_grep 'touchtape analyze: --plot' "$tmp/err" "analyze --plot - says why"
expect_exit 2 "analyze --plot -" -- "$T" analyze --plot - "$src"
nothing_out "analyze --plot -"
expect_exit 2 "convert -F evemu -F libinput" -- "$T" convert -F evemu -F libinput "$src" -o two.out
no_file two.out "convert with two formats"
expect_grep 'touchtape convert: --format' "$tmp/err" "two formats: says why"
expect_exit 2 "convert --to evemu -F libinput" -- "$T" convert --to evemu -F libinput "$src" -o two.out
expect_exit 0 "convert -F evemu -F evemu (the same twice)" -- "$T" convert -F evemu -F evemu "$src" -o same.evemu

finish
