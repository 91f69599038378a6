"""What a benchmark is: a reader of its published source that yields problems with their
tests, difficulty and prompt, and the references contamination/ indexes.

A benchmark module defines one `Benchmark` (registered in codelog.benchmarks). Its source is
`NAME:PATH`, a local copy in the benchmark's own published form, or a bare `NAME`: its rows on
the Hugging Face Hub as the repository is published today (codelog.benchmarks.hub; offline it
fails at once with one line naming the `NAME:PATH` form). `NAME@VERSION` picks a release of a
benchmark that has them (LiveCodeBench's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import codelog.benchmarks.decoding as decoding
from codelog.errors import InputError
from codelog.execution.testcases import Problem


@dataclass(frozen=True)
class Reference:
    """A benchmark problem as published: what the contamination index reads."""

    benchmark: str  # registry name: "mbpp", "apps", "humaneval", ...
    task_id: str  # the problem's id as the source spells it
    statement: str  # the problem text as published (raw; contamination normalizes it)
    solutions: tuple[str, ...]  # reference solutions shipped with the benchmark (may be empty)
    language: str = "python"
    url: str | None = None  # where the source says it came from (APPS/CodeContests/LCB give one)


@dataclass(frozen=True)
class Task:
    """One benchmark problem ready to judge: the Problem execution/ runs, the prompt a model
    is asked, and what results are grouped by."""

    problem: Problem
    prompt: str | None  # None: the recipe's [prompt] template over the statement (CodeNet)
    difficulty: str | None = None
    # ISO date and time in UTC (LiveCodeBench, parsed: decoding.iso_date), for --after / --before
    contest_date: str | None = None
    # the completion is a whole program (a fenced block's content when the model wrote one);
    # False: it continues the prompt's function (HumanEval) and is cut at its stop sequences
    whole_program: bool = True


@dataclass(frozen=True)
class Skip:
    """A problem of the source that cannot be judged (no tests), with the reason: counted in
    the run's summary, never silently dropped."""

    task_id: str
    reason: str


@dataclass(frozen=True)
class Source:
    """Where a benchmark's rows come from: a local path, or the Hub (path None)."""

    name: str
    path: Path | None
    version: str | None = None  # NAME@VERSION: a release on the Hub (LiveCodeBench's)

    @property
    def spec(self) -> str:
        name = self.name if self.version is None else f"{self.name}@{self.version}"
        return name if self.path is None else f"{name}:{self.path}"


@dataclass(frozen=True)
class Benchmark:
    """A registered benchmark: its readers and its rules (one module each)."""

    name: str
    description: str  # source, one line
    default_split: str
    splits: tuple[str, ...]
    judging: str  # the judging rules, one line (docs/benchmarks.md has the long form)
    tasks: Callable[[Source, str, Mapping[str, Any]], Iterator[Task | Skip]]
    references: Callable[[Source, str], Iterator[Reference]]
    hub_id: str | None = None  # the Hub dataset a bare NAME loads
    versions: str | None = None  # what NAME@VERSION may name (None: no versions), one line


def json_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line or index, row) of a JSONL file, or of a JSON file holding a list of rows."""
    if path.suffix == ".json":
        try:
            rows = decoding.json_value(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # decoding.Refused is a ValueError
            raise InputError(path, f"unreadable JSON: {exc}") from None
        if not isinstance(rows, list):
            raise InputError(path, "a JSON benchmark file holds a list of rows")
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise InputError(path, f"row {i} is not an object")
            yield i, row
        return
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        for i, row in enumerate(pq.read_table(path).to_pylist()):
            yield i + 1, row
        return
    from codelog.files import json_lines

    for n, row in json_lines(path):
        if not isinstance(row, dict):
            raise InputError(path, "not a JSON object", line=n)
        yield n, row


def local_rows(
    path: Path, suffixes: tuple[str, ...], what: str, prefer: str | None = None
) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """(file, line, row) of a local benchmark copy: one file, or every file of a directory
    with one of `suffixes` (those whose name starts with `prefer`, a split's name, when there
    are such), in name order."""
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.suffix in suffixes)
        files = [p for p in found if prefer and p.name.startswith(prefer)] or found
        if not files:
            raise InputError(path, f"no {' or '.join(suffixes)} files of {what} rows here")
    elif path.is_file():
        files = [path]
    else:
        raise not_a_file(path, f"{what} rows are read from a file, or a directory of files")
    for file in files:
        for n, row in json_rows(file):
            yield str(file), n, row


def not_a_file(path: Path, reads: str) -> InputError:
    """The error for a benchmark path with no file to read there, saying what is there: nothing,
    a directory, or a pipe or device (never opened: reading a FIFO would block). `reads` says
    what the benchmark reads instead."""
    if path.is_dir():
        what = "a directory, not a file"
    elif path.exists():
        what = "not a regular file (a pipe, socket or device)"
    else:
        what = "no such file or directory"
    return InputError(path, f"{what}: {reads}")
