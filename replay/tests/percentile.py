# SPDX-License-Identifier: MIT
# The percentile rule of touchtape(1), MEDIANS AND PERCENTILES (lib/base/util-stats.h)
# for the Python timing scripts: replay/tests/timing.py and
# bench/hid-timing.py print medians and p99 that compare with replay's own.
import math


def pct(a, q):
    """Percentile q (0..1) of the sorted a: linear between the closest
    ranks, rounded to the nearest integer, halves up."""
    h = (len(a) - 1) * q
    lo = min(int(h + 1e-9), len(a) - 1)
    f = max(0.0, h - lo)
    return a[lo] + (math.floor(f * (a[lo + 1] - a[lo]) + 0.5 + 1e-9) if f > 1e-9 else 0)
