#!/bin/bash
# Runs inside the VM (tests/vm/run), as root with real uinput, for
# hostile-replay-vm.sh: replays each invalid file listed in DIR/cases,
# then DIR/good.jsonl, under a kernel uevent monitor and a poll of
# /sys/class/input. Writes "key value" lines to DIR/results and each
# replay's output to DIR/NAME.out and DIR/NAME.err.
#   hostile-replay-guest.sh DIR
set -u
dir=$1
T=${TOUCHTAPE:?}
res=$dir/results
: >"$res"
put() { echo "$*" >>"$res"; }
# Logs that grow while we read them stay in the guest's own tmpfs.
w=$(mktemp -d /dev/shm/tt-hostile.XXXXXX)

[ -c /dev/uinput ] || modprobe uinput 2>/dev/null
put uinput "$([ -c /dev/uinput ] && echo yes || echo no)"

udevadm monitor --kernel --subsystem-match=input >"$w/uevents" 2>&1 &
monpid=$!
# udevadm prints its banner once it listens.
for _ in $(seq 100); do grep -q KERNEL "$w/uevents" && break; sleep 0.05; done
put watching "$(grep -q KERNEL "$w/uevents" && echo yes || echo no)"
ls /sys/class/input | sort >"$w/sysfs-before"
(while :; do ls /sys/class/input; sleep 0.01; done) >"$w/sysfs" 2>/dev/null &
pollpid=$!
# seen FROM: input uevents and /sys/class/input entries not there before,
# from line FROM of each log on.
uevents() { tail -n +"$1" "$w/uevents" | grep -c '^KERNEL\[.*(input)$' ; }
sysfs_new() { tail -n +"$1" "$w/sysfs" | sort -u | comm -13 "$w/sysfs-before" - | grep -c . ; }

# replay NAME [OPTIONS]: the replay, under strace when there is one: did
# it open /dev/uinput?
replay() {
	local name=$1
	shift
	if command -v strace >/dev/null; then
		strace -f -qq -e trace=open,openat -o "$w/$name.strace" \
			"$T" replay "$@" "$dir/$name" >"$dir/$name.out" 2>"$dir/$name.err"
		put "$name-exit $?"
		if grep -q '/dev/uinput' "$w/$name.strace"; then put "$name-uinput opened"; else
			put "$name-uinput not opened"; fi
	else
		"$T" replay "$@" "$dir/$name" >"$dir/$name.out" 2>"$dir/$name.err"
		put "$name-exit $?"
		put "$name-uinput unknown (no strace)"
	fi
}

while read -r name; do
	before=$(cat /proc/bus/input/devices)
	replay "$name"
	if [ "$(cat /proc/bus/input/devices)" = "$before" ]; then put "$name-devices same"; else
		put "$name-devices changed"; fi
done <"$dir/cases"

# The valid file last: the kernel sends its uevents in order, so once the
# monitor has this device's, it would have had any earlier one.
mark_u=$(($(wc -l <"$w/uevents") + 1))
mark_s=$(($(wc -l <"$w/sysfs") + 1))
# Half a second before the first frame keeps its device long enough for
# the poll.
replay good.jsonl --start-delay 0.5
for _ in $(seq 200); do [ "$(uevents "$mark_u")" -ge 2 ] && break; sleep 0.05; done
put "invalid-uevents $(head -n $((mark_u - 1)) "$w/uevents" | grep -c '^KERNEL\[.*(input)$')"
put "invalid-sysfs $(head -n $((mark_s - 1)) "$w/sysfs" | sort -u | comm -13 "$w/sysfs-before" - | grep -c .)"
put "good-uevents $(uevents "$mark_u")"
put "good-sysfs $(sysfs_new "$mark_s")"
kill "$monpid" "$pollpid" 2>/dev/null
wait 2>/dev/null
cp "$w/uevents" "$dir/uevents.log"
rm -rf "$w"
exit 0
