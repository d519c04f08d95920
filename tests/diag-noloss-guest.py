#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs inside the VM (tests/diag-noloss-vm.sh): no silent loss. ROUNDS
# times, a fast replay (--exact --speed 10 --loop LOOPS) of a Type B
# sample is recorded while three CPU hogs run, two rounds at a time; in
# every other round the recorder is also stopped (SIGSTOP) for a while,
# so the kernel's buffer overflows, and while they play another recorder
# of both devices starts (a recorder that took a grab, even for a moment,
# would take those events from the others: under strace, record takes
# none). Every recording must hold every frame the replay wrote,
# as the kernel delivers it, or mark where frames are missing with a
# SYN_DROPPED: frames may be missing only right after one, and the
# resync after it must bring a reader to the device's state exactly.
#
# What the kernel delivers is computed here from what the replay writes
# (the sample's frames, and the preparation frame before each loop after
# the first: the sample starts and ends with nothing down) through a
# model of drivers/input/input.c's filtering with fuzz 0 (--exact): an
# axis value equal to the current one is dropped, ABS_MT_SLOT is sent
# only before the next value of another slot, a key only when it changes,
# a frame left empty is not sent.
#   diag-noloss-guest.py TOUCHTAPE SAMPLE OUTDIR [ROUNDS]
import json, os, re, signal, subprocess, sys, time

tt, sample, outdir = sys.argv[1:4]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 20
LOOPS = 4
SPEED = 10
LOOP_PAUSE_US = 200000  # replay/player.h
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, SYN_DROPPED = 0, 3
ABS_MT_SLOT, ABS_MT_TRACKING_ID = 0x2f, 0x39
MT_FIRST, MT_LAST = 0x30, 0x3d
KEYS = {"BTN_TOUCH": 0x14a}
failures = []
torn = [0]      # resyncs that hold part of the frame after them
late_bystanders = [0]   # bystanders that found the replays gone


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def read_timeline(path):
    devs, frames = [], []
    with open(path) as fh:
        for line in fh:
            r = json.loads(line)
            if r.get("type") == "device":
                devs.append(r)
            elif r.get("type") == "frame":
                frames.append(r)
    return devs, frames


class State:
    """What a reader knows of a Type B device: its slots (slot -> code ->
    value), the slot it was last told of, the other axes, the keys down."""

    def __init__(self, dev):
        codes = {name: i for i, name in enumerate(ABS_NAMES)}
        self.nslots = dev["absinfo"]["ABS_MT_SLOT"]["max"] + 1
        self.slots = [{} for _ in range(self.nslots)]
        for st in dev["mt"]["state"]:
            self.slots[st["slot"]] = {codes[k]: v for k, v in st.items() if k != "slot"}
        self.slot = dev["mt"]["current_slot"]
        self.abs = {codes[k]: a["value"] for k, a in dev["absinfo"].items()
                    if not MT_FIRST - 1 <= codes[k] <= MT_LAST}
        self.keys = {KEYS[k] for k in dev["state"]["keys_down"]}

    def get(self, slot, code):
        return self.slots[slot].get(code, -1 if code == ABS_MT_TRACKING_ID else 0)

    def apply(self, t, c, v):
        if t == EV_ABS and c == ABS_MT_SLOT:
            self.slot = v
        elif t == EV_ABS and MT_FIRST <= c <= MT_LAST:
            self.slots[self.slot][c] = v
        elif t == EV_ABS:
            self.abs[c] = v
        elif t == EV_KEY:
            (self.keys.add if v else self.keys.discard)(c)

    def view(self):
        """What two readers must agree on: the touches and their axes,
        the current slot, the axes, the keys."""
        active = {s: {c: v for c, v in self.slots[s].items() if v != 0 or c == ABS_MT_TRACKING_ID}
                  for s in range(self.nslots) if self.get(s, ABS_MT_TRACKING_ID) != -1}
        return (active, self.slot, {c: v for c, v in self.abs.items() if v}, frozenset(self.keys))


class Kernel(State):
    """The input core between the replay's writes and a reader."""

    def __init__(self, dev):
        super().__init__(dev)
        self.mt_slot = self.slot    # mt->slot: the slot written last

    def deliver(self, events):
        out = []
        for t, c, v in events:
            if t == EV_SYN:
                continue
            if t == EV_ABS and c == ABS_MT_SLOT:
                if 0 <= v < self.nslots:
                    self.mt_slot = v
            elif t == EV_ABS and MT_FIRST <= c <= MT_LAST:
                if self.get(self.mt_slot, c) == v:
                    continue
                if self.mt_slot != self.slot:
                    out.append((EV_ABS, ABS_MT_SLOT, self.mt_slot))
                    self.apply(EV_ABS, ABS_MT_SLOT, self.mt_slot)
                out.append((t, c, v))
                self.apply(t, c, v)
            elif t == EV_ABS:
                if self.abs.get(c, 0) != v:
                    out.append((t, c, v))
                    self.apply(t, c, v)
            elif t == EV_KEY:
                if (c in self.keys) != bool(v):
                    out.append((t, c, v))
                    self.apply(t, c, v)
        return out


def written_frames(dev, frames, loops):
    """The replay's writes, each with its deadline from the start (the
    sample's times at --speed 10, RP_LOOP_PAUSE_US between loops): before
    each loop after the first, the frame that takes the axes back to the
    recording's start (ABS_MT_SLOT first when another slot was written
    last), then the sample's frames."""
    start = {code: a["value"] for code, a in dev["absinfo"].items()}
    codes = {name: i for i, name in enumerate(ABS_NAMES)}
    t0 = frames[0]["t"]
    span = (frames[-1]["t"] - t0) / SPEED
    out, extra = [], 0
    for k in range(loops):
        base = k * (span + LOOP_PAUSE_US)
        if k:
            prep = []
            if last_slot != dev["mt"]["current_slot"]:
                prep.append((EV_ABS, ABS_MT_SLOT, dev["mt"]["current_slot"]))
            for name in sorted(start, key=lambda n: codes[n]):
                c = codes[name]
                if c != ABS_MT_SLOT and not MT_FIRST <= c <= MT_LAST and written[c] != start[name]:
                    prep.append((EV_ABS, c, start[name]))
            if prep:
                out.append((prep, base))
                extra += 1
        written = {codes[n]: v for n, v in start.items()}
        last_slot = dev["mt"]["current_slot"]
        for f in frames:
            evs = [tuple(e[:3]) for e in f["ev"]]
            for t, c, v in evs:
                if t == EV_ABS and c == ABS_MT_SLOT:
                    last_slot = v
                elif t == EV_ABS:
                    written[c] = v
            out.append((evs, base + (f["t"] - t0) / SPEED))
    return out, extra


ABS_NAMES = ["ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_RY", "ABS_RZ", "ABS_THROTTLE", "ABS_RUDDER",
             "ABS_WHEEL", "ABS_GAS", "ABS_BRAKE"] + ["?%d" % i for i in range(11, 16)] + \
    ["ABS_HAT0X", "ABS_HAT0Y", "ABS_HAT1X", "ABS_HAT1Y", "ABS_HAT2X", "ABS_HAT2Y", "ABS_HAT3X",
     "ABS_HAT3Y", "ABS_PRESSURE", "ABS_DISTANCE", "ABS_TILT_X", "ABS_TILT_Y", "ABS_TOOL_WIDTH"] + \
    ["?%d" % i for i in range(29, 32)] + ["ABS_VOLUME", "ABS_PROFILE"] + \
    ["?%d" % i for i in range(34, 40)] + ["ABS_MISC"] + ["?%d" % i for i in range(41, 46)] + \
    ["ABS_RESERVED", "ABS_MT_SLOT", "ABS_MT_TOUCH_MAJOR", "ABS_MT_TOUCH_MINOR", "ABS_MT_WIDTH_MAJOR",
     "ABS_MT_WIDTH_MINOR", "ABS_MT_ORIENTATION", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y",
     "ABS_MT_TOOL_TYPE", "ABS_MT_BLOB_ID", "ABS_MT_TRACKING_ID", "ABS_MT_PRESSURE",
     "ABS_MT_DISTANCE", "ABS_MT_TOOL_X", "ABS_MT_TOOL_Y"]


def expected_delivery(dev, written):
    """[(frame events, the kernel's state before it, deadline)] for every
    frame the kernel sends, and its state after the last."""
    k = Kernel(dev)
    out = []
    for evs, when in written:
        before = k.view()
        got = k.deliver(evs)
        if got:
            out.append((got, before, when))
    return out, k.view()


def between(r, a, b):
    """Whether every value of view @r is the one of view @a or of @b."""
    if isinstance(r, dict) or isinstance(a, dict) or isinstance(b, dict):
        r, a, b = r or {}, a or {}, b or {}
        return all(between(r.get(k), a.get(k), b.get(k)) for k in set(r) | set(a) | set(b))
    if isinstance(r, tuple):
        return all(between(x, y, z) for x, y, z in zip(r, a, b))
    return r == a or r == b


def agree(expected, j, after):
    """How many of the recorded bodies @after follow expected[j] in order."""
    n = 0
    while n < len(after) and j + 1 + n < len(expected) and expected[j + 1 + n][0] == after[n]:
        n += 1
    return n


def resume_at(expected, final, i, body, before, elapsed, after):
    """Where a recording goes on after a drop: the frame the kernel sent
    from the state the resync left, at or after @i. The loops are alike,
    so of the candidates the one the recording's next frames (the bodies
    @after) follow longest, then the one whose deadline is @elapsed us
    after the last frame before the drop (expected[i - 1]) (a replay far
    behind its deadlines makes the time a poor guide); None if none.
    The state may already hold part of that frame: the kernel changes
    its state event by event and queues the frame at its SYN_REPORT, so a
    frame it is taking in while the state is read is in neither the read
    nor the queue (no ioctl can tell). Then every value of the state is
    the one before the frame or after it, and the current slot one the
    frame names."""
    def torn(j):
        a = expected[j][1]
        b = expected[j + 1][1] if j + 1 < len(expected) else final
        slots = {v for t, c, v in expected[j][0] if t == EV_ABS and c == ABS_MT_SLOT}
        return (between(before[0], a[0], b[0]) and between(before[2:], a[2:], b[2:]) and
                before[1] in slots | {a[1], b[1]})
    cands = [j for j in range(i, len(expected)) if expected[j][0] == body and
             (expected[j][1] == before or torn(j))]
    if not cands or i == 0:
        return cands[0] if cands else None
    return min(cands, key=lambda j: (-agree(expected, j, after),
                                     abs(expected[j][2] - expected[i - 1][2] - elapsed)))


def check_recording(path, expected, final):
    """Every expected frame in order; a gap only right after a SYN_DROPPED
    and its resync, which must leave the reader in the kernel's state just
    before the frame the recording goes on with. Returns (drops, frames
    missing behind them)."""
    devs, frames = read_timeline(path)
    if len(devs) != 1:
        fail("%s: %d devices" % (path, len(devs)))
        return 0, 0
    reader = State(devs[0])
    i = 0               # the next expected frame
    last_t = 0          # the time of the last one found
    after_drop = False
    drops = missing = 0
    for n, f in enumerate(frames):
        evs = [tuple(e[:3]) for e in f["ev"]]
        body = [e for e in evs if e[0] != EV_SYN]
        if f.get("dropped"):
            drops += 1
            after_drop = True
            resynced = False
            continue
        if f.get("incomplete") and not f.get("resync"):
            # The start of a frame the kernel's overflow then cut: only
            # right before its SYN_DROPPED. A reader has its events.
            if n + 1 < len(frames) and frames[n + 1].get("dropped"):
                for t, c, v in evs:
                    reader.apply(t, c, v)
                continue
            fail("%s: frame %d (t=%d) is incomplete without a SYN_DROPPED" % (path, n, f["t"]))
            return drops, missing
        before = reader.view()
        for t, c, v in evs:
            reader.apply(t, c, v)
        if f.get("resync"):
            resynced = True
            continue
        if after_drop:
            after = []
            for g in frames[n + 1:]:
                if any(g.get(k) for k in ("dropped", "resync", "incomplete")):
                    break
                after.append([tuple(e[:3]) for e in g["ev"] if e[0] != EV_SYN])
            j = resume_at(expected, final, i, body, before, f["t"] - last_t, after)
            if j is not None and expected[j][1] != before:
                torn[0] += 1
            if j is None:
                fail("%s: frame %d (t=%d) %s after a SYN_DROPPED: no frame the kernel sent from "
                     "the state the resync left" % (path, n, f["t"], body))
                return drops, missing
            missing += j - i
            i = j
            after_drop = False
        elif i >= len(expected) or expected[i][0] != body:
            fail("%s: frame %d (t=%d) %s: expected %s: frames lost without a SYN_DROPPED" %
                 (path, n, f["t"], body, expected[i][0] if i < len(expected) else "no more frames"))
            return drops, missing
        i += 1
        last_t = f["t"]
    if after_drop:
        # Without a resync after it, the drop was the device's removal:
        # the kernel drops what it still held with the device.
        missing += len(expected) - i
        if resynced and reader.view() != final:
            fail("%s: the resync at the end leaves a reader in another state than the device's" % path)
    elif i != len(expected):
        fail("%s: the recording ends %d frames early, without a SYN_DROPPED" % (path, len(expected) - i))
    return drops, missing


def main():
    os.makedirs(outdir, exist_ok=True)
    devs, frames = read_timeline(sample)
    written, extra = written_frames(devs[0], frames, LOOPS)
    expected, final = expected_delivery(devs[0], written)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    total_drops = total_missing = 0
    t0 = time.monotonic()
    try:
        # Two rounds at a time (two replays, each its own device): half
        # the wall time, and more load on both.
        for r in range(0, rounds, 2):
            pair = [start_round(k) for k in range(r, min(r + 2, rounds))]
            go(pair, probe=(r == 0))
            for rd in pair:
                d, m = finish_round(rd, extra, expected, final)
                total_drops += d
                total_missing += m
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    print("%d rounds in %.1f s, %d frames each (%d written): %d SYN_DROPPED marked, %d frames "
          "missing behind them, none missing elsewhere; %d resyncs held part of the frame "
          "the kernel was taking in; %d bystanders came after the replays" %
          (rounds, time.monotonic() - t0, len(expected), len(written), total_drops, total_missing,
           torn[0], late_bystanders[0]), flush=True)
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("PASS: every recording holds every frame written, or marks the loss")


def wait_node(log, proc):
    for _ in range(600):
        with open(log, "rb") as fh:
            m = re.search(rb"/dev/input/event[0-9]+", fh.read())
        if m and os.path.exists(m.group().decode()):
            return m.group().decode()
        if proc.poll() is not None:
            return None
        time.sleep(0.05)
    return None


def start_round(r):
    """A replay waiting on its own device, and its recorder started."""
    rd = {"r": r, "log": os.path.join(outdir, "replay-%02d.log" % r),
          "out": os.path.join(outdir, "noloss-%02d.jsonl" % r), "rec": None}
    rd["replay"] = subprocess.Popen([tt, "replay", "--wait", "--exact", "--speed", str(SPEED),
                                     "--loop", str(LOOPS), sample], stdin=subprocess.PIPE,
                                    stdout=open(rd["log"], "w"), stderr=subprocess.STDOUT)
    node = wait_node(rd["log"], rd["replay"])
    if not node:
        rd["replay"].kill()
        rd["replay"].wait()
        fail("round %d: the replay created no device" % r)
        return rd
    out = rd["out"]
    rd["rec"] = subprocess.Popen([tt, "record", "-q", node, "-o", out], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=open(out + ".err", "w"))
    for _ in range(1200):
        if os.path.exists(out) and b'"kind":"start"' in open(out, "rb").read():
            break
        time.sleep(0.05)
    return rd


def grabs(args, log):
    """The EVIOCGRAB calls of `touchtape ARGS`, under strace."""
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=ioctl", "-o", log, tt] + args,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(log) as fh:
        return [ln for ln in fh if "EVIOCGRAB" in ln or "0x40044590" in ln]


def check_probe():
    """A recorder takes no grab it was not asked for, in its device scan
    (a name pattern) or its open: while one is held, every other reader
    of the device misses its events without a SYN_DROPPED. The listing
    does (its GRABBED column): the check sees the ioctl at all."""
    if not grabs(["list"], os.path.join(outdir, "list.strace")):
        fail("touchtape list: no EVIOCGRAB under strace (the grab check cannot see it)")
    found = grabs(["record", "-q", "--duration", "0.2", "-o", os.path.join(outdir, "probe.jsonl"),
                   "touchtape replay:*"], os.path.join(outdir, "record.strace"))
    if found:
        fail("touchtape record took a grab it was not asked for: %s" % found[0].strip())


def go(pair, probe):
    """The replays start; while they play, a bystander recorder of every
    replay device starts (its scan and opens must take nothing from the
    round's recorders); every other round's recorder is stopped a while."""
    live = [rd for rd in pair if rd["rec"]]
    if probe and live:
        check_probe()
    for rd in live:
        rd["replay"].stdin.write(b"\n")
        rd["replay"].stdin.close()
    if not live:
        return
    by_out = os.path.join(outdir, "bystander-%02d.jsonl" % pair[0]["r"])
    by = subprocess.Popen([tt, "record", "-q", "-o", by_out, "touchtape replay:*"],
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=open(by_out + ".err", "w"))
    by.stderr_path = by_out + ".err"
    stopped = [rd for rd in live if rd["r"] % 2]
    if stopped:
        # Stopped long enough for the kernel's buffer (8192 events for
        # this device) to overflow at this rate.
        time.sleep(0.2)
        for rd in stopped:
            rd["rec"].send_signal(signal.SIGSTOP)
        time.sleep(1.0)
        for rd in stopped:
            rd["rec"].send_signal(signal.SIGCONT)
    for rd in live:
        rd["replay"].wait()
    end_recorder(by, "round %d: the bystander recorder" % pair[0]["r"], late=True)


def end_recorder(proc, what, late=False):
    """Waits for a recorder that ends with its devices; stops it if not.
    @late: it may have come after the devices were gone (a starved guest
    can play a whole replay before a recorder has scanned, or between its
    scan and its open)."""
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
        proc.wait()
    gone = ("no input device name matches", "No such file or directory", "No such device")
    if late and proc.returncode == 2 and any(g in open(proc.stderr_path).read() for g in gone):
        late_bystanders[0] += 1
        return
    if proc.returncode not in (0, 130):
        fail("%s exited with %d" % (what, proc.returncode))


def finish_round(rd, extra, expected, final):
    r, rec = rd["r"], rd["rec"]
    if not rec:
        return 0, 0
    text = open(rd["log"]).read()
    m = re.search(r"replayed ([0-9]+) frames in ([0-9]+) loops \(([0-9]+) release/preparation", text)
    if rd["replay"].returncode != 0 or not m:
        fail("round %d: replay exited with %d: %s" % (r, rd["replay"].returncode, text[-400:]))
    elif int(m.group(3)) != extra:
        fail("round %d: the replay wrote %s release/preparation frames, this test's model %d" %
             (r, m.group(3), extra))
    end_recorder(rec, "round %d: record" % r)
    return check_recording(rd["out"], expected, final)


main()
