#!/bin/sh
# analyze's HID layer on hid-recorder files: the reports, contact
# sequences and anomalies it finds agree with hid-tools' own decoding
# (hid-expect.py), and with a count by hand of a touchpad's Tip Switch
# bits; the text and JSON reports say the same; and each HID anomaly
# appears after one edit of a clean file, in analyze and validate alike.
# The project's own touchscreen and touchpad (tests/corpus/make-hid.py)
# always; the real ILITEK, Synaptics and ELAN1206 recordings too when the
# corpus has them ($TT_CORPUS: their licence keeps them out of tests/corpus).
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
hid="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/hid-recorder"
own="$abs_top_srcdir/tests/corpus/hid-recorder"
real=0
if [ -f "$hid/ilitek-iltp7807-222a-fff1-touchscreen.hid" ]; then
	real=1
else
	echo "the real touchpads' and touchscreen's hid-recorder files are not in tests/corpus (their licence is unclear); TT_CORPUS=the public corpus runs them too"
fi
expect="$abs_top_srcdir/analyze/tests/hid-expect.py"

# NAME KEY: a number of the first HID device (or of anomaly_counts) in
# $tmp/NAME.json.
num() {
	python3 - "$tmp/$1.json" "$2" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
key = sys.argv[2]
if key.startswith("anomaly:"):
    print(a["anomaly_counts"].get(key[8:], 0))
else:
    v = a["hid_devices"][0]
    for k in key.split("."):
        v = v[k]
    print(v)
PY
}

check_eq() {
	if [ "$1" = "$2" ]; then pass "$3: $1"; else fail "$3: $1, want $2"; fi
}

names="touchtape-touchscreen-keyboard touchtape-touchpad"
[ $real = 0 ] || names="$names ilitek-iltp7807-222a-fff1-touchscreen synaptics-dll0945-06cb-ce26-touchpad"
for name in $names; do
	f="$hid/$name.hid"
	case $name in touchtape-*) f="$own/$name.hid" ;; esac
	"$TOUCHTAPE" analyze --json "$f" >"$tmp/$name.json"
	"$TOUCHTAPE" analyze "$f" >"$tmp/$name.txt"
	python3 "$expect" "$f" >"$tmp/$name.expect"
	for key in reports contacts vanished count; do
		want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
			"$tmp/$name.expect" "$key")
		case $key in
		vanished) got=$(num "$name" anomaly:hid-contact-vanished) ;;
		count) got=$(num "$name" anomaly:hid-contact-count) ;;
		*) got=$(num "$name" "$key") ;;
		esac
		check_eq "$got" "$want" "$name: $key as hid-tools decodes it"
	done
	# The text report: the same numbers.
	expect_grep "^  [0-9.]+ s, $(num "$name" reports) reports, $(num "$name" contacts) contacts$" \
		"$tmp/$name.txt" "$name: text and JSON agree on reports and contacts"
	median=$(num "$name" report_interval_us.median)
	expect_grep "report interval while touching: median $(awk -v m="$median" 'BEGIN { printf "%.2f", m / 1000 }') ms" \
		"$tmp/$name.txt" "$name: text and JSON agree on the report interval"
done
# The own touchscreen reports at ~120 Hz (make-hid.py: 8.3 ms, +-0.4 ms).
check_eq "$(num touchtape-touchscreen-keyboard report_rate_hz)" 120.48 "own touchscreen: report rate"

# The own touchpad: byte 1 + 5 i of each report is slot i's Confidence
# (bit 0), Tip Switch (bit 1) and Contact Id (bits 2-7), byte 13 the
# Contact Count; a sequence begins at each tip down of an id not down.
pad="$own/touchtape-touchpad.hid"
"$TOUCHTAPE" analyze --json "$pad" >"$tmp/pad.json"
check_eq "$(num pad reports)" "$(grep -c '^E:' "$pad")" "own touchpad: reports"
check_eq "$(num pad contacts)" "$(python3 - "$pad" <<'PY'
import sys
n, down = 0, set()
for line in open(sys.argv[1]):
    if not line.startswith("E:"):
        continue
    b = [int(x, 16) for x in line.split()[3:]]
    now = {b[1 + 5 * i] >> 2 for i in range(b[13]) if b[1 + 5 * i] & 2}
    n += len(now - down)
    down = now
print(n)
PY
)" "own touchpad: contacts counted by hand"
check_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["anomaly_counts"]["total"])' \
	"$tmp/pad.json")" 0 "own touchpad: no anomaly"

# edit FILE N WHAT COUNT_BYTE: one report (the Nth, a finger down) of a
# clean FILE edited into $tmp/WHAT.hid (bytes counted from the report ID,
# byte 0): report ID 7, a Contact Count of 0, or cut before COUNT_BYTE.
edit() {
	awk -v n="$2" -v what="$3" -v c="$4" '
		/^E:/ && ++e == n {
			if (what == "undeclared") $4 = "07"
			if (what == "count") $(4 + c) = "00"
			if (what == "short") { NF = 3 + c; $3 = c }
		}
		{ print }' "$1" >"$tmp/$3.hid"
}

# edits NAME FILE COUNT_BYTE LENGTH CONTACTS: each edit of report 40 of
# FILE, which has CONTACTS contacts clean.
edits() {
	expect_exit 0 "$1: clean" -- "$TOUCHTAPE" analyze --strict "$2"
	for what in undeclared count short; do
		edit "$2" 40 "$what" "$3"
		"$TOUCHTAPE" analyze --json "$tmp/$what.hid" >"$tmp/$what.json"
		"$TOUCHTAPE" validate "$tmp/$what.hid" >/dev/null 2>"$tmp/$what.validate"
	done
	check_eq "$(num undeclared anomaly:hid-undeclared-report)" 1 "$1: report ID 7: undeclared"
	check_eq "$(num undeclared anomaly:total)" 1 "$1: report ID 7: nothing else"
	expect_grep "undeclared.hid:[0-9]+: error: HID device 0: report ID 7 is not an input report" \
		"$tmp/undeclared.validate" "$1: validate names the undeclared report"
	check_eq "$(num short anomaly:hid-short-report)" 1 "$1: $3 of $4 bytes: short"
	expect_exit 0 "$1: a short report is a warning" -- "$TOUCHTAPE" analyze "$tmp/short.hid"
	expect_exit 1 "$1: ... a finding with --strict" -- "$TOUCHTAPE" analyze --strict "$tmp/short.hid"
	# Contact Count 0 with the finger down: hid-multitouch never reads the
	# contact, releases it, and the next report begins it again.
	check_eq "$(num count anomaly:hid-contact-count)" 1 "$1: Contact Count 0: denies a contact"
	check_eq "$(num count anomaly:hid-contact-vanished)" 1 "$1: Contact Count 0: the contact vanishes"
	check_eq "$(num count contacts)" $(($5 + 1)) "$1: Contact Count 0: one contact more"
	expect_grep "hid-contact-count" "$tmp/count.validate" "$1: validate reports the count"
}
# The own touchscreen: 14-byte reports, Contact Count in byte 13; its
# contacts as hid-tools decodes them.
edits "own touchscreen" "$own/touchtape-touchscreen-keyboard.hid" 13 14 \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["contacts"])' \
		"$tmp/touchtape-touchscreen-keyboard.expect")"

[ $real = 1 ] || finish

# The GPD Win Mini's touchscreen reports at 120 Hz.
check_eq "$(num ilitek-iltp7807-222a-fff1-touchscreen report_rate_hz)" 120.05 "ilitek: report rate"

# ELAN1206 (no decoded comments): byte 2 of each report is Confidence
# (bit 0) and Tip Switch (bit 1); a sequence begins at each 01 -> 03.
elan="$hid/elan1206-04f3-30f1-touchpad.hid"
"$TOUCHTAPE" analyze --json "$elan" >"$tmp/elan.json"
check_eq "$(num elan reports)" "$(grep -c '^E:' "$elan")" "elan: reports"
check_eq "$(num elan contacts)" \
	"$(awk '/^E:/ { tip = $5 == "03"; if (tip && !down) n++; down = tip } END { print n }' "$elan")" \
	"elan: contacts counted by hand"
check_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["anomaly_counts"]["total"])' \
	"$tmp/elan.json")" 0 "elan: no anomaly (its last tip up has Contact Count 0)"

# The clean ilitek file: 83-byte reports, Contact Count in byte 80.
edits ilitek "$hid/ilitek-iltp7807-222a-fff1-touchscreen.hid" 80 83 3
finish
