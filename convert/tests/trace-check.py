#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a convert --format trace file against the Trace Event Format's
rules and, given analyze --json's report of the same recording, its counts.

Usage: trace-check.py TRACE.json[.gz] [ANALYZE.json]

The rules (the format's document, "JSON Object Format" and the phases):
- the top level is an object with a "traceEvents" array (and a
  "displayTimeUnit" of "ms" or "ns" when present);
- every event has "name" (string), "ph" (one character), "pid" and "tid"
  (integers), and "ts" (a number) for every phase;
- X has a numeric "dur" >= 0; B and E match per (pid, tid), in time order;
- C has args whose every value is a number;
- i has "s" (scope) of g, p or t when given;
- s and f carry an "id"; every id starts once and finishes once, f binds
  with "bp": "e";
- M is process_name / thread_name (args.name a string) or
  process_sort_index / thread_sort_index (args.sort_index an integer);
- X slices on one track nest or follow each other: a viewer draws them as
  one stack, and a partial overlap is drawn wrong.
With the analyze report: one X per touch (kernel touches, XI touches, HID
contacts, libinput touches, Wayland touches) and one flow per link
(kernel to XI, HID to kernel, kernel to libinput, kernel to Wayland).
Prints the problems; exits 1 when there is one.
"""
import collections
import gzip
import json
import numbers
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def check_event(i, e, problems):
    where = "event %d" % i
    for key, test in (("name", lambda v: isinstance(v, str)), ("ph", lambda v: isinstance(v, str) and len(v) == 1),
                      ("pid", is_int), ("tid", is_int), ("ts", is_num)):
        if key not in e or not test(e[key]):
            problems.append("%s: %s missing or of the wrong type: %r" % (where, key, e.get(key)))
            return
    ph, args = e["ph"], e.get("args", {})
    if not isinstance(args, dict):
        problems.append("%s: args is not an object" % where)
    elif ph == "X" and not (is_num(e.get("dur")) and e["dur"] >= 0):
        problems.append("%s: X without a dur >= 0" % where)
    elif ph == "C" and (not args or not all(is_num(v) for v in args.values())):
        problems.append("%s: C with args not all numbers: %r" % (where, args))
    elif ph == "i" and e.get("s", "t") not in ("g", "p", "t"):
        problems.append("%s: i with scope %r" % (where, e.get("s")))
    elif ph in "sf" and not is_int(e.get("id")):
        problems.append("%s: %s without an id" % (where, ph))
    elif ph == "f" and e.get("bp") != "e":
        problems.append("%s: f not bound to its enclosing slice" % where)
    elif ph == "M":
        check_metadata(where, e, args, problems)
    elif ph not in "XCisfBE":
        problems.append("%s: phase %r not written by touchtape" % (where, ph))


def check_metadata(where, e, args, problems):
    if e["name"] in ("process_name", "thread_name"):
        ok = isinstance(args.get("name"), str)
    elif e["name"] in ("process_sort_index", "thread_sort_index"):
        ok = is_int(args.get("sort_index"))
    else:
        ok = False
    if not ok:
        problems.append("%s: metadata %r with args %r" % (where, e["name"], args))


def check_stacks(events, problems):
    """B/E matched per track in time order; X nested or disjoint."""
    tracks = collections.defaultdict(list)
    for e in events:
        if e.get("ph") in ("X", "B", "E"):
            tracks[(e["pid"], e["tid"])].append(e)
    for track, evs in tracks.items():
        open_be = []
        for e in (x for x in evs if x["ph"] in "BE"):
            if open_be and e["ts"] < open_be[-1]["ts"]:
                problems.append("track %r: B/E out of time order" % (track,))
            if e["ph"] == "B":
                open_be.append(e)
            elif not open_be:
                problems.append("track %r: E without B" % (track,))
            else:
                open_be.pop()
        if open_be:
            problems.append("track %r: %d B without E" % (track, len(open_be)))
        ends = []
        for e in sorted((x for x in evs if x["ph"] == "X"), key=lambda x: (x["ts"], -x["dur"])):
            while ends and ends[-1] <= e["ts"]:
                ends.pop()
            if ends and e["ts"] + e["dur"] > ends[-1]:
                problems.append("track %r: slice %r at %d overlaps the one before without nesting"
                                % (track, e["name"], e["ts"]))
            ends.append(e["ts"] + e["dur"])


def check_flows(events, problems):
    starts = collections.Counter(e["id"] for e in events if e.get("ph") == "s")
    finishes = collections.Counter(e["id"] for e in events if e.get("ph") == "f")
    for fid in set(starts) | set(finishes):
        if starts[fid] != 1 or finishes[fid] != 1:
            problems.append("flow %r: %d start(s), %d finish(es)" % (fid, starts[fid], finishes[fid]))


def expected_counts(a):
    slices = len(a["touches"]) + len(a["xi_touches"]) + len(a["hid_contacts"])
    flows = a["links"]["linked"] + a["hid_links"]["linked"]
    wl = a.get("wayland")
    if wl:
        slices += wl["touches"]
        flows += wl["linked"]
    for dev in (a.get("libinput") or {}).get("devices", []):
        slices += dev["touches"]
        flows += dev["touches_linked"]
    return slices, flows


def check(trace, report, problems):
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        problems.append("no traceEvents array")
        return
    if trace.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        problems.append("displayTimeUnit %r" % trace["displayTimeUnit"])
    events = trace["traceEvents"]
    before = len(problems)
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            problems.append("event %d is not an object" % i)
        else:
            check_event(i, e, problems)
    if len(problems) > before:
        return
    check_stacks(events, problems)
    check_flows(events, problems)
    if report is None:
        return
    slices, flows = expected_counts(report)
    got_slices = sum(1 for e in events if e["ph"] == "X")
    got_flows = sum(1 for e in events if e["ph"] == "s")
    if got_slices != slices:
        problems.append("%d slices, analyze counts %d touches" % (got_slices, slices))
    if got_flows != flows:
        problems.append("%d flows, analyze counts %d links" % (got_flows, flows))


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.splitlines()[3], file=sys.stderr)
        return 2
    problems = []
    report = load(argv[2]) if len(argv) == 3 else None
    check(load(argv[1]), report, problems)
    for p in problems[:20]:
        print("%s: %s" % (argv[1], p))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
