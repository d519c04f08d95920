#!/usr/bin/env python3
"""Checks for tests/wayland-sway-vm.sh (record --wayland under sway).

Usage: wayland-sway-vm-check.py pinch DIR | touch DIR

pinch: DIR/pinch.jsonl (record --wayland of the corpus two-finger pinch
out, with the kernel touchpad) has the seat's pointer capability, and one
or more zwp_pointer_gesture_pinch_v1 begin, update..., end with 2 fingers
and a scale that grows; every pinch event's time_ms is a kernel frame's
(ms of CLOCK_MONOTONIC) and it was received after that frame.
touch: DIR/ts.jsonl (record --wayland of the touchscreen sample) has one
wl_touch down...up per kernel touch, at the kernel position scaled onto
the output and a kernel frame's time, on the layer-shell overlay the
recorder maps where the compositor offers it, and DIR/ts.analyze.json
links them.
The parsing of kernel frames and wl_touch records is
tests/wayland-vm-check.py's.
"""
import importlib.util
import json
import statistics
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "wvc", os.path.join(os.path.dirname(os.path.abspath(__file__)), "wayland-vm-check.py"))
wvc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wvc)
fail, load = wvc.fail, wvc.load
PINCH = "zwp_pointer_gesture_pinch_v1"


def frame_times(recs):
    """Kernel frame time (ms, as the compositor stamps events) -> the
    first such frame's t (µs, the file's clock)."""
    mono = recs[0]["start"]["monotonic_us"]
    out = {}
    for r in recs:
        if r.get("type") == "frame":
            out.setdefault(((mono + r["t"]) // 1000) & 0xFFFFFFFF, r["t"])
    return out


def check_pinch_times(evs, frames):
    unlinked = [e for e in evs if e.get("time_ms") is not None and e["time_ms"] not in frames]
    early = [e for e in evs if e.get("time_ms") in frames and e["t"] < frames[e["time_ms"]]]
    if unlinked:
        fail(f"{len(unlinked)} pinch events with no kernel frame at their time_ms "
             f"(first {unlinked[0]})")
    if early:
        fail(f"{len(early)} pinch events received before their kernel frame")
    lat = sorted(e["t"] - frames[e["time_ms"]] for e in evs if e.get("time_ms") in frames)
    if lat:
        print(f"# pinch: kernel frame -> recorder: min {lat[0] / 1000:.1f} ms, "
              f"median {statistics.median(lat) / 1000:.1f} ms, max {lat[-1] / 1000:.1f} ms over {len(lat)}")


def pinch(d):
    recs = load(f"{d}/pinch.jsonl")
    caps = [r["capabilities"] for r in recs
            if r.get("type") == "wl" and r.get("wl") == "wl_seat" and r.get("ev") == "capabilities"]
    print(f"# seat capabilities, in order: {caps}")
    if not any("pointer" in c for c in caps):
        fail("the seat never announced the pointer capability for the touchpad")
    evs = [r for r in recs if r.get("type") == "wl" and r.get("wl") == PINCH]
    kinds = [e["ev"] for e in evs]
    begins, ends = kinds.count("begin"), kinds.count("end")
    upd = [e for e in evs if e["ev"] == "update"]
    print(f"# pinch: {begins} begin, {len(upd)} update, {ends} end; fingers "
          f"{sorted({e.get('fingers') for e in evs if e['ev'] == 'begin'})}; scale "
          f"{upd[0]['scale'] if upd else None} .. {upd[-1]['scale'] if upd else None}")
    if not begins or begins != ends or not upd:
        fail(f"pinch events {kinds[:5]}...: want begin, update..., end")
        return
    if kinds[0] != "begin" or kinds[-1] != "end":
        fail(f"the pinch events start with {kinds[0]} and end with {kinds[-1]}")
    if any(e.get("fingers") != 2 for e in evs if e["ev"] == "begin"):
        fail("a pinch begin without 2 fingers")
    if upd[-1]["scale"] <= 1 or max(e["scale"] for e in upd) <= upd[0]["scale"]:
        fail(f"a pinch out whose scale does not grow ({upd[0]['scale']} .. {upd[-1]['scale']})")
    check_pinch_times(evs, frame_times(recs))


def touch(d):
    recs = load(f"{d}/ts.jsonl")
    kt = wvc.kernel_touches(recs)
    seqs = wvc.wl_records_sequences(recs)
    tail = [r["ev"] for r in recs if r.get("type") == "wl" and r.get("wl") == "wl_touch"][-3:]
    print(f"# kernel touches {len(kt)}, wl_touch sequences {len(seqs)}; the last wl_touch "
          f"events {tail}")
    if not kt or len(seqs) != len(kt):
        fail(f"{len(seqs)} wl_touch sequences for {len(kt)} kernel touches")
        return
    # sway offers layer-shell: the recorder's surface is the overlay,
    # configured to the whole output.
    size = wvc.wl_output_size(recs)
    conf = [r.get("size") for r in recs if r.get("wl") == "zwlr_layer_surface_v1" and r.get("ev") == "configure"]
    connected = [r["text"] for r in recs if r.get("kind") == "wayland-connected"]
    print(f"# overlay configures {conf}; {connected}")
    if not conf or list(conf[-1]) != list(size) or \
            not any(f"overlay layer surface {size[0]}x{size[1]}" in t for t in connected):
        fail(f"the recorder's surface is not the overlay over the {size} output")
    # The overlay covers the output: surface coordinates are the
    # output's, libinput's scaling of the kernel position.
    dev = next(r for r in recs if r.get("type") == "device")
    wvc.check_positions(kt, [{"x": s["xy"][0], "y": s["xy"][1]} for s in seqs], dev,
                        wvc.wl_output_size(recs))
    frames = frame_times(recs)
    stray = [s["time_ms"] for s in seqs if s["time_ms"] not in frames]
    if stray:
        fail(f"wl_touch downs at time_ms {stray}: no kernel frame then")
    with open(f"{d}/ts.analyze.json") as f:
        w = json.load(f).get("wayland") or {}
    print(f"# analyze: wayland touches {w.get('touches')}, linked {w.get('linked')}, "
          f"latency {w.get('latency_us')}")
    if (w.get("touches"), w.get("linked"), w.get("unlinked")) != (len(kt), len(kt), 0):
        fail(f"analyze linked {w.get('linked')} of {w.get('touches')} wl touches "
             f"for {len(kt)} kernel touches")


def main():
    what, d = sys.argv[1], sys.argv[2]
    {"pinch": pinch, "touch": touch}[what](d)
    sys.exit(1 if wvc.failures else 0)


if __name__ == "__main__":
    main()
