#!/usr/bin/env python3
"""Makes one regression of a touchtape timeline (JSON Lines), for diff's
tests: mutate.py KIND IN OUT. Kinds: jump (every position set to 1000 for
300 ms mid-file), gap (40 frames deleted), pressure (halved), click
(BTN_LEFT presses and releases removed), halfrate (every second frame of
600 ms removed). Frames that begin or end a touch are never deleted: the
regression is inside the touches."""
import json
import sys

POS = {0, 1, 53, 54}          # ABS_X, ABS_Y, ABS_MT_POSITION_X/Y
PRESSURE = {24, 58}           # ABS_PRESSURE, ABS_MT_PRESSURE
KEEP = {57, 330}              # ABS_MT_TRACKING_ID, BTN_TOUCH (begins and ends)


def deletable(rec):
    return not any((e[0] == 3 and e[1] == 57) or (e[0] == 1 and e[1] in KEEP) for e in rec["ev"])


def busy_frames(lines):
    """Indexes of frames while a touch moves, in the file's middle."""
    frames = [i for i, r in enumerate(lines) if r and r.get("type") == "frame"
              and any(e[0] == 3 and e[1] in POS for e in r["ev"])]
    # From a third in, where the next frame follows within 50 ms: in
    # motion, not at a pause between gestures.
    k = len(frames) // 3
    while k + 1 < len(frames) and lines[frames[k + 1]]["t"] - lines[frames[k]]["t"] > 50000:
        k += 1
    return frames[k:]


def mutate(kind, lines):
    frames = busy_frames(lines)
    if kind == "jump":
        t0 = lines[frames[0]]["t"]
        for i in frames:
            if lines[i]["t"] - t0 > 300000:
                break
            for e in lines[i]["ev"]:
                if e[0] == 3 and e[1] in POS:
                    e[2] = 1000
    elif kind == "gap":
        gone = [i for i in frames if deletable(lines[i])][:40]
        for i in gone:
            lines[i] = None
    elif kind == "halfrate":
        t0 = lines[frames[0]]["t"]
        for n, i in enumerate(frames):
            if lines[i]["t"] - t0 > 600000:
                break
            if n % 2 and deletable(lines[i]):
                lines[i] = None
    elif kind in ("pressure", "click"):
        for r in lines:
            if not r or r.get("type") != "frame":
                continue
            if kind == "pressure":
                for e in r["ev"]:
                    if e[0] == 3 and e[1] in PRESSURE:
                        e[2] //= 2
            else:
                r["ev"] = [e for e in r["ev"] if not (e[0] == 1 and e[1] == 272)]
    else:
        sys.exit("unknown kind " + kind)


def main():
    kind, src, dst = sys.argv[1:4]
    with open(src) as f:
        lines = [json.loads(l) if l.strip() else None for l in f]
    mutate(kind, lines)
    with open(dst, "w") as f:
        for r in lines:
            if r is not None:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")


main()
