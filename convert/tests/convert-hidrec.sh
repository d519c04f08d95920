#!/bin/sh
# hid-recorder files of the corpus (tests/corpus, or $TT_CORPUS): each reads
# with no error, holds the descriptor and reports its R: and E: lines
# give, and goes timeline -> hid-recorder -> timeline unchanged
# (descriptors, reports, times to the microsecond). A recording without
# the layer a format holds is refused (exit 2, no output).
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

# The R: and E: lines of a hid-recorder file as "R hex" and "E hex".
raw_lines() {
	sed -n 's/^R: [0-9]* //p; s/^E: [0-9.]* [0-9]* //p' "$1" | tr -d ' '
}

# The same bytes from a timeline's hid_device and hid records.
timeline_bytes() {
	sed -n 's/.*"descriptor":"\([0-9a-f]*\)".*/\1/p; s/.*"type":"hid",.*"data":"\([0-9a-f]*\)".*/\1/p' "$1"
}

# A timeline without its header (the converter's tool name differs).
body() { grep -v '^{"format"' "$1"; }

corpus=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}
n=0
if [ -n "$corpus" ] && [ -d "$corpus/hid-recorder" ]; then
	for f in "$corpus"/hid-recorder/*; do
		[ "${f##*/}" = SOURCES.tsv ] && continue
		rel=${f#"$corpus"/}
		n=$((n + 1))
		# (validate's semantic rules may find what the recording was
		# made to show, such as contacts that vanish without a tip up:
		# reading is what is checked here, and convert exits 1 on any
		# line it cannot read.)
		expect_exit 0 "$rel: to a timeline, read with 0 errors" -- "$TOUCHTAPE" convert "$f" -o "$tmp/a.jsonl"
		grep -q 'error' "$tmp/err" && fail "$rel: messages while reading" || pass "$rel: no message"
		"$TOUCHTAPE" validate --max 0 "$f" >"$tmp/out" 2>"$tmp/err"
		grep -qE '\[(bad-line|reader-warning)\]' "$tmp/err" && fail "$rel: validate cannot read lines" ||
			pass "$rel: validate reads every line"
		raw_lines "$f" >"$tmp/want"
		timeline_bytes "$tmp/a.jsonl" >"$tmp/got"
		[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" && pass "$rel: every R: and E: byte" ||
			fail "$rel: the timeline's bytes differ from the file's R: and E: lines"
		expect_exit 0 "$rel: to hid-recorder" -- \
			"$TOUCHTAPE" convert --format hid-recorder "$tmp/a.jsonl" -o "$tmp/b.hid"
		expect_exit 0 "$rel: back to a timeline" -- "$TOUCHTAPE" convert "$tmp/b.hid" -o "$tmp/c.jsonl"
		body "$tmp/a.jsonl" >"$tmp/a.body"
		body "$tmp/c.jsonl" >"$tmp/c.body"
		cmp -s "$tmp/a.body" "$tmp/c.body" && pass "$rel: round trip" ||
			{ fail "$rel: round trip differs"; diff "$tmp/a.body" "$tmp/c.body" | head -5 >&2; }
	done
	# Files: 9 in the whole public corpus, 7 in tests/corpus (the pens and
	# the project's own five, tests/corpus/make-hid.py).
	want=7; [ -n "${TT_CORPUS:-}" ] && want=9
	[ "$n" -ge "$want" ] || fail "only $n hid-recorder files in the corpus"

	# HID only to evemu/libinput: no evdev layer to write. The real ELAN
	# touchpad (with $TT_CORPUS) and the project's own (tests/corpus).
	hid_only() { # FILE REPORTS
		for to in evemu libinput; do
			expect_exit 2 "${1##*/}: HID only to $to" -- "$TOUCHTAPE" convert --format $to "$1" -o "$tmp/x.$to"
			expect_grep "holds only the HID layer \\(1 HID device, $2 reports\\), no evdev layer" "$tmp/err" \
				"${1##*/}: HID only to $to: says why"
			[ ! -e "$tmp/x.$to" ] && pass "${1##*/}: HID only to $to: no output" ||
				fail "${1##*/}: HID only to $to: output written"
		done
	}
	f="$corpus/hid-recorder/elan1206-04f3-30f1-touchpad.hid"
	corpus_lacks "$f" || hid_only "$f" 25
	f="$abs_top_srcdir/tests/corpus/hid-recorder/touchtape-touchpad.hid"
	hid_only "$f" "$(grep -c '^E:' "$f")"
else
	fail "no corpus at $corpus"
fi

# evdev only to hid-recorder: no HID layer to write.
s="$samples/touchpad-two-finger-swipe.jsonl"
expect_exit 2 "evdev only to hid-recorder" -- "$TOUCHTAPE" convert --format hid-recorder "$s" -o "$tmp/y.hid"
expect_grep 'has no HID layer \(no hid_device record\) to write as hid-recorder' "$tmp/err" \
	"evdev only to hid-recorder: says why"
[ ! -e "$tmp/y.hid" ] && pass "evdev only: no output" || fail "evdev only: output written"
# The old spelling of --format.
printf 'R: 1 05\nN: x\nE: 000001.000000 1 01\n' >"$tmp/one.hid"
expect_exit 0 "--to hid-recorder" -- "$TOUCHTAPE" convert "$tmp/one.hid" -o "$tmp/one.jsonl"
expect_exit 0 "--to hid-recorder" -- "$TOUCHTAPE" convert --to hid-recorder "$tmp/one.jsonl" -o "$tmp/one2.hid"
# Nothing invented (no I: line the file lacked) and the clock kept.
printf '# x\nR: 1 05\nN: x\nE: 000001.000000 1 01\n' >"$tmp/one.want"
cmp -s "$tmp/one.want" "$tmp/one2.hid" && pass "hid-recorder's current format" ||
	{ fail "hid-recorder's current format"; diff "$tmp/one.want" "$tmp/one2.hid" >&2; }
finish
