#!/bin/bash
# replay --hid against the kernel's own HID drivers (tests/vm/run), in one
# VM boot: the hid-recorder files of the corpus that hold reports
# ($TT_CORPUS/hid-recorder/) replayed through uhid, with idle gaps cut to
# 50 ms (a few seconds each):
#  1. the kernel binds the driver the device had and makes the evdev
#     devices expected of it (names; MT slots for the touchpads and the
#     touchscreen, BTN_TOOL_PEN for the pen);
#  2. touchtape record on the touch node during the replay gets the
#     driver's frames, which validate, print and analyze read;
#  3. a touchpad and the touchscreen replayed twice: touchtape diff of the
#     two recordings exits 0 (the same kernel touch sequences);
#  4. --verify: the touchscreen's recording of (2), made with record --hid
#     (both layers), replays with no unexplained difference (exit 0); the
#     same with one recorded position changed fails (exit 1) naming the
#     frame; a HID-only recording says there is nothing to compare (exit 0).
# The project's own touchscreen (with a keyboard) and touchpad
# (tests/corpus/make-hid.py) always run; the real recordings (ELAN,
# Synaptics, ILITEK, a Wacom pen) run when the corpus has them ($TT_CORPUS:
# their licence keeps them out of tests/corpus). Skipped (77) when QEMU
# cannot start.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 400
. "$abs_top_srcdir/replay/tests/hid-vm-lib.sh"

T=$TOUCHTAPE
corpus=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/hid-recorder
own=$abs_top_srcdir/tests/corpus/hid-recorder
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

# KEY: file, driver, the evdev device to record, what it must have.
declare -A file=(
	[elan]=elan1206-04f3-30f1-touchpad.hid
	[synaptics]=synaptics-dll0945-06cb-ce26-touchpad.hid
	[ilitek]=ilitek-iltp7807-222a-fff1-touchscreen.hid
	[pen]="wacom-hid-descriptors__Wacom PenPartner_hidrecord.txt"
	[ts]=$own/touchtape-touchscreen-keyboard.hid
	[tp]=$own/touchtape-touchpad.hid
)
declare -A driver=([elan]=hid-multitouch [synaptics]=hid-multitouch [ilitek]=hid-multitouch [pen]=wacom
	[ts]=hid-multitouch [tp]=hid-multitouch)
declare -A evname=(
	[elan]="ELAN1206:00 04F3:30F1 Touchpad"
	[synaptics]="DLL0945:00 06CB:CE26 Touchpad"
	[ilitek]="ILTP7807:00 222A:FFF1"
	[pen]="Wacom PenStation2 Pen"
	[ts]="touchtape-ts 1D6B:7701"
	[tp]="touchtape-tp 1D6B:7702"
)
declare -A has=([elan]='"slots":[0-9]' [synaptics]='"slots":[0-9]' [ilitek]='"slots":[0-9]' [pen]='"BTN_TOOL_PEN"'
	[ts]='"slots":[0-9]' [tp]='"slots":[0-9]')

# The touchscreens are recorded at both layers, for --verify.
declare -A recopts=([ilitek]=--hid [ts]=--hid)

# path KEY: KEY's file (the own files are named by their full path).
path() { [[ ${file[$1]} == /* ]] && echo "${file[$1]}" || echo "$corpus/${file[$1]}"; }
keys=(ts tp)
if [[ -f $corpus/${file[ilitek]} ]]; then
	keys+=(elan synaptics ilitek pen)
else
	note "the real touchpads', touchscreen's and pen's hid-recorder files are not in tests/corpus (their licence is unclear); TT_CORPUS=the public corpus runs them too"
fi

hid_modules

# replay_recorded KEY RUN [options]: replays KEY's file, recording its
# touch node into $tmp/KEY-RUN.jsonl.
replay_recorded() {
	local key=$1 run=$2 src=${3:-$(path "$1")} out=$tmp/$1-$2.jsonl
	shift 3 2>/dev/null || shift $#
	hid_start "$key-$run" "$src" --max-gap 50ms "$@"
	if ! hid_node "$key-$run" "${evname[$key]}"; then
		bad "$key-$run: no evdev device \"${evname[$key]}\": $(tr '\n' ' ' <"$tmp/$key-$run.log")"
		kill "$hpid" 2>/dev/null; wait "$hpid"; return 1
	fi
	rec_start "$out" "$node" ${recopts[$key]:-}
	hid_go
	rec_stop
	[[ $hrc == 0 ]] || { bad "$key-$run: replay exit $hrc: $(tail -n 5 "$tmp/$key-$run.log")"; return 1; }
}

for key in "${keys[@]}"; do
	replay_recorded "$key" 1 || continue
	log=$tmp/$key-1.log rec=$tmp/$key-1.jsonl
	grep -q "driver ${driver[$key]}: " "$log" && ok "$key: bound to ${driver[$key]}" ||
		bad "$key: not bound to ${driver[$key]}: $(cat "$log")"
	grep -q '"type":"device"' "$rec" && grep -q -- "${has[$key]}" "$rec" &&
		ok "$key: \"${evname[$key]}\" has ${has[$key]}" || bad "$key: \"${evname[$key]}\" lacks ${has[$key]}"
	frames=$(grep -c '"type":"frame"' "$rec")
	reports=$(grep -c '^E:' "$(path "$key")")
	((frames > 0)) && ok "$key: $reports reports made $frames frames" || bad "$key: no frame from $reports reports"
	if [[ $key != pen ]]; then
		grep -q '\[3,57,[0-9]' "$rec" && ok "$key: contacts begin" || bad "$key: no tracking id"
		"$T" print "$rec" >"$tmp/$key.print" 2>&1 && grep -q ABS_MT_POSITION_X "$tmp/$key.print" &&
			ok "$key: print shows the contacts" || bad "$key: print: $(head -5 "$tmp/$key.print")"
	fi
	# The driver's output has what the device sent: the synaptics
	# recording (a ghost-finger report) has a jump, a finding (exit 1).
	"$T" validate "$rec" >"$tmp/$key.validate" 2>&1
	rc=$?
	[[ $rc == 0 || $rc == 1 ]] && grep -q 'touchtape timeline, [0-9]* records' "$tmp/$key.validate" &&
		ok "$key: validate exit $rc: $(tail -n 1 "$tmp/$key.validate")" ||
		bad "$key: validate exit $rc: $(head -5 "$tmp/$key.validate")"
	"$T" analyze "$rec" >"$tmp/$key.analyze" 2>&1
	rc=$?
	[[ $rc == 0 || $rc == 1 ]] && ok "$key: analyze exit $rc" || bad "$key: analyze exit $rc: $(head -5 "$tmp/$key.analyze")"
done

# Twice: the same touch sequences each time. Not the synaptics touchpad:
# its recording (a ghost-finger report) leaves contacts to
# hid-multitouch's sticky-finger timer (100 ms after the last report), so
# when they end depends on how late each report comes.
for key in elan ilitek ts tp; do
	[[ -s $tmp/$key-1.jsonl ]] || continue
	replay_recorded "$key" 2 || continue
	if "$T" diff "$tmp/$key-1.jsonl" "$tmp/$key-2.jsonl" >"$tmp/$key.diff" 2>&1; then
		ok "$key: replayed twice, diff exit 0"
	else
		bad "$key: the second replay differs: $(head -20 "$tmp/$key.diff")"
	fi
done

# --verify: the recording of both layers, as made (the replayed device's
# HID reports and the frames its driver made of them).
change() { # IN OUT: one position of the 20th frame changed
	/usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
n = 0
with open(sys.argv[2], "w") as out:
    for line in open(sys.argv[1]):
        r = json.loads(line)
        if r.get("type") == "frame":
            n += 1
            if n == 21:
                for e in r["ev"]:
                    if e[0] == 3 and e[1] == 53:
                        e[2] += 7
                        break
        out.write(json.dumps(r, separators=(",", ":")) + "\n")
PY
}
for key in ilitek ts; do
	both=$tmp/$key-1.jsonl
	[[ -s $both ]] || continue
	# Both HID devices make a touchscreen and a keyboard: record --hid
	# records every evdev device of it (issue 34, point 15), the first is 0.
	grep -q '"type":"hid_device".*"evdev":\[0[],]' "$both" && grep -q '"type":"hid"' "$both" &&
		ok "$key: record --hid: both layers, the HID device linked to its evdev devices" ||
		bad "$key: record --hid: no linked hid_device or no hid record: $(grep -v '"type":"\(frame\|hid\)"' "$both" | head -c 600)"
	"$T" replay --hid --verify --max-gap 50ms "$both" >"$tmp/$key-verify.log" 2>&1
	rc=$?
	if [[ $rc == 0 ]] && grep -q ' 0 unexplained differences' "$tmp/$key-verify.log"; then
		ok "$key: --verify: $(grep '^verify:' "$tmp/$key-verify.log")"
	else
		bad "$key: --verify exit $rc: $(head -30 "$tmp/$key-verify.log")"
	fi
	change "$both" "$tmp/$key-changed.jsonl"
	"$T" replay --hid --verify --max-gap 50ms "$tmp/$key-changed.jsonl" >"$tmp/$key-changed.log" 2>&1
	rc=$?
	if [[ $rc == 1 ]] && grep -q 'line [0-9]*: device 0 frame 20 differs' "$tmp/$key-changed.log"; then
		ok "$key: --verify finds a changed frame: exit 1"
	else
		bad "$key: --verify with a changed frame: exit $rc: $(head -30 "$tmp/$key-changed.log")"
	fi
	hid_timeline "$(path "$key")" "$tmp/$key-hid.jsonl"
	"$T" replay --hid --verify --max-gap 50ms "$tmp/$key-hid.jsonl" >"$tmp/$key-hidonly.log" 2>&1
	rc=$?
	[[ $rc == 0 ]] && grep -q 'nothing to compare' "$tmp/$key-hidonly.log" &&
		ok "$key: --verify of a HID-only recording: nothing to compare, exit 0" ||
		bad "$key: --verify of a HID-only recording: exit $rc: $(cat "$tmp/$key-hidonly.log")"
done

if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: replay --hid through uhid"
