#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The touches record --guide is driven with in the VM (guide-vm.sh,
guide-xi-vm.sh): a finger held still 3 s (0.2 mm of noise), a stroke of
134 mm bowed by 1.2 mm, a tap, then quiet until a last frame 12 s after
the first (the device stays until the guide is done). guide-guest.py
presses the keys around them on that schedule.

Usage:
  guide-fixture.py evdev OUT
      a touchtape timeline of a 10-slot touchscreen (replayed through uinput)
  guide-fixture.py hid HIDFILE OUT
      a hid-recorder file (replayed through uhid) of the same touches at the
      same times: the descriptor, name and id of HIDFILE, the corpus's
      ILITEK touchscreen, and input reports of its layout (report 1: ten
      contacts of X, Y, tip and contact id, then the contact count); while
      the finger is held, a key of the device's keyboard (report 9) is
      pressed and released: frames of another evdev device of the same
      HID device, which record --hid records too
Either also writes OUT.expect.json: for each exercise, the input records
(frames, or reports) its touch takes, for guide-check.py.
"""
import json
import math
import random
import sys

PERIOD_US = 8000
# Each touch: its exercise, start (us from the first), samples, position
# (mm) at s in [0, 1]. Positions fit both devices (the ILITEK is 89 x 157
# mm); the noise and the bow are what the grade must find.
rng = random.Random(3)
BOW = 1.2	# mm, across the stroke (its direction is (1, 2) / sqrt(5))
TOUCHES = [
    ("stationary", 0, 375, lambda s: (44 + rng.uniform(-0.2, 0.2), 70 + rng.uniform(-0.2, 0.2))),
    ("line", 5000000, 187, lambda s: (10 + 60 * s + BOW * math.sin(math.pi * s) * 2 / math.sqrt(5),
                                      20 + 120 * s - BOW * math.sin(math.pi * s) / math.sqrt(5))),
    ("tap", 8500000, 8, lambda s: (40, 50)),
]
LAST_US = 12000000


def samples():
    """(exercise, t, (x, y) or None for the lift) of every touch, in order."""
    for exercise, t0, n, pos in TOUCHES:
        for i in range(n + 1):
            yield exercise, t0 + i * PERIOD_US, pos(i / n)
        yield exercise, t0 + (n + 1) * PERIOD_US, None


def evdev(out):
    res = 16
    ab = {"value": 0, "min": 0, "fuzz": 0, "flat": 0}
    absinfo = {"ABS_X": dict(ab, max=4095, resolution=res), "ABS_Y": dict(ab, max=2799, resolution=res),
               "ABS_MT_SLOT": dict(ab, max=9, resolution=0),
               "ABS_MT_POSITION_X": dict(ab, max=4095, resolution=res),
               "ABS_MT_POSITION_Y": dict(ab, max=2799, resolution=res),
               "ABS_MT_TRACKING_ID": dict(ab, max=65535, resolution=0)}
    lines = [{"format": "touchtape-timeline", "version": 1, "tool": "guide-fixture.py",
              "start": {"monotonic_us": 1, "realtime_us": 0}, "keycodes_masked": True},
             {"type": "device", "id": 0, "name": "guide touchscreen",
              "input_id": {"bustype": 3, "vendor": 1, "product": 3, "version": 1},
              "properties": ["INPUT_PROP_DIRECT"],
              "codes": {"EV_SYN": ["SYN_REPORT", "SYN_DROPPED"], "EV_KEY": ["BTN_TOUCH"], "EV_ABS": list(absinfo)},
              "absinfo": absinfo, "mt": {"protocol": "B", "slots": 10, "current_slot": 0, "state": []},
              "state": {"keys_down": [], "leds_on": [], "switches_on": []}}]
    tid, down, counts = 0, False, {}
    for exercise, t, xy in samples():
        ev = [[3, 47, 0]]
        if xy is None:
            ev += [[3, 57, -1], [1, 330, 0]]
            down = False
        else:
            if not down:
                tid += 1
                ev += [[3, 57, tid], [1, 330, 1]]
                down = True
            x, y = round(xy[0] * res), round(xy[1] * res)
            ev += [[3, 53, x], [3, 54, y], [3, 0, x], [3, 1, y]]
        lines.append({"type": "frame", "dev": 0, "t": 1000000 + t, "ev": ev + [[0, 0, 0]]})
        counts[exercise] = counts.get(exercise, 0) + 1
    lines.append({"type": "frame", "dev": 0, "t": 1000000 + LAST_US, "ev": [[0, 0, 0]]})
    with open(out, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    return counts


# The ILITEK's report 1: ID, 4 padding bytes, ten contacts of 6 bytes (X,
# Y 16 bits; a padding byte; tip bit, 4-bit contact id), 15 padding bytes,
# the contact count, 2 padding bytes. hid-input gives X and Y the
# resolution of its logical over its physical range, rounded down: 2047
# over 8.67 cm is 23 units/mm, over 15.43 cm 13.
ILITEK_RES = (23, 13)


def ilitek_report(xy, tip):
    contact = bytes([xy[0] & 0xff, xy[0] >> 8, xy[1] & 0xff, xy[1] >> 8, 0, 1 if tip else 0])
    idle = bytes([0xff] * 5 + [0x12])	# tip 0, contact id 9: as the device sends
    return bytes([1, 0, 0, 0, 0]) + contact + idle * 9 + bytes(15) + bytes([1, 0, 0])


# Report 9, the ILITEK's keyboard: Left GUI (bit 0), then padding; pressed
# 1 s into the held finger, released 0.6 s later.
KEYS_AT_US = {1004000: bytes([9, 1]), 1604000: bytes([9, 0])}	# between two contact reports


# The project's own touchscreen (tests/corpus/make-hid.py), when the
# ILITEK's file is not at hand: report 1 is the ID, two contacts of 5
# bytes (In Range bit 0, Confidence bit 1, Tip Switch bit 2, contact id
# bits 3-7; X, Y 16 bits), Scan Time (100 us) and the contact count;
# 4095 over 25.60 cm is 15 units/mm, over 14.40 cm 28.
OWN_RES = (15, 28)


def own_report(xy, tip, t):
    flags = 0x07 if tip else 0x02
    contact = bytes([flags, xy[0] & 0xff, xy[0] >> 8, xy[1] & 0xff, xy[1] >> 8])
    scan = t // 100 & 0xffff
    return bytes([1]) + contact + bytes(5) + bytes([scan & 0xff, scan >> 8, 1])


# Report 3, its keyboard: modifiers (Left GUI, bit 3), a reserved byte,
# six keys; pressed and released when the ILITEK's is.
OWN_KEYS_AT_US = {t: bytes([3, 8 if r[1] else 0]) + bytes(7) for t, r in KEYS_AT_US.items()}


def hid_line(t, r):
    return "E: %06d.%06d %d %s\n" % (t // 1000000, t % 1000000, len(r), " ".join("%02x" % b for b in r))


def hid(hidfile, out):
    head = [line for line in open(hidfile) if line[:2] in ("R:", "N:", "I:")]
    own = any(line.startswith("N: touchtape-ts ") for line in head)
    res, keys = (OWN_RES, OWN_KEYS_AT_US) if own else (ILITEK_RES, KEYS_AT_US)
    counts, last = {}, (0, 0)
    with open(out, "w") as f:
        f.writelines(head)
        for exercise, t, xy in samples():
            if xy is not None:
                last = (round(xy[0] * res[0]), round(xy[1] * res[1]))
            r = own_report(last, xy is not None, t) if own else ilitek_report(last, xy is not None)
            f.write(hid_line(t, r))
            counts[exercise] = counts.get(exercise, 0) + 1
            if t + PERIOD_US // 2 in keys:
                f.write(hid_line(t + PERIOD_US // 2, keys[t + PERIOD_US // 2]))
                counts[exercise] += 1
        # The tap's lift once more: no frame, the device stays till then.
        f.write(hid_line(LAST_US, r))
    return counts


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "evdev":
        out, counts = sys.argv[2], evdev(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "hid":
        out, counts = sys.argv[3], hid(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
    with open(out + ".expect.json", "w") as f:
        json.dump(counts, f)


main()
