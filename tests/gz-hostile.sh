#!/bin/sh
# Hostile gzip input through every command that reads recordings: a cut
# .gz, garbage after the magic bytes, garbage after the end, and a gzip
# bomb (a line inflating to 256 MB). Each is one `FILE:LINE: what`
# message and a failure exit, never a crash, with bounded memory. And
# record refuses a .gz output (a killed gzip stream is unreadable).
. "${abs_top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# A read failure that ends the file is trouble (exit 2, touchtape(1)).
# A line too long to hold is one bad line, a finding (exit 1). Messages
# may carry their severity ("FILE:LINE: error: what").
expect_status() {
	want=$1 what=$2 pattern=$3; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	case $got in
	"$want") pass "$what: exit $got" ;;
	*) fail "$what: exit $got, want $want"; head -5 "$tmp/err" >&2 ;;
	esac
	expect_grep "$pattern" "$tmp/err" "$what: message"
}
expect_refused() { expect_status 2 "$@"; }

gzip -c "$samples/3m-two-finger.jsonl" >"$tmp/good.gz"
size=$(wc -c <"$tmp/good.gz")
head -c $((size / 2)) "$tmp/good.gz" >"$tmp/cut.gz"
printf '\037\213not deflate data at all\n' >"$tmp/garbage.gz"
{ cat "$tmp/good.gz"; echo "trailing text"; } >"$tmp/trailing.gz"
# 256 MB of one line after a valid header: some 256 KB compressed.
{ head -1 "$samples/3m-two-finger.jsonl"; head -c 268435456 /dev/zero | tr '\0' x; echo; } |
	gzip -1 >"$tmp/bomb.gz"
[ "$(wc -c <"$tmp/bomb.gz")" -lt 2000000 ] || fail "the bomb is not a bomb"

for cmd in print validate analyze "convert -o $tmp/conv.jsonl"; do
	# shellcheck disable=SC2086
	set -- "$TOUCHTAPE" $cmd
	expect_refused "$cmd: cut .gz" "cut\\.gz:[0-9]+: (error: )?the gzip data is cut short" "$@" "$tmp/cut.gz"
	expect_refused "$cmd: cut .gz on stdin" "<stdin>:[0-9]+: (error: )?the gzip data is cut short" \
		sh -c '"$@" - <"$0"' "$tmp/cut.gz" "$@"
	expect_refused "$cmd: garbage after the magic" "garbage\\.gz:1: (error: )?not valid gzip data" "$@" "$tmp/garbage.gz"
	expect_refused "$cmd: garbage after the end" "trailing\\.gz:491: (error: )?garbage after the end of the gzip data" \
		"$@" "$tmp/trailing.gz"
	# convert refuses a file of which nothing past the header reads.
	bomb=1; [[ $cmd == convert* ]] && bomb=2
	expect_status $bomb "$cmd: gzip bomb" "bomb\\.gz:2: (error: )?line longer than" "$@" "$tmp/bomb.gz"
done
# The evemu and libinput-record readers say the same.
for to in evemu:evemu libinput:yml; do
	"$TOUCHTAPE" convert --to "${to%%:*}" "$samples/3m-two-finger.jsonl" -o "$tmp/x.${to#*:}.gz" 2>/dev/null
	size=$(wc -c <"$tmp/x.${to#*:}.gz")
	head -c $((size / 2)) "$tmp/x.${to#*:}.gz" >"$tmp/cut.${to#*:}.gz"
	expect_refused "${to%%:*}: cut .gz" "cut\\.${to#*:}\\.gz:[0-9]+: (error: )?the gzip data is cut short" \
		"$TOUCHTAPE" validate "$tmp/cut.${to#*:}.gz"
done
# The line of a cut is the line being read: the cut file's last whole
# line is one before it.
"$TOUCHTAPE" print "$tmp/cut.gz" 2>"$tmp/err" >/dev/null
line=$(sed -n 's/.*cut\.gz:\([0-9]*\): the gzip.*/\1/p' "$tmp/err")
whole=$(gzip -dc "$tmp/cut.gz" 2>/dev/null | wc -l)
[ "$line" = "$((whole + 1))" ] && pass "cut .gz: reported at line $line" ||
	fail "cut .gz: reported at line $line, $whole whole lines"

# Memory stays bounded while the bomb inflates.
if command -v /usr/bin/time >/dev/null; then
	/usr/bin/time -f '%M' -o "$tmp/rss" "$TOUCHTAPE" validate "$tmp/bomb.gz" >/dev/null 2>&1
	rss=$(tail -1 "$tmp/rss")
	[ "$rss" -lt 65536 ] && pass "gzip bomb: ${rss} KB resident" || fail "gzip bomb: ${rss} KB resident"
fi

expect_exit 2 "record -o x.jsonl.gz refused" -- "$TOUCHTAPE" record -o "$tmp/x.jsonl.gz" /dev/null
expect_grep "cannot record to a \\.gz file" "$tmp/err" "record .gz: says why"
[ ! -e "$tmp/x.jsonl.gz" ] && pass "record .gz: nothing created" || fail "record .gz: created a file"
finish
