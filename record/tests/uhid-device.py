#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A HID device through /dev/uhid, from a hid-recorder file (record-hid-vm.sh).

Usage: uhid-device.py HIDFILE LOG [PHYS]
Creates the device (UHID_CREATE2) with the file's descriptor, name and bus
(and PHYS, default touchtape-test/input0),
answers every GET_REPORT (feature reports) and SET_REPORT at once, and reads
commands on stdin:
  send N [MS]   sends the file's next N input reports (E: lines), MS apart
  quit          destroys the device and exits
It logs to LOG what it did, one line each, for the test to compare:
  get RNUM ERR HEX    a GET_REPORT and the answer given (HEX empty on error)
  input T HEX         an input report; T = CLOCK_MONOTONIC in us just before
                      the write that made the kernel process it
"""
import errno
import os
import select
import struct
import sys
import time

UHID_DESTROY, UHID_START, UHID_GET_REPORT = 1, 2, 9
UHID_GET_REPORT_REPLY, UHID_CREATE2, UHID_INPUT2 = 10, 11, 12
UHID_SET_REPORT, UHID_SET_REPORT_REPLY = 13, 14
EVENT_SIZE = 4 + 4372  # sizeof(struct uhid_event): the CREATE2 member
# The feature report this device refuses, so that the recorder records an
# error: the largest vendor blob of the ILITEK descriptor, a vendor report
# of the project's touchtape-touchscreen-features.hid.
REFUSED = 7


def feature_sizes(desc):
    """Each feature report's size in bytes, its report ID byte included
    when there is one, by report ID: the bits of the Feature items under
    each Report ID (a walk of the short items; Push and Pop kept)."""
    bits, stack, i = {}, [], 0
    rid, rsize, rcount = 0, 0, 0
    while i < len(desc):
        if desc[i] == 0xfe:     # a long item: its size, its tag, the data
            i += 3 + desc[i + 1]
            continue
        tag, n = desc[i] & 0xfc, (0, 1, 2, 4)[desc[i] & 3]
        value = int.from_bytes(desc[i + 1:i + 1 + n], "little")
        if tag == 0x84:
            rid = value
        elif tag == 0x74:
            rsize = value
        elif tag == 0x94:
            rcount = value
        elif tag == 0xa4:
            stack.append((rid, rsize, rcount))
        elif tag == 0xb4 and stack:
            rid, rsize, rcount = stack.pop()
        elif tag == 0xb0:
            bits[rid] = bits.get(rid, 0) + rsize * rcount
        i += 1 + n
    return {r: (b + 7) // 8 + (1 if r else 0) for r, b in bits.items()}


def feature_answer(rnum, size=64):
    """What the device answers for feature report RNUM of SIZE bytes:
    Contact Count Maximum 10 for report 2 (the ILITEK's and the project's
    touchscreen's), a recognisable pattern else, of 64 bytes at most."""
    if rnum == 2:
        return bytes([2, 10])
    return bytes([rnum] + [(rnum * 16 + i) & 0xff for i in range(1, 64)])[:size]


def parse_recording(path):
    desc, name, bus, vendor, product, reports = b"", "", 0, 0, 0, []
    with open(path) as f:
        for line in f:
            tag, _, rest = line.partition(":")
            words = rest.split()
            if tag == "R":
                desc = bytes(int(w, 16) for w in words[1:])
            elif tag == "N":
                name = rest.strip()
            elif tag == "I":
                bus, vendor, product = (int(w, 16) for w in words)
            elif tag == "E":
                reports.append(bytes(int(w, 16) for w in words[2:]))
    return desc, name, bus, vendor, product, reports


def write_event(fd, evtype, payload):
    buf = struct.pack("<I", evtype) + payload
    os.write(fd, buf + bytes(EVENT_SIZE - len(buf)))


def create(fd, desc, name, bus, vendor, product, phys="touchtape-test/input0"):
    payload = struct.pack("<128s64s64sHHIIII", name.encode()[:127], phys.encode()[:63],
                          b"", len(desc), bus, vendor, product, 0x0100, 0)
    write_event(fd, UHID_CREATE2, payload + desc)


def serve(fd, log, sizes):
    """Answers one request from the kernel, if it is one; SIZES: the
    feature reports' sizes by report ID."""
    ev = os.read(fd, EVENT_SIZE)
    evtype = struct.unpack_from("<I", ev)[0]
    if evtype == UHID_GET_REPORT:
        rid, rnum, _ = struct.unpack_from("<IBB", ev, 4)
        err, data = (errno.EIO, b"") if rnum == REFUSED else (0, feature_answer(rnum, sizes.get(rnum, 64)))
        write_event(fd, UHID_GET_REPORT_REPLY, struct.pack("<IHH", rid, err, len(data)) + data)
        log.write("get %d %d %s\n" % (rnum, err, data.hex()))
    elif evtype == UHID_SET_REPORT:
        rid = struct.unpack_from("<I", ev, 4)[0]
        write_event(fd, UHID_SET_REPORT_REPLY, struct.pack("<IH", rid, 0))
    log.flush()


def send(fd, report, log):
    t = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    write_event(fd, UHID_INPUT2, struct.pack("<H", len(report)) + report)
    log.write("input %d %s\n" % (t, report.hex()))
    log.flush()


def main():
    desc, name, bus, vendor, product, reports = parse_recording(sys.argv[1])
    log = open(sys.argv[2], "w")
    fd = os.open("/dev/uhid", os.O_RDWR | os.O_CLOEXEC)
    create(fd, desc, name, bus, vendor, product, *sys.argv[3:4])
    sizes = feature_sizes(desc)
    pending, gap, deadline, stdin_open = 0, 0.0, 0.0, True
    while stdin_open or pending:
        timeout = max(0.0, deadline - time.monotonic()) if pending else None
        watched = [fd, sys.stdin] if stdin_open else [fd]
        ready = select.select(watched, [], [], timeout)[0]
        if fd in ready:
            serve(fd, log, sizes)
        if sys.stdin in ready:
            cmd = sys.stdin.readline().split()
            if not cmd or cmd[0] == "quit":
                stdin_open = False
            elif cmd[0] == "send":
                pending = min(int(cmd[1]), len(reports))
                gap = int(cmd[2]) / 1000.0 if len(cmd) > 2 else 0.005
                deadline = time.monotonic()
        if pending and time.monotonic() >= deadline:
            send(fd, reports.pop(0), log)
            pending -= 1
            deadline += gap
    write_event(fd, UHID_DESTROY, b"")
    os.close(fd)


if __name__ == "__main__":
    main()
