#!/usr/bin/env python3
# The geometry of an analyze --plot SVG, read from its elements: every
# text inside the picture; every touch label inside the surface it labels
# and every lane label inside its lane; no label over another; no two
# panels (lanes, surfaces, touch panels) over each other; a label or a
# "without a label" count for every trajectory. Text widths are
# estimated at their widest (6.5 px a character of the 10 px labels and
# ticks, 7.5 of the 12 px text). Prints what is wrong; exit 1 if
# anything is.
import re
import sys

svg = open(sys.argv[1], encoding="utf-8").read()
bad = []
size = re.search(r'<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"', svg)
W, H = float(size.group(1)), float(size.group(2))
shift = re.search(r'<g class="surfaces" transform="translate\(0 ([-0-9.]+)\)"', svg)
shift = float(shift.group(1)) if shift else 0.0
surf_start = svg.find('<g class="surfaces"')
surf_end = svg.find('</g>', surf_start) if surf_start >= 0 else -1


def in_surfaces(pos):
    return surf_start <= pos < surf_end


def plain(text):
    return re.sub(r"<[^>]*>", "", text).replace("&quot;", '"').replace("&lt;", "<") \
        .replace("&gt;", ">").replace("&amp;", "&")


def box(m):
    """x0, y0, x1, y1 of a <text> match, from its position, anchor and size."""
    attrs, text = m.group(1), plain(m.group(2))
    cls = re.search(r'class="([^"]*)"', attrs)
    cls = cls.group(1) if cls else ""
    small = cls in ("tick", "touch-label", "lane-label")
    cw, fh = (6.5, 10.0) if small else (7.5, 12.0)
    w = cw * len(text)
    t = re.search(r'translate\(([-0-9.]+),([-0-9.]+)\) rotate\(-90\)', attrs)
    if t:  # a vertical axis title, centred on its point
        x, y = float(t.group(1)), float(t.group(2))
        return cls, text, (x - fh, y - w / 2, x, y + w / 2)
    x = float(re.search(r' x="([-0-9.]+)"', attrs).group(1))
    y = float(re.search(r' y="([-0-9.]+)"', attrs).group(1))
    anchor = re.search(r'text-anchor="(\w+)"', attrs)
    anchor = anchor.group(1) if anchor else "start"
    x0 = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    if in_surfaces(m.start()):
        y += shift
    return cls, text, (x0, y - fh, x0 + w, y + 2)


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a, r):
    return r[0] <= a[0] and a[2] <= r[2] and r[1] <= a[1] and a[3] <= r[3]


def rects(cls, moved):
    out = []
    for m in re.finditer(r'<rect class="%s"[^>]* x="([^"]*)" y="([^"]*)" width="([^"]*)" height="([^"]*)"' % cls, svg):
        x, y, w, h = (float(v) for v in m.groups())
        if moved:
            y += shift
        out.append((x, y, x + w, y + h))
    return out


texts = [box(m) for m in re.finditer(r'<text([^>]*)>(.*?)</text>', svg, re.S)]
for cls, text, b in texts:
    if b[0] < 0 or b[2] > W or b[1] < 0 or b[3] > H:
        bad.append("outside the picture: %r at %s" % (text, [round(v) for v in b]))

surfaces, lanes, frames = rects("surface", True), rects("lane", False), rects("frame", False)
labels = [(cls, text, b) for cls, text, b in texts if cls in ("touch-label", "lane-label")]
for cls, text, b in labels:
    home = surfaces if cls == "touch-label" else lanes
    if not any(inside(b, r) for r in home):
        bad.append("%s outside its panel: %r" % (cls, text))
for i in range(len(labels)):
    for j in range(i + 1, len(labels)):
        # Label boxes stand 2 px below their baseline: a label one row
        # (12 px) below another touches it, no more.
        a, b = labels[i][2], labels[j][2]
        if overlap((a[0], a[1] + 2, a[2], a[3] - 2), (b[0], b[1] + 2, b[2], b[3] - 2)):
            bad.append("labels over each other: %r, %r" % (labels[i][1], labels[j][1]))
panels = surfaces + lanes + frames
for i in range(len(panels)):
    for j in range(i + 1, len(panels)):
        a, b = panels[i], panels[j]
        if overlap((a[0], a[1] + 0.5, a[2], a[3] - 0.5), b):
            bad.append("panels over each other: %s, %s" % (a, b))

paths = len(re.findall(r'<polyline class="touch"', svg))
unlabelled = sum(int(n) for n in re.findall(r">(\d+) without a label \(no room\)<", svg))
nlabels = len([1 for cls, _, _ in labels if cls == "touch-label"])
if nlabels + unlabelled != paths:
    bad.append("%d touch labels and %d without one for %d trajectories" % (nlabels, unlabelled, paths))
for line in bad[:20]:
    print(line)
sys.exit(1 if bad else 0)
