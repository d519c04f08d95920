#!/usr/bin/env python3
# Writes the hand-made timelines of the inspector's tests (committed; run
# again only to change them): python3 gen-data.py DIR
import json, sys

out_dir = sys.argv[1] if len(sys.argv) > 1 else "."

def dump(name, records):
    with open(f"{out_dir}/{name}", "w") as f:
        for r in records:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")

HEADER = {"format": "touchtape-timeline", "version": 1, "tool": "inspect/tests/gen-data.py",
          "kernel": "6.1.0-test", "x_server": {"vendor": "The X.Org Foundation", "release": 12101007},
          "start": {"monotonic_us": 1000000, "realtime_us": 1764748800000000}}

def ts_device(dev_id, name, node, slots=10):
    return {"type": "device", "id": dev_id, "name": name, "node": node,
            "input_id": {"bustype": 24, "vendor": 1003, "product": 33865, "version": 16},
            "properties": ["INPUT_PROP_DIRECT"],
            "codes": {"EV_SYN": ["SYN_REPORT", "SYN_DROPPED"], "EV_KEY": ["BTN_TOUCH"],
                      "EV_ABS": ["ABS_X", "ABS_Y", "ABS_MT_SLOT", "ABS_MT_TOUCH_MAJOR",
                                 "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y",
                                 "ABS_MT_TOOL_TYPE", "ABS_MT_TRACKING_ID", "ABS_MT_PRESSURE"]},
            "absinfo": {"ABS_X": {"min": 0, "max": 4095, "resolution": 10},
                        "ABS_Y": {"min": 0, "max": 4095, "resolution": 10},
                        "ABS_MT_SLOT": {"min": 0, "max": slots - 1},
                        "ABS_MT_TOUCH_MAJOR": {"min": 0, "max": 255},
                        "ABS_MT_POSITION_X": {"min": 0, "max": 4095, "resolution": 10},
                        "ABS_MT_POSITION_Y": {"min": 0, "max": 4095, "resolution": 10},
                        "ABS_MT_TOOL_TYPE": {"min": 0, "max": 2},
                        "ABS_MT_TRACKING_ID": {"min": 0, "max": 65535},
                        "ABS_MT_PRESSURE": {"min": 0, "max": 255}},
            "mt": {"protocol": "B", "slots": slots, "current_slot": 0, "state": []}}

def typea_device(dev_id, name):
    return {"type": "device", "id": dev_id, "name": name,
            "input_id": {"bustype": 3, "vendor": 0x1b96, "product": 1, "version": 1},
            "codes": {"EV_SYN": ["SYN_REPORT", "SYN_MT_REPORT"], "EV_KEY": ["BTN_TOUCH"],
                      "EV_ABS": ["ABS_X", "ABS_Y", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y"]},
            "absinfo": {"ABS_X": {"min": 0, "max": 9600}, "ABS_Y": {"min": 0, "max": 7200},
                        "ABS_MT_POSITION_X": {"min": 0, "max": 9600},
                        "ABS_MT_POSITION_Y": {"min": 0, "max": 7200}},
            "mt": {"protocol": "A"}}

def frame(dev, t, ev, **flags):
    r = {"type": "frame", "dev": dev, "t": t, "ev": ev + [[0, 0, 0]]}
    r.update(flags)
    return r

def xi(name, t, client, detail=None, touchid=None, x=0.0, y=0.0, flags=None, dev=2, src=11):
    r = {"type": "xi", "xi": name, "t": t, "server_time": 5000 + t // 1000, "client": client,
         "deviceid": dev, "sourceid": src}
    if detail is not None:
        r["detail"] = detail
        r["root_x"] = x
        r["root_y"] = y
        r["event_x"] = x
        r["event_y"] = y
        r["valuators"] = {"0": x * 4, "1": y * 4}	# device units: root is a quarter
    if touchid is not None:
        r["touchid"] = touchid
    if flags:
        r["flags"] = flags
    return r

XI_DEV = [
    {"type": "xi_device", "deviceid": 2, "name": "Virtual core pointer", "use": "master_pointer",
     "attachment": 3, "enabled": True, "buttons": 10, "valuators": []},
    {"type": "xi_device", "deviceid": 11, "name": "Test Touchscreen", "use": "slave_pointer",
     "attachment": 2, "enabled": True, "touch": {"mode": "direct", "num_touches": 10}, "buttons": 0,
     "valuators": [{"number": 0, "label": "Abs MT Position X", "min": 0, "max": 4095, "value": 0,
                    "resolution": 10000, "mode": "absolute"},
                   {"number": 1, "label": "Abs MT Position Y", "min": 0, "max": 4095, "value": 0,
                    "resolution": 10000, "mode": "absolute"}],
     "device_node": "/dev/input/event5", "evdev": 0},
]

def ownership():
    """Three kernel touches on a Type B screen and what two X clients saw:
    touch 1 accepted by the grab (the window client loses it), touch 2
    rejected by the grab and then owned by the window client (with
    pending_end), touch 3 in slot 0 again (slot reuse), still down at the
    end: the grab owns it but never decides, the window client's
    ownership is never resolved. A Type A screen whose two contacts
    end with its removal, a SYN_DROPPED and a note."""
    r = [HEADER, ts_device(0, "Test Touchscreen", "/dev/input/event5"), *XI_DEV,
         typea_device(1, "Test Type A Screen"),
         {"type": "marker", "t": 0, "kind": "start", "text": "touchtape record (test data)"}]
    # touch 1: slot 0, tracking ID 10
    r.append(frame(0, 10000, [[3, 47, 0], [3, 57, 10], [3, 53, 1000], [3, 54, 2000], [3, 58, 40],
                              [3, 48, 6], [1, 330, 1], [3, 0, 1000], [3, 1, 2000]]))
    r.append(xi("TouchBegin", 11500, "grab", 1, x=250.0, y=500.0))
    r.append(xi("TouchOwnership", 11600, "grab", touchid=1))
    r.append(xi("TouchBegin", 11700, "window", 1, x=250.0, y=500.0, flags=["emulating_pointer"]))
    for i in range(1, 6):
        t = 10000 + i * 10000
        r.append(frame(0, t, [[3, 53, 1000 + 20 * i], [3, 54, 2000 + 10 * i], [3, 0, 1000 + 20 * i]]))
        r.append(xi("TouchUpdate", t + 1500, "grab", 1, x=250.0 + 5 * i, y=500.0 + 2.5 * i))
        r.append(xi("TouchUpdate", t + 1600, "window", 1, x=250.0 + 5 * i, y=500.0 + 2.5 * i,
                    flags=["emulating_pointer"]))
        if i == 2:
            r.append({"type": "xi", "xi": "AcceptTouch", "t": t + 2000, "client": "grab",
                      "deviceid": 2, "sourceid": 11, "touchid": 1, "event_win": 1234})
    # touch 2 begins in slot 1 while touch 1 is down
    r.append(frame(0, 70000, [[3, 47, 1], [3, 57, 11], [3, 53, 3000], [3, 54, 1000], [3, 58, 30]]))
    r.append(xi("TouchBegin", 71500, "grab", 2, x=750.0, y=250.0))
    r.append(xi("TouchOwnership", 71600, "grab", touchid=2))
    r.append(xi("TouchBegin", 71700, "window", 2, x=750.0, y=250.0))
    r.append({"type": "xi", "xi": "RejectTouch", "t": 75000, "client": "grab", "deviceid": 2,
              "sourceid": 11, "touchid": 2, "event_win": 1234})
    r.append(xi("TouchEnd", 75100, "grab", 2, x=750.0, y=250.0))
    r.append(xi("TouchOwnership", 75200, "window", touchid=2))
    # touch 1 up
    r.append(frame(0, 80000, [[3, 47, 0], [3, 57, -1], [3, 47, 1], [3, 53, 3010]]))
    r.append(xi("TouchEnd", 81500, "grab", 1, x=275.0, y=512.5))
    r.append(xi("TouchEnd", 81600, "window", 1, x=275.0, y=512.5))
    r.append(frame(0, 90000, [[3, 53, 3020]]))
    r.append(xi("TouchUpdate", 91500, "window", 2, x=755.0, y=250.0, flags=["pending_end"]))
    # touch 2 up
    r.append(frame(0, 100000, [[3, 57, -1], [1, 330, 0]]))
    r.append(xi("TouchEnd", 101500, "window", 2, x=755.0, y=250.0))
    # the Type A screen: two contacts, a drop, then the device goes away
    r.append(frame(1, 105000, [[3, 53, 100], [3, 54, 200], [0, 2, 0], [3, 53, 5000], [3, 54, 3000], [0, 2, 0],
                               [1, 330, 1]]))
    r.append(frame(1, 115000, [[3, 53, 110], [3, 54, 210], [0, 2, 0], [3, 53, 5010], [3, 54, 3010], [0, 2, 0]]))
    r.append({"type": "frame", "dev": 1, "t": 120000, "ev": [[0, 3, 0]], "dropped": True})
    r.append(frame(1, 125000, [[3, 53, 120], [3, 54, 220], [0, 2, 0], [3, 53, 5020], [3, 54, 3020], [0, 2, 0]]))
    r.append({"type": "marker", "t": 130000, "kind": "device-removed", "dev": 1})
    # touch 3: slot 0 again, still down at the end, the grab never decides
    r.append(frame(0, 140000, [[3, 47, 0], [3, 57, 12], [3, 53, 2000], [3, 54, 2000], [3, 58, 20], [1, 330, 1]]))
    r.append(xi("TouchBegin", 141500, "grab", 3, x=500.0, y=500.0))
    r.append(xi("TouchBegin", 141550, "window", 3, x=500.0, y=500.0))
    r.append(xi("TouchOwnership", 141600, "grab", touchid=3))
    for i in range(1, 4):
        t = 140000 + i * 10000
        r.append(frame(0, t, [[3, 53, 2000 + 30 * i], [3, 54, 2000 - 20 * i]]))
        r.append(xi("TouchUpdate", t + 1500, "grab", 3, x=500.0 + 7.5 * i, y=500.0 - 5 * i))
        r.append(xi("TouchUpdate", t + 1600, "window", 3, x=500.0 + 7.5 * i, y=500.0 - 5 * i))
    r.append({"type": "marker", "t": 175000, "kind": "note", "text": "end of the test"})
    return r

dump("ownership.jsonl", ownership())
