#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Helper of hid-descriptors-vm.sh.

  hid-descriptors.py make DATA OUTDIR
      one hid-recorder file per descriptor of DATA (N:/R:/S: lines, see
      hid/tests/data/hid-tools-multitouch.hid) in OUTDIR/NN.hid, and on
      stdout one line per descriptor, tab-separated:
      index, name, kinds (touchscreen,touchpad,... or -), expected slots
  hid-descriptors.py probe DIR IDX...
      the evdev nodes replay printed in DIR/IDX.log, probed while they
      exist, into DIR/IDX.probe: one line per node: node,
      ABS_MT_POSITION_X/Y present (1/0), slot count (ABS_MT_SLOT
      maximum + 1, 0 without ABS_MT_SLOT)
  hid-descriptors.py check EXPECTED DIR
      one line per descriptor of EXPECTED (what make printed) saying what
      the kernel made of it, a FAIL: line naming it for each check that
      fails; exits 1 after any

The expected slot count is what hid-multitouch makes of the descriptor
when the driver's GET_REPORT of the Contact Count Maximum feature gets
EIO (replay answers from recorded feature reports only, and these files
have none): mt_get_feature() warns and leaves the field at 0, so
mt_feature_mapping() takes the field's logical maximum when it is at most
MT_MAX_MAXCONTACT (250); without a usable one, mt_touch_input_configured()
falls back to MT_DEFAULT_MAXCONTACT (10). A class of the kernel's
mt_devices table with its own maxcontacts overrides both (CLASS_MAX).
"""
import fcntl
import os
import re
import struct
import sys

# hid-tools' tests give these devices their USB vendor and product
# (input_info=(BusType.USB, vvvv, pppp)); the others (the Win8 and
# precision touchpad classes) get hid-tools' default, USB 0001:0002. Those
# are the names with a lower-case vendor, and two more.
BUS_USB = 0x03
DEFAULT_IDS = (0x0001, 0x0002)
WITH_IDS = re.compile(r"^Test[A-Z0-9][A-Za-z0-9_]*?_([0-9a-f]{4})_([0-9a-f]{4})(_1)?$")
WIN8_IDS_IN_NAME = ("Test3m_0596_051c",)

# hid-multitouch classes with a fixed maxcontacts, by vendor:product
# (drivers/hid/hid-multitouch.c, mt_devices[] and mt_classes[]).
CLASS_MAX = {
    (0x0596, 0x0500): 60, (0x0596, 0x0506): 60,     # MT_CLS_3M
    (0x25b5, 0x0002): 40,                           # MT_CLS_FLATFROG
    (0x1784, 0x0016): 2,                            # MT_CLS_TOPSEED
}

CONTACT_MAX = (0x0D << 16) | 0x55
APPLICATIONS = {
    (0x0D << 16) | 0x02: "pen",
    (0x0D << 16) | 0x04: "touchscreen",
    (0x0D << 16) | 0x05: "touchpad",
}
MT_MAX_MAXCONTACT = 250
MT_DEFAULT_MAXCONTACT = 10


def item_value(data, signed):
    if not data:
        return 0
    return int.from_bytes(data, "little", signed=signed)


def walk(desc):
    """(kinds, logical maximum of Contact Count Maximum or None)."""
    g = {"page": 0, "lmin": 0, "lmax": 0, "count": 0}
    stack, usages, kinds, cmax = [], [], [], None
    i = 0
    while i < len(desc):
        b = desc[i]
        if b == 0xFE:  # long item: size, tag, data
            i += 3 + (desc[i + 1] if i + 1 < len(desc) else 0)
            continue
        size = (0, 1, 2, 4)[b & 3]
        data = bytes(desc[i + 1:i + 1 + size])
        i += 1 + size
        kind, tag = (b >> 2) & 3, b >> 4
        if kind == 1:  # global
            if tag == 0:
                g["page"] = item_value(data, False)
            elif tag == 1:
                g["lmin"] = item_value(data, True)
            elif tag == 2:
                g["lmax"] = item_value(data, g["lmin"] < 0)
            elif tag == 9:
                g["count"] = item_value(data, False)
            elif tag == 10:
                stack.append(dict(g))
            elif tag == 11 and stack:
                g = stack.pop()
        elif kind == 2 and tag == 0:  # local usage
            u = item_value(data, False)
            usages.append(u if size == 4 else (g["page"] << 16) | u)
        elif kind == 0:  # main
            if tag == 10 and data and data[0] == 1 and usages:
                k = APPLICATIONS.get(usages[-1])
                if k and k not in kinds:
                    kinds.append(k)
            if tag == 11 and CONTACT_MAX in usages[:max(g["count"], 1)]:
                cmax = g["lmax"]
            usages = []
    return kinds, cmax


def expected_slots(ids, cmax):
    if ids in CLASS_MAX:
        return CLASS_MAX[ids]
    if cmax is not None and 0 < cmax <= MT_MAX_MAXCONTACT:
        return cmax
    return MT_DEFAULT_MAXCONTACT


def devices(path):
    name = None
    for line in open(path):
        if line.startswith("N: "):
            name = line[3:].strip()
        elif line.startswith("R: ") and name:
            f = line.split()
            yield name, bytes(int(x, 16) for x in f[2:2 + int(f[1])])
            name = None


def make(data, outdir):
    for n, (name, desc) in enumerate(devices(data)):
        m = WITH_IDS.match(name) if name not in WIN8_IDS_IN_NAME else None
        ids = (int(m.group(1), 16), int(m.group(2), 16)) if m else DEFAULT_IDS
        kinds, cmax = walk(desc)
        with open(os.path.join(outdir, "%02d.hid" % n), "w") as out:
            out.write("# %s, from hid-tools' tests/test_multitouch.py\n" % name)
            out.write("D: 0\nR: %d %s\n" % (len(desc), " ".join("%02x" % b for b in desc)))
            out.write("N: tt-desc %s\nP: tt-desc/%02d\n" % (name, n))
            out.write("I: %x %04x %04x\n" % (BUS_USB, ids[0], ids[1]))
        print("%02d\t%s\t%s\t%d" % (n, name, ",".join(kinds) or "-", expected_slots(ids, cmax)))


EV_ABS, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 3, 0x2f, 0x35, 0x36


def ioc_read(nr, size):
    return (2 << 30) | (size << 16) | (ord("E") << 8) | nr


def probe_node(node):
    with open(node, "rb") as f:
        bits = bytearray(8)
        fcntl.ioctl(f, ioc_read(0x20 + EV_ABS, len(bits)), bits)
        has = lambda code: bits[code // 8] >> (code % 8) & 1
        pos = int(has(ABS_MT_POSITION_X) and has(ABS_MT_POSITION_Y))
        slots = 0
        if has(ABS_MT_SLOT):
            absinfo = bytearray(24)
            fcntl.ioctl(f, ioc_read(0x40 + ABS_MT_SLOT, len(absinfo)), absinfo)
            slots = struct.unpack("6i", absinfo)[2] + 1
    return pos, slots


def replayed(log):
    """(driver, evdev nodes) of the HID device line replay printed."""
    for line in open(log, errors="replace"):
        m = re.match(r"HID device .*, driver ([^:]*)", line)
        if m:
            return m.group(1), re.findall(r"/dev/input/event[0-9]+", line)
    return None, []


def probe(outdir, indices):
    for idx in indices:
        with open(os.path.join(outdir, idx + ".probe"), "w") as out:
            for node in replayed(os.path.join(outdir, idx + ".log"))[1]:
                out.write("%s\t%d\t%d\n" % ((node,) + probe_node(node)))


def check_one(outdir, idx, name, kinds, want):
    """The failures of one descriptor, after printing what it became."""
    log = os.path.join(outdir, idx + ".log")
    driver, nodes = replayed(log)
    if driver is None:
        return ["%s: no device: %s" % (name, open(log, errors="replace").read().strip())]
    rows = [line.split("\t") for line in open(os.path.join(outdir, idx + ".probe"))]
    mt = sum(1 for r in rows if r[1] == "1")
    slots = sorted({int(r[2]) for r in rows if int(r[2]) > 0})
    print("%s: driver %s, %d evdev device(s), %d with ABS_MT_POSITION_X/Y, slots %s (expected %s)"
          % (name, driver, len(nodes), mt, "/".join(map(str, slots)) or "none", want))
    bad = []
    rc = open(os.path.join(outdir, idx + ".rc")).read().strip()
    if rc != "0":
        bad.append("%s: replay exit %s" % (name, rc))
    if driver != "hid-multitouch":
        bad.append("%s: driver %s, not hid-multitouch" % (name, driver))
    if not nodes:
        bad.append("%s: no evdev device" % name)
    if ("touchscreen" in kinds or "touchpad" in kinds) and not mt:
        bad.append("%s (%s): no evdev device with ABS_MT_POSITION_X/Y" % (name, kinds))
    if slots and slots != [int(want)]:
        bad.append("%s: %s slots, %s expected" % (name, "/".join(map(str, slots)), want))
    if not slots and kinds != "-":
        bad.append("%s (%s): no ABS_MT_SLOT" % (name, kinds))
    return bad


def check(expected, outdir):
    bad = []
    for line in open(expected):
        bad += check_one(outdir, *line.rstrip("\n").split("\t"))
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "probe":
        probe(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
