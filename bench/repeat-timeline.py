#!/usr/bin/env python3
"""A long timeline recording from short ones, for timing the layer stack
on files with layer records (gen-long.sh repeats evemu files only).

Usage: repeat-timeline.py SECONDS FILE... > OUT.jsonl

The first file's header is kept; every file's declarations (device,
xi_device, hid_device, li_device records) come once, then each file's
timed records repeat, each copy one period after the last (the file's
span plus 10 ms), until SECONDS, all merged in time order. The record
times move with their copy: "t" and Wayland's "time_us" in microseconds,
the X server's "server_time" and Wayland's "time_ms" in milliseconds,
wrapping at 32 bits like the clocks they come from.
"""
import heapq
import json
import sys

DECLARATIONS = {"device", "xi_device", "hid_device", "li_device"}
GAP_US = 10000


def load(path):
    head, decl, timed = None, [], []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            if "type" not in rec:
                head = head or line.rstrip("\n")
            elif rec["type"] in DECLARATIONS:
                decl.append(line.rstrip("\n"))
            elif isinstance(rec.get("t"), int):
                timed.append(rec)
    return head, decl, timed


def shifted(rec, off_us):
    r = dict(rec)
    r["t"] += off_us
    if "time_us" in r:
        r["time_us"] += off_us
    for key in ("server_time", "time_ms"):
        if key in r:
            r[key] = (r[key] + off_us // 1000) % (1 << 32)
    return r


def copies(timed, end_us):
    t0, t1 = timed[0]["t"], timed[-1]["t"]
    period = t1 - t0 + GAP_US
    k = 0
    while k * period + t1 <= end_us:
        for rec in timed:
            yield rec["t"] + k * period, k, shifted(rec, k * period)
        k += 1


def main():
    seconds = float(sys.argv[1])
    sources = [load(p) for p in sys.argv[2:]]
    out = sys.stdout
    out.write(sources[0][0] + "\n")
    for _, decl, _ in sources:
        for line in decl:
            out.write(line + "\n")
    start = min(s[2][0]["t"] for s in sources if s[2])
    end = start + int(seconds * 1e6)
    streams = [copies(sorted(s[2], key=lambda r: r["t"]), end) for s in sources if s[2]]
    for _, _, rec in heapq.merge(*streams, key=lambda x: (x[0], x[1])):
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
