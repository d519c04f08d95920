# SPDX-License-Identifier: MIT
"""What make-hid.py writes its hid-recorder files with: report descriptor
items and the usual pieces of a digitizer's descriptor, hid-recorder's
file layout, and contact reports at ~120 Hz."""
import math

# Short items: base tag (size bits 0) of each item used.
UPAGE, LMIN, LMAX, PMIN, PMAX, UEXP, UNIT, RSIZE, RID, RCOUNT = (
    0x04, 0x14, 0x24, 0x34, 0x44, 0x54, 0x64, 0x74, 0x84, 0x94)
USAGE, UMIN, UMAX = 0x08, 0x18, 0x28
INPUT, OUTPUT, FEATURE, COLL, END = 0x80, 0x90, 0xb0, 0xa0, 0xc0
DATA, CNST = 0x02, 0x03     # Input (Data,Var,Abs), Input (Cnst,Var,Abs)
NAMES = {UPAGE: "Usage Page", LMIN: "Logical Minimum", LMAX: "Logical Maximum",
         PMIN: "Physical Minimum", PMAX: "Physical Maximum",
         UEXP: "Unit Exponent", UNIT: "Unit", RSIZE: "Report Size",
         RID: "Report ID", RCOUNT: "Report Count", USAGE: "Usage",
         UMIN: "Usage Minimum", UMAX: "Usage Maximum", INPUT: "Input",
         OUTPUT: "Output", FEATURE: "Feature", COLL: "Collection",
         END: "End Collection"}


def item(tag, value=None):
    """One short item, in the fewest bytes that hold VALUE (signed for
    the logical and physical bounds, as the HID spec reads them)."""
    if value is None:
        return [tag]
    signed = tag in (LMIN, LMAX, PMIN, PMAX)
    for size, code in ((1, 1), (2, 2), (4, 3)):
        lo, hi = (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1) if signed \
            else (0, (1 << (8 * size)) - 1)
        if lo <= value <= hi:
            v = value & ((1 << (8 * size)) - 1)
            return [tag | code] + [(v >> (8 * i)) & 0xff for i in range(size)]
    raise ValueError(value)


def field(usage, bits, lmax, count=1, lmin=0, kind=DATA, main=INPUT):
    return (item(USAGE, usage) + item(LMIN, lmin) + item(LMAX, lmax) +
            item(RSIZE, bits) + item(RCOUNT, count) + item(main, kind))


def pad(bits):
    return item(RSIZE, bits) + item(RCOUNT, 1) + item(INPUT, CNST)


def axis(usage, lmax, pmax):
    """X or Y: 16 bits, physical size in cm with exponent -2 (0.01 cm)."""
    return (item(UPAGE, 0x01) + item(USAGE, usage) + item(LMIN, 0) +
            item(LMAX, lmax) + item(PMIN, 0) + item(PMAX, pmax) +
            item(UNIT, 0x11) + item(UEXP, 0x0e) + item(RSIZE, 16) +
            item(RCOUNT, 1) + item(INPUT, DATA) + item(UNIT, 0) + item(UEXP, 0))


def finger(bits_before_tip, xmax, ymax, xphys, yphys, id_bits):
    """A Finger collection: the bits before Tip Switch (In Range,
    Confidence), Tip Switch, Contact Id filling the byte, X, Y."""
    d = item(UPAGE, 0x0d) + item(USAGE, 0x22) + item(COLL, 0x02)
    for usage in bits_before_tip:
        d += field(usage, 1, 1)
    d += field(0x42, 1, 1) + field(0x51, id_bits, (1 << id_bits) - 1)
    return d + axis(0x30, xmax, xphys) + axis(0x31, ymax, yphys) + item(END)


def scan_and_count(max_contacts):
    """Scan Time in units of 100 us (16 bits, wrapping) and Contact Count."""
    return (item(UPAGE, 0x0d) + item(USAGE, 0x56) + item(LMIN, 0) +
            item(LMAX, 0xffff) + item(UNIT, 0x1001) + item(UEXP, 0x0c) +
            item(RSIZE, 16) + item(RCOUNT, 1) + item(INPUT, DATA) +
            item(UNIT, 0) + item(UEXP, 0) + field(0x54, 8, max_contacts))


def keyboard(report_id):
    """A boot-style keyboard: 8 modifier bits, a reserved byte, 6 keys."""
    return (item(UPAGE, 0x01) + item(USAGE, 0x06) + item(COLL, 0x01) +
            item(RID, report_id) + item(UPAGE, 0x07) + item(UMIN, 0xe0) +
            item(UMAX, 0xe7) + item(LMIN, 0) + item(LMAX, 1) +
            item(RSIZE, 1) + item(RCOUNT, 8) + item(INPUT, DATA) + pad(8) +
            item(UMIN, 0) + item(UMAX, 0x65) + item(LMIN, 0) +
            item(LMAX, 0x65) + item(RSIZE, 8) + item(RCOUNT, 6) +
            item(INPUT, 0x00) + item(END))


def describe(rdesc):
    """hid-recorder's commented listing of the descriptor, shortened: the
    bytes of each item and its name."""
    out, i, depth = [], 0, 0
    while i < len(rdesc):
        b = rdesc[i]
        size = (0, 1, 2, 4)[b & 3]
        chunk = rdesc[i:i + 1 + size]
        name = NAMES.get(b & 0xfc, "?")
        depth -= name == "End Collection"
        text = " ".join("0x%02x," % x for x in chunk)
        arg = "" if size == 0 else " (%d)" % int.from_bytes(bytes(chunk[1:]), "little")
        out.append("# %-30s //%s %s%s %d" % (text, " " * depth, name, arg, i))
        depth += name == "Collection"
        i += 1 + size
    return out


class Writer:
    def __init__(self, name, bus, vendor, product, rdesc):
        self.lines = ["# %s" % name,
                      "# Written by tests/corpus/make-hid.py (touchtape, MIT):",
                      "# a synthetic recording with the project's own report descriptor."]
        self.lines += describe(rdesc) + ["# "]
        self.lines.append("R: %d %s" % (len(rdesc), " ".join("%02x" % b for b in rdesc)))
        self.lines.append("N: %s" % name)
        self.lines.append("I: %x %04x %04x" % (bus, vendor, product))

    def report(self, t, data, comment):
        self.lines += comment
        self.lines.append("E: %013.6f %d %s" % (t, len(data), " ".join("%02x" % b for b in data)))

    def save(self, path):
        with open(path, "w") as f:
            f.write("\n".join(self.lines) + "\n")


def le16(v):
    return [v & 0xff, (v >> 8) & 0xff]


class Digitizer:
    """Sends contact reports at ~120 Hz: each frame lists the contacts
    down and those lifting (tip 0, their last position), Windows-style."""

    def __init__(self, writer, geom, flags, button=False, rng=None):
        self.w, self.g, self.flags, self.button = writer, geom, flags, button
        self.rng = rng
        self.t = 0.0
        self.next_id = 0
        self.pressed = 0

    def new_id(self):
        cid = self.next_id
        self.next_id = (self.next_id + 1) % (1 << self.g["id_bits"])
        return cid

    def tick(self):
        """The next report's time: ~8.3 ms on, with jitter."""
        self.t += 0.0083 + self.rng.uniform(-0.0004, 0.0004)

    def frame(self, contacts):
        """CONTACTS: (id, tip, x, y) for at most the slots."""
        g = self.g
        scan = int(self.t * 10000) & 0xffff
        data, comment = [1], []
        for i in range(g["slots"]):
            cid, tip, x, y = contacts[i] if i < len(contacts) else (0, 0, 0, 0)
            on = 1 if i < len(contacts) else 0
            bits = [on] * len(self.flags) + [tip]
            byte = sum(b << n for n, b in enumerate(bits)) | cid << len(bits)
            data += [byte] + le16(x) + le16(y)
            names = "".join("%s: %d | " % (f, on) for f in self.flags)
            comment.append("# %s | %sTip Switch: %d | Contact Id: %2d | X: %6d | Y: %6d "
                           % ("ReportID: 1 /" if i == 0 else "            ", names, tip, cid, x, y))
        data += le16(scan) + [len(contacts)]
        tail = "| Scan Time: %6d | Contact Count: %4d " % (scan, len(contacts))
        if self.button:
            data.append(self.pressed)
            tail += "| Button: %d | # " % self.pressed
        comment[-1] += tail
        self.w.report(self.t, data, comment)
        self.tick()

    def idle(self, seconds):
        self.t += seconds

    def stroke(self, paths, frames):
        """PATHS: one function of s in [0, 1] -> (x, y) per finger; all
        fingers touch down together, move FRAMES frames and lift."""
        ids = [self.new_id() for _ in paths]
        pos = []
        for k in range(frames):
            pos = at(paths, ease(k, frames))
            self.frame([(cid, 1, x, y) for cid, (x, y) in zip(ids, pos)])
        self.frame([(cid, 0, x, y) for cid, (x, y) in zip(ids, pos)])


def ease(k, frames):
    """Frame K of FRAMES along a path: slow at both ends."""
    return 0.5 - 0.5 * math.cos(math.pi * k / (frames - 1))


def at(paths, s):
    return [tuple(int(round(c)) for c in p(s)) for p in paths]


def line(x0, y0, x1, y1):
    return lambda s: (x0 + (x1 - x0) * s, y0 + (y1 - y0) * s)


def arc(cx, cy, r, a0, a1):
    return lambda s: (cx + r * math.cos(a0 + (a1 - a0) * s),
                      cy + r * math.sin(a0 + (a1 - a0) * s))


def keys(w, t, text):
    """Key presses on report ID 3: press and release of each usage,
    shift (modifier bit 1) where MODS says so. Returns the time after."""
    for usage, mods in text:
        for down in (True, False):
            data = [3, mods if down else 0, 0, usage if down else 0, 0, 0, 0, 0, 0]
            w.report(t, data, ["# ReportID: 3 / Keyboard LeftShift: %d | # | Keyboard: %d,0,0,0,0,0 "
                               % (1 if down and mods else 0, usage if down else 0)])
            t += 0.09 if down else 0.14
    return t
