#!/bin/bash
# Both layers end to end (tests/vm/run), in one VM boot: a touchscreen's
# hid-recorder file (the real ILITEK one, $TT_CORPUS/hid-recorder/ilitek-*,
# when the corpus has it, else the project's own,
# tests/corpus/hid-recorder/touchtape-touchscreen-keyboard.hid) replayed through uhid, so the kernel's hid-multitouch makes the evdev
# device, while touchtape record --hid records that node and its hidraw
# node: a recording of HID reports and the evdev frames they became.
#  1. validate exits 0; analyze --json links every HID contact to a kernel
#     touch, as many contacts as the file's reports hold (counted from its
#     E: lines here), with latencies in the link's window, from -20 ms
#     (hidraw has no kernel timestamp: the recorder stamps a report when
#     it reads it, after the kernel stamped the evdev frame, so a latency
#     is slightly negative; analyze(1) says so) to 100 ms; print decodes the
#     reports (contact ID, tip, X, Y); inspect --summary shows the HID
#     device linked to its kernel touches;
#  2. that recording replayed with --hid and recorded again gives the same
#     evdev touch sequences (diff exit 0), and replay --hid --verify
#     --report of it exits 0, its JSON report saying what the text says.
# Skipped (77) when QEMU cannot start.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 200
. "$abs_top_srcdir/replay/tests/hid-vm-lib.sh"

T=$TOUCHTAPE
corpus=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}
src=$(ls "$corpus"/hid-recorder/ilitek-*.hid 2>/dev/null | head -n1)
# The layout of report 1 (bytes counted from the report ID, byte 0): the
# first contact's byte, the bytes a contact takes, then within a contact
# the flags byte, its tip switch bit, the shift and mask of the contact
# ID, the X and Y (16 bits, little-endian) bytes; the Contact Count byte;
# the contacts a report holds; the Confidence bit in the flags (-1: none).
# The ILITEK: 4 bytes, 10 contacts of 6 (X, Y, a pad byte, then tip switch
# in bit 0 and the contact ID in bits 1-4) and, at byte 80, the count.
layout="5 6 5 0 1 15 0 2 80 10 -1"
evname="ILTP7807:00 222A:FFF1"
if [[ ! -f $src ]]; then
	note "the ILITEK hid-recorder file is not in tests/corpus (its licence is unclear; TT_CORPUS=the public corpus runs it): the project's own touchscreen instead"
	src=$abs_top_srcdir/tests/corpus/hid-recorder/touchtape-touchscreen-keyboard.hid
	# make-hid.py's: 2 contacts of 5 (In Range bit 0, Confidence bit 1,
	# tip switch bit 2, the contact ID in bits 3-7, then X, Y) and, at
	# byte 13 after the Scan Time, the count.
	layout="1 5 0 2 3 31 1 3 13 2 1"
	evname="touchtape-ts 1D6B:7701"
fi
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

modprobe -a uhid hid-multitouch || fail "cannot load uhid and hid-multitouch"
[[ -c /dev/uhid ]] || fail "no /dev/uhid after modprobe uhid"

# replay_record KEY FILE [record options...]: replay --hid of FILE while
# touchtape record (with the options) records the touchscreen node the
# kernel made into $tmp/KEY.jsonl.
replay_record() {
	local key=$1 file=$2 out=$tmp/$1.jsonl
	shift 2
	hid_start "$key" "$file" --max-gap 50ms
	if ! hid_node "$key" "$evname"; then
		bad "$key: no evdev device \"$evname\": $(tr '\n' ' ' <"$tmp/$key.log")"
		kill "$hpid" 2>/dev/null; wait "$hpid"; return 1
	fi
	"$T" record -q "$@" -o "$out" "$node" 2>"$out.err" &
	rpid=$!
	_rec_up() { grep -qs '"kind":"start"' "$out" || ! kill -0 "$rpid" 2>/dev/null; }
	wait_for 30 _rec_up
	hid_go
	rec_stop
	[[ $hrc == 0 ]] || { bad "$key: replay exit $hrc: $(tail -n 5 "$tmp/$key.log")"; return 1; }
	grep -q '"type":"frame"' "$out" || { bad "$key: no frame recorded: $(cat "$out.err")"; return 1; }
}

# The touches in the file's reports, counted from its E: lines (report 1,
# $layout); a touch begins where a contact ID comes down.
expected_touches() {
	"$py" - "$1" $layout <<'PY'
import sys
start, size, fl, tip, shift, mask, _, _, count, slots, _ = map(int, sys.argv[2:])
touches, down = 0, set()
for line in open(sys.argv[1]):
    if not line.startswith("E:"):
        continue
    b = bytes(int(x, 16) for x in line.split()[3:])
    if b[0] != 1:
        continue
    now = set()
    for i in range(min(b[count], slots)):
        flags = b[start + size * i + fl]
        if flags >> tip & 1:
            now.add(flags >> shift & mask)
    touches += len(now - down)
    down = now
print(touches)
PY
}

# 1. The two-layer recording, and what each command shows of it.
replay_record first "$src" --hid || fail "no two-layer recording"
rec=$tmp/first.jsonl
want=$(expected_touches "$src")
note "$want touches in $(grep -c '^E:' "$src") reports of ${src##*/}"
grep -q '"type":"hid_device"' "$rec" && grep -q '"type":"hid"' "$rec" &&
	ok "record --hid: hid_device and hid records" || bad "record --hid wrote no HID records: $(cat "$rec.err")"

"$T" validate "$rec" >"$tmp/validate" 2>&1 && ok "validate exit 0" ||
	bad "validate exit $?: $(head -5 "$tmp/validate")"

"$T" analyze --json "$rec" >"$tmp/analyze.json" 2>"$tmp/analyze.err"
rc=$?
if [[ $rc == 0 || $rc == 1 ]] && msg=$("$py" - "$tmp/analyze.json" "$want" "$rec" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
lines = open(sys.argv[3]).read().split("\n")
t_at = lambda n: json.loads(lines[n - 1])["t"]
err = []
hids = a["hid_devices"]
if len(hids) != 1:
    err.append("%d HID devices" % len(hids))
touches = [t for t in a["touches"] if t["device"] in {d["id"] for d in a["devices"]}]
linked = [t for t in touches if t["hid_link"] == "linked" and t["hid"]]
lat = [t["hid"]["latency_us"] for t in linked]
if len(touches) != want:
    err.append("%d kernel touches, %d contacts in the reports" % (len(touches), want))
for h in hids:
    l = h["links"]
    if h["contacts"] != want:
        err.append("HID device: %d contacts, the reports hold %d" % (h["contacts"], want))
    if l["linked"] != h["contacts"] or l["not_delivered"]:
        err.append("HID links: %d linked, %d not delivered of %d contacts" % (l["linked"], l["not_delivered"], h["contacts"]))
    for k in ("median_latency_us", "p95_latency_us"):
        if not isinstance(l[k], int) or not -20000 <= l[k] < 100000:
            err.append("%s %r" % (k, l[k]))
if len(linked) != len(touches):
    err.append("%d of %d kernel touches linked to a HID contact" % (len(linked), len(touches)))
bad = [x for x in lat if not -20000 <= x < 100000]
# Each latency from the two lines it names: the kernel touch's first frame
# and the HID report its contact began in.
for t in linked:
    mine = t_at(t["begin_line"]) - t_at(t["hid"]["line"])
    if mine != t["hid"]["latency_us"]:
        err.append("touch at line %d: latency %d, its lines say %d" % (t["begin_line"], t["hid"]["latency_us"], mine))
if bad:
    err.append("touch latencies out of range: %r" % bad[:5])
if err:
    print("; ".join(err))
    sys.exit(1)
print("%d contacts linked, latency median %d us, p95 %d us" % (
    len(linked), hids[0]["links"]["median_latency_us"], hids[0]["links"]["p95_latency_us"]))
PY
); then
	ok "analyze --json: $msg"
else
	bad "analyze --json exit $rc: ${msg:-$(head -5 "$tmp/analyze.err")}"
fi

# print: the first report, decoded. Its first contact, read from the raw
# bytes here: tip switch 1, contact ID 0, X and Y little-endian (and
# Confidence, where the layout has it).
"$T" print "$rec" >"$tmp/print" 2>&1 || bad "print exit $?: $(head -5 "$tmp/print")"
first=$(grep -m1 '"type":"hid"' "$rec" | "$py" -c '
import json, sys
start, size, fl, tip, shift, mask, x, y, _, _, conf = map(int, sys.argv[1:])
r = json.loads(sys.stdin.read())
b = bytes.fromhex(r["data"]) if isinstance(r["data"], str) else bytes(r["data"])
c = b[start:start + size]
print(c[x] | c[x + 1] << 8, c[y] | c[y + 1] << 8, c[fl] >> tip & 1, c[fl] >> shift & mask,
      "" if conf < 0 else " conf=%d" % (c[fl] >> conf & 1))' $layout)
read -r x y tip cid conf <<<"$first"
note "first report's first contact: id $cid tip $tip x $x y $y"
hidline=$(grep -m1 ' hid[0-9]* ' "$tmp/print")
if grep -q "| contact=$cid tip=$tip x=$x y=$y${conf:+ $conf} |" <<<"$hidline"; then
	ok "print decodes the reports: $hidline"
else
	bad "print: no decoded contact id $cid tip $tip x $x y $y: $(grep -m3 -i -B2 -A2 'hid' "$tmp/print")"
fi

"$T" inspect --summary "$rec" >"$tmp/summary" 2>&1 || bad "inspect --summary exit $?: $(head -5 "$tmp/summary")"
if grep -q "HID device 0 \"$evname\"" "$tmp/summary" &&
	grep -Eq "HID to kernel: $want contacts linked \(latency median" "$tmp/summary" &&
	grep -Eq 'evdev devices? [0-9]' "$tmp/summary"; then
	ok "inspect --summary: $(grep 'HID to kernel' "$tmp/summary")"
else
	bad "inspect --summary does not show $want HID contacts linked: $(cat "$tmp/summary")"
fi

# inspect's screen, headless: each kernel touch has its HID contact in a
# lane under it (with the latency), and no HID contact stands alone.
(cd "$tmp" && TOUCHTAPE_INSPECT_HEADLESS=140x40 TOUCHTAPE_INSPECT_KEYS='<Dump>' "$T" inspect first.jsonl) \
	>"$tmp/screens" 2>&1 || bad "inspect headless exit $?: $(head -5 "$tmp/screens")"
awk '/^=== screen/ { n++ } n == 1' "$tmp/screens" >"$tmp/screen"
alone=$(grep -Ec '^(> | )hid0 c[0-9]+ ' "$tmp/screen")
# The lanes' latencies, signed, against analyze's, touch by touch.
if msg=$("$py" - "$tmp/screen" "$tmp/analyze.json" "$want" <<'PY'
import json, re, sys
lanes = re.findall(r"^(?:> |  )`hid0 c\d+ ([-+])([\d.]+)(us|ms|s) ", open(sys.argv[1]).read(), re.M)
scale = {"us": 1, "ms": 1e3, "s": 1e6}
got = [(-1 if s == "-" else 1) * float(v) * scale[u] for s, v, u in lanes]
a = json.load(open(sys.argv[2]))
lat = [t["hid"]["latency_us"] for t in sorted(a["touches"], key=lambda t: t["begin_us"]) if t["hid"]]
if len(got) != int(sys.argv[3]) or len(got) != len(lat) or \
        any(abs(g - l) > max(1, abs(l) * 0.01) for g, l in zip(got, lat)):
    print("lanes say %r, analyze %r" % (got, lat))
    sys.exit(1)
print("%d HID lanes under their kernel touches, latencies %s" % (len(got), " ".join("%+dus" % l for l in lat)))
PY
) && ((alone == 0)); then
	ok "inspect: $msg"
else
	bad "inspect: $msg; $alone HID lanes alone: $(head -12 "$tmp/screen")"
fi

# 2. The two-layer recording replayed at the HID layer: the kernel makes
# the same touches again, and --verify says so. Recorded with --hid like
# the first, so both hold every evdev device of the HID device (the
# keyboard beside the touchscreen) and its reports.
if replay_record second "$rec" --hid; then
	if "$T" diff "$rec" "$tmp/second.jsonl" >"$tmp/diff" 2>&1; then
		ok "replayed at the HID layer and re-recorded: diff exit 0"
	else
		bad "the re-recording differs (diff exit $?): $(head -20 "$tmp/diff")"
	fi
fi
"$T" replay --hid --verify --max-gap 50ms --report "$tmp/report.json" "$rec" >"$tmp/verify" 2>&1
rc=$?
if [[ $rc == 0 ]] && grep -q ' 0 unexplained differences' "$tmp/verify"; then
	ok "replay --hid --verify: $(grep '^verify:' "$tmp/verify")"
else
	bad "replay --hid --verify exit $rc: $(head -30 "$tmp/verify")"
fi
# --report, as the evdev replay writes it: the counts, the lateness, and
# --verify's comparison, which agrees with the text.
if /usr/bin/python3 - "$tmp/report.json" "$tmp/verify" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
m = re.search(r"replayed (\d+) HID reports? in 1 loop", text)
assert m and r["frames_written"] == int(m.group(1)) > 0, (r, text)
assert r["loops"] == 1 and r["lateness"]["max_us"] >= r["lateness"]["median_us"] >= 0, r
v = r["verify"]
assert v["devices_compared"] >= 1 and v["unexplained"] == 0, v
assert v["expected_frames"] > 0 and v["delivered_frames"] > 0, v
PY
then
	ok "replay --hid --report: $(head -c 300 "$tmp/report.json")"
else
	bad "replay --hid --report: $(cat "$tmp/report.json" 2>&1 | head -c 600)"
fi

if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: HID and evdev layers linked, replayed and verified"
