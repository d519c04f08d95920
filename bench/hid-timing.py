#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# HID replay timing for the VM benchmark: a second reader of the replayed
# device's hidraw node (every report a replayer sends through uhid reaches
# it, one read each, whichever driver is bound), and the lateness of what
# it read against the recording.
#   hid-timing.py read NODE COUNT OUT [READY]  reads COUNT reports (or
#                until the node goes away): "t_ns hex" lines; READY is
#                created once the node is open
#   hid-timing.py score LABEL FILE.hid OUT  ->  one line of figures
# Reports are matched in order by their bytes. The schedule is the
# recording's times with idle gaps over 2 s cut to 2 s (hid-replay's
# rule; touchtape replay runs with --max-gap 2s). As replay/tests/timing.py:
# e = (t_read - t_first_read) - (t_sched - t_first_sched); lateness = e -
# min e; drift = the last e minus the median e of the first 10 reports.
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "replay", "tests"))
from percentile import pct  # noqa: E402

MAX_GAP_US = 2000000



def read(node, count, out, ready=None):
    fd = os.open(node, os.O_RDONLY)
    if ready:
        open(ready, "w").close()
    got = []
    while len(got) < count:
        try:
            data = os.read(fd, 16384)
        except OSError:
            break
        if not data:
            break
        got.append((time.monotonic_ns(), data.hex()))
    with open(out, "w") as f:
        for t, h in got:
            f.write("%d %s\n" % (t, h))


def recorded(path):
    out, prev, removed = [], None, 0
    for line in open(path, errors="replace"):
        p = line.split("#", 1)[0].split()
        if len(p) < 3 or p[0] != "E:":
            continue
        sec, usec = p[1].split(".")
        t = int(sec) * 1000000 + int(usec.ljust(6, "0")[:6])
        if prev is not None and t - prev > MAX_GAP_US:
            removed += t - prev - MAX_GAP_US
        prev = t
        out.append((t - removed, "".join(p[3:]).lower()))
    return out


def score(label, rec_path, read_path):
    rec = recorded(rec_path)
    got = []
    for line in open(read_path):
        t, h = line.split()
        got.append((int(t) // 1000, h))
    j, errs = 0, []
    for t, h in got:
        k = next((k for k in range(j, min(j + 64, len(rec))) if rec[k][1] == h), None)
        if k is None:
            continue
        if not errs:
            r0, d0 = rec[k][0], t
        errs.append((t - d0) - (rec[k][0] - r0))
        j = k + 1
    if not errs:
        print("%s: no report matched" % label)
        return 1
    m = min(errs)
    a = sorted(e - m for e in errs)
    pick = lambda q: pct(a, q)
    start = pct(sorted(errs[:10]), 0.5)
    print("%s: %d/%d reports matched, lateness median %d us, p99 %d us, max %d us, drift at end %+d us after %.1f s"
          % (label, len(errs), len(rec), pick(0.5), pick(0.99), a[-1], errs[-1] - start,
             (got[-1][0] - got[0][0]) / 1e6))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "read":
        read(sys.argv[2], int(sys.argv[3]), sys.argv[4], *sys.argv[5:6])
    else:
        sys.exit(score(*sys.argv[2:5]))
