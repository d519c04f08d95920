#!/bin/sh
# touchtape diff pairs XI touches through the kernel touch they came from:
# two fingers that begin together reach the X clients in either order, so
# pairing by begin time alone compares one finger with the other. Where
# there is no link, a client's touches pair in begin order.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
a="$samples/xi-ownership-accept.jsonl"
b="$samples/xi-ownership-reject-after-50.jsonl"

# Relative to each file's first record, B's second finger reaches the grab
# client (line 16) closer to A's first (line 15) than B's first (line 15)
# does: nearest-time pairing crossed the fingers. Through the link: the
# grab client's A 15, 17 are B 15, 16; the window client's A 22, 23 are
# B 17, 18.
expect_exit 1 "accept vs reject: differs" -- "$TOUCHTAPE" diff "$a" "$b"
pair() {
	expect_grep "accept\\.jsonl:$1 [^ ]*reject-after-50\\.jsonl:$2: XI touch \\[$3\\] .*: ownership $4" \
		"$tmp/out" "A:$1 pairs with B:$2 ($3, $4)"
}
pair 15 15 grab 'accepted vs rejected'
pair 17 16 grab 'accepted vs rejected'
pair 22 17 window '[a-z-]+ vs owned'
pair 23 18 window '[a-z-]+ vs owned'
expect_grep '^4 differences$' "$tmp/out" "accept vs reject: the four ownership outcomes, nothing else"
for bogus in 'emulating pointer' 'ends [0-9.]+ ms' 'missing in' 'only in' 'device 0 slot'; do
	grep -qE "$bogus" "$tmp/out" && fail "accept vs reject: '$bogus' reported" ||
		pass "accept vs reject: no '$bogus'"
done

# Symmetric: B against A pairs the same touches.
expect_exit 1 "reject vs accept: differs" -- "$TOUCHTAPE" diff "$b" "$a"
expect_grep 'reject-after-50\.jsonl:16 [^ ]*accept\.jsonl:17: XI touch \[grab\]' "$tmp/out" \
	"reject vs accept: B:16 pairs with A:17"
expect_grep '^4 differences$' "$tmp/out" "reject vs accept: 4 differences"

# Without links (the six XI device records removed, so no XI touch can
# be traced to a kernel touch), each client's touches pair in begin order,
# with the same answer.
grep -v '"type":"xi_device"' "$a" >"$tmp/a-nolink.jsonl"
grep -v '"type":"xi_device"' "$b" >"$tmp/b-nolink.jsonl"
expect_exit 1 "no links: differs" -- "$TOUCHTAPE" diff "$tmp/a-nolink.jsonl" "$tmp/b-nolink.jsonl"
expect_grep 'a-nolink\.jsonl:9 [^ ]*b-nolink\.jsonl:9: XI touch \[grab\]' "$tmp/out" \
	"no links: begin order, A:9 with B:9"
expect_grep 'a-nolink\.jsonl:11 [^ ]*b-nolink\.jsonl:10: XI touch \[grab\]' "$tmp/out" \
	"no links: begin order, A:11 with B:10"
expect_grep '^4 differences$' "$tmp/out" "no links: 4 differences"

# A file against itself: every XI touch pairs with itself.
expect_exit 0 "accept vs itself" -- "$TOUCHTAPE" diff "$a" "$a"
expect_grep '^0 differences$' "$tmp/out" "accept vs itself: 0 differences"
finish
