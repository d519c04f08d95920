#!/bin/sh
# touchtape analyze: its numbers against values counted another way.
# 1. An awk counter over the evemu E: lines (frames, events, touch
#    sequences from tracking IDs, contacts per frame for Type A, slots,
#    the median frame interval while touching) on the 10-finger 3M
#    recording (Type B), N-Trig and bcm5974 (Type A).
# 2. max_simultaneous_touches that the corpus's own script computed
#    (SOURCES.tsv) for every MT evemu recording in the corpus.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
[ -d "$corpus" ] || { echo "no corpus at $corpus: skipped"; exit 77; }

# Prints: frames events sequences max_touches slots_used median_interval_us
count() {
	awk -v typeA="$2" '
	BEGIN { slot = 0 }
	function endframe() {
		frames++
		if (typeA) {
			n = mt ? c : (touchup ? 0 : prevn)
			if (n > prevn) seq += n - prevn
		} else {
			n = act
		}
		if (frames > 1 && prevn > 0 && n > 0) iv[++niv] = t - last
		if (n > maxn) maxn = n
		if (typeA) for (i = 0; i < n; i++) used[i] = 1
		prevn = n; c = 0; mt = 0; touchup = 0; pending = 0; last = t
	}
	$1 == "E:" {
		split($2, ts, "."); t = ts[1] * 1000000 + ts[2]
		ty = $3; co = $4; v = $5 + 0; events++; pending = 1
		if (ty == "0003" && co == "002f") slot = v
		else if (ty == "0003" && co == "0039" && !typeA) {
			if (v == -1) { if ((slot in id) && id[slot] != -1) act--; id[slot] = -1 }
			else { if (!(slot in id) || id[slot] == -1) act++; if (!(slot in id) || id[slot] != v) seq++; id[slot] = v; used[slot] = 1 }
		}
		else if (ty == "0003" && (co == "0030" || co == "003a")) { mt = 1; zero = (v == 0) }
		else if (ty == "0003" && co >= "0030" && co <= "003d") mt = 1
		else if (ty == "0001" && co == "014a" && v == 0) touchup = 1
		else if (ty == "0000" && co == "0002") { mt = 1; if (!zero) c++; zero = 0 }
		else if (ty == "0000" && co == "0000") endframe()
	}
	END {
		if (pending) endframe()
		nu = 0; for (s in used) nu++
		# the median; of an even count, the mean of the middle two
		for (i = 1; i <= niv; i++) for (j = i; j > 1 && iv[j-1] > iv[j]; j--) { x = iv[j]; iv[j] = iv[j-1]; iv[j-1] = x }
		k = int((niv + 1) / 2); if (k < 1) k = 1
		med = niv % 2 ? iv[k] : (iv[k] + iv[k + 1]) / 2
		printf "%d %d %d %d %d %.1f\n", frames, events, seq, maxn, nu, med
	}' "$1"
}

# field NAME JSON: the first number after "NAME": in the device object.
field() {
	sed -n 's/.*"'"$1"'":\([0-9.]*\).*/\1/p' "$2" | head -1
}

check_file() {
	file=$1 typeA=$2 what=$3
	set -- $(count "$corpus/evemu/$file" "$typeA")
	"$TOUCHTAPE" analyze --json "$corpus/evemu/$file" >"$tmp/a.json" 2>/dev/null
	sed -n '2p' "$tmp/a.json" >"$tmp/dev.json"	# the first device's line
	got="$(field frames "$tmp/dev.json") $(field events "$tmp/dev.json") $(field touch_sequences "$tmp/dev.json") $(field max_simultaneous "$tmp/dev.json")"
	nslots=$(sed -n 's/.*"slots_used":\[\([0-9,]*\)\].*/\1/p' "$tmp/dev.json" | tr ',' '\n' | grep -c .)
	median=$(sed -n 's/.*"frame_interval_us":{"count":[0-9]*,"median":\([0-9]*\).*/\1/p' "$tmp/dev.json")
	if [ "$got" = "$1 $2 $3 $4" ]; then pass "$what: frames events sequences max ($got)"
	else fail "$what: frames events sequences max: analyze $got, awk $1 $2 $3 $4"; fi
	if [ "$nslots" = "$5" ]; then pass "$what: $nslots slots used"; else fail "$what: slots used $nslots, awk $5"; fi
	# analyze keeps intervals in 10 us buckets: within 10 us (and half a
	# microsecond above, rounding a mean of two up).
	if [ -n "$median" ] && awk -v a="$median" -v w="$6" 'BEGIN { d = a - w; exit !(d <= 0.5 && d > -10.5) }'; then
		pass "$what: median frame interval $median us (awk $6 us)"
	else
		fail "$what: median frame interval $median us, awk $6 us"
	fi
}

check_file evemu__data_3m.event 0 "3M 10-finger (Type B)"
check_file evemu__data_ntrig-dell-xt2.event 1 "N-Trig (Type A)"
check_file evemu__data_bcm5974.event 1 "bcm5974 (Type A)"
check_file "evemu-devices__touchscreens_Atmel maXTouch Touchscreen.4-finger-drag-down.events" 0 "Atmel (Type B)"
check_file evemu__python_evemu_tests_data_ntrig-xt2_ntrig-xt2-2-tap.event 1 "N-Trig 2-tap, events only"

# The 3M recording: ten fingers down at once, slots 0-9.
"$TOUCHTAPE" analyze --json "$corpus/evemu/evemu__data_3m.event" >"$tmp/3m.json" 2>/dev/null
expect_grep '"max_simultaneous":10,' "$tmp/3m.json" "3M: ten fingers at once"
expect_grep '"slots_used":\[0,1,2,3,4,5,6,7,8,9\]' "$tmp/3m.json" "3M: in slots 0-9"

# SOURCES.tsv max_simultaneous_touches, computed by the corpus's script.
# Skipped: the two xit clickpad files, whose companion description declares
# no MT axes (so touchtape reads them as single-touch, as the description
# says), and kwin stroke_n_3, where the script assumed slot 0 at the start
# although the file's header says the current slot was 1 (3 fingers).
n=0
awk -F'\t' 'NR > 1 && $1 ~ /^evemu\// && ($7 == "A" || $7 == "B") { print $1 "|" $11 "|" $16 }' \
	"$corpus/SOURCES.tsv" >"$tmp/list"
while IFS='|' read -r f maxt desc; do
	case "$f" in *Clickpad.two-finger-*|*stroke_n_3) continue ;; esac
	if [ -n "$desc" ]; then
		"$TOUCHTAPE" analyze --json --desc "$corpus/$desc" "$corpus/$f" >"$tmp/s.json" 2>/dev/null
	else
		"$TOUCHTAPE" analyze --json "$corpus/$f" >"$tmp/s.json" 2>/dev/null
	fi
	got=$(grep -o '"max_simultaneous":[0-9]*' "$tmp/s.json" | sed 's/.*://' | sort -n | tail -1)
	n=$((n + 1))
	[ "$got" = "$maxt" ] || fail "$f: max simultaneous touches $got, SOURCES.tsv says $maxt"
done <"$tmp/list"
# Files: over 50 in the whole public corpus, 43 in tests/corpus.
want=43; [ -n "${TT_CORPUS:-}" ] && want=51
[ "$n" -ge "$want" ] && pass "max simultaneous touches agree with SOURCES.tsv on $n recordings" ||
	fail "only $n recordings checked"
finish
