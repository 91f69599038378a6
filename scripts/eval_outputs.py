"""Every output file of `codelog eval` and `codelog experiment` on the bundled sample and the
shared benchmark rows, as sha256 digests: run it on two commits and compare, to show that a
change to evaluation/ leaves the bytes alone (issue 48).

    python scripts/eval_outputs.py OUT_DIR > digests.txt

It runs the CLI (`python -m codelog.cli`) with the interpreter and PYTHONPATH it is given, so
`PYTHONPATH=/path/to/other/checkout python scripts/eval_outputs.py ...` measures that checkout.
The commands run in OUT_DIR on copies of their inputs, by relative paths, so that no output
names the checkout. What differs between two runs of one command is left out of the digests:
wall times (the `seconds` of an experiment's results.json and cell.json, and the measured
milliseconds a Time Limit Exceeded's detail gives in samples.jsonl) and the lock files.
The runs, on 2 cores: about 2 minutes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# ../shared beside the checkout (or beside a folder above it, for a worktree)
SHARED = next(
    (p / "shared" / "data" for p in REPO.parents if (p / "shared" / "data").is_dir()), REPO
)
FIXTURES = REPO / "tests" / "fixtures" / "benchmarks"
APPS = FIXTURES / "apps" / "apps-hub-rows.jsonl"
MBPP_SHARED = SHARED / "benchmarks" / "mbpp" / "mbpp-prompt-validation-train.jsonl"
LCB = FIXTURES / "livecodebench" / "test-3.jsonl"
CC = FIXTURES / "codecontests" / "code_contests-hub-rows.jsonl"

# the tiny model, two steps a row, two short samples a problem: the outputs, not the figures
EXPERIMENT_RECIPE = """
[train]
steps = 2
max_length = 96
[experiment]
k = [1, 2]
n = 2
max_new_tokens = 10
"""


def codelog(*args: str | Path) -> None:
    command = [sys.executable, "-m", "codelog.cli", str(args[0]), "--quiet", *map(str, args[1:])]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")


def mbpp_samples(path: Path, out: Path, ids: range) -> Path:
    """Each problem's canonical code, and a wrong program, as an eval's samples file."""
    with out.open("w", encoding="utf-8") as f:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["task_id"] in ids:
                for code in (row["code"], "def nothing():\n    return None\n"):
                    f.write(json.dumps({"task_id": row["task_id"], "completion": code}) + "\n")
    return out


def dataset_samples(dataset: Path, out: Path) -> Path:
    """The dataset's own solutions of its test split, as a samples file (codenet:DIR)."""
    import duckdb

    rows = duckdb.sql(
        f"SELECT s.problem_id, s.code FROM '{dataset}/solutions.parquet' s "
        f"JOIN '{dataset}/problems.parquet' p USING (problem_id) WHERE p.split = 'test' "
        "ORDER BY s.problem_id, s.submission_id LIMIT 60"
    ).fetchall()
    with out.open("w", encoding="utf-8") as f:
        for pid, code in rows:
            f.write(json.dumps({"problem_id": pid, "code": code}) + "\n")
    return out


def run_all(root: Path) -> None:
    """Every command, run in `root` (the current directory) on copies of its inputs."""
    os.chdir(root)
    work = Path("inputs")
    work.mkdir()
    for source in (APPS, LCB, CC, MBPP_SHARED, FIXTURES / "mbpp" / "mbpp-sample.jsonl"):
        shutil.copyfile(source, work / source.name)
    dataset = work / "codenet-python"
    codelog("build", "--out", dataset, "--workers", "1")
    mbpp = mbpp_samples(work / MBPP_SHARED.name, work / "mbpp.jsonl", range(601, 631))
    shared_mbpp = f"mbpp:{work / MBPP_SHARED.name}"
    eval_ = ["eval", "--workers", "1"]
    codelog(*eval_, "--benchmark", shared_mbpp, "--split", "train", "--samples", mbpp,
            "-k", "1,2", "--out", "mbpp")  # fmt: skip
    codelog(*eval_, "--benchmark", shared_mbpp, "--split", "train", "--samples", mbpp,
            "-k", "1", "--per-test", "--cold", "--out", "mbpp-per-test",
            "--compare", "mbpp")  # fmt: skip
    codenet = dataset_samples(dataset, work / "codenet.jsonl")
    codelog(*eval_, "--benchmark", f"codenet:{dataset}", "--split", "test",
            "--samples", codenet, "--out", "codenet")  # fmt: skip
    from codelog.training.data import open_dataset
    from codelog.training.models import build_tiny

    model = build_tiny(open_dataset(dataset), work / "tiny", 512, 0)
    for name, benchmark, extra in (
        ("apps", f"apps:{work / APPS.name}", ["--split", "test"]),
        ("mbpp-model", f"mbpp:{work / 'mbpp-sample.jsonl'}", ["--split", "all"]),
        ("livecodebench", f"livecodebench:{work / LCB.name}", []),
        ("codecontests", f"codecontests:{work / CC.name}", ["--test-sets", "public,private"]),
        ("heldout-model", f"codenet:{dataset}", ["--split", "test", "--limit", "3"]),
    ):
        codelog(*eval_, "--benchmark", benchmark, *extra, "--model", model, "-n", "2",
                "-k", "1,2", "--max-new-tokens", "12", "--out", name)  # fmt: skip
    recipe = work / "experiment.toml"
    recipe.write_text(EXPERIMENT_RECIPE, encoding="utf-8")
    codelog("experiment", dataset, "--out", "experiment", "--recipe", recipe,
            "--algos", "base,sft,rloo", "--benchmark", "heldout",
            "--benchmark", f"apps:{work / APPS.name}", "--workers", "1")  # fmt: skip


def without_timings(data: object) -> object:
    if isinstance(data, dict):
        return {k: None if k == "seconds" else without_timings(v) for k, v in data.items()}
    if isinstance(data, list):
        return [without_timings(v) for v in data]
    return data


def digest(path: Path) -> str:
    data = path.read_bytes()
    if path.name in ("results.json", "cell.json"):
        data = json.dumps(without_timings(json.loads(data)), indent=2).encode()
    if path.name == "samples.jsonl":
        data = re.sub(rb"\d+ ms", b"N ms", data)
    return hashlib.sha256(data).hexdigest()


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    if root.exists():
        raise SystemExit(f"{root}: exists; give a new directory")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    root.mkdir(parents=True)
    run_all(root)
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if not path.is_file() or relative.parts[0] == "inputs" or path.name.endswith(".lock"):
            continue
        if "run" in relative.parts or "base-model" in relative.parts:  # checkpoints
            continue
        print(f"{digest(path)}  {relative}")


if __name__ == "__main__":
    main()
