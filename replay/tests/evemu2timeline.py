#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Test helper: converts an evemu recording (with its companion description
# for events-only files) into a touchtape timeline, for the replay tests
# until 'touchtape convert' reads evemu. Usage:
#   evemu2timeline.py [--desc FILE] [--skip-frames N] IN OUT
# --skip-frames N drops the first N frames and declares the state they
# leave (slots, keys down) in the device record: a recording that starts
# mid-touch.
import json, sys

def parse(paths):
    dev = {"name": "?", "id": [0, 0, 0, 0], "props": [], "bits": {}, "abs": {}}
    events = []
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if not line or ":" not in line:
                    continue
                tag, rest = line.split(":", 1)
                rest = rest.strip()
                if tag == "N":
                    dev["name"] = rest
                elif tag == "I":
                    dev["id"] = [int(x, 16) for x in rest.split()[:4]]
                elif tag == "P":
                    dev["props"] += [int(x, 16) for x in rest.split()]
                elif tag == "B":
                    parts = rest.split()
                    t = int(parts[0], 16)
                    dev["bits"].setdefault(t, []).extend(int(x, 16) for x in parts[1:])
                elif tag == "A":
                    p = rest.split()
                    vals = [int(x) for x in p[1:]]
                    while len(vals) < 5:
                        vals.append(0)
                    dev["abs"][int(p[0], 16)] = vals
                elif tag == "E":
                    p = rest.split()
                    sec, usec = p[0].split(".")
                    events.append((int(sec) * 1000000 + int(usec.ljust(6, "0")[:6]),
                                   int(p[1], 16), int(p[2], 16), int(p[3])))
    return dev, events

def bits(byts):
    out = []
    for i, b in enumerate(byts):
        for j in range(8):
            if b & (1 << j):
                out.append(i * 8 + j)
    return out

def main():
    args = sys.argv[1:]
    desc = None
    skip = 0
    while args and args[0].startswith("--"):
        if args[0] == "--desc":
            desc = args[1]; args = args[2:]
        elif args[0] == "--skip-frames":
            skip = int(args[1]); args = args[2:]
        else:
            sys.exit("unknown option " + args[0])
    src, out = args
    dev, events = parse(([desc] if desc else []) + [src])
    codes = {}
    for t, byts in dev["bits"].items():
        if t == 0:
            continue
        cs = bits(byts)
        if cs:
            codes[str(t)] = cs
    absinfo = {}
    for c, v in dev["abs"].items():
        if str(3) in codes and c in codes["3"]:
            absinfo[str(c)] = {"min": v[0], "max": v[1], "fuzz": v[2], "flat": v[3], "resolution": v[4]}
    d = {"type": "device", "id": 0, "name": dev["name"],
         "input_id": dict(zip(["bustype", "vendor", "product", "version"], dev["id"])),
         "properties": bits(dev["props"]), "codes": codes, "absinfo": absinfo}
    abscodes = codes.get("3", [])
    if 0x2f in abscodes:
        d["mt"] = {"protocol": "B", "slots": dev["abs"][0x2f][1] + 1}
        if skip:
            slot, slots, keys, n = 0, {}, set(), 0
            while events and n < skip:
                t, ty, code, val = events.pop(0)
                if ty == 3 and code == 0x2f:
                    slot = val
                elif ty == 3 and 0x30 <= code <= 0x3d:
                    slots.setdefault(slot, {})[str(code)] = val
                elif ty == 1:
                    (keys.add if val else keys.discard)(code)
                elif ty == 0 and code == 0:
                    n += 1
            d["mt"]["current_slot"] = slot
            d["mt"]["state"] = [dict(v, slot=k) for k, v in slots.items()
                                if v.get(str(0x39), -1) >= 0]
            d["state"] = {"keys_down": sorted(keys)}
    elif 0x35 in abscodes:
        d["mt"] = {"protocol": "A", "slots": 1}
    t0 = events[0][0] if events else 0
    with open(out, "w") as f:
        f.write(json.dumps({"format": "touchtape-timeline", "version": 1,
                            "tool": "evemu2timeline.py", "source_format": "evemu",
                            "start": {"monotonic_us": 0, "realtime_us": 0}}) + "\n")
        f.write(json.dumps(d) + "\n")
        frame = []
        for t, ty, code, val in events:
            frame.append([ty, code, val])
            if ty == 0 and code == 0:
                f.write(json.dumps({"type": "frame", "dev": 0, "t": t - t0, "ev": frame}) + "\n")
                frame = []

if __name__ == "__main__":
    main()
