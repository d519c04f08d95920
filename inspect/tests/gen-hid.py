#!/usr/bin/env python3
# Writes the hand-made two-layer timeline of the inspector's HID tests
# (committed; run again only to change it): python3 gen-hid.py DIR
#
# A touchpad as hid-multitouch sees it: the report descriptor of the
# ELAN1206 touchpad (04f3:30f1) of the corpus, report ID 4 (one contact
# per report: Confidence, Tip Switch, Contact Id, X, Y, Scan Time,
# Contact Count, Button 1), and the evdev device the kernel made of it.
# Each report is followed 400 us later by the evdev frame it produced.
# Contacts: 0 (4 reports, linked), 1 (3 reports, linked) and 2, whose
# kernel touch never came.
import json, sys

out_dir = sys.argv[1] if len(sys.argv) > 1 else "."

ELAN_RDESC = (
    "05010902a10185010901a10005091901290215002501750195028102950681030501093009310938"
    "1581257f750895038106050c0a380295018106750895038103c00600ff0901850e09c5150026ff00"
    "75089504b102c0050d0905a10185040922a102150025010947094295027501810275019502810395"
    "017504250f095181020501150026930f7510550e65130930350046f2019501810246f50026a80726"
    "a80709318102050d150025649503c0550c66011047ffff000027ffff000075109501095681020954"
    "257f9501750881020509090125017501950181029507810309c5750895048103050d850209550959"
    "75049502250fb102850709607501950115002501b102950fb1030600ff0600ff850609c5150026ff"
    "007508960001b102850d09c4150026ff0075089504b102850c09c69640037508b102850b09c79542"
    "7508b102c0050d090ea10185030922a10009521500250a75109501b102c00922a100850509570958"
    "750195022503b102950eb103c0c0")

HEADER = {"format": "touchtape-timeline", "version": 1, "tool": "inspect/tests/gen-hid.py",
          "kernel": "6.1.0-test", "start": {"monotonic_us": 1000000, "realtime_us": 1764748800000000}}

EVDEV = {"type": "device", "id": 0, "name": "ELAN1206:00 04F3:30F1 Touchpad", "node": "/dev/input/event7",
         "input_id": {"bustype": 24, "vendor": 0x04f3, "product": 0x30f1, "version": 256},
         "properties": ["INPUT_PROP_POINTER", "INPUT_PROP_BUTTONPAD"],
         "codes": {"EV_SYN": ["SYN_REPORT"], "EV_KEY": ["BTN_LEFT", "BTN_TOOL_FINGER", "BTN_TOUCH"],
                   "EV_ABS": ["ABS_X", "ABS_Y", "ABS_MT_SLOT", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y",
                              "ABS_MT_TOOL_TYPE", "ABS_MT_TRACKING_ID"]},
         "absinfo": {"ABS_X": {"min": 0, "max": 3987, "resolution": 31},
                     "ABS_Y": {"min": 0, "max": 1960, "resolution": 31},
                     "ABS_MT_SLOT": {"min": 0, "max": 4},
                     "ABS_MT_POSITION_X": {"min": 0, "max": 3987, "resolution": 31},
                     "ABS_MT_POSITION_Y": {"min": 0, "max": 1960, "resolution": 31},
                     "ABS_MT_TOOL_TYPE": {"min": 0, "max": 2},
                     "ABS_MT_TRACKING_ID": {"min": 0, "max": 65535}},
         "mt": {"protocol": "B", "slots": 5, "current_slot": 0, "state": []}}

HID = {"type": "hid_device", "id": 0, "name": "ELAN1206:00 04F3:30F1", "phys": "i2c-ELAN1206:00",
       "node": "/dev/hidraw0", "bus": 24, "vendor": 0x04f3, "product": 0x30f1, "version": 256,
       "descriptor": ELAN_RDESC, "evdev": [0],
       "features": [{"report_id": 3, "data": "030500"}, {"report_id": 7, "error": "EIO"}]}

def report(t, cid, tip, x, y, scan):
    b = bytes([4, 1 | (tip << 1) | (cid << 4), x & 0xff, x >> 8, y & 0xff, y >> 8,
               scan & 0xff, scan >> 8, 1, 0, 0, 0, 0, 0])
    return {"type": "hid", "dev": 0, "t": t, "data": b.hex()}

SLOT, TID, PX, PY = "ABS_MT_SLOT", "ABS_MT_TRACKING_ID", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y"

def frame(t, ev):
    return {"type": "frame", "dev": 0, "t": t, "ev": ev + [[0, 0, 0]]}

def contact(records, cid, tid, t0, points, kernel=True):
    scan = t0 // 100
    for i, (x, y) in enumerate(points + [points[-1]]):
        t = t0 + i * 8000
        up = i == len(points)
        records.append(report(t, cid, 0 if up else 1, x, y, (scan + i * 80) & 0xffff))
        if not kernel:
            continue
        if i == 0:
            ev = [[3, 47, 0], [3, 57, tid], [3, 53, x], [3, 54, y], [1, 330, 1], [1, 325, 1], [3, 0, x], [3, 1, y]]
        elif up:
            ev = [[3, 47, 0], [3, 57, -1], [1, 330, 0], [1, 325, 0]]
        else:
            ev = [[3, 47, 0], [3, 53, x], [3, 54, y], [3, 0, x], [3, 1, y]]
        records.append(frame(t + 400, ev))

records = [HEADER, EVDEV, HID]
contact(records, 0, 100, 10000, [(1000, 500), (1040, 520), (1090, 540), (1150, 560)])
contact(records, 1, 101, 60000, [(2500, 1500), (2480, 1450), (2460, 1400)])
contact(records, 2, 0, 110000, [(300, 300), (310, 310)], kernel=False)
with open(f"{out_dir}/hid-two-layer.jsonl", "w") as f:
    for r in records:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
