#!/usr/bin/env python3
# Writes the hand-made Wayland timelines of analyze/tests/wayland.sh: a
# clean two-finger sequence on a touchscreen with its kernel frames and
# what a Wayland client received of it, and one file per wl_touch protocol
# rule broken (wl-RULE.jsonl), each the clean one with one change. Run
# from this directory; the output is checked in.
import json

START_US = 1000000000  # CLOCK_MONOTONIC at time 0: 1000 s

HEADER = {"format": "touchtape-timeline", "version": 1, "tool": "make-data.py",
          "start": {"monotonic_us": START_US, "realtime_us": 1700000000000000}}

def absinfo(mx, res=0):
    return {"min": 0, "max": mx, "resolution": res}

# A Type B touchscreen, 0..1000 on both axes (100 x 100 mm).
SCREEN = {"type": "device", "id": 0, "name": "test touchscreen", "node": "/dev/input/event5",
          "input_id": {"bustype": 3, "vendor": 1, "product": 2, "version": 1},
          "properties": ["INPUT_PROP_DIRECT"],
          "codes": {"EV_KEY": ["BTN_TOUCH"],
                    "EV_ABS": ["ABS_X", "ABS_Y", "ABS_MT_SLOT", "ABS_MT_TRACKING_ID",
                               "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y"]},
          "absinfo": {"ABS_X": absinfo(1000, 10), "ABS_Y": absinfo(1000, 10),
                      "ABS_MT_SLOT": absinfo(4), "ABS_MT_TRACKING_ID": absinfo(65535),
                      "ABS_MT_POSITION_X": absinfo(1000, 10), "ABS_MT_POSITION_Y": absinfo(1000, 10)},
          "mt": {"protocol": "B", "slots": 5}}

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOUCH, ABS_X, ABS_Y, SLOT, TID, MTX, MTY = 330, 0, 1, 47, 57, 53, 54

def frame(t, evs):
    return {"type": "frame", "dev": 0, "t": t, "ev": [list(e) for e in evs] + [[EV_SYN, 0, 0]]}

def down(t, slot, tid, x, y, first=False):
    evs = [(EV_ABS, SLOT, slot), (EV_ABS, TID, tid), (EV_ABS, MTX, x), (EV_ABS, MTY, y)]
    if first:
        evs += [(EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y)]
    return frame(t, evs)

def up(t, slot, last=False):
    evs = [(EV_ABS, SLOT, slot), (EV_ABS, TID, -1)]
    if last:
        evs.append((EV_KEY, BTN_TOUCH, 0))
    return frame(t, evs)

def ms(t):
    """The compositor's millisecond time of recording time t."""
    return (START_US + t) // 1000

# The wl record (formats/timeline.md), its keys in the writer's order.
OBJ = {"wl_seat": 5, "wl_output": 6, "xdg_toplevel": 9, "wl_touch": 12}

def wl(t, iface, event, **args):
    rec = {"type": "wl", "t": t, "client": "wayland", "wl": iface, "obj": OBJ[iface], "ev": event}
    rec.update(args)
    return rec

# The order the writer puts the arguments in.
ORDER = ["time_ms", "time_us", "serial", "surface", "id", "xy"]

def touch(t, event, **args):
    return wl(t, "wl_touch", event, **{k: args[k] for k in sorted(args, key=ORDER.index)})

# The output: 2000x1000 at scale 2, so a fullscreen surface is 1000x500:
# a kernel position (x, y) is the surface's (x, y / 2).
def clean():
    return [
        HEADER, SCREEN,
        wl(0, "wl_seat", "capabilities", capabilities=["touch"]),
        wl(0, "wl_output", "geometry", transform=0),
        wl(0, "wl_output", "mode", flags=3, size=[2000, 1000]),
        wl(0, "wl_output", "scale", scale=2),
        wl(0, "wl_output", "done"),
        down(10000, 0, 1, 250, 250, first=True),
        # received 3 ms later; the compositor passed the kernel's time on
        touch(13000, "down", id=0, serial=10, surface=3, time_ms=ms(10000), xy=[250.0, 125.0]),
        touch(13000, "frame"),
        down(20000, 1, 2, 750, 500),
        # 4.5 ms later; a microsecond timestamp 0.5 ms after the kernel's
        touch(24500, "down", id=1, serial=11, surface=3, time_ms=ms(20000),
              time_us=START_US + 20500, xy=[750.0, 250.0]),
        touch(24500, "frame"),
        frame(30000, [(EV_ABS, SLOT, 0), (EV_ABS, MTX, 260), (EV_ABS, SLOT, 1), (EV_ABS, MTX, 760)]),
        touch(31000, "motion", id=0, time_ms=ms(30000), xy=[260.0, 125.0]),
        touch(31000, "motion", id=1, time_ms=ms(30000), xy=[760.0, 250.0]),
        touch(31000, "frame"),
        up(40000, 0),
        touch(42000, "up", id=0, serial=12, time_ms=ms(40000)),
        touch(42000, "frame"),
        up(50000, 1, last=True),
        touch(51000, "up", id=1, serial=13, time_ms=ms(50000)),
        touch(51000, "frame"),
    ]

def index_of(recs, pred):
    return next(i for i, r in enumerate(recs) if pred(r))

def is_touch(r, event, tid=None, t=None):
    return (r.get("type") == "wl" and r.get("wl") == "wl_touch" and r.get("ev") == event
            and (tid is None or r.get("id") == tid) and (t is None or r.get("t") == t))

def variants():
    """Each rule broken once; the comment says on which line."""
    v = {}
    # The frame after the first down is missing: reported at that down.
    r = clean()
    del r[index_of(r, lambda x: is_touch(x, "frame", t=13000))]
    v["wl-frame-missing"] = r
    # A motion for id 5, never down.
    r = clean()
    r.insert(index_of(r, lambda x: is_touch(x, "frame", t=31000)),
             touch(31000, "motion", id=5, time_ms=ms(30000), xy=[1.0, 1.0]))
    v["wl-touch-not-down"] = r
    # A motion for id 0 after its up.
    r = clean()
    i = index_of(r, lambda x: is_touch(x, "frame", t=42000))
    r[i + 1:i + 1] = [touch(45000, "motion", id=0, time_ms=ms(44000), xy=[1.0, 1.0]), touch(45000, "frame")]
    v["wl-event-after-up"] = r
    # A cancel, and then the up of id 1 anyway.
    r = clean()
    i = index_of(r, lambda x: is_touch(x, "frame", t=42000))
    r[i + 1:i + 1] = [touch(45000, "cancel")]
    v["wl-event-after-cancel"] = r
    # A second down for id 1 while it is down.
    r = clean()
    i = index_of(r, lambda x: is_touch(x, "frame", t=31000))
    r[i + 1:i + 1] = [touch(35000, "down", id=1, serial=20, surface=3, time_ms=ms(35000), xy=[760.0, 250.0]),
                      touch(35000, "frame")]
    v["wl-touch-id-reused"] = r
    return v

# Xwayland's touch device: no device node; the surface position over
# 0..0xFFFF on its valuators.
XWL_DEV = {"type": "xi_device", "deviceid": 7, "name": "xwayland-touch:11", "use": "slave_pointer",
           "attachment": 2, "enabled": True, "touch": {"mode": "direct", "num_touches": 20},
           "buttons": 1, "valuators": [
               {"number": n, "label": f"Abs MT Position {a}", "min": 0, "max": 65535, "value": 0,
                "resolution": 10000, "mode": "absolute"} for n, a in ((0, "X"), (1, "Y"))]}

def xi(t, kind, client, detail, sx, sy):
    """An XI touch event of Xwayland at surface position (sx, sy) of the
    1000x500 surface: raw to the observer, regular to the window."""
    val = {"0": sx / 1000 * 65535, "1": sy / 500 * 65535}
    rec = {"type": "xi", "xi": kind, "t": t, "server_time": ms(t) % 100000, "client": client,
           "deviceid": 7 if kind.startswith("Raw") else 2, "sourceid": 7, "detail": detail, "flags": []}
    if kind.startswith("Raw"):
        return dict(rec, valuators=val, raw=val)
    return dict(rec, root_x=float(int(sx)), root_y=float(int(sy)), event_x=float(int(sx)),
                event_y=float(int(sy)), root_win=1, event_win=2, child_win=2, valuators=val,
                buttons=[], mods=[0, 0, 0, 0], group=[0, 0, 0, 0])

def xwayland():
    """The clean file as an X client of the session's Xwayland saw it too:
    each kernel touch has its wl_touch and its XI touch (5 and 6 ms)."""
    r = clean()
    r[0] = dict(HEADER, x_server={"vendor": "The X.Org Foundation", "release": 12201009})
    r.insert(2, XWL_DEV)
    for t, kind, detail, sx, sy in ((15000, "TouchBegin", 1, 250, 125), (26000, "TouchBegin", 2, 750, 250),
                                    (45000, "TouchEnd", 1, 260, 125), (56000, "TouchEnd", 2, 760, 250)):
        # After the records of its time, before those of a later one.
        i = next((i for i, x in enumerate(r) if x.get("t", -1) > t), len(r))
        r[i:i] = [xi(t, "Raw" + kind, "observer", detail, sx, sy), xi(t + 500, kind, "window", detail, sx, sy)]
    return r

def write(name, recs):
    with open(name, "w") as f:
        for r in recs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")

write("wl-clean.jsonl", clean())
write("xwayland.jsonl", xwayland())
for name, recs in variants().items():
    write(name + ".jsonl", recs)
