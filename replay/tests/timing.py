#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Test helper: timing of a replay against its recording, both evemu files
# (the replay read back with evemu-record). Each delivered frame is matched
# to the next recorded frame whose events contain it (the kernel drops
# unchanged values and empty frames; run with fuzz 0 so it smooths none);
# error = (t_delivered - t_first_delivered) - (t_recorded - t_first_recorded).
#   timing.py LABEL RECORDING REPLAY  ->  one line of figures
import sys

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
        elif not (ty == 3 and code == 0x2f):
            cur.append((ty, code, val))
    return out

label, rec_path, rep_path = sys.argv[1:4]
rec, rep = frames(rec_path), frames(rep_path)
j, errs = 0, []
for t, evs in rep:
    # The next recorded frame (within a window) that contains it; a
    # delivered frame with no such frame (a release frame) is skipped.
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
a = sorted(abs(e) for e in errs)
pick = lambda q: a[min(len(a) - 1, max(0, int(q * len(a) + 0.999999) - 1))]
print("%s: %d/%d frames matched, |error| median %d us, p99 %d us, max %d us, drift at end %+d us"
      % (label, len(errs), len(rep), pick(0.5), pick(0.99), a[-1], errs[-1]))
