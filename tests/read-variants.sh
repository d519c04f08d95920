#!/bin/sh
# Every reader (timeline, evemu, libinput-record) reads a file with a UTF-8
# byte order mark and CRLF line ends, and the same file gzip-compressed
# (from a path and through a pipe), exactly as the original: `print`
# output and messages (with their line numbers) compared. convert writes
# .gz for names ending in .gz, and the result reads back the same.
. "${abs_top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"

# Messages name the file; compare them with the name taken out.
run_print() {
	"$TOUCHTAPE" print "$1" >"$2.out" 2>"$2.err"
	echo "exit $?" >>"$2.out"
	sed "s|$1|FILE|g; s|<stdin>|FILE|g" "$2.err" >"$2.msg"
}

same_as() {
	what=$1 orig=$2 variant=$3
	if cmp -s "$orig.out" "$variant.out" && cmp -s "$orig.msg" "$variant.msg"; then
		pass "$what"
	else
		fail "$what: print differs from the original"
		diff "$orig.out" "$variant.out" | head -5 >&2
		diff "$orig.msg" "$variant.msg" | head -5 >&2
	fi
}

check_variants() {
	name=$1 file=$2
	run_print "$file" "$tmp/orig"
	[ "$(wc -l <"$tmp/orig.out")" -gt 20 ] || fail "$name: the original printed almost nothing"
	{ printf '\357\273\277'; sed 's/$/\r/' "$file"; } >"$tmp/bom"
	run_print "$tmp/bom" "$tmp/v"
	same_as "$name: BOM and CRLF" "$tmp/orig" "$tmp/v"
	gzip -c "$file" >"$tmp/z.gz"
	run_print "$tmp/z.gz" "$tmp/v"
	same_as "$name: gzip" "$tmp/orig" "$tmp/v"
	# The name does not matter, the content does.
	cp "$tmp/z.gz" "$tmp/z.txt"
	run_print "$tmp/z.txt" "$tmp/v"
	same_as "$name: gzip named .txt" "$tmp/orig" "$tmp/v"
	gzip -c "$tmp/bom" >"$tmp/bom.gz"
	"$TOUCHTAPE" print - <"$tmp/bom.gz" >"$tmp/v.out" 2>"$tmp/v.err"
	echo "exit $?" >>"$tmp/v.out"
	sed 's|<stdin>|FILE|g' "$tmp/v.err" >"$tmp/v.msg"
	same_as "$name: gzip of BOM+CRLF through a pipe" "$tmp/orig" "$tmp/v"
}

"$TOUCHTAPE" convert --to evemu "$samples/3m-two-finger.jsonl" -o "$tmp/3m.evemu" 2>/dev/null
"$TOUCHTAPE" convert --to libinput "$samples/touchpad-two-finger-swipe.jsonl" -o "$tmp/tp.yml" 2>/dev/null
# A cut last line and a bad line: the messages must keep their lines.
{ cat "$samples/ntrig-type-a.jsonl"; echo '{"type":"frame","dev":0,"t":"x"}'; printf '{"type":"fra'; } >"$tmp/bad.jsonl"

check_variants "timeline" "$samples/3m-two-finger.jsonl"
check_variants "timeline with errors" "$tmp/bad.jsonl"
check_variants "evemu" "$tmp/3m.evemu"
check_variants "libinput-record" "$tmp/tp.yml"
if [ -n "$corpus" ] && [ -d "$corpus/evemu" ]; then
	check_variants "evemu 1.x from the corpus" "$corpus/evemu/evemu__data_3m.event"
fi

# An evemu file without a description is read twice (to infer the
# device): a .gz file too.
grep '^E:' "$tmp/3m.evemu" >"$tmp/events"
run_print "$tmp/events" "$tmp/orig"
gzip -c "$tmp/events" >"$tmp/events.gz"
run_print "$tmp/events.gz" "$tmp/v"
same_as "evemu events only, gzip (read twice)" "$tmp/orig" "$tmp/v"

# convert writes gzip when the name ends in .gz, in every format, and
# reading it back gives what the plain output gives.
for to in timeline:jsonl evemu:evemu libinput:yml; do
	fmt=${to%%:*} ext=${to#*:}
	"$TOUCHTAPE" convert --to "$fmt" "$samples/3m-two-finger.jsonl" -o "$tmp/c.$ext" 2>/dev/null
	expect_exit 0 "convert --to $fmt -o .$ext.gz" -- \
		"$TOUCHTAPE" convert --to "$fmt" "$samples/3m-two-finger.jsonl" -o "$tmp/c.$ext.gz"
	if gzip -t "$tmp/c.$ext.gz" && gzip -dc "$tmp/c.$ext.gz" | cmp -s - "$tmp/c.$ext"; then
		pass "$fmt: .gz holds the plain output"
	else
		fail "$fmt: .gz is not the plain output compressed"
	fi
	[ "$(wc -c <"$tmp/c.$ext.gz")" -lt "$(($(wc -c <"$tmp/c.$ext") / 4))" ] &&
		pass "$fmt: compressed" || fail "$fmt: .gz is not much smaller"
	run_print "$tmp/c.$ext" "$tmp/orig"
	run_print "$tmp/c.$ext.gz" "$tmp/v"
	same_as "$fmt: round trip through .gz" "$tmp/orig" "$tmp/v"
done
# And back: a .gz input converted to a .gz output.
"$TOUCHTAPE" convert "$tmp/c.evemu.gz" -o "$tmp/back.jsonl.gz" 2>/dev/null
"$TOUCHTAPE" convert "$tmp/c.evemu" -o "$tmp/back.jsonl" 2>/dev/null
gzip -dc "$tmp/back.jsonl.gz" | cmp -s - "$tmp/back.jsonl" &&
	pass "evemu.gz to jsonl.gz" || fail "evemu.gz to jsonl.gz differs from the plain conversion"
finish
