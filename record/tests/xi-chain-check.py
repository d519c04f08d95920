#!/usr/bin/env python3
"""The touches and the checks of record/tests/xi-chain-vm.sh.

Usage: xi-chain-check.py gen DIR     the touches as evemu-play sequences in DIR
       xi-chain-check.py check DIR   the recordings' assertions

Every assertion is on the recorded records and on analyze --json's
ownership chains (xi_chains); a failed one prints what was seen.
"""
import json
import sys

FRAME_MS = 16
failures = []


def gen(fingers, frames):
    """Fingers go down one per frame (slot i, tracking ID 100+i), all stay
    FRAMES frames moving, then lift one per frame in the same order."""
    f = 0
    lines = []

    def ev(t, c, v):
        lines.append("E: %.6f %04x %04x %d" % (f * FRAME_MS / 1000.0, t, c, v))

    def syn():
        nonlocal f
        ev(0, 0, 0)
        f += 1

    for i in range(fingers):
        ev(3, 47, i), ev(3, 57, 100 + i), ev(3, 53, 300 + i * 350), ev(3, 54, 1000 + i * 150)
        if i == 0:
            ev(1, 330, 1), ev(3, 0, 300), ev(3, 1, 1000)
        syn()
    for m in range(1, frames + 1):
        for i in range(fingers):
            ev(3, 47, i), ev(3, 53, 300 + i * 350 + m * 9), ev(3, 54, 1000 + i * 150 + m * 17)
        ev(3, 0, 300 + m * 9), ev(3, 1, 1000 + m * 17)
        syn()
    for i in range(fingers):
        ev(3, 47, i), ev(3, 57, -1)
        if i == fingers - 1:
            ev(1, 330, 0)
        syn()
    return "\n".join(lines) + "\n"


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def load(out, name):
    with open(f"{out}/{name}.jsonl") as f:
        recs = [dict(json.loads(line), _line=n) for n, line in enumerate(f, 1)]
    with open(f"{out}/{name}.analyze.json") as f:
        report = json.load(f)
    return recs, report


def line_of(recs, rec):
    return rec["_line"]


def touches(recs):
    """The XI touch ids, in begin order (the observer's raw events reach it
    whoever owns the touch)."""
    return [r["detail"] for r in recs if r.get("type") == "xi" and r["xi"] == "RawTouchBegin"]


def of(recs, client, touch, kind=None):
    """CLIENT's records about TOUCH (touch events by detail, ownership and
    requests by touchid), optionally of one kind."""
    res = []
    for r in recs:
        if r.get("type") != "xi" or r.get("client") != client or (kind and r["xi"] != kind):
            continue
        tid = r.get("touchid") if r["xi"] in ("TouchOwnership", "AcceptTouch", "RejectTouch") else \
            r.get("detail") if r["xi"].startswith("Touch") else None
        if tid == touch:
            res.append(r)
    return res


def one(name, recs, client, touch, kind):
    rs = of(recs, client, touch, kind)
    if len(rs) != 1:
        fail(f"{name}: touch {touch}: {client} got {len(rs)} {kind}, expected 1")
        return None
    return rs[0]


def chain_of(name, report, touch):
    cs = [c for c in report["xi_chains"] if c["touchid"] == touch]
    if len(cs) != 1:
        fail(f"{name}: touch {touch}: {len(cs)} chains in analyze's report")
        return None
    return cs[0]


def check_grab(name, recs, touch, client, mode, delay_ms, prev):
    """One grab of the chain, offered the touch after PREV (the previous
    grab's decision record, None for the first); returns its decision."""
    begin = one(name, recs, client, touch, "TouchBegin")
    kind = "AcceptTouch" if mode == "accept" else "RejectTouch"
    decision = one(name, recs, client, touch, kind)
    if not begin or not decision:
        return None
    # A grab without TouchOwnership in its mask gets the touch only as owner.
    if prev and begin["t"] < prev["t"]:
        fail(f"{name}: touch {touch}: {client}'s TouchBegin at {begin['t']} before the "
             f"previous grab's decision at {prev['t']}")
    if decision["t"] - begin["t"] < delay_ms * 1000:
        fail(f"{name}: touch {touch}: {client} decided {decision['t'] - begin['t']} us after its "
             f"TouchBegin, sooner than {delay_ms} ms")
    if mode == "reject" and not [e for e in of(recs, client, touch, "TouchEnd") if e["t"] >= decision["t"]]:
        fail(f"{name}: touch {touch}: {client} got no TouchEnd after its reject")
    return decision


def check_window(name, recs, touch, last, owner):
    """The listener: TouchOwnership only after every grab rejected, never
    when one accepted; its TouchEnd either way."""
    own = of(recs, "window", touch, "TouchOwnership")
    end = of(recs, "window", touch, "TouchEnd")
    if owner != "window":
        if own:
            fail(f"{name}: touch {touch}: the window got TouchOwnership though {owner} accepted")
        if of(recs, "window", touch, "TouchBegin") and not end:
            fail(f"{name}: touch {touch}: the window's sequence has no TouchEnd")
        return
    if len(own) != 1 or len(end) != 1:
        fail(f"{name}: touch {touch}: the window got {len(own)} TouchOwnership, {len(end)} TouchEnd")
        return
    if last and own[0]["t"] < last["t"]:
        fail(f"{name}: touch {touch}: the window's TouchOwnership at {own[0]['t']} before the last "
             f"reject at {last['t']}")
    if end[0]["t"] < own[0]["t"]:
        fail(f"{name}: touch {touch}: the window's TouchEnd before its TouchOwnership")


def check_analyze(name, report, touch, expect):
    """analyze's chain: the clients and decisions EXPECT [(client,
    decision, delay_ms)], each stage owned at least the earlier
    decisions' delays after the one before, in the protocol's order."""
    c = chain_of(name, report, touch)
    if not c:
        return
    got = [(s["client"], s["decision"]) for s in c["stages"]]
    if got != [(e[0], e[1]) for e in expect]:
        fail(f"{name}: touch {touch}: analyze's chain {got} ({c['chain']}), expected {expect}")
        return
    stages = c["stages"]
    for k in range(1, len(stages)):
        gap = stages[k]["delay_us"] - stages[k - 1]["delay_us"]
        if gap < expect[k - 1][2] * 1000:
            fail(f"{name}: touch {touch}: {stages[k]['client']} owned {gap} us after "
                 f"{stages[k - 1]['client']}, less than its {expect[k - 1][2]} ms decision")
        if stages[k]["delay_us"] < sum(w["decision_us"] for w in stages[k]["waited"]):
            fail(f"{name}: touch {touch}: {stages[k]['client']}'s delay is less than what it waited for")
    if any(s["order"] != "ok" for s in stages):
        fail(f"{name}: touch {touch}: stages out of order: {[s['order'] for s in stages]}")
    if c.get("kernel") is None:
        fail(f"{name}: touch {touch}: analyze linked no kernel touch")


def check_chain(out, name, grabs):
    """GRABS [(client, mode, delay_ms)] outermost first, then the window."""
    recs, report = load(out, name)
    ts = touches(recs)
    if len(ts) != 1:
        fail(f"{name}: {len(ts)} touches, expected 1")
    for t in ts:
        prev = None
        expect = []
        owner = "window"
        for client, mode, delay in grabs:
            prev = check_grab(name, recs, t, client, mode, delay, prev)
            expect.append((client, mode, delay))
            if mode == "accept":
                owner = client
                break
        for client, _, _ in grabs[len(expect):]:
            if of(recs, client, t):
                fail(f"{name}: touch {t}: {client} saw a touch {owner} accepted before it")
        check_window(name, recs, t, prev, owner)
        if owner == "window":
            expect.append(("window", "none", 0))
        check_analyze(name, report, t, expect)
    if [a for a in report["anomalies"] if a["kind"] == "ownership-order"]:
        fail(f"{name}: analyze found the ownership order broken")


def check_pending(out, name):
    """The finger lifts 50 ms in; the grab rejects 400 ms after its begin."""
    recs, report = load(out, name)
    for t in touches(recs):
        rej = one(name, recs, "grab", t, "RejectTouch")
        gend = one(name, recs, "grab", t, "TouchEnd")
        own = one(name, recs, "window", t, "TouchOwnership")
        wend = one(name, recs, "window", t, "TouchEnd")
        pend = [r for r in of(recs, "window", t, "TouchUpdate") if "pending_end" in r.get("flags", [])]
        if not (rej and gend and own and wend):
            continue
        if gend["t"] > rej["t"]:
            fail(f"{name}: touch {t}: the owner's TouchEnd came after its reject, not at the lift")
        if not pend or pend[0]["t"] > rej["t"]:
            fail(f"{name}: touch {t}: the window got no pending_end TouchUpdate before the reject")
        if own["t"] < rej["t"] or wend["t"] < own["t"]:
            fail(f"{name}: touch {t}: the window's TouchOwnership/TouchEnd not after the reject")
        check_analyze(name, report, t, [("grab", "reject", 400), ("window", "pending-end", 0)])


def check_pointer(out, name, grab_mode):
    """The first touch emulates the pointer: its pointer events go to the
    pointer client's grab, which takes the touch from the window (a
    listener: TouchBegin, then TouchEnd at the grab's ButtonPress, never
    TouchOwnership, while the finger is still down); the window owns the
    second touch."""
    recs, report = load(out, name)
    ts = touches(recs)
    mine = [r for r in recs if r.get("type") == "xi" and r.get("client") == "pointer"]
    reqs = [r for r in mine if r["xi"] in ("GrabDevice", "AllowEvents", "UngrabDevice")]
    evs = [r for r in mine if r["xi"] in ("Motion", "ButtonPress", "ButtonRelease")]
    if len(ts) != 2:
        fail(f"{name}: {len(ts)} touches, expected 2")
        return
    if not reqs or reqs[0]["xi"] != "GrabDevice" or reqs[0]["detail"] != grab_mode:
        fail(f"{name}: the pointer client's first request is not GrabDevice mode {grab_mode}: {reqs[:1]}")
    presses = [r for r in evs if r["xi"] == "ButtonPress"]
    releases = [r for r in evs if r["xi"] == "ButtonRelease"]
    if len(presses) != 1 or len(releases) != 1 or not [r for r in evs if r["xi"] == "Motion"]:
        fail(f"{name}: the pointer client got {len(presses)} presses, {len(releases)} releases, "
             f"{len(evs)} pointer events")
        return
    if any("pointer_emulated" not in r.get("flags", []) for r in evs):
        fail(f"{name}: a pointer event without the pointer_emulated flag")
    ungrab = [r for r in reqs if r["xi"] == "UngrabDevice"]
    if len(ungrab) != 1 or ungrab[0]["t"] < releases[0]["t"]:
        fail(f"{name}: not one UngrabDevice after the ButtonRelease: {ungrab}")
    if grab_mode == 0:	# XIGrabModeSync: thawed at the start and at the press
        allow = [r for r in reqs if r["xi"] == "AllowEvents" and r["detail"] == 1]
        if len(allow) < 2 or allow[0]["t"] > presses[0]["t"] or allow[-1]["t"] < presses[0]["t"]:
            fail(f"{name}: the sync grab's AllowEvents(XISyncDevice) not before and after the press")
    if of(recs, "window", ts[0], "TouchOwnership"):
        fail(f"{name}: the window owned the first touch, the pointer grab's")
    lost = of(recs, "window", ts[0], "TouchEnd")
    if lost and not presses[0]["t"] <= lost[0]["t"] <= releases[0]["t"]:
        fail(f"{name}: the window's TouchEnd of the first touch at {lost[0]['t']}, not between the "
             f"grab's ButtonPress and ButtonRelease")
    if not of(recs, "window", ts[1], "TouchBegin") or not of(recs, "window", ts[1], "TouchEnd"):
        fail(f"{name}: the window did not get the second touch")
    c = chain_of(name, report, ts[1])
    # A sole owner that selected TouchOwnership learns it from that event.
    if c and [(s["client"], s["decision"], s["owned_by"] in ("touch-begin", "touch-ownership"))
              for s in c["stages"]] != [("window", "none", True)]:
        fail(f"{name}: analyze's chain of the second touch: {c['chain']}")
    c = chain_of(name, report, ts[0])
    if c and [(s["client"], s["decision"], s["owned_by"]) for s in c["stages"]] != \
            [("pointer", "accept", "button-press")]:
        fail(f"{name}: analyze's chain of the first touch: {c['chain']}, expected the pointer grab to own "
             f"it from its ButtonPress and accept it (the window never got TouchOwnership)")
    elif c and c["stages"][0]["owned_line"] != line_of(recs, presses[0]):
        fail(f"{name}: the pointer stage is not owned at the ButtonPress's line")


def check_select(out, name):
    """Two grabs reject; below them no window selects touch events, the
    pointer client's selects pointer events on grab2's window: it gets the
    emulated pointer events, the ButtonPress only once both grabs rejected
    (the Motion to the touch's place may come first: Xorg moves the sprite
    at the TouchBegin)."""
    recs, report = load(out, name)
    ts = touches(recs)
    mine = [r for r in recs if r.get("type") == "xi" and r.get("client") == "pointer"]
    presses = [r for r in mine if r["xi"] == "ButtonPress"]
    releases = [r for r in mine if r["xi"] == "ButtonRelease"]
    if len(ts) != 1 or len(presses) != 1 or len(releases) != 1:
        fail(f"{name}: {len(ts)} touches, the pointer client got {len(presses)} presses, "
             f"{len(releases)} releases")
        return
    if [r for r in mine if r["xi"] in ("GrabDevice", "AllowEvents", "UngrabDevice")]:
        fail(f"{name}: the selecting pointer client sent grab requests")
    if any("pointer_emulated" not in r.get("flags", []) for r in mine):
        fail(f"{name}: a pointer event without the pointer_emulated flag")
    rej = one(name, recs, "grab2", ts[0], "RejectTouch")
    if rej and presses[0]["t"] < rej["t"]:
        fail(f"{name}: the pointer client's ButtonPress at {presses[0]['t']}, before grab2's "
             f"reject at {rej['t']}")
    check_analyze(name, report, ts[0], [("grab1", "reject", 0), ("grab2", "reject", 0), ("pointer", "accept", 0)])


def check(out):
    check_chain(out, "rr2", [("grab1", "reject", 30), ("grab2", "reject", 30)])
    check_chain(out, "ra2", [("grab1", "reject", 30), ("grab2", "accept", 30)])
    check_chain(out, "ar2", [("grab1", "accept", 0), ("grab2", "reject", 0)])
    check_chain(out, "rrr3", [("grab1", "reject", 20), ("grab2", "reject", 20), ("grab3", "reject", 20)])
    check_chain(out, "rra3", [("grab1", "reject", 20), ("grab2", "reject", 20), ("grab3", "accept", 0)])
    check_pending(out, "pend")
    check_pointer(out, "pasync", 1)
    check_pointer(out, "psync", 0)
    check_select(out, "psel")
    if failures:
        sys.exit(1)
    print("all chain checks passed")


if __name__ == "__main__":
    if sys.argv[1] == "gen":	# one python start: slow under TCG
        for name, fingers, frames in (("long", 1, 40), ("tap", 1, 3), ("two", 2, 20)):
            with open(f"{sys.argv[2]}/{name}.events", "w") as f:
                f.write(gen(fingers, frames))
    else:
        check(sys.argv[2])
