"""Options of a build: what to read, where to write, how hard to work. A leaf: the
orchestrator, the sources and the publisher all take it, none of them owns it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from codelog.errors import CodelogError
from codelog.executors import LOCAL, ExecutorSpec
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
    # --source ci: the problems' tests (codelog.schema.TEST columns, Parquet; a dataset's own
    # tests.parquet), so a dataset rebuilt from `codelog judge`'s rows keeps them
    tests_file: Path | None = None
    seed: int = 0
    workers: int | None = None
    show_progress: bool = True
    kind: str = "solutions"  # what a row is: "solutions" or "repair" (codelog.group.repairs)
    wait: bool = False  # another build of the same out running: wait for it (else BusyError)
    license: str | None = None  # the card's license (CodeNet: cdla-permissive-2.0 always)
    # DuckDB's budget for the grouping SQL (bytes); beyond it DuckDB spills to the staging
    # directory. None: `default_memory_budget()`. Set by `--memory` or CODELOG_MEMORY.
    memory: int | None = None
    # Where the stage step runs: a local pool of `workers`, or Ray tasks (their parts are
    # written beside `out`, which must then be storage every node shares).
    executor: ExecutorSpec = LOCAL

    @property
    def memory_bytes(self) -> int:
        return self.memory if self.memory is not None else default_memory_budget()


MIB = 1 << 20
GIB = 1 << 30
# Below this DuckDB cannot hold the grouping's working set at any size (measured: 64 MiB fails
# in the first second at 100k rows, 128 MiB completes at 1M and 3.3M by spilling).
MEMORY_FLOOR = 128 * MIB
# The default spends a quarter of the memory available, within these bounds: more than 512 MiB
# hardly speeds the grouping up (it spills in large sequential runs), and it keeps a build's
# peak flat on a big machine.
MEMORY_DEFAULT_MIN = 256 * MIB
MEMORY_DEFAULT_MAX = 512 * MIB
MEMORY_ENV = "CODELOG_MEMORY"
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": MIB, "mb": MIB,
          "mib": MIB, "g": GIB, "gb": GIB, "gib": GIB}  # fmt: skip


def parse_memory(text: str, where: str = "--memory") -> int:
    """'512MB', '2GiB', '1g' or a number of bytes -> bytes (units are powers of 1024).
    Refused with the floor named when below MEMORY_FLOOR."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*", str(text))
    if not match or match.group(2).lower() not in _UNITS:
        raise CodelogError(
            f"{where}: {text!r} is not a memory size; write e.g. 512MB, 2GB or 1.5GiB"
        )
    value = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if value < MEMORY_FLOOR:
        raise CodelogError(
            f"{where}: {text} is below the grouping stage's floor of "
            f"{MEMORY_FLOOR // MIB} MiB; give it at least {MEMORY_FLOOR // MIB}MB"
        )
    return value


def memory_from_env() -> int | None:
    """CODELOG_MEMORY as bytes, or None when unset."""
    value = os.environ.get(MEMORY_ENV)
    return parse_memory(value, MEMORY_ENV) if value else None


def available_memory() -> int:
    """Memory this process may still use: MemAvailable, lowered to the cgroup's headroom."""
    available = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
    except OSError:
        pass
    try:  # a container's limit (cgroup v2), which /proc/meminfo does not show
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        used = int(Path("/sys/fs/cgroup/memory.current").read_text())
        if limit != "max":
            available = min(available, int(limit) - used)
    except (OSError, ValueError):
        pass
    return max(available, 0)


def default_memory_budget() -> int:
    """A quarter of the available memory, within [MEMORY_DEFAULT_MIN, MEMORY_DEFAULT_MAX]."""
    return min(MEMORY_DEFAULT_MAX, max(MEMORY_DEFAULT_MIN, available_memory() // 4))
