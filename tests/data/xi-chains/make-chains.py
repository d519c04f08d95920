#!/usr/bin/env python3
# Writes the hand-made XI ownership chains of analyze/tests/analyze-xi-chains.sh
# and inspect/tests/xi-chains.sh: records as `record --xi-grab ... --xi-window`
# writes them (the observer's raw events, each grab client's and the
# window's touch events, the recorder's own AcceptTouch/RejectTouch). Every
# time is chosen so the expected delays are easy sums; the tests assert them
# exactly. Run from this directory; the output is checked in.
import json

HEADER = {"format": "touchtape-timeline", "version": 1, "tool": "make-chains.py",
          "start": {"monotonic_us": 1000000, "realtime_us": 1700000000000000}}

def absinfo(mx, res=0):
    return {"min": 0, "max": mx, "resolution": res}

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

XI_DEVICE = {"type": "xi_device", "deviceid": 6, "name": "test touchscreen", "use": "slave_pointer",
             "attachment": 2, "enabled": True, "touch": {"mode": "direct", "num_touches": 5},
             "valuators": [{"number": 0, "label": "Abs MT Position X", "min": 0, "max": 1000, "mode": "absolute"},
                           {"number": 1, "label": "Abs MT Position Y", "min": 0, "max": 1000, "mode": "absolute"}],
             "device_node": "/dev/input/event5", "evdev": 0}

SYN = ["EV_SYN", "SYN_REPORT", 0]

def down(t, tid, x=100, y=100, slot=0, first=True):
    return {"type": "frame", "dev": 0, "t": t, "ev": [
        ["EV_ABS", "ABS_MT_SLOT", slot], ["EV_ABS", "ABS_MT_TRACKING_ID", tid],
        ["EV_ABS", "ABS_MT_POSITION_X", x], ["EV_ABS", "ABS_MT_POSITION_Y", y]]
        + ([["EV_KEY", "BTN_TOUCH", 1]] if first else []) + [SYN]}

def up(t, slot=0, last=True):
    return {"type": "frame", "dev": 0, "t": t, "ev": [
        ["EV_ABS", "ABS_MT_SLOT", slot], ["EV_ABS", "ABS_MT_TRACKING_ID", -1]]
        + ([["EV_KEY", "BTN_TOUCH", 0]] if last else []) + [SYN]}

def ev(t, kind, client, touch, flags=None, x=100, y=100):
    raw = kind.startswith("Raw")
    r = {"type": "xi", "xi": kind, "t": t, "client": client,
         "deviceid": 6 if raw else 2, "sourceid": 6, "detail": touch}
    if not raw:
        r.update({"root_x": x, "root_y": y})
    r["valuators"] = {"0": x, "1": y}
    if flags:
        r["flags"] = flags
    return r

def req(t, kind, client, touch):
    """TouchOwnership, or the recorder's AcceptTouch/RejectTouch."""
    return {"type": "xi", "xi": kind, "t": t, "client": client, "deviceid": 2, "sourceid": 6, "touchid": touch}

def write(name, records):
    records = sorted(records, key=lambda r: r.get("t", 0))	# stable: file order at equal times
    with open(name, "w") as f:
        for r in [HEADER, SCREEN, XI_DEVICE] + records:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")

def begin(k, touch, clients):
    """The kernel frame at k, the raw begin 1 ms later, each client's TouchBegin 0.1 ms apart."""
    out = [down(k, touch), ev(k + 1000, "RawTouchBegin", "observer", touch)]
    for i, c in enumerate(clients):
        out.append(ev(k + 1100 + 100 * i, "TouchBegin", c, touch))
    return out

def end(t, touch, clients):
    out = [up(t), ev(t + 1000, "RawTouchEnd", "observer", touch)]
    for i, c in enumerate(clients):
        out.append(ev(t + 1100 + 100 * i, "TouchEnd", c, touch))
    return out

# Two stages: grab1 rejects 30 ms after its TouchBegin, the window owns.
# grab1: owned from its TouchBegin, k + 1.1 ms; decides 30 ms later.
# window: TouchOwnership at k + 31.6 ms.
def two(k, touch):
    return (begin(k, touch, ["grab1", "window"])
            + [req(k + 31100, "RejectTouch", "grab1", touch), ev(k + 31200, "TouchEnd", "grab1", touch),
               req(k + 31600, "TouchOwnership", "window", touch)]
            + [up(k + 100000), ev(k + 101000, "RawTouchEnd", "observer", touch),
               ev(k + 101100, "TouchEnd", "window", touch)])
write("chain-two.jsonl", two(10000, 1))

# Three stages, three touches: grab1 rejects after 30, 40, 50 ms; grab2
# (which selected TouchOwnership) gets it 0.5 ms later and rejects 30 ms
# after that; the window gets it 0.5 ms after grab2's reject.
def three(k, touch, d1):
    g1 = k + 1100 + d1
    g2own = g1 + 500
    g2 = g2own + 30000
    wown = g2 + 500
    return (begin(k, touch, ["grab1", "grab2", "window"])
            + [req(g1, "RejectTouch", "grab1", touch), ev(g1 + 100, "TouchEnd", "grab1", touch),
               req(g2own, "TouchOwnership", "grab2", touch),
               req(g2, "RejectTouch", "grab2", touch), ev(g2 + 100, "TouchEnd", "grab2", touch),
               req(wown, "TouchOwnership", "window", touch)]
            + [up(k + 200000), ev(k + 201000, "RawTouchEnd", "observer", touch),
               ev(k + 201100, "TouchEnd", "window", touch)])
write("chain-three.jsonl", three(10000, 1, 30000) + three(1010000, 2, 40000) + three(2010000, 3, 50000))

# Reject then accept: grab2 (without TouchOwnership) accepts 20 ms after
# grab1's reject; the window loses the touch (TouchEnd, never owned).
def accept(k, touch):
    return (begin(k, touch, ["grab1", "grab2", "window"])
            + [req(k + 31100, "RejectTouch", "grab1", touch), ev(k + 31200, "TouchEnd", "grab1", touch),
               req(k + 51100, "AcceptTouch", "grab2", touch), ev(k + 51600, "TouchEnd", "window", touch)]
            + [up(k + 100000), ev(k + 101000, "RawTouchEnd", "observer", touch),
               ev(k + 101100, "TouchEnd", "grab2", touch)])
write("chain-accept.jsonl", accept(10000, 1))

# Pending end: the finger lifts 20 ms in, before grab1 decides. grab1, the
# owner, gets its TouchEnd; the window a TouchUpdate with pending_end; grab1
# rejects 40 ms after its TouchBegin and the window owns an ended touch.
# The second touch: grab1 never decides before the recording stops.
def pending(k, touch):
    return (begin(k, touch, ["grab1", "window"])
            + [up(k + 20000), ev(k + 21000, "RawTouchEnd", "observer", touch),
               ev(k + 21100, "TouchEnd", "grab1", touch),
               ev(k + 21200, "TouchUpdate", "window", touch, ["pending_end"]),
               req(k + 41100, "RejectTouch", "grab1", touch),
               req(k + 41600, "TouchOwnership", "window", touch), ev(k + 41700, "TouchEnd", "window", touch)])
def never(k, touch):
    return (begin(k, touch, ["grab1", "window"])
            + [up(k + 20000), ev(k + 21000, "RawTouchEnd", "observer", touch),
               ev(k + 21100, "TouchEnd", "grab1", touch),
               ev(k + 21200, "TouchUpdate", "window", touch, ["pending_end"])])
write("chain-pending.jsonl", pending(10000, 1) + never(1010000, 2))

# An early accept (record --xi-grab=reject-after=20 --xi-grab=reject-after=20
# --xi-grab=accept): grab3 accepts at its TouchBegin, before it owns the
# touch, and gets no TouchOwnership; the accept takes effect once grab1 and
# grab2 (which selected TouchOwnership) have rejected; the window loses it.
def early(k, touch):
    return (begin(k, touch, ["grab1", "grab2", "grab3", "window"])
            + [req(k + 1400, "AcceptTouch", "grab3", touch),
               req(k + 21100, "RejectTouch", "grab1", touch), ev(k + 21200, "TouchEnd", "grab1", touch),
               req(k + 21600, "TouchOwnership", "grab2", touch),
               req(k + 41600, "RejectTouch", "grab2", touch), ev(k + 41700, "TouchEnd", "grab2", touch),
               ev(k + 42000, "TouchEnd", "window", touch)]
            + [up(k + 100000), ev(k + 101000, "RawTouchEnd", "observer", touch),
               ev(k + 101100, "TouchEnd", "grab3", touch)])
write("chain-early.jsonl", early(10000, 1))

# A race (record --xi-grab=reject-after=20 three times --xi-window): each
# grab times its reject from its TouchBegin, so all three reject at once,
# grab2 and grab3 early; the window's TouchOwnership reaches the recorder
# before grab2's. The names give the server's order.
def race(k, touch):
    return (begin(k, touch, ["grab1", "grab2", "grab3", "window"])
            + [req(k + 21100, "RejectTouch", "grab1", touch), req(k + 21200, "RejectTouch", "grab2", touch),
               req(k + 21300, "RejectTouch", "grab3", touch), ev(k + 21400, "TouchEnd", "grab1", touch),
               ev(k + 21500, "TouchEnd", "grab3", touch), req(k + 21600, "TouchOwnership", "window", touch),
               req(k + 21700, "TouchOwnership", "grab2", touch), ev(k + 21800, "TouchEnd", "grab2", touch)]
            + [up(k + 100000), ev(k + 101000, "RawTouchEnd", "observer", touch),
               ev(k + 101100, "TouchEnd", "window", touch)])
write("chain-race.jsonl", race(10000, 1))

# A single owner: the window, with no grab above it, is the initial owner:
# it selected TouchOwnership, so the server follows its TouchBegin with a
# TouchOwnership at once. Another client's touch: "app" (a name the
# recorder does not write) never gets a TouchOwnership, so it did not select
# it and owns the touch from its TouchBegin.
write("chain-single.jsonl", begin(10000, 1, ["window"]) + [req(11150, "TouchOwnership", "window", 1)]
      + end(60000, 1, ["window"]) + begin(100000, 2, ["app"]) + end(150000, 2, ["app"]))

# The protocol's order broken: the window's TouchOwnership 10 ms before grab1 rejects.
write("chain-order.jsonl", begin(10000, 1, ["grab1", "window"])
      + [req(31100, "TouchOwnership", "window", 1), req(41100, "RejectTouch", "grab1", 1),
         ev(41200, "TouchEnd", "grab1", 1)] + end(100000, 1, ["window"]))

# A pointer grab (record --xi-pointer-grab=async --xi-window, two fingers):
# the first touch emulates the pointer. The pointer client's active grab
# owns it: its emulated ButtonPress (the server time of the touch's
# TouchBegin, received 50 us before the window's) and, one event past the
# press, the server accepts it for the grab: the window, a listener that
# selected TouchOwnership, gets its TouchEnd then and never owned it. The
# window owns the second touch (TouchOwnership). The third touch reaches
# only the window, which never gets TouchOwnership: no record says who
# owned it, so it has no chain.
def with_time(r, ms):
    r["server_time"] = ms
    return r

def pointer_ev(t, kind, ms, detail=1):
    return {"type": "xi", "xi": kind, "t": t, "server_time": ms, "client": "pointer", "deviceid": 2,
            "sourceid": 6, "detail": detail, "flags": ["pointer_emulated"], "root_x": 100, "root_y": 100}

def pointer_grab():
    grab = {"type": "xi", "xi": "GrabDevice", "t": 5000, "server_time": 0, "client": "pointer", "deviceid": 2,
            "sourceid": 0, "detail": 1, "event_win": 4194305}
    return ([grab, down(10000, 1), with_time(ev(11000, "RawTouchBegin", "observer", 1), 500),
             pointer_ev(11050, "ButtonPress", 500),
             with_time(ev(11100, "TouchBegin", "window", 1, ["emulating_pointer"]), 500),
             down(18000, 2, 300, 300, 1, False), with_time(ev(19000, "RawTouchBegin", "observer", 2, x=300, y=300), 508),
             with_time(ev(19100, "TouchBegin", "window", 2, x=300, y=300), 508),
             with_time(req(19200, "TouchOwnership", "window", 2), 508),
             pointer_ev(27100, "Motion", 516, 0),
             with_time(ev(27600, "TouchEnd", "window", 1, ["emulating_pointer"]), 516),
             up(90000, 1, False), ev(91000, "RawTouchEnd", "observer", 2), ev(91100, "TouchEnd", "window", 2),
             up(100000), ev(101000, "RawTouchEnd", "observer", 1), pointer_ev(101050, "ButtonRelease", 590),
             {"type": "xi", "xi": "UngrabDevice", "t": 101500, "server_time": 0, "client": "pointer",
              "deviceid": 2, "sourceid": 0, "detail": 0, "event_win": 4194305}]
            + begin(200000, 3, ["window"]) + end(250000, 3, ["window"]))
write("chain-pointer.jsonl", pointer_grab())
