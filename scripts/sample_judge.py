"""The judge of the bundled CodeNet sample's programs, on codelog's sandbox.

Used by `tests/test_sample_programs.py` and by `scripts/make_sample_sources.py --check`. The
real work lives in the package: sample I/O from the statements
(`codelog.execution.testcases.parse_samples`), the sandboxed run and the verdict
(`codelog.execution.judge.judge_program`). This file only adapts a source file and its sample
pairs to them.
"""

from __future__ import annotations

from pathlib import Path

from codelog.execution.judge import (
    ACCEPTED,
    COMPILE_ERROR,
    DEFAULT_OPTIONS,
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    PRESENTATION_ERROR,
    RUNTIME_ERROR,
    TIME_LIMIT,
    WRONG_ANSWER,
    JudgeOptions,
    Program,
    Verdict,
    judge_program,
)
from codelog.execution.sandbox import find_python2
from codelog.execution.testcases import Problem, TestCase, parse_samples

__all__ = [
    "ACCEPTED",
    "COMPILE_ERROR",
    "MEMORY_LIMIT",
    "OUTPUT_LIMIT",
    "PRESENTATION_ERROR",
    "RUNTIME_ERROR",
    "TIME_LIMIT",
    "WRONG_ANSWER",
    "find_python2",
    "judge",
    "parse_samples",
]

# One original_language per dialect: it picks the interpreter (AIZU's bare "Python" is 2.x).
_ORIGINAL_LANGUAGE = {"2": "Python (2.7.6)", "3": "Python (3.8.2)"}


def judge(
    path: Path,
    samples: list[tuple[str, str]],
    time_limit_ms: int,
    memory_limit_kb: int,
    *,
    dialect: str = "3",
    options: JudgeOptions = DEFAULT_OPTIONS,
) -> Verdict:
    """The verdict of the Python source at `path` on the sample pairs.

    Python 2 needs an interpreter (`find_python2`); without one this raises SandboxError."""
    problem = Problem(
        problem_id=path.parent.parent.name,
        tests=tuple(TestCase(f"sample {i + 1}", a, b) for i, (a, b) in enumerate(samples)),
        time_limit_ms=time_limit_ms,
        memory_limit_kb=memory_limit_kb,
    )
    program = Program(
        submission_id=path.stem,
        problem_id=problem.problem_id,
        code=path.read_text(encoding="utf-8"),
        language="Python",
        original_language=_ORIGINAL_LANGUAGE[dialect],
    )
    return judge_program(program, problem, options)
