#!/bin/sh
# touchtape analyze --plot: one trajectory per touch sequence, one red
# circle per jump, one timeline per touch device, well-formed SVG.
. "${abs_top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/analyze"
corpus="${TT_CORPUS:-$abs_top_srcdir/../shared/corpus}"

count() { grep -o "$1" "$2" | wc -l | tr -d ' '; }

plot_check() {
	what=$1; shift
	"$TOUCHTAPE" analyze --json --plot "$tmp/p.svg" "$@" >"$tmp/p.json" 2>/dev/null
	touches=$(count '"synthetic_id"' "$tmp/p.json")
	jumps=$(count '"kind":"jump"' "$tmp/p.json")
	devices=$(count '"touch_sequences":[0-9]*,"max_simultaneous"' "$tmp/p.json")
	[ "$(count '<polyline class="touch"' "$tmp/p.svg")" = "$touches" ] &&
		pass "$what: $touches trajectories" || fail "$what: trajectories $(count '<polyline class="touch"' "$tmp/p.svg"), touches $touches"
	[ "$(count '<circle class="jump"' "$tmp/p.svg")" = "$jumps" ] &&
		pass "$what: $jumps jumps circled" || fail "$what: jump circles $(count '<circle class="jump"' "$tmp/p.svg"), jumps $jumps"
	[ "$(count '<polyline class="count"' "$tmp/p.svg")" = "$devices" ] &&
		pass "$what: $devices timeline(s)" || fail "$what: timelines $(count '<polyline class="count"' "$tmp/p.svg"), devices $devices"
	if command -v python3 >/dev/null; then
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/p.svg" &&
			pass "$what: well-formed XML" || fail "$what: not well-formed XML"
	fi
}

plot_check "jump sample" "$data/jump-yes.jsonl"
plot_check "Type A pairing" "$data/type-a-pairing.jsonl"
# A device name with XML metacharacters.
sed 's/"name":"test touchscreen"/"name":"<b>\&amp; \\"x\\"<\/b>"/' "$data/jump-yes.jsonl" >"$tmp/name.jsonl"
plot_check "hostile name" "$tmp/name.jsonl"
if [ -d "$corpus" ]; then
	plot_check "3M 10-finger" "$corpus/evemu/evemu__data_3m.event"
	plot_check "bcm5974 with --jump-units" --jump-units 150 "$corpus/evemu/evemu__data_bcm5974.event"
fi
expect_exit 2 "unwritable plot path" -- "$TOUCHTAPE" analyze --plot /nonexistent/dir/x.svg "$data/jump-no.jsonl"
finish
