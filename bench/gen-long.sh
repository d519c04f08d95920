#!/bin/sh
# Builds a long recording from a short evemu one by concatenating copies of
# its events, each copy shifted to start one gap after the previous copy's
# end. Events after the last SYN_REPORT of the source (a frame cut short) are
# dropped so every copy ends on a complete frame.
#
# Usage: gen-long.sh SRC.evemu COPIES GAP_US > OUT.evemu
# The description (every line before the first E: line) is kept once.
set -eu
src=$1
copies=$2
gap_us=${3:-1000000}

exec awk -v copies="$copies" -v gap="$gap_us" '
function ev(u, a, b, v) { printf "E: %d.%06d %s %s %d\n", int(u / 1000000), u % 1000000, a, b, v }
function us(s,   p) { p = index(s, "."); return substr(s, 1, p - 1) * 1000000 + substr(s, p + 1) }
/^E: / {
	n++
	t[n] = us($2); ty[n] = $3; co[n] = $4; va[n] = $5
	if ($3 == "0000" && $4 == "0000") last = n
	next
}
n == 0 { print; next }
END {
	if (last == 0) { print "gen-long: no SYN_REPORT in the source" > "/dev/stderr"; exit 1 }
	t0 = t[1]
	span = t[last] - t0 + gap
	# The slots still active and BTN_TOUCH at the end of the source.
	slot = 0
	for (i = 1; i <= last; i++) {
		if (ty[i] != "0003" && ty[i] != "0001") continue
		if (ty[i] == "0003" && co[i] == "002f") slot = va[i] + 0
		else if (ty[i] == "0003" && co[i] == "0039") active[slot] = (va[i] + 0 >= 0)
		else if (ty[i] == "0001" && co[i] == "014a") touch = va[i] + 0
	}
	for (k = 0; k < copies; k++) {
		off = k * span
		for (i = 1; i <= last; i++) {
			u = t[i] + off
			printf "E: %d.%06d %s %s %s\n", int(u / 1000000), u % 1000000, ty[i], co[i], va[i]
		}
		u = t[last] + off + int(gap / 2)
		lifted = 0
		for (s in active) if (active[s]) {
			ev(u, "0003", "002f", s); ev(u, "0003", "0039", -1); lifted = 1
		}
		if (lifted || slot != 0) ev(u, "0003", "002f", 0)
		if (touch) ev(u, "0001", "014a", 0)
		if (lifted || slot != 0 || touch) ev(u, "0000", "0000", 0)
	}
}' "$src"
