#!/usr/bin/env python3
# In the VM (record/tests/guide-vm.sh, guide-xi-vm.sh): a replayed
# touchscreen plays a still finger, a stroke and a tap
# (guide-fixture.py) while `touchtape record --guide` runs in a
# pseudo-terminal, driven as a person would: Enter around each of those
# exercises, s for the others.
# Usage: guide-guest.py TOUCHTAPE IN OUT DEVICE [RECORD OPTIONS...]
# IN is replayed through uinput, or through uhid (replay --hid) when it
# is a hid-recorder file (*.hid); DEVICE names the device it makes, as
# record takes it. With --xi, the X server has the device before the
# recording starts.
import os
import pty
import select
import subprocess
import sys
import time

tt, infile, outfile, device = sys.argv[1:5]
extra = sys.argv[5:]
hid = infile.endswith(".hid")
log = open(outfile + ".tty", "wb")


def wait_for(cmd, want, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if want.encode() in subprocess.run(cmd, capture_output=True).stdout:
            return True
        time.sleep(0.2)
    return False


def wait_device():
    name = device.rstrip("*")
    if not wait_for([tt, "list"], name):
        sys.exit("no replayed device " + name)
    if "--xi" in extra:
        if not wait_for(["xinput", "list", "--name-only"], name):
            sys.exit("the X server did not add " + name)
        # udev (run for Xorg) replaces a new node once: open it after that.
        subprocess.run(["udevadm", "settle", "--timeout=10"])


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


# --allow-keys: the HID touchscreen's keyboard report is the point (the
# guest has no session the key could act on).
replay = subprocess.Popen([tt, "replay", "--quiet", "--wait"] + (["--hid", "--allow-keys"] if hid else []) + [infile],
                          stdin=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wait_device()
pid, fd = pty.fork()
if pid == 0:
    os.execv(tt, [tt, "record", "--guide", "touchscreen"] + extra + ["-o", outfile, device])
if not read_until(fd, "Exercise 1 of 6", 30):
    sys.exit("no first exercise")
os.write(fd, b"\n")    # the still finger's exercise begins, then its touch
read_until(fd, "Go:", 10)
replay.stdin.write(b"\n")
replay.stdin.flush()
t0 = time.time()
# The replay from its first frame (guide-fixture.py): a still finger 0-3 s,
# a stroke 5-6.5 s, a tap at 8.5 s, a last frame at 12 s (the device stays
# until then).
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
