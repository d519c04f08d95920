#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a `touchtape record --hid` recording (record-hid-vm.sh).

  full FILE LOG HIDFILE TOUCH KBD
      the recording of both evdev nodes of the uhid device against what the
      device (uhid-device.py) logged and the hid-recorder file it came from
  denied FILE TOUCH KBD
      recorded without root: no HID layer, a note for each evdev device
  unplugged FILE UINPUT TOUCH
      a uinput device (note once) and the HID device, unplugged midway
Prints what is wrong and exits 1.
"""
import importlib.util
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("uhid_device", os.path.join(here, "uhid-device.py"))
uhid = importlib.util.module_from_spec(spec)
spec.loader.exec_module(uhid)

# The fewest feature reports a device of this test declares (the ILITEK's:
# 2 Contact Count Maximum, 4 a vendor blob, 3, 5, 6 and 7 vendor reports;
# the project's touchscreen's: 2, 4, 5 Device Mode, 6 and 7 vendor
# reports), so that a descriptor walk finding none fails.
MIN_FEATURES = 5
# The most a report may be read after it was sent, or apart from the
# frame it produced (reading latency under emulation).
MAX_LATENCY_US = 500000

problems = []


def expect(cond, what):
    if not cond:
        problems.append(what)
    return cond


def load(path):
    with open(path) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    return recs[0], recs[1:]


def of_type(recs, t):
    return [r for r in recs if r.get("type") == t]


def device_id(recs, node):
    ids = [d["id"] for d in of_type(recs, "device") if d.get("node") == node]
    expect(len(ids) == 1, "%d device records for %s" % (len(ids), node))
    return ids[0] if ids else None


def notes_for(recs, dev):
    return [m for m in of_type(recs, "marker") if m["kind"] == "note" and m.get("dev") == dev]


def check_hid_device(recs, hidfile, evdev_ids):
    hids = of_type(recs, "hid_device")
    if not expect(len(hids) == 1, "%d hid_device records, want 1" % len(hids)):
        return None
    h = hids[0]
    desc, name, bus, vendor, product, _ = uhid.parse_recording(hidfile)
    expect(h["descriptor"] == desc.hex(), "descriptor differs from the R: line")
    expect((h["bus"], h["vendor"], h["product"]) == (bus, vendor, product),
           "bus/vendor/product %s" % [h["bus"], h["vendor"], h["product"]])
    expect(h["name"] == name, "name %r" % h["name"])
    expect(h["version"] == 0x0100, "version %#x, uhid-device.py gave 0x100" % h["version"])
    expect(h.get("node", "").startswith("/dev/hidraw"), "node %r" % h.get("node"))
    expect(sorted(h.get("evdev", [])) == sorted(evdev_ids), "evdev %s, want %s" % (h.get("evdev"), evdev_ids))
    first_hid = recs.index(h)
    expect(all(recs.index(d) < first_hid for d in of_type(recs, "device")),
           "hid_device before the evdev devices it names")
    expect(all(recs.index(r) > first_hid for r in of_type(recs, "hid")), "a report before its hid_device")
    return h


def check_features(h, desc):
    """Every feature report the descriptor declares read once: what the
    device answered (uhid-device.py, at the report's size), or its refusal."""
    sizes = uhid.feature_sizes(desc)
    want = sorted(sizes)
    expect(len(want) >= MIN_FEATURES and uhid.REFUSED in want,
           "feature report ids %s: the descriptor walk went wrong" % want)
    got = {f["report_id"]: f for f in h.get("features", [])}
    expect(sorted(got) == want, "feature report ids %s, want %s" % (sorted(got), want))
    for rid in want:
        f = got.get(rid, {})
        answer = uhid.feature_answer(rid, sizes[rid]).hex()
        if rid == uhid.REFUSED:
            expect(f.get("error") == "EIO", "feature %d: %s, want error EIO" % (rid, f))
        else:
            expect(f.get("data") == answer, "feature %d: %s, want %s" % (rid, f.get("data"), answer))


def sent_reports(log, start_us):
    sent = []
    with open(log) as f:
        for line in f:
            w = line.split()
            if w[0] == "input":
                sent.append((int(w[1]) - start_us, w[2]))
    return sent


def check_reports(recs, h, sent):
    got = [r for r in of_type(recs, "hid") if r["dev"] == h["id"]]
    expect([r["data"] for r in got] == [s[1] for s in sent],
           "%d reports recorded, %d sent, or not the same bytes in order" % (len(got), len(sent)))
    for r, (t_sent, _) in zip(got, sent):
        expect(t_sent <= r["t"] < t_sent + MAX_LATENCY_US,
               "report read at %d, sent at %d" % (r["t"], t_sent))
    times = [r["t"] for r in got]
    expect(times == sorted(times), "report times go back")
    return got


def check_frames(recs, touch_id, got, sent):
    """Each frame of the touchscreen while reports were sent was produced by
    the last report sent before it: the report is in the file before it and
    was read close to it (before or after: hidraw's reader may wake before
    the driver has made the evdev events). (Frames after the last report
    are not checked: hid-multitouch lifts the touches of a Win8 device from
    a timer 100 ms after its last report.)"""
    last = got[-1]["t"] if got else 0
    frames = [f for f in of_type(recs, "frame") if f["dev"] == touch_id and f["t"] <= last]
    expect(len(frames) >= 5, "%d touchscreen frames" % len(frames))
    for f in frames:
        causes = [r for r, (t_sent, _) in zip(got, sent) if t_sent <= f["t"]]
        if not expect(causes, "frame at %d before any report was sent" % f["t"]):
            continue
        r = causes[-1]
        expect(abs(r["t"] - f["t"]) < MAX_LATENCY_US,
               "frame at %d, its report read at %d" % (f["t"], r["t"]))
        expect(recs.index(r) < recs.index(f), "frame at %d written before its report" % f["t"])


def full(path, log, hidfile, touch, kbd):
    header, recs = load(path)
    ids = [device_id(recs, touch), device_id(recs, kbd)]
    h = check_hid_device(recs, hidfile, ids)
    if h is None:
        return
    check_features(h, uhid.parse_recording(hidfile)[0])
    sent = sent_reports(log, header["start"]["monotonic_us"])
    got = check_reports(recs, h, sent)
    check_frames(recs, ids[0], got, sent)
    expect(not notes_for(recs, ids[0]) and not notes_for(recs, ids[1]), "a no-HID note for a HID device")


def denied(path, touch, kbd):
    _, recs = load(path)
    expect(not of_type(recs, "hid_device"), "a hid_device without permission")
    for node in (touch, kbd):
        notes = notes_for(recs, device_id(recs, node))
        expect(len(notes) == 1 and "permission denied" in notes[0].get("text", ""),
               "%s: notes %s" % (node, notes))


def unplugged(path, uinput, touch):
    _, recs = load(path)
    uid, tid = device_id(recs, uinput), device_id(recs, touch)
    notes = notes_for(recs, uid)
    expect(len(notes) == 1 and "no HID device" in notes[0].get("text", ""),
           "uinput notes: %s" % notes)
    expect(not notes_for(recs, tid), "a note for the HID touchscreen")
    h = of_type(recs, "hid_device")
    # Its keyboard too: --hid records every evdev device of a HID device.
    name = [d["name"] for d in of_type(recs, "device") if d["id"] == tid]
    family = sorted(d["id"] for d in of_type(recs, "device") if name and d["name"].startswith(name[0]))
    expect(len(h) == 1 and sorted(h[0].get("evdev", [])) == family and len(family) >= 2,
           "hid_device %s, devices of its name %s" % (h, family))
    markers = of_type(recs, "marker")
    gone = [m for m in markers if m["kind"] == "device-removed" and "hidraw" in m.get("text", "")]
    expect(len(gone) == 1, "hidraw removal markers: %s" % gone)
    expect(any(m["kind"] == "device-removed" and m.get("dev") == tid for m in markers),
           "no removal marker for the touchscreen")
    if gone:
        after = [f for f in of_type(recs, "frame") if f["dev"] == uid and f["t"] > gone[0]["t"]]
        expect(len(after) >= 2, "%d uinput frames after the unplug" % len(after))
    expect(markers[-1]["kind"] == "stop" and markers[-1].get("text") == "SIGINT",
           "the recording did not go on to the SIGINT: %s" % markers[-1])


def main():
    modes = {"full": full, "denied": denied, "unplugged": unplugged}
    modes[sys.argv[1]](*sys.argv[2:])
    for p in problems:
        print("record-hid-check: %s: %s" % (sys.argv[2], p))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
