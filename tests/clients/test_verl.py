"""verl on `codelog export --format verl`, as docs/exporting.md tells a user to run it.

verl is not installed here (verl 0.9.1 pins transformers<5.11). What verl does with the
documented command is done as verl 0.9 does it: its `get_custom_reward_fn`
(verl/trainer/ppo/reward.py) reads `config.reward.custom_reward_function`, and its
`load_extern_object` (verl/utils/import_utils.py) imports the file by path under a name of its
own and takes the function by name; its reward manager (NaiveRewardManager.run_single) calls
it by keyword on an executor's threads, several rollouts at a time."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest

import codelog

REPO = Path(__file__).resolve().parents[2]


def documented_main_ppo() -> str:
    """The `python3 -m verl.trainer.main_ppo` command of docs/exporting.md, whole."""
    page = (REPO / "docs" / "exporting.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", page, re.S)
    found = [b for b in blocks if "verl.trainer.main_ppo" in b]
    assert len(found) == 1, "docs/exporting.md shows one whole main_ppo command line"
    [block] = found
    command = block[block.index("python3 -m verl.trainer.main_ppo") :]
    return command.split("\n\n")[0]


def overrides(command: str, cwd: Path) -> dict[str, Any]:
    """The command's key=value overrides as the shell hands them to verl (quotes and the
    `$(python -c ...)` substitution done by bash), nested as Hydra nests them."""
    words = command.replace("python3 -m verl.trainer.main_ppo", "printf '%s\\n'", 1)
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    out = subprocess.run(
        ["bash", "-c", words], cwd=cwd, env=env, capture_output=True, text=True, check=True
    ).stdout
    config: dict[str, Any] = {}
    for line in out.splitlines():
        key, _, value = line.partition("=")
        *parents, leaf = key.split(".")
        node = config
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return config


def get_custom_reward_fn(config: dict[str, Any]):
    """verl 0.9's loader: config.reward.custom_reward_function, the file by path, the name."""
    reward_fn_config = config.get("reward", {}).get("custom_reward_function") or {}
    module_path = reward_fn_config.get("path")
    if not module_path:
        return None
    spec = importlib.util.spec_from_file_location(
        f"custom_module_{hash(os.path.abspath(module_path))}", module_path
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, reward_fn_config["name"])


@pytest.fixture(scope="module")
def run_dir(sample_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the user runs the commands: `codelog export DS --format verl --out verl` done."""
    cwd = tmp_path_factory.mktemp("verl-run")
    codelog.export(sample_dataset, "verl", cwd / "verl")
    return cwd


@pytest.fixture(scope="module")
def config(run_dir: Path) -> dict[str, Any]:
    return overrides(documented_main_ppo(), run_dir)


def test_the_documented_command_sets_the_key_verl_reads(config, run_dir):
    assert config["data"]["train_files"] == "verl/train.parquet"
    assert (run_dir / config["data"]["train_files"]).exists()
    assert (run_dir / config["data"]["val_files"]).exists()
    assert "custom_reward_function" not in config  # the top-level key verl 0.9 ignores
    compute_score = get_custom_reward_fn(config)
    assert compute_score is not None, "main_ppo would score with verl's default scorer"
    path = Path(config["reward"]["custom_reward_function"]["path"])
    assert path.samefile(REPO / "codelog" / "execution" / "verl_reward.py")


def rollouts(sample_dataset: Path, run_dir: Path) -> list[tuple[dict, str, float]]:
    """(row, response, expected reward) for every train row: a known-correct program (an
    accepted Python 3 solution, in a fenced block as a chat model writes it) and wrong ones."""
    accepted = (
        pl.read_parquet(sample_dataset / "solutions.parquet")
        .filter(pl.col("is_correct") & (pl.col("dialect") == "python3"))
        .sort("submission_id")
        .group_by("problem_id", maintain_order=True)
        .first()
    )
    code = dict(accepted.select("problem_id", "code").iter_rows())
    cases = []
    for row in pq.read_table(run_dir / "verl" / "train.parquet").to_pylist():
        rewards = json.loads(row["reward_model"]["ground_truth"])["rewards"]
        pid = row["extra_info"]["problem_id"]
        cases.append((row, f"Here it is:\n```python\n{code[pid]}```\n", rewards["Accepted"]))
        cases.append((row, "print(0)\n", rewards["Wrong Answer"]))
        cases.append((row, "print(\n", rewards["Compile Error"]))
    return cases


def test_compute_score_as_verls_reward_workers_call_it(config, sample_dataset, run_dir):
    compute_score = get_custom_reward_fn(config)
    cases = rollouts(sample_dataset, run_dir)

    def call(row: dict, response: str) -> float:
        extra_info = {**row["extra_info"], "num_turns": None, "rollout_reward_scores": {}}
        return compute_score(
            data_source=row["data_source"],
            solution_str=response,
            ground_truth=row["reward_model"]["ground_truth"],
            extra_info=extra_info,
        )

    async def all_at_once() -> list[float]:
        loop = asyncio.get_running_loop()
        return await asyncio.gather(
            *(loop.run_in_executor(None, call, row, response) for row, response, _ in cases)
        )

    expected = [reward for _, _, reward in cases]
    assert {1.0, -0.1, -1.0} <= set(expected)
    assert asyncio.run(all_at_once()) == expected
