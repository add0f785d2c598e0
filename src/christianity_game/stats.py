"""The statistics every measuring run shares (the lab's reports, the ladder, the strength and
knob-tuning runs): one Wilson score interval, so a win share reads the same everywhere."""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson"]

#: the two-sided 95 % normal quantile
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95 % by default); (0, 1) for no trials."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"wilson: need 0 <= k <= n, not k={k}, n={n}")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends: no rounding leaves 0/n or n/n outside its own interval
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))
