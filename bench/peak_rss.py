"""One `codelog build` in-process, with its peak RSS (main process and the whole tree).

    .venv/bin/python bench/peak_rss.py --root /tmp/codelog-bench/codenet-3300000-seed0 \\
        --out /tmp/rss-out/3.3m --memory-limit 1GB
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

import psutil

from codelog.build import BuildOptions, run_build
from codelog.recipe import load_recipe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--memory-limit", default="1GB", help="DuckDB's budget")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    me = psutil.Process()
    peak = {"main": 0, "tree": 0}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            try:
                main_rss = me.memory_info().rss
                tree = main_rss + sum(c.memory_info().rss for c in me.children(recursive=True))
            except psutil.Error:
                continue
            peak["main"], peak["tree"] = max(peak["main"], main_rss), max(peak["tree"], tree)
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    options = BuildOptions(
        source="codenet",
        language="python",
        out=args.out,
        recipe=load_recipe(),
        root=args.root,
        workers=args.workers,
        show_progress=False,
        memory_limit=args.memory_limit,
    )
    report = run_build(options)
    done.set()
    sampler.join()
    steps = ", ".join(f"{k} {v:.1f}s" for k, v in report.seconds.items())
    print(
        f"{report.manifest['counts']['rows_in']:,} rows, memory limit {args.memory_limit}: {steps}; "
        f"peak RSS main {peak['main'] / 2**30:.2f} GiB, tree {peak['tree'] / 2**30:.2f} GiB"
        + (" (staged results reused)" if report.staged_reused else "")
    )


if __name__ == "__main__":
    main()
