"""Comparing a program's output with the expected output, as an online judge does.

- **Exact**: the same text once CRLF line ends are read as LF and one final newline is
  ignored -> Accepted.
- **Whitespace**: the same whitespace-separated tokens, laid out differently (a trailing
  space, one number per line, an extra blank line) -> WA: Presentation Error, AIZU's verdict.
- **Float tolerance**: only for a problem that has one. Every token must equal the expected
  token, or both parse as numbers within the tolerance; the layout rule above still applies.
  CodeNet keeps no per-problem flag, so the tolerance is read from the statement: a sentence
  that mentions an "absolute" and/or "relative" error bound by 10^-k (written 10^{-k},
  10<sup>-k</sup>, 1e-k) gives that bound; "absolute or relative" accepts either. A statement
  that says nothing of the kind is compared exactly: "3.0" is then not "3". JSONL problem sets
  give the tolerance explicitly.
- Anything else -> Wrong Answer.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass

ACCEPTED = "Accepted"
WRONG_ANSWER = "Wrong Answer"
PRESENTATION_ERROR = "WA: Presentation Error"


@dataclass(frozen=True)
class Tolerance:
    """A number is close enough if within `absolute` or within `relative` x |expected|."""

    absolute: float | None = None
    relative: float | None = None

    def close(self, got: float, expected: float) -> bool:
        if math.isnan(got) or math.isnan(expected):
            return False
        diff = abs(got - expected)
        # 1e-12 of slack: "at most 1e-9" must accept a value printed at exactly that distance.
        if self.absolute is not None and diff <= self.absolute * (1 + 1e-12):
            return True
        return self.relative is not None and diff <= self.relative * abs(expected) * (1 + 1e-12)

    def to_dict(self) -> dict[str, float]:
        return {k: v for k, v in (("absolute", self.absolute), ("relative", self.relative)) if v}


def _exact(text: str) -> str:
    return text.replace("\r\n", "\n").removesuffix("\n")


def _layout(text: str) -> str:
    return re.sub(r"\S+", "x", _exact(text))


def _number(token: str) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def compare(output: str, expected: str, tolerance: Tolerance | None = None) -> str:
    """Accepted, WA: Presentation Error or Wrong Answer."""
    if _exact(output) == _exact(expected):
        return ACCEPTED
    got, want = output.split(), expected.split()
    if len(got) != len(want):
        return WRONG_ANSWER
    if got != want:
        if tolerance is None:
            return WRONG_ANSWER
        for g, w in zip(got, want, strict=True):
            if g == w:
                continue
            a, b = _number(g), _number(w)
            if a is None or b is None or not tolerance.close(a, b):
                return WRONG_ANSWER
        # Only numbers within the tolerance differ: the layout decides, as for exact tokens.
        return ACCEPTED if _layout(output) == _layout(expected) else PRESENTATION_ERROR
    return PRESENTATION_ERROR


_SUP = re.compile(r"<sup>\s*(.*?)\s*</sup>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_BOUND = re.compile(
    r"10\s*\^?\s*\{?\s*\(?\s*[-−–]\s*(\d+)\s*\)?\s*\}?|(?<![\d.])1\s*[eE]\s*[-−–]\s*(\d+)"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")


def tolerance_from_statement(statement: str) -> Tolerance | None:
    """The float tolerance a statement (HTML or text) asks for, or None."""
    text = html.unescape(_TAG.sub(" ", _SUP.sub(r"^\1", statement)))
    for sentence in _SENTENCE_END.split(text):
        lowered = sentence.lower()
        if "error" not in lowered:
            continue
        absolute, relative = "absolute" in lowered, "relative" in lowered
        if not (absolute or relative):
            continue
        bound = _BOUND.search(sentence[lowered.find("error") :]) or _BOUND.search(sentence)
        if bound is None:
            continue
        value = 10.0 ** -int(bound.group(1) or bound.group(2))
        return Tolerance(value if absolute else None, value if relative else None)
    return None
