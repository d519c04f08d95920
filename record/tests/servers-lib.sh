# Sourced after tests/lib.sh by the host tests that start X servers and
# compositors (xi-refuse.sh, record-wayland.sh): the processes started are
# killed at exit, and a bounded wait.

# PIDs to kill at exit: add each server started in the background.
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# wait_for SECONDS COMMAND...: polls COMMAND every 0.1 s.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		((SECONDS < deadline)) || return 1
		sleep 0.1
	done
}
