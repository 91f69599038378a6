"""CodeNet problems as a benchmark: `codenet` (the bundled sample), `codenet:ROOT` (a Project
CodeNet tree) or `codenet:DATASET` (a dataset built by `codelog build`, tests from its
statements' sample sections). The reading lives in codelog.execution.testcases, as the judge
and the rewards read the same trees."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from codelog.benchmarks.base import Benchmark, Reference, Source, Task
from codelog.errors import CodelogError
from codelog.execution.testcases import load_problems


def tasks(source: Source, split: str, options: Mapping[str, Any]) -> Iterator[Task]:
    if split not in ("all", "train", "test"):
        raise CodelogError(f"codenet splits: all, train, test (a built dataset's); not {split!r}")
    for problem in load_problems(source.spec).values():
        # the prompt is the recipe's [prompt] template over the statement (evaluation renders)
        yield Task(problem, None)


def references(source: Source, split: str) -> Iterator[Reference]:
    for problem in load_problems(source.spec).values():
        if problem.statement:
            yield Reference("codenet", problem.problem_id, problem.statement, ())


BENCHMARK = Benchmark(
    name="codenet",
    description="Project CodeNet: the bundled sample, a CodeNet tree, or a built dataset",
    default_split="all",
    splits=("all", "train", "test"),
    judging="stdin/stdout tests (samples + derived I/O), the origin judge's comparison",
    tasks=tasks,
    references=references,
)
