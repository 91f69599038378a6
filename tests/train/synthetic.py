"""A small synthetic dataset as `codelog build` writes it, and helpers to run the trainer on it.

Four problems, correct and wrong programs that differ in a telling way, 24 solutions each."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import torch
from safetensors.torch import load_file

from codelog import schema
from codelog.publish.manifest import FORMAT_VERSION
from codelog.recipe import load_recipe
from codelog.training import loop
from codelog.training.options import TrainOptions

PROBLEMS = {
    "p001": (
        "Read two integers a and b. Print their sum.",
        "{a}, {b} = map(int, input().split())\nprint({a} + {b})\n",
        [
            "{a}, {b} = map(int, input().split())\nprint({a} - {b})\n",
            "{a}, {b} = input().split()\nprint({a} + {b})\n",
        ],
    ),
    "p002": (
        "Read n. Print the numbers 1 to n, one per line.",
        "{a} = int(input())\nfor {b} in range(1, {a} + 1):\n    print({b})\n",
        [
            "{a} = int(input())\nfor {b} in range({a}):\n    print({b})\n",
            "{a} = int(input())\nwhile True:\n    print({a})\n",
        ],
    ),
    "p003": (
        "Read a string. Print it reversed.",
        "{a} = input()\nprint({a}[::-1])\n",
        ["{a} = input()\nprint({a})\n", "{a} = input()\nprint(reversed({a}))\n"],
    ),
    "p004": (
        "Read integers on one line. Print the largest.",
        "{a} = list(map(int, input().split()))\nprint(max({a}))\n",
        [
            "{a} = list(map(int, input().split()))\nprint(min({a}))\n",
            "{a} = input().split()\nprint(max({a}))\n",
        ],
    ),
}
NAMES = ["x", "y", "n", "m", "s", "t", "k", "v", "num", "val", "data", "line", "i", "j"]
REWARD = {"accepted": 1.0, "wrong_answer": -0.1, "time_limit": -0.5, "runtime_error": -0.6}


def write_dataset(
    out: Path, per_problem: int = 24, correct_every: int = 2, format_version: int = FORMAT_VERSION
) -> Path:
    """A dataset directory as `codelog build` writes it, with synthetic solutions."""
    rng = random.Random(0)
    out.mkdir(parents=True)
    rows = []
    for problem_id, (_, good, bad) in PROBLEMS.items():
        for k in range(per_problem):
            correct = k % correct_every == 0
            a, b = rng.sample(NAMES, 2)
            code = (good if correct else rng.choice(bad)).format(a=a, b=b)
            outcome = (
                "accepted"
                if correct
                else rng.choice(["wrong_answer", "time_limit", "runtime_error"])
            )
            rows.append(
                {
                    "problem_id": problem_id,
                    "language": "Python",
                    "submission_id": f"s{problem_id[1:]}{k:04d}",
                    "outcome": outcome,
                    "status": outcome,
                    "reward": REWARD[outcome],
                    "is_correct": correct,
                    "syntax_ok": True,
                    "dup_count": 1,
                    "code_size": len(code),
                    "code": code,
                }
            )
    solutions = pa.Table.from_pylist(rows, schema=schema.SOLUTION)
    pq.write_table(
        solutions, out / "solutions.parquet", row_group_size=17
    )  # groups span row groups
    problems = [
        {"problem_id": p, "name": p, "prompt": statement}
        for p, (statement, _, _) in PROBLEMS.items()
    ]
    pq.write_table(pa.Table.from_pylist(problems, schema=schema.PROBLEM), out / "problems.parquet")
    manifest = {
        "codelog_version": "test",
        "format_version": format_version,
        "recipe": load_recipe().to_dict(),
        "seed": 0,
        "input_fingerprint": f"synthetic-{per_problem}-{correct_every}",
        "counts": {},
        "files": {},
    }
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out


OPTIONS = {f.name for f in dataclasses.fields(TrainOptions)}


def run(dataset: Path, out: Path, overrides: dict | None = None, **kwargs):
    """A run without a progress bar or notes; keyword arguments naming a TrainOptions field go
    there, the rest are [train] overrides."""
    options = {"progress": False, "quiet": True}
    options |= {k: v for k, v in kwargs.items() if k in OPTIONS}
    overrides = {**(overrides or {}), **{k: v for k, v in kwargs.items() if k not in OPTIONS}}
    return loop.train(dataset, out, overrides, **options)


def records(run_dir: Path, event: str = "step") -> list[dict]:
    lines = (run_dir / "metrics.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["event"] == event]


def weights(checkpoint: Path) -> dict[str, torch.Tensor]:
    file = (
        "adapter_model.safetensors"
        if (checkpoint / "adapter_model.safetensors").exists()
        else "model.safetensors"
    )
    return load_file(checkpoint / file)
