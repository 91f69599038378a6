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

Tokens are split on ASCII whitespace only (space, tab, LF, VT, FF, CR: C's isspace, as the
judges' checkers read them), so "1\\x1c2" or "1\\u30002" is one token, not "1 2". Under a
tolerance a token is a number only in plain decimal syntax, in ASCII
(`[+-]digits[.digits][e[+-]digits]`, or `.5`, `5.`), as the expected outputs are written: not
"3_0.0", full-width digits, "nan", "inf", hex floats or an overflow to infinity; such a token
must equal the expected one exactly. The same for every origin below.

That is codelog's own rule set (`RULES["codelog"]`), used when a problem names no origin. A
problem from an online judge is compared as that judge did (`Rules`, chosen by
problem_list.csv's `dataset` column or a problems file's `origin`):

- **AtCoder** has no Presentation Error: output is compared token by token, so whitespace-only
  differences (a trailing space, a missing final newline, an extra blank line) are Accepted;
  tokens within a problem's float tolerance are equal.
- **Codeforces** (CodeContests' and the Codeforces submissions' problems) reads tokens as AtCoder
  does: its standard checkers have no Presentation Error.
- **AIZU** (Aizu Online Judge) compares exact-output problems exactly, with WA: Presentation
  Error for the right tokens laid out differently; a problem with a float tolerance goes to a
  special judge that reads tokens, so there layout never matters (a double space between two
  floats is Accepted).
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


# Whitespace as the judges' C code reads it (isspace in the C locale): str.split() would also
# split on U+001C..U+001F, U+0085, U+00A0 and U+3000, so "1\x1c2" would pass for "1 2".
_ASCII_SPACE = " \t\n\v\f\r"
_TOKEN = re.compile(r"[^ \t\n\v\f\r]+")
# A plain decimal number in ASCII: float() would also take "3_0.0", full-width digits, "nan",
# "inf" and "infinity", none of which a judge's expected output is written in.
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def tokens(text: str) -> list[str]:
    """The tokens of an output, split on ASCII whitespace only."""
    return _TOKEN.findall(text)


def _layout(text: str) -> str:
    return _TOKEN.sub("x", _exact(text))


def number(token: str) -> float | None:
    """The value of a decimal number token, or None for anything else (see _NUMBER)."""
    if _NUMBER.fullmatch(token) is None:
        return None
    value = float(token)
    return value if math.isfinite(value) else None  # "1e999": no infinity by overflow either


@dataclass(frozen=True)
class Rules:
    """How one origin judge compared output and ranked its limits."""

    origin: str
    # WA: Presentation Error exists (else whitespace-only differences are Accepted)
    presentation_error: bool = True
    # a float-tolerance problem is compared by tokens only (a special judge): no PE there
    tolerance_reads_tokens: bool = False
    # a program past the output cap runs on to its time limit: a program that prints forever
    # is Time Limit Exceeded (what AIZU logged: CodeNet's p00002 has 20 such C programs, all
    # TLE); else it is stopped at the cap (Output Limit Exceeded, as AtCoder did)
    time_limit_before_output_limit: bool = False
    # the stack limit: "memory" (the problem's memory limit) or a size in KB
    stack: str | int = "memory"

    def stack_kb(self, memory_limit_kb: int) -> int:
        return memory_limit_kb if self.stack == "memory" else int(self.stack)


RULES: dict[str, Rules] = {
    "codelog": Rules("codelog"),  # the stack too: judges give it all the memory
    "AIZU": Rules(
        "AIZU",
        presentation_error=True,
        tolerance_reads_tokens=True,
        time_limit_before_output_limit=True,
        stack="memory",
    ),
    # AtCoder stopped a program at its output limit before its time was up (CodeNet's
    # p03242/s304343312: Output Limit Exceeded at 1,351 ms of a 2,000 ms limit)
    "AtCoder": Rules(
        "AtCoder",
        presentation_error=False,
        tolerance_reads_tokens=True,
        time_limit_before_output_limit=False,
        stack="memory",
    ),
    # Codeforces' standard checkers read tokens (wcmp; a problem with a float answer has a
    # checker with its tolerance): no Presentation Error, as AtCoder
    "Codeforces": Rules("Codeforces", presentation_error=False, tolerance_reads_tokens=True),
    # APPS's own harness (testing_util.py): no Presentation Error, its chain of lenient rules
    # (apps_match); a benchmark's rule, not a judge's
    "APPS": Rules("APPS", presentation_error=False, tolerance_reads_tokens=True),
}
_ALIASES = {
    "aizu": "AIZU",
    "aoj": "AIZU",
    "atcoder": "AtCoder",
    "codelog": "codelog",
    "apps": "APPS",
    "codeforces": "Codeforces",
}


def rules_for(origin: str | None) -> Rules:
    """The rules of an origin judge (AIZU, AtCoder; case-insensitive), codelog's own for None."""
    if not origin:
        return RULES["codelog"]
    name = _ALIASES.get(origin.strip().lower())
    if name is None:
        raise ValueError(f"unknown origin {origin!r}: AIZU, AtCoder, Codeforces, APPS or codelog")
    return RULES[name]


def _tokens_match(got: list[str], want: list[str], tolerance: Tolerance | None) -> bool:
    if len(got) != len(want):
        return False
    for g, w in zip(got, want, strict=True):
        if g == w:
            continue
        if tolerance is None:
            return False
        a, b = number(g), number(w)
        if a is None or b is None or not tolerance.close(a, b):
            return False
    return True


def compare(
    output: str,
    expected: str,
    tolerance: Tolerance | None = None,
    rules: Rules = RULES["codelog"],
) -> str:
    """Accepted, WA: Presentation Error or Wrong Answer, by the origin judge's `rules`."""
    if _exact(output) == _exact(expected):
        return ACCEPTED
    if rules.origin == "APPS":
        return ACCEPTED if apps_match(output, expected) else WRONG_ANSWER
    got, want = tokens(output), tokens(expected)
    if not _tokens_match(got, want, tolerance):
        return WRONG_ANSWER
    if not rules.presentation_error or (tolerance is not None and rules.tolerance_reads_tokens):
        return ACCEPTED
    # Only whitespace (or numbers within the tolerance) differ: the layout decides.
    return ACCEPTED if _layout(output) == _layout(expected) else PRESENTATION_ERROR


def apps_match(output: str, expected: str) -> bool:
    """APPS's standard-input comparison (testing_util.py's run_test), its rules in its order:
    the text with each line stripped; the non-empty lines stripped; every line a number,
    within numpy.allclose's tolerance (1e-5 relative + 1e-8 absolute); the lines' tokens; the
    lines as sets of tokens, in any order (APPS's own leniency, kept so scores compare); the
    same with numbers rounded to 3 places. Where APPS uses Python's str.split, strip and
    float, codelog reads ASCII whitespace and plain decimals only (tokens, number): a program
    cannot pass with Unicode separators, `3_0` or full-width digits."""
    lines = output.split("\n")
    if "\n".join(lines).strip(_ASCII_SPACE) == expected.strip(_ASCII_SPACE):
        return True
    stripped = "\n".join(line.strip(_ASCII_SPACE) for line in lines)
    if stripped.strip(_ASCII_SPACE) == expected.strip(_ASCII_SPACE):
        return True
    got = [line.strip(_ASCII_SPACE) for line in lines if line.strip(_ASCII_SPACE)]
    want = [line.strip(_ASCII_SPACE) for line in expected.split("\n") if line.strip(_ASCII_SPACE)]
    if got == want:
        return True
    numbers = [number(line) for line in got], [number(line) for line in want]
    if (
        len(got) == len(want)
        and None not in numbers[0]
        and None not in numbers[1]
        and all(
            abs(a - b) <= 1e-8 + 1e-5 * abs(b)  # type: ignore[operator]
            for a, b in zip(*numbers, strict=True)
        )
    ):
        return True
    got_tokens, want_tokens = [tokens(g) for g in got], [tokens(w) for w in want]
    if got_tokens == want_tokens:
        return True
    if {frozenset(t) for t in got_tokens} == {frozenset(t) for t in want_tokens}:
        return True
    rounded = [
        {frozenset(_rounded(x) for x in t) for t in side} for side in (got_tokens, want_tokens)
    ]
    return None not in set().union(*rounded[0], *rounded[1]) and rounded[0] == rounded[1]


def _rounded(token: str) -> float | None:
    value = number(token)
    return None if value is None else round(value, 3)


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
