"""What every source hands the build (`SourceScan`), and locating a row in an input file.

Sources: each turns an archive of judged code into submission batches and a problems table.

A source never decides what is kept: rows it cannot use still flow on, with `reject_reason`
set, so the build can account for every input row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from codelog.errors import CodelogError


@dataclass
class SourceScan:
    """What a source hands the build."""

    language: str  # the canonical language name (CodeNet directory spelling)
    problems: pa.Table  # codelog.schema.PROBLEM
    rows_total: int  # rows the batches will yield, for progress and accounting
    batches: Callable[[int], Iterator[pa.RecordBatch]]  # batch size -> SUBMISSION batches
    root: Path | None = None  # input files are named relative to this in the fingerprint
    input_files: list[Path] = field(default_factory=list)  # tables/statements that define the input
    source_dirs: list[Path] = field(default_factory=list)  # where source files live (staging key)
    # Problems marked identical (one cluster per tuple): they share a split (codelog.group.split)
    problem_clusters: list[tuple[str, ...]] = field(default_factory=list)
    clusters_file: Path | None = None  # where the clusters came from, if anywhere
    # The problems' tests (codelog.schema.TEST batches, streamed), where the source has them
    tests: Callable[[], Iterator[pa.RecordBatch]] | None = None


def locate_lines(path: str | Path, submission_id: str) -> list[int]:
    """Lines (1-based) of a text table that hold `submission_id` as a whole field.

    Only the error path uses this: readers do not report line numbers of rows they accept.
    """
    needle = submission_id.encode("utf-8", "surrogateescape")
    if not needle:
        return []
    pattern = re.compile(rb"(?<![A-Za-z0-9_.-])" + re.escape(needle) + rb"(?![A-Za-z0-9_.-])")
    lines = []
    try:
        with open(path, "rb") as f:
            for number, line in enumerate(f, start=1):
                if needle in line and pattern.search(line):
                    lines.append(number)
    except OSError:
        return []
    return lines


def combine(scans: list[SourceScan], same: dict[str, str]) -> SourceScan:
    """One scan of several sources' rows, in the order given (a mixed build).

    `same` maps a problem id to the id of the same problem in an earlier source (found by
    statement, codelog.group.split.same_problems): its rows take that id, so the two are one
    problem, in one split, deduplicated and grouped together; the earlier source's problem
    row stands for both. The pairs are also kept as clusters, for the manifest.
    """
    languages = {scan.language for scan in scans}
    if len(languages) > 1:
        raise CodelogError(f"the sources of one build name its language differently: {languages}")
    problems = pa.concat_tables([scan.problems for scan in scans])
    keep = [pid not in same for pid in problems.column("problem_id").to_pylist()]
    problems = problems.filter(pa.array(keep))

    def batches(batch_size: int) -> Iterator[pa.RecordBatch]:
        for scan in scans:
            for batch in scan.batches(batch_size):
                yield _renamed(batch, same) if same else batch

    def tests() -> Iterator[pa.RecordBatch]:
        for scan in scans:  # a problem two sources hold keeps the tests of both
            for batch in scan.tests() if scan.tests else ():
                yield _renamed(batch, same) if same else batch

    return SourceScan(
        language=scans[0].language,
        problems=problems,
        rows_total=sum(scan.rows_total for scan in scans),
        batches=batches,
        root=scans[0].root,
        input_files=[f for scan in scans for f in scan.input_files],
        source_dirs=[d for scan in scans for d in scan.source_dirs],
        problem_clusters=[
            *(c for scan in scans for c in scan.problem_clusters),
            *sorted((first, other) for other, first in same.items()),
        ],
        clusters_file=next((s.clusters_file for s in scans if s.clusters_file), None),
        tests=tests if any(scan.tests for scan in scans) else None,
    )


def _renamed(batch: pa.RecordBatch, same: dict[str, str]) -> pa.RecordBatch:
    at = batch.schema.get_field_index("problem_id")
    ids = [same.get(pid, pid) for pid in batch.column(at).to_pylist()]
    return batch.set_column(at, "problem_id", pa.array(ids, pa.string()))
