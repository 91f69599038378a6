"""How sure a difference is: one rule for every summary that says something changed.

`codelog train`'s conclusions (the margin per group, before and after), `codelog eval --compare`
(pass@k per problem, two runs) and `codelog experiment` (each method against the base model
and SFT, pass@k per problem) all measure the same units twice. They compare *paired*: the
difference per unit (group, problem), its mean, and the standard error of that mean (the
sample standard deviation, ddof 1, over the square root of the units). A hard problem is hard
for both runs, so the paired difference drops what the units share; the unpaired rule (the
two standard errors combined, sqrt(se_a^2 + se_b^2)) keeps it and calls real changes noise.

A difference is *shown* (better, worse) when its 95% interval leaves out zero: mean ± t * SE,
t the 0.975 quantile of Student's t with units - 1 degrees of freedom. Student's t, not the
normal 1.96: a run's margin averages as few as 2 to 32 groups, where 1.96 is too lax (7
groups: t = 2.45; the t quantile stays above 2 up to 60 units, and past them a change must
still exceed two standard errors). scipy has the quantile but is a test
dependency only; the t distribution's closed-form CDF for whole degrees of freedom
(Abramowitz & Stegun 26.7.3-4), solved by bisection, gives it to double precision (a test
checks it against scipy.stats.t). Below two units there is no spread to measure: no standard
error, nothing shown. A measurement may also name its `resolution`, the smallest change it
resolves (train's margins: the float32 rounding of the log-probs): a change within it is noise
whatever its standard error, since rounding is not the independent noise the t test assumes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

LEVEL = 0.95  # the interval's coverage
BETTER, WORSE, NOISE = "better", "worse", "within noise"
# Beyond this many degrees of freedom the series is long and the Cornish-Fisher expansion
# (A&S 26.7.5, four terms) is exact to 1e-15.
_SERIES_UP_TO = 1000


def mean_and_stderr(values: Sequence[float]) -> tuple[float | None, float | None]:
    """The mean and its standard error (None below two values; both None with none)."""
    if not values:
        return None, None
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return mean, None
    variance = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


@dataclass(frozen=True)
class Difference:
    """after - before over n paired units: the mean difference and its standard error."""

    mean: float
    stderr: float | None  # None below two units
    n: int
    # the smallest change the measurement resolves (its rounding): within it a change is noise
    # whatever its standard error, since rounding is not the independent noise t assumes
    resolution: float = 0.0

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% interval (Student's t); None below two units."""
        if self.stderr is None:
            return None
        half = t_quantile(self.n - 1) * self.stderr
        return self.mean - half, self.mean + half

    @property
    def word(self) -> str:
        """better (the interval above zero), worse (below) or within noise."""
        interval = self.interval
        if interval is None or interval[0] <= 0 <= interval[1]:
            return NOISE
        # past 60 units t dips below 2 (1.97-1.96): a claim still needs two standard errors
        if abs(self.mean) <= max(self.resolution, 2 * self.stderr):
            return NOISE
        return BETTER if self.mean > 0 else WORSE

    @property
    def shown(self) -> bool:
        return self.word != NOISE

    def needed(self) -> int | None:
        """How many units, at this spread, would show a change this size (None: no change,
        or no spread measured). The smallest n with t(n - 1) * sd / sqrt(n) < |mean|."""
        if self.stderr is None or abs(self.mean) <= self.resolution:
            return None
        sd = self.stderr * math.sqrt(self.n)
        if sd == 0:
            return 2
        z = NormalDist().inv_cdf((1 + LEVEL) / 2)
        n = max(2, math.floor((z * sd / abs(self.mean)) ** 2))
        while t_quantile(n - 1) * sd / math.sqrt(n) >= abs(self.mean):
            n += 1  # the normal guess is a few units short at most
        return n

    def to_dict(self) -> dict[str, object]:
        """As results.json and summary.json record it."""
        interval = self.interval
        return {
            "difference": self.mean,
            "stderr": self.stderr,
            "interval95": list(interval) if interval is not None else None,
            "n": self.n,
            "word": self.word,
        }


def paired(before: Sequence[float], after: Sequence[float], resolution: float = 0.0) -> Difference:
    """The paired difference after - before over units measured twice (same order)."""
    if len(before) != len(after):
        raise ValueError(f"paired needs the same units twice ({len(before)} vs {len(after)})")
    if not before:
        raise ValueError("paired needs at least one unit")
    mean, stderr = mean_and_stderr([a - b for b, a in zip(before, after, strict=True)])
    assert mean is not None
    return Difference(mean, stderr, len(before), resolution)


def plus_minus(value: float, stderr: float | None, places: int = 4) -> str:
    """value ± stderr with enough decimals to show the standard error's first two digits (at
    least `places`): a change of 3e-7 reads as +0.00000030 ± 0.00000012, not +0.0000 ± 0.0000."""
    if stderr:
        places = min(12, max(places, 1 - math.floor(math.log10(abs(stderr)))))
    shown = f"{value:+.{places}f}"
    return shown if stderr is None else f"{shown} ± {stderr:.{places}f}"


@lru_cache(maxsize=512)
def t_quantile(df: int, level: float = LEVEL) -> float:
    """The two-sided `level` quantile of Student's t with `df` degrees of freedom (df >= 1):
    P(|T| < t) = level."""
    if df < 1:
        raise ValueError(f"Student's t needs at least one degree of freedom (df={df})")
    if df > _SERIES_UP_TO:
        return _cornish_fisher(df, level)
    low, high = 0.0, 1.0
    while _central(high, df) < level:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        low, high = (middle, high) if _central(middle, df) < level else (low, middle)
    return high


def _central(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with whole `df` (A&S 26.7.3 odd, 26.7.4 even)."""
    theta = math.atan(t / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2:  # odd: 2/pi [theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...)]
        term = total = 1.0
        for j in range(1, (df - 1) // 2):
            term *= c2 * (2 * j) / (2 * j + 1)
            total += term
        inner = s * math.cos(theta) * total if df > 1 else 0.0
        return 2 / math.pi * (theta + inner)
    term = total = 1.0  # even: sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...)
    for j in range(1, df // 2):
        term *= c2 * (2 * j - 1) / (2 * j)
        total += term
    return s * total


def _cornish_fisher(df: int, level: float) -> float:
    z = NormalDist().inv_cdf((1 + level) / 2)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
