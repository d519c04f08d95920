#!/bin/sh
# touchtape inspect --device: only the chosen evdev devices' lanes, panes and
# numbers, the XI touches they became, and exit 2 for an id the file lacks.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

# Two kernel devices: 0 (Type B, three touches, each became XI touches of
# device 11) and 1 (Type A, two touches, no XI, a SYN_DROPPED, removed).
own="$abs_top_srcdir/inspect/tests/data/ownership.jsonl"

expect_exit 0 "--help names --device" -- "$TOUCHTAPE" inspect --help
expect_grep '^  -d, --device ID' "$tmp/out" "--help: -d, --device ID"

expect_exit 0 "--summary --device 1" -- "$TOUCHTAPE" inspect --summary --device 1 "$own"
expect_grep '0\.175 s\), 1 device, 4 frames, 23 events, 33 XI events$' "$tmp/out" "device 1: its frames and events only"
expect_grep '^device 1 "Test Type A Screen": MT protocol A$' "$tmp/out" "device 1: listed"
if grep -q '^device 0' "$tmp/out"; then fail "device 1: device 0 listed"; else pass "device 1: device 0 left out"; fi
expect_grep '2 touch sequences, max 2 simultaneous, 1 SYN_DROPPED, removed at 0\.130000 s' "$tmp/out" \
	"device 1: its touches, drop and removal"
expect_grep '^kernel to XI: 0 linked' "$tmp/out" "device 1: none of its touches became XI touches"
if grep -q 'touch-active-at-end' "$tmp/out"; then fail "device 1: device 0's anomaly shown"
else pass "device 1: device 0's anomaly left out"; fi

expect_exit 0 "--summary -d 0" -- "$TOUCHTAPE" inspect --summary -d 0 "$own"
expect_grep '1 device, 14 frames, 62 events' "$tmp/out" "device 0: its frames and events only"
expect_grep '^kernel to XI: 3 linked \(mean latency 1\.50 ms\)' "$tmp/out" "device 0: its links"
if grep -q 'SYN_DROPPED\|syn-dropped\|removed at' "$tmp/out"; then fail "device 0: device 1's drop shown"
else pass "device 0: device 1's drop and removal left out"; fi

# Both devices: the same as no --device at all, in text and JSON.
for json in "" --json; do
	"$TOUCHTAPE" inspect --summary $json "$own" >"$tmp/all" 2>&1
	expect_exit 0 "--summary $json -d 1 -d 0" -- "$TOUCHTAPE" inspect --summary $json -d 1 -d 0 "$own"
	if cmp -s "$tmp/all" "$tmp/out"; then pass "every device chosen: summary $json unchanged"
	else fail "every device chosen: summary $json differs"; diff "$tmp/all" "$tmp/out" | head >&2; fi
done

expect_exit 0 "--json -d 1" -- "$TOUCHTAPE" inspect --json -d 1 "$own"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["id"] for x in d["devices"]] == [1], d["devices"]
assert d["frames"] == 4 and d["events"] == 23, (d["frames"], d["events"])
assert d["anomaly_counts"]["total"] == 4, d["anomaly_counts"]
assert "touch-active-at-end" not in d["anomaly_counts"], d["anomaly_counts"]
assert all(a["device"] != 0 for a in d["first_anomalies"]), d["first_anomalies"]
PY
then pass "--json -d 1: device 1's numbers"; else fail "--json -d 1"; fi

# The lane view: device 1's lanes and no XI lane (none came of it);
# device 0's lanes each followed by the XI lanes they became.
expect_exit 0 "--text -d 1" -- "$TOUCHTAPE" inspect --text --width 90 -d 1 "$own"
[ "$(grep -c '^dev1 s[01] ' "$tmp/out")" -eq 2 ] && pass "text -d 1: two lanes of device 1" ||
	fail "text -d 1: not two lanes of device 1"
if grep -q '^dev0\|xi11' "$tmp/out"; then fail "text -d 1: other lanes shown"; else pass "text -d 1: no other lane"; fi
expect_exit 0 "--text -d 0" -- "$TOUCHTAPE" inspect --text --width 90 -d 0 "$own"
[ "$(grep -c '^dev0 s' "$tmp/out")" -eq 3 ] && pass "text -d 0: three lanes of device 0" ||
	fail "text -d 0: not three lanes of device 0"
[ "$(grep -c '^ `xi11 t[123] ' "$tmp/out")" -eq 6 ] && pass "text -d 0: the six XI lanes its touches became" ||
	fail "text -d 0: not the six XI lanes"
if grep -q '^dev1' "$tmp/out"; then fail "text -d 0: device 1 shown"; else pass "text -d 0: device 1 left out"; fi

# The viewer: panes and the device filter know only device 1.
TOUCHTAPE_INSPECT_HEADLESS=120x30 TOUCHTAPE_INSPECT_KEYS='d<Dump>d<Dump>q' \
	expect_exit 0 "headless -d 1" -- "$TOUCHTAPE" inspect -d 1 "$own"
expect_grep 'dev1 Test Type A Screen \(A\)' "$tmp/out" "headless -d 1: slot pane of device 1"
if grep -q 'dev0\|xi11' "$tmp/out"; then fail "headless -d 1: device 0 or XI shown"
else pass "headless -d 1: nothing of device 0"; fi
expect_grep 'showing kernel device 1 only' "$tmp/out" "headless -d 1: d cycles to device 1"
expect_grep 'showing all devices' "$tmp/out" "headless -d 1: then back to all"

# An id the file does not have: exit 2 with one message, nothing shown.
for mode in --summary --json --text headless; do
	if [ $mode = headless ]; then
		TOUCHTAPE_INSPECT_HEADLESS=80x24 expect_exit 2 "missing device, $mode" -- \
			"$TOUCHTAPE" inspect --device 7 "$own"
	else
		expect_exit 2 "missing device, $mode" -- "$TOUCHTAPE" inspect $mode --device 7 "$own"
	fi
	expect_grep "ownership\.jsonl: there is no device 7 \(--device" "$tmp/err" "missing device, $mode: said"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && pass "missing device, $mode: one line" ||
		fail "missing device, $mode: $(wc -l <"$tmp/err") lines"
	[ -s "$tmp/out" ] && fail "missing device, $mode: printed something" || pass "missing device, $mode: nothing printed"
done
expect_exit 2 "--device 0 -d 7: one missing is enough" -- "$TOUCHTAPE" inspect --summary -d 0 -d 7 "$own"
expect_exit 2 "--device not a number" -- "$TOUCHTAPE" inspect --summary --device touchscreen "$own"
expect_grep "inspect --help" "$tmp/err" "--device not a number: points to --help"
finish
