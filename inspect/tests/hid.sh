#!/bin/sh
# touchtape inspect on the HID layer: a hand-built two-layer timeline
# (inspect/tests/gen-hid.py: three HID contacts of the ELAN1206 touchpad,
# two of which became kernel touches 400 us later) in --summary, --json,
# --text and with --device; then every corpus hid-recorder file, and the
# ghost fingers of a touchpad (the project's own, the real Synaptics one
# with $TT_CORPUS).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

two="$abs_top_srcdir/inspect/tests/data/hid-two-layer.jsonl"

expect_exit 0 "--summary" -- "$TOUCHTAPE" inspect --summary "$two"
expect_grep '^HID device 0 "ELAN1206:00 04F3:30F1"$' "$tmp/out" "summary: the HID device"
expect_grep '^  0\.116 s, 12 reports, 3 contacts$' "$tmp/out" "summary: its reports and contacts"
expect_grep 'HID to kernel: 2 contacts linked \(latency median 0\.400 ms, p95 0\.400 ms\), 1 not delivered' "$tmp/out" \
	"summary: the link and its latency"
expect_grep '^  I: 18 04f3 30f1, max 1 simultaneous, evdev device 0$' "$tmp/out" "summary: where it came from"

expect_exit 0 "--json" -- "$TOUCHTAPE" inspect --json "$two"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hid_devices"]
assert len(h) == 1 and h[0]["id"] == 0 and h[0]["evdev"] == [0], h
assert h[0]["reports"] == 12 and h[0]["contacts"] == 3 and h[0]["max_simultaneous"] == 1, h
assert h[0]["links"]["linked"] == 2 and h[0]["links"]["not_delivered"] == 1, h
assert h[0]["links"]["median_latency_us"] == 400, h
assert d["hid_reports"] == 12 and d["duration_us"] == 116000, d
PY
then pass "JSON: hid_devices"; else fail "JSON: hid_devices"; fi

# Each HID lane right under the kernel touch it became, with the latency;
# the contact no kernel touch came of on its own.
expect_exit 0 "--text" -- "$TOUCHTAPE" inspect --text "$two"
if grep -A1 '^dev0 s0 #100 ' "$tmp/out" | grep -q '^ `hid0 c0 +400us  *\[----+----+----+----\]$'; then
	pass "text: hid0 c0 under dev0 s0 #100, 4 reports"
else
	fail "text: hid0 c0 under dev0 s0 #100"; cat "$tmp/out" >&2
fi
if grep -A1 '^dev0 s0 #101 ' "$tmp/out" | grep -q '^ `hid0 c1 +400us  *\['; then
	pass "text: hid0 c1 under dev0 s0 #101"
else
	fail "text: hid0 c1 under dev0 s0 #101"
fi
expect_grep '^hid0 c2  *\[----\+----\]$' "$tmp/out" "text: the unlinked contact on its own"

# The kernel may stamp its frame before the recorder reads the report:
# a negative latency keeps its sign, however short the label gets.
python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "frame":
        r["t"] -= 2400
    print(json.dumps(r))
' "$two" >"$tmp/early.jsonl"
expect_exit 0 "--text, kernel first" -- "$TOUCHTAPE" inspect --text "$tmp/early.jsonl"
expect_grep '^ `hid0 c0 -2ms ' "$tmp/out" "text: a negative latency"

# --device: the HID device follows the evdev device it produced; hidN alone.
expect_exit 0 "--device 0" -- "$TOUCHTAPE" inspect --text --device 0 "$two"
expect_grep '^hid0 c2 ' "$tmp/out" "--device 0 keeps its HID device's lanes"
expect_exit 0 "--device hid0" -- "$TOUCHTAPE" inspect --text --device hid0 "$two"
if grep -q '^dev0 ' "$tmp/out"; then fail "--device hid0 shows kernel lanes"; else pass "--device hid0: no kernel lanes"; fi
expect_grep '^hid0 c1 ' "$tmp/out" "--device hid0: its lanes"
expect_exit 2 "--device hid1" -- "$TOUCHTAPE" inspect --summary --device hid1 "$two"
expect_grep 'there is no HID device 1' "$tmp/err" "--device hid1: said"

# Every hid-recorder file of the corpus: the summary names the device and
# counts as many reports as the file has E: lines.
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
if [ -n "$corpus" ] && [ -d "$corpus/hid-recorder" ]; then
	for f in "$corpus"/hid-recorder/*; do
		case "$f" in *.tsv) continue;; esac
		n=$(grep -c '^E: ' "$f")
		name=$(basename "$f")
		"$TOUCHTAPE" inspect --json "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -ne 0 ]; then
			fail "$name: inspect --json exit $rc"; sed 's/^/  | /' "$tmp/err" >&2; continue
		fi
		if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["hid_reports"] == int(sys.argv[2]), (d["hid_reports"], sys.argv[2])
assert len(d["hid_devices"]) >= 1
' "$tmp/out" "$n"; then
			pass "$name: $n reports"
		else
			fail "$name: report count"
		fi
	done
	# The ghost-finger report of the real Synaptics touchpad, with the
	# corpus that has it: 9 contact lanes, the vanished ones marked.
	f="$corpus/hid-recorder/synaptics-dll0945-06cb-ce26-touchpad.hid"
	if [ -e "$f" ] || [ -n "${TT_CORPUS:-}" ]; then
		expect_exit 0 "synaptics --text" -- "$TOUCHTAPE" inspect --text "$f"
		[ "$(grep -c '^hid0 c[0-9] *\[' "$tmp/out")" = 9 ] && pass "synaptics: 9 HID contact lanes" ||
			fail "synaptics: HID contact lanes"
		expect_grep '^markers +.*!' "$tmp/out" "synaptics: the vanished contacts' anomalies marked"
	else
		echo "# the real Synaptics touchpad is only in the public corpus (\$TT_CORPUS): its ghost fingers are checked on the own one below"
	fi
else
	fail "no corpus at $corpus"
fi

# The same pattern in the project's own touchpad (tests/corpus/make-hid.py):
# c0 moves and lifts; c0, c1 and c2 swipe and only c1 is reported lifting;
# c0 and c1 scroll and only c0 lifts; a clean tap and move. 8 contact
# lanes, 3 contacts vanished (two at one report, one at another), marked.
f="$abs_top_srcdir/tests/corpus/hid-recorder/touchtape-touchpad-ghost.hid"
expect_exit 0 "own ghost touchpad --text" -- "$TOUCHTAPE" inspect --text "$f"
[ "$(grep -c '^hid0 c[0-9] *\[' "$tmp/out")" = 8 ] && pass "ghost touchpad: 8 HID contact lanes" ||
	fail "ghost touchpad: HID contact lanes"
[ "$(grep -Ec '^hid0 c[0-2] *\[' "$tmp/out")" = 8 ] && pass "ghost touchpad: contacts 0 to 2" ||
	fail "ghost touchpad: contact IDs"
[ "$(grep -E '^markers ' "$tmp/out" | tr -cd '!' | wc -c)" = 2 ] &&
	pass "ghost touchpad: the two reports where contacts vanished marked" ||
	fail "ghost touchpad: markers"
expect_exit 0 "own ghost touchpad --summary" -- "$TOUCHTAPE" inspect --summary "$f"
expect_grep '^  warning hid-contact-vanished: 3$' "$tmp/out" "ghost touchpad: 3 vanished contacts"
expect_grep '^anomalies: 3$' "$tmp/out" "ghost touchpad: no other anomaly"
for c in 0 1 2; do
	expect_grep "contact $c \\(down since line [0-9]+\\) is no longer reported, without a tip up" "$tmp/out" \
		"ghost touchpad: contact $c vanished"
done
finish
