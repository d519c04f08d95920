#!/bin/sh
# touchtape print on the HID layer: HID devices described, each report's
# decoded fields checked against a decoding done here by hand from the
# report descriptor's bit layout (of a hand-built two-layer timeline and
# the corpus's hid-recorder files), --device/--from/--to on HID records,
# and hostile HID records (no crash, FILE:LINE for what the reader
# refuses, nothing unsanitized on the terminal).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

two="$abs_top_srcdir/inspect/tests/data/hid-two-layer.jsonl"

# Two touchpads' reports, read off their descriptors by hand (the
# corpus files carry hid-tools' decoded descriptor as comments).
# ELAN1206 report 4 (05 0d 09 05 a1 01 85 04 ...): byte 1 bit 0
# Confidence, bit 1 Tip Switch, bits 4-7 Contact Id; bytes 2-3 X, 4-5 Y,
# 6-7 Scan Time (little endian); byte 8 Contact Count; byte 9 bit 0
# Button 1; 4 constant bytes.
# DLL0945 report 3: 5 contacts of 5 bytes (bit 0 Confidence, bit 1 Tip
# Switch, bits 2-4 Contact Id, 16-bit X, 16-bit Y), then Scan Time (16),
# Contact Count (8), Button 1 (1 bit). print shows the first Contact
# Count contacts (with a count of 0, those not all zeros) and counts the
# empty slots.
cat >"$tmp/hidcheck.py" <<'PY'
import sys

def le16(b, i):
    return b[i] | b[i + 1] << 8

def contact(cid, tip, x, y, conf):
    return "contact=%d tip=%d x=%d y=%d conf=%d" % (cid, tip, x, y, conf)

def tail(parts, b, count, scan, button):
    s = " | ".join(["id=%d" % b[0]] + parts) + " | count=%d scan_time=%d" % (count, scan)
    return s + (" | buttons=0x1" if button else "")

def elan(b):
    if len(b) != 14 or b[0] != 4:
        return None
    c = contact(b[1] >> 4, (b[1] >> 1) & 1, le16(b, 2), le16(b, 4), b[1] & 1)
    return tail([c], b, b[8], le16(b, 6), b[9] & 1)

def synaptics(b):
    if len(b) != 30 or b[0] != 3:
        return None
    count = b[28]
    parts = []
    for i in range(5):
        o = 1 + 5 * i
        if (count and i >= count) or (not count and not any(b[o:o + 5])):
            continue
        parts.append(contact((b[o] >> 2) & 7, (b[o] >> 1) & 1, le16(b, o + 1), le16(b, o + 3), b[o] & 1))
    if len(parts) < 5:
        parts.append("%d empty slot%s" % (5 - len(parts), "" if 5 - len(parts) == 1 else "s"))
    return tail(parts, b, count, le16(b, 26), b[29] & 1)

# argv: decoder, the printed text; stdin: "TIME HEX" per report.
decode = {"elan": elan, "synaptics": synaptics}[sys.argv[1]]
printed = {}
for line in open(sys.argv[2]):
    head, _, fields = line.rstrip("\n").partition("  | ")
    if " hid0  " in head:
        printed[head.split()[0]] = fields
n = 0
for line in sys.stdin:
    t, hexdata = line.split()
    want = decode(bytes.fromhex(hexdata))
    if want is None:
        continue
    got = printed.get(t)
    if got != want:
        sys.exit("%s: printed %r, the descriptor's layout says %r" % (t, got, want))
    n += 1
if n == 0:
    sys.exit("no report checked")
print(n)
PY

expect_exit 0 "two layers" -- "$TOUCHTAPE" print "$two"
expect_grep '^# HID device 0: "ELAN1206:00 04F3:30F1" at /dev/hidraw0$' "$tmp/out" "HID device: name and node"
expect_grep '^#   I: 18 04f3 30f1 \(bus I2C, version 0x100, country 0\)$' "$tmp/out" "HID device: I: line"
expect_grep '^#   report descriptor: 374 bytes$' "$tmp/out" "HID device: descriptor size"
expect_grep '^#   application collections: Generic Desktop/Mouse, Digitizers/Touch Pad, Digitizers/Device Configuration$' \
	"$tmp/out" "HID device: application collections"
expect_grep '^#   input reports: ID 1 \(9 bytes\), ID 4 \(14 bytes\)$' "$tmp/out" "HID device: input reports"
expect_grep '^#   evdev device: 0$' "$tmp/out" "HID device: its evdev device"
expect_grep '^#   feature report 3: 03 05 00$' "$tmp/out" "HID device: a feature report"
expect_grep '^#   feature report 7: error EIO ' "$tmp/out" "HID device: a feature report's error"
if python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "hid":
        print("%d.%06d %s" % (r["t"] // 1000000, r["t"] % 1000000, r["data"]))
' "$two" | python3 "$tmp/hidcheck.py" elan "$tmp/out" >"$tmp/n"; then
	pass "two layers: $(cat "$tmp/n") reports decoded as their bit layout says"
else
	fail "two layers: decoded fields"
fi

# A mouse report of the same descriptor (report 1: 2 buttons, 6 bits of
# padding, X, Y, Wheel signed bytes, AC Pan, 3 constant bytes), decoded
# by hand; and the same one byte short.
{
	head -n 1 "$two"
	grep '"type":"hid_device"' "$two"
	echo '{"type":"hid","dev":0,"t":1000,"data":"010105fb0002000000"}'
	echo '{"type":"hid","dev":0,"t":2000,"data":"010105fb00020000"}'
} >"$tmp/mouse.jsonl"
expect_exit 0 "mouse report" -- "$TOUCHTAPE" print "$tmp/mouse.jsonl"
expect_grep '^0\.001000 hid0  01 01 05 fb 00 02 00 00 00  \| id=1 \| Button/1=1 Button/2=0 Generic Desktop/X=5 Generic Desktop/Y=-5 Generic Desktop/Wheel=0 Consumer/0x0238=2$' \
	"$tmp/out" "mouse report: every field by name"
expect_grep '^0\.002000 hid0  .* \| id=1 short: 8 of 9 bytes \| Button/1=1 ' "$tmp/out" "mouse report: short"

# The reading options: a HID device follows the evdev device it produced;
# hidN alone; --from/--to cut HID reports by their time.
expect_exit 0 "--device 0" -- "$TOUCHTAPE" print --device 0 "$two"
[ "$(grep -c ' hid0  ' "$tmp/out")" = 12 ] && pass "--device 0: its HID device's 12 reports" ||
	fail "--device 0: HID reports"
expect_exit 0 "--device hid0" -- "$TOUCHTAPE" print --device hid0 "$two"
[ "$(grep -c ' hid0  ' "$tmp/out")" = 12 ] && pass "--device hid0: 12 reports" || fail "--device hid0: HID reports"
if grep -q ' dev0  ' "$tmp/out"; then fail "--device hid0 shows frames"; else pass "--device hid0: no frames"; fi
expect_exit 2 "--device hid4" -- "$TOUCHTAPE" print --device hid4 "$two"
expect_grep 'there is no HID device 4' "$tmp/err" "--device hid4: said"
expect_exit 2 "--device hidden" -- "$TOUCHTAPE" print --device hidden "$two"
expect_exit 0 "--from --to" -- "$TOUCHTAPE" print --from 0.06 --to 0.08 "$two"
[ "$(grep -c ' hid0  ' "$tmp/out")" = 3 ] && pass "--from/--to: 3 HID reports" || fail "--from/--to: HID reports"

# Hostile HID records: control characters in every string, a descriptor
# that declares nothing, reports of no declared device, undeclared IDs,
# short, empty, not hex, at and over the size limit.
python3 - "$two" >"$tmp/hostile.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
hid = [l for l in lines if '"type":"hid_device"' in l][0]
print(lines[0])
print(json.dumps({"type": "hid_device", "id": 1, "name": "evil\x1b[31mred\nline\x9b",
                  "phys": "p\x07", "uniq": "u\x1b]0;title\x07", "node": "/dev/hidraw9\r",
                  "bus": 3, "vendor": 1, "product": 2, "version": 0, "descriptor": "ffffffff0b"}))
print('{"type":"hid","dev":1,"t":10,"data":"0102"}')
print('{"type":"hid","dev":7,"t":11,"data":"0102"}')
print(hid)
print('{"type":"hid","dev":0,"t":12,"data":"04"}')
print('{"type":"hid","dev":0,"t":13,"data":"63ffff"}')
print('{"type":"hid","dev":0,"t":14,"data":"zz"}')
print('{"type":"hid","dev":0,"t":15,"data":"04' + "ff" * 16383 + '"}')
print('{"type":"hid","dev":0,"t":16,"data":"04' + "ff" * 16384 + '"}')
print('{"type":"hid","dev":0,"t":17,"data":""}')
print(json.dumps({"type": "hid_device", "id": 2, "name": "%s%n%s", "bus": 3, "vendor": 1, "product": 2,
                  "version": 0, "descriptor": "05010902a101" + "a100" * 600}))
print('{"type":"hid","dev":2,"t":18,"data":"ff"}')
PY
expect_exit 1 "hostile HID records" -- "$TOUCHTAPE" print "$tmp/hostile.jsonl"
for l in 4 8 10 11; do
	expect_grep "^touchtape print: .*hostile\\.jsonl:$l: " "$tmp/err" "hostile: line $l refused as FILE:LINE"
done
if LC_ALL=C grep -q "$(printf '[\033\007\r]')" "$tmp/out"; then
	fail "hostile: control characters reached the output"
else
	pass "hostile: no control characters in the output"
fi
expect_grep '^# HID device 1: "evil\?\[31mred\?line' "$tmp/out" "hostile: the name sanitized"
expect_grep '^0\.000013 hid0  63 ff ff  \| id=99: not an input report of the descriptor$' "$tmp/out" \
	"hostile: an undeclared report ID"
expect_grep '^0\.000012 hid0  04  \| id=4 short: 1 of 14 bytes$' "$tmp/out" "hostile: a 1-byte report"
expect_grep '^0\.000015 hid0  04( ff){23} \.\.\.\(16384 bytes\)  \| id=4 ' "$tmp/out" \
	"hostile: a 16384-byte report cut after 24 bytes, with its length"
expect_grep '^# HID device 2: "%s%n%s"' "$tmp/out" "hostile: a format string printed as it is"
expect_grep '^#   report descriptor: 1206 bytes, not decoded: ' "$tmp/out" \
	"hostile: too deep a descriptor refused with the parser's reason"
expect_grep '^0\.000018 hid2  ff$' "$tmp/out" "hostile: its report shown as bytes only"
if awk 'length > 300 { exit 1 }' "$tmp/out"; then pass "hostile: no line over 300 columns"; else
	fail "hostile: a line over 300 columns"; fi

# A hostile hid-recorder file: a descriptor cut inside an item, an escape
# sequence in the name, E: lines whose byte count lies or whose time is
# not one: each refused as FILE:LINE, the rest printed.
printf 'R: 3 05 01 09\nN: x\033[31m\nI: 3 1 2\nE: 0.000000 3 01 02\nE: 0.1 5 01 02\nE: zz 2 01 02\nE: 0.2 2 01 02 03\nE: 0.3 2 01 02\n' \
	>"$tmp/hostile.hid"
expect_exit 1 "hostile hid-recorder file" -- "$TOUCHTAPE" print "$tmp/hostile.hid"
for l in 4 5 6 7; do
	expect_grep "^touchtape print: .*hostile\\.hid:$l: E: " "$tmp/err" "hostile hid-recorder: line $l refused as FILE:LINE"
done
expect_grep '^#   report descriptor: 3 bytes, not decoded: item 2 at byte 2: ' "$tmp/out" \
	"hostile hid-recorder: the cut descriptor's reason"
expect_grep '^[0-9.]+ hid0  01 02$' "$tmp/out" "hostile hid-recorder: its good report as bytes"
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/out"; then fail "hostile hid-recorder: an escape reached the output"; else
	pass "hostile hid-recorder: no escape in the output"; fi
expect_exit 2 "--hid on a file" -- "$TOUCHTAPE" print --hid "$two"
# Every hid-recorder file of the corpus: read as a HID recording, every
# E: line a report line; the two touchpads' reports decoded as above.
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
if [ -n "$corpus" ] && [ -d "$corpus/hid-recorder" ]; then
	for f in "$corpus"/hid-recorder/*; do
		case "$f" in *.tsv) continue;; esac
		name=$(basename "$f")
		n=$(grep -c '^E: ' "$f")
		"$TOUCHTAPE" print "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -ne 0 ]; then
			fail "$name: print exit $rc"; sed 's/^/  | /' "$tmp/err" >&2; continue
		fi
		got=$(grep -c '^[0-9.]* hid0  ' "$tmp/out")
		if grep -q '^# HID device 0: ' "$tmp/out" && [ "$got" = "$n" ]; then
			pass "$name: the device and its $n reports"
		else
			fail "$name: $got report lines for $n E: lines"
		fi
		case "$name" in
		elan1206-*) dec=elan;;
		synaptics-dll0945-*) dec=synaptics;;
		*) continue;;
		esac
		# E: seconds (zero-padded or not) as print shows them: the
		# file's own clock (issue 34: a file may begin at 85 s).
		if awk '/^E: / { t = $2 + 0; h = ""; for (i = 4; i <= NF; i++) h = h $i;
			printf "%.6f %s\n", t, h }' "$f" | python3 "$tmp/hidcheck.py" "$dec" "$tmp/out" >"$tmp/n"; then
			pass "$name: $(cat "$tmp/n") reports decoded as the descriptor's layout says"
		else
			fail "$name: decoded fields"
		fi
	done
else
	fail "no corpus at $corpus"
fi
finish
