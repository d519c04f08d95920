#!/bin/sh
# hid-recorder files that are wrong, and files as mail and trackers
# deliver them: each fault is named at its FILE:LINE by every command
# that reads files (errors in a file are findings: exit 1), and what is
# right in the file is still read.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

# hostile NAME CONTENT LINE MESSAGE: validate and print exit 1 and give
# "NAME:LINE: MESSAGE" (validate adds "error: "); convert keeps the rest.
hostile() {
	local name=$1 content=$2 line=$3 message=$4 f="$tmp/$1.hid"
	printf '%b' "$content" >"$f"
	expect_exit 1 "$name: validate" -- "$TOUCHTAPE" validate --max 0 "$f"
	grep -qF -- "touchtape validate: $f:$line: error: $message" "$tmp/err" &&
		pass "$name: validate names line $line" ||
		{ fail "$name: want '$f:$line: error: $message'"; sed 's/^/  | /' "$tmp/err" >&2; }
	expect_exit 1 "$name: print" -- "$TOUCHTAPE" print "$f"
	grep -qF -- "touchtape print: $f:$line: $message" "$tmp/err" &&
		pass "$name: print names line $line" ||
		{ fail "$name: print: want '$f:$line: $message'"; sed 's/^/  | /' "$tmp/err" >&2; }
}

hostile short-r 'R: 5 05 01 09 02\nN: x\nI: 3 1 2\n' 1 \
	'R: declares 5 bytes but holds 4 (a line cut short?)'
hostile long-e 'R: 1 05\nE: 0.000000 2 01 02 03\nE: 0.000001 1 04\n' 2 \
	'E: declares 2 bytes but holds more'
hostile bad-hex 'R: 1 05\nE: 0.000000 2 01 zz\n' 2 \
	'E: "zz" is not a byte (one or two hex digits)'
hostile fused-bytes 'R: 3 05 0d09 02\n' 1 \
	'R: "0d09" is not a byte (one or two hex digits)'
hostile e-before-r 'N: x\nE: 0.000000 1 01\nR: 1 05\n' 2 \
	'E: line for device 0 before its R: line (report descriptor)'
hostile d-out-of-range 'R: 1 05\nD: 256\nR: 1 06\n' 2 \
	'D: device index 256 is out of range (0 to 255)'
hostile d-not-a-number 'R: 1 05\nD: one\n' 2 \
	'D: expects a device index, not "one"'
hostile truncated 'R: 4 05 01 09 02\nE: 0.000000 8 01 02 03' 2 \
	'E: declares 8 bytes but holds 3 (a line cut short?)'
hostile cut-by-next-line 'R: 4 05 01\nN: x\nE: 0.000000 1 01\n' 1 \
	'R: declares 4 bytes but holds 2 (a line cut short?)'
hostile bad-time 'R: 1 05\nE: 1,5 1 01\n' 2 \
	'E: expects a time as seconds.microseconds, not "1,5 1 01"'
hostile bad-i 'R: 1 05\nI: 3 zz 1\n' 2 \
	'I: expects bus, vendor and product in hex, not "3 zz 1"'
hostile empty-r 'R: 0\n' 1 \
	'R: a descriptor of 0 bytes; it must hold 1 to 4096'
hostile huge-e 'R: 1 05\nE: 0.000000 16385 00\n' 2 \
	'E: a report of 16385 bytes; it must hold 1 to 16384'
hostile no-r 'D: 0\nR: 1 05\nD: 1\nN: only a name\n' 4 \
	'device 1 has no R: line (report descriptor)'

# A bad line costs that line only: the reports after it are read.
printf 'R: 1 05\nE: 0.000000 2 01 zz\nE: 0.000100 1 02\n' >"$tmp/rest.hid"
expect_exit 1 "rest: convert" -- "$TOUCHTAPE" convert "$tmp/rest.hid" -o "$tmp/rest.jsonl"
expect_grep '^\{"type":"hid","dev":0,"t":100,"data":"02"\}$' "$tmp/rest.jsonl" "rest: the next report is read"
# A refused R: line: one error, its device's reports skipped with one warning.
printf 'R: 2 05\nE: 0.000000 1 01\nE: 0.000100 1 02\n' >"$tmp/refused.hid"
expect_exit 1 "refused R: validate" -- "$TOUCHTAPE" validate --max 0 "$tmp/refused.hid"
[ "$(grep -c 'error:' "$tmp/err")" = 1 ] && pass "refused R: one error" || fail "refused R: one error"
expect_grep 'refused.hid:2: warning: the reports of device 0 are skipped: its R: line \(line 1\) was refused' \
	"$tmp/err" "refused R: its reports skipped, said once"

# Pasted into mail: quoted at two depths, CRLF, R: and E: lines wrapped
# (the blank ending the name is the name's own: kept, issue 34).
printf '> > R: 4 05 01\r\n> >  09 02\r\n> > N: Pasted  Pad \r\n> > I: 18 04f3 30f1\r\n> > E: 000001.500000 3 01\r\n> > 02\r\n> > 03\r\n' \
	>"$tmp/mail.hid"
expect_exit 0 "mail: convert" -- "$TOUCHTAPE" convert "$tmp/mail.hid" -o "$tmp/mail.jsonl"
expect_grep '"name":"Pasted  Pad ","bus":24,"vendor":1267,"product":12529,.*"descriptor":"05010902"' \
	"$tmp/mail.jsonl" "mail: the device"
expect_grep '^\{"type":"hid","dev":0,"t":1500000,"data":"010203"\}$' "$tmp/mail.jsonl" "mail: the wrapped report"
expect_grep '"source_format":"hid-recorder"' "$tmp/mail.jsonl" "mail: the source format"

# Several devices: D: switches; ids are the D: indexes; times from the
# first report of any device; written back with D: lines.
printf 'D: 0\nR: 1 05\nN: a\nD: 1\nR: 1 06\nN: b\nD: 0\nE: 000010.000000 1 01\nD: 1\nE: 000010.000100 1 02\n' \
	>"$tmp/two.hid"
expect_exit 0 "two devices: convert" -- "$TOUCHTAPE" convert "$tmp/two.hid" -o "$tmp/two.jsonl"
expect_grep '"type":"hid_device","id":1,"name":"b"' "$tmp/two.jsonl" "two devices: the second"
expect_grep '^\{"type":"hid","dev":1,"t":10000100,"data":"02"\}$' "$tmp/two.jsonl" "two devices: its report"
expect_exit 0 "two devices: back" -- "$TOUCHTAPE" convert --format hid-recorder "$tmp/two.jsonl" -o "$tmp/two2.hid"
grep -v '^#' "$tmp/two2.hid" >"$tmp/two2.lines"
printf 'D: 0\nR: 1 05\nN: a\nD: 1\nR: 1 06\nN: b\nD: 0\nE: 000010.000000 1 01\nD: 1\nE: 000010.000100 1 02\n' \
	>"$tmp/two2.want"
cmp -s "$tmp/two2.lines" "$tmp/two2.want" && pass "two devices: hid-recorder's layout" ||
	{ fail "two devices: hid-recorder's layout"; diff "$tmp/two2.want" "$tmp/two2.lines" >&2; }
finish
