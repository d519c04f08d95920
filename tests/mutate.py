#!/usr/bin/env python3
"""Make a regression out of a touchtape timeline: a mutant for the diff gate.

    mutate.py MUTATION [OPTIONS] IN.jsonl OUT.jsonl
    mutate.py MUTATION,MUTATION... [OPTIONS] IN.jsonl PREFIX

With several mutations, or one followed by a comma (one reading of the file), each mutant is written
to PREFIX.MUTATION.jsonl and a line per mutation says "MUTATION applied"
or "MUTATION not applicable: why" on stdout; the exit is 0 then.

Mutations (each changes one device, the first with touches, or --device):
  jump          the fingers of the longest touch's middle (--fingers all|one)
                step 10% of the axis range away for --ms (300) and back
                (the --ms nearest the middle where the touch's own steps
                stay under 4% of the range, else not applicable)
  offset        the longest touch shifted by --percent (3) of the range,
                --part mid (its middle half) or whole
  bow           the middle half of the longest touch bowed 4% off its path
  stall         the frames of 200 ms (--ms) while the touch moves deleted
  halve-rate    every second frame of 600 ms (--ms) removed
  halve-pressure  the pressure of the longest touch halved
  lost-click    the first BTN_LEFT press and its release removed
  shift-button  the first BTN_LEFT press and its release 200 ms (--ms) later
  scale-axis    every x position scaled by 0.9 (--factor) around the centre
  drop-touch    the last touch that is alone on the device deleted: every
                frame from its begin to its end (its BTN_TOUCH and
                BTN_TOOL_* changes with it)
  bunch         not a regression: the device's frames moved into groups of
                4 within 1 ms (each group at its first frame's time, 0.25 ms
                apart; a group spans at most 40 ms of the original, so a
                frame after a pause stays), as a replay under QEMU's TCG
                delivers them; every frame and the mean rate kept

Bases for tests (the whole file, not one device's touch):
  add-click     a BTN_LEFT press at the file's 40th frame, its release at
                the 60th (a click for lost-click and shift-button to take)
  hid-move      bytes 4-5 of HID reports 200-259 set to 0x1000: the first
                contact's X on the corpus's ILITEK touchscreen
  clear-confidence  the first contact's Confidence bit cleared in the
                middle third of the HID reports that have it set with its
                tip down (a finger turned palm), where the descriptor has
                a Confidence usage
  drop-tip      the first contact's Tip Switch cleared in the one report
                nearest the middle of the HID reports with it down, where
                that contact was down in the report before and after (a
                finger lifted for one report)

The site is chosen deterministically (the longest touch, its middle), so a
test gets the same mutant every time. What the events of deleted frames
changed is carried into the next kept frame, so the mutant is a valid
recording: frames end with SYN_REPORT, tracking ids pair, times increase.

Exit 0: mutant written; 3: the file cannot take this mutation (no pressure
axis, no BTN_LEFT, no touch long enough...), with the reason on stderr;
2: bad usage or unreadable input.
"""
import argparse
import json
import math
import sys

NOT_APPLICABLE = 3
# a jump's window (of the jump's 10% of the range) needs the touch's own
# steps under 4% in it and analyze's pace of 3 steps around it
CALM_STEP, CALM_PACE = 0.04, 3
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, SYN_MT_REPORT = 0, 2
ABS_X, ABS_Y, ABS_PRESSURE = 0, 1, 24
MT_SLOT, MT_X, MT_Y, MT_TID, MT_PRESSURE = 47, 53, 54, 57, 58
BTN_LEFT, BTN_TOUCH = 272, 330
NAMES = {
    "EV_SYN": 0, "EV_KEY": 1, "EV_ABS": 3, "SYN_REPORT": 0, "SYN_MT_REPORT": 2,
    "ABS_X": 0, "ABS_Y": 1, "ABS_PRESSURE": 24, "ABS_MT_SLOT": 47,
    "ABS_MT_POSITION_X": 53, "ABS_MT_POSITION_Y": 54,
    "ABS_MT_TRACKING_ID": 57, "ABS_MT_PRESSURE": 58,
    "BTN_LEFT": 272, "BTN_TOUCH": 330,
}
X_OF = {MT_X: "x", ABS_X: "x", MT_Y: "y", ABS_Y: "y"}


class NotApplicable(Exception):
    pass


def num(v):
    """A type or code as a number (names we do not need stay -1)."""
    if isinstance(v, int):
        return v
    if v in NAMES:
        return NAMES[v]
    try:
        return int(v, 0)
    except ValueError:
        return -1


def ev_key(e):
    return num(e[0]), num(e[1])


class Timeline:
    def __init__(self, text):
        self.lines = [json.loads(x) for x in text if x.strip()]
        self.devices = {r["id"]: r for r in self.lines[1:]
                        if r.get("type") == "device"}

    def frames(self, dev):
        return [r for r in self.lines if r.get("type") == "frame"
                and r.get("dev") == dev]

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for r in self.lines:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")


def absinfo(dev, name):
    a = dev.get("absinfo", {}).get(name)
    if a is None:
        return None
    return a["min"], a["max"]


def protocol(dev):
    return dev.get("mt", {}).get("protocol")


class Touch:
    """One touch: the frames (indices into the device's frame list) it is
    down in and its original position after each."""

    def __init__(self, key):
        self.key = key          # ("slot", n) | ("st",) | ("A",)
        self.idx = []
        self.pos = []

    def duration(self, frames):
        return frames[self.idx[-1]]["t"] - frames[self.idx[0]]["t"]


def model_b(dev, frames):
    """Touches of a Type B or single-touch device, and per frame the oldest
    touch down (the one the kernel's pointer emulation follows)."""
    mt = protocol(dev) == "B"
    slot = dev.get("mt", {}).get("current_slot", 0)
    state, live, done = {}, {}, []
    for s in dev.get("mt", {}).get("state", []):
        st = {num(k): v for k, v in s.items() if k != "slot"}
        state[s["slot"]] = st
        if st.get(MT_TID, -1) >= 0:
            live[s["slot"]] = Touch(("slot", s["slot"]))
    st_state = {}
    st_down = "BTN_TOUCH" in dev.get("state", {}).get("keys_down", [])
    oldest = []
    for i, fr in enumerate(frames):
        ended = []
        for e in fr["ev"]:
            t, c = ev_key(e)
            if t == EV_ABS and c == MT_SLOT:
                slot = e[2]
            elif t == EV_ABS and mt and c >= MT_SLOT:
                state.setdefault(slot, {})[c] = e[2]
                if c == MT_TID and e[2] < 0 and slot in live:
                    ended.append(live.pop(slot))
                elif c == MT_TID and e[2] >= 0:
                    if slot in live:
                        ended.append(live.pop(slot))
                    live[slot] = Touch(("slot", slot))
            elif t == EV_ABS:
                st_state[c] = e[2]
            elif t == EV_KEY and c == BTN_TOUCH and not mt:
                if e[2] and not st_down:
                    live["st"] = Touch(("st",))
                elif not e[2] and "st" in live:
                    ended.append(live.pop("st"))
                st_down = bool(e[2])
        for k, tch in live.items():
            s = state.get(k, {}) if mt else st_state
            x, y = s.get(MT_X if mt else ABS_X), s.get(MT_Y if mt else ABS_Y)
            if x is not None and y is not None:
                tch.idx.append(i)
                tch.pos.append((x, y))
        done.extend(ended)
        live_sorted = [t for t in live.values() if t.idx]
        oldest.append(min(live_sorted, key=lambda t: t.idx[0])
                      if live_sorted else None)
    done.extend(live.values())
    return [t for t in done if len(t.idx) >= 2], oldest


def model_a(frames):
    """Type A: a touch is a run of frames with contacts; its path is the
    first contact's."""
    touches, cur = [], None
    for i, fr in enumerate(frames):
        first, x, y = None, None, None
        for e in fr["ev"]:
            t, c = ev_key(e)
            if t == EV_ABS and c == MT_X and x is None:
                x = e[2]
            elif t == EV_ABS and c == MT_Y and y is None:
                y = e[2]
            elif t == EV_SYN and c == SYN_MT_REPORT and first is None:
                first = (x, y)
        if first and first[0] is not None and first[1] is not None:
            if cur is None:
                cur = Touch(("A",))
                touches.append(cur)
            cur.idx.append(i)
            cur.pos.append(first)
        elif not any(ev_key(e) == (EV_SYN, SYN_MT_REPORT) or
                     (ev_key(e) == (EV_KEY, BTN_TOUCH) and not e[2])
                     for e in fr["ev"]):
            continue            # a frame of keys only: the touch goes on
        else:
            cur = None
    return [t for t in touches if len(t.idx) >= 2], [None] * len(frames)


class Site:
    def __init__(self, tl, devid):
        self.tl = tl
        ids = [devid] if devid is not None else sorted(tl.devices)
        for d in ids:
            if d not in tl.devices:
                raise NotApplicable("no device %d" % d)
            dev = tl.devices[d]
            frames = tl.frames(d)
            if protocol(dev) == "A":
                touches, oldest = model_a(frames)
            else:
                touches, oldest = model_b(dev, frames)
            if touches or devid is not None:
                break
        self.devid, self.dev, self.frames = d, dev, frames
        self.touches, self.oldest = touches, oldest
        mt = protocol(dev) in ("A", "B")
        self.xname = "ABS_MT_POSITION_X" if mt else "ABS_X"
        self.yname = "ABS_MT_POSITION_Y" if mt else "ABS_Y"
        self.xr, self.yr = absinfo(dev, self.xname), absinfo(dev, self.yname)
        if not touches or not self.xr or not self.yr:
            raise NotApplicable("no touch with a position")

    def longest(self):
        return max(self.touches, key=lambda t: (t.duration(self.frames),
                                                -t.idx[0]))

    def norm(self, p):
        return ((p[0] - self.xr[0]) / max(1, self.xr[1] - self.xr[0]),
                (p[1] - self.yr[0]) / max(1, self.yr[1] - self.yr[0]))

    def window(self, tch, ms, what, calm=False):
        """Indices into tch.idx of the middle ms of the touch; with calm,
        the window nearest the middle where the touch is calm (see
        calm()), as a jump must be to stand out of its own motion."""
        t = [self.frames[i]["t"] for i in tch.idx]
        if t[-1] - t[0] < ms * 1000 + 50000:
            raise NotApplicable("no touch long enough for %s (%d ms)"
                                % (what, (t[-1] - t[0]) // 1000))
        steps = self.steps(tch) if calm else None
        # the middle in time, else (a touch with a silent middle, as
        # Type A devices that send nothing when lifted make) the middle
        # frame; then, for a calm window, the other frames' times
        # nearest the middle, windows that stay inside the touch
        mids = [(t[0] + t[-1]) // 2, t[len(t) // 2]]
        if calm:
            lo, hi = t[0] + ms * 500, t[-1] - ms * 500
            mids += sorted((x for x in t if lo <= x <= hi),
                           key=lambda x: (abs(x - mids[0]), x))
        for mid in mids:
            sel = [k for k in range(1, len(t) - 1)
                   if mid - ms * 500 <= t[k] <= mid + ms * 500]
            if len(sel) >= 2 and (not calm or
                                  self.calm(steps, sel[0], sel[-1] + 1)):
                return sel[0], sel[-1]
            if not calm and sel:
                break
        if calm:
            raise NotApplicable("no %d ms of the touch with its own steps "
                                "under %g%% of the range for %s"
                                % (ms, CALM_STEP * 100, what))
        raise NotApplicable("too few frames mid-touch for %s" % what)

    def steps(self, tch):
        """Per index k into tch.idx, the length of the touch's step from
        sample k - 1 (0 for the first), in shares of the axis ranges."""
        p = [self.norm(q) for q in tch.pos]
        return [0.0] + [math.dist(p[k], p[k - 1]) for k in range(1, len(p))]

    @staticmethod
    def calm(steps, k_in, k_out):
        """Whether the steps of a window, from the one into it (k_in) to
        the one out of it (k_out), and CALM_PACE on either side are all
        under CALM_STEP: analyze takes a step out as a jump only when it
        is twice the touch's recent steps, and forgets it when the touch
        then moves on by half of it; a step of the touch's own of 25%
        of the range is a jump already, which one put across would hide
        among."""
        return all(steps[k] < CALM_STEP for k in
                   range(max(0, k_in - CALM_PACE),
                         min(len(steps), k_out + CALM_PACE + 1)))


def seg_dist(p, a, b):
    ax, ay = b[0] - a[0], b[1] - a[1]
    l2 = ax * ax + ay * ay
    u = 0 if l2 == 0 else max(0, min(1, ((p[0] - a[0]) * ax
                                         + (p[1] - a[1]) * ay) / l2))
    return math.hypot(p[0] - a[0] - u * ax, p[1] - a[1] - u * ay)


def path_dist(p, path):
    if len(path) == 1:
        return math.hypot(p[0] - path[0][0], p[1] - path[0][1])
    return min(seg_dist(p, path[i], path[i + 1]) for i in range(len(path) - 1))


def direction(site, tch, k0, k1, size):
    """The one of 16 directions in which the touch's samples k0..k1, moved
    by size (a fraction of the axis ranges), stay in range and land
    farthest from the touch's own path: a jump along a swipe's own line
    would hide in it."""
    path = [site.norm(p) for p in tch.pos]
    if len(path) > 400:
        path = path[::len(path) // 400 + 1] + [path[-1]]
    pts = [site.norm(tch.pos[k]) for k in range(k0, k1 + 1)]
    if len(pts) > 40:
        pts = pts[::len(pts) // 40 + 1]
    best = None
    for j in range(16):
        dx, dy = size * math.cos(j * math.pi / 8), size * math.sin(j * math.pi / 8)
        moved = [(x + dx, y + dy) for x, y in pts]
        if any(not (0 <= x <= 1 and 0 <= y <= 1) for x, y in moved):
            continue
        # diff's Hausdorff distance sees the farthest sample
        score = max(path_dist(p, path) for p in moved)
        if best is None or score > best[0] + 1e-9:
            best = (score, dx, dy)
    if best is None or best[0] < size / 2:
        raise NotApplicable("no room to move the touch %g of the range "
                            "off its path" % size)
    return (best[1] * (site.xr[1] - site.xr[0]),
            best[2] * (site.yr[1] - site.yr[0]))


def clamp(v, r):
    return int(max(r[0], min(r[1], round(v))))


def rewrite(site, plan, codes):
    """Rewrite the device's frames so that each planned touch's axes take
    new values. plan: {touch key: (touch, {frame index: fn})} where
    fn(code, value) gives the new value; the kernel's single-touch axes
    follow the oldest touch. Values the frame does not carry are added
    before its SYN_REPORT, slot selection put back after."""
    mt_b = protocol(site.dev) == "B"
    by_frame = {}
    for tch, fns in plan:
        for i, fn in fns.items():
            by_frame.setdefault(i, {})[tch.key] = (tch, fn)
    orig, mutant = {}, {}       # (slot key, code) -> value
    slot = site.dev.get("mt", {}).get("current_slot", 0)
    for s in site.dev.get("mt", {}).get("state", []):
        for k, v in s.items():
            if k != "slot":
                orig[(("slot", s["slot"]), num(k))] = v
                mutant[(("slot", s["slot"]), num(k))] = v
    for i, fr in enumerate(site.frames):
        todo = by_frame.get(i, {})
        old = site.oldest[i]
        st_fn = None
        if old is not None and old.key in todo:
            st_fn = todo[old.key][1]
        elif not mt_b:
            st_fn = todo.get(("st",), todo.get(("A",), (None, None)))[1]
        out, contact = [], 0
        for e in fr["ev"]:
            t, c = ev_key(e)
            e = list(e)
            if t == EV_ABS and c == MT_SLOT:
                slot = e[2]
            elif t == EV_ABS and c == MT_TID and mt_b:
                # whether the slot is down decides giving values back
                orig[(("slot", slot), c)] = e[2]
            elif t == EV_SYN and c == SYN_MT_REPORT:
                contact += 1
            elif t == EV_ABS and c in codes:
                key = ("slot", slot) if (mt_b and c >= MT_SLOT) else \
                    ("A",) if c >= MT_SLOT else ("st",)
                orig[(key, c)] = e[2]
                fn = todo.get(key, (None, None))[1] if key != ("st",) else st_fn
                if fn is not None:
                    e[2] = fn(c, e[2])
                mutant[(key, c)] = e[2]
            out.append(e)
        adds = []
        if mt_b:
            for key, (tch, fn) in sorted(todo.items()):
                for c in sorted(codes):
                    if c >= MT_SLOT and (key, c) in orig:
                        want = fn(c, orig[(key, c)])
                        if mutant.get((key, c)) != want:
                            adds.append((key[1], c, want))
                            mutant[(key, c)] = want
            # the values the mutation gave back at its end
            for (key, c), v in list(mutant.items()):
                if key[0] == "slot" and key not in todo and \
                        orig.get((key, c)) != v and c in codes and \
                        orig.get((key, MT_TID), -1) >= 0:
                    adds.append((key[1], c, orig[(key, c)]))
                    mutant[(key, c)] = orig[(key, c)]
        st_adds = []
        for c in sorted(codes):
            if c < MT_SLOT and (("st",), c) in orig:
                want = orig[(("st",), c)]
                if st_fn is not None:
                    want = st_fn(c, want)
                if mutant.get((("st",), c)) != want:
                    st_adds.append([EV_ABS, c, want])
                    mutant[(("st",), c)] = want
        if adds or st_adds:
            last = slot
            ins = []
            for s, c, v in adds:
                if s != last:
                    ins.append([EV_ABS, MT_SLOT, s])
                    last = s
                ins.append([EV_ABS, c, v])
            if last != slot:
                ins.append([EV_ABS, MT_SLOT, slot])
            end = len(out) - 1 if ev_key(out[-1]) == (EV_SYN, SYN_REPORT) \
                else len(out)
            out[end:end] = ins + st_adds
        fr["ev"] = out


def shift_fn(site, vec, env):
    """fn moving x and y by env * vec, within the axis ranges."""
    def fn(c, v):
        if X_OF.get(c) == "x":
            return clamp(v + env * vec[0], site.xr)
        if X_OF.get(c) == "y":
            return clamp(v + env * vec[1], site.yr)
        return v
    return fn


POS = {MT_X, MT_Y, ABS_X, ABS_Y}


def moving(site, tchs, ms, size, env=lambda u: 1.0, part=None):
    plan = []
    for tch in tchs:
        if part == "whole":
            k0, k1 = 0, len(tch.idx) - 1
        elif part == "half":
            t = [site.frames[i]["t"] for i in tch.idx]
            q = (t[-1] - t[0]) // 4
            ks = [k for k in range(len(t)) if t[0] + q <= t[k] <= t[-1] - q]
            if len(ks) < 3:
                raise NotApplicable("touch too short for its middle half")
            k0, k1 = ks[0], ks[-1]
        else:
            k0, k1 = site.window(tch, ms, "the mutation")
        vec = direction(site, tch, k0, k1, size)
        n = max(1, k1 - k0)
        fns = {tch.idx[k]: shift_fn(site, vec, env((k - k0) / n))
               for k in range(k0, k1 + 1)}
        plan.append((tch, fns))
    rewrite(site, plan, POS)


def m_jump(site, a):
    main = site.longest()
    tchs = [main]
    if a.fingers == "all":
        k0, k1 = site.window(main, a.ms, "a jump", calm=True)
        t0, t1 = site.frames[main.idx[k0]]["t"], site.frames[main.idx[k1]]["t"]
        for t in site.touches:
            if t is not main and site.frames[t.idx[0]]["t"] < t0 and \
                    site.frames[t.idx[-1]]["t"] > t1:
                tchs.append(t)
    plan = []
    k0, k1 = site.window(main, a.ms, "a jump", calm=True)
    t0, t1 = site.frames[main.idx[k0]]["t"], site.frames[main.idx[k1]]["t"]
    for tch in tchs:
        ks = [k for k, i in enumerate(tch.idx) if t0 <= site.frames[i]["t"] <= t1]
        vec = direction(site, tch, ks[0], ks[-1], 0.10)
        plan.append((tch, {tch.idx[k]: shift_fn(site, vec, 1.0) for k in ks}))
    rewrite(site, plan, POS)


def m_offset(site, a):
    moving(site, [site.longest()], 0, a.percent / 100,
           part="whole" if a.part == "whole" else "half")


def m_bow(site, a):
    moving(site, [site.longest()], 0, 0.04,
           env=lambda u: math.sin(math.pi * u), part="half")


def m_scale(site, a):
    cx = (site.xr[0] + site.xr[1]) / 2
    fn = lambda c, v: clamp(cx + (v - cx) * a.factor, site.xr) \
        if X_OF.get(c) == "x" else v
    moved = max(abs(p[0] - fn(MT_X, p[0])) for t in site.touches for p in t.pos)
    if moved < 0.02 * (site.xr[1] - site.xr[0]):
        raise NotApplicable("every touch is too near the centre to scale")
    for fr in site.frames:
        for e in fr["ev"]:
            if ev_key(e)[0] == EV_ABS and X_OF.get(ev_key(e)[1]) == "x":
                e[2] = fn(ev_key(e)[1], e[2])
    for s in site.dev.get("mt", {}).get("state", []):
        if "ABS_MT_POSITION_X" in s:
            s["ABS_MT_POSITION_X"] = fn(MT_X, s["ABS_MT_POSITION_X"])


def m_pressure(site, a):
    codes = {c for c in (MT_PRESSURE, ABS_PRESSURE)
             if absinfo(site.dev, {MT_PRESSURE: "ABS_MT_PRESSURE",
                                   ABS_PRESSURE: "ABS_PRESSURE"}[c])}
    if not codes:
        raise NotApplicable("no pressure axis")
    tch = site.longest()
    fn = lambda c, v: v // 2 if c in codes else v
    rewrite(site, [(tch, {i: fn for i in tch.idx})], codes)
    if not any(ev_key(e)[1] in codes and e[2] > 1 for i in tch.idx
               for e in site.frames[i]["ev"] if ev_key(e)[0] == EV_ABS):
        raise NotApplicable("the touch has no pressure to halve")


def keep_frame(fr):
    return any(ev_key(e) != (EV_SYN, SYN_REPORT) for e in fr["ev"])


def button_events(site):
    """(frame, event index, value) of the first BTN_LEFT press and its
    release on the device."""
    found = []
    for fr in site.frames:
        for j, e in enumerate(fr["ev"]):
            if ev_key(e) == (EV_KEY, BTN_LEFT):
                if not found and e[2] == 1:
                    found.append((fr, j))
                elif found and e[2] == 0:
                    found.append((fr, j))
                    return found
    raise NotApplicable("no BTN_LEFT press and release")


def remove_events(tl, where):
    for fr, j in sorted(where, key=lambda w: -w[1]):
        del fr["ev"][j]
    tl.lines = [r for r in tl.lines if r.get("type") != "frame" or keep_frame(r)]


def m_lost_click(site, a):
    remove_events(site.tl, button_events(site))


def m_shift_button(site, a):
    (pf, pj), (rf, rj) = button_events(site)
    tp, tr = pf["t"] + a.ms * 1000, rf["t"] + a.ms * 1000
    later = [fr["t"] for fr in site.frames if fr["t"] > rf["t"] and any(
        ev_key(e) == (EV_KEY, BTN_LEFT) for e in fr["ev"])]
    if later and later[0] <= tr:
        raise NotApplicable("another click within %d ms" % a.ms)
    remove_events(site.tl, [(pf, pj), (rf, rj)])
    for t, v in ((tp, 1), (tr, 0)):
        fr = {"type": "frame", "dev": site.devid, "t": t,
              "ev": [[EV_KEY, BTN_LEFT, v], [EV_SYN, SYN_REPORT, 0]]}
        at = len(site.tl.lines)
        for n, r in enumerate(site.tl.lines):
            if isinstance(r.get("t"), int) and r["t"] > t:
                at = n
                break
        site.tl.lines.insert(at, fr)


def carry(site, gone, into):
    """Delete the frames in gone; what they changed is carried into the
    next kept frame (into), as the kernel reports after a gap."""
    evs = [e for fr in gone for e in fr["ev"]
           if ev_key(e) not in ((EV_SYN, SYN_REPORT),)]
    contacts = {sum(ev_key(e) == (EV_SYN, SYN_MT_REPORT) for e in fr["ev"])
                for fr in gone + [into]}
    if len(contacts) > 1 or any(ev_key(e)[0] == EV_KEY or
                                ev_key(e) == (EV_ABS, MT_TID) for e in evs):
        raise NotApplicable("the frames to delete begin or end a touch")
    evs = [e for e in evs if ev_key(e) != (EV_SYN, SYN_MT_REPORT)]
    if protocol(site.dev) != "A":
        dt = into["ev"][0][3] if len(into["ev"][0]) > 3 else 0
        into["ev"][0:0] = [list(e[:3]) + ([dt] if dt else []) for e in evs]
        squash(into)
    ids = {id(fr) for fr in gone}
    site.tl.lines = [r for r in site.tl.lines if id(r) not in ids]


def squash(fr):
    """Keep only the last value of each axis per slot in the frame."""
    seen, out, slot_at, cur = set(), [], [], None
    for e in fr["ev"]:
        if ev_key(e) == (EV_ABS, MT_SLOT):
            cur = e[2]
        slot_at.append(cur)
    for e, s in zip(reversed(fr["ev"]), reversed(slot_at)):
        t, c = ev_key(e)
        if t == EV_ABS and c != MT_SLOT:
            k = (s if c > MT_SLOT else None, c)
            if k in seen:
                continue
            seen.add(k)
        out.append(e)
    out.reverse()
    # a slot selection followed by nothing of that slot is dropped
    fr["ev"] = [e for n, e in enumerate(out) if not (
        ev_key(e) == (EV_ABS, MT_SLOT) and n + 1 < len(out)
        and ev_key(out[n + 1]) == (EV_ABS, MT_SLOT))]


def frames_between(site, t0, t1):
    return [k for k, fr in enumerate(site.frames) if t0 <= fr["t"] <= t1]


def m_stall(site, a):
    tch = site.longest()
    t = [site.frames[i]["t"] for i in tch.idx]
    mid = (t[0] + t[-1]) // 2
    if t[-1] - t[0] < a.ms * 1000 * 2:
        raise NotApplicable("no touch long enough for a %d ms stall" % a.ms)
    # the window nearest the middle in which the touch moves
    best = None
    for k, i in enumerate(tch.idx):
        t0 = site.frames[i]["t"]
        if t0 < t[0] + a.ms * 500 or t0 + a.ms * 1000 > t[-1] - a.ms * 500:
            continue
        ks = [m for m in range(k, len(t)) if t[m] <= t0 + a.ms * 1000]
        moved = math.dist(site.norm(tch.pos[k]), site.norm(tch.pos[ks[-1]]))
        if moved > 0.005 and (best is None or abs(t0 - mid) < abs(best - mid)):
            best = t0
    if best is None:
        raise NotApplicable("the touch does not move for %d ms" % a.ms)
    idx = frames_between(site, best + 1, best + a.ms * 1000)
    if not idx or idx[-1] + 1 >= len(site.frames):
        raise NotApplicable("no frames to delete")
    carry(site, [site.frames[k] for k in idx], site.frames[idx[-1] + 1])


def m_halve_rate(site, a):
    tch = site.longest()
    k0, k1 = site.window(tch, a.ms, "half the rate")
    t0, t1 = site.frames[tch.idx[k0]]["t"], site.frames[tch.idx[k1]]["t"]
    idx = frames_between(site, t0, t1)
    gone, n = [], 0
    for k in idx:
        if k + 1 >= len(site.frames) or any(
                ev_key(e)[0] == EV_KEY or ev_key(e) == (EV_ABS, MT_TID)
                for e in site.frames[k]["ev"]):
            n = 0       # a frame that begins or ends something stays
            continue
        if n % 2 == 1:
            gone.append(k)
        n += 1
    if len(gone) < 5:
        raise NotApplicable("too few frames in %d ms to halve" % a.ms)
    frames = site.frames
    for k in reversed(gone):
        carry(site, [frames[k]], frames[k + 1])


def slot_after(frames, k):
    """The current slot after frame @k (None before any selection)."""
    slot = None
    for fr in frames[:k + 1]:
        for e in fr["ev"]:
            if ev_key(e) == (EV_ABS, MT_SLOT):
                slot = e[2]
    return slot


def m_drop_touch(site, a):
    spans = [(t.idx[0], t.idx[-1]) for t in site.touches]
    alone = [(i0, i1) for i0, i1 in spans
             if not any(j0 <= i1 and j1 >= i0 for j0, j1 in spans if (j0, j1) != (i0, i1))]
    alone = [(i0, i1) for i0, i1 in alone if i1 + 1 < len(site.frames)]
    if not alone:
        raise NotApplicable("no touch alone on the device")
    i0, i1 = alone[-1]
    before, after = slot_after(site.frames, i0 - 1), slot_after(site.frames, i1)
    if after is not None and after != before:
        site.frames[i1 + 1]["ev"].insert(0, [EV_ABS, MT_SLOT, after])
    ids = {id(fr) for fr in site.frames[i0:i1 + 1]}
    site.tl.lines = [r for r in site.tl.lines if id(r) not in ids]


def bunch_groups(frames):
    """Each frame's index in its group: up to 4 in a row within 40 ms (a
    frame after a pause begins a group of its own)."""
    pos, k0 = [], 0
    for k, fr in enumerate(frames):
        if k == 0 or k - k0 == 4 or fr["t"] - frames[k0]["t"] > 40000:
            k0 = k
        pos.append(k - k0)
    return pos


def m_bunch(site, a):
    # a few groups would move a short recording's touches, not bunch it
    if len(site.frames) < 40:
        raise NotApplicable("fewer than 40 frames to bunch")
    pos = bunch_groups(site.frames)
    index = {id(fr): k for k, fr in enumerate(site.frames)}
    prev = None     # the time of the record before, in file order
    for r in (r for r in site.tl.lines if "t" in r):
        k = index.get(id(r))
        if k is not None and pos[k]:
            t0 = site.frames[k - pos[k]]["t"]
            r["t"] = max(min(t0 + 250 * pos[k], r["t"]), prev if prev is not None else r["t"])
        prev = r["t"]


def m_add_click(tl, a):
    frames = [r for r in tl.lines if r.get("type") == "frame"]
    if len(frames) < 60:
        raise NotApplicable("fewer than 60 frames for a click")
    frames[39]["ev"].insert(0, [EV_KEY, BTN_LEFT, 1])
    frames[59]["ev"].insert(0, [EV_KEY, BTN_LEFT, 0])


def m_hid_move(tl, a):
    reports = [r for r in tl.lines if r.get("type") == "hid"]
    if len(reports) < 260:
        raise NotApplicable("fewer than 260 HID reports")
    for r in reports[199:259]:
        r["data"] = r["data"][:8] + "0010" + r["data"][12:]


def hid_fields(desc):
    """Input fields of a HID report descriptor: (report id, bit offset
    after the ID byte, size, usage page << 16 | usage) each."""
    b = bytes.fromhex(desc)
    g = {"page": 0, "size": 0, "count": 0, "id": 0}
    stack, usages, umin, fields, offset = [], [], None, [], {}
    i = 0
    while i < len(b):
        p = b[i]
        n = (0, 1, 2, 4)[p & 3]
        v = int.from_bytes(b[i + 1:i + 1 + n], "little")
        i += 1 + n
        typ, tag = (p >> 2) & 3, p >> 4
        if p == 0xfe:   # a long item: skipped
            i += b[i - n] + 2 if n else 0
            continue
        if typ == 1:
            key = {0: "page", 7: "size", 8: "id", 9: "count"}.get(tag)
            if key:
                g[key] = v
            elif tag == 10:
                stack.append(dict(g))
            elif tag == 11 and stack:
                g = stack.pop()
        elif typ == 2:
            full = v if n == 4 else g["page"] << 16 | v
            if tag == 0:
                usages.append(full)
            elif tag == 1:
                umin = full
            elif tag == 2 and umin is not None:
                usages.extend(range(umin, full + 1))
        elif typ == 0:
            if tag == 8:    # Input
                off = offset.get(g["id"], 0)
                for k in range(g["count"]):
                    u = usages[min(k, len(usages) - 1)] if usages else 0
                    fields.append((g["id"], off + k * g["size"], g["size"], u))
                offset[g["id"]] = off + g["count"] * g["size"]
            usages, umin = [], None
    return fields


DIG_TIP, DIG_CONFIDENCE = 0xd0042, 0xd0047


def hid_site(tl, usage):
    """The first contact's field of @usage on a HID device that has it, and
    the reports of that device: (field, tip field, reports)."""
    for d in tl.lines:
        if d.get("type") != "hid_device" or not d.get("descriptor"):
            continue
        fields = hid_fields(d["descriptor"])
        want = [f for f in fields if f[3] == usage]
        if not want:
            continue
        f = want[0]
        tip = [t for t in fields if t[3] == DIG_TIP and t[0] == f[0]]
        reps = [r for r in tl.lines if r.get("type") == "hid" and r.get("dev") == d["id"]
                and (not f[0] or r["data"][:2] == "%02x" % f[0])]
        if tip and reps:
            return f, tip[0], reps
    raise NotApplicable("no HID device with a contact's %s" %
                        ("Confidence" if usage == DIG_CONFIDENCE else "Tip Switch"))


def bit_at(r, f, value=None):
    """Field @f's bit in report @r (the ID byte first when there is one);
    set it to @value when given."""
    data = bytearray(bytes.fromhex(r["data"]))
    pos = (8 if f[0] else 0) + f[1]
    if pos // 8 >= len(data):
        return None
    old = data[pos // 8] >> (pos % 8) & 1
    if value is not None:
        data[pos // 8] = data[pos // 8] & ~(1 << pos % 8) | (value << pos % 8)
        r["data"] = data.hex()
    return old


def m_clear_confidence(tl, a):
    f, tip, reps = hid_site(tl, DIG_CONFIDENCE)
    down = [r for r in reps if bit_at(r, tip) and bit_at(r, f)]
    if len(down) < 6:
        raise NotApplicable("fewer than 6 reports with a confident contact down")
    for r in down[len(down) // 3:2 * len(down) // 3]:
        bit_at(r, f, 0)


def m_drop_tip(tl, a):
    f, tip, reps = hid_site(tl, DIG_TIP)
    mid = [k for k in range(1, len(reps) - 1)
           if all(bit_at(reps[j], tip) for j in (k - 1, k, k + 1))]
    if not mid:
        raise NotApplicable("no report with the first contact down before and after")
    k = min(mid, key=lambda k: abs(k - len(reps) // 2))
    bit_at(reps[k], tip, 0)


# Mutations of the whole file, without a site.
FILE_MUTATIONS = {"add-click": m_add_click, "hid-move": m_hid_move,
                  "clear-confidence": m_clear_confidence, "drop-tip": m_drop_tip}

MUTATIONS = {
    "jump": m_jump, "offset": m_offset, "bow": m_bow, "stall": m_stall,
    "halve-rate": m_halve_rate, "halve-pressure": m_pressure,
    "lost-click": m_lost_click, "shift-button": m_shift_button,
    "scale-axis": m_scale, "bunch": m_bunch, "drop-touch": m_drop_touch, **FILE_MUTATIONS,
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mutation", help=", ".join(sorted(MUTATIONS)))
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--device", type=int)
    p.add_argument("--ms", type=int)
    p.add_argument("--fingers", choices=("all", "one"), default="all")
    p.add_argument("--percent", type=float, default=3.0)
    p.add_argument("--part", choices=("mid", "whole"), default="mid")
    p.add_argument("--factor", type=float, default=0.9)
    a = p.parse_args()
    kinds = [k for k in a.mutation.split(",") if k]
    multi = "," in a.mutation
    bad = [k for k in kinds if k not in MUTATIONS]
    if bad:
        p.error("unknown mutation %s" % bad[0])
    try:
        with open(a.input, encoding="utf-8-sig") as f:
            text = f.read().splitlines()
        Timeline(text[:1])
    except (OSError, ValueError) as e:
        print("mutate.py: %s: %s" % (a.input, e), file=sys.stderr)
        return 2
    for k in kinds:
        out = "%s.%s.jsonl" % (a.output, k) if multi else a.output
        why = make(k, a, Timeline(text), out)
        if multi:
            print("%s %s" % (k, "applied" if why is None
                             else "not applicable: " + why))
        elif why is not None:
            print("mutate.py: %s: %s: not applicable: %s" % (a.input, k, why),
                  file=sys.stderr)
            return NOT_APPLICABLE
    return 0


def make(kind, a, tl, out):
    """Write the mutant; None, or why the file cannot take it."""
    ms = a.ms
    if ms is None:
        ms = {"jump": 300, "stall": 200, "halve-rate": 600,
              "shift-button": 200}.get(kind, 0)
    try:
        if kind in FILE_MUTATIONS:
            FILE_MUTATIONS[kind](tl, a)
        else:
            site = Site(tl, a.device)
            MUTATIONS[kind](site, argparse.Namespace(**{**vars(a), "ms": ms}))
    except NotApplicable as e:
        return str(e)
    tl.write(out)
    return None


if __name__ == "__main__":
    sys.exit(main())
