#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a guided recording of guide-fixture.py's touches (guide-vm.sh,
guide-xi-vm.sh).

Usage: guide-check.py TOUCHTAPE FILE EXPECT LAYER
EXPECT is guide-fixture.py's OUT.expect.json; LAYER what was recorded
beside the kernel's frames: evdev (nothing), libinput, hid or xi.
  - the markers: the still finger's, the stroke's and the tap's begin and
    end, no other (the exercises between were skipped);
  - each kernel touch between its exercise's markers;
  - libinput: libinput's devices and events are there;
  - hid: every HID report of each exercise (as many as EXPECT says)
    between its markers, none outside, and the touchscreen's frames that
    the driver made of them there too;
  - xi: one XI touch (begin, end) and the raw one of each exercise between
    its markers, and their updates;
  - the progress line the person saw last in each exercise (FILE.tty, the
    terminal): one touch, and for the still finger a hold of its 3 s;
  - validate finds nothing (exit 0), and analyze --grade touchscreen
    (exit 0: no metric fails) measured the guided still finger and stroke,
    and, with hid or xi, that layer's latency.
Prints what it checked; exits 1 with what is wrong.
"""
import json
import re
import subprocess
import sys

WANT = ["stationary", "line", "tap"]
problems = []


def expect(cond, what):
    if not cond:
        problems.append(what)
    return cond


def spans(recs):
    """The guide markers as {exercise: (begin t, end t)}, after checking
    their order."""
    marks = [(r["kind"], r.get("text"), r["t"]) for r in recs
             if r.get("type") == "marker" and r["kind"].startswith("guide-")]
    names = [(k, x) for k, x, _ in marks]
    want = [(k, x) for x in WANT for k in ("guide-begin", "guide-end")]
    if not expect(names == want, "markers %s, want %s" % (names, want)):
        return None
    return {marks[i][1]: (marks[i][2], marks[i + 1][2]) for i in range(0, len(marks), 2)}


def inside(span, t):
    return span[0] < t < span[1]


def which(spans_, t):
    return next((x for x, s in spans_.items() if inside(s, t)), None)


def kernel_touches(recs, spans_):
    """Each tracking-id touch begins and ends between one pair of markers,
    in the exercises' order."""
    touches, down = [], {}
    for r in recs:
        if r.get("type") != "frame":
            continue
        for t, c, v in r["ev"]:
            if (t, c) == (3, 57) and v >= 0:
                down[r["dev"]] = r["t"]
            elif (t, c) == (3, 57) and r["dev"] in down:
                touches.append((down.pop(r["dev"]), r["t"]))
    expect(len(touches) == len(WANT), "%d kernel touches, want %d" % (len(touches), len(WANT)))
    for (b, e), x in zip(touches, WANT):
        expect(inside(spans_[x], b) and inside(spans_[x], e),
               "the %s touch %d-%d us is not within its markers %s" % (x, b, e, spans_[x]))
    print("kernel touches within their markers:", touches)


def per_exercise(spans_, times):
    counts = {x: 0 for x in WANT + [None]}
    for t in times:
        counts[which(spans_, t)] += 1
    return counts


def check_hid(recs, spans_, want):
    hids = [r for r in recs if r.get("type") == "hid_device"]
    if not expect(len(hids) == 1, "%d hid_device records, want 1" % len(hids)):
        return
    got = per_exercise(spans_, [r["t"] for r in recs if r.get("type") == "hid"])
    print("HID reports per exercise (None: outside the markers):", got)
    expect(got == {**want, None: 0}, "HID reports %s, sent %s" % (got, want))
    touch_devs = {r["id"] for r in recs if r.get("type") == "device" and r["id"] in hids[0]["evdev"]
                  and "ABS_MT_TRACKING_ID" in r.get("codes", {}).get("EV_ABS", [])}
    frames = per_exercise(spans_, [r["t"] for r in recs if r.get("type") == "frame" and r["dev"] in touch_devs])
    print("the driver's touchscreen frames per exercise:", frames)
    # A frame only where a report changed something: the tap's reports
    # repeat one position.
    expect(len(touch_devs) == 1 and all(frames[x] >= 2 for x in WANT) and frames[None] == 0 and
           frames["stationary"] >= 0.9 * want["stationary"], "frames of the HID touchscreen %s" % frames)


def check_xi(recs, spans_):
    xi = [r for r in recs if r.get("type") == "xi" and r.get("client") == "observer"]
    kinds = ("TouchBegin", "TouchEnd", "RawTouchBegin", "RawTouchEnd")
    for kind in kinds + ("TouchUpdate",):
        got = per_exercise(spans_, [r["t"] for r in xi if r["xi"] == kind])
        print("XI %s per exercise (None: outside the markers):" % kind, got)
        if kind in kinds:
            expect(got == {**{x: 1 for x in WANT}, None: 0}, "XI %s %s" % (kind, got))
        else:
            expect(got["stationary"] > 100 and got["line"] > 50, "XI TouchUpdate %s" % got)


def check_progress(path):
    """The last progress line of each exercise done, from the terminal."""
    with open(path + ".tty", "rb") as f:
        text = f.read().decode(errors="replace")
    last, seen = None, {}
    for part in re.split(r"[\r\n]+", text):
        m = re.match(r"Exercise \d+ of \d+ \((\w+)\)", part)
        if m:
            exercise, last = m.group(1), None
        m = re.search(r"(\d+) touch(?:es)?, \d+ down now, at most (\d+), longest hold ([\d.]+) s", part)
        if m:
            last = tuple(float(x) for x in m.groups())
        if part.strip() == "Done." and last:
            seen[exercise] = last
    print("progress (touches, at most, longest hold):", seen)
    expect(set(seen) == set(WANT), "progress lines for %s" % sorted(seen))
    for x, (touches, most, held) in seen.items():
        expect(touches == 1 and most == 1, "the %s exercise's progress: %d touches, at most %d" % (x, touches, most))
    held = seen.get("stationary", (0, 0, 0))[2]
    expect(held >= 2.9, "the still finger's longest hold shown: %.1f s" % held)


def check_grade(tt, path, layer):
    rc = subprocess.run([tt, "validate", path], capture_output=True, text=True)
    expect(rc.returncode == 0, "validate exit %d: %s" % (rc.returncode, rc.stdout + rc.stderr))
    rc = subprocess.run([tt, "analyze", "--json", "--grade", "touchscreen", path], capture_output=True, text=True)
    if not expect(rc.returncode == 0, "analyze --grade exit %d: %s" % (rc.returncode, rc.stderr)):
        return
    m = {x["name"]: x for x in json.loads(rc.stdout)["grade"]["metrics"]}
    print("grade:", {k: (v["value"], v["verdict"]) for k, v in m.items()})
    jitter, lin = m["stationary-jitter"]["value"], m["linearity-max"]["value"]
    expect(jitter is not None and jitter < 0.5, "stationary-jitter %s" % m["stationary-jitter"])
    expect(lin is not None and 0.4 < lin < 1.0, "linearity-max %s" % m["linearity-max"])
    latency = {"hid": "hid-to-kernel", "xi": "kernel-to-client"}.get(layer)
    if latency:
        expect(m[latency]["value"] is not None and m[latency]["verdict"] == "info", "%s %s" % (latency, m[latency]))


def main():
    if len(sys.argv) != 5 or sys.argv[4] not in ("evdev", "libinput", "hid", "xi"):
        sys.exit(__doc__)
    tt, path, expect_path, layer = sys.argv[1:]
    with open(path) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    with open(expect_path) as f:
        want = json.load(f)
    spans_ = spans(recs)
    if spans_:
        kernel_touches(recs, spans_)
        if layer == "libinput":
            expect(any(r.get("type") == "li_device" for r in recs) and any(r.get("type") == "li" for r in recs),
                   "no libinput records beside the guide's")
        elif layer == "hid":
            check_hid(recs, spans_, want)
        elif layer == "xi":
            check_xi(recs, spans_)
    check_progress(path)
    check_grade(tt, path, layer)
    for p in problems:
        print("FAIL:", p)
    if problems:	# what the recorder says it lost explains much
        for r in recs:
            if r.get("type") == "marker" and r["kind"] in ("drops", "device-removed"):
                print("  the recording's %s marker at %d us: %s" % (r["kind"], r["t"], r.get("text")))
    sys.exit(1 if problems else 0)


main()
