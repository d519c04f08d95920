#!/bin/sh
# analyze lists the HID contacts of a recording (issue 34, point 14):
# begin, end, first and last position, reports, in text and JSON; a
# HID-only recording has no empty "touch sequences" heading.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }

# A touch screen: Tip Switch, Contact ID, X, Y (0..4095), Contact Count.
desc="05 0d 09 04 a1 01 85 01 09 22 a1 02 09 42 15 00 25 01 75 01 95 01 81 02 75 07 95 01 81 03 09 51 25 0f 75 08 95 01 81 02 05 01 09 30 26 ff 0f 75 10 95 01 81 02 09 31 81 02 c0 05 0d 09 54 25 0a 75 08 95 01 81 02 c0"
cat >"$tmp/c.hid" <<EOT
D: 0
R: 71 $desc
N: Test Contacts
I: 18 04f3 30f1
E: 000000.000000 8 01 01 00 10 00 20 00 01
E: 000000.010000 8 01 01 00 20 00 30 00 01
E: 000000.020000 8 01 00 00 20 00 30 00 01
EOT

expect_exit 0 "analyze a HID-only recording" -- "$TOUCHTAPE" analyze "$tmp/c.hid"
expect_grep '^HID contacts:$' "$tmp/out" "a HID contacts heading"
expect_grep '^  HID device 0 contact 0: 0\.000000-0\.020000 s \(0\.020 s, 3 reports\), \(16, 32\) -> \(32, 48\)' \
	"$tmp/out" "the contact: begin, end, reports, first and last position"
grep -q '^touch sequences' "$tmp/out" && fail "an empty 'touch sequences' heading" || pass "no empty touch sequences heading"
expect_grep '^0 touch sequences, 0 XI touch sequences, 1 HID contact, 0 anomalies$' "$tmp/out" "the totals count it"

expect_exit 0 "analyze --json" -- "$TOUCHTAPE" analyze --json "$tmp/c.hid"
python3 - "$tmp/out" <<'PY' && pass "JSON hid_contacts" || fail "JSON hid_contacts"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["hid_contacts"]
assert len(c) == 1, c
c = c[0]
want = {"hid_device": 0, "contact_id": 0, "begin_us": 0, "end_us": 20000, "reports": 3,
        "begin": [16, 32], "end": [32, 48]}
for k, v in want.items():
    assert c[k] == v, (k, c[k], v)
PY

# A recording with evdev devices keeps its heading.
expect_exit 0 "analyze an evdev recording" -- "$TOUCHTAPE" analyze "$samples/3m-two-finger.jsonl"
expect_grep '^touch sequences \(' "$tmp/out" "evdev: the touch sequences heading"
finish
