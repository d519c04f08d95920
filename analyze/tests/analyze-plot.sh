#!/bin/sh
# touchtape analyze --plot: one trajectory and one slot/tracking-ID label
# per touch sequence, one red circle per jump, one timeline per touch
# device, axes in mm where the device has a resolution (device units
# otherwise) spanning its full range, a time axis, and a panel of x, y
# and pressure per touch (capped, and the SVG says so). The SVG is valid
# XML and renders to a PNG of its size (rsvg-convert).
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/analyze"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
max_panels=16	# TT_PLOT_MAX_TOUCH_PANELS

count() { grep -o "$1" "$2" | wc -l | tr -d ' '; }
same() { [ "$2" = "$3" ] && pass "$1: $2" || fail "$1: $2, want $3"; }
# The tick labels of one axis, in order.
tick_values() { sed -n "s/.*data-axis=\"$1\"[^>]*>\([-0-9.]*\)<.*/\1/p" "$2"; }

render_check() {
	what=$1 svg=$2
	if command -v xmllint >/dev/null; then
		xmllint --noout "$svg" && pass "$what: valid XML" || fail "$what: xmllint rejects the SVG"
	elif command -v python3 >/dev/null; then
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$svg" &&
			pass "$what: well-formed XML" || fail "$what: not well-formed XML"
	fi
	if ! command -v rsvg-convert >/dev/null; then
		echo "skip: $what: no rsvg-convert (librsvg2-bin)"
		return
	fi
	rsvg-convert "$svg" -o "$tmp/p.png" 2>"$tmp/rsvg.err" && pass "$what: renders" ||
		{ fail "$what: rsvg-convert failed"; cat "$tmp/rsvg.err" >&2; return; }
	# PNG header: width and height, big-endian, at bytes 16-23.
	png=$(od -An -tu1 -j16 -N8 "$tmp/p.png" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }')
	svg_size=$(sed -n 's/^<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1x\2/p' "$svg")
	same "$what: PNG size" "$png" "$svg_size"
}

# The panels are the longest touches (serial: begin order), as analyze
# --json times them.
longest_check() {
	python3 - "$tmp/p.json" "$tmp/p.svg" "$max_panels" <<'EOF' && pass "$1: panels of the longest touches" ||
import json, re, sys
report, svg, most = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), int(sys.argv[3])
drawn = [int(x) for x in re.findall(r'class="title"><tspan fill="[^"]*">touch (\d+) \(', svg)]
t = sorted(report["touches"], key=lambda x: (x["begin_line"], x["begin_us"], x["slot"]))
longest = sorted(range(len(t)), key=lambda i: (-t[i]["duration_us"], i))[:most]
sys.exit(0 if drawn == sorted(i + 1 for i in longest) else 1)
EOF
		fail "$1: the panels are not the $max_panels longest touches"
}

# Every touch label inside the surface it labels (none over an axis or the
# next chart), read from the SVG's geometry: 10 px text, 6.5 px a
# character at most.
labels_check() {
	python3 - "$tmp/p.svg" <<'EOF' && pass "$1: every touch label inside its surface" ||
import re, sys
svg = open(sys.argv[1]).read()
rects = [tuple(float(v) for v in m) for m in re.findall(
    r'<rect class="surface" x="([^"]*)" y="([^"]*)" width="([^"]*)" height="([^"]*)"', svg)]
bad = 0
for x, y, text in re.findall(r'<text class="touch-label" x="([^"]*)" y="([^"]*)"[^>]*>([^<]*)</text>', svg):
    x, y, w = float(x), float(y), 6.5 * len(text)
    if not any(rx <= x and x + w <= rx + rw and ry <= y - 10 and y <= ry + rh for rx, ry, rw, rh in rects):
        bad += 1
sys.exit(1 if bad else 0)
EOF
		fail "$1: a touch label outside its surface"
}

# The timeline on top: its lanes end above the first surface (moved down
# by its group's translate).
timeline_check() {
	python3 - "$tmp/p.svg" <<'EOF' && pass "$1: the timeline above the surfaces" ||
import re, sys
svg = open(sys.argv[1]).read()
lanes = [float(y) for pts in re.findall(r'<polyline class="count"[^>]*points="([^"]*)"', svg)
         for y in re.findall(r',([-0-9.]+)', pts)]
shift = float(re.search(r'<g class="surfaces" transform="translate\(0 ([-0-9.]+)\)"', svg).group(1))
tops = [float(y) + shift for y in re.findall(r'<rect class="surface" x="[^"]*" y="([^"]*)"', svg)]
sys.exit(0 if lanes and tops and max(lanes) < min(tops) else 1)
EOF
		fail "$1: the timeline is not above the surfaces"
}

# Each touch panel's position axis is fitted to its touch: its x and y
# together reach from near the frame's bottom to near its top (a touch
# that moves less than 1/50 of the device excepted), read from the SVG's
# geometry.
fitted_check() {
	python3 - "$tmp/p.svg" <<'EOF' && pass "$1: panel axes fitted to their touch" ||
import re, sys
svg = open(sys.argv[1]).read()
bad = 0
for g in re.findall(r'<g class="touch-panel".*?</g>', svg, re.S):
    frame = re.search(r'<rect class="frame" x="[^"]*" y="([^"]*)" width="[^"]*" height="([^"]*)"', g)
    top, h = float(frame.group(1)), float(frame.group(2))
    ys = [float(y) for cls in ("series-x", "series-y")
          for pts in re.findall(r'<polyline class="%s" points="([^"]*)"' % cls, g)
          for y in re.findall(r',([-0-9.]+)', pts)]
    if ys and (max(ys) - min(ys)) < 0.8 * h:
        bad += 1
sys.exit(1 if bad else 0)
EOF
		fail "$1: a touch panel's axis spans far more than its touch"
}

plot_check() {
	what=$1; shift
	"$TOUCHTAPE" analyze --json --plot "$tmp/p.svg" "$@" >"$tmp/p.json" 2>/dev/null
	touches=$(count '"synthetic_id"' "$tmp/p.json")
	jumps=$(count '"kind":"jump"' "$tmp/p.json")
	devices=$(count '"touch_sequences":[0-9]*,"max_simultaneous"' "$tmp/p.json")
	same "$what: trajectories" "$(count '<polyline class="touch"' "$tmp/p.svg")" "$touches"
	same "$what: touch labels" "$(count '<text class="touch-label"' "$tmp/p.svg")" "$touches"
	same "$what: jumps circled" "$(count '<circle class="jump"' "$tmp/p.svg")" "$jumps"
	same "$what: timelines" "$(count '<polyline class="count"' "$tmp/p.svg")" "$devices"
	panels=$((touches < max_panels ? touches : max_panels))
	same "$what: touch panels" "$(count '<g class="touch-panel"' "$tmp/p.svg")" "$panels"
	same "$what: x series" "$(count '<polyline class="series-x"' "$tmp/p.svg")" "$panels"
	if [ "$touches" -gt "$max_panels" ]; then
		expect_grep "$((touches - max_panels)) more touches without a panel.*the $max_panels longest of $touches" \
			"$tmp/p.svg" "$what: says how many touches have no panel"
		longest_check "$what"
	fi
	[ "$(tick_values time "$tmp/p.svg" | wc -l)" -ge 3 ] && pass "$what: time axis ticks" ||
		fail "$what: fewer than 3 time ticks"
	expect_grep '>time \(s\)</text>' "$tmp/p.svg" "$what: time axis title"
	labels_check "$what"
	timeline_check "$what"
	render_check "$what" "$tmp/p.svg"
}

# The surface frame is the device's full range: in mm, the x ticks run
# from 0 to within one step of the width in mm.
mm_check() {
	what=$1 file=$2
	res=$(jq -r 'select(.type=="device") | .absinfo.ABS_MT_POSITION_X | "\(.max - .min) \(.resolution)"' "$file" | head -1)
	width_mm=$(echo "$res" | awk '{ printf "%d", $1 / $2 }')
	"$TOUCHTAPE" analyze --plot "$tmp/mm.svg" "$file" >/dev/null 2>&1
	expect_grep '>x \(mm\)</text>' "$tmp/mm.svg" "$what: x axis in mm"
	expect_grep '>y \(mm\)</text>' "$tmp/mm.svg" "$what: y axis in mm"
	first=$(tick_values x "$tmp/mm.svg" | head -1)
	step=$(tick_values x "$tmp/mm.svg" | sed -n 2p)
	last=$(tick_values x "$tmp/mm.svg" | tail -1)
	same "$what: x ticks start at" "$first" 0
	if [ "$last" -le "$width_mm" ] && [ "$((last + step))" -gt "$width_mm" ]; then
		pass "$what: x ticks reach $last of $width_mm mm"
	else
		fail "$what: last x tick $last (step $step), the surface is $width_mm mm"
	fi
	expect_grep "full range, $width_mm \\S+ [0-9]+ mm" "$tmp/mm.svg" "$what: title gives the size in mm"
	# Pressure has a right-hand axis in the touch panels.
	[ "$(tick_values touch-pressure "$tmp/mm.svg" | wc -l)" -ge 2 ] && pass "$what: pressure axis" ||
		fail "$what: no pressure ticks"
}

plot_check "jump sample" "$data/jump-yes.jsonl"
plot_check "Type A pairing" "$data/type-a-pairing.jsonl"
expect_grep '<text class="touch-label"[^>]*>touch [0-9]+ · slot [0-9]+</text>' "$tmp/p.svg" \
	"Type A: labelled with the touch number and slot"
plot_check "3M sample" "$samples/3m-two-finger.jsonl"
expect_grep '>x \(device units\)</text>' "$tmp/p.svg" "3M sample: no resolution, device units"
for id in $(jq -r 'select(.type=="frame") | .ev[] | select(.[1]==57 or .[1]=="ABS_MT_TRACKING_ID") | .[2]' \
		"$samples/3m-two-finger.jsonl" 2>/dev/null | grep -v '^-1$' | sort -u); do
	expect_grep "<text class=\"touch-label\"[^>]*>slot [0-9]+ · ID $id</text>" "$tmp/p.svg" "3M sample: tracking ID $id labelled"
done
plot_check "touchpad sample" "$samples/touchpad-two-finger-swipe.jsonl"
mm_check "touchpad sample" "$samples/touchpad-two-finger-swipe.jsonl"
# A device name with XML metacharacters.
sed 's/"name":"test touchscreen"/"name":"<b>\&amp; \\"x\\"<\/b>"/' "$data/jump-yes.jsonl" >"$tmp/name.jsonl"
plot_check "hostile name" "$tmp/name.jsonl"
if [ -d "$corpus" ]; then
	plot_check "3M 10-finger" "$corpus/evemu/evemu__data_3m.event"
fitted_check "3M 10-finger"
	plot_check "bcm5974 with --jump-units" --jump-units 150 "$corpus/evemu/evemu__data_bcm5974.event"
fi
expect_exit 2 "unwritable plot path" -- "$TOUCHTAPE" analyze --plot /nonexistent/dir/x.svg "$data/jump-no.jsonl"
finish
