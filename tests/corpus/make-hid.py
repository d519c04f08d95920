#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the project's own hid-recorder files (tests/corpus/hid-recorder/
touchtape-*.hid):
  touchtape-touchscreen-keyboard.hid   a Windows-style multitouch
      touchscreen with a keyboard collection in the same device;
  touchtape-touchpad.hid               a precision-touchpad-style touchpad;
  touchtape-touchscreen-features.hid   a touchscreen with feature reports
      (Contact Count Maximum, the Windows blob, Device Mode, two vendor
      reports) and a keyboard collection;
  touchtape-touchscreen-pen.hid        a touchscreen and a pen (Stylus:
      In Range, Tip, Barrel, Invert, Eraser, X, Y, pressure, tilt);
  touchtape-touchpad-ghost.hid         a touchpad whose firmware forgets
      contacts: they stop being reported without a tip up;
  touchtape-touchscreen-noconfidence.hid  a touchscreen whose contacts
      have no Confidence (nor In Range): Tip Switch, Contact Id, X, Y.
The report descriptors are the project's own; the motion is synthetic
(smooth paths at ~120 Hz with timing jitter, touches and lifts), so the
files can ship under the project's licence where the real recordings of
the public corpus cannot. Run at authoring time; the output is committed.
The random generator is seeded: the same script writes the same bytes.

Usage: make-hid.py OUTDIR"""
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hidgen import (UPAGE, LMIN, LMAX, UEXP, UNIT, RSIZE, RID, RCOUNT, USAGE,  # noqa: E402
                    INPUT, FEATURE, COLL, END, DATA, item, field, pad, axis,
                    finger, scan_and_count, keyboard, Writer, Digitizer, le16,
                    ease, at, line, arc, keys)

TS = dict(xmax=4095, ymax=4095, xphys=2560, yphys=1440, slots=2, id_bits=5)
TP = dict(xmax=3000, ymax=1900, xphys=1050, yphys=660, slots=2, id_bits=6)
# The ghost touchpad: five contact slots, as the Synaptics DLL0945 has.
TPG = dict(xmax=1250, ymax=800, xphys=1050, yphys=660, slots=5, id_bits=6)
# Without In Range and Confidence, Contact Id fills the byte after Tip Switch.
TSN = dict(TS, id_bits=7)
PEN = dict(xmax=9600, ymax=5400, xphys=2560, yphys=1440, pressure=4095, tilt=60)


def touch_collection(usage, geom, flags):
    """A touchscreen (usage 4) or touchpad (5) application collection,
    report ID 1, left open for what follows the contacts."""
    d = item(UPAGE, 0x0d) + item(USAGE, usage) + item(COLL, 0x01) + item(RID, 1)
    for _ in range(geom["slots"]):
        d += finger(flags, geom["xmax"], geom["ymax"], geom["xphys"],
                    geom["yphys"], geom["id_bits"])
    return d + scan_and_count(geom["slots"])


def touchscreen_rdesc():
    return touch_collection(0x04, TS, [0x32, 0x47]) + item(END) + keyboard(3)


def button():
    return (item(UPAGE, 0x09) + item(USAGE, 0x01) + item(LMIN, 0) +
            item(LMAX, 1) + item(RSIZE, 1) + item(RCOUNT, 1) +
            item(INPUT, DATA) + pad(7))


def touchpad_rdesc(geom=TP):
    return touch_collection(0x05, geom, [0x47]) + button() + item(END)


def features_rdesc():
    """The touchscreen's feature reports, where Windows devices have
    them: Contact Count Maximum (ID 2) and the 256-byte certification
    blob (ID 4, vendor usage 0xff0000c5) in the touchscreen collection;
    Device Mode and Device Identifier (ID 5) in a Device Configuration
    collection; a vendor collection of two feature reports (IDs 6 and 7;
    record/tests/uhid-device.py refuses 7) and the keyboard (ID 3)."""
    d = touch_collection(0x04, TS, [0x32, 0x47])
    d += item(RID, 2) + field(0x55, 8, 10, main=FEATURE)
    d += item(RID, 4) + item(UPAGE, 0xff00) + field(0xc5, 8, 255, count=256, main=FEATURE)
    d += item(END)
    d += (item(UPAGE, 0x0d) + item(USAGE, 0x0e) + item(COLL, 0x01) + item(RID, 5) +
          item(USAGE, 0x22) + item(COLL, 0x02) + field(0x52, 8, 10, main=FEATURE) +
          field(0x53, 8, 1, main=FEATURE) + item(END) + item(END))
    d += (item(UPAGE, 0xff00) + item(USAGE, 0x01) + item(COLL, 0x01) +
          item(RID, 6) + field(0x01, 8, 255, count=63, main=FEATURE) +
          item(RID, 7) + field(0x02, 8, 255, count=127, main=FEATURE) + item(END))
    return d + keyboard(3)


def tilt(usage):
    """X or Y Tilt: signed degrees, one byte."""
    return (item(UPAGE, 0x0d) + item(USAGE, usage) + item(LMIN, -PEN["tilt"]) +
            item(LMAX, PEN["tilt"]) + item(UNIT, 0x14) + item(RSIZE, 8) +
            item(RCOUNT, 1) + item(INPUT, DATA) + item(UNIT, 0))


def pen_rdesc():
    """The touchscreen (ID 1) and a Digitizer Pen application (ID 2): a
    Stylus with In Range, Tip Switch, Barrel Switch, Invert, Eraser, X,
    Y (0.01 cm), Tip Pressure and X/Y Tilt."""
    d = touch_collection(0x04, TS, [0x32, 0x47]) + item(END)
    d += (item(UPAGE, 0x0d) + item(USAGE, 0x02) + item(COLL, 0x01) + item(RID, 2) +
          item(USAGE, 0x20) + item(COLL, 0x00))
    for usage in (0x32, 0x42, 0x44, 0x3c, 0x45):
        d += field(usage, 1, 1)
    d += pad(3) + axis(0x30, PEN["xmax"], PEN["xphys"]) + axis(0x31, PEN["ymax"], PEN["yphys"])
    d += item(UPAGE, 0x0d) + field(0x30, 16, PEN["pressure"])
    return d + tilt(0x3d) + tilt(0x3e) + item(END) + item(END)


def touchscreen(path):
    w = Writer("touchtape-ts 1D6B:7701", 0x18, 0x1d6b, 0x7701, touchscreen_rdesc())
    d = Digitizer(w, TS, ["In Range", "Confidence"], rng=random.Random(1))
    d.stroke([line(900, 1200, 904, 1198)], 9)                         # tap
    d.idle(0.4)
    d.stroke([line(600, 2400, 3300, 2100)], 70)                       # drag
    d.idle(0.5)
    d.stroke([line(1700, 1700, 1200, 1300), line(2300, 2300, 2900, 2800)], 60)  # spread
    d.idle(0.5)
    d.stroke([arc(2048, 2048, 700, 0, 1.2), arc(2048, 2048, 700, math.pi, math.pi + 1.2)], 50)
    d.idle(0.3)
    t = keys(w, d.t, [(0x0b, 0x02), (0x0c, 0), (0x2c, 0), (0x28, 0)])  # "Hi", space, enter
    d.t = t + 0.4
    d.stroke([line(2000, 3000, 2010, 600)], 45)                       # swipe up
    w.save(path)


def touchpad(path):
    w = Writer("touchtape-tp 1D6B:7702", 0x18, 0x1d6b, 0x7702, touchpad_rdesc())
    d = Digitizer(w, TP, ["Confidence"], button=True, rng=random.Random(2))
    d.stroke([line(800, 900, 2100, 1300)], 80)                        # pointer motion
    d.idle(0.3)
    d.stroke([line(1500, 1000, 1502, 1001)], 8)                       # tap
    d.idle(0.5)
    d.stroke([line(1200, 600, 1210, 1400), line(1750, 620, 1760, 1420)], 70)  # 2-finger scroll
    d.idle(0.4)
    # A click: a finger rests, presses the button, releases it, lifts.
    cid = d.new_id()
    for k in range(30):
        d.pressed = 1 if 8 <= k < 20 else 0
        d.frame([(cid, 1, 1000 + k // 10, 1600)])
    d.pressed = 0
    d.frame([(cid, 0, 1002, 1600)])
    d.idle(0.4)
    d.stroke([line(2500, 1500, 600, 400)], 60)
    w.save(path)


def features(path):
    """Touches first (record-hid-vm.sh sends the first 40 reports and
    checks the frames they make), then a word typed, then more touches."""
    w = Writer("touchtape-tsf 1D6B:7703", 0x18, 0x1d6b, 0x7703, features_rdesc())
    d = Digitizer(w, TS, ["In Range", "Confidence"], rng=random.Random(3))
    d.stroke([line(1000, 1000, 1400, 1150)], 24)                      # short drag
    d.idle(0.2)
    d.stroke([line(2600, 900, 2600, 905)], 8)                         # tap
    d.idle(0.3)
    d.stroke([line(1500, 2000, 1100, 2400), line(2500, 2000, 2900, 2400)], 40)  # spread
    d.idle(0.4)
    t = keys(w, d.t, [(0x17, 0x02), (0x12, 0), (0x13, 0)])            # "Top"
    d.t = t + 0.3
    d.stroke([arc(2048, 2048, 900, 0.5, 2.5)], 50)
    w.save(path)


class Pen:
    """Report ID 2 of the pen device, on the Digitizer's clock."""

    BITS = ("In Range", "Tip Switch", "Barrel Switch", "Invert", "Eraser")

    def __init__(self, digitizer):
        self.d = digitizer

    def report(self, bits, x, y, pressure=0, tx=0, ty=0):
        """BITS: the names of BITS set."""
        byte = sum(1 << n for n, b in enumerate(self.BITS) if b in bits)
        data = [2, byte] + le16(x) + le16(y) + le16(pressure) + [tx & 0xff, ty & 0xff]
        flags = " | ".join("%s: %d" % (b, b in bits) for b in self.BITS)
        self.d.w.report(self.d.t, data, ["# ReportID: 2 / %s | # | X: %6d | Y: %6d | Tip Pressure: %4d "
                                         "| X Tilt: %3d | Y Tilt: %3d " % (flags, x, y, pressure, tx, ty)])
        self.d.tick()

    def short_stroke(self, x, y):
        """Six reports: in range, tip down, moving twice, tip up, out
        of range (record-hid-vm.sh sends them six at a time)."""
        self.report({"In Range"}, x, y)
        self.report({"In Range", "Tip Switch"}, x, y, 256, 10, -5)
        self.report({"In Range", "Tip Switch"}, x + 120, y + 60, 512, 11, -5)
        self.report({"In Range", "Tip Switch"}, x + 240, y + 120, 512, 12, -4)
        self.report({"In Range"}, x + 240, y + 120)
        self.report(set(), 0, 0)

    def stroke(self, path, frames, tool=("Tip Switch",), hover=6, held=()):
        """Hovers in over HOVER reports, draws PATH with a pressure that
        rises and falls (TOOL: the bits set while down), hovers out;
        HELD: bits set all along (Barrel Switch, Invert)."""
        base = {"In Range"} | set(held)
        x, y = at([path], 0)[0]
        for k in range(hover):
            self.report(base, x, y - 8 * (hover - k), 0, 20, 15)
        for k in range(frames):
            s = ease(k, frames)
            x, y = at([path], s)[0]
            p = int(PEN["pressure"] * 0.8 * math.sin(math.pi * (k + 1) / (frames + 1)))
            self.report(base | set(tool), x, y, p, int(20 - 10 * s), int(15 + 5 * s))
        for k in range(hover):
            self.report(base, x, y - 8 * k, 0, 10, 20)
        self.report(set(), 0, 0)


def pen(path):
    w = Writer("touchtape-tsp 1D6B:7704", 0x18, 0x1d6b, 0x7704, pen_rdesc())
    d = Digitizer(w, TS, ["In Range", "Confidence"], rng=random.Random(4))
    p = Pen(d)
    p.short_stroke(4096, 4096)
    d.idle(0.3)
    p.short_stroke(5200, 2400)
    d.idle(0.4)
    d.stroke([line(800, 800, 1600, 1200)], 30)                        # a finger drags
    d.idle(0.3)
    p.stroke(arc(4800, 2700, 1500, 0.2, 2.6), 70)                     # a pen arc
    d.idle(0.2)
    p.stroke(line(2000, 4000, 2010, 4005), 4, hover=10, held=("Barrel Switch",))  # barrel tap
    d.idle(0.3)
    p.stroke(line(6000, 1000, 7500, 1800), 40, tool=("Eraser",), held=("Invert",))  # erasing
    d.idle(0.3)
    d.stroke([line(1500, 1500, 1000, 1000), line(2500, 2500, 3000, 3000)], 40)  # spread
    w.save(path)


def ghost(path):
    """The ghost-finger pattern of the Synaptics DLL0945 recording: a
    report where some contacts down before are missing, without their tip
    up, Contact Count counting only those reported; new contacts after."""
    w = Writer("touchtape-tpg 1D6B:7705", 0x18, 0x1d6b, 0x7705, touchpad_rdesc(TPG))
    d = Digitizer(w, TPG, ["Confidence"], button=True, rng=random.Random(5))
    d.stroke([line(300, 300, 700, 450)], 40)                          # c0: moves, lifts
    d.idle(0.3)
    # c0, c1, c2 land one after another and swipe up; then the only
    # contact reported is c1 lifting: c0 and c2 vanish.
    paths = [line(400, 600, 420, 250), line(600, 580, 620, 230), line(800, 600, 820, 250)]
    for k in range(36):
        pos = at(paths, ease(k, 36))
        n = min(3, 1 + k // 3)
        d.frame([(cid, 1, x, y) for cid, (x, y) in zip(range(n), pos[:n])])
    d.frame([(1, 0) + pos[1]])
    d.idle(0.4)
    # c0 and c1 scroll; c0 lifts alone and c1 vanishes.
    paths = [line(500, 300, 510, 600), line(750, 310, 760, 610)]
    for k in range(30):
        d.frame([(cid, 1, x, y) for cid, (x, y) in enumerate(at(paths, ease(k, 30)))])
    d.frame([(0, 0) + at(paths, 1)[0]])
    d.idle(0.5)
    d.next_id = 0
    d.stroke([line(620, 400, 622, 401)], 7)                           # c0: a clean tap
    d.idle(0.3)
    d.stroke([line(200, 650, 1000, 200)], 50)                         # c1: a clean move
    w.save(path)


def noconfidence(path):
    """A touchscreen whose contacts carry only Tip Switch, Contact Id, X
    and Y, as the real ILITEK's do: no Confidence for a palm to clear
    (analyze/tests/diff-mutations.sh)."""
    w = Writer("touchtape-tsn 1D6B:7706", 0x18, 0x1d6b, 0x7706,
               touch_collection(0x04, TSN, []) + item(END))
    d = Digitizer(w, TSN, [], rng=random.Random(6))
    d.stroke([line(700, 800, 2600, 1500)], 60)                        # drag
    d.idle(0.3)
    d.stroke([line(3000, 3000, 3004, 2998)], 8)                       # tap
    d.idle(0.4)
    d.stroke([line(1200, 2000, 1500, 3200), line(2200, 2000, 2500, 3200)], 50)  # 2-finger swipe
    w.save(path)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "hid-recorder")
    touchscreen(os.path.join(out, "touchtape-touchscreen-keyboard.hid"))
    touchpad(os.path.join(out, "touchtape-touchpad.hid"))
    features(os.path.join(out, "touchtape-touchscreen-features.hid"))
    pen(os.path.join(out, "touchtape-touchscreen-pen.hid"))
    ghost(os.path.join(out, "touchtape-touchpad-ghost.hid"))
    noconfidence(os.path.join(out, "touchtape-touchscreen-noconfidence.hid"))


main()
