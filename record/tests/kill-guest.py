#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs inside the VM (record/tests/kill-vm.sh): SIGKILLs `touchtape record`
# at RUNS random moments while it records a replayed multi-touch stream,
# and checks what each killed recorder left on disk:
#   - every complete line is a whole JSON object, so at most the last,
#     unterminated line is lost;
#   - `touchtape validate` reports no error, and no warning but the cut-short
#     last line, "no devices" when the kill came inside the preamble,
#     SYN_DROPPED (a recorder starved of CPU falls behind the device) and
#     touches down at the end (the kill came with a finger down);
#   - once the start marker was on disk at the kill, the preamble is whole,
#     and a recorder killed 400 ms or more after it has frames;
#   - the number of frames grows with the time of the kill;
#   - a frame one recorder holds, the others recording then hold too, or
#     mark a drop there.
# Most kills count their delay (uniform in 20-800 ms) from the start marker;
# one in ten from the launch (start-up: opening the device, the preamble);
# one in ten come 0-20 ms after the first byte is on disk (aimed at the
# preamble: header, device records, start marker).
#   kill-guest.py TOUCHTAPE REPLAY_TOUCHTAPE SAMPLE OUTDIR [RUNS [SEED]]
import json, os, random, re, signal, subprocess, sys, time

tt, tt_replay, sample, outdir = sys.argv[1:5]
runs = int(sys.argv[5]) if len(sys.argv) > 5 else 100
seed = int(sys.argv[6]) if len(sys.argv) > 6 else int(time.time())
CONCURRENT = 6
START = b'"kind":"start"'
rng = random.Random(seed)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def head(path, n=65536):
    """The first n bytes of path (all of it for n=-1); none if it is absent."""
    try:
        with open(path, "rb") as f:
            return f.read(n)
    except FileNotFoundError:
        return b""


print("seed %d, %d runs, %d at a time" % (seed, runs, CONCURRENT), flush=True)
os.makedirs(outdir, exist_ok=True)
rep_log = os.path.join(outdir, "replay.log")
replay = subprocess.Popen([tt_replay, "replay", "--loop", "0", sample],
                          stdin=subprocess.DEVNULL, stdout=open(rep_log, "w"),
                          stderr=subprocess.STDOUT)
node = None
for _ in range(600):
    m = re.search(rb"/dev/input/event[0-9]+", head(rep_log))
    if m and os.path.exists(m.group().decode()):
        node = m.group().decode()
        break
    time.sleep(0.05)
if not node:
    replay.kill()
    print(head(rep_log).decode(errors="replace"))
    sys.exit("FAIL: the replay created no device")
print("replaying %s on %s" % (os.path.basename(sample), node), flush=True)

pending = []
for i in range(runs):
    mode = {0: "launch", 5: "first-byte"}.get(i % 10, "start")
    pending.append({"i": i, "mode": mode,
                    "delay": rng.uniform(0, 0.020) if mode == "first-byte" else rng.uniform(0.020, 0.800)})
active, done = [], []
t_begin = time.monotonic()
while pending or active:
    while pending and len(active) < CONCURRENT:
        r = pending.pop(0)
        r["file"] = os.path.join(outdir, "kill-%03d.jsonl" % r["i"])
        r["err"] = open(r["file"] + ".err", "w")
        r["launch"] = time.monotonic()
        r["start"] = r["first_byte"] = None
        r["proc"] = subprocess.Popen([tt, "record", "-q", node, "-o", r["file"]],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=r["err"])
        active.append(r)
    time.sleep(0.004)
    now = time.monotonic()
    for r in list(active):
        if r["start"] is None:
            data = head(r["file"])
            if data and r["first_byte"] is None:
                r["first_byte"] = now
            if START in data:
                r["start"] = now
        if r["proc"].poll() is not None:
            fail("run %d: the recorder exited by itself (status %d): %s" %
                 (r["i"], r["proc"].returncode, open(r["file"] + ".err").read().strip()))
            active.remove(r)
            continue
        base = r[r["mode"].replace("-", "_")]
        if base is None:
            if now - r["launch"] > 60:
                fail("run %d: no start marker after 60 s" % r["i"])
                r["proc"].kill()
                r["proc"].wait()
                active.remove(r)
            continue
        if now < base + r["delay"]:
            continue
        # What the file held just before the kill: if the start marker was
        # there, it must be there after it.
        r["started"] = START in head(r["file"])
        r["proc"].send_signal(signal.SIGKILL)
        r["killed"] = time.monotonic()
        r["proc"].wait()
        r["err"].close()
        if r["proc"].returncode != -signal.SIGKILL:
            fail("run %d: status %d, not killed" % (r["i"], r["proc"].returncode))
        if r["start"] is None and r["started"]:
            r["start"] = r["killed"]
        active.remove(r)
        done.append(r)
elapsed = time.monotonic() - t_begin
replay.send_signal(signal.SIGINT)
replay.wait()
if replay.returncode != 130:
    fail("replay --loop 0: status %d after SIGINT, want 130" % replay.returncode)

# Every killed file: complete lines are JSON, and what validate says.
nonempty = []
for r in done:
    data = head(r["file"], -1)
    r["size"] = len(data)
    cut = data.rfind(b"\n") + 1
    lines, r["tail"] = data[:cut].splitlines(), data[cut:]
    r["lines"] = len(lines)
    objs = []
    for n, line in enumerate(lines, 1):
        try:
            objs.append(json.loads(line))
        except ValueError as e:
            fail("run %d: %s:%d is not a JSON line (%s)" % (r["i"], r["file"], n, e))
            objs.append({})
    r["frames"] = sum(1 for o in objs if o.get("type") == "frame")
    r["objs"] = objs
    r["devices"] = sum(1 for o in objs if o.get("type") == "device")
    r["has_start"] = any(o.get("kind") == "start" for o in objs)
    if r["started"] and not (r["has_start"] and objs[0].get("format") == "touchtape-timeline"
                             and r["devices"] == 1):
        fail("run %d: the start marker was on disk before the kill, the preamble is not "
             "whole after it" % r["i"])
    if data:
        nonempty.append(r)
    elif r["started"]:
        fail("run %d: empty after the start marker was written" % r["i"])

# One validate for all files; summaries on stdout, messages on stderr (two
# pipes: merged, a line could be split where stdout's buffer is flushed).
val = subprocess.run([tt, "validate", "--max", "0"] + [r["file"] for r in nonempty],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
if val.returncode != 0:
    fail("validate: status %d" % val.returncode)
by_file = {r["file"]: r for r in nonempty}
for r in nonempty:
    r["warnings"], r["summary"] = [], None
for line in val.stdout.splitlines():
    m = re.match(r"(.*?\.jsonl): touchtape timeline, (\d+) records, (\d+) errors?, (\d+) warnings?$", line)
    if not m or m.group(1) not in by_file:
        fail("validate: unexpected output: " + line)
        continue
    by_file[m.group(1)]["summary"] = tuple(int(x) for x in m.groups()[1:])
def at_first_frame(path, message):
    """True when @message names the line of the first frame of @path."""
    m = re.match(r"touchtape validate: .*?\.jsonl:(\d+): ", message)
    if not m:
        return False
    with open(path, errors="replace") as fh:
        for n, text in enumerate(fh, 1):
            if '"type":"frame"' in text:
                return n == int(m.group(1))
    return False


# Messages: "touchtape validate: FILE[:LINE]: SEVERITY: what [kind]".
for line in val.stderr.splitlines():
    m = re.match(r"touchtape validate: (.*?\.jsonl)(?::\d+)?: (.*) \[([a-z-]+)\]$", line)
    if not m or m.group(1) not in by_file:
        fail("validate: unexpected output: " + line)
        continue
    r, msg, kind = by_file[m.group(1)], m.group(2), m.group(3)
    if kind == "reader-warning" and msg.startswith("warning: the last line is cut short"):
        r["warnings"].append("cut")
    elif kind == "no-devices":
        r["warnings"].append("no-devices")
    elif kind == "syn-dropped":
        # A recorder starved of CPU (TCG, six at once, CPU hogs beside
        # them) falls behind the device: recorded as such, with
        # its resync.
        r["warnings"].append("syn-dropped")
    elif kind == "touch-active-at-end":
        pass	# killed with a finger down
    elif kind == "button-state-mismatch" and at_first_frame(r["file"], line):
        # The device's state at the start is read in several ioctls (keys,
        # then each MT axis); a starved recorder can read BTN_TOUCH before a
        # loop's release and the slots after it. Not what a kill leaves.
        r["warnings"].append("start-state")
    else:
        fail("run %d: validate: %s [%s]" % (r["i"], msg, kind))
        with open(r["file"], errors="replace") as fh:
            for n, text in enumerate(fh, 1):
                if n > 12:
                    break
                if '"type":"device"' not in text:
                    print("  %d: %s" % (n, text.rstrip()[:300]))
for r in nonempty:
    if r["summary"] is None:
        fail("run %d: no summary from validate" % r["i"])
        continue
    records, errors, warnings = r["summary"]
    if errors:
        fail("run %d: %d errors" % (r["i"], errors))
    if records != r["lines"]:
        fail("run %d: validate read %d records of %d complete lines" % (r["i"], records, r["lines"]))
    if ("cut" in r["warnings"]) != bool(r["tail"]):
        fail("run %d: cut-short warning %s, unterminated tail of %d bytes" %
             (r["i"], "cut" in r["warnings"], len(r["tail"])))
    if "no-devices" in r["warnings"] and r["devices"]:
        fail("run %d: no-devices warning with a device record" % r["i"])
    if "no-devices" in r["warnings"] and r["started"]:
        fail("run %d: no device record, yet the start marker was on disk" % r["i"])

# The recorders ran six at a time on one device, and the kernel gives
# each reader every frame: a frame (by its kernel time) that one holds
# within another's first and last frame is in that one too, unless a drop
# it marks covers it (from the frame before its SYN_DROPPED to the first
# frame after its resync). Else frames were lost without a mark (a
# recorder's grab, even a moment's, takes them from all the others).
FLAGS = ("dropped", "resync", "incomplete")


def kernel_frames(r):
    """{kernel time: flagged} of @r's frames, and the spans its drops cover."""
    base = r["objs"][0].get("start", {}).get("monotonic_us", 0) if r["objs"] else 0
    frames = [(base + o["t"], any(o.get(k) for k in FLAGS), bool(o.get("dropped")))
              for o in r["objs"] if o.get("type") == "frame"]
    covered = []
    for n, (t, _, dropped) in enumerate(frames):
        if dropped:
            end = n + 1
            while end < len(frames) - 1 and frames[end][1]:
                end += 1
            covered.append((frames[n - 1][0] if n else t, frames[min(end, len(frames) - 1)][0]))
    return {t: flagged for t, flagged, _ in frames}, covered


held = {r["i"]: kernel_frames(r) for r in nonempty if r["frames"] > 1}
for i, (frames, covered) in held.items():
    lo, hi = min(frames), max(frames)
    lost = sorted({t for j, (other, _) in held.items() if j != i for t, flagged in other.items()
                   if lo < t < hi and not flagged and t not in frames and
                   not any(a <= t <= b for a, b in covered)})
    if lost:
        fail("run %d: %d frames that other recorders hold are missing, without a SYN_DROPPED "
             "(%.3f-%.3f s after its first frame)" % (i, len(lost), (lost[0] - lo) / 1e6,
                                                      (lost[-1] - lo) / 1e6))

# Frames against the moment of the kill (from the start marker).
rec = [r for r in done if r["started"]]
for r in rec:
    r["after"] = r["killed"] - r["start"]
    # 400 ms: longer than any pause in the stream (the sample's largest gap
    # is 25 ms, the replay pauses 200 ms between loops).
    if r["after"] >= 0.4 and r["frames"] == 0:
        fail("run %d: killed %.0f ms after the start marker with no frame" %
             (r["i"], r["after"] * 1000))


def ranks(v):
    order = sorted(range(len(v)), key=lambda k: v[k])
    out = [0] * len(v)
    for rank, k in enumerate(order):
        out[k] = rank
    return out


rho = float("nan")
if len(rec) >= 10:
    a, b = ranks([r["after"] for r in rec]), ranks([r["frames"] for r in rec])
    n = len(rec)
    rho = 1 - 6 * sum((x - y) ** 2 for x, y in zip(a, b)) / (n * (n * n - 1))
    if rho < 0.5:
        fail("frames do not grow with the time of the kill: Spearman rho %.2f" % rho)
else:
    fail("only %d of %d kills came after the start marker" % (len(rec), runs))

cut = sum(1 for r in done if r["tail"])
empty = sum(1 for r in done if r["size"] == 0)
preamble = sum(1 for r in done if r["size"] and not r["has_start"])
dropped = sum(1 for r in nonempty if "syn-dropped" in r["warnings"])
print("%d kills in %.1f s: %d after the start marker (%d-%d ms after it, %d-%d frames, "
      "Spearman rho frames/time %.2f); before it: %d with an empty or no file, %d inside "
      "the preamble; %d files end in a cut-short line, %d recorded a SYN_DROPPED" %
      (len(done), elapsed, len(rec),
       min((r["after"] * 1000 for r in rec), default=0),
       max((r["after"] * 1000 for r in rec), default=0),
       min((r["frames"] for r in rec), default=0), max((r["frames"] for r in rec), default=0),
       rho, empty, preamble, cut, dropped), flush=True)
if len(done) != runs:
    fail("%d of %d runs ended in a kill" % (len(done), runs))
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("PASS: every killed recording is valid up to its last complete line")
