#!/bin/sh
# Golden screens of the inspector: the UI rendered headless
# (TOUCHTAPE_INSPECT_HEADLESS=COLSxROWS) and driven by a key script
# (TOUCHTAPE_INSPECT_KEYS), compared with inspect/tests/golden/NAME.txt.
#
# After an intended change of the UI, regenerate the goldens and review
# the diff before committing:
#   TT_UPDATE_GOLDEN=1 make check TESTS=inspect/tests/headless.sh
# (or run this script with TT_UPDATE_GOLDEN=1 from the build directory).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

golden="$abs_top_srcdir/inspect/tests/golden"
data="$abs_top_srcdir/inspect/tests/data"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"

# screen NAME SIZE KEYS FILE: FILE's name is shown relative to the data dir
# so goldens do not depend on where the tree is.
screen() {
	local name=$1 size=$2 keys=$3 file=$4
	(cd "$(dirname "$file")" && TOUCHTAPE_INSPECT_HEADLESS=$size TOUCHTAPE_INSPECT_KEYS=$keys \
		"$TOUCHTAPE" inspect "$(basename "$file")") >"$tmp/$name.txt" 2>"$tmp/$name.err"
	local rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: exit $rc"; sed 's/^/  | /' "$tmp/$name.err" >&2; return
	fi
	if [ -n "${TT_UPDATE_GOLDEN:-}" ]; then
		cp "$tmp/$name.txt" "$golden/$name.txt"; pass "$name (golden written)"; return
	fi
	if diff -u "$golden/$name.txt" "$tmp/$name.txt" >"$tmp/$name.diff"; then
		pass "$name"
	else
		fail "$name: screen differs from $golden/$name.txt (TT_UPDATE_GOLDEN=1 regenerates)"
		head -60 "$tmp/$name.diff" >&2
	fi
}

own="$data/ownership.jsonl"
# The first screen, then down to touch 1's XI lanes, step by frame.
screen first 100x30 '<Dump>jj<Right><Right><Right>' "$own"
# Ownership changes: the grab's accept, zoomed in on it.
screen ownership 110x32 'ww<Dump>w++' "$own"
# Anomalies, the device filter and the source filter.
screen filters 100x30 'a<Dump>d<Dump>dds' "$own"
# Search by tracking ID, then the touch's next event; search by time.
screen search 100x30 '/#12<Enter>L<Dump>/@0.05<Enter>' "$own"
# Help, resize to a small terminal and back.
screen help 100x30 '?<Dump>x<Resize:60x12><Dump><Resize:120x40>' "$own"
# Two layers: HID contacts under the kernel touches they became (with the
# latency), the one no kernel touch came of, the HID source alone, then
# the HID device's filter.
screen hid 100x24 '<Dump>j<Dump>jj<Dump>sss<Dump>ssdd' "$data/hid-two-layer.jsonl"
# A real Type B recording from the corpus, zoomed out, then into the second touch.
atmel="$corpus/evemu/evemu-devices__touchscreens_Atmel maXTouch Touchscreen.4-finger-drag-down.events"
if [ -f "$atmel" ]; then
	screen atmel 100x30 'jjL<Right><Right>+' "$atmel"
else
	echo "corpus not found: atmel screen skipped"
fi
finish
