#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes hand-made hostile recordings for tests/hostile-recordings.sh.

Usage: hostile-recordings.py OUTDIR

Every file is made at test time (nothing big is committed). OUTDIR gets
the files and cases.tsv, one line per file:

    NAME <TAB> CLASS <TAB> TIER <TAB> LINES

CLASS says what the commands must make of the file (the shell test maps
it to exit statuses):
  bad        the reader refuses lines: each of LINES gets a FILE:LINE:
             message, every command fails
  semantic   every line reads, but the recording breaks the format's
             rules (time backwards, a device declared twice, codes the
             device lacks): validate and replay fail with FILE:LINE:
             messages, the viewers and converters show it
  warn       accepted with a FILE:LINE: warning (LINES)
  ok         accepted as it is: hostile bytes that are harmless
  nodev      a valid recording of nothing: a header without devices
  unreadable not a recording at all: a message without a line
  hbad, hsem, hok          bad, semantic, ok for a file of the HID layer
                           alone (a hid-recorder file)
  hidbad, hidsem, hidok    the same for a timeline of both layers
TIER: "all" (every command, plain and sanitized build), "big" (every
command; the sanitized build only validates) or "huge" (only validate:
the million-record files whose smaller copies are "big").
LINES: comma-separated line numbers that must appear in messages
(validate --max 0 lists them all, the other commands at least the
first), or "-".
"""
import os
import random
import sys

out = sys.argv[1]
cases = []
MiB = 1024 * 1024
# A device name with invalid UTF-8 and control characters (ESC, BEL).
HID_BAD_NAME = b"bad \xff\xfe\xc0\xaf utf8 \x1b[2J esc\x07 bel"


def write(name, data, cls, lines=(), tier="all"):
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    cases.append((name, cls, tier, ",".join(str(n) for n in lines) or "-"))


def join(lines):
    """Lines (str or bytes) as bytes, each ended by a newline."""
    return b"".join((l.encode() if isinstance(l, str) else l) + b"\n" for l in lines)


# ---- the touchtape timeline ----

HDR = '{"format":"touchtape-timeline","version":1,"start":{"monotonic_us":0,"realtime_us":0}}'
DEV = ('{"type":"device","id":0,"name":"hostile touchscreen","input_id":{"bustype":3,"vendor":1,'
       '"product":2,"version":3},"properties":["INPUT_PROP_DIRECT"],"codes":{"EV_SYN":["SYN_REPORT"],'
       '"EV_KEY":["BTN_TOUCH"],"EV_ABS":["ABS_X","ABS_Y","ABS_MT_SLOT","ABS_MT_POSITION_X",'
       '"ABS_MT_POSITION_Y","ABS_MT_TRACKING_ID"]},"absinfo":{"ABS_X":{"min":0,"max":1000,"resolution":10},'
       '"ABS_Y":{"min":0,"max":1000,"resolution":10},"ABS_MT_SLOT":{"min":0,"max":1},'
       '"ABS_MT_POSITION_X":{"min":0,"max":1000,"resolution":10},'
       '"ABS_MT_POSITION_Y":{"min":0,"max":1000,"resolution":10},'
       '"ABS_MT_TRACKING_ID":{"min":0,"max":65535}},"mt":{"protocol":"B","slots":2}}')
# A touch down, a move and a release: a valid, replayable recording.
FRAMES = [
    '{"type":"frame","dev":0,"t":1000,"ev":[[3,47,0],[3,57,5],[3,53,100],[3,54,200],[1,330,1],[3,0,100],[3,1,200],[0,0,0]]}',
    '{"type":"frame","dev":0,"t":9000,"ev":[[3,53,110],[3,54,210],[3,0,110],[3,1,210],[0,0,0]]}',
    '{"type":"frame","dev":0,"t":17000,"ev":[[3,57,-1],[1,330,0],[0,0,0]]}',
]


def frame(t, ev, dev=0):
    return '{"type":"frame","dev":%d,"t":%s,"ev":%s}' % (dev, t, ev)


def timeline(name, middle, cls="bad", tier="all"):
    """A valid recording with @middle between its device and its
    frames: lines 3 and on, each one at fault."""
    lines = range(3, 3 + len(middle)) if cls in ("bad", "semantic") else ()
    write(name, join([HDR, DEV] + middle + FRAMES), cls, lines, tier)


timeline("t-numbers.jsonl", [
    frame("99999999999999999999", "[[3,53,1]]"),
    frame("-99999999999999999999", "[[3,53,1]]"),
    frame("1e308", "[[3,53,1]]"),
    frame("1E3", "[[3,53,1]]"),
    frame("4611686018427387905", "[[3,53,1]]"),
    frame(5, "[[3,53,2147483648],[0,0,0]]"),
    frame(5, "[[3,53,-2147483649],[0,0,0]]"),
    frame(5, "[[3,53,1,99999999999],[0,0,0]]"),
    frame(5, "[[3,53,1.5],[0,0,0]]"),
    frame(5, "[[3,53,1e2],[0,0,0]]"),
    frame(5, "[[3,53,1]]", dev=4294967296),
    frame(5, "[[3,53,1]]").replace('"dev":0', '"dev":18446744073709551616'),
    DEV.replace('"id":0', '"id":18446744073709551615'),
    DEV.replace('"bustype":3', '"bustype":65536'),
    DEV.replace('"max":1000,"resolution":10},"ABS_Y"', '"max":2147483648},"ABS_Y"'),
    '{"type":"marker","t":1e400,"kind":"note"}',
    '{"type":"xi","xi":"TouchBegin","t":1,"root_x":1e308}',
])
timeline("t-nan.jsonl", [
    frame(0, "[[3,53,NaN],[0,0,0]]"),
    frame(0, "[[3,53,Infinity],[0,0,0]]"),
    frame(0, "[[3,53,-Infinity],[0,0,0]]"),
    frame(0, '[[3,53,"nan"],[0,0,0]]'),
    frame(0, "[[3,53,nan],[0,0,0]]"),
    frame("NaN", "[[3,53,1]]"),
    frame(0, "[[3,53,1]]", dev=-1),
    DEV.replace('"id":0', '"id":-1'),
    DEV.replace('"slots":2', '"slots":-1'),
    '{"type":"xi","xi":"TouchBegin","t":1,"root_x":NaN}',
    '{"type":"xi","xi":"TouchBegin","t":1,"deviceid":-1}',
    '{"type":"xi","xi":"TouchBegin","t":1,"valuators":{"0":Infinity}}',
    '{"type":"xi","xi":"TouchBegin","t":1,"valuators":{"-1":5}}',
])
timeline("t-types.jsonl", [
    '[1,2,3]',
    '42',
    '"frame"',
    'null',
    '{"type":5}',
    '{"type":"frame","dev":"0","t":1,"ev":[]}',
    '{"type":"frame","dev":true,"t":1,"ev":[]}',
    '{"type":"frame","dev":0,"t":"10","ev":[]}',
    '{"type":"frame","dev":0,"t":1,"ev":{}}',
    '{"type":"frame","dev":0,"t":1,"ev":[3,53,1]}',
    '{"type":"frame","dev":0,"t":1,"ev":[[3,53]]}',
    '{"type":"frame","dev":0,"t":1,"ev":[[3,53,1,2,3]]}',
    '{"type":"frame","dev":0,"t":1,"ev":[[null,53,1]]}',
    '{"type":"frame","dev":0,"t":1,"ev":[[3,53,"1"]]}',
    '{"type":"frame","dev":0,"t":1,"ev":[[3,53,1]],"dropped":"yes"}',
    '{"type":"frame","dev":0,"t":1}',
    DEV.replace('"codes":{', '"codes":[').replace(']},"absinfo"', ']],"absinfo"'),
    DEV.replace('"ABS_X":{"min":0,"max":1000,"resolution":10}', '"ABS_X":[0,1000]'),
    DEV.replace('"protocol":"B"', '"protocol":"C"'),
    DEV.replace('"slots":2', '"slots":100000'),
    DEV.replace('"name":"hostile touchscreen"', '"name":["a"]'),
    DEV.replace('"input_id":{"bustype":3,"vendor":1,"product":2,"version":3}', '"input_id":[3,1,2,3]'),
    '{"type":"xi","xi":"TouchBegin","t":1,"valuators":[1,2]}',
    '{"type":"xi","xi":"TouchBegin","t":1,"raw":{"0":1}}',
    '{"type":"xi","xi":"TouchBegin","t":1,"mods":[1,2]}',
    '{"type":"xi","xi":"NoSuchEvent","t":1}',
    '{"type":"xi_device","deviceid":2,"name":"x","valuators":{"a":1}}',
    '{"type":"marker","t":1,"kind":7}',
    '{"type":"frame","dev":0,"t":1,"ev":[]} {"type":"frame","dev":0,"t":1,"ev":[]}',
    '{"type":"frame","dev":0,"t":1,"ev":[],}',
])
# Nesting far beyond the reader's 16 levels, closed and unclosed, as a
# record and inside one.
DEEP = 100000
timeline("t-nesting.jsonl", [
    "[" * DEEP,
    "[" * DEEP + "]" * DEEP,
    '{"a":' * DEEP,
    '{"a":' * DEEP + "1" + "}" * DEEP,
    frame(1, "[" * DEEP + "]" * DEEP),
    '{"type":"device","id":1,"x":' + '{"a":' * DEEP + "1" + "}" * DEEP + "}",
])
# Lines within the 4 MiB limit made of nothing but tiny values: as a
# json-c tree each [] or {} would cost a hundred times its bytes.
timeline("t-manyvalues.jsonl", [
    '{"type":"future","x":[' + "[]," * (4 * MiB // 3 - 20) + '[]]}',
    '{"type":"future","x":[' + "{}," * (4 * MiB // 3 - 20) + '{}]}',
    '{"type":"future","x":[' + "0," * (4 * MiB // 2 - 20) + '0]}',
    '{"type":"future",' + ",".join('"k%d":0' % i for i in range(200000)) + '}',
    frame(1, "[" + "[]," * (4 * MiB // 3 - 20) + "[]]"),
], tier="big")
# A frame of a million events (8 MB: over the line limit), and frames
# just over the limit of 65536 events, canonical and spaced.
timeline("t-bigframe.jsonl", [
    frame(500, "[" + "[3,53,1]," * 1000000 + "[0,0,0]]"),
    frame(500, "[" + "[3,53,1]," * 65536 + "[0,0,0]]"),
    frame(500, "[" + "[3, 53, 1]," * 65536 + "[0,0,0]]"),
], tier="big")
# The largest frame a line may hold, spaced so it goes the json-c way:
# the value limits must let it through.
write("t-maxframe.jsonl", join([HDR, DEV, FRAMES[0],
    frame(5000, "[" + ", ".join(["[3, 53, %d, -1]" % (100 + i % 10) for i in range(65535)]) + ", [0, 0, 0, 0]]")]
    + FRAMES[1:]), "ok", tier="big")
# A 100 MB line: refused with its number, never held in memory, and the
# reader goes on after it.
timeline("t-longline.jsonl", ['{"type":"marker","t":1,"kind":"note","text":"' + "A" * (100 * MiB) + '"}'],
         tier="big")
# Types and codes out of range, in frames and in a device record.
timeline("t-ranges.jsonl", [
    frame(500, "[[32,0,0],[0,0,0]]"),
    frame(500, "[[3,1023,0],[0,0,0]]"),
    frame(500, "[[3,64,0],[0,0,0]]"),
    frame(500, "[[-1,0,0],[0,0,0]]"),
    frame(500, "[[3,-1,0],[0,0,0]]"),
    frame(500, "[[65536,0,0],[0,0,0]]"),
    frame(500, "[[1,768,0],[0,0,0]]"),
    frame(500, '[["EV_MAX",0,0],[0,0,0]]'),
    frame(500, '[["EV_NOPE",0,0],[0,0,0]]'),
    frame(500, '[[3,"0x3ff",0],[0,0,0]]'),
    frame(500, '[[3,"ABS_NOPE",0],[0,0,0]]'),
    frame(500, "[[5,0,0],[0,0,0]]"),
    DEV.replace('"EV_KEY":["BTN_TOUCH"]', '"EV_KEY":[768]'),
    DEV.replace('"EV_KEY":["BTN_TOUCH"]', '"32":[0]'),
    DEV.replace('"EV_KEY":["BTN_TOUCH"]', '"EV_KEY":[-1]'),
    DEV.replace('"ABS_X":{', '"0x3ff":{'),
    DEV.replace('"properties":["INPUT_PROP_DIRECT"]', '"properties":[32]'),
    DEV.replace('"slots":2', '"slots":257').replace('"ABS_MT_SLOT":{"min":0,"max":1}',
                                                   '"ABS_MT_SLOT":{"min":0,"max":256}'),
])
# Frames of a device no record declared: the reader refuses them.
timeline("t-undeclared.jsonl", [frame(500, "[[3,53,1],[0,0,0]]", dev=7),
                                frame(600, "[[3,53,1],[0,0,0]]", dev=4294967295)])
# Bytes that are not UTF-8 are refused; overlong forms and surrogates
# (lines 3 and 5) pass json-c and are sanitized to U+FFFD.
write("t-utf8.jsonl", join([HDR,
    DEV.replace("hostile touchscreen", "bad \xff\xfe utf8").encode("latin-1"),
    DEV.replace("hostile touchscreen", "overlong \xc0\xaf").encode("latin-1"),
    DEV.replace("hostile touchscreen", "cut \xe2\x82").encode("latin-1"),
    b'{"type":"marker","t":1,"kind":"note","text":"surrogate \xed\xa0\x80"}',
    b'{"type":"frame","dev":0,"t":1,"ev":[]}\xff',
]), "bad", [2, 4, 6])
timeline("t-nul.jsonl", [
    b'{"type":"frame","dev":0,"t":500,"ev":[[3,53,1],\x00[0,0,0]]}',
    b"\x00",
    b'{"type":"marker","t":1,"kind":"note","text":"a\x00b"}',
])
write("t-no-header.jsonl", join(FRAMES), "header", [1])
write("t-version.jsonl", join([HDR.replace('"version":1', '"version":99999999999999999999'), DEV] + FRAMES),
      "header", [1])
# Cut inside the header: an empty recording, with a warning.
write("t-truncated-header.jsonl", HDR[:30], "nodev", [1])
# A million device records (and 10000 for every command): 256
# are read, each further one is an error.
MINIDEV = ('{"type":"device","id":%d,"name":"d","input_id":{"bustype":3,"vendor":1,"product":2,"version":3},'
           '"codes":{"EV_KEY":["BTN_LEFT"]}}\n')
for n, name, tier in [(1000000, "t-manydevices-1m.jsonl", "huge"), (10000, "t-manydevices.jsonl", "big")]:
    write(name, HDR + "\n" + "".join(MINIDEV % i for i in range(n)), "bad", [2 + 256], tier)
# The same id declared again and again: the reader keeps at most 256
# replaced records and refuses the rest.
write("t-dupmany.jsonl", HDR + "\n" + MINIDEV % 0 * 1000, "bad", [2 + 257])

# Accepted line by line, wrong as a recording.
write("t-backwards.jsonl", join([HDR, DEV] + FRAMES[:2] + [
    frame(2000, "[[3,53,120],[0,0,0]]"),
    frame(-5000, "[[3,53,130],[0,0,0]]"),
    frame(-4611686018427387904, "[[3,53,140],[0,0,0]]"),
    FRAMES[2].replace('"t":17000', '"t":-4611686018427387000')]), "semantic", [5, 6, 7])
# The same id twice: the second replaces the first while readers of
# the first record may still hold it.
write("t-dupids.jsonl", join([HDR, DEV] + FRAMES[:1] + [
    DEV.replace("hostile touchscreen", "second device, same id").replace('"slots":2', '"slots":1')
       .replace('"ABS_MT_SLOT":{"min":0,"max":1}', '"ABS_MT_SLOT":{"min":0,"max":0}'),
    DEV] + FRAMES[1:]), "semantic", [4, 5])
# Codes the description lacks but the kernel can create: the device
# delivered them, so replay adds them to the device it creates ("added":
# validate's errors, replayed). One uinput cannot create (EV_FF needs a
# force-feedback driver) is refused.
write("t-undeclared-codes.jsonl", join([HDR, DEV] + FRAMES[:1] + [
    frame(2000, "[[3,48,5],[0,0,0]]"),
    frame(3000, "[[1,272,1],[0,0,0]]"),
    frame(4000, "[[2,0,1],[0,0,0]]")] + FRAMES[1:]), "added", [4, 5, 6])
write("t-ff-code.jsonl", join([HDR, DEV] + FRAMES[:1] + [
    frame(2000, "[[21,80,1],[0,0,0]]")] + FRAMES[1:]), "semantic", [4])
# Escapes are valid JSON: control characters, a NUL and a lone
# surrogate arrive in strings, and the reader sanitizes them.
write("t-escapes.jsonl", join([HDR,
    DEV.replace("hostile touchscreen", "esc \\u001b[2J\\u0000nul \\ud800 lone \\n nl"),
    '{"type":"marker","t":1,"kind":"note\\u0007","text":"\\u001b]0;title\\u0007"}'] + FRAMES), "ok")
# Cut in the middle of the last line: a warning, the rest is read.
write("t-truncated.jsonl", "\n".join([HDR, DEV] + FRAMES) + "\n" + FRAMES[0][:37], "warn", [6])
write("t-header-only.jsonl", HDR + "\n", "nodev")

# ---- not a recording at all ----

rnd = random.Random(11)
write("empty.jsonl", b"", "unreadable")
write("blank.jsonl", b"\n\n  \t\r\n", "unreadable")
garbage = bytes(rnd.getrandbits(8) for _ in range(200000))
for look_alike in [b"{", b"E:", b"N:", b"I:", b"D:", b"---", b"version", b"ndevices", b"#"]:
    garbage = garbage.replace(look_alike, b"?")
write("garbage.bin", garbage, "unreadable")

# ---- evemu ----

EDESC_LINES = [
    "# EVEMU 1.3",
    "N: hostile touchscreen",
    "I: 0003 0001 0002 0003",
    "P: 02 00 00 00 00 00 00 00",
    "B: 00 0b 00 00 00 00 00 00 00",
] + ["B: 01 00 %s 00 00 00 00 00 00" % ("04" if i == 5 else "00") for i in range(12)] + [
    "B: 03 03 00 00 00 00 80 60 02",
    "A: 00 0 1000 0 0 10",
    "A: 01 0 1000 0 0 10",
    "A: 2f 0 1 0 0 0",
    "A: 35 0 1000 0 0 10",
    "A: 36 0 1000 0 0 10",
    "A: 39 0 65535 0 0 0",
]
EDESC = "\n".join(EDESC_LINES) + "\n"
EEVENTS = [
    "E: 0.001000 0003 002f 0000",
    "E: 0.001000 0003 0039 0005",
    "E: 0.001000 0003 0035 0100",
    "E: 0.001000 0003 0036 0200",
    "E: 0.001000 0001 014a 0001",
    "E: 0.001000 0003 0000 0100",
    "E: 0.001000 0003 0001 0200",
    "E: 0.001000 0000 0000 0000",
    "E: 0.009000 0003 0035 0110",
    "E: 0.009000 0000 0000 0000",
    "E: 0.017000 0003 0039 -001",
    "E: 0.017000 0001 014a 0000",
    "E: 0.017000 0000 0000 0000",
]
FIRST = len(EDESC_LINES) + 9	# the line after the first frame


def evemu(name, middle, cls="bad", lines=None, tier="all", desc=EDESC, tail=True):
    """The description, the first frame, @middle (each line at fault
    unless @lines says which), then the other frames."""
    if lines is None:
        lines = range(FIRST, FIRST + len(middle)) if cls in ("bad", "semantic") else ()
    write(name, desc.encode() + join(EEVENTS[:8] + middle + (EEVENTS[8:] if tail else [])), cls, lines, tier)


evemu("e-numbers.evemu", [
    "E: 99999999999999999999.000000 0003 0035 0001",
    "E: 0.0000001 0003 0035 0001",
    "E: 0.002000 0003 0035 2147483648",
    "E: 0.002000 0003 0035 -2147483649",
    "E: 0.002000 00003 0035 1",
    "E: 0.002000 0003 00035 1",
    "E: 0.002000 0003 0035 1e3",
    "E: 0.002000 0003 0035 1.5",
    "E: 1e3.000000 0003 0035 1",
    "E: 18446744073709551616.000000 0003 0035 1",
    "E: 4611686018428.000000 0003 0035 1",
])
evemu("e-nan.evemu", [
    "E: nan 0003 0035 1",
    "E: 0.002000 0003 0035 nan",
    "E: 0.002000 0003 0035 NaN",
    "E: 0.002000 0003 0035 inf",
    "E: 0.002000 0003 0035 -inf",
    "E: inf.000000 0003 0035 1",
    "E: -1.000000 0003 0035 1",
    "E: 0.-00001 0003 0035 1",
    "E: 0.002000 -003 0035 1",
    "E: 0.002000 0003 -035 1",
])
evemu("e-types.evemu", [
    "E: 0.002000 EV_ABS ABS_MT_POSITION_X 1",
    "E: 0.002000 0003",
    "E:",
    "E: 0.002000 0003 0035 1 junk",
    "E: \"0.002000\" 0003 0035 1",
    "X: 0.002000 0003 0035 1",
    "N: a description line after the events",
])
# Types and codes out of range on event lines.
evemu("e-ranges.evemu", [
    "E: 0.002000 0020 0000 0",
    "E: 0.002000 0003 03ff 0",
    "E: 0.002000 0003 0040 0",
    "E: 0.002000 ffff 0000 0",
    "E: 0.002000 0001 0300 0",
    "E: 0.002000 0005 0000 0",
])
# The same, and NaN, huge and negative numbers, in description lines.
EBAD_DESC = [
    "A: 35 nan 0 0 0 0",
    "A: 35 0 99999999999 0 0 0",
    "A: 35 1000 0 0 0 0",
    "A: 3ff 0 1 0 0 0",
    "A: 35 -inf inf 0 0",
    "I: 123456 0001 0002 0003",
    "I: -001 0001 0002 0003",
    "B: 20 00 00 00 00 00 00 00 00",
    "B: 03 zz 00 00 00 00 00 00 00",
    "B: 03 100 00 00 00 00 00 00 00",
    "B: -3 00 00 00 00 00 00 00 00",
    "P: 00 00",
    "L: 3ff 1",
    "S: 00 nan",
]
evemu("e-desc.evemu", [], lines=range(len(EDESC_LINES) + 1, len(EDESC_LINES) + 1 + len(EBAD_DESC)),
      desc=EDESC + "\n".join(EBAD_DESC) + "\n")
# ABS_MT_SLOT's range makes a thousand slots: the device is refused.
evemu("e-slots.evemu", [], lines=[len(EDESC_LINES) + 1], desc=EDESC + "A: 2f 0 1000 0 0 0\n")
evemu("e-nul.evemu", [b"E: 0.002000 0003 0035 0\x001", b"\x00"])
cut = EDESC + "\n".join(EEVENTS)
write("e-truncated.evemu", cut[:len(cut) - 12], "bad", [len(EDESC_LINES) + len(EEVENTS)])
write("e-garbage.evemu", b"# EVEMU 1.3\nN: x\n" + garbage[:100000].replace(b"\n", b"\n#"), "bad", [3])
# A 100 MB comment line between events.
evemu("e-longline.evemu", ["# " + "A" * (100 * MiB)], tier="big")
# A million events without SYN_REPORT: one error at the 65537th event,
# the rest dropped in bounded memory, the last frame cut short.
evemu("e-bigframe.evemu", ["E: 0.002000 0003 0035 %04d" % (i % 1000) for i in range(1000000)],
      lines=[FIRST + 65536], tier="big", tail=False)
# A million descriptions (and a tenth for every command): evemu holds
# one device, each N: line renames it.
for n, name, tier in [(1000000, "e-manydevices-1m.evemu", "huge"), (100000, "e-manydevices.evemu", "big")]:
    write(name, b"# EVEMU 1.3\n" + b"N: device\nI: 0003 0001 0002 0003\n" * n +
          EDESC.split("\n", 2)[2].encode() + join(EEVENTS), "ok", tier=tier)
evemu("e-backwards.evemu", [
    "E: 0.002000 0003 0035 0120",
    "E: 0.002000 0000 0000 0000",
    "E: 0.000500 0003 0035 0130",
    "E: 0.000500 0000 0000 0000",
], "semantic", lines=[FIRST + 2])
evemu("e-undeclared.evemu", [
    "E: 0.002000 0003 0030 0005",
    "E: 0.002000 0000 0000 0000",
    "E: 0.003000 0001 0110 0001",
    "E: 0.003000 0000 0000 0000",
], "added", lines=[FIRST, FIRST + 2])
# A second description before the events: evemu has one device per
# file, later B: lines continue the bitmaps (warnings only).
evemu("e-twodesc.evemu", [], "ok", desc=EDESC + EDESC.replace("hostile touchscreen", "second"))
# Invalid UTF-8 and control characters in the name: sanitized.
write("e-utf8.evemu", EDESC.encode().replace(b"hostile touchscreen", b"bad \xff\xfe\xc0\xaf utf8 \x1b[2J esc\x07") +
      join(EEVENTS), "ok")

# ---- libinput record (YAML) ----

YHEAD = """version: 1
ndevices: 1
libinput:
  version: "1.23.0"
system:
  kernel: "6.1.0"
devices:
"""
YDEV = """- node: /dev/input/event5
  evdev:
    name: "hostile touchscreen"
    id: [3, 1, 2, 3]
    codes:
      0: [0]
      1: [330]
      3: [0, 1, 47, 53, 54, 57]
    absinfo:
      0: [0, 1000, 0, 0, 10]
      1: [0, 1000, 0, 0, 10]
      47: [0, 1, 0, 0, 0]
      53: [0, 1000, 0, 0, 10]
      54: [0, 1000, 0, 0, 10]
      57: [0, 65535, 0, 0, 0]
    properties: [1]
  hid: [0x05, 0x0d]
  events:
"""
YFRAMES = [
    "  - evdev:",
    "    - [  0,   1000, 3, 47, 0]",
    "    - [  0,   1000, 3, 57, 5]",
    "    - [  0,   1000, 3, 53, 100]",
    "    - [  0,   1000, 3, 54, 200]",
    "    - [  0,   1000, 1, 330, 1]",
    "    - [  0,   1000, 0, 0, 0]",
    "  - evdev:",
    "    - [  0,   9000, 3, 53, 110]",
    "    - [  0,   9000, 0, 0, 0]",
    "  - evdev:",
    "    - [  0,  17000, 3, 57, -1]",
    "    - [  0,  17000, 1, 330, 0]",
    "    - [  0,  17000, 0, 0, 0]",
]
YWHOLE = YHEAD + YDEV + "\n".join(YFRAMES) + "\n"
YFIRST = (YHEAD + YDEV).count("\n") + 8	# the line after the first frame


def nline(text, needle):
    """The number of the line of @text that holds @needle."""
    return text[:text.index(needle)].count("\n") + 1


def yaml(name, middle, cls="bad", lines=None, tier="all", head=YHEAD + YDEV, tail=True):
    """@middle: lines after the first frame, in the events list."""
    if lines is None:
        lines = range(YFIRST, YFIRST + len(middle)) if cls in ("bad", "semantic") else ()
    write(name, head.encode() + join(YFRAMES[:7] + middle + (YFRAMES[7:] if tail else [])), cls, lines, tier)


def yaml_events(name, events):
    """Each of @events in a frame of its own, each refused."""
    middle = []
    bad = []
    for e in events:
        middle += ["  - evdev:", "    - " + e]
        bad.append(YFIRST + len(middle) - 1)
    yaml(name, middle, lines=bad)


yaml_events("y-numbers.yml", [
    "[99999999999999999999, 0, 3, 53, 1]",
    "[0, 0, 3, 53, 99999999999999999999]",
    "[1e308, 0, 3, 53, 1]",
    "[0, 0, 3, 53, 1e3]",
    "[0, 0, 3, 53, 4294967296]",
    "[0, 0, 3, 53, -2147483649]",
    "[0, 1000000, 3, 53, 1]",
    "[4611686018428, 0, 3, 53, 1]",
    "[0x7fffffffffffffffff, 0, 3, 53, 1]",
    "[0, 0, 3, 53, 1.5]",
])
yaml_events("y-nan.yml", [
    "[.nan, 0, 3, 53, 1]",
    "[0, 0, 3, 53, .inf]",
    "[0, 0, 3, 53, -.inf]",
    "[0, 0, 3, 53, nan]",
    "[0, 0, 3, 53, NaN]",
    "[-1, 0, 3, 53, 1]",
    "[0, -1, 3, 53, 1]",
    "[0, 0, 3, 53, ~]",
])
yaml_events("y-types.yml", [
    "[0, 0, 3, 53]",
    "[0, 0, 3, 53, 1, 2]",
    "{a: b}",
    "[[0], 0, 3, 53, 1]",
    "[0, 0, EV_ABS, ABS_X, 1]",
    "\"0, 0, 3, 53, 1\"",
    "[]",
])
yaml_events("y-ranges.yml", [
    "[0, 0, 32, 0, 0]",
    "[0, 0, 3, 1023, 0]",
    "[0, 0, 3, 64, 0]",
    "[0, 0, -1, 0, 0]",
    "[0, 0, 3, -1, 0]",
    "[0, 0, 65536, 0, 0]",
    "[0, 0, 5, 0, 0]",
    "[0, 0, 1, 768, 0]",
])
# Bad descriptions, one per device (the reader reports the first fault
# of each device's evdev: section).
ydevs = ""
ybad = []
for old, new in [
    ("      3: [0, 1, 47", "      32: [0]\n      3: [0, 1, 47"),
    ("      3: [0, 1, 47, 53, 54, 57]", "      3: [1023]"),
    ("      1: [330]", "      1: [-1]"),
    ("      1: [330]", "      1: [99999999999999999999]"),
    ("      1: [330]", "      1: .nan"),
    ("      57: [0, 65535, 0, 0, 0]", "      1023: [0, 1, 0, 0, 0]"),
    ("      57: [0, 65535, 0, 0, 0]", "      57: [65535, 0, 0, 0, 0]"),
    ("      57: [0, 65535, 0, 0, 0]", "      57: [0, 4294967296, 0, 0, 0]"),
    ("      57: [0, 65535, 0, 0, 0]", "      57: [0, 1]"),
    ("[3, 1, 2, 3]", "[3, 1, 2, 65536]"),
    ("[3, 1, 2, 3]", "[-3, .nan, 2, 3]"),
]:
    dev = YDEV.replace(old, new)
    at = (YHEAD + ydevs).count("\n") + nline(dev, new.strip().split("\n")[0])
    ybad.append(at)
    ydevs += dev + "  - evdev:\n    - [0, 1000, 0, 0, 0]\n"
write("y-desc.yml", YHEAD + ydevs, "bad", ybad)
# A slot range of a thousand: refused when the device is complete.
write("y-slots.yml", (YHEAD + YDEV.replace("47: [0, 1, 0, 0, 0]", "47: [0, 1000, 0, 0, 0]") +
                      "\n".join(YFRAMES) + "\n"), "bad", [nline(YHEAD + YDEV, "- node")])
yaml("y-backwards.yml", [
    "  - evdev:",
    "    - [  0,    500, 3, 53, 120]",
    "    - [  0,    500, 0, 0, 0]",
], "semantic", lines=[YFIRST + 1])
yaml("y-undeclared.yml", [
    "  - evdev:",
    "    - [  0,   2000, 3, 48, 5]",
    "    - [  0,   2000, 0, 0, 0]",
], "added", lines=[YFIRST + 1])
# Duplicate keys: YAML forbids them, libyaml does not check; the later
# one wins or adds to the first.
yaml("y-dupkeys.yml", [], "ok", head=YHEAD + YDEV.replace(
    "  hid: [0x05, 0x0d]\n", "  hid: [0x05, 0x0d]\n  hid: [1]\n").replace(
    "    properties: [1]\n", "    properties: [1]\n    properties: [1, 1, 1]\n    name: dup\n"
    "    codes:\n      3: [0, 1, 47, 53, 54, 57]\n"))
# Nesting 100000 deep, where the reader skips a node, renders a note
# (hid:, udev:) and expects an event; closed and unclosed.
DY = 100000
yaml("y-nesting.yml", [], "bad", lines=[nline(YHEAD + YDEV, "  hid")],
     head=YHEAD + YDEV.replace("  hid: [0x05, 0x0d]\n", "  hid: " + "[" * DY + "]" * DY + "\n"))
yaml("y-nesting-map.yml", [], "bad", lines=[nline(YHEAD + YDEV, "  hid")],
     head=YHEAD + YDEV.replace("  hid: [0x05, 0x0d]\n", "  udev: " + "{a: " * DY + "b" + "}" * DY + "\n"))
yaml("y-nesting-top.yml", [], "bad", lines=[2], head="version: 1\nfuture: " + "[" * DY + "]" * DY + "\n" + YHEAD + YDEV)
yaml("y-nesting-event.yml", ["  - evdev: " + "[" * DY + "]" * DY], "bad")
yaml("y-nesting-open.yml", ["  - evdev: " + "[" * DY], "bad", tail=False)
# Billion laughs: anchors and aliases nine levels deep. libyaml's event
# API never expands an alias: the reader ignores one it skips and
# refuses one where it wants numbers.
laughs = "lol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
for i in range(1, 10):
    laughs += "lol%d: &a%d [%s]\n" % (i, i, ", ".join(["*a%d" % (i - 1)] * 10))
yaml("y-laughs.yml", [], "ok", head=laughs + YHEAD + YDEV.replace("  hid: [0x05, 0x0d]\n", "  hid: *a9\n  udev: *a9\n"))
yaml("y-laughs-events.yml", ["  - evdev: *a9", "  - evdev:", "    - *a9"], "bad",
     head=laughs + YHEAD + YDEV, lines=[laughs.count("\n") + YFIRST, laughs.count("\n") + YFIRST + 2])
# Huge scalars: a 100 MB line; 20 MB of one multi-line scalar (block,
# quoted) or of comments, in short lines that no line limit catches; a
# 3 MB name within the limits.
NAME_LINE = nline(YHEAD + YDEV, "    name:")
write("y-longline.yml", YWHOLE.replace('"hostile touchscreen"', '"' + "A" * (100 * MiB) + '"'), "bad",
      [NAME_LINE], "big")
write("y-bigscalar.yml", YWHOLE.replace('"hostile touchscreen"', "|\n" + ("      " + "A" * 74 + "\n") * (20 * MiB // 81)),
      "bad", [NAME_LINE], "big")
write("y-bigquoted.yml", YWHOLE.replace('"hostile touchscreen"', '"' + ("A" * 74 + "\n      ") * (20 * MiB // 81) + '"'),
      "bad", [NAME_LINE], "big")
write("y-bigcomment.yml", YWHOLE.replace("  hid: [0x05, 0x0d]\n", ("  # " + "A" * 74 + "\n") * (20 * MiB // 81)),
      "bad", [nline(YWHOLE, "  hid") - 1], "big")
yaml("y-bigname.yml", [], "ok", head=YHEAD + YDEV.replace('"hostile touchscreen"', '"' + "\\u00e9" * (3 * MiB // 6) + '"'))
# A frame of a million events (and a tenth for every command): one
# error at the 65537th, bounded memory.
for n, name, tier in [(1000000, "y-bigframe-1m.yml", "huge"), (100000, "y-bigframe.yml", "big")]:
    yaml(name, ["    - [  0,   1500, 3, 53, %d]" % (i % 1000) for i in range(n)], lines=[YFIRST + 65536], tier=tier)
# A million devices (and 10000 for every command): 256 are read.
for n, name, tier in [(1000000, "y-manydevices-1m.yml", "huge"), (10000, "y-manydevices.yml", "big")]:
    write(name, YHEAD + "- evdev: {name: d, id: [3, 1, 2, 3], codes: {0: [0]}}\n  events:\n" * n, "bad",
          [YHEAD.count("\n") + 2 * 256 + 1], tier)
write("y-utf8.yml", YWHOLE.replace("hostile touchscreen", "bad \udcff utf8").encode("utf-8", "surrogateescape"),
      "bad", [NAME_LINE])
write("y-nul.yml", YWHOLE.replace("hostile touchscreen", "nul \x00 byte"), "bad", [NAME_LINE])
write("y-control.yml", YWHOLE.replace('"hostile touchscreen"', '"esc \\e[2J \\x07 \\0 nul"'), "ok")
write("y-truncated.yml", YWHOLE[:len(YWHOLE) - 20], "bad", [YWHOLE.count("\n")])
write("y-tags.yml", YWHOLE.replace("  hid: [0x05, 0x0d]\n", "  hid: !!binary aGVsbG8=\n  udev: !!python/object:os.system [rm]\n")
      .replace("id: [3, 1, 2, 3]", "id: !!seq [3, 1, 2, 3]") + "---\nversion: 1\n...\n", "ok")
write("y-garbage.yml", b"---\n" + garbage[:100000], "bad", [2])

# ---- the HID layer: hid-recorder files ----
# A mouse with report ID 1: buttons, X, Y (4-byte input reports).
HDESC = bytes.fromhex("05010902a10185010901a100050919012903150025019503750181029501750581010501"
                      "093009311581257f750895028106c0c0")


def hexs(b):
    return " ".join("%02x" % c for c in b)


def rline(desc):
    return "R: %d %s" % (len(desc), hexs(desc))


HHEAD = ["# hostile hid-recorder file", "D: 0", rline(HDESC), "N: hostile hid mouse", "P: usb-hostile",
         "I: 3 0001 0002", "D: 0"]
HEV = ["E: 0.000000 4 01 00 05 05", "E: 0.010000 4 01 01 05 05", "E: 0.020000 4 01 00 00 00"]
HFIRST = len(HHEAD) + 2	# the line after the first report


def hidrec(name, middle, cls="hbad", lines=None, head=HHEAD, tier="all"):
    """@head, the first report, @middle (each line at fault unless @lines
    says which), the other reports."""
    if lines is None:
        lines = range(HFIRST, HFIRST + len(middle)) if cls in ("hbad", "hsem") else ()
    write(name, join(head + HEV[:1] + middle + HEV[1:]), cls, lines, tier)


hidrec("h-counts.hid", ["E: 0.005000 5 01 00 05 05", "E: 0.006000 3 01 00 05 05", "E: 0.007000 0",
                        "E: 0.008000 99999999999999999999 01", "E: 0.009000 -4 01 00 05 05"])
hidrec("h-hex.hid", ["E: 0.005000 4 01 zz 05 05", "E: 0.006000 4 01 0x5 05 05", "E: 0.007000 4 01 000 05 05",
                     "E: 0.008000 4 01 -1 05 05", "E: nan 4 01 00 05 05", "E: 1e400 4 01 00 05 05"])
# Refused R: lines, then a good one: the device has its descriptor.
hidrec("h-rbad.hid", [], lines=[3, 4], head=HHEAD[:2] + ["R: 54 05 01 zz", "R: 9999999 05 01"] + HHEAD[2:])
hidrec("h-e-before-r.hid", [], lines=[2], head=["D: 0", HEV[0]] + HHEAD[2:])
# D: 5 is a device without R: yet: its E: lines are refused.
hidrec("h-drange.hid", ["D: 99999999999", "D: -1", "D: 5", "D: x"], lines=[HFIRST, HFIRST + 1, HFIRST + 3, HFIRST + 4])
# (An unknown line type is only a warning, as in hid-tools.)
hidrec("h-unknown.hid", ["Q: 1 2 3", "E:", "R:", "I: 3 zzzz 0002", "I: 99999999999 0001 0002"],
       lines=range(HFIRST + 1, HFIRST + 5))
# Descriptors the parser refuses: validate and analyze name the fault
# at the line that completes the device (its first report), the
# viewers and converters show the bytes as recorded.
for tag, desc in [("pop", "b4"), ("size0", "0501090275009501810 2"), ("unbalanced", "05010902a101a101c0"),
                  ("endcoll", "c0c0"), ("cut", "05010902a10126")]:
    d = bytes.fromhex(desc.replace(" ", ""))
    hidrec("h-desc-%s.hid" % tag, [], "hsem", [len(HHEAD) + 1], head=HHEAD[:2] + [rline(d)] + HHEAD[3:])
# Reports the descriptor does not declare: longer (accepted, as the
# kernel does), shorter, an undeclared report ID.
hidrec("h-reports.hid", ["E: 0.005000 6 01 00 05 05 07 07", "E: 0.006000 2 01 00",
                         "E: 0.007000 4 09 00 05 05"], "hsem", [HFIRST + 1, HFIRST + 2])
# The largest report a line may hold, and one byte more.
hidrec("h-maxreport.hid", ["E: 0.005000 16384 " + hexs(b"\x01" + bytes(16383))], "hok")
hidrec("h-bigreport.hid", ["E: 0.005000 16385 " + hexs(b"\x01" + bytes(16384))])
# Names with control characters and invalid UTF-8: sanitized.
write("h-names.hid", join(HHEAD + HEV).replace(b"hostile hid mouse", HID_BAD_NAME), "hok")
hidrec("h-times.hid", ["E: 0.001000 4 01 00 05 05", "E: 0.000500 4 01 00 05 05"], "hsem", [HFIRST + 1])
cut = "\n".join(HHEAD + HEV)
write("h-truncated.hid", cut[:len(cut) - 6], "hbad", [len(HHEAD) + len(HEV)])

# ---- the HID and libinput layers in the timeline ----

HDEV = ('{"type":"hid_device","id":0,"name":"hostile hid mouse","bus":3,"vendor":1,"product":2,"version":3,'
        '"descriptor":"%s","evdev":[0]}' % HDESC.hex())


def hid(t, data, dev=0):
    return '{"type":"hid","dev":%d,"t":%d,"data":"%s"}' % (dev, t, data)


def hidtimeline(name, middle, cls="hidbad", lines=None, head=(HDEV, hid(500, "01000505"))):
    """A valid recording of both layers with @middle after its first
    report: each line at fault unless @lines says which."""
    if lines is None:
        lines = range(3 + len(head), 3 + len(head) + len(middle)) if cls in ("hidbad", "hidsem") else ()
    write(name, join([HDR, DEV] + list(head) + middle + FRAMES), cls, lines)


hidtimeline("t-hid-ok.jsonl", [hid(600, "01010505")], "hidok")
hidtimeline("t-hid-hex.jsonl", [hid(600, "0101050"), hid(600, "01zz0505"), hid(600, "0x010505"), hid(600, ""),
                                hid(600, "01 01 05 05"), hid(600, "01" * 16385),
                                '{"type":"hid","dev":0,"t":600,"data":[1,1,5,5]}',
                                '{"type":"hid","dev":0,"t":NaN,"data":"01010505"}',
                                '{"type":"hid","dev":-1,"t":600,"data":"01010505"}'])
hidtimeline("t-hid-undeclared.jsonl", [hid(600, "01010505", dev=7), hid(600, "01010505", dev=4294967295)])
hidtimeline("t-hid-devices.jsonl", [
    HDEV.replace(HDESC.hex(), "0501zz"),
    HDEV.replace(HDESC.hex(), ""),
    HDEV.replace(HDESC.hex(), "00" * 4097),
    HDEV.replace('"id":0', '"id":-1'),
    HDEV.replace('"bus":3', '"bus":"usb"'),
    HDEV.replace('"vendor":1', '"vendor":4294967296'),
    HDEV.replace('"name":"hostile hid mouse"', '"name":["a"]'),
    HDEV.replace('"evdev":[0]', '"evdev":[' + ",".join(["0"] * 257) + "]"),
    HDEV.replace('"evdev":[0]', '"evdev":[-1]'),
    HDEV.replace('"evdev":[0]', '"features":[' + ",".join(['{"report_id":1,"data":"01"}'] * 257) + "]"),
    HDEV.replace('"evdev":[0]', '"features":[{"report_id":256,"data":"01"}]'),
    HDEV.replace('"evdev":[0]', '"features":[{"report_id":1,"data":"0g"}]'),
    HDEV.replace('"evdev":[0]', '"features":[{"report_id":1}]'),
], head=(HDEV,))
# Descriptors the parser refuses, in a recording with an evdev layer:
# validate and analyze name the record, the rest read it.
hidtimeline("t-hid-baddesc.jsonl", [], "hidsem", [3], head=(
    HDEV.replace(HDESC.hex(), "b4"),
    HDEV.replace('"id":0', '"id":1').replace(HDESC.hex(), "05010902a101a101c0"),
    HDEV.replace('"id":0', '"id":2').replace(HDESC.hex(), "0501090275009501810 2".replace(" ", "")),
    hid(500, "01000505", dev=1)))
# 257 HID devices: 256 are read, the next is an error.
write("t-hid-many.jsonl", join([HDR, DEV] + [HDEV.replace('"id":0', '"id":%d' % i) for i in range(257)] + FRAMES),
      "hidbad", [3 + 256])
hidtimeline("t-hid-names.jsonl", [], "hidok", head=(
    HDEV.replace("hostile hid mouse", "esc \\u001b[2J\\u0000nul \\ud800 lone \\n nl \\u0007"),))

LIDEV = ('{"type":"li_device","dev":0,"sysname":"event5","name":"hostile touchscreen",'
         '"capabilities":["touch"],"size_mm":[100,100],"config":{"tap":"on"}}')


def li(kind, t=1000, extra=""):
    return '{"type":"li","li":"%s","t":%d,"dev":0%s}' % (kind, t, extra)


timeline("t-li-types.jsonl", [
    LIDEV.replace('"dev":0', '"dev":"0"'),
    LIDEV.replace('"capabilities":["touch"]', '"capabilities":"touch"'),
    LIDEV.replace('"size_mm":[100,100]', '"size_mm":[100]'),
    LIDEV.replace('"size_mm":[100,100]', '"size_mm":[NaN,1e400]'),
    LIDEV.replace('"config":{"tap":"on"}', '"config":{"tap":1}'),
    LIDEV.replace('"config":{"tap":"on"}', '"config":["tap"]'),
    LIDEV.replace('"config":{"tap":"on"}', '"config":{' + ",".join('"k%d":"on"' % i for i in range(65)) + "}"),
    LIDEV.replace('"name":"hostile touchscreen"', '"name":7'),
    LIDEV.replace('"dev":0', '"dev":-1'),
    '{"type":"li","li":7,"t":1000,"dev":0}',
    '{"type":"li","li":"TOUCH_DOWN","t":"1000","dev":0}',
    li("TOUCH_DOWN", extra=',"slot":"0","seat_slot":0,"mm":[1,2],"norm":[0,0]'),
    li("TOUCH_DOWN", extra=',"slot":0,"seat_slot":0,"mm":[NaN,2],"norm":[0,0]'),
    li("TOUCH_DOWN", extra=',"slot":0,"seat_slot":0,"mm":[1e400,2],"norm":[0,0]'),
    li("TOUCH_DOWN", extra=',"slot":0,"seat_slot":0,"mm":1,"norm":[0,0]'),
    li("TOUCH_DOWN", extra=',"slot":99999999999,"seat_slot":0,"mm":[1,2],"norm":[0,0]'),
    li("POINTER_SCROLL_FINGER", extra=',"vert":Infinity'),
    li("POINTER_BUTTON", extra=',"button":272,"state":5,"seat_count":1'),
    li("GESTURE_PINCH_UPDATE", extra=',"fingers":"2","delta":[0,0],"unaccel":[0,0],"scale":1,"angle":0'),
    li("GESTURE_SWIPE_END", extra=',"fingers":3,"cancelled":"yes"'),
    '{"type":"li","t":1000,"dev":0}',
])
# Kinds and capabilities libinput may add later: kept by name; escapes
# in names, sanitized.
timeline("t-li-unknown.jsonl", [
    LIDEV.replace('"capabilities":["touch"]', '"capabilities":["touch","telepathy"]'),
    li("TELEPATHY_BEGIN", extra=',"thoughts":[1,2]'),
    li("TOUCH_FRAME", extra=',"future":{"a":NaN}'),
    LIDEV.replace('"config":{"tap":"on"}', '"config":{"tap":"' + "B" * 4000 + '"}'),
    LIDEV.replace("hostile touchscreen", "esc \\u001b[2J\\u0000nul \\ud800 \\n nl"),
], "ok")
# Strings of a megabyte where names are kept: refused (4096 bytes at most).
timeline("t-li-huge.jsonl", [
    LIDEV.replace('"name":"hostile touchscreen"', '"name":"' + "A" * MiB + '"'),
    li("X" * MiB),
    LIDEV.replace('"sysname":"event5"', '"sysname":"' + "\\u001b" * (MiB // 6) + '"'),
])

with open(os.path.join(out, "cases.tsv"), "w") as f:
    for c in cases:
        f.write("\t".join(c) + "\n")
