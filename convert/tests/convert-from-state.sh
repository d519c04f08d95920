#!/bin/sh
# convert --from keeps what is down at the cut (issue 34, point 6): the
# excerpt's device starts with the slots and keys of the moment, in every
# output format, so the touches already down end as touches, not as
# releases of nothing.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

T=$TOUCHTAPE
src="$samples/3m-two-finger.jsonl"	# two fingers down from 0.01 s to 2.49 s
cd "$tmp" || exit 1

expect_exit 0 "convert --from 1s" -- "$T" convert --from 1s "$src" -o cut.jsonl
expect_grep '"state":\[\{"slot":0,[^}]*"ABS_MT_TRACKING_ID":2\},\{"slot":1,[^}]*"ABS_MT_TRACKING_ID":3\}' cut.jsonl \
	"the timeline's device has both slots down"
expect_grep '"keys_down":\["BTN_TOUCH"\]' cut.jsonl "BTN_TOUCH is down at the cut"
expect_exit 0 "analyze the excerpt" -- "$T" analyze cut.jsonl
expect_grep '2 touch sequences' "$tmp/out" "analyze sees the two touches"
"$T" validate cut.jsonl >"$tmp/v" 2>&1 && pass "the excerpt validates" || {
	fail "the excerpt does not validate"; head -5 "$tmp/v" | sed 's/^/  | /' >&2; }

# evemu and libinput-record: the state at the cut is in the description
# (evemu's slot values on A: lines are not per slot, so its first frame
# says it), and reading it back gives the same touches.
for f in evemu libinput; do
	expect_exit 0 "convert -F $f --from 1s" -- "$T" convert -F $f --from 1s "$src" -o cut.$f
	expect_exit 0 "convert the $f excerpt back" -- "$T" convert cut.$f -o back-$f.jsonl
	expect_exit 0 "analyze the $f excerpt" -- "$T" analyze back-$f.jsonl
	expect_grep '2 touch sequences' "$tmp/out" "$f: analyze sees the two touches"
done
finish
