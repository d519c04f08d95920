#!/usr/bin/env python3
# Grades recordings of known quality and checks each metric against a
# value computed here, independently of touchtape, from the positions
# written: within 5% (or 0.02 mm), with the verdict the profile implies.
# Usage: grade-fixtures.py TOUCHTAPE WORKDIR
import json
import math
import os
import random
import statistics
import subprocess
import sys

TT, WORK = sys.argv[1], sys.argv[2]
RES = 16            # units per mm on both axes
W, H = 4095, 2399   # axis maxima: 256 x 150 mm
PERIOD = 8000       # µs: 125 Hz
failures = []


def device(slots=10):
    ab = {"value": 0, "min": 0, "fuzz": 0, "flat": 0}
    absinfo = {
        "ABS_X": dict(ab, max=W, resolution=RES), "ABS_Y": dict(ab, max=H, resolution=RES),
        "ABS_MT_SLOT": dict(ab, max=slots - 1, resolution=0),
        "ABS_MT_POSITION_X": dict(ab, max=W, resolution=RES),
        "ABS_MT_POSITION_Y": dict(ab, max=H, resolution=RES),
        "ABS_MT_PRESSURE": dict(ab, max=255, resolution=0),
        "ABS_MT_TRACKING_ID": dict(ab, max=65535, resolution=0),
    }
    return {"type": "device", "id": 0, "name": "grade fixture touchscreen",
            "input_id": {"bustype": 3, "vendor": 1, "product": 2, "version": 1},
            "properties": ["INPUT_PROP_DIRECT"],
            "codes": {"EV_SYN": ["SYN_REPORT", "SYN_DROPPED"], "EV_KEY": ["BTN_TOUCH"],
                      "EV_ABS": list(absinfo)},
            "absinfo": absinfo,
            "mt": {"protocol": "B", "slots": slots, "current_slot": 0, "state": []},
            "state": {"keys_down": [], "leds_on": [], "switches_on": []}}


class Recording:
    """Frames of one device; touches given as per-frame positions in mm."""

    def __init__(self):
        self.lines = [{"format": "touchtape-timeline", "version": 1, "tool": "grade-fixtures.py",
                       "start": {"monotonic_us": 1, "realtime_us": 0}, "keycodes_masked": True},
                      device()]
        self.tid = 100
        self.pos = {}       # slot -> (x, y) units
        self.samples = {}   # slot -> [(t, x_mm, y_mm)] as touchtape sees them
        self.done = []      # finished touches' samples

    def marker(self, t, kind, text):
        self.lines.append({"type": "marker", "t": t, "kind": kind, "text": text})

    def frame(self, t, touches):
        """touches: {slot: (x_mm, y_mm) or None (lift)}"""
        ev = []
        for slot, p in sorted(touches.items()):
            ev.append([3, 47, slot])
            if p is None:
                ev.append([3, 57, -1])
                self.done.append(self.samples.pop(slot))
                self.pos.pop(slot)
                continue
            x, y = round(p[0] * RES), round(p[1] * RES)
            begin = slot not in self.pos
            if begin:
                self.tid += 1
                ev.append([3, 57, self.tid])
            old = self.pos.get(slot)
            if begin or old[0] != x:
                ev.append([3, 53, x])
            if begin or old[1] != y:
                ev.append([3, 54, y])
            ev.append([3, 58, 40 + (t // PERIOD) % 2])   # keeps every frame a change
            self.samples.setdefault(slot, []).append((t, x / RES, y / RES, x, y))
            self.pos[slot] = (x, y)
        ev.append([0, 0, 0])
        self.lines.append({"type": "frame", "dev": 0, "t": t, "ev": ev})

    def write(self, name):
        path = os.path.join(WORK, name + ".jsonl")
        with open(path, "w") as f:
            for line in self.lines:
                f.write(json.dumps(line) + "\n")
        return path


def grade(path, profile):
    r = subprocess.run([TT, "analyze", "--json", "--grade", profile, path], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        failures.append(f"{path}: analyze exit {r.returncode}: {r.stderr.strip()}")
        return {}, r.returncode
    return {m["name"]: m for m in json.loads(r.stdout)["grade"]["metrics"]}, r.returncode


def expect(name, metrics, metric, value, verdict=None):
    m = metrics.get(metric)
    if m is None:
        failures.append(f"{name}: {metric} missing")
        return
    if value is None:
        if m["verdict"] != "not-measurable":
            failures.append(f"{name}: {metric} should be not-measurable, is {m['verdict']} {m['value']}")
        return
    got = m["value"]
    if got is None or abs(got - value) > max(0.05 * abs(value), 0.02):
        failures.append(f"{name}: {metric} = {got}, expected {value:.4f} (5%)")
    if verdict and m["verdict"] != verdict:
        failures.append(f"{name}: {metric} verdict {m['verdict']}, expected {verdict}")
    print(f"  {name}: {metric} = {got} (expected {value:.4f}) {m['verdict']}")


# ---- the independent computations ----

def jitter(samples):
    t0 = samples[0][0]
    s = [p for p in samples if p[0] - t0 >= 100000]
    mx = statistics.median(p[1] for p in s)
    my = statistics.median(p[2] for p in s)
    return max(math.hypot(p[1] - mx, p[2] - my) for p in s)


def defuzz(value, old, fuzz):
    # The kernel's input_defuzz_abs_event, with C's division (towards 0).
    cdiv = lambda a, b: int(a / b)
    if fuzz:
        if old - cdiv(fuzz, 2) < value < old + cdiv(fuzz, 2):
            return old
        if old - fuzz < value < old + fuzz:
            return cdiv(old * 3 + value, 4)
        if old - fuzz * 2 < value < old + fuzz * 2:
            return cdiv(old + value, 2)
    return value


def fuzzed(samples, fuzz):
    out = [samples[0]]
    for t, _, _, x, y in samples[1:]:
        ux, uy = defuzz(x, out[-1][3], fuzz), defuzz(y, out[-1][4], fuzz)
        out.append((t, ux / RES, uy / RES, ux, uy))
    return out


def suggested_fuzz(samples, limit):
    # The smallest of half-steps of the jitter, up to 4x, that brings it within the limit.
    j = jitter(samples)
    for half in range(2, 9):
        f = math.ceil(half * 0.5 * j * RES)
        if jitter(fuzzed(samples, f)) <= limit:
            return f, jitter(fuzzed(samples, f))
    return None, None


def line_fit(samples):
    s = samples[2:-2]
    n = len(s)
    mx = sum(p[1] for p in s) / n
    my = sum(p[2] for p in s) / n
    sxx = sum((p[1] - mx) ** 2 for p in s)
    syy = sum((p[2] - my) ** 2 for p in s)
    sxy = sum((p[1] - mx) * (p[2] - my) for p in s)
    # The direction is the covariance's eigenvector of the larger eigenvalue.
    lam = (sxx + syy) / 2 + math.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2)
    ux, uy = (sxy, lam - sxx) if abs(sxy) > 1e-12 else ((1.0, 0.0) if sxx >= syy else (0.0, 1.0))
    norm = math.hypot(ux, uy)
    ux, uy = ux / norm, uy / norm
    if (s[-1][1] - s[0][1]) * ux + (s[-1][2] - s[0][2]) * uy < 0:
        ux, uy = -ux, -uy
    d = [abs((p[2] - my) * ux - (p[1] - mx) * uy) for p in s]
    along = [(p[1] - mx) * ux + (p[2] - my) * uy for p in s]
    back = max([0.0] + [along[i - 1] - along[i] for i in range(1, n)])
    dt = [s[i][0] - s[i - 1][0] for i in range(1, n)]
    return max(d), math.sqrt(sum(x * x for x in d) / n), back, max(dt) / statistics.median(dt)


# ---- the fixtures ----

def still(rng, name, seconds, noise_mm, guided=False):
    rec = Recording()
    t = 1000
    if guided:
        rec.marker(t - 500, "guide-begin", "stationary")
    for i in range(int(seconds * 1e6 / PERIOD)):
        rec.frame(t, {0: (100 + rng.uniform(-noise_mm, noise_mm), 60 + rng.uniform(-noise_mm, noise_mm))})
        t += PERIOD
    rec.frame(t, {0: None})
    if guided:
        rec.marker(t + 500, "guide-end", "stationary")
    return rec, rec.write(name)


def stroke(name, length_mm, bow_mm, back_mm=0.0, gap_frames=0, guided=False):
    rec = Recording()
    t = 1000
    n = 150
    if guided:
        rec.marker(t - 500, "guide-begin", "line")
    for i in range(n + 1):
        s = i / n
        x = 30 + length_mm * s - (back_mm if i == n // 2 else 0.0)
        rec.frame(t, {0: (x, 75 + bow_mm * math.sin(math.pi * s))})
        t += PERIOD * (1 + (gap_frames if i == n // 3 else 0))
    rec.frame(t, {0: None})
    if guided:
        rec.marker(t + 500, "guide-end", "line")
    return rec, rec.write(name)


def edges_and_two(name):
    rec = Recording()
    t = 1000
    for i in range(60):     # a drag to 0.25 mm of the left edge, a second finger closing in
        rec.frame(t, {0: (20 - i * 19.75 / 59, 75), 1: (60 - i * (60 - 32.25) / 59, 75)})
        t += PERIOD
    rec.frame(t, {0: None, 1: None})
    return rec, rec.write(name)


def main():
    rng = random.Random(7)
    rec, path = still(rng, "still", 3.0, 0.3)
    m, _ = grade(path, "touchscreen")
    expect("still", m, "stationary-jitter", jitter(rec.done[0]), "pass")
    expect("still", m, "report-rate", 125.0, "pass")
    rec, path = still(rng, "shaky", 3.0, 0.9)
    m, rc = grade(path, "touchscreen")
    expect("shaky", m, "stationary-jitter", jitter(rec.done[0]), "fail")
    if rc != 1:
        failures.append(f"shaky: a failing metric must exit 1, not {rc}")
    fuzz, after = suggested_fuzz(rec.done[0], 0.5)
    r = subprocess.run([TT, "analyze", "--json", "--grade", "touchscreen", path], capture_output=True, text=True)
    hwdb = [s for s in json.loads(r.stdout)["grade"]["suggestions"] if s["kind"] == "hwdb"]
    if not hwdb or f"EVDEV_ABS_35=:::{fuzz}\n" not in hwdb[0]["text"] or abs(hwdb[0]["expected_jitter"] - after) > 0.01:
        failures.append(f"shaky: the hwdb suggestion should be fuzz {fuzz}, jitter {after:.4f}: {hwdb}")
    else:
        print(f"  shaky: suggested fuzz {fuzz}, jitter with it {hwdb[0]['expected_jitter']} (expected {after:.4f})")
    m, _ = grade(path, "chromeos")
    expect("shaky/chromeos", m, "stationary-jitter", jitter(rec.done[0]), "fail" if jitter(rec.done[0]) > 1 else "pass")

    rec, path = still(rng, "short-still", 1.2, 0.2)
    m, _ = grade(path, "touchscreen")
    expect("short-still", m, "stationary-jitter", None)
    rec, path = still(rng, "guided-still", 1.2, 0.2, guided=True)
    m, _ = grade(path, "touchscreen")
    expect("guided-still", m, "stationary-jitter", jitter(rec.done[0]), "pass")

    for name, bow, back, gap in (("straight", 0.3, 0.0, 0), ("bowed", 3.0, 0.0, 0),
                                 ("reversed", 0.2, 2.6, 0), ("gap", 0.2, 0.0, 4)):
        rec, path = stroke(name, 170, bow, back, gap)
        lmax, lrms, rev, ratio = line_fit(rec.done[0])
        m, _ = grade(path, "chromeos")
        expect(name, m, "linearity-max", lmax, "pass" if lmax <= 2 else "fail")
        expect(name, m, "linearity-rms", lrms, "pass" if lrms <= 0.5 else "fail")
        expect(name, m, "reversed-motion", rev, "pass" if rev <= 1 else "fail")
        expect(name, m, "gap-ratio", ratio, "pass" if ratio <= 1.8 else "fail")
    rec, path = stroke("short-stroke", 20, 0.5)
    m, _ = grade(path, "chromeos")
    expect("short-stroke", m, "linearity-max", None)
    rec, path = stroke("guided-stroke", 20, 0.5, guided=True)
    m, _ = grade(path, "chromeos")
    expect("guided-stroke", m, "linearity-max", line_fit(rec.done[0])[0])

    rec, path = edges_and_two("edges")
    m, _ = grade(path, "chromeos")
    expect("edges", m, "edge-reach-left", min(p[1] for d in rec.done for p in d), "pass")
    expect("edges", m, "edge-reach-right", None)
    seps = 32.25 - 0.25
    expect("edges", m, "finger-separation", seps, "info")
    expect("edges", m, "max-contacts", 2, "info")
    m, _ = grade(path, "touchpad")
    expect("edges/touchpad", m, "report-rate-most-contacts", 125.0, "pass")
    expect("edges/touchpad", m, "max-contacts", 2)

    if failures:
        print("\n".join("FAIL " + f for f in failures))
        sys.exit(1)


main()
