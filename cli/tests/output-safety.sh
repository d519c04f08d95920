#!/bin/sh
# Nothing lost (issue 16): no command overwrites what it reads, through
# symlinks and hard links too; outputs appear only whole, a killed or
# failed command leaves the previous file as it was; record -o refuses an
# existing file unless --force.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

T=$TOUCHTAPE
src="$samples/3m-two-finger.jsonl"
cd "$tmp" || exit 1

# same FILE WHAT: FILE still has the sample's bytes.
same() {
	cmp -s "$1" "$src" && pass "$2: $1 untouched" || fail "$2: $1 changed ($(wc -l <"$1") lines)"
}
# no_temp WHAT: no temporary file was left in this directory.
no_temp() {
	local left
	left=$(find . -maxdepth 1 -name '.*.tt-*' | head -1)
	[ -z "$left" ] && pass "$1: no temporary left" || fail "$1: $left left behind"
}

cp "$src" b.jsonl
ln b.jsonl hard.jsonl
ln -s b.jsonl sym.jsonl

# The output is the input: refused (exit 2), the input as it was.
expect_exit 2 "convert b -o b" -- "$T" convert b.jsonl -o b.jsonl
expect_grep 'touchtape convert: b\.jsonl: the output is the input file' "$tmp/err" "refusal names the file"
same b.jsonl "convert b -o b"
expect_exit 2 "convert --format evemu onto the input" -- "$T" convert --format evemu b.jsonl -o b.jsonl
same b.jsonl "--format evemu onto the input"
expect_exit 2 "old spelling --to evemu onto the input" -- "$T" convert --to evemu b.jsonl -o b.jsonl
same b.jsonl "--to evemu onto the input"
expect_exit 2 "convert onto a hard link of the input" -- "$T" convert b.jsonl -o hard.jsonl
same b.jsonl "hard link"
expect_exit 2 "convert onto a symlink to the input" -- "$T" convert b.jsonl -o sym.jsonl
expect_exit 2 "convert a symlink onto its target" -- "$T" convert sym.jsonl -o b.jsonl
same b.jsonl "symlink"
[ -L sym.jsonl ] && pass "the symlink is still a symlink" || fail "the symlink was replaced"
expect_exit 2 "replay --report onto the input" -- "$T" replay --dry-run --report b.jsonl b.jsonl
same b.jsonl "replay --report"
expect_exit 2 "replay --report onto a hard link" -- "$T" replay --dry-run --report hard.jsonl b.jsonl
same b.jsonl "replay --report, hard link"
expect_exit 2 "analyze --plot onto the input" -- "$T" analyze --plot b.jsonl b.jsonl
same b.jsonl "analyze --plot"
expect_exit 2 "analyze --plot onto a symlink" -- "$T" analyze --plot sym.jsonl b.jsonl
same b.jsonl "analyze --plot, symlink"
no_temp "refusals"

# record -o: an existing file is refused before any device is opened
# (the device need not exist on this host); --force goes on to the device.
expect_exit 2 "record -o an existing file" -- "$T" record /dev/input/event0 -o b.jsonl
expect_grep 'b\.jsonl exists.*--force' "$tmp/err" "record says --force"
same b.jsonl "record -o existing"
expect_exit 2 "record --force, missing device" -- "$T" record --force /nonexistent/event99 -o b.jsonl
same b.jsonl "record --force with a device that fails first"

# A good output replaces the previous one whole, keeps its mode, and
# writes through a symlink to the file it names.
printf 'old\n' >out.jsonl
chmod 600 out.jsonl
expect_exit 0 "convert onto an existing output" -- "$T" convert b.jsonl -o out.jsonl
cmp -s out.jsonl b.jsonl && pass "output replaced whole" || fail "output differs from a straight copy"
[ "$(stat -c %a out.jsonl)" = 600 ] && pass "mode kept" || fail "mode $(stat -c %a out.jsonl), want 600"
ln -s out.jsonl outlink.jsonl
expect_exit 0 "convert through a symlink" -- "$T" convert --format evemu b.jsonl -o outlink.jsonl
[ -L outlink.jsonl ] && grep -q '^E: ' out.jsonl && pass "written through the symlink" ||
	fail "symlink replaced, or its target not written"
expect_exit 0 "convert -o /dev/null (written in place)" -- "$T" convert b.jsonl -o /dev/null
no_temp "good outputs"

# A failed command leaves the previous output as it was.
cp "$src" keep.jsonl
expect_exit 2 "convert, --device the file lacks" -- "$T" convert --device 9 b.jsonl -o keep.jsonl
cmp -s keep.jsonl "$src" && pass "failed convert: previous output kept" || fail "failed convert changed the output"
if [ -w /dev/full ]; then
	expect_exit 2 "write failure (/dev/full)" -- "$T" convert b.jsonl -o /dev/full
	expect_grep 'No space left' "$tmp/err" "write failure named"
fi
expect_exit 2 "output directory missing" -- "$T" convert b.jsonl -o nodir/x.jsonl
no_temp "failures"

# Killed while writing: the input comes through a FIFO that is held open
# after half the file, so convert is certainly mid-way (its temporary
# exists) when the signal comes.
killed_midway() {
	local sig=$1 pid n
	cp "$src" prev.jsonl
	rm -f fifo && mkfifo fifo
	# A shell starts background jobs with SIGINT ignored: undo that.
	env --default-signal=INT "$T" convert - -o prev.jsonl <fifo 2>/dev/null &
	pid=$!
	exec 7>fifo
	head -n 300 "$src" >&7
	for n in $(seq 100); do
		[ -n "$(find . -maxdepth 1 -name '.prev.jsonl.tt-*')" ] && break
		sleep 0.1
	done
	[ -n "$(find . -maxdepth 1 -name '.prev.jsonl.tt-*')" ] ||
		fail "SIG$sig: no temporary file while converting"
	kill -s "$sig" "$pid"
	local rc=0
	{ wait "$pid"; } 2>/dev/null || rc=$?
	exec 7>&-
	[ "$rc" -ge 128 ] && pass "SIG$sig: convert died of it ($rc)" || fail "SIG$sig: exit $rc"
	cmp -s prev.jsonl "$src" && pass "SIG$sig mid-way: previous file intact" ||
		fail "SIG$sig mid-way: previous file changed"
}
killed_midway INT
no_temp "SIGINT"
killed_midway TERM
no_temp "SIGTERM"
# SIGKILL cannot be caught: the temporary stays, the file is still whole.
killed_midway KILL
rm -f .prev.jsonl.tt-*

# A file whose directory takes no new file (procfs): the message says
# that the temporary file could not be made there, not that the file is
# missing (issue 34, point 16).
if [ -f /proc/version ]; then
	expect_exit 2 "convert -o /proc/version" -- "$T" convert "$src" -o /proc/version
	expect_grep "^touchtape convert: /proc/version: cannot create a temporary file in /proc/ to write it: " \
		"$tmp/err" "-o /proc/version says what is wrong"
fi

finish
