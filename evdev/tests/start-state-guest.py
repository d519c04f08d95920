#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs inside the VM (evdev/tests/start-state-vm.sh): the state a
# recording starts from is consistent with its first frames. A replay
# moves a Type B touchscreen without pause (samples/3m-two-finger.jsonl,
# --exact, fast, looped: touches move, begin and end all the time) while
# ROUNDS recordings of it start one after the other, each ended after a
# few frames. The kernel sends no axis value equal to the one it had and
# no key that does not change, so every event of the first frames must
# change what the start state says; a state read torn by a frame, or
# holding frames that the recording then repeats, fails that. validate
# must find no error either (tracking IDs, slots).
#   start-state-guest.py TOUCHTAPE SAMPLE OUTDIR [ROUNDS]
import json, os, re, signal, subprocess, sys, time

tt, sample, outdir = sys.argv[1:4]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 40
FRAMES = 20
ABS_MT_SLOT, MT_FIRST, MT_LAST = 0x2f, 0x30, 0x3d
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def state_of(dev, names):
    """slot -> code -> value, the current slot, the other axes, the keys."""
    slots = {}
    for st in dev["mt"]["state"]:
        slots[st["slot"]] = {names[k]: v for k, v in st.items() if k != "slot"}
    axes = {names[k]: a["value"] for k, a in dev["absinfo"].items()
            if not MT_FIRST - 1 <= names[k] <= MT_LAST}
    return slots, dev["mt"]["current_slot"], axes, set(dev["state"]["keys_down"])


def check(path, names):
    """The first events that repeat what the state already says."""
    with open(path) as fh:
        recs = [json.loads(l) for l in fh]
    devs = [r for r in recs if r.get("type") == "device"]
    frames = [r for r in recs if r.get("type") == "frame"]
    if len(devs) != 1 or not frames:
        fail("%s: %d devices, %d frames" % (path, len(devs), len(frames)))
        return
    slots, slot, axes, keys = state_of(devs[0], names)
    keys = {330} if "BTN_TOUCH" in keys else set()
    for n, f in enumerate(frames):
        if f.get("dropped") or f.get("resync"):
            return      # the rest is the resync's
        for t, c, v in (tuple(e[:3]) for e in f["ev"]):
            if t == 3 and c == ABS_MT_SLOT:
                slot = v
                continue
            if t == 3 and MT_FIRST <= c <= MT_LAST:
                old = slots.setdefault(slot, {}).get(c, -1 if c == 0x39 else 0)
                slots[slot][c] = v
            elif t == 3:
                old = axes.get(c, 0)
                axes[c] = v
            elif t == 1:
                old = 1 if c in keys else 0
                (keys.add if v else keys.discard)(c)
            else:
                continue
            if old == v:
                fail("%s: frame %d (t=%d) sets %d/%d to %d, which the start state (or a frame "
                     "before) already has: the state holds a frame the recording repeats" %
                     (path, n, f["t"], t, c, v))
                return


def main():
    os.makedirs(outdir, exist_ok=True)
    names = ABS_CODES
    log = os.path.join(outdir, "replay.log")
    replay = subprocess.Popen([tt, "replay", "--exact", "--loop", "0", "--speed", "4", sample],
                              stdin=subprocess.DEVNULL, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    node = None
    for _ in range(600):
        m = re.search(r"/dev/input/event[0-9]+", open(log).read())
        if m and os.path.exists(m.group()):
            node = m.group()
            break
        time.sleep(0.05)
    if not node:
        replay.kill()
        sys.exit("FAIL: the replay created no device")
    files = []
    t0 = time.monotonic()
    for r in range(rounds):
        out = os.path.join(outdir, "start-%02d.jsonl" % r)
        rc = subprocess.run([tt, "record", "-q", "--frames", str(FRAMES), node, "-o", out],
                            stdin=subprocess.DEVNULL, timeout=60).returncode
        if rc != 0:
            fail("round %d: record exited with %d" % (r, rc))
            continue
        files.append(out)
        check(out, names)
    elapsed = time.monotonic() - t0
    replay.send_signal(signal.SIGINT)
    replay.wait()
    val = subprocess.run([tt, "validate", "--max", "0"] + files, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    errors = [l for l in val.stderr.splitlines() if ": error: " in l]
    for l in errors[:20]:
        fail("validate: " + l)
    print("%d recordings started on a moving device in %.1f s; %d validate errors" %
          (len(files), elapsed, len(errors)), flush=True)
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("PASS: every start state is consistent with the frames after it")


ABS_CODES = {"ABS_X": 0, "ABS_Y": 1, "ABS_PRESSURE": 0x18, "ABS_MT_SLOT": 0x2f,
             "ABS_MT_TOUCH_MAJOR": 0x30, "ABS_MT_TOUCH_MINOR": 0x31, "ABS_MT_WIDTH_MAJOR": 0x32,
             "ABS_MT_WIDTH_MINOR": 0x33, "ABS_MT_ORIENTATION": 0x34, "ABS_MT_POSITION_X": 0x35,
             "ABS_MT_POSITION_Y": 0x36, "ABS_MT_TOOL_TYPE": 0x37, "ABS_MT_BLOB_ID": 0x38,
             "ABS_MT_TRACKING_ID": 0x39, "ABS_MT_PRESSURE": 0x3a, "ABS_MT_DISTANCE": 0x3b}

main()
