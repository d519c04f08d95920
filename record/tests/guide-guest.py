#!/usr/bin/env python3
# In the VM (record/tests/guide-vm.sh): a replayed touchscreen plays a
# still finger, a stroke and a tap while `touchtape record --guide` runs
# in a pseudo-terminal, driven as a person would: Enter around each of
# those exercises, s for the others.
# Usage: guide-guest.py TOUCHTAPE IN OUT [RECORD OPTIONS...]
import os
import pty
import select
import subprocess
import sys
import time

tt, infile, outfile = sys.argv[1:4]
extra = sys.argv[4:]
log = open(outfile + ".tty", "wb")


def wait_device(timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if b"touchtape replay:" in subprocess.run([tt, "list"], capture_output=True).stdout:
            return
        time.sleep(0.2)
    sys.exit("no replay device")


def read_until(fd, want, timeout):
    """Reads the terminal until WANT appears; everything read is logged."""
    end, seen = time.time() + timeout, b""
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            log.write(chunk)
            seen += chunk
            if want.encode() in seen:
                return True
    return False


replay = subprocess.Popen([tt, "replay", "--quiet", "--wait", infile], stdin=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wait_device()
pid, fd = pty.fork()
if pid == 0:
    os.execv(tt, [tt, "record", "--guide", "touchscreen"] + extra + ["-o", outfile, "touchtape replay:*"])
if not read_until(fd, "Exercise 1 of 6", 30):
    sys.exit("no first exercise")
os.write(fd, b"\n")    # the still finger's exercise begins, then its touch
read_until(fd, "Go:", 10)
replay.stdin.write(b"\n")
replay.stdin.flush()
t0 = time.time()
# The replay from its first frame: a still finger 0-3 s, a stroke 5-6.5 s,
# a tap at 8.5 s, a last frame at 12 s (the device stays until then).
script = [(4.0, b"\n"), (4.3, b"\n"), (7.5, b"\n"), (7.6, b"s"), (7.7, b"s"),
          (7.8, b"\n"), (10.0, b"\n"), (10.2, b"s")]
for at, key in script:
    while time.time() < t0 + at:
        read_until(fd, "\0", 0.05)
    os.write(fd, key)
ok = read_until(fd, "grade (touchscreen", 60)
read_until(fd, "\0", 2)
_, status = os.waitpid(pid, 0)
replay.wait()
print("record exit", os.waitstatus_to_exitcode(status), "grade printed" if ok else "no grade")
sys.exit(0 if ok and os.waitstatus_to_exitcode(status) == 0 else 1)
