#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keys typed on a combined touchscreen + keyboard HID device (record-hid-vm.sh, D).

  make HIDFILE
      writes a hid-recorder file for uhid-device.py: the descriptor of
      hid/tests/test-hid-keymask.c (a touchscreen, report 1; Contact Count
      Maximum, feature report 2; a keyboard with a modifier bitmap and six
      key slots, report 3; a key bitmap, report 4) and reports typing the
      word "secret" (c and r held together) among the touches of a finger
  check MASKED SHOWN LOG
      MASKED recorded with `record --hid`, SHOWN with --show-keycodes, both
      of the same reports (LOG, uhid-device.py's): SHOWN holds the word in
      both layers; MASKED holds none of its keys, as many key presses and
      releases, the same touch reports, and no address in phys
Prints what is wrong and exits 1.
"""
import json
import sys

NAME = "touchtape combined"
PHYS = "00:1a:7d:da:71:13"
DESC = ("050d0904a10185010922a102094215002501750195018102950781030951250f7508950181020501"
        "0930093126ff0f751095028102c0050d0954257f75089501810285020955250ab102c005010906"
        "a1018503050719e029e715002501750195088102750895018103190029651500256575089506"
        "810085041904291e150025017501951b810295058103c0")
# The word's keys: HID usages (Keyboard page) and evdev codes.
WORD = {"s": (0x16, 31), "e": (0x08, 18), "c": (0x06, 46), "r": (0x15, 19), "t": (0x17, 20)}
EV_KEY, EV_MSC = 1, 4

problems = []


def expect(cond, what):
    if not cond:
        problems.append(what)
    return cond


def touch(tip, x):
    return bytes([1, tip, 0, x & 0xff, x >> 8, 0xe8, 0x03, 1])


def keys(*letters):
    slots = [WORD[c][0] for c in letters] + [0] * (6 - len(letters))
    return bytes([3, 0, 0] + slots)


def make(path):
    reports = [touch(1, 1000), keys("s"), keys(), touch(1, 1100), keys("e"), keys(),
               keys("c"), keys("c", "r"), keys("r"), keys(), touch(1, 1200), keys("e"),
               keys(), keys("t"), keys(), touch(0, 1200)]
    desc = bytes.fromhex(DESC)
    with open(path, "w") as f:
        f.write("N: %s\nI: 18 1234 5678\n" % NAME)
        f.write("R: %d %s\n" % (len(desc), " ".join("%02x" % b for b in desc)))
        for i, r in enumerate(reports):
            f.write("E: %06d.%06d %d %s\n" % (0, i * 10000, len(r), " ".join("%02x" % b for b in r)))


def load(path):
    with open(path) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    return recs[0], recs[1:]


def sent_reports(log):
    with open(log) as f:
        return [w[2] for w in (line.split() for line in f) if w[0] == "input"]


def hid_reports(recs):
    hids = [r for r in recs if r.get("type") == "hid_device" and r["name"] == NAME]
    if not expect(len(hids) == 1, "%d hid_device records named %r" % (len(hids), NAME)):
        return None, []
    h = hids[0]
    return h, [r["data"] for r in recs if r.get("type") == "hid" and r["dev"] == h["id"]]


def held(report):
    """The keys a keyboard report holds: its nonzero slots."""
    return [b for b in bytes.fromhex(report)[3:] if b]


def key_events(recs, want_keyboard=True):
    """Every EV_KEY and EV_MSC event of the combined device's keyboard nodes
    (the kernel may make more than one; --hid records every evdev device
    of the HID device)."""
    ids = [d["id"] for d in recs if d.get("type") == "device" and d["name"] == NAME + " Keyboard"]
    if not expect(len(ids) >= 1, "%d keyboard device records" % len(ids)):
        return [], []
    evs = [e for f in recs if f.get("type") == "frame" and f["dev"] in ids for e in f["ev"]]
    return [e for e in evs if e[0] == EV_KEY], [e for e in evs if e[0] == EV_MSC]


def check_shown(header, recs, sent):
    expect(header.get("keycodes_masked") is False, "--show-keycodes: keycodes_masked is not false")
    _, got = hid_reports(recs)
    expect(got == sent, "--show-keycodes: %d reports recorded, %d sent, or not the same bytes" %
           (len(got), len(sent)))
    typed = {u for r in got if r.startswith("03") for u in held(r)}
    expect(typed == {u for u, _ in WORD.values()}, "--show-keycodes: keys %s in the reports" % sorted(typed))
    codes = {e[1] for e in key_events(recs)[0]}
    expect(codes >= {c for _, c in WORD.values()}, "--show-keycodes: evdev keys %s" % sorted(codes))


def check_masked(header, recs, sent, shown_recs):
    expect(header.get("keycodes_masked") is True, "keycodes_masked is not true")
    h, got = hid_reports(recs)
    if not expect(len(got) == len(sent), "%d reports recorded, %d sent" % (len(got), len(sent))):
        return
    for r, s in zip(got, sent):
        if s.startswith("01"):
            expect(r == s, "a touch report changed: %s, sent %s" % (r, s))
        else:
            expect(len(held(r)) == len(held(s)), "report %s holds another number of keys than %s" % (r, s))
            leaked = set(held(r)) & {u for u, _ in WORD.values()}
            expect(not leaked, "report %s holds the typed keys %s" % (r, sorted(leaked)))
    keys_m, msc_m = key_events(recs)
    keys_s, _ = key_events(shown_recs)
    leaked = {e[1] for e in keys_m} & {c for _, c in WORD.values()}
    expect(not leaked, "evdev keys %s in the masked recording" % sorted(leaked))
    for value in (0, 1):
        n_m = sum(1 for e in keys_m if e[2] == value)
        n_s = sum(1 for e in keys_s if e[2] == value)
        expect(n_m == n_s and n_m >= 6, "%d key events of value %d masked, %d shown" % (n_m, value, n_s))
    expect(all(e[2] == 0 for e in msc_m), "MSC_SCAN values left in the masked recording")
    for d in [h] + [d for d in recs if d.get("type") == "device" and d["name"].startswith(NAME)]:
        if d:
            expect(d.get("phys") == "xx:xx:xx:xx:xx:xx", "%s: phys %r" % (d["name"], d.get("phys")))


def check(masked, shown, log):
    sent = sent_reports(log)
    expect(len(sent) == 16, "%d reports sent, want 16" % len(sent))
    shown_header, shown_recs = load(shown)
    check_shown(shown_header, shown_recs, sent)
    header, recs = load(masked)
    check_masked(header, recs, sent, shown_recs)


def main():
    if sys.argv[1] == "make":
        make(sys.argv[2])
        return
    check(*sys.argv[2:5])
    for p in problems:
        print("record-hid-keys: %s" % p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
