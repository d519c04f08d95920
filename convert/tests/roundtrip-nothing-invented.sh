#!/bin/sh
# Round trips give back what went in, nothing invented (issue 34,
# point 10): hid-recorder keeps its clock, a name's trailing space and a
# descriptor-only device's missing N:/I: lines; print says a file
# without a start instant has none; libinput-record gets no node or udev
# properties that were never recorded.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

T=$TOUCHTAPE
cd "$tmp" || exit 1
desc="05 0d 09 04 a1 01 85 01 09 22 a1 02 09 42 15 00 25 01 75 01 95 01 81 02 75 07 95 01 81 03 09 51 25 0f 75 08 95 01 81 02 05 01 09 30 26 ff 0f 75 10 95 01 81 02 09 31 81 02 c0 05 0d 09 54 25 0a 75 08 95 01 81 02 c0"
printf 'D: 0\nR: 71 %s\nN: Trailing \nI: 18 04f3 30f1\nE: 000085.391130 8 01 01 00 10 00 20 00 01\nE: 000085.401130 8 01 00 00 10 00 20 00 01\n' \
	"$desc" >c85.hid

expect_exit 0 "hid-recorder -> timeline" -- "$T" convert c85.hid -o c85.jsonl
expect_exit 0 "timeline -> hid-recorder" -- "$T" convert -F hid-recorder c85.jsonl -o back.hid
expect_grep '^E: 000085\.391130 8 01 01 00 10 00 20 00 01$' back.hid "the clock is kept"
expect_grep '^E: 000085\.401130 8 ' back.hid "... for every report"
expect_grep '^N: Trailing $' back.hid "the name's trailing space is kept"
expect_exit 0 "print a hid-recorder file" -- "$T" print c85.hid
expect_grep '^# start time unknown' "$tmp/out" "print: start time unknown"
grep -q '1970\|started at 0\.000000' "$tmp/out" && fail "print gives a start of 0 (1970)" || pass "no 1970 start"

printf 'R: 4 05 01 09 02\n' >donly.hid
expect_exit 0 "descriptor-only -> timeline" -- "$T" convert donly.hid -o donly.jsonl
expect_exit 0 "descriptor-only back" -- "$T" convert -F hid-recorder donly.jsonl -o donly-back.hid
grep -q '^N:\|^I:' donly-back.hid && fail "N:/I: invented: $(grep '^N:\|^I:' donly-back.hid | tr '\n' ' ')" ||
	pass "no N:/I: invented for a descriptor-only device"
expect_grep '^R: 4 05 01 09 02$' donly-back.hid "the descriptor is kept"

cat >li.yml <<'EOT'
# libinput record
version: 1
ndevices: 1
libinput:
  version: "1.23.0"
  git: "unknown"
devices:
- evdev:
    name: "Test"
    id: [3, 1, 2, 3]
    codes:
      0: [0]
      1: [272]
    properties: []
  events:
  - evdev:
    - [  0,   10,   1, 272, 1]
    - [  0,   10,   0,   0, 0]
EOT
expect_exit 0 "libinput -> timeline" -- "$T" convert li.yml -o li.jsonl
expect_exit 0 "timeline -> libinput" -- "$T" convert -F libinput li.jsonl -o li-back.yml
grep -q 'node:' li-back.yml && fail "node invented: $(grep node: li-back.yml)" || pass "no node invented"
grep -q 'udev:\|ID_INPUT' li-back.yml && fail "udev properties invented" || pass "no udev properties invented"
finish
