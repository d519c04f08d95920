#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Helpers of record-libinput-vm.sh (record --libinput in the VM).

  li-vm-check.py touchpad SWIPE OUT     writes a touchpad timeline: a one-finger
                                        move, a tap, then SWIPE's two-finger swipe
  li-vm-check.py touches REC            li touch downs/ups equal the kernel touches
  li-vm-check.py same-frames A B        A and B hold the same evdev frames
  li-vm-check.py touchpad-li REC        tap=on recorded, pointer motion, one tap
                                        (button press + release), finger scrolling
  li-vm-check.py imported REC           an imported libinput record has li records
Each check prints what it found and exits 1 on a mismatch."""
import json
import sys

BTN_LEFT = 272


def records(path):
    with open(path) as f:
        for n, line in enumerate(f):
            if n and line.strip():
                yield json.loads(line)


def header(path):
    with open(path) as f:
        return json.loads(f.readline())


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def frame(t, ev):
    return {"type": "frame", "dev": 0, "t": t, "ev": ev + [[0, 0, 0]]}


def finger(x, y, down):
    """One finger in slot 0 going down at (x, y), or up."""
    if not down:
        return [[3, 47, 0], [3, 57, -1], [1, 330, 0], [1, 325, 0], [3, 24, 0]]
    return [[3, 47, 0], [3, 57, 200 + x % 50], [3, 53, x], [3, 54, y], [3, 58, 50],
            [1, 330, 1], [1, 325, 1], [3, 0, x], [3, 1, y], [3, 24, 50]]


def gen_touchpad(swipe, out):
    lines = open(swipe).read().splitlines()
    head, dev = json.loads(lines[0]), json.loads(lines[1])
    recs = [frame(300000, finger(600, 600, True))]
    # 40 moves of 0.5 mm every 8 ms: 20 mm at 62 mm/s, pointer motion.
    for i in range(1, 41):
        x = 600 + 10 * i
        recs.append(frame(300000 + 8000 * i, [[3, 53, x], [3, 0, x]]))
    recs.append(frame(300000 + 8000 * 41, finger(0, 0, False)))
    # A tap: down 70 ms without moving, then libinput's tap timeout.
    recs.append(frame(1500000, finger(900, 700, True)))
    recs.append(frame(1570000, finger(0, 0, False)))
    for line in lines[2:]:
        r = json.loads(line)
        if r.get("type") == "frame":
            r["t"] += 2500000
            recs.append(r)
    # Nothing after the swipe's last frame: libinput's scroll stop
    # comes with it.
    with open(out, "w") as f:
        for r in [head, dev] + recs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def kernel_touches(path):
    n = 0
    for r in records(path):
        if r.get("type") == "frame":
            n += sum(1 for e in r["ev"] if e[0] == 3 and e[1] == 57 and e[2] != -1)
    return n


def li_counts(path):
    counts = {}
    for r in records(path):
        if r.get("type") == "li":
            counts[r["li"]] = counts.get(r["li"], 0) + 1
    return counts


def check_touches(path):
    k = kernel_touches(path)
    c = li_counts(path)
    down, up = c.get("TOUCH_DOWN", 0), c.get("TOUCH_UP", 0)
    print("kernel touches %d, libinput TOUCH_DOWN %d, TOUCH_UP %d, TOUCH_FRAME %d" %
          (k, down, up, c.get("TOUCH_FRAME", 0)))
    if k == 0 or down != k or up != k:
        fail("libinput's touches do not pair with the kernel's")
    devs = [r for r in records(path) if r.get("type") == "li_device"]
    if len(devs) != 1 or "touch" not in devs[0].get("capabilities", []):
        fail("no li_device with the touch capability: %s" % devs)
    # libinput stamps a touch with its frame's kernel time.
    frames = {r["t"] for r in records(path) if r.get("type") == "frame"}
    li = [r["t"] for r in records(path) if r.get("type") == "li" and r["li"] == "TOUCH_DOWN"]
    if not all(t in frames for t in li):
        fail("a TOUCH_DOWN's time is no frame's time: %s" % li)
    print("ok: every TOUCH_DOWN has its frame's time")


def frames_abs(path):
    start = header(path)["start"]["monotonic_us"]
    return [(r["t"] + start, r["ev"], r.get("dropped", False))
            for r in records(path) if r.get("type") == "frame"]


def check_same_frames(a, b):
    fa, fb = frames_abs(a), frames_abs(b)
    print("frames: %d with --libinput, %d without" % (len(fa), len(fb)))
    if not fa or fa != fb:
        for x, y in zip(fa, fb):
            if x != y:
                print("first difference: %s / %s" % (x, y))
                break
        fail("the evdev layer differs with --libinput")


def check_touchpad(path):
    devs = [r for r in records(path) if r.get("type") == "li_device"]
    if len(devs) != 1:
        fail("want one li_device, got %d" % len(devs))
    cfg = devs[0].get("config", {})
    print("li_device: %s, config %s" % (devs[0].get("capabilities"), cfg))
    if cfg.get("tap") != "on":
        fail("tap=on is not in the li_device record")
    c = li_counts(path)
    print("libinput events: %s" % c)
    if c.get("POINTER_MOTION", 0) < 5:
        fail("a one-finger move gave no pointer motion")
    buttons = [(r["button"], r["state"]) for r in records(path)
               if r.get("type") == "li" and r["li"] == "POINTER_BUTTON"]
    if buttons != [(BTN_LEFT, "pressed"), (BTN_LEFT, "released")]:
        fail("a tap gave %s, not one left button click" % buttons)
    if c.get("POINTER_SCROLL_FINGER", 0) < 3:
        fail("a two-finger swipe gave no finger scrolling")
    print("ok: motion, one tap click, finger scrolling")


def check_imported(path):
    c = li_counts(path)
    h = header(path)
    print("imported (%s): %s" % (h.get("source_format"), c))
    if sum(c.values()) == 0:
        fail("no li records imported")


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"touchpad": gen_touchpad, "touches": check_touches, "same-frames": check_same_frames,
     "touchpad-li": check_touchpad, "imported": check_imported}[cmd](*args)


if __name__ == "__main__":
    main()
