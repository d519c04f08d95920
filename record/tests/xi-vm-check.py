#!/usr/bin/env python3
"""Checks of the recordings record/tests/xi-vm.sh made in the VM.

Usage: xi-vm-check.py DIR FRAME_MS ACCEL

Every assertion is on the recorded records (and on the library's link,
xi/tests/xi-link's output); a failed one prints what was seen.
"""
import json
import sys

out, frame_ms, accel = sys.argv[1], int(sys.argv[2]), sys.argv[3]
failures = []

# The link latency is kernel timestamp -> the recorder reading the X
# event: the X server's wake-up, its processing of the frame, its write,
# our wake-up. On hardware that is well under a millisecond or two; the
# bound is one frame period (a driver may hold a frame until the next
# SYN_REPORT) plus a margin for the VM: under KVM 10 ms of scheduling;
# under TCG (every instruction emulated, 10-50x slower, two vCPUs for the
# X server, evemu-play, the recorder and the kernel, and other VMs on the
# same host cores) we measured 2.6 to 132 ms in this rig, so 200 ms: still
# inside the link's own 250 ms window, beyond which it would not pair.
MARGIN_MS = {"kvm": 10, "tcg": 200}.get(accel, 200)
LIMIT_US = (frame_ms + MARGIN_MS) * 1000


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def load(name):
    recs = []
    with open(f"{out}/{name}.jsonl") as f:
        for i, line in enumerate(f):
            r = json.loads(line)
            r["_line"] = i + 1
            recs.append(r)
    return recs


def load_link(name):
    with open(f"{out}/{name}.link") as f:
        return [json.loads(line) for line in f]


def rc(name):
    with open(f"{out}/{name}.rc") as f:
        return int(f.read().strip())


def xi(recs, evtype, client=None):
    return [r for r in recs if r.get("type") == "xi" and r["xi"] == evtype and
            (client is None or r.get("client") == client)]


def markers(recs, kind):
    return [r for r in recs if r.get("type") == "marker" and r["kind"] == kind]


def check_observer(name, nfingers):
    recs = load(name)
    link = load_link(name)
    if rc(name) != 0:
        fail(f"{name}: record exited with {rc(name)}")
    hdr = recs[0]
    if "x_server" not in hdr:
        fail(f"{name}: the header names no X server")
    kt = sorted((l for l in link if l["kind"] == "ktouch"), key=lambda l: l["begin_us"])
    if len(kt) != nfingers:
        fail(f"{name}: {len(kt)} kernel touches, expected {nfingers}")
    # The XI device of the touchscreen is linked to the evdev record.
    dev = [r for r in recs if r.get("type") == "device"][0]
    xdev = [r for r in recs if r.get("type") == "xi_device" and r.get("device_node") == dev["node"]]
    if not xdev or xdev[0].get("evdev") != dev["id"] or xdev[0].get("touch", {}).get("mode") != "direct":
        fail(f"{name}: no direct-touch xi_device linked to {dev['node']}: {xdev}")
    # One to one: every kernel touch linked, to distinct XI touches.
    lat = []
    for k in kt:
        if k["link"] != "linked":
            fail(f"{name}: kernel touch slot {k['slot']} id {k['tracking_id']}: {k['link']}")
            continue
        lat.append(k["latency_us"])
        if not -2000 <= k["latency_us"] < LIMIT_US:
            fail(f"{name}: kernel touch id {k['tracking_id']}: latency {k['latency_us']} us "
                 f"not within [-2 ms, {LIMIT_US} us)")
    ids = [k.get("xi_touchid") for k in kt]
    if len(set(ids)) != len(ids):
        fail(f"{name}: kernel touches share XI touches: {ids}")
    # Count, order, begin/end of the XI sequences the observer got.
    begins = [r["detail"] for r in xi(recs, "TouchBegin", "observer")]
    ends = [r["detail"] for r in xi(recs, "TouchEnd", "observer")]
    raw_begins = [r["detail"] for r in xi(recs, "RawTouchBegin", "observer")]
    if begins != ids:
        fail(f"{name}: XI TouchBegin order {begins} != the kernel touches' partners in begin order {ids}")
    if raw_begins != ids:
        fail(f"{name}: RawTouchBegin order {raw_begins} != {ids}")
    kend = [k.get("xi_touchid") for k in sorted(kt, key=lambda l: l["end_us"])]
    if ends != kend:
        fail(f"{name}: XI TouchEnd order {ends} != kernel end order {kend}")
    # Each XI sequence: begin, updates, one end; no update after its end.
    for t in begins:
        seq = [r["xi"] for r in recs if r.get("type") == "xi" and r.get("client") == "observer" and
               r["xi"].startswith("Touch") and r["xi"] != "TouchOwnership" and r.get("detail") == t]
        if not seq or seq[0] != "TouchBegin" or seq[-1] != "TouchEnd" or seq.count("TouchEnd") != 1:
            fail(f"{name}: XI touch {t} is not begin..end: {seq[:3]}...{seq[-2:]}")
    # Pointer emulation on the first touch only.
    emu = {r["detail"]: "emulating_pointer" in r["flags"] for r in xi(recs, "TouchBegin", "observer")}
    want = {t: i == 0 for i, t in enumerate(begins)}
    if emu != want:
        fail(f"{name}: emulating_pointer per touch {emu}, expected first only {want}")
    for r in xi(recs, "TouchUpdate", "observer") + xi(recs, "TouchEnd", "observer"):
        if ("emulating_pointer" in r["flags"]) != (r["detail"] == begins[0] if begins else False):
            fail(f"{name}: line {r['_line']}: emulating_pointer flag on the wrong touch")
            break
    # The link says so too: the kernel touch whose XI touch emulates the
    # pointer (the first) and no other, though it pairs on the
    # RawTouchBegin, which carries no such flag.
    klink = {k.get("xi_touchid"): k.get("emulating_pointer") for k in kt if k["link"] == "linked"}
    if emu == want and klink != emu:
        fail(f"{name}: the link's emulating_pointer per XI touch {klink}, the recorded "
             f"TouchBegin flags say {emu}")
    elif emu == want:
        print(f"# {name}: the link says emulating pointer for the first kernel touch only "
              f"(XI touch {begins[0] if begins else None})")
    if lat:
        print(f"# {name}: {len(kt)} kernel touches = {len(begins)} XI touches; link latency "
              f"min {min(lat) / 1000:.1f} ms, max {max(lat) / 1000:.1f} ms (limit {LIMIT_US / 1000:.0f} ms, {accel})")


def check_reject(name):
    recs = load(name)
    begins = xi(recs, "TouchBegin", "window")
    if len(begins) != 2:
        fail(f"{name}: the window client got {len(begins)} TouchBegin, expected 2")
    for b in begins:
        t = b["detail"]
        rej = [r for r in xi(recs, "RejectTouch", "grab") if r["touchid"] == t]
        own = [r for r in xi(recs, "TouchOwnership", "window") if r["touchid"] == t]
        gbeg = [r for r in xi(recs, "TouchBegin", "grab") if r["detail"] == t]
        end = [r for r in xi(recs, "TouchEnd", "window") if r["detail"] == t]
        if not (rej and own and gbeg and end):
            fail(f"{name}: touch {t}: reject {len(rej)}, ownership {len(own)}, grab begin "
                 f"{len(gbeg)}, window end {len(end)}")
            continue
        if not b["_line"] < rej[0]["_line"]:
            fail(f"{name}: touch {t}: the window's TouchBegin (line {b['_line']}) is not before "
                 f"the reject (line {rej[0]['_line']})")
        if not rej[0]["_line"] < own[0]["_line"] < end[0]["_line"]:
            fail(f"{name}: touch {t}: not reject < TouchOwnership < TouchEnd: lines "
                 f"{rej[0]['_line']}, {own[0]['_line']}, {end[0]['_line']}")
        if rej[0]["t"] - gbeg[0]["t"] < 50000:
            fail(f"{name}: touch {t}: rejected {rej[0]['t'] - gbeg[0]['t']} us after its begin, "
                 f"before the 50 ms")
        # Everything the window got before the ownership: no TouchOwnership
        # for it anywhere earlier, and the grab got TouchEnd after rejecting.
        gend = [r for r in xi(recs, "TouchEnd", "grab") if r["detail"] == t]
        if not gend:
            fail(f"{name}: touch {t}: the grab client got no TouchEnd after rejecting")
    link = [l for l in load_link(name) if l["kind"] == "xtouch" and l["client"] == "window"]
    for l in link:
        if not (l["began_unowned"] and l["outcome"] == "owned"):
            fail(f"{name}: the model says window touch {l['touchid']}: {l}")
    print(f"# {name}: {len(begins)} touches: window TouchBegin, grab RejectTouch, window "
          "TouchOwnership, window TouchEnd, in that order")


def check_accept(name):
    recs = load(name)
    begins = xi(recs, "TouchBegin", "window")
    if len(begins) != 2:
        fail(f"{name}: the window client got {len(begins)} TouchBegin, expected 2")
    for b in begins:
        t = b["detail"]
        acc = [r for r in xi(recs, "AcceptTouch", "grab") if r["touchid"] == t]
        own = [r for r in xi(recs, "TouchOwnership", "window") if r["touchid"] == t]
        end = [r for r in xi(recs, "TouchEnd", "window") if r["detail"] == t]
        upd = [r for r in xi(recs, "TouchUpdate", "window") if r["detail"] == t]
        if own:
            fail(f"{name}: touch {t}: the window client owned an accepted touch")
        if not acc or not end:
            fail(f"{name}: touch {t}: accept {len(acc)}, window TouchEnd {len(end)}")
            continue
        if not acc[0]["_line"] < end[0]["_line"]:
            fail(f"{name}: touch {t}: the window's TouchEnd is not after the accept")
        if upd and upd[-1]["_line"] > end[0]["_line"]:
            fail(f"{name}: touch {t}: window updates after its TouchEnd")
        gend = [r for r in xi(recs, "TouchEnd", "grab") if r["detail"] == t]
        if not gend:
            fail(f"{name}: touch {t}: the grab client got no TouchEnd")
    # The model's verdict is informative only: the grab's AcceptTouch can
    # be written before the window's TouchBegin is read (two connections),
    # and lib/model/model.c then cannot tell the touch was lost.
    link = [l for l in load_link(name) if l["kind"] == "xtouch" and l["client"] == "window"]
    print(f"# {name}: model outcome of the window's touches: {[l['outcome'] for l in link]}")
    print(f"# {name}: {len(begins)} touches: the window got TouchBegin and, after the grab's "
          "AcceptTouch, TouchEnd, never owning them")


def check_touchpad(name):
    recs = load(name)
    if rc(name) != 0:
        fail(f"{name}: record exited with {rc(name)}")
    dev = [r for r in recs if r.get("type") == "device"][0]
    xdev = [r for r in recs if r.get("type") == "xi_device" and r.get("device_node") == dev["node"]]
    if len(xdev) != 1:
        fail(f"{name}: {len(xdev)} xi_device records for {dev['node']}")
        return
    x = xdev[0]
    if x.get("evdev") != dev["id"]:
        fail(f"{name}: the touchpad's xi_device is not linked to its evdev record")
    touch = x.get("touch")
    kt = [l for l in load_link(name) if l["kind"] == "ktouch"]
    xt = [r for r in recs if r.get("type") == "xi" and r["xi"] in ("TouchBegin", "RawTouchBegin")
          and r.get("sourceid") == x["deviceid"]]
    motion = [r for r in recs if r.get("type") == "xi" and r.get("sourceid") == x["deviceid"]]
    # xf86-input-evdev (the rig's driver) gives an MT touchpad a dependent
    # touch class with one touch per slot, and sends XI touch events for
    # each finger: raw ones, and (dependent: to the window under the
    # pointer, here the root) TouchBegin..End, through the master.
    if touch != {"mode": "dependent", "num_touches": 2}:
        fail(f"{name}: touch class {touch}, expected dependent with 2 touches (xf86-input-evdev)")
    for evtype in ("RawTouchBegin", "TouchBegin"):
        n = len([r for r in xt if r["xi"] == evtype])
        if n != len(kt) or not kt:
            fail(f"{name}: {len(kt)} kernel touches but {n} {evtype}")
    for k in kt:
        if k["link"] != "linked":
            fail(f"{name}: kernel touch {k['tracking_id']} not linked: {k['link']}")
    print(f"# {name}: xi_device touch {touch}, {len(kt)} kernel touches, "
          f"{len([r for r in xt if r['xi'] == 'RawTouchBegin'])} RawTouchBegin, "
          f"{len([r for r in xt if r['xi'] == 'TouchBegin'])} TouchBegin, {len(motion)} XI events")


def check_killed(name):
    recs = load(name)
    if rc(name) != 0:
        fail(f"{name}: record exited with {rc(name)} after the X server died")
    lost = markers(recs, "x-lost")
    if len(lost) != 1:
        fail(f"{name}: {len(lost)} x-lost markers")
        return
    after = [r for r in recs if r.get("type") == "frame" and r["_line"] > lost[0]["_line"]]
    before = [r for r in recs if r.get("type") == "frame" and r["_line"] < lost[0]["_line"]]
    if not after or not before:
        fail(f"{name}: frames before/after x-lost: {len(before)}/{len(after)}")
    if recs[-1].get("kind") != "stop":
        fail(f"{name}: the file does not end with the stop marker")
    xi_after = [r for r in recs if r.get("type") == "xi" and r["_line"] > lost[0]["_line"]]
    if xi_after:
        fail(f"{name}: XI records after x-lost")
    print(f"# {name}: x-lost at {lost[0]['t'] / 1e6:.3f} s, {len(before)} frames before, "
          f"{len(after)} after, stop marker last")


def check_x_only(name):
    recs = load(name)
    if "x_server" not in recs[0]:
        fail(f"{name}: no x_server in the header")
    if [r for r in recs if r.get("type") == "device"]:
        fail(f"{name}: device records without kernel devices")
    if not markers(recs, "x-connected") or not [r for r in recs if r.get("type") == "xi_device"]:
        fail(f"{name}: no x-connected marker or xi_device records")
    if recs[-1].get("kind") != "stop" or recs[-1].get("text") != "duration":
        fail(f"{name}: no stop marker (duration) at the end: {recs[-1]}")
    # The touchscreen was hot-added during the recording.
    added = [(r, c) for r in xi(recs, "HierarchyChanged") for c in r["changes"]
             if "slave_added" in c["flags"]]
    later = [d for d in recs if d.get("type") == "xi_device" and
             d["name"] == "touchtape VM test touchscreen" and added and d["_line"] > added[0][0]["_line"]]
    if not added or not later or later[0]["deviceid"] not in [c["deviceid"] for _, c in added]:
        fail(f"{name}: no slave_added hierarchy event followed by the touchscreen's xi_device")
    elif later[0].get("touch") != {"mode": "direct", "num_touches": 10}:
        fail(f"{name}: hot-added touchscreen's touch class: {later[0].get('touch')}")
    else:
        print(f"# {name}: touchscreen hot-added: HierarchyChanged slave_added {later[0]['deviceid']}, "
              f"then its xi_device (direct, 10 touches)")


def check_list():
    text = open(f"{out}/list.txt").read()
    lines = [l for l in text.splitlines() if "touchtape VM test touchscreen" in l]
    xline = [l for l in lines if "direct/10" in l and "/dev/input/event" in l]
    if "X input devices" not in text or not xline:
        fail(f"touchtape list shows no X touchscreen with its touch class and node:\n{text}")
    else:
        print(f"# list: {xline[0].strip()}")
    # --json: the kernel's devices, then the X server's, in one array.
    try:
        entries = json.load(open(f"{out}/list.json"))
    except ValueError as e:
        fail(f"list --json is not JSON ({e}): {open(f'{out}/list.json').read()[:300]}")
        return
    name = "touchtape VM test touchscreen"
    kdev = [e for e in entries if e.get("type") == "device" and e.get("name") == name]
    xdev = [e for e in entries if e.get("type") == "xi_device" and e.get("name") == name]
    masters = {e["deviceid"] for e in entries if e.get("type") == "xi_device" and
               e.get("use") == "master_pointer"}
    if len(kdev) != 1 or len(xdev) != 1:
        fail(f"list --json: {len(kdev)} kernel and {len(xdev)} X entries for the touchscreen: {entries}")
        return
    k, x = kdev[0], xdev[0]
    if x.get("device_node") != k["node"] or x.get("touch") != {"mode": "direct", "num_touches": 10} \
            or x.get("use") != "slave_pointer" or x.get("attachment") not in masters \
            or x.get("enabled") is not True or not x.get("display") or \
            not isinstance(x.get("deviceid"), int):
        fail(f"list --json: the touchscreen's X device {x}, kernel device {k}, masters {masters}")
    elif entries.index(x) < max(entries.index(e) for e in entries if e.get("type") == "device"):
        fail("list --json: an X device before a kernel device")
    else:
        print(f"# list --json: {json.dumps(x)}")


def check_denied(name):
    recs = load(name)
    den = markers(recs, "xi-select-denied")
    if len(den) != 1:
        fail(f"{name}: {len(den)} xi-select-denied markers")
    raw = xi(recs, "RawTouchBegin", "observer")
    touch = xi(recs, "TouchBegin")
    if len(raw) != 2 or touch:
        fail(f"{name}: {len(raw)} RawTouchBegin (want 2), {len(touch)} TouchBegin (want 0)")
    else:
        print(f"# {name}: a second recorder: xi-select-denied, then 2 RawTouchBegin, no TouchBegin")


def check_killed_alone(name):
    recs = load(name)
    # Losing the only source is trouble (touchtape-record(1): record never
    # exits 1), not a clean end.
    if rc(name) != 2:
        fail(f"{name}: exit status {rc(name)} after losing X with no kernel device, want 2")
    if len(markers(recs, "x-lost")) != 1 or recs[-1].get("kind") != "stop" or \
            recs[-1].get("text") != "X connection lost":
        fail(f"{name}: want one x-lost marker and the stop marker 'X connection lost' last: {recs[-1]}")
    else:
        print(f"# {name}: --xi alone: x-lost, stop (X connection lost), exit status 2")


check_list()
check_denied("denied")
check_killed_alone("x-killed-alone")
check_x_only("x-only")
check_observer("ts-two", 2)
check_observer("ts-ten", 10)
check_reject("ts-reject")
check_accept("ts-accept")
check_touchpad("touchpad")
check_killed("x-killed")
sys.exit(1 if failures else 0)
