#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Test helper, a second reader independent of touchtape: watches
# /dev/input for devices whose name starts with PREFIX, reads each one
# from the moment it appears until it goes away, and prints what it saw:
# NAME is the device's name after "touchtape replay: ", spaces as _.
#   device NAME                     once per device, when opened
#   has NAME KEY_CODE 0|1           its EV_KEY capabilities for the CODES asked
#   key NAME CODE VALUE             every EV_KEY event
# It stops SECONDS after it started, or once every device it opened is
# gone (and at least one was). READY_FILE is created once it watches.
#   evkeys.py PREFIX SECONDS READY_FILE CODE... > seen.txt
import fcntl, os, select, struct, sys, time

FMT = "llHHi"
SIZE = struct.calcsize(FMT)
EV_KEY = 1
KEY_MAX = 0x2ff


def ioc(nr, size):  # _IOC(_IOC_READ, 'E', nr, size)
    return (2 << 30) | (size << 16) | (ord("E") << 8) | nr


prefix, seconds, ready = sys.argv[1], float(sys.argv[2]), sys.argv[3]
codes = [int(c, 0) for c in sys.argv[4:]]
devs = {}  # fd -> name
seen_nodes = set()
opened_any = False
end = time.monotonic() + seconds
open(ready, "w").close()


def name_of(fd):
    buf = bytearray(256)
    fcntl.ioctl(fd, ioc(0x06, len(buf)), buf)  # EVIOCGNAME
    return buf.split(b"\0", 1)[0].decode(errors="replace")


def look():
    global opened_any
    for node in sorted(os.listdir("/dev/input")):
        path = "/dev/input/" + node
        if not node.startswith("event") or path in seen_nodes:
            continue
        seen_nodes.add(path)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        name = name_of(fd)
        if not name.startswith(prefix):
            os.close(fd)
            continue
        devs[fd] = name.split(": ", 1)[-1].replace(" ", "_")
        opened_any = True
        bits = bytearray((KEY_MAX + 8) // 8)
        fcntl.ioctl(fd, ioc(0x20 + EV_KEY, len(bits)), bits)  # EVIOCGBIT(EV_KEY)
        print("device", devs[fd], flush=True)
        for c in codes:
            print("has", devs[fd], hex(c), (bits[c // 8] >> (c % 8)) & 1, flush=True)


def drain(fd):
    try:
        data = os.read(fd, SIZE * 64)
    except BlockingIOError:
        return True
    except OSError:
        return False
    if not data:
        return False
    for i in range(0, len(data) - SIZE + 1, SIZE):
        _, _, t, c, v = struct.unpack(FMT, data[i:i + SIZE])
        if t == EV_KEY:
            print("key", devs[fd], hex(c), v, flush=True)
    return True


while time.monotonic() < end:
    look()
    if opened_any and not devs:
        break
    r, _, _ = select.select(list(devs), [], [], 0.02)
    for fd in r:
        if not drain(fd):
            os.close(fd)
            del devs[fd]
