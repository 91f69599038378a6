"""Options of a build: what to read, where to write, how hard to work. A leaf: the
orchestrator, the sources and the publisher all take it, none of them owns it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from codelog.recipe import Recipe


@dataclass(frozen=True)
class BuildOptions:
    source: str
    language: str
    out: Path
    recipe: Recipe
    root: Path | None = None
    inputs: tuple[str, ...] = ()
    problems_file: Path | None = None
    seed: int = 0
    workers: int | None = None
    show_progress: bool = True
    kind: str = "solutions"  # what a row is: "solutions" or "repair" (codelog.group.repairs)
    wait: bool = False  # another build of the same out running: wait for it (else BusyError)
    license: str | None = None  # the card's license (CodeNet: cdla-permissive-2.0 always)
    # DuckDB's budget for the grouping SQL, which sees only narrow rows (the code is put in
    # order by codelog.publish.spillsort); beyond it DuckDB spills to the staging directory, so peak
    # memory stays flat however large the input. 128MB on 2 cores: 3.3M rows group in 54 s
    # (at 256MB: 59 s, and 0.14 GiB more); DuckDB needs some room per thread, hence the scaling.
    memory_limit: str = field(default_factory=lambda: f"{64 * max(2, os.cpu_count() or 2)}MB")
