#!/bin/sh
# Grading profiles: the built-in ones are the installed files, a user's
# own file is read like them, and a bad one is refused with FILE:LINE and
# what is wrong, exit 2, before anything reaches stdout.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
rec="$samples/touchpad-two-finger-swipe.jsonl"

for p in touchscreen touchpad chromeos; do
	"$TOUCHTAPE" analyze --grade "$p" "$rec" >"$tmp/builtin" 2>&1
	rc=$?
	[ "$rc" -le 1 ] && pass "built-in profile $p: a verdict (exit $rc)" || fail "built-in profile $p: exit $rc"
	expect_grep "^grade \\($p: " "$tmp/builtin" "the table names $p"
	# The file installed is the one compiled in: graded alike.
	expect_exit "$rc" "profile file $p" -- "$TOUCHTAPE" analyze --grade "$abs_top_srcdir/grade/profiles/$p.profile" "$rec"
	cmp -s "$tmp/out" "$tmp/builtin" && pass "$p: the file grades as the built-in" ||
		fail "$p: the file and the built-in differ"
done

# A user's profile: its own limits, units optional, comments anywhere.
cat >"$tmp/mine.profile" <<'EOT'
# my lab's limits
name = lab
title = our acceptance limits
report-rate.min = 140 Hz
linearity-max.max = 0.1
EOT
expect_exit 1 "a user's profile" -- "$TOUCHTAPE" analyze --grade "$tmp/mine.profile" "$rec"
expect_grep '^  report-rate +136\.[0-9] Hz +>= 140\.0 Hz +fail' "$tmp/out" "its limit applied"

refuse() {
	local what=$1 pattern=$2
	expect_exit 2 "refused: $what" -- "$TOUCHTAPE" analyze --grade "$tmp/bad.profile" "$rec"
	expect_grep "^touchtape analyze: $tmp/bad\\.profile:$pattern" "$tmp/err" "$what: FILE:LINE: what"
	[ -s "$tmp/out" ] && fail "$what: something reached stdout" || pass "$what: stdout empty"
}
printf 'name = x\nreport-rate.min 60\n' >"$tmp/bad.profile"; refuse "no =" "2: 'report-rate.min 60' has no '='"
printf 'name = x\nlinearity-max.max = 1 Hz\n' >"$tmp/bad.profile"; refuse "a wrong unit" "2: .* has a unit the metric is not measured in"
printf 'name = x\nlinearity-max.max = -1\n' >"$tmp/bad.profile"; refuse "a negative limit" "2: .* is not a number of 0 or more"
printf 'name = x\nlinearity-max.max = nan\n' >"$tmp/bad.profile"; refuse "NaN" "2: .* is not a number"
printf 'name = x\nstationary-jitter.min = refresh\n' >"$tmp/bad.profile"; refuse "refresh on a distance" "2: .*'refresh' is a minimum of a report rate only"
printf 'name = x\nwobble.max = 1\n' >"$tmp/bad.profile"; refuse "an unknown metric" "2: .* names no metric"
printf 'name = x\nlinearity-max.avg = 1\n' >"$tmp/bad.profile"; refuse "an unknown key" "2: .* is not a key of a profile"
printf 'name = x\nname = y\n' >"$tmp/bad.profile"; refuse "a second name" "2: .* sets it a second time"
printf 'name = x\nreport-rate.min = 100\nreport-rate.max = 50\n' >"$tmp/bad.profile"; refuse "min above max" "3: report-rate.min is above report-rate.max"
printf '# nothing\nreport-rate.min = 60\n' >"$tmp/bad.profile"; refuse "no name" "1: the profile has no 'name"
printf 'name = x\ntitle = \033[2Jboom\n' >"$tmp/bad.profile"; refuse "control characters" "2: .* has control characters"
head -c 4096 /dev/urandom >"$tmp/bad.profile"; refuse "binary" "1: is not a profile"
head -c 70000 /dev/zero | tr '\0' '#' >"$tmp/bad.profile"; refuse "over 64 KiB" "1: is not a profile"

expect_exit 2 "a profile that does not exist" -- "$TOUCHTAPE" analyze --grade wobbly "$rec"
expect_grep "no profile is called 'wobbly' \\(built in: touchscreen, touchpad, chromeos; or a file\\)" "$tmp/err" "names the built-in ones"
expect_exit 2 "a directory" -- "$TOUCHTAPE" analyze --grade "$tmp" "$rec"
expect_exit 2 "--grade twice" -- "$TOUCHTAPE" analyze --grade touchpad --grade chromeos "$rec"
expect_exit 2 "--refresh 0" -- "$TOUCHTAPE" analyze --grade touchpad --refresh 0 "$rec"
finish
