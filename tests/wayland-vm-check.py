#!/usr/bin/env python3
"""Checks of what tests/wayland-vm.sh recorded in the VM.

Usage: wayland-vm-check.py touch-client DIR | pinch DIR

touch-client: DIR/ts-kernel.jsonl (touchtape's recording of the replayed
touchscreen) against DIR/ts-client.log (WAYLAND_DEBUG=client of a
fullscreen Weston client that got the touches): one wl_touch down...up per
kernel touch, in the kernel's order, at the kernel position scaled onto
the output as libinput scales it, the compositor's time = the kernel's;
prints the latency kernel frame -> client (median, p95).
pinch: DIR/pinch-li.jsonl (record --libinput of the corpus pinch, played
twice) holds two-finger pinches out for libinput; says what the client got of it
(DIR/pinch-client.log) and whether the compositor offers pointer
gestures (DIR/globals.txt).
touch-wl: DIR/ts-wl.jsonl (record --wayland of the replayed touchscreen,
the kernel device too): one wl_touch down...up per kernel touch of the
same file, in order, at the kernel position scaled onto the output the
file's wl_output mode names, the compositor's ms (and µs, where offered)
timestamp = the kernel frame's; prints the latency kernel frame ->
recorder (median, p95).
killed: DIR/killed.jsonl ends its Wayland layer with a wayland-lost
marker and the kernel frames go on after it.
Exit 1 with what was seen when a check fails.
"""
import json
import re
import statistics
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


ABS_MT_SLOT, ABS_MT_X, ABS_MT_Y, ABS_MT_ID = 0x2F, 0x35, 0x36, 0x39


def kernel_touches(recs):
    """The touch sequences of the first device's frames, in order of their
    begin: dicts with begin/end (µs, the file's clock) and the first
    position (device units)."""
    slots, done, cur = {}, [], 0
    for r in recs:
        if r.get("type") != "frame" or r.get("dev") != 0:
            continue
        for typ, code, val in r["ev"]:
            if typ != 3:
                continue
            if code == ABS_MT_SLOT:
                cur = val
            elif code == ABS_MT_ID and val >= 0:
                slots[cur] = {"begin": r["t"], "x": None, "y": None}
            elif code == ABS_MT_ID and cur in slots:
                slots[cur]["end"] = r["t"]
                done.append(slots.pop(cur))
            elif code in (ABS_MT_X, ABS_MT_Y) and cur in slots:
                key = "x" if code == ABS_MT_X else "y"
                if slots[cur][key] is None:
                    slots[cur][key] = val
    return sorted(done, key=lambda t: t["begin"])


WL_LINE = re.compile(r"^\[\s*(\d+)\.(\d+)\]\s+wl_touch@\d+\.(\w+)\((.*)\)$")


def client_events(path):
    """WAYLAND_DEBUG lines of wl_touch events: (debug µs, name, args)."""
    evs = []
    with open(path, errors="replace") as f:
        for line in f:
            m = WL_LINE.match(line.strip())
            if m:
                args = [a.strip() for a in m.group(4).split(",")] if m.group(4) else []
                evs.append((int(m.group(1)) * 1000 + int(m.group(2)), m.group(3), args))
    return evs


def wl_sequences(evs):
    """down...up sequences per touch id, in order of their down."""
    active, seqs = {}, []
    for us, name, a in evs:
        if name == "down":
            tid = int(a[3])
            if tid in active:
                fail(f"wl_touch.down of id {tid} while it is down")
            active[tid] = {"down_us": us, "time": int(a[1]), "x": float(a[4]), "y": float(a[5])}
            seqs.append(active[tid])
        elif name == "up":
            tid = int(a[2])
            if tid not in active:
                fail(f"wl_touch.up of id {tid} that is not down")
                continue
            active.pop(tid).update(up_time=int(a[1]), up_us=us)
        elif name == "cancel":
            fail("wl_touch.cancel")
    if active:
        fail(f"touch ids still down at the end: {sorted(active)}")
    return seqs


def output_size(globals_txt):
    with open(globals_txt) as f:
        m = re.search(r"width: (\d+) px, height: (\d+) px[^\n]*\n\s*flags:[^\n]*current", f.read())
    if not m:
        fail("no current mode of the output in weston-info's output")
        return (1024, 768)
    return (int(m.group(1)), int(m.group(2)))


def scale(val, info, size):
    # libinput's absinfo_scale_axis: the range has max - min + 1 steps.
    return (val - info["min"]) * size / (info["max"] - info["min"] + 1)


def check_positions(kt, seqs, dev, size):
    """The surface is fullscreen: surface coordinates are the output's."""
    ax, ay = dev["absinfo"]["ABS_MT_POSITION_X"], dev["absinfo"]["ABS_MT_POSITION_Y"]
    for i, (k, s) in enumerate(zip(kt, seqs)):
        w = (scale(k["x"], ax, size[0]), scale(k["y"], ay, size[1]))
        if abs(s["x"] - w[0]) > 0.01 or abs(s["y"] - w[1]) > 0.01:
            fail(f"touch {i}: wl_touch.down at {s['x']},{s['y']}, the kernel's "
                 f"{k['x']},{k['y']} on a {size[0]}x{size[1]} output is {w[0]},{w[1]}")


def frame_ms_index(recs, start):
    """Kernel frame time in ms (the compositor's timestamps) -> the
    frame's CLOCK_REALTIME µs, from the header's pair of clocks."""
    idx = {}
    for r in recs:
        if r.get("type") == "frame":
            ms = ((start["monotonic_us"] + r["t"]) // 1000) & 0xFFFFFFFF
            idx.setdefault(ms, start["realtime_us"] + r["t"])
    return idx


def latencies(evs, idx):
    """Per wl_touch event with a time: the client's receive time (the
    WAYLAND_DEBUG stamp: CLOCK_REALTIME µs mod 2^32) less the kernel
    frame's; a time that names no kernel frame fails."""
    out = []
    for us, name, a in evs:
        t = {"down": 1, "up": 1, "motion": 0}.get(name)
        if t is None:
            continue
        rt = idx.get(int(a[t]))
        if rt is None:
            fail(f"wl_touch.{name} time {a[t]} ms is no kernel frame's")
            continue
        d = (us - rt) % (1 << 32)
        # Signed: the header's two clocks are read one after the other, so
        # the kernel frame's CLOCK_REALTIME can be off by what passed
        # between the reads (tens of µs seen under TCG), either way.
        out.append(d - (1 << 32) if d >= 1 << 31 else d)
    return out


def touch_client(d):
    recs = load(f"{d}/ts-kernel.jsonl")
    start = recs[0]["start"]
    dev = next(r for r in recs if r.get("type") == "device")
    kt = kernel_touches(recs)
    evs = client_events(f"{d}/ts-client.log")
    seqs = wl_sequences(evs)
    print(f"# kernel touches {len(kt)}, wl_touch sequences {len(seqs)}, wl_touch events {len(evs)}")
    if not kt:
        fail("no kernel touches recorded")
    if len(seqs) != len(kt):
        fail(f"{len(seqs)} wl_touch sequences for {len(kt)} kernel touches")
        return
    check_positions(kt, seqs, dev, output_size(f"{d}/globals.txt"))
    for i, (k, s) in enumerate(zip(kt, seqs)):
        for what, kus, ms in (("down", k["begin"], s["time"]), ("up", k["end"], s.get("up_time"))):
            want = ((start["monotonic_us"] + kus) // 1000) & 0xFFFFFFFF
            if ms != want:
                fail(f"touch {i}: wl_touch.{what} time {ms} ms, the kernel's frame {want} ms")
    lat = sorted(latencies(evs, frame_ms_index(recs, start)))
    if not lat:
        fail("no latency measured")
        return
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    print(f"# latency kernel frame -> Wayland client: "
          f"median {statistics.median(lat) / 1000:.1f} ms, p95 {p95 / 1000:.1f} ms, "
          f"max {lat[-1] / 1000:.1f} ms over {len(lat)} events")
    # Sane bounds under emulation: the client reads an event after its
    # frame, and within a second even on a loaded TCG host.
    if lat[-1] > 1_000_000:
        fail(f"a wl_touch event {lat[-1]} µs after its kernel frame")
    if lat[0] < -2_000:
        fail(f"a wl_touch event {-lat[0]} µs before its kernel frame")


def wl_records_sequences(recs):
    """record --wayland's wl_touch records as down...up sequences, in order
    of their down, with the protocol's rules checked on the way."""
    active, seqs = {}, []
    for r in recs:
        if r.get("type") != "wl" or r.get("wl") != "wl_touch":
            continue
        ev, tid = r["ev"], r.get("id")
        if ev == "down":
            if tid in active:
                fail(f"wl_touch down of id {tid} while it is down (t {r['t']})")
            active[tid] = dict(r, up=None)
            seqs.append(active[tid])
        elif ev in ("up", "motion"):
            if tid not in active:
                fail(f"wl_touch {ev} of id {tid} that is not down (t {r['t']})")
            elif ev == "up":
                active.pop(tid)["up"] = r
        elif ev == "cancel":
            fail(f"wl_touch cancel at t {r['t']}")
    if active:
        fail(f"touch ids still down at the end: {sorted(active)}")
    return seqs


def wl_output_size(recs):
    for r in recs:
        if r.get("type") == "wl" and r.get("wl") == "wl_output" and r.get("ev") == "mode" \
                and r.get("flags", 0) & 1:
            return tuple(r["size"])
    fail("no current wl_output mode recorded")
    return (1024, 768)


def touch_wl(d):
    recs = load(f"{d}/ts-wl.jsonl")
    start = recs[0]["start"]
    dev = next(r for r in recs if r.get("type") == "device")
    kt = kernel_touches(recs)
    seqs = wl_records_sequences(recs)
    kinds = [r["kind"] for r in recs if r.get("type") == "marker"]
    print(f"# kernel touches {len(kt)}, wl_touch sequences {len(seqs)}; markers {kinds}")
    if "wayland-connected" not in kinds:
        fail("no wayland-connected marker")
    if not kt or len(seqs) != len(kt):
        fail(f"{len(seqs)} wl_touch sequences for {len(kt)} kernel touches")
        return
    size = wl_output_size(recs)
    check_positions(kt, [{"x": s["xy"][0], "y": s["xy"][1]} for s in seqs], dev, size)
    frame_t = {}
    for r in recs:
        if r.get("type") == "frame":
            frame_t.setdefault(((start["monotonic_us"] + r["t"]) // 1000) & 0xFFFFFFFF, r["t"])
    lat = []
    for i, (k, s) in enumerate(zip(kt, seqs)):
        for what, kus, w in (("down", k["begin"], s), ("up", k["end"], s["up"] or {})):
            want = ((start["monotonic_us"] + kus) // 1000) & 0xFFFFFFFF
            if w.get("time_ms") != want:
                fail(f"touch {i}: wl_touch {what} time_ms {w.get('time_ms')}, the kernel frame's {want}")
            if "time_us" in w and w["time_us"] != start["monotonic_us"] + kus:
                fail(f"touch {i}: wl_touch {what} time_us {w['time_us']}, the kernel frame's "
                     f"{start['monotonic_us'] + kus}")
            if "t" in w:
                lat.append(w["t"] - kus)
    check_analyze(d, kt, seqs)
    lat.sort()
    if not lat or lat[0] < 0 or lat[-1] > 1_000_000:
        fail(f"latencies kernel frame -> recorder out of 0..1 s: {lat[:3]}...{lat[-3:]}")
        return
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    print(f"# record --wayland: latency kernel frame -> wl_touch down/up: median "
          f"{statistics.median(lat) / 1000:.1f} ms, p95 {p95 / 1000:.1f} ms over {len(lat)} events")


def check_analyze(d, kt, seqs):
    """analyze's Wayland numbers (the library's link) against the file:
    every kernel touch linked to its wl_touch, each with the latency of
    its down (receive time less the kernel frame's)."""
    with open(f"{d}/ts-wl.analyze.json") as f:
        w = json.load(f).get("wayland")
    if w is None:
        print("# analyze has no Wayland section here: its link not checked")
        return
    lat = w["latency_us"]
    print(f"# analyze: wayland touches {w['touches']}, linked {w['linked']}, unlinked "
          f"{w['unlinked']}; latency median {lat['median']} us, p95 {lat['p95']} us, "
          f"max {lat['max']} us over {lat['count']}")
    if (w["touches"], w["linked"], w["unlinked"], w["cancelled"]) != (len(kt), len(kt), 0, 0):
        fail(f"analyze: {w['touches']} touches, {w['linked']} linked, {w['unlinked']} unlinked, "
             f"{w['cancelled']} cancelled for {len(kt)} kernel touches")
    if not 0 <= lat["median"] <= lat["p95"] <= lat["max"] <= 1_000_000:
        fail(f"analyze: latency out of order or over 1 s: {lat}")
    for i, (t, k, s) in enumerate(zip(w["touch_list"], kt, seqs)):
        if t["link"] != "linked" or (t["kernel"] or {}).get("begin_us") != k["begin"]:
            fail(f"analyze: wl touch {i} linked to {t['kernel']}, not the kernel touch at {k['begin']}")
        elif t.get("latency_us") != s["t"] - k["begin"]:
            fail(f"analyze: wl touch {i} latency {t.get('latency_us')}, its down came "
                 f"{s['t'] - k['begin']} us after the kernel frame")


def killed(d):
    recs = load(f"{d}/killed.jsonl")
    lost = [r for r in recs if r.get("type") == "marker" and r.get("kind") == "wayland-lost"]
    if len(lost) != 1:
        fail(f"{len(lost)} wayland-lost markers")
        return
    after = [r for r in recs if r.get("type") == "frame" and r["t"] > lost[0]["t"]]
    late = [r for r in recs if r.get("type") == "wl" and r["t"] > lost[0]["t"]]
    print(f"# wayland-lost at t {lost[0]['t']} ({lost[0].get('text', '')}); "
          f"{len(after)} kernel frames after it")
    if not after:
        fail("no kernel frame recorded after the compositor went away")
    if late:
        fail(f"{len(late)} wl records after wayland-lost")


def xi_sequences(recs, client):
    """@client's XI TouchBegin...TouchEnd sequences, in order of their
    begin: t (µs), position (root coordinates) and the end's t."""
    active, seqs = {}, []
    for r in recs:
        if r.get("type") != "xi" or r.get("client") != client or \
                r.get("xi") not in ("TouchBegin", "TouchEnd"):
            continue
        key = (r["sourceid"], r["detail"])
        if r["xi"] == "TouchBegin":
            active[key] = {"t": r["t"], "x": r["root_x"], "y": r["root_y"], "end": None}
            seqs.append(active[key])
        elif r["xi"] == "TouchEnd" and key in active:
            active.pop(key)["end"] = r["t"]
    if active:
        fail(f"XI touches of {client} never ended: {sorted(active)}")
    return seqs


def med_p95(lat):
    lat = sorted(lat)
    return statistics.median(lat), lat[min(len(lat) - 1, int(0.95 * len(lat)))]


def xwayland(d):
    """DIR/xw.jsonl (record --wayland --xi-window: the recorder's X window,
    an Xwayland toplevel, on top of its Wayland surface) against
    DIR/ts-wl.jsonl (record --wayland alone), both of the same replay: the
    X window gets one XI touch per kernel touch and the Wayland surface
    under it none; each XI touch sits where the wl_touch of the same kernel
    touch sat (a 1024x768 scale-1 output: X root = surface coordinates), to
    the whole pixel (Xwayland drops the fraction);
    prints both latencies kernel frame -> client and what Xwayland adds."""
    recs, wl = load(f"{d}/xw.jsonl"), load(f"{d}/ts-wl.jsonl")
    kt, wkt = kernel_touches(recs), kernel_touches(wl)
    xi = xi_sequences(recs, "window")
    seqs = wl_records_sequences(wl)
    downs = [r for r in recs if r.get("type") == "wl" and r.get("ev") == "down"]
    print(f"# Xwayland: kernel touches {len(kt)}, XI touches of the window {len(xi)}, "
          f"wl_touch downs under it {len(downs)}; ts-wl: {len(wkt)} kernel, {len(seqs)} wl_touch")
    if not kt or len(xi) != len(kt) or len(seqs) != len(wkt) or len(kt) != len(wkt):
        fail(f"{len(xi)} XI touches for {len(kt)} kernel touches, {len(seqs)} wl_touch "
             f"for {len(wkt)} of the same replay")
        return
    if downs:
        fail(f"{len(downs)} wl_touch downs on the Wayland surface under the X window")
    # Xwayland 22 keeps whole pixels of a wl_touch position
    # (wl_fixed_to_int) and its XI coordinates come back through a
    # 0..0xFFFF valuator: trunc(wl) * 65535 / 65536, up to a pixel short.
    worst = 0.0
    for i, (k, w, x, s) in enumerate(zip(kt, wkt, xi, seqs)):
        if (k["x"], k["y"]) != (w["x"], w["y"]):
            fail(f"touch {i}: kernel at {k['x']},{k['y']} here, {w['x']},{w['y']} in ts-wl")
        for axis, xv, wv in (("x", x["x"], s["xy"][0]), ("y", x["y"], s["xy"][1])):
            worst = max(worst, wv - xv)
            if not 0 <= wv - xv < 1 or abs(xv - int(wv) * 65535 / 65536) > 0.001:
                fail(f"touch {i}: XI {axis} {xv}, its wl_touch {wv}: not the whole pixel "
                     f"Xwayland makes of it ({int(wv) * 65535 / 65536:.4f})")
    print(f"# XI positions: the wl_touch's whole pixels * 65535/65536, up to {worst:.3f} px short")
    lx = [x["t"] - k["begin"] for x, k in zip(xi, kt)] + \
        [x["end"] - k["end"] for x, k in zip(xi, kt) if x["end"] is not None]
    lw = [s["t"] - k["begin"] for s, k in zip(seqs, wkt)] + \
        [s["up"]["t"] - k["end"] for s, k in zip(seqs, wkt) if s["up"]]
    if min(lx + lw) < 0 or max(lx + lw) > 1_000_000:
        fail(f"latencies out of 0..1 s: XI {sorted(lx)}, wl {sorted(lw)}")
        return
    check_xi_links(d, kt)
    (mx, px), (mw, pw) = med_p95(lx), med_p95(lw)
    print(f"# latency kernel frame -> begin/end: XI through Xwayland median {mx / 1000:.1f} ms, "
          f"p95 {px / 1000:.1f} ms; wl_touch median {mw / 1000:.1f} ms, p95 {pw / 1000:.1f} ms; "
          f"XI - wl medians {(mx - mw) / 1000:+.1f} ms (two replays: load varies) "
          f"over {len(lx)}/{len(lw)} events")


def check_xi_links(d, kt):
    """analyze's kernel-to-XI link takes Xwayland's touch device for the
    file's touchscreen: every kernel touch linked, each with the latency
    of the first XI begin of its touch (the raw one, to the observer)."""
    with open(f"{d}/xw.analyze.json") as f:
        a = json.load(f)
    begins = {}
    for r in load(f"{d}/xw.jsonl"):
        if r.get("type") == "xi" and r.get("xi") in ("TouchBegin", "RawTouchBegin"):
            begins.setdefault(r["detail"], r["t"])
    print(f"# analyze: kernel to XI {a['links']}")
    if a["links"]["linked"] != len(kt):
        fail(f"analyze linked {a['links']['linked']} of {len(kt)} kernel touches to XI")
    for i, t in enumerate(t for t in a["touches"] if t["device"] == 0):
        xi = t.get("xi") or {}
        if xi.get("touchid") not in begins or xi["latency_us"] != begins[xi["touchid"]] - t["begin_us"]:
            fail(f"analyze: kernel touch {i} linked to XI {xi}")


def frame_missing_want(d, name):
    """How many wl-frame-missing validate should find in DIR/NAME.jsonl:
    Weston 10 sends no frame after the up that ends a touch group, so one
    per kernel frame that lifts the last touch down (a group the Wayland
    surface took)."""
    recs = load(f"{d}/{name}.jsonl")
    if not any(r.get("type") == "wl" and r.get("ev") == "down" for r in recs):
        print(0)
        return
    # A group ends at the frame whose end time no other touch outlives.
    kt = kernel_touches(recs)
    ends = {k["end"] for k in kt if not any(o["begin"] <= k["end"] < o["end"] for o in kt)}
    print(len(ends))


def pinch(d):
    li = [r for r in load(f"{d}/pinch-li.jsonl") if r.get("type") == "li"]
    kinds = [r["li"] for r in li if r["li"].startswith("GESTURE_")]
    upd = [r for r in li if r["li"] == "GESTURE_PINCH_UPDATE"]
    print(f"# libinput gestures: " + ", ".join(f"{k} {kinds.count(k)}" for k in sorted(set(kinds))))
    # The replay plays the pinch twice: one or two pinches, each ended.
    begins = kinds.count("GESTURE_PINCH_BEGIN")
    if begins not in (1, 2) or kinds.count("GESTURE_PINCH_END") != begins:
        fail(f"libinput made {begins} pinches of two corpus pinches, "
             f"{kinds.count('GESTURE_PINCH_END')} ended")
    if len(upd) < 5 or any(r.get("fingers") != 2 for r in upd):
        fail(f"{len(upd)} two-finger pinch updates")
    elif max(r["scale"] for r in upd) <= 1.0:
        fail("a pinch out that never grows (scale <= 1)")
    with open(f"{d}/pinch-client.log", errors="replace") as f:
        log = f.read()
    # Weston 10 adds the touchpad to its libinput but announces no
    # pointer for it (tests/vm/README.md): said, not asserted.
    caps = [int(c) for c in re.findall(r"wl_seat@\d+\.capabilities\((\d+)\)", log)]
    print(f"# seat capabilities during the pinch: {caps or 'unchanged'}")
    got = re.findall(r"\] (wl_pointer|zwp_pointer_gesture_\w+)@\d+\.(\w+)\(", log)
    names = [f"{i}.{e}" for i, e in got]
    print("# the client got: " + (", ".join(f"{n} {names.count(n)}" for n in sorted(set(names))) or "nothing"))
    with open(f"{d}/globals.txt") as f:
        has = "zwp_pointer_gestures_v1" in f.read()
    print(f"# the compositor {'offers' if has else 'does not offer'} zwp_pointer_gestures_v1")


def main():
    what, d = sys.argv[1], sys.argv[2]
    if what == "frame-missing-want":
        frame_missing_want(d, sys.argv[3])
        return 0
    {"touch-client": touch_client, "pinch": pinch, "touch-wl": touch_wl, "killed": killed,
     "xwayland": xwayland}[what](d)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
