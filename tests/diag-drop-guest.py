#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs inside the VM (tests/diag-drop-vm.sh): SYN_DROPPED on purpose.
# A replay floods a multi-touch device (samples/3m-two-finger.jsonl, fast,
# looped); RUNS short recordings of it each have their recorder stopped
# (SIGSTOP) twice while the kernel's buffer overflows, then continued
# (SIGCONT) and ended with SIGINT. What the kernel legitimately skipped
# must not be reported: validate finds no error, and analyze finds no
# anomaly but the drops themselves and touches down when recording ended.
#   diag-drop-guest.py TOUCHTAPE SAMPLE OUTDIR [RUNS]
import json, os, re, signal, subprocess, sys, time

tt, sample, outdir = sys.argv[1:4]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 50
CONCURRENT = 10
ALLOWED = {"syn-dropped", "touch-active-at-end"}
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def head(path):
    try:
        with open(path, "rb") as f:
            return f.read(65536)
    except FileNotFoundError:
        return b""


os.makedirs(outdir, exist_ok=True)
rep_log = os.path.join(outdir, "replay.log")
replay = subprocess.Popen([tt, "replay", "--loop", "0", "--speed", "20", "--max-gap", "5ms", sample],
                          stdin=subprocess.DEVNULL, stdout=open(rep_log, "w"), stderr=subprocess.STDOUT)
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

# Each recording: 150 ms running, 400 ms stopped, 150 ms running, 400 ms
# stopped, 150 ms running, then SIGINT. The steps are (time, signal).
# 400 ms: with 250 ms, whether the kernel's buffer overflowed within a stop
# depended on how the ten recorders and the replay shared the CPUs (41 of
# 50 recordings had a drop with one build, 28 with the next).
STEPS = [(0.15, signal.SIGSTOP), (0.55, signal.SIGCONT), (0.70, signal.SIGSTOP),
         (1.10, signal.SIGCONT), (1.25, signal.SIGINT)]
pending = list(range(runs))
active, files = [], []
t0 = time.monotonic()
while pending or active:
    while pending and len(active) < CONCURRENT:
        i = pending.pop(0)
        f = os.path.join(outdir, "drop-%02d.jsonl" % i)
        p = subprocess.Popen([tt, "record", "-q", node, "-o", f], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active.append({"i": i, "file": f, "proc": p, "start": None, "step": 0, "launch": time.monotonic()})
    time.sleep(0.005)
    now = time.monotonic()
    for r in list(active):
        if r["start"] is None:
            if b'"kind":"start"' in head(r["file"]):
                r["start"] = now
            elif now - r["launch"] > 60:
                fail("run %d: no start marker after 60 s" % r["i"])
                r["proc"].kill()
                r["proc"].wait()
                active.remove(r)
            continue
        if r["step"] < len(STEPS) and now - r["start"] >= STEPS[r["step"]][0]:
            r["proc"].send_signal(STEPS[r["step"]][1])
            r["step"] += 1
        if r["step"] == len(STEPS):
            try:
                r["proc"].wait(timeout=30)
            except subprocess.TimeoutExpired:
                r["proc"].kill()
                r["proc"].wait()
            if r["proc"].returncode not in (0, 130):
                fail("run %d: record exited with %d" % (r["i"], r["proc"].returncode))
            files.append(r["file"])
            active.remove(r)
elapsed = time.monotonic() - t0
replay.send_signal(signal.SIGINT)
replay.wait()

val = subprocess.run([tt, "validate", "--max", "0"] + files, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
errors = [l for l in val.stderr.splitlines() if ": error: " in l]
if val.returncode != 0 and errors:
    fail("validate: status %d" % val.returncode)
for line in errors[:20]:
    fail("validate: " + line)
drops = kinds = 0
with_drops = 0
for f in files:
    a = subprocess.run([tt, "analyze", "--json", f], stdout=subprocess.PIPE, text=True)
    try:
        d = json.loads(a.stdout)
    except ValueError:
        fail("%s: analyze --json is not JSON" % f)
        continue
    n = d["anomaly_counts"].get("syn-dropped", 0)
    drops += n
    with_drops += n > 0
    if a.returncode not in (0, 1):
        fail("%s: analyze status %d" % (f, a.returncode))
    for x in d["anomalies"]:
        if x["kind"] not in ALLOWED:
            kinds += 1
            fail("%s:%d: %s: %s" % (f, x["line"], x["kind"], x["message"]))
            # The lines up to it, to see what led there.
            with open(f) as fh:
                for n, line in enumerate(fh, 1):
                    if n > x["line"] + 1:
                        break
                    print("  %d: %s" % (n, line.rstrip()[:400]))
print("%d recordings in %.1f s, %d SYN_DROPPED in %d of them; validate: %d errors; "
      "analyze: %d anomalies besides drops and touches down at the end" %
      (len(files), elapsed, drops, with_drops, len(errors), kinds), flush=True)
if len(files) != runs:
    fail("%d of %d recordings made" % (len(files), runs))
# The test is about drops: most recordings must have some.
if with_drops < runs * 3 // 4:
    fail("only %d of %d recordings had a SYN_DROPPED" % (with_drops, runs))
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("PASS: no error and no false anomaly across %d SYN_DROPPED" % drops)
