#!/usr/bin/env python3
"""What analyze should find in a hid-recorder file, computed from
hid-tools' own decoding of each report (the '#' lines hid-recorder writes
before each 'E:' line), not from touchtape's parser: the number of
reports, of contact sequences (Tip Switch down to up, per Contact Id), of
contacts that a complete frame left out without a tip up, and of tip-down
contacts past the Contact Count. Frames follow hid-multitouch: a non-zero
Contact Count, or a zero one with a new Scan Time when no frame is in
progress, begins one; contacts are taken until the count is reached;
received contacts carry over a frame cut short.

Prints one JSON object. Usage: hid-expect.py FILE.hid"""
import json
import re
import sys


def reports(path):
    block = []
    for line in open(path, errors="replace"):
        if line.startswith("#"):
            block.append(line)
        elif line.startswith("E:"):
            yield "".join(block)
            block = []
        else:
            block = []


def decode(text):
    slots = [(int(tip), int(cid)) for tip, cid in
             re.findall(r"Tip Switch:\s*(\d+)\s*\|\s*Contact Id:\s*(\d+)", text)]
    count = re.search(r"Contact Count:\s*(\d+)", text)
    scan = re.search(r"Scan Time:\s*(\d+)", text)
    return slots, int(count.group(1)) if count else None, scan.group(1) if scan else None


def main():
    n = contacts = vanished = beyond = cuts = 0
    active = {}     # contact id -> seen in the frame being assembled
    expected = received = 0
    prev_scan = None
    for text in reports(sys.argv[1]):
        n += 1
        slots, count, scan = decode(text)
        if count is None:
            expected, received = len(slots), 0
        else:
            new_scan = scan is None or scan != prev_scan
            prev_scan = scan
            if count or (received == 0 and new_scan):
                cuts += received > 0
                expected = count
        for i, (tip, cid) in enumerate(slots):
            if received >= expected:
                beyond += tip
                continue
            received += 1
            if tip:
                contacts += cid not in active
                active[cid] = True
            elif cid in active:
                del active[cid]
        if received >= expected:
            for cid in [c for c, seen in active.items() if not seen]:
                del active[cid]
                vanished += 1
            active = dict.fromkeys(active, False)
            received = 0
    print(json.dumps({"reports": n, "contacts": contacts, "vanished": vanished,
                      "count": beyond + cuts}))


main()
