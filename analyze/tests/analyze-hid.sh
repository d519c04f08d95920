#!/bin/sh
# analyze's HID layer on the corpus's hid-recorder files: the reports,
# contact sequences and anomalies it finds agree with hid-tools' own
# decoding (hid-expect.py), and with a count by hand of the ELAN1206
# file's Tip Switch bits; the text and JSON reports say the same; and each
# HID anomaly appears after one edit of a clean file, in analyze and
# validate alike.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
hid="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/hid-recorder"
[ -f "$hid/ilitek-iltp7807-222a-fff1-touchscreen.hid" ] || {
	echo "the touchpads' and touchscreen's hid-recorder files are not in tests/corpus (their licence is unclear); TT_CORPUS=the public corpus runs them: skipped"
	exit 77
}
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

for name in ilitek-iltp7807-222a-fff1-touchscreen synaptics-dll0945-06cb-ce26-touchpad; do
	f="$hid/$name.hid"
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

# Edits of the clean ilitek file, one report (line 40, a finger down;
# Contact Count is byte 80, counting the report ID as byte 0).
ili="$hid/ilitek-iltp7807-222a-fff1-touchscreen.hid"
edit() {
	awk -v n="$1" -v what="$2" '
		/^E:/ && ++e == n {
			if (what == "undeclared") $4 = "07"
			if (what == "count") $(4 + 80) = "00"
			if (what == "short") { NF = 3 + 80; $3 = 80 }
		}
		{ print }' "$ili" >"$tmp/$2.hid"
}
expect_exit 0 "ilitek: clean" -- "$TOUCHTAPE" analyze --strict "$ili"
for what in undeclared count short; do
	edit 40 "$what"
	"$TOUCHTAPE" analyze --json "$tmp/$what.hid" >"$tmp/$what.json"
	"$TOUCHTAPE" validate "$tmp/$what.hid" >/dev/null 2>"$tmp/$what.validate"
done
check_eq "$(num undeclared anomaly:hid-undeclared-report)" 1 "report ID 7: undeclared"
check_eq "$(num undeclared anomaly:total)" 1 "report ID 7: nothing else"
expect_grep "undeclared.hid:[0-9]+: error: HID device 0: report ID 7 is not an input report" \
	"$tmp/undeclared.validate" "validate names the undeclared report"
check_eq "$(num short anomaly:hid-short-report)" 1 "80 of 83 bytes: short"
expect_exit 0 "a short report is a warning" -- "$TOUCHTAPE" analyze "$tmp/short.hid"
expect_exit 1 "... a finding with --strict" -- "$TOUCHTAPE" analyze --strict "$tmp/short.hid"
# Contact Count 0 with the finger down: hid-multitouch never reads the
# contact, releases it, and the next report begins it again.
check_eq "$(num count anomaly:hid-contact-count)" 1 "Contact Count 0: denies a contact"
check_eq "$(num count anomaly:hid-contact-vanished)" 1 "Contact Count 0: the contact vanishes"
check_eq "$(num count contacts)" 4 "Contact Count 0: one contact more"
expect_grep "hid-contact-count" "$tmp/count.validate" "validate reports the count"
finish
