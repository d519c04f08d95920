#!/usr/bin/env python3
# Writes the hand-made timelines of tests/analyze-*.sh and tests/test-model.c.
# Each anomaly has a file that triggers it (NAME-yes.jsonl) and one that
# must not (NAME-no.jsonl). Run from this directory; the output is checked in.
import json

HEADER = {"format": "touchtape-timeline", "version": 1, "tool": "make-data.py",
          "start": {"monotonic_us": 1000000, "realtime_us": 1700000000000000}}

def absinfo(mx, res=0):
    return {"min": 0, "max": mx, "resolution": res}

def screen(dev_id=0, slots=5, name="test touchscreen"):
    """Type B touchscreen, 100 x 100 mm, 10 units/mm."""
    return {"type": "device", "id": dev_id, "name": name, "node": "/dev/input/event5",
            "input_id": {"bustype": 3, "vendor": 1, "product": 2, "version": 1},
            "properties": ["INPUT_PROP_DIRECT"],
            "codes": {"EV_KEY": ["BTN_TOUCH"],
                      "EV_ABS": ["ABS_X", "ABS_Y", "ABS_MT_SLOT", "ABS_MT_TRACKING_ID",
                                 "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y", "ABS_MT_PRESSURE"]},
            "absinfo": {"ABS_X": absinfo(1000, 10), "ABS_Y": absinfo(1000, 10),
                        "ABS_MT_SLOT": absinfo(slots - 1), "ABS_MT_TRACKING_ID": absinfo(65535),
                        "ABS_MT_POSITION_X": absinfo(1000, 10), "ABS_MT_POSITION_Y": absinfo(1000, 10),
                        "ABS_MT_PRESSURE": absinfo(255)},
            "mt": {"protocol": "B", "slots": slots}}

def touchpad(dev_id=0):
    """Type B touchpad with 2 slots and BTN_TOOL_* up to QUINTTAP."""
    d = screen(dev_id, 2, "test touchpad")
    d["properties"] = ["INPUT_PROP_POINTER", "INPUT_PROP_BUTTONPAD"]
    d["codes"]["EV_KEY"] = ["BTN_LEFT", "BTN_TOUCH", "BTN_TOOL_FINGER", "BTN_TOOL_DOUBLETAP",
                            "BTN_TOOL_TRIPLETAP", "BTN_TOOL_QUADTAP", "BTN_TOOL_QUINTTAP"]
    return d

def type_a(dev_id=0):
    """Type A touchscreen without tracking IDs, no resolution."""
    return {"type": "device", "id": dev_id, "name": "test type A", "input_id":
            {"bustype": 3, "vendor": 1, "product": 3, "version": 1},
            "codes": {"EV_KEY": ["BTN_TOUCH"],
                      "EV_ABS": ["ABS_X", "ABS_Y", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y"]},
            "absinfo": {"ABS_X": absinfo(4000), "ABS_Y": absinfo(4000),
                        "ABS_MT_POSITION_X": absinfo(4000), "ABS_MT_POSITION_Y": absinfo(4000)},
            "mt": {"protocol": "A"}}

def xi_device(evdev=0):
    return {"type": "xi_device", "deviceid": 6, "name": "test touchscreen", "use": "slave_pointer",
            "attachment": 2, "enabled": True, "touch": {"mode": "direct", "num_touches": 5},
            "valuators": [{"number": 0, "label": "Abs MT Position X", "min": 0, "max": 1000, "mode": "absolute"},
                          {"number": 1, "label": "Abs MT Position Y", "min": 0, "max": 1000, "mode": "absolute"}],
            "device_node": "/dev/input/event5", "evdev": evdev}

def frame(t, *ev, dev=0, **flags):
    f = {"type": "frame", "dev": dev, "t": t, "ev": [list(e) for e in ev]}
    f.update(flags)
    return f

SYN = ("EV_SYN", "SYN_REPORT", 0)
MTR = ("EV_SYN", "SYN_MT_REPORT", 0)

def A(code, v):
    return ("EV_ABS", code, v)

def K(code, v):
    return ("EV_KEY", code, v)

def down(t, slot, tid, x, y, extra=(), touch=True, dev=0):
    ev = [A("ABS_MT_SLOT", slot), A("ABS_MT_TRACKING_ID", tid), A("ABS_MT_POSITION_X", x),
          A("ABS_MT_POSITION_Y", y)] + list(extra)
    if touch:
        ev.append(K("BTN_TOUCH", 1))
    return frame(t, *ev, SYN, dev=dev)

def move(t, slot, x, y, dev=0):
    return frame(t, A("ABS_MT_SLOT", slot), A("ABS_MT_POSITION_X", x), A("ABS_MT_POSITION_Y", y), SYN, dev=dev)

def up(t, slot, last=True, dev=0):
    ev = [A("ABS_MT_SLOT", slot), A("ABS_MT_TRACKING_ID", -1)]
    if last:
        ev.append(K("BTN_TOUCH", 0))
    return frame(t, *ev, SYN, dev=dev)

def xi(t, kind, client, touch, x=None, y=None, flags=None, key="detail"):
    r = {"type": "xi", "xi": kind, "t": t, "client": client, "deviceid": 2, "sourceid": 6, key: touch}
    if x is not None:
        r.update({"root_x": x, "root_y": y, "valuators": {"0": x, "1": y}})
    if flags:
        r["flags"] = flags
    return r

def write(name, records):
    with open(name, "w") as f:
        for r in [HEADER] + records:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")

def swipe(t0, slot, tid, x0, y, step, n, dev=0):
    """A touch moving in x by @step units per 10 ms frame."""
    out = [down(t0, slot, tid, x0, y, dev=dev)]
    for i in range(1, n):
        out.append(move(t0 + i * 10000, slot, x0 + i * step, y, dev=dev))
    out.append(up(t0 + n * 10000, slot, dev=dev))
    return out

# --- one file per anomaly, triggering and not ---
write("jump-yes.jsonl", [screen()] + swipe(10000, 0, 1, 100, 500, 50, 4)
      + [down(100000, 0, 2, 100, 100), move(110000, 0, 400, 100), up(120000, 0)])
write("jump-no.jsonl", [screen()] + swipe(10000, 0, 1, 100, 500, 50, 4))

write("tracking-id-reused-yes.jsonl", [screen(), down(10000, 0, 5, 100, 100),
      down(20000, 1, 5, 500, 500, touch=False), up(30000, 1, last=False), up(40000, 0)])
write("tracking-id-reused-no.jsonl", [screen(), down(10000, 0, 5, 100, 100),
      down(20000, 1, 6, 500, 500, touch=False), up(30000, 1, last=False), up(40000, 0)])

write("touch-active-at-end-yes.jsonl", [screen(), down(10000, 0, 1, 100, 100), move(20000, 0, 110, 100)])
write("touch-active-at-end-no.jsonl", [screen(), down(10000, 0, 1, 100, 100), move(20000, 0, 110, 100),
      up(30000, 0)])

write("slot-out-of-range-yes.jsonl", [screen(), down(10000, 7, 1, 100, 100), up(20000, 7)])
write("slot-out-of-range-no.jsonl", [screen(), down(10000, 4, 1, 100, 100), up(20000, 4)])

write("value-out-of-range-yes.jsonl", [screen(), down(10000, 0, 1, 1200, 100), up(20000, 0)])
write("value-out-of-range-no.jsonl", [screen(), down(10000, 0, 1, 1000, 100), up(20000, 0)])

write("no-syn-report-yes.jsonl", [screen(), down(10000, 0, 1, 100, 100),
      frame(20000, A("ABS_MT_POSITION_X", 120)), up(30000, 0)])
write("no-syn-report-no.jsonl", [screen(), down(10000, 0, 1, 100, 100),
      frame(20000, A("ABS_MT_POSITION_X", 120), SYN), up(30000, 0)])

# BTN_TOUCH never set while a finger is down; and a touchpad whose
# BTN_TOOL_DOUBLETAP claims two fingers with one slot in use.
write("button-state-mismatch-yes.jsonl", [screen(), down(10000, 0, 1, 100, 100, touch=False),
      move(20000, 0, 110, 100), up(30000, 0, last=False)])
write("button-state-mismatch-tool-yes.jsonl", [touchpad(),
      frame(10000, A("ABS_MT_SLOT", 0), A("ABS_MT_TRACKING_ID", 1), A("ABS_MT_POSITION_X", 100),
            A("ABS_MT_POSITION_Y", 100), K("BTN_TOUCH", 1), K("BTN_TOOL_DOUBLETAP", 1), SYN),
      frame(20000, A("ABS_MT_TRACKING_ID", -1), K("BTN_TOUCH", 0), K("BTN_TOOL_DOUBLETAP", 0), SYN)])
# Three fingers on a two-slot touchpad: TRIPLETAP with both slots in use is right.
write("button-state-mismatch-no.jsonl", [touchpad(),
      frame(10000, A("ABS_MT_SLOT", 0), A("ABS_MT_TRACKING_ID", 1), A("ABS_MT_POSITION_X", 100),
            A("ABS_MT_POSITION_Y", 100), K("BTN_TOUCH", 1), K("BTN_TOOL_FINGER", 1), SYN),
      frame(20000, A("ABS_MT_SLOT", 1), A("ABS_MT_TRACKING_ID", 2), A("ABS_MT_POSITION_X", 500),
            A("ABS_MT_POSITION_Y", 500), K("BTN_TOOL_FINGER", 0), K("BTN_TOOL_DOUBLETAP", 1), SYN),
      frame(30000, K("BTN_TOOL_DOUBLETAP", 0), K("BTN_TOOL_TRIPLETAP", 1), SYN),
      frame(40000, A("ABS_MT_SLOT", 0), A("ABS_MT_TRACKING_ID", -1), A("ABS_MT_SLOT", 1),
            A("ABS_MT_TRACKING_ID", -1), K("BTN_TOUCH", 0), K("BTN_TOOL_TRIPLETAP", 0), SYN)])

def contacts(t, pts, touch=1):
    ev = []
    for (x, y) in pts:
        ev += [A("ABS_MT_POSITION_X", x), A("ABS_MT_POSITION_Y", y), MTR]
    if not pts:
        ev.append(MTR)
    ev.append(K("BTN_TOUCH", touch))
    return frame(t, *ev, SYN)

write("contact-count-flicker-yes.jsonl", [type_a(), contacts(10000, [(100, 100), (2000, 2000)]),
      contacts(20000, [(110, 100)]), contacts(30000, [(120, 100), (2000, 2010)]),
      contacts(40000, [], touch=0)])
write("contact-count-flicker-no.jsonl", [type_a(), contacts(10000, [(100, 100), (2000, 2000)]),
      contacts(20000, [(110, 100), (2000, 2010)]), contacts(30000, [(120, 100)]),
      contacts(40000, [(130, 100)]), contacts(50000, [], touch=0)])

write("syn-dropped-yes.jsonl", [screen(), down(10000, 0, 1, 100, 100),
      frame(20000, ("EV_SYN", "SYN_DROPPED", 0), dropped=True),
      frame(35000, A("ABS_MT_POSITION_X", 130), SYN, resync=True), up(40000, 0)])
write("syn-dropped-no.jsonl", [screen(), down(10000, 0, 1, 100, 100),
      frame(35000, A("ABS_MT_POSITION_X", 130), SYN), up(40000, 0)])

# XI: an observer's touch that never ends, and a window client whose
# touch is never owned, accepted or rejected.
write("xi-touch-never-ended-yes.jsonl", [screen(), xi_device(), down(10000, 0, 1, 100, 100),
      xi(12000, "TouchBegin", "observer", 1, 100, 100), up(30000, 0)])
write("xi-touch-never-ended-no.jsonl", [screen(), xi_device(), down(10000, 0, 1, 100, 100),
      xi(12000, "TouchBegin", "observer", 1, 100, 100), up(30000, 0),
      xi(32000, "TouchEnd", "observer", 1, 100, 100)])
write("ownership-unresolved-yes.jsonl", [screen(), xi_device(), down(10000, 0, 1, 100, 100),
      xi(12000, "TouchBegin", "grab", 1, 100, 100), xi(12100, "TouchBegin", "window", 1, 100, 100),
      up(30000, 0), xi(32000, "TouchUpdate", "window", 1, 100, 100, ["pending_end"]),
      xi(32000, "TouchEnd", "grab", 1, 100, 100)])
write("ownership-unresolved-no.jsonl", [screen(), xi_device(), down(10000, 0, 1, 100, 100),
      xi(12000, "TouchBegin", "grab", 1, 100, 100), xi(12100, "TouchBegin", "window", 1, 100, 100),
      xi(20000, "RejectTouch", "grab", 1, key="touchid"), xi(20500, "TouchEnd", "grab", 1, 100, 100),
      xi(20600, "TouchOwnership", "window", 1, key="touchid"),
      up(30000, 0), xi(32000, "TouchEnd", "window", 1, 100, 100)])

write("not-delivered-yes.jsonl", [screen(), xi_device(), down(10000, 0, 1, 100, 100), up(30000, 0),
      down(400000, 0, 2, 500, 500), up(420000, 0),
      xi(405000, "TouchBegin", "observer", 7, 500, 500), xi(425000, "TouchEnd", "observer", 7, 500, 500)])
write("not-delivered-no.jsonl", [screen(), xi_device(), down(10000, 0, 1, 100, 100),
      xi(14000, "TouchBegin", "observer", 1, 100, 100, ["emulating_pointer"]), up(30000, 0),
      xi(33000, "TouchEnd", "observer", 1, 100, 100, ["emulating_pointer"])])

# --- ownership scenarios for the model's unit tests and diff ---
# accept: grab accepts, window loses; reject: grab rejects, window gets
# ownership after its TouchBegin (began unowned) and the touch.
def ownership(outcome):
    r = [screen(), xi_device(), down(10000, 0, 1, 100, 100),
         xi(12000, "TouchBegin", "grab", 1, 100, 100), xi(12100, "TouchBegin", "window", 1, 100, 100),
         move(20000, 0, 120, 100),
         xi(21000, "TouchUpdate", "grab", 1, 120, 100), xi(21100, "TouchUpdate", "window", 1, 120, 100)]
    if outcome == "accept":
        r += [xi(60000, "AcceptTouch", "grab", 1, key="touchid"),
              xi(60100, "TouchEnd", "window", 1, 120, 100),
              up(80000, 0), xi(81000, "TouchEnd", "grab", 1, 120, 100)]
    else:
        r += [xi(60000, "RejectTouch", "grab", 1, key="touchid"),
              xi(60100, "TouchEnd", "grab", 1, 120, 100),
              xi(60200, "TouchOwnership", "window", 1, key="touchid"),
              up(80000, 0), xi(81000, "TouchEnd", "window", 1, 120, 100)]
    return r

write("ownership-accept.jsonl", ownership("accept"))
write("ownership-reject.jsonl", ownership("reject"))

# A session for diff: three touches on a screen, with XI.
def session(drop_second=False, shift_third=0, window_outcome="lost"):
    r = [screen(), xi_device()]
    r += [down(10000, 0, 1, 100, 100), xi(12000, "TouchBegin", "grab", 1, 100, 100),
          xi(12100, "TouchBegin", "window", 1, 100, 100), move(20000, 0, 150, 100),
          xi(21000, "TouchUpdate", "grab", 1, 150, 100), xi(21100, "TouchUpdate", "window", 1, 150, 100)]
    if window_outcome == "lost":
        r += [xi(30000, "AcceptTouch", "grab", 1, key="touchid"), xi(30100, "TouchEnd", "window", 1, 150, 100)]
    else:
        r += [xi(30000, "RejectTouch", "grab", 1, key="touchid"), xi(30100, "TouchEnd", "grab", 1, 150, 100),
              xi(30200, "TouchOwnership", "window", 1, key="touchid")]
    r += [up(40000, 0)]
    r += [xi(41000, "TouchEnd", "grab" if window_outcome == "lost" else "window", 1, 150, 100)]
    if not drop_second:
        r += [down(100000, 1, 2, 500, 500, dev=0), xi(102000, "TouchBegin", "observer", 2, 500, 500),
              move(110000, 1, 520, 500), up(120000, 1), xi(121000, "TouchEnd", "observer", 2, 520, 500)]
    x3 = 800 + shift_third
    r += [down(200000, 0, 3, x3, 200), xi(202000, "TouchBegin", "observer", 3, x3, 200),
          move(210000, 0, x3 + 10, 200), up(220000, 0), xi(221000, "TouchEnd", "observer", 3, x3 + 10, 200)]
    return r

write("session.jsonl", session())
write("session-touch-removed.jsonl", session(drop_second=True))
write("session-shifted.jsonl", session(shift_third=50))
write("session-ownership-changed.jsonl", session(window_outcome="owned"))

# Type A without tracking IDs: two fingers crossing paths slowly, then
# one lifts; pairing by nearest position keeps them apart.
write("type-a-pairing.jsonl", [type_a(),
      contacts(10000, [(1000, 1000), (3000, 1000)]),
      contacts(20000, [(2950, 1010), (1050, 1010)]),
      contacts(30000, [(1100, 1020), (2900, 1020)]),
      contacts(40000, [(2850, 1030)]),
      contacts(50000, [], touch=0)])
# Slot reuse: slot 0 gets three tracking IDs in turn, one replaced without a release.
write("slot-reuse.jsonl", [screen(), down(10000, 0, 10, 100, 100), up(20000, 0),
      down(30000, 0, 11, 200, 200), frame(40000, A("ABS_MT_TRACKING_ID", 12), A("ABS_MT_POSITION_X", 300), SYN),
      up(50000, 0)])

# --- jumps judged against the touch's own motion, and stalls ---

def screen_nores():
    """The touchscreen without resolution: jumps as a share of the range."""
    d = screen(name="test touchscreen without resolution")
    for code in d["absinfo"]:
        d["absinfo"][code]["resolution"] = 0
    return d

def path(t0, slot, tid, points, dt=10000, lift=True):
    """A touch through @points, one frame each @dt."""
    out = [down(t0, slot, tid, *points[0])]
    for i, (x, y) in enumerate(points[1:], 1):
        out.append(move(t0 + i * dt, slot, x, y))
    if lift:
        out.append(up(t0 + len(points) * dt, slot))
    return out

# A slow touch (5 units a frame) that is 10% of the range (100 units) off
# its path for three frames: out and back, two jumps, with and without
# resolution (10 mm: under the 20 mm threshold).
slow = [(100 + 5 * i, 500) for i in range(20)]
offset = [(x + 100, y) if 8 <= i < 11 else (x, y) for i, (x, y) in enumerate(slow)]
write("jump-range-yes.jsonl", [screen_nores()] + path(10000, 0, 1, offset))
write("jump-small-yes.jsonl", [screen()] + path(10000, 0, 1, offset))
# The fastest straight swipe: from rest to 16% of the range a frame on each
# axis (22.6% of the range along the diagonal, under 25%) and
# back to rest, corner to corner; no jump.
steps = [2, 5, 10, 20, 40, 80, 120, 160, 160, 120, 80, 40, 20, 10, 5]
fast, x = [(30, 30)], 30
for s in steps:
    x += s
    fast.append((x, x))
write("jump-swipe-no.jsonl", [screen_nores()] + path(10000, 0, 1, fast))
# A touch moving 10 units a frame whose frames stop for 200 ms and which
# is then 200 units on: a stall.
moving = [(100 + 10 * i, 300) for i in range(15)]
write("stall-yes.jsonl", [screen()] + path(10000, 0, 1, moving, lift=False)
      + [move(350000, 0, 100 + 10 * 34, 300), move(360000, 0, 100 + 10 * 35, 300), up(370000, 0)])
# Rest is not a stall: a touch moves, rests for 1 s without frames and
# lifts in place; another moves, rests for 1 s and moves on from where it
# rested.
write("stall-no.jsonl", [screen()] + path(10000, 0, 1, moving, lift=False) + [up(1150000, 0)]
      + path(2000000, 0, 2, moving, lift=False)
      + [move(3150000, 0, 245, 300), move(3160000, 0, 250, 300), up(3170000, 0)])
