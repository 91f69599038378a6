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
