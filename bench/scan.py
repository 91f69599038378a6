"""The CodeNet scan alone (`scan_codenet`: the metadata passes before any source is read).

    PYTHONPATH=CHECKOUT python bench/scan.py --root TREE [--lang python] [--rounds 3]

Wall and CPU seconds of each round in this process, with what the scan found (rows, problems,
language), so that two checkouts run one after the other compare like with like.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, required=True, help="CodeNet-layout tree")
    ap.add_argument("--lang", default="python")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    import codelog
    from codelog.ingest.codenet import scan_codenet
    from codelog.recipe import load_recipe

    recipe = load_recipe()
    print(f"codelog from {Path(codelog.__file__).parent}")
    for _ in range(args.rounds):
        wall, cpu = time.perf_counter(), _cpu()
        scan = scan_codenet(args.root, args.lang, recipe)
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
        print(
            f"scan: {wall:.2f} s, {cpu:.2f} CPU-s; {scan.rows_total:,} rows, "
            f"{len(scan.source_dirs):,} problems, language {scan.language!r}",
            flush=True,
        )


if __name__ == "__main__":
    main()
