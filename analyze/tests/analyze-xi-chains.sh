#!/bin/sh
# touchtape analyze: XI ownership chains on hand-made timelines
# (tests/data/xi-chains, written by make-chains.py with times chosen so
# every number below is a plain sum of them): two and three stages,
# reject then accept, pending ends, a single owner, and the protocol's
# order broken. Text and JSON carry the same numbers.
#
# For the VM test of `record --xi-grab ... --xi-grab ... --xi-window`
# (tests of the recording branch), the analyze --json fields to assert:
#   .xi_chains[].chain              "grab1 R +31 ms -> grab2 R +63 ms -> window O"
#   .xi_chains[].kernel             the linked kernel touch (null: not linked)
#   .xi_chains[].stages[].client / .decision ("accept", "reject", "none",
#                                   "pending-end") / .owned_by ("touch-begin",
#                                   "touch-ownership", "previous-decision")
#   .xi_chains[].stages[].delay_us  kernel frame to ownership: stage k's is at
#                                   least the sum of .waited[].decision_us
#   .xi_chains[].stages[].order     "ok" (else an ownership-order anomaly)
#   .xi_chain_stages[]              per position+client: count,
#                                   median_delay_us, p95_delay_us,
#                                   median_decision_us, p95_decision_us, and
#                                   accept/reject/none/pending-end counts
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/xi-chains"

# json FILE PYTHON-EXPRESSION EXPECTED DESCRIPTION: the value of the
# expression over the report (as r) printed by Python equals EXPECTED.
json() {
	got=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>&1)
	if [ "$got" = "$3" ]; then pass "$4"; else fail "$4: $2 = $got, want $3"; fi
}

an() {	# an NAME: text and JSON reports of chain-NAME.jsonl
	"$TOUCHTAPE" analyze "$data/chain-$1.jsonl" >"$tmp/$1.txt"
	"$TOUCHTAPE" analyze --json "$data/chain-$1.jsonl" >"$tmp/$1.json"
}

# Two stages: grab1 owns from its TouchBegin 1.1 ms after the kernel frame,
# rejects 30 ms later; the window's TouchOwnership comes 31.6 ms in.
an two
expect_grep '^  XI device 6 touch 1 \(device 0 slot 0 tracking ID 1, line 4\): grab1 R \+31 ms -> window O$' \
	"$tmp/two.txt" "two: the chain line"
expect_grep '^    1 grab1: owned \+1\.100 ms \(its TouchBegin, line 6\), reject after 30\.000 ms \(line 8\)$' \
	"$tmp/two.txt" "two: grab1's stage"
expect_grep '^    2 window: owned \+31\.600 ms \(TouchOwnership, line 10\), none; waited for grab1 30\.000 ms$' \
	"$tmp/two.txt" "two: the window waited for grab1"
json "$tmp/two.json" '[(s["client"], s["decision"], s["owned_by"], s["delay_us"], s["decision_us"]) for s in r["xi_chains"][0]["stages"]]' \
	"[('grab1', 'reject', 'touch-begin', 1100, 30000), ('window', 'none', 'touch-ownership', 31600, None)]" \
	"two: stages in JSON"
json "$tmp/two.json" 'r["xi_chains"][0]["stages"][1]["waited"]' "[{'client': 'grab1', 'decision_us': 30000}]" \
	"two: waited in JSON"
json "$tmp/two.json" '(r["xi_chains"][0]["kernel"], r["xi_chains"][0]["base_us"], r["xi_chains"][0]["touchid"])' \
	"({'device': 0, 'slot': 0, 'tracking_id': 1}, 10000, 1)" "two: the kernel touch it began as"
json "$tmp/two.json" 'r["anomalies"]' "[]" "two: in order, no anomaly"

# Three stages, three touches: grab1 decides after 30, 40, 50 ms; grab2
# owns 0.5 ms after, rejects 30 ms later; the window 0.5 ms after that.
# p95 of three is 90 % of the way from the second to the third.
an three
expect_grep '^  XI device 6 touch 1 .*: grab1 R \+31 ms -> grab2 R \+62 ms -> window O$' "$tmp/three.txt" \
	"three: chain of the first touch"
expect_grep '^  XI device 6 touch 3 .*: grab1 R \+51 ms -> grab2 R \+82 ms -> window O$' "$tmp/three.txt" \
	"three: chain of the third touch"
expect_grep '^    3 window: owned \+72\.100 ms \(TouchOwnership, line 28\), none; waited for grab1 40\.000 ms, grab2 30\.000 ms$' \
	"$tmp/three.txt" "three: the window waited for both grabs"
expect_grep '^  stage 1 grab1: 3 touches, ownership delay median 1\.100 ms, p95 1\.100 ms; decision median 40\.000 ms, p95 49\.000 ms; accept 0, reject 3, none 0, pending-end 0$' \
	"$tmp/three.txt" "three: stage 1 summary"
expect_grep '^  stage 2 grab2: 3 touches, ownership delay median 41\.600 ms, p95 50\.600 ms; decision median 30\.000 ms, p95 30\.000 ms; accept 0, reject 3, none 0, pending-end 0$' \
	"$tmp/three.txt" "three: stage 2 summary"
expect_grep '^  stage 3 window: 3 touches, ownership delay median 72\.100 ms, p95 81\.100 ms; accept 0, reject 0, none 3, pending-end 0$' \
	"$tmp/three.txt" "three: stage 3 summary"
json "$tmp/three.json" '[(s["position"], s["client"], s["count"], s["median_delay_us"], s["p95_delay_us"], s["median_decision_us"], s["p95_decision_us"], s["reject"], s["none"]) for s in r["xi_chain_stages"]]' \
	"[(1, 'grab1', 3, 1100, 1100, 40000, 49000, 3, 0), (2, 'grab2', 3, 41600, 50600, 30000, 30000, 3, 0), (3, 'window', 3, 72100, 81100, None, None, 0, 3)]" \
	"three: per stage in JSON"
json "$tmp/three.json" '[c["chain"] for c in r["xi_chains"]]' \
	"['grab1 R +31 ms -> grab2 R +62 ms -> window O', 'grab1 R +41 ms -> grab2 R +72 ms -> window O', 'grab1 R +51 ms -> grab2 R +82 ms -> window O']" \
	"three: chain strings in JSON"
json "$tmp/three.json" 'all(s["delay_us"] >= sum(w["decision_us"] for w in s["waited"]) for c in r["xi_chains"] for s in c["stages"])' \
	"True" "three: every delay covers the decisions it waited for"

# Reject then accept: grab2 never got a TouchOwnership; it owned the touch
# from grab1's reject and accepted 20 ms later; the window lost it.
an accept
expect_grep ': grab1 R \+31 ms -> grab2 A \+51 ms$' "$tmp/accept.txt" "accept: the chain line"
expect_grep '^    2 grab2: owned \+31\.100 ms \(the previous reject, line 9\), accept after 20\.000 ms \(line 11\); waited for grab1 30\.000 ms$' \
	"$tmp/accept.txt" "accept: grab2 owned from grab1's reject"
json "$tmp/accept.json" '[(s["client"], s["owned_by"], s["decision"]) for s in r["xi_chains"][0]["stages"]]' \
	"[('grab1', 'touch-begin', 'reject'), ('grab2', 'previous-decision', 'accept')]" "accept: stages in JSON"

# An early accept: grab3 accepts at its TouchBegin, before grab1 and grab2
# reject; it owns the touch from grab2's reject, in the protocol's order.
an early
expect_grep ': grab1 R \+21 ms -> grab2 R \+42 ms -> grab3 A \+42 ms$' "$tmp/early.txt" "early: the chain line"
expect_grep '^    3 grab3: owned \+41\.600 ms \(the previous reject, line 14\), accept early, at \+1\.400 ms \(line 10\); waited for grab1 20\.000 ms, grab2 20\.000 ms$' \
	"$tmp/early.txt" "early: grab3's stage"
json "$tmp/early.json" '[(s["client"], s["decision"], s["delay_us"], s["decision_us"], s["early"], s["order"]) for s in r["xi_chains"][0]["stages"]]' \
	"[('grab1', 'reject', 1100, 20000, False, 'ok'), ('grab2', 'reject', 21600, 20000, False, 'ok'), ('grab3', 'accept', 41600, 0, True, 'ok')]" \
	"early: stages in JSON"
json "$tmp/early.json" 'r["anomalies"]' "[]" "early: an early accept breaks no order"

# A race: three grabs reject at once, the window's TouchOwnership before
# grab2's; the client names give the order, and it is not broken.
an race
expect_grep ': grab1 R \+21 ms -> grab2 R \+22 ms -> grab3 R \+21 ms -> window O$' "$tmp/race.txt" "race: the chain line"
json "$tmp/race.json" '[(s["client"], s["owned_by"], s["delay_us"], s["decision_us"], s["early"], s["order"]) for s in r["xi_chains"][0]["stages"][:3]]' \
	"[('grab1', 'touch-begin', 1100, 20000, False, 'ok'), ('grab2', 'touch-ownership', 21700, 0, True, 'ok'), ('grab3', 'previous-decision', 21200, 100, False, 'ok')]" \
	"race: stages in JSON"
json "$tmp/race.json" 'r["anomalies"]' "[]" "race: no ownership-order anomaly"

# Pending end: grab1 rejects 20 ms after the finger lifted (after its own
# TouchEnd); the window owns an ended touch. The second touch: grab1 never
# decides before the recording stops.
an pending
expect_grep 'touch 1 .*: grab1 R \+41 ms -> window P$' "$tmp/pending.txt" "pending: reject after the lift, then P"
expect_grep 'touch 2 .*: grab1 P$' "$tmp/pending.txt" "pending: never decided"
json "$tmp/pending.json" '[[(s["client"], s["decision"], s["delay_us"], s["decision_us"]) for s in c["stages"]] for c in r["xi_chains"]]' \
	"[[('grab1', 'reject', 1100, 40000), ('window', 'pending-end', 41600, None)], [('grab1', 'pending-end', 1100, None)]]" \
	"pending: stages in JSON"

# A single owner: the window, no grab above it, told by the TouchOwnership
# that follows its TouchBegin (it selected it); a client that never got a
# TouchOwnership ("app") owns its touch from its TouchBegin.
an single
expect_grep 'touch 1 .*: window O$' "$tmp/single.txt" "single: the chain line"
expect_grep 'touch 2 .*: app O$' "$tmp/single.txt" "single: the other client's chain line"
json "$tmp/single.json" '[[(s["client"], s["owned_by"], s["delay_us"], s["waited"], s["order"]) for s in c["stages"]] for c in r["xi_chains"]]' \
	"[[('window', 'touch-ownership', 1150, [], 'ok')], [('app', 'touch-begin', 1100, [], 'ok')]]" "single: one stage each in JSON"

# A pointer grab on the emulated pointer (record --xi-pointer-grab=async
# --xi-window, two fingers): the grab owns the first touch from its emulated
# ButtonPress (1.05 ms in) and the server accepts it one event later (the
# Motion, 16.05 ms after); the window, a listener that got TouchBegin and
# TouchEnd but never TouchOwnership, is no stage of it. The window owns the
# second touch; the third, which only the window got without ever owning
# it, has no owner any record proves, so no chain.
an pointer
expect_grep '^  XI device 6 touch 1 \(device 0 slot 0 tracking ID 1, line 5\): pointer A \+17 ms$' "$tmp/pointer.txt" \
	"pointer: the grab owns the emulating touch"
expect_grep '^    1 pointer: owned \+1\.050 ms \(its emulated ButtonPress, line 7\), accept after 16\.050 ms \(line 13\)$' \
	"$tmp/pointer.txt" "pointer: its stage"
expect_grep '^  XI device 6 touch 2 .*: window O$' "$tmp/pointer.txt" "pointer: the window owns the second touch"
json "$tmp/pointer.json" '[(c["touchid"], [(s["client"], s["decision"], s["owned_by"], s["delay_us"], s["decision_us"], s["order"]) for s in c["stages"]]) for c in r["xi_chains"]]' \
	"[(1, [('pointer', 'accept', 'button-press', 1050, 16050, 'ok')]), (2, [('window', 'none', 'touch-ownership', 1200, None, 'ok')])]" \
	"pointer: the chains in JSON, none for the third touch"
json "$tmp/pointer.json" 'r["anomalies"]' "[]" "pointer: no anomaly"

# The protocol's order broken: the window's TouchOwnership 10 ms before
# grab1 rejected. An error: exit 1, the anomaly at the TouchOwnership line.
expect_exit 1 "order: a finding" -- "$TOUCHTAPE" analyze "$data/chain-order.jsonl"
expect_grep 'chain-order\.jsonl:8: 0\.031100 s .*error: window owned the touch before grab1 rejected it \[ownership-order\]$' \
	"$tmp/out" "order: the anomaly, its line and time"
expect_exit 1 "order: a finding (JSON)" -- "$TOUCHTAPE" analyze --json "$data/chain-order.jsonl"
json "$tmp/out" '[(a["kind"], a["line"], a["client"]) for a in r["anomalies"]]' "[('ownership-order', 8, 'window')]" \
	"order: the anomaly in JSON"
json "$tmp/out" 'r["xi_chains"][0]["stages"][1]["order"]' "owned-before-reject" "order: the stage says so"
expect_exit 0 "order: --ignore ownership-order" -- "$TOUCHTAPE" analyze --ignore ownership-order "$data/chain-order.jsonl"

# Without XI: no chains section, empty arrays.
expect_exit 0 "no XI: analyze" -- "$TOUCHTAPE" analyze --json "$abs_top_srcdir/tests/data/analyze/jump-no.jsonl"
json "$tmp/out" '(r["xi_chains"], r["xi_chain_stages"])' "([], [])" "no XI: empty arrays"
finish
