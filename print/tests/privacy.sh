#!/bin/sh
# validate --privacy and convert --redact on a hand-built two-layer
# recording of a combined touch+keyboard device: every thing that may
# identify someone is named at its line, the redacted copy has none of
# them left, still validates, and still presses as many keys (evdev and
# HID) at the same times.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

# The descriptor of hid/tests/test-hid-keymask.c: a touchscreen (report
# 1), a keyboard (report 3: modifiers, reserved, six key slots), an
# n-key-rollover bitmap (report 4).
desc=050d0904a10185010922a102094215002501750195018102950781030951250f75089501810205010930093126ff0f751095028102c0050d0954257f75089501810285020955250ab102c005010906a1018503050719e029e715002501750195088102750895018103190029651500256575089506810085041904291e150025017501951b810295058103c0
in="$tmp/combined.jsonl"
cat >"$in" <<JSON
{"format":"touchtape-timeline","version":1,"tool":"privacy.sh","start":{"monotonic_us":1000000,"realtime_us":1764748800000000},"keycodes_masked":false,"system":{"dmi_modalias":"dmi:bvnLENOVO:pnThinkPadX1:","os_id":"debian"}}
{"type":"device","id":0,"name":"Combined Keyboard","node":"/dev/input/event9","phys":"00:1a:7d:da:71:13/input0","uniq":"SN4711","input_id":{"bustype":5,"vendor":1,"product":2,"version":1},"codes":{"EV_SYN":["SYN_REPORT"],"EV_KEY":["KEY_ESC","KEY_1","KEY_2","KEY_H","KEY_I","KEY_ENTER"]},"syspath":"/sys/devices/virtual/input/input9/event9","udev":{"DEVNAME":"/dev/input/event9","ID_INPUT":"1","ID_SERIAL":"x_SN4711","LIBINPUT_DEVICE_GROUP":"5/1/2:00:1a:7d:da:71:13"}}
{"type":"hid_device","id":0,"name":"Combined","phys":"00:1a:7d:da:71:13","node":"/dev/hidraw3","bus":5,"vendor":1,"product":2,"version":1,"descriptor":"$desc","evdev_devices":[0]}
{"type":"frame","dev":0,"t":1000,"ev":[[1,35,1],[0,0,0]]}
{"type":"hid","dev":0,"t":1000,"data":"0300000b0000000000"}
{"type":"frame","dev":0,"t":2000,"ev":[[1,23,1],[0,0,0]]}
{"type":"hid","dev":0,"t":2000,"data":"0300000b0c00000000"}
{"type":"frame","dev":0,"t":3000,"ev":[[1,35,0],[1,23,0],[0,0,0]]}
{"type":"hid","dev":0,"t":3000,"data":"030000000000000000"}
{"type":"hid","dev":0,"t":3500,"data":"0101050b0c780601"}
{"type":"frame","dev":0,"t":4000,"ev":[[1,28,1],[0,0,0]]}
{"type":"hid","dev":0,"t":4000,"data":"030000280000000000"}
JSON
expect_exit 0 "the fixture is a valid recording" -- "$TOUCHTAPE" validate "$in"
expect_exit 1 "validate --privacy finds what identifies" -- "$TOUCHTAPE" validate --privacy "$in"
err="$tmp/err"
cp "$err" "$tmp/findings"
for want in \
	"combined.jsonl:1: DMI strings: dmi:bvnLENOVO" \
	"combined.jsonl:2: serial in uniq: SN4711" \
	"combined.jsonl:2: address in phys: 00:1a:7d:da:71:13/input0" \
	"combined.jsonl:2: node path: /dev/input/event9" \
	"combined.jsonl:2: node path: /sys/devices/virtual/input/input9/event9" \
	"combined.jsonl:2: node path in udev DEVNAME" \
	"combined.jsonl:2: serial in udev ID_SERIAL" \
	"combined.jsonl:2: address in udev LIBINPUT_DEVICE_GROUP" \
	"combined.jsonl:3: address in phys: 00:1a:7d:da:71:13$" \
	"combined.jsonl:3: node path: /dev/hidraw3" \
	"combined.jsonl:4: keys typed in clear \\(KEY_H first" \
	"combined.jsonl:5: keys typed in clear in the reports of HID device 0"; do
	expect_grep "^touchtape validate: .*$want" "$tmp/findings" "finding: $want"
done
n=$(grep -c '^touchtape validate: ' "$tmp/findings")
[ "$n" -eq 12 ] && pass "12 findings, one line each" || fail "$n findings, want 12"
expect_grep "^.*combined.jsonl: 12 privacy findings$" "$tmp/out" "the count on stdout"

red="$tmp/redacted.jsonl"
expect_exit 0 "convert --redact" -- "$TOUCHTAPE" convert --redact "$in" -o "$red"
expect_exit 0 "the redacted copy has nothing to report" -- "$TOUCHTAPE" validate --privacy "$red"
expect_exit 0 "the redacted copy is valid" -- "$TOUCHTAPE" validate "$red"
if grep -qE 'SN4711|LENOVO|event9|hidraw3|00:1a:7d' "$red"; then
	fail "the redacted copy still holds: $(grep -oE 'SN4711|LENOVO|event9|hidraw3|00:1a:7d' "$red" | sort -u | tr '\n' ' ')"
else
	pass "no serial, DMI string, node path or address left"
fi
expect_grep '"keycodes_masked":true' "$red" "the header says the keys are masked"
expect_grep '"phys":"xx:xx:xx:xx:xx:xx/input0"' "$red" "the address in phys is masked"
# Keys: H and I become the device's first private keys (KEY_1, KEY_2),
# Enter stays; the HID slots: h, i become a, b (usages 4, 5), Enter
# (0x28) stays, the touch report is untouched.
frames=$(grep '"type":"frame"' "$red" | sed 's/.*"ev"://; s/}$//' | tr '\n' ' ')
want='[[1,2,1],[0,0,0]] [[1,3,1],[0,0,0]] [[1,2,0],[1,3,0],[0,0,0]] [[1,28,1],[0,0,0]] '
[ "$frames" = "$want" ] && pass "evdev keys masked, as many presses and releases" ||
	fail "evdev frames: $frames"
reports=$(grep -o '"data":"[0-9a-f]*"' "$red" | tr '\n' ' ')
want='"data":"030000040000000000" "data":"030000040500000000" "data":"030000000000000000" "data":"0101050b0c780601" "data":"030000280000000000" '
[ "$reports" = "$want" ] && pass "HID keys masked, as many held per report, touch untouched" ||
	fail "HID reports: $reports"
# Keys in a masked file are not reported again, nor are placeholders.
expect_exit 0 "a redacted copy redacted again is the same" -- "$TOUCHTAPE" convert --redact "$red" -o "$tmp/twice.jsonl"
cmp -s "$red" "$tmp/twice.jsonl" && pass "redaction is idempotent" || fail "redacting twice differs"
# The evdev keys of a file that says it was masked are trusted.
grep -v '"type":"hid' "$in" | sed 's/"keycodes_masked":false/"keycodes_masked":true/' >"$tmp/masked.jsonl"
"$TOUCHTAPE" validate --privacy "$tmp/masked.jsonl" >/dev/null 2>"$tmp/err"
if grep -q 'keys typed' "$tmp/err"; then fail "keys reported in a masked file"; else pass "masked evdev keys trusted"; fi
# print names the keys a key array holds, never its empty slots (index 0).
"$TOUCHTAPE" print "$in" >"$tmp/print" 2>&1
expect_grep 'Keyboard/0x000b=1 Keyboard/0x000c=1$' "$tmp/print" "print shows the keys held"
if grep -q 'Keyboard/0x0000' "$tmp/print"; then fail "print shows an empty key slot as a key"; else
	pass "print shows no empty key slot"; fi
expect_exit 2 "validate --privacy of a missing file" -- "$TOUCHTAPE" validate --privacy "$tmp/none.jsonl"
finish
