"""The problems an eval asks: a spec's benchmark resolved to problems with their tests
(codelog.execution.testcases), and for a registered benchmark its prompts, difficulties and the
problems it could not judge (codelog.benchmarks).

`--benchmark` takes a registered benchmark (NAME, NAME:PATH, NAME@VERSION), CodeNet
(codenet[:DIR]; a built dataset's split with --split) or a problems .jsonl. `heldout` (in
`codelog experiment` and pass@k while training) is a built dataset's test split.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codelog.errors import CodelogError
from codelog.evaluation.spec import EvalSpec
from codelog.execution.testcases import (
    Problem,
    dataset_problems,
    dataset_splits,
    load_problems,
    problem_files,
    split_problems,
)

if TYPE_CHECKING:
    from codelog.benchmarks import Task

HELDOUT = "heldout"  # a built dataset's test split, the problems it never trained on


@dataclass
class Benchmarked:
    """The problems of an eval run: a registered benchmark's (with difficulty and prompts) or a
    problems file's / CodeNet's (codelog.execution.testcases)."""

    problems: dict[str, Problem]
    tasks: dict[str, Task] | None
    difficulty: dict[str, str | None]
    not_judged: dict[str, str]  # problem -> why it has no tests to judge against
    inputs: list[Path]  # what it reads (never an output)
    split: str | None


def problems_of(spec: EvalSpec) -> Benchmarked:
    """The spec's problems: its benchmark, split, contest dates and test sets, then the first
    `limit` by id (`not_judged` still names every problem without tests, as summary.json
    reports them)."""
    bench = resolve_benchmark(
        spec.benchmark,
        spec.split,
        after=spec.after,
        before=spec.before,
        test_sets=spec.test_sets,
        challenge_tests=spec.challenge_tests,
    )
    if spec.limit is None:
        return bench
    picked = sorted(bench.problems)[: spec.limit]
    return dataclasses.replace(bench, problems={p: bench.problems[p] for p in picked})


def resolve_benchmark(
    benchmark: str,
    split: str | None = None,
    *,
    after: str | None = None,
    before: str | None = None,
    test_sets: Sequence[str] | None = None,
    challenge_tests: bool = False,
) -> Benchmarked:
    """`--benchmark` as a registered benchmark (codelog.benchmarks: NAME or NAME:PATH), CodeNet
    (codenet[:DIR], with a built dataset's --split), or a problems .jsonl."""
    from codelog import benchmarks

    name = benchmark.partition(":")[0]
    if benchmarks.is_benchmark(benchmark) and name != "codenet":
        options = {"test_sets": list(test_sets or ()), "challenge_tests": challenge_tests}
        suite = benchmarks.load(benchmark, split, after=after, before=before, options=options)
        _, source = benchmarks.parse(benchmark)
        return Benchmarked(
            suite.problems,
            suite.tasks,
            {tid: t.difficulty for tid, t in suite.tasks.items()},
            suite.skipped,
            [source.path] if source.path is not None else [],
            suite.split,
        )
    if after is not None or before is not None:
        raise CodelogError("--after/--before pick problems by contest date (livecodebench)")
    inputs = problem_files(benchmark)
    problems = load_problems(benchmark)
    if split is not None:
        problems = split_problems(problems, benchmark, split)
    return Benchmarked(problems, None, {}, {}, inputs, split)


def heldout_problems(dataset: Path) -> dict[str, Problem]:
    """The dataset's test-split problems that have tests (their statements' samples): what
    pass@k while training evaluates by default."""
    with_tests = dataset_problems(dataset)  # an InputError if it is not a dataset
    splits = dataset_splits(dataset) or {}
    problems = {p: problem for p, problem in with_tests.items() if splits.get(p) == "test"}
    if not problems:
        test = sum(s == "test" for s in splits.values())
        raise CodelogError(
            f"{dataset}: no test-split problem has tests in its statement ({test} test "
            "problems); pass@k while training needs some: rebuild with a [split] test fraction, "
            "or give --eval-benchmark humaneval|codenet:DIR|FILE.jsonl"
        )
    return problems
