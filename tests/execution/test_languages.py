"""Every language's runner: an accepted program and its wrong-answer, runtime-error and
compile-error twins get those verdicts (skipped only when the toolchain is missing)."""

from __future__ import annotations

import pytest

from codelog.execution import languages
from codelog.execution.judge import Program, judge_program
from codelog.execution.testcases import Problem, TestCase
from tests.execution.written_programs import PROGRAMS

ADD = Problem(
    "add",
    (TestCase("sample 1", "1 2\n", "3\n"), TestCase("sample 2", "40 2\n", "42\n")),
    time_limit_ms=2000,
    memory_limit_kb=1_048_576,
    origin="AtCoder",
)


@pytest.mark.parametrize("language", sorted(PROGRAMS))
def test_language_verdicts(language: str) -> None:
    missing = languages.available(language)
    if missing is not None:
        pytest.skip(missing)
    accepted, wrong, crash, syntax, syntax_verdict = PROGRAMS[language]

    def status(code: str) -> str:
        verdict = judge_program(Program("s", "add", code, language), ADD)
        return (
            f"{verdict.status}: {verdict.detail[:200]}" if verdict.status != expected else expected
        )

    for expected, code in (
        ("Accepted", accepted),
        ("Wrong Answer", wrong),
        ("Runtime Error", crash),
        (syntax_verdict, syntax),
    ):
        assert status(code) == expected


def test_unknown_language_says_what_runs() -> None:
    assert "no runner for 'Kotlin'" in (languages.available("Kotlin") or "")
    assert languages.runner_language("JAVA") == "Java"
    assert languages.runner_language("golang") == "Go"


@pytest.mark.parametrize("language", ["Java", "Go", "C#", "JavaScript"])
def test_reserving_runtimes_get_their_reservation_on_top(language: str) -> None:
    missing = languages.available(language)
    if missing is not None:
        pytest.skip(missing)
    assert languages.runner_for(language).reserved_kb >= 1 << 20
