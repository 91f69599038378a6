"""Judging on Ray against the local pool, on the same programs, and CodeNet Python on N nodes.

    python bench/judge_ray.py [--workers 2] [--rounds 2] [--copies 1] [--cores 32] [--json]

1. **Overhead.** The bundled sample, built, gives the programs (every kept solution whose
   logged verdict is not Time Limit Exceeded, as in bench/judge.py), `--copies` times over.
   They are judged with `judge_many` on the local pool of `--workers` processes and as Ray
   tasks on a Ray instance of `--workers` CPUs on this machine (`ray.init(num_cpus=...)`,
   started once; its start-up time is reported apart). Both sides run back to back,
   alternating, `--rounds` times; the best round of each is reported, and the ratio Ray /
   local (goal: at most 1.15x). The verdicts of both are compared (timing aside).
2. **Projection.** Per-core throughput measured on Ray (programs/s / CPUs) gives the time for
   CodeNet's 3.3M Python submissions on N nodes of C cores, assuming the sample's programs
   and tests are typical of CodeNet's (they are CodeNet programs on their statements' sample
   I/O) and that nodes scale linearly (each task is independent; the driver only collects
   rows, ~100 bytes a verdict).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.judge import sample_programs  # noqa: E402
from codelog.execution.judge import Verdict, judge_many, result_record  # noqa: E402
from codelog.execution.testcases import BUNDLED_CODENET, codenet_problems  # noqa: E402
from codelog.executors import ExecutorSpec  # noqa: E402

CODENET_PYTHON = 3_300_000
NODES = (1, 4, 16, 64)


def _comparable(result) -> dict:
    record = result_record(result)
    drop = {"cpu_ms", "wall_ms", "memory_kb", "isolation", "tests", "detail"}
    return {k: v for k, v in record.items() if k not in drop}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--copies", type=int, default=1, help="the sample's programs, N times")
    parser.add_argument("--cores", type=int, default=32, help="cores per node, for projection")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import ray

    with tempfile.TemporaryDirectory(prefix="codelog-bench-ray-") as tmp:
        programs = sample_programs(Path(tmp))
    programs = [
        dataclasses.replace(p, submission_id=f"{p.submission_id}#{copy}")
        for copy in range(args.copies)
        for p in programs
    ]
    problems = codenet_problems(BUNDLED_CODENET)
    start = time.monotonic()
    ray.init(
        num_cpus=args.workers, include_dashboard=False, logging_level=logging.ERROR,
        log_to_driver=False,
    )  # fmt: skip
    ray_start = time.monotonic() - start
    seconds: dict[str, list[float]] = {"local": [], "ray": []}
    verdicts = {}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for kind in ("local", "ray"):
            start = time.monotonic()
            results = judge_many(
                programs, problems, workers=args.workers, executor=ExecutorSpec(kind)
            )
            seconds[kind].append(time.monotonic() - start)
            print(f"{kind}: {seconds[kind][-1]:.2f} s", file=sys.stderr, flush=True)
            verdicts[kind] = [_comparable(r) for r in results]
    ray.shutdown()
    local, on_ray = min(seconds["local"]), min(seconds["ray"])
    per_core = len(programs) / on_ray / args.workers
    report = {
        "workers": args.workers,
        "programs": len(programs),
        "judged": sum(isinstance(r, Verdict) for r in results),
        "rounds": args.rounds,
        "local_seconds": local,
        "ray_seconds": on_ray,
        "ratio": on_ray / local,
        "local_rounds": seconds["local"],
        "ray_rounds": seconds["ray"],
        "ray_start_seconds": ray_start,
        "same_verdicts": verdicts["local"] == verdicts["ray"],
        "per_core_programs_per_s": per_core,
        "load_before": load,
        "projection": {
            f"{n}x{args.cores}": CODENET_PYTHON / (per_core * args.cores * n) for n in NODES
        },
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{len(programs)} programs (the sample's, x{args.copies}); {args.workers} workers; "
        f"best of {args.rounds}; load before {load:.1f}"
    )
    print(f"{'':26}{'seconds':>9}{'programs/s':>12}")
    for name, value in (("local pool", local), ("Ray tasks (1 machine)", on_ray)):
        print(f"{name:26}{value:9.2f}{len(programs) / value:12.1f}")
    print(
        f"Ray / local = {report['ratio']:.2f}x (goal <= 1.15x); Ray start-up {ray_start:.1f} s "
        f"(once per run, not counted); same verdicts: {report['same_verdicts']}"
    )
    print(
        f"CodeNet Python ({CODENET_PYTHON:,} submissions) at {per_core:.1f} programs/s per "
        f"core, nodes of {args.cores} cores:"
    )
    for nodes, secs in report["projection"].items():
        print(f"  {nodes:>6}: {secs / 3600:6.2f} h")


if __name__ == "__main__":
    main()
