"""Issue 32's verdict probes: no verdict is bought with text a program prints, output is
compared as the origin judge does, and a malformed problem is refused when loaded.

Programs run warm and cold (codelog.execution.zygote), each with a short limit."""

from __future__ import annotations

import pytest

from codelog.execution.compare import RULES, Tolerance, compare, number, tokens

# ----------------------------------------------------------------------------- comparison


@pytest.mark.parametrize("origin", ["AtCoder", "AIZU", "codelog"])
@pytest.mark.parametrize("separator", ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u3000"])
def test_tokens_split_on_ascii_whitespace_only(origin: str, separator: str) -> None:
    rules = RULES[origin]
    assert compare(f"1{separator}2\n", "1 2\n", None, rules) == "Wrong Answer"
    assert compare(f"1{separator}2\n", "1 2\n", Tolerance(1e-6, 1e-6), rules) == "Wrong Answer"
    assert tokens(f" 1\t2\r\n3\v4\f5{separator}6 ") == ["1", "2", "3", "4", f"5{separator}6"]


@pytest.mark.parametrize("origin", ["AtCoder", "AIZU", "codelog"])
@pytest.mark.parametrize(
    "got",
    ["3_0.0", "３０", "３０.０", "30.0\u200b", "0x1ep0", "nan", "inf", "+inf", "Infinity", "1e999"],
)
def test_a_tolerance_reads_plain_decimal_numbers_only(origin: str, got: str) -> None:
    tol = Tolerance(absolute=1e-6)
    assert compare(f"{got}\n", "30.0\n", tol, RULES[origin]) == "Wrong Answer"
    assert number(got) is None


def test_the_decimal_forms_a_judge_reads_stay_numbers() -> None:
    tol = Tolerance(absolute=1e-6)
    for got in ("30", "30.", "30.0000001", "+30.0", "3e1", "3.0E+1", "300e-1"):
        assert compare(f"{got}\n", "30.0\n", tol, RULES["AtCoder"]) == "Accepted", got
    assert number(".5") == 0.5 and number("-0") == 0.0
    # a token equal to the expected one is equal, number or not
    assert compare("inf\n", "inf\n", tol, RULES["AtCoder"]) == "Accepted"
