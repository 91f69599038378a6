"""codelog's TRL reward over training steps: one pool kept across batches vs a pool per batch.

    python bench/trl_reward.py [--steps 8] [--batch 16] [--workers 2] [--rounds 2]

A trainer calls its reward function once per step with a batch of rollouts. `CodeReward` keeps
its judging processes, and each one's warm interpreter (codelog.execution.zygote), from one
call to the next; the other side closes them after every batch, which is what a reward built
on a pool per call pays: a fork of the pool and a zygote started per worker, every step.
Rollouts: accepted and wrong solutions of the bundled sample's problems, in a fixed order.
Both sides run back to back `--rounds` times; the best round of each is reported.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import polars as pl  # noqa: E402

from codelog.builder import run_build  # noqa: E402
from codelog.execution.trl_reward import CodeReward  # noqa: E402
from codelog.options import BuildOptions  # noqa: E402
from codelog.recipe import load_recipe  # noqa: E402


def rollouts(dataset: Path, n: int) -> tuple[list[str], list[str]]:
    """(problem ids, codes) of `n` kept solutions, correct and not, in a fixed order."""
    rows = (
        pl.read_parquet(dataset / "solutions.parquet")
        .filter(pl.col("outcome").is_in(["accepted", "wrong_answer"]))
        .sort("submission_id")
        .head(n)
    )
    return rows["problem_id"].to_list(), rows["code"].to_list()


def run_steps(
    reward: CodeReward, ids: list[str], codes: list[str], steps: int, batch: int, keep: bool
) -> float:
    start = time.perf_counter()
    for step in range(steps):
        lo = step * batch % len(ids)
        chunk_ids = (ids * 2)[lo : lo + batch]
        chunk = (codes * 2)[lo : lo + batch]
        reward([""] * len(chunk), chunk, problem_id=chunk_ids)
        if not keep:
            reward.close()
    reward.close()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dataset = Path(tmp) / "ds"
        run_build(
            BuildOptions(
                source="codenet",
                language="python",
                out=dataset,
                recipe=load_recipe(),
                show_progress=False,
            )
        )
        ids, codes = rollouts(dataset, 4 * args.batch)
        reward = CodeReward.from_dataset(dataset, workers=args.workers)
        best = {"kept": float("inf"), "per batch": float("inf")}
        load = os.getloadavg()[0]
        for _ in range(args.rounds):
            for side, keep in (("kept", True), ("per batch", False)):
                seconds = run_steps(reward, ids, codes, args.steps, args.batch, keep)
                best[side] = min(best[side], seconds)
    n = args.steps * args.batch
    print(
        f"{args.steps} steps x {args.batch} rollouts on {args.workers} workers, best of "
        f"{args.rounds} (load average {load:.1f} -> {os.getloadavg()[0]:.1f}):"
    )
    for side, seconds in best.items():
        print(f"  pool {side:9s}: {seconds:6.2f} s, {n / seconds:6.1f} rollouts/s")
    print(f"  kept / per batch: {best['per batch'] / best['kept']:.2f}x the throughput")


if __name__ == "__main__":
    main()
