#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One set of answers: over every file given, `analyze --json`,
`inspect --summary --json` and `validate --max 0` must agree on every
shared number and on the anomaly list (the same kinds, counts and lines;
inspect's first ten in the same order as analyze's).

Usage: diag-consistency.py TOUCHTAPE FILE[|DESC]...  (one argument per
recording; "|DESC" gives an evemu events-only file its description).
Prints one line per disagreement and exits 1 when there was any."""

import collections
import json
import re
import subprocess
import sys

SHARED = ["start_us", "end_us", "duration_us", "frames", "events", "xi_events",
          "xi_touch_sequences", "ownership", "links", "anomaly_counts"]
SHARED_DEVICE = ["frames", "events", "touch_sequences", "max_simultaneous",
                 "syn_dropped", "duration_us"]
VALIDATE_LINE = re.compile(r"^touchtape validate: (.*?):(?:(\d+):)? (error|warning): .* \[([a-z-]+)\]$")
VALIDATE_SUMMARY = re.compile(r", (\d+) errors?, (\d+) warnings?$")

problems = []
compared = collections.Counter()


def complain(path, what):
    problems.append("%s: %s" % (path, what))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def analyze(tt, path, desc):
    rc, out, _ = run([tt, "analyze", "--json"] + (["--desc", desc] if desc else []) + [path])
    if rc == 2:
        return None
    return json.loads(out)


def inspect(tt, path, desc):
    rc, out, _ = run([tt, "inspect", "--summary", "--json"] + (["--desc", desc] if desc else []) + [path])
    if rc == 2 and desc:
        return None	# inspect without --desc: nothing to compare
    return json.loads(out)


def validate(tt, path, desc):
    rc, out, err = run([tt, "validate", "--max", "0"] + (["--desc", desc] if desc else []) + [path])
    found = []
    for line in err.splitlines():
        m = VALIDATE_LINE.match(line)
        if m:
            found.append((m.group(4), int(m.group(2) or 0), m.group(3)))
    m = VALIDATE_SUMMARY.search(out.strip())
    totals = (int(m.group(1)), int(m.group(2))) if m else None
    return rc, found, totals


def compare_numbers(path, a, i):
    for key in SHARED:
        if a.get(key) != i.get(key):
            complain(path, "%s: analyze %r, inspect %r" % (key, a.get(key), i.get(key)))
    adevs = {d["id"]: d for d in a["devices"]}
    idevs = {d["id"]: d for d in i["devices"]}
    if set(adevs) != set(idevs):
        complain(path, "devices: analyze %s, inspect %s" % (sorted(adevs), sorted(idevs)))
    for dev in set(adevs) & set(idevs):
        for key in SHARED_DEVICE:
            if adevs[dev].get(key) != idevs[dev].get(key):
                complain(path, "device %d %s: analyze %r, inspect %r"
                         % (dev, key, adevs[dev].get(key), idevs[dev].get(key)))


def compare_anomalies(path, a, i, v):
    listed = [(x["kind"], x["line"], x["severity"]) for x in a["anomalies"]]
    compared.update(k for k, _, _ in listed)
    counts = collections.Counter(k for k, _, _ in listed)
    want = dict(counts, total=len(listed))
    if a["anomaly_counts"] != want:
        complain(path, "analyze counts %r, its list %r" % (a["anomaly_counts"], want))
    if i is not None:
        first = [(x["kind"], x["line"], x["severity"]) for x in i["first_anomalies"]]
        if first != listed[:len(first)] or len(first) != min(10, len(listed)):
            complain(path, "inspect's first anomalies %r, analyze's %r" % (first, listed[:10]))
    rc, found, totals = v
    if collections.Counter(found) != collections.Counter(listed):
        extra = collections.Counter(found) - collections.Counter(listed)
        missing = collections.Counter(listed) - collections.Counter(found)
        complain(path, "validate lists %r more and %r less than analyze"
                 % (sorted(extra.elements())[:5], sorted(missing.elements())[:5]))
    errors = sum(1 for x in listed if x[2] == "error")
    if totals != (errors, len(listed) - errors):
        complain(path, "validate counts %r errors/warnings, analyze %r" % (totals, (errors, len(listed) - errors)))
    if rc != (1 if errors else 0):
        complain(path, "validate exits %d with %d errors" % (rc, errors))


def check(tt, arg):
    path, _, desc = arg.partition("|")
    a = analyze(tt, path, desc or None)
    if a is None:
        return False	# not a recording touchtape reads
    i = inspect(tt, path, desc or None)
    if i is not None:
        compare_numbers(arg, a, i)
    compare_anomalies(arg, a, i, validate(tt, path, desc or None))
    return True


def main():
    tt = sys.argv[1]
    checked = sum(1 for arg in sys.argv[2:] if check(tt, arg))
    for p in problems:
        print("FAIL: " + p)
    print("%d recordings compared, %d anomalies (%s), %d disagreements"
          % (checked, sum(compared.values()), ", ".join("%s %d" % kv for kv in sorted(compared.items())),
             len(problems)))
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
