#!/bin/sh
# touchtape inspect: the XI ownership chain of each touch in --summary, with
# UTF-8 arrows where the locale has them and ASCII ones elsewhere, and in
# --json; and on the clients' lanes as consecutive O/A/R markers. The
# hand-made chains of tests/data/xi-chains (analyze's numbers
# are checked in analyze/tests/analyze-xi-chains.sh).
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/xi-chains"

summary() {	# summary NAME: --summary of chain-NAME.jsonl, ASCII
	LC_ALL=C "$TOUCHTAPE" inspect --summary "$data/chain-$1.jsonl" >"$tmp/$1.txt" 2>"$tmp/err" ||
		fail "inspect --summary chain-$1.jsonl: exit $?"
}

summary two
expect_grep '^XI ownership chains \(R reject, A accept, O owned, P pending end; ms from the kernel frame\):$' \
	"$tmp/two.txt" "two: the heading"
expect_grep '^  XI device 6 touch 1 \(line 4\): grab1 R \+31 ms -> window O$' "$tmp/two.txt" "two: the chain"
summary three
expect_grep '^  XI device 6 touch 1 \(line 4\): grab1 R \+31 ms -> grab2 R \+62 ms -> window O$' "$tmp/three.txt" \
	"three: first touch"
expect_grep '^  XI device 6 touch 2 \(line 18\): grab1 R \+41 ms -> grab2 R \+72 ms -> window O$' "$tmp/three.txt" \
	"three: second touch"
expect_grep '^  XI device 6 touch 3 \(line 32\): grab1 R \+51 ms -> grab2 R \+82 ms -> window O$' "$tmp/three.txt" \
	"three: third touch"
summary accept
expect_grep ': grab1 R \+31 ms -> grab2 A \+51 ms$' "$tmp/accept.txt" "accept: reject then accept"
summary pending
expect_grep 'touch 1 \(line 4\): grab1 R \+41 ms -> window P$' "$tmp/pending.txt" "pending: decided after the lift"
expect_grep 'touch 2 \(line 15\): grab1 P$' "$tmp/pending.txt" "pending: never decided"
summary single
expect_grep 'touch 1 \(line 4\): window O$' "$tmp/single.txt" "single owner"
summary pointer
expect_grep 'touch 1 \(line 5\): pointer A \+17 ms$' "$tmp/pointer.txt" "pointer grab: owns the emulating touch"
expect_grep 'touch 2 \(line 9\): window O$' "$tmp/pointer.txt" "pointer grab: the window owns the other"
if grep -q 'touch 3 ' "$tmp/pointer.txt"; then fail "pointer grab: a chain for the unowned touch"; else pass "pointer grab: no owner, no chain"; fi
summary order
expect_grep 'error: window owned the touch before grab1 rejected it \[ownership-order\]$' "$tmp/order.txt" \
	"order: the anomaly among the first ones"

# UTF-8: the arrow U+2192, where the locale's charset is UTF-8.
if locale -a 2>/dev/null | grep -qiE '^C\.utf-?8$'; then
	LC_ALL=C.UTF-8 "$TOUCHTAPE" inspect --summary "$data/chain-three.jsonl" >"$tmp/utf8.txt"
	expect_grep "touch 1 \\(line 4\\): grab1 R \\+31 ms $(printf '\342\206\222') grab2 R \\+62 ms $(printf '\342\206\222') window O\$" \
		"$tmp/utf8.txt" "UTF-8 locale: arrows"
else
	echo "no C.UTF-8 locale: UTF-8 arrows not checked"
fi

# JSON: every chain, ASCII, with its touch.
LC_ALL=C.UTF-8 "$TOUCHTAPE" inspect --summary --json "$data/chain-three.jsonl" >"$tmp/three.json"
expect_grep '"xi_chains":\[\{"deviceid":6,"touchid":1,"line":4,"chain":"grab1 R \+31 ms -> grab2 R \+62 ms -> window O"\},' \
	"$tmp/three.json" "JSON: the first chain"
expect_grep '"touchid":3,"line":32,"chain":"grab1 R \+51 ms -> grab2 R \+82 ms -> window O"\}\]' \
	"$tmp/three.json" "JSON: the last chain"
"$TOUCHTAPE" inspect --summary --json "$abs_top_srcdir/tests/data/analyze/jump-no.jsonl" >"$tmp/none.json"
expect_grep '"xi_chains":\[\]' "$tmp/none.json" "JSON: no XI, no chains"
"$TOUCHTAPE" inspect --summary "$abs_top_srcdir/tests/data/analyze/jump-no.jsonl" >"$tmp/none.txt"
if grep -q 'ownership chains' "$tmp/none.txt"; then fail "no XI: a chains heading"; else pass "no XI: no chains heading"; fi
# The lanes: each client's stage as consecutive markers, the owner from
# the start's O at its TouchBegin, the next one's O under the previous R
# (0.5 ms apart: the same column or the next at 1.51 ms a column).
lanes() {	# lanes NAME KEYS: the XI lanes of the last screen
	(cd "$data" && LC_ALL=C TOUCHTAPE_INSPECT_HEADLESS=120x30 TOUCHTAPE_INSPECT_KEYS="$2" \
		"$TOUCHTAPE" inspect "chain-$1.jsonl") >"$tmp/screen" 2>"$tmp/err" || fail "inspect chain-$1.jsonl: exit $?"
	sed -n '/^=== screen .*(end)/,$p' "$tmp/screen" | grep '`xi6 ' >"$tmp/$1.lanes"
}
col() {	# col CLIENT CHAR FILE: the column of CHAR's first occurrence on CLIENT's first lane
	grep -m1 " t1 $1 " "$3" | sed 's/^.*ms  *//' | awk -v c="$2" '{ print index($0, c) }'
}
lanes three '++++'
expect_grep '^  `xi6 t1 grab1 \+1\.1ms +O-+R$' "$tmp/three.lanes" "lanes: grab1 owns from its TouchBegin, then R"
expect_grep '^  `xi6 t1 grab2 \+1\.2ms +\[-+O-+R$' "$tmp/three.lanes" "lanes: grab2 O then R"
expect_grep '^  `xi6 t1 window \+1\.3ms +\[-+O-+$' "$tmp/three.lanes" "lanes: the window's O"
near() { [ $(($2 - $1)) -ge 0 ] && [ $(($2 - $1)) -le 1 ]; }
if near "$(col grab1 R "$tmp/three.lanes")" "$(col grab2 O "$tmp/three.lanes")" &&
   near "$(col grab2 R "$tmp/three.lanes")" "$(col window O "$tmp/three.lanes")"; then
	pass "lanes: each O under the previous owner's R"
else
	fail "lanes: the chain is not consecutive"; cat "$tmp/three.lanes" >&2
fi
lanes pending ''
expect_grep '^  `xi6 t1 grab1 \+1\.1ms +O\] R$' "$tmp/pending.lanes" "lanes: grab1's reject after its TouchEnd"
expect_grep '^  `xi6 t2 grab1 \+1\.1ms +\.? +O\]$' "$tmp/pending.lanes" "lanes: the never-deciding owner's O"
finish
