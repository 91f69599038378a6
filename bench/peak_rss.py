"""One `codelog build` in-process, with its peak RSS (main process and the whole tree), per step.

    .venv/bin/python bench/peak_rss.py --root /tmp/codelog-bench/codenet-3300000-seed0 \\
        --out /tmp/rss-out/3.3m --memory 1GB

Steps are `scan` (everything before staging), `stage` (parse into Parquet parts; skipped when
the staged results are reused) and `group_and_write` (the SQL and the dataset files). A rerun
with the same --out reuses the stage, so group+write can be measured alone in seconds.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from codelog import builder as build
from codelog.builder import run_build
from codelog.options import BuildOptions, parse_memory
from codelog.recipe import load_recipe


class Sampler:
    """Samples RSS of this process and its children; peaks are kept per step."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self.step = "scan"
        self.peaks: dict[str, dict[str, int]] = {}
        self._me = psutil.Process()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._done.is_set():
            self.sample()
            time.sleep(self.interval)

    def sample(self) -> None:
        try:
            main = self._me.memory_info().rss
            tree = main + sum(c.memory_info().rss for c in self._me.children(recursive=True))
        except psutil.Error:  # a child exited between listing and reading it
            return
        peak = self.peaks.setdefault(self.step, {"main": 0, "tree": 0})
        peak["main"], peak["tree"] = max(peak["main"], main), max(peak["tree"], tree)

    def entering(self, step: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """`fn`, marking `step` while it runs (sampled once on the way in and out)."""

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            self.sample()
            self.step = step
            try:
                return fn(*args, **kwargs)
            finally:
                self.sample()

        return wrapped


def gib(n: int) -> str:
    return f"{n / 2**30:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--memory", default=None, help="DuckDB's budget (default: codelog's)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    args = parser.parse_args()

    extra = {"memory": parse_memory(args.memory)} if args.memory else {}
    options = BuildOptions(
        source="codenet",
        language="python",
        out=args.out,
        recipe=load_recipe(),
        root=args.root,
        workers=args.workers,
        show_progress=False,
        **extra,
    )
    with Sampler() as sampler:
        # run_build looks these up as module globals at call time: wrapping marks the steps
        build.stage = sampler.entering("stage", build.stage)
        # grouping and publishing start by reading the staged digest; the step mark stays set
        build.staged_code_digest = sampler.entering("group_and_write", build.staged_code_digest)
        report = run_build(options)
    overall = {k: max(p[k] for p in sampler.peaks.values()) for k in ("main", "tree")}
    steps = ", ".join(f"{k} {v:.1f}s" for k, v in report.seconds.items())
    per_step = "; ".join(
        f"{step} {gib(p['main'])}/{gib(p['tree'])}" for step, p in sampler.peaks.items()
    )
    print(
        f"{report.manifest['counts']['rows_in']:,} rows, memory budget {options.memory_bytes >> 20} MiB: "
        f"{steps}; peak RSS main {gib(overall['main'])} GiB, tree {gib(overall['tree'])} GiB "
        f"(per step, main/tree GiB: {per_step})"
        + (" (staged results reused)" if report.staged_reused else "")
    )
    if args.json:
        print(
            json.dumps(
                {
                    "rows": report.manifest["counts"]["rows_in"],
                    "memory_bytes": options.memory_bytes,
                    "seconds": report.seconds,
                    "staged_reused": report.staged_reused,
                    "peak_bytes": overall,
                    "peak_bytes_by_step": sampler.peaks,
                }
            )
        )


if __name__ == "__main__":
    main()
