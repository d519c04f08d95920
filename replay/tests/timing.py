#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Replay timing, for the replay test and the benchmarks: the recording and
# what a second process read back from the replayed device (both evemu
# files). Frames are matched (a delivered frame is the next recorded frame
# whose events contain it: the kernel drops unchanged values; run with fuzz
# 0). e = (t_delivered - t_first_delivered) - (t_recorded - t_first_recorded).
# Lateness is measured against the schedule anchored at the frame delivered
# earliest relative to it (lateness = e - min e, never negative), so a slow
# first write does not show as every later frame being early; drift is the
# error of the last frame against the start, taken as the median error of
# the first 10 frames (one slow first write is not drift).
#   timing.py LABEL RECORDING REPLAY  ->  one line of figures
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from percentile import pct  # noqa: E402


def frames(path):
    out, cur = [], []
    for line in open(path, errors="replace"):
        if not line.startswith("E:"):
            continue
        p = line.split("#", 1)[0].split()
        sec, usec = p[1].split(".")
        t = int(sec) * 1000000 + int(usec.ljust(6, "0")[:6])
        ty, code, val = int(p[2], 16), int(p[3], 16), int(p[4])
        if ty == 0 and code == 0:
            out.append((t, set(cur)))
            cur = []
        elif not (ty == 3 and code == 0x2F):
            cur.append((ty, code, val))
    return out


label, rec_path, rep_path = sys.argv[1:4]
rec, rep = frames(rec_path), frames(rep_path)
j, errs = 0, []
for t, evs in rep:
    k = next((k for k in range(j, min(j + 64, len(rec))) if evs <= rec[k][1]), None)
    if k is None:
        continue
    if not errs:
        r0, d0 = rec[k][0], t
    errs.append((t - d0) - (rec[k][0] - r0))
    j = k + 1
if not errs:
    print("%s: no frame matched" % label)
    sys.exit(1)
m = min(errs)
a = sorted(e - m for e in errs)
pick = lambda q: pct(a, q)
span = (rep[-1][0] - rep[0][0]) / 1e6
start = pct(sorted(errs[:10]), 0.5)
print("%s: %d/%d frames matched, lateness median %d us, p99 %d us, max %d us, drift at end %+d us after %.1f s"
      % (label, len(errs), len(rep), pick(0.5), pick(0.99), a[-1], errs[-1] - start, span))
