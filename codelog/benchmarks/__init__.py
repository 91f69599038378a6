"""The benchmarks registry: one module per benchmark, each a `Benchmark` (codelog.benchmarks
.base) that reads its published source and yields problems with tests, difficulty and prompt.

`codelog eval --benchmark` and `codelog judge --tests` resolve a name here: `NAME` (the Hub,
or the bundled copy), `NAME@VERSION` (a release on the Hub: LiveCodeBench's) or `NAME:PATH` (a
local copy in the benchmark's own published form).
contamination/ reads the statements and reference solutions through `references`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codelog.benchmarks import (
    apps,
    codecontests,
    codenet,
    humaneval,
    humaneval_plus,
    livecodebench,
    mbpp,
    mbpp_plus,
)
from codelog.benchmarks.base import Benchmark, Reference, Skip, Source, Task
from codelog.errors import CodelogError
from codelog.execution.testcases import Problem

__all__ = [
    "Benchmark",
    "Reference",
    "Skip",
    "Suite",
    "Task",
    "get",
    "is_benchmark",
    "load",
    "names",
    "parse",
    "references",
    "tasks",
]

REGISTRY: dict[str, Benchmark] = {
    m.BENCHMARK.name: m.BENCHMARK
    for m in (
        humaneval,
        codenet,
        mbpp,
        apps,
        codecontests,
        livecodebench,
        humaneval_plus,
        mbpp_plus,
    )
}


def names() -> tuple[str, ...]:
    """The registered benchmarks' names."""
    return tuple(REGISTRY)


def get(name: str) -> Benchmark:
    try:
        return REGISTRY[name]
    except KeyError:
        raise CodelogError(f"unknown benchmark {name!r}: one of {', '.join(REGISTRY)}") from None


def is_benchmark(spec: str) -> bool:
    """Whether `spec` names a registered benchmark (NAME, NAME@VERSION or NAME:PATH)."""
    return spec.partition(":")[0].partition("@")[0] in REGISTRY


def parse(spec: str) -> tuple[Benchmark, Source]:
    """The benchmark and source of `NAME`, `NAME@VERSION` or `NAME:PATH`."""
    head, colon, path = spec.partition(":")
    name, at, version = head.partition("@")
    benchmark = get(name)
    if colon and not path:
        raise CodelogError(f"--benchmark {spec!r}: {name}:PATH needs a path after the colon")
    if at:
        if benchmark.versions is None:
            raise CodelogError(f"--benchmark {spec!r}: {name} has no versions (no @ after it)")
        if colon:
            raise CodelogError(
                f"--benchmark {spec!r}: @VERSION picks a release on the Hub; a local copy "
                f"({name}:PATH) is the files it holds"
            )
        if not version:
            raise CodelogError(f"--benchmark {spec!r}: {name}@ needs {benchmark.versions}")
    return benchmark, Source(name, Path(path) if colon else None, version or None)


def references(spec: str, split: str | None = None) -> Iterator[Reference]:
    """Every problem of a benchmark's split (default: its default split) as published."""
    benchmark, source = parse(spec)
    return benchmark.references(source, split or benchmark.default_split)


def tasks(
    spec: str, split: str | None = None, options: Mapping[str, Any] | None = None
) -> Iterator[Task | Skip]:
    """Every problem of a benchmark's split, ready to judge (or skipped, with the reason), in
    the source's order."""
    benchmark, source = parse(spec)
    return benchmark.tasks(source, split or benchmark.default_split, options or {})


@dataclass
class Suite:
    """The problems of one benchmark run, by task_id."""

    benchmark: str
    split: str
    tasks: dict[str, Task] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)  # task_id -> why it is not judged

    @property
    def problems(self) -> dict[str, Problem]:
        return {tid: t.problem for tid, t in self.tasks.items()}

    def difficulty(self, task_id: str) -> str | None:
        return self.tasks[task_id].difficulty


def load(
    spec: str,
    split: str | None = None,
    *,
    after: str | None = None,
    before: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Suite:
    """A benchmark's problems of `split` (its default without one), those with a contest date
    in [after, before) when given (ISO dates; LiveCodeBench's answer to contamination)."""
    benchmark, _ = parse(spec)
    split = split or benchmark.default_split
    suite = Suite(benchmark.name, split)
    for task in tasks(spec, split, options):
        if isinstance(task, Skip):
            suite.skipped[task.task_id] = task.reason
            continue
        if after is not None or before is not None:
            if task.contest_date is None:
                raise CodelogError(
                    f"--after/--before pick problems by contest date; {benchmark.name}'s "
                    "problems have none"
                )
            day = task.contest_date[:10]
            if (after is not None and day < after) or (before is not None and day >= before):
                continue
        tid = task.problem.problem_id
        if tid in suite.tasks:
            raise CodelogError(f"{spec}: problem {tid!r} appears twice")
        suite.tasks[tid] = task
    if not suite.tasks:
        raise CodelogError(
            f"{spec}: no problems in split {split!r}"
            + (" within the dates given" if after or before else "")
            + f" (--split: one of {', '.join(benchmark.splits)})"
        )
    return suite
