"""The held-out split: train or test, by problem, seeded, identical problems together.

A *unit* is a problem, or a cluster of problems CodeNet marks identical (the same task posted
twice; `derived/duplicates/identical_problem_clusters`), named by its smallest problem id.
A unit is "test" when sha256("{seed}:{unit}") read as a fraction of 2**64 falls under
`test_fraction`. That depends on nothing but the unit and the seed, so a problem keeps its
split when the input grows, in every language's build and under every --seed. Two guarantees
override it on small inputs: with two or more units, at least one is test (the lowest hash)
and at least one is train (the highest).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import pyarrow as pa

from codelog.benchmarks.base import Reference
from codelog.contamination.index import StatementRule, statement_matches

TRAIN, TEST = "train", "test"
# Two sources' problems are one problem when one statement covers this much of the other
# (codelog.contamination.index's weighted n-grams): stricter than the leakage check's 0.5,
# since a match here merges two problems' solutions into one group.
SAME_PROBLEM = StatementRule(threshold=0.8)


@dataclass(frozen=True)
class SplitResult:
    splits: dict[str, str]  # problem_id -> train / test
    units: int  # units among the problems (a cluster counts once)
    forced: str | None  # "test" / "train": a guarantee overrode the hash; None: it did not


def cluster_keys(clusters: Iterable[Sequence[str]]) -> dict[str, str]:
    """problem_id -> the smallest id of its cluster; clusters sharing a problem are merged."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for cluster in clusters:
        ids = list(cluster)
        for other in ids[1:]:
            a, b = find(ids[0]), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)  # the root is always the smallest id
        if ids:
            find(ids[0])
    return {pid: find(pid) for pid in parent}


def unit_score(unit: str, seed: int) -> float:
    """The unit's place in [0, 1): the first 8 bytes of sha256("{seed}:{unit}") / 2**64."""
    digest = hashlib.sha256(f"{int(seed)}:{unit}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def assign_splits(
    problem_ids: Iterable[str],
    clusters: Iterable[Sequence[str]],
    test_fraction: float,
    seed: int,
) -> SplitResult:
    """Each of `problem_ids` -> "train" or "test" (see the module docstring)."""
    keys = cluster_keys(clusters)
    unit_of = {pid: keys.get(pid, pid) for pid in problem_ids}
    units = sorted(set(unit_of.values()))
    scores = {u: unit_score(u, seed) for u in units}
    test = {u for u in units if scores[u] < test_fraction}
    forced = None
    if len(units) >= 2 and test_fraction > 0:
        by_score = sorted(units, key=lambda u: (scores[u], u))
        if not test:
            test, forced = {by_score[0]}, TEST
        elif len(test) == len(units):
            test, forced = test - {by_score[-1]}, TRAIN
    splits = {pid: TEST if unit in test else TRAIN for pid, unit in sorted(unit_of.items())}
    return SplitResult(splits, len(units), forced)


def force_test(
    result: SplitResult, problems: Iterable[str], clusters: Iterable[Sequence[str]]
) -> SplitResult:
    """`result` with `problems`, and every problem of their units, in the test split (the
    [decontaminate] step's action "test"): a benchmark problem is never trained on, whatever
    its hash says, and its identical twins go with it."""
    keys = cluster_keys(clusters)
    units = {keys.get(p, p) for p in problems}
    splits = {
        pid: TEST if keys.get(pid, pid) in units else split for pid, split in result.splits.items()
    }
    return replace(result, splits=splits)


def same_problems(earlier: pa.Table, later: pa.Table) -> dict[str, str]:
    """Problems of `later` (a source's problems table) that are problems of `earlier`, by
    statement: later id -> earlier id, each later problem to its best match (ties: the
    smallest id). A mixed build gives such a pair one id, hence one split and one group."""
    # the earlier source's problems stand where the leakage check has a benchmark's
    known = [
        Reference("earlier source", pid, text, ())
        for pid, text in zip(*_columns(earlier), strict=True)
        if text
    ]
    new = [(pid, text) for pid, text in zip(*_columns(later), strict=True) if text]
    found: dict[str, str] = {}
    for match in statement_matches(new, known, SAME_PROBLEM):  # best first
        found.setdefault(match.source_id, match.task_id)
    return found


def _columns(problems: pa.Table) -> tuple[list[str], list[str | None]]:
    return (
        problems.column("problem_id").to_pylist(),
        problems.column("prompt").to_pylist(),
    )
