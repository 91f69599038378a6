"""Two processes under torchrun (gloo, CPU) compute what one process computes with the same
global batch: the same losses and the same weights, to within float rounding, through a
--resume as well."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from codelog.training import checkpoint
from tests.train.synthetic import records, run, weights

ROOT = Path(__file__).resolve().parents[2]
RECIPE = {"grad_accum": 2, "kl": 0.05, "checkpoint_every": 2, "keep_checkpoints": 0}


def torchrun(dataset: Path, out: Path, *args: str) -> None:
    command = [
        *(sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"),
        *("-m", "codelog.cli", "train", str(dataset), "--out", str(out)),
        *("--no-progress", "--quiet", *args),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]


@pytest.fixture(scope="module")
def two_processes(synthetic: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Steps 1-2 on two processes, then --resume to step 4 on two processes."""
    out = tmp_path_factory.mktemp("ddp") / "run"
    options = ["--grad-accum", "2", "--kl", "0.05", "--checkpoint-every", "2"]
    torchrun(synthetic, out, "--steps", "2", *options, "--keep-checkpoints", "0")
    torchrun(synthetic, out, "--steps", "4", "--resume")
    return out


def test_two_gloo_processes_match_one_process_with_the_same_global_batch(
    two_processes, synthetic, tmp_path
):
    one = run(synthetic, tmp_path / "one", steps=4, **RECIPE)
    many, single = records(two_processes), records(tmp_path / "one")
    assert [r["step"] for r in many] == [1, 2, 3, 4]  # rank 0 alone writes, once per step
    for a, b in zip(single, many, strict=True):
        assert a["problems"] == b["problems"]  # the same groups, sharded by seed
        assert a["tokens"] == b["tokens"] and a["truncated"] == b["truncated"]  # summed
        assert b["loss"] == pytest.approx(a["loss"], rel=1e-4, abs=1e-6)
        assert b["kl"] == pytest.approx(a["kl"], rel=1e-3, abs=1e-7)
        assert b["grad_norm"] == pytest.approx(a["grad_norm"], rel=1e-4)
    final = checkpoint.checkpoints(two_processes)[-1]
    assert final.name == one.checkpoint.name == "step-000004"
    a, b = weights(one.checkpoint), weights(final)
    assert a.keys() == b.keys()
    for name in a:
        torch.testing.assert_close(b[name], a[name], rtol=1e-4, atol=1e-5, msg=name)


def test_two_processes_sharing_prompts_match_one_process_on_the_padded_path(
    two_processes, synthetic, tmp_path
):
    """Each prompt once (the default, on two ranks) against each sequence whole (the path
    before issue 45, on one): the same step losses, KL terms and gradient norms."""
    run(synthetic, tmp_path / "padded", steps=4, layout="padded", **RECIPE)
    many, padded = records(two_processes), records(tmp_path / "padded")
    for a, b in zip(padded, many, strict=True):
        assert b["padded_tokens"] < a["padded_tokens"]  # computed: each prompt once
        assert a["tokens"] == b["tokens"]  # the same sequences
        assert b["loss"] == pytest.approx(a["loss"], rel=1e-4, abs=1e-6)
        assert b["kl"] == pytest.approx(a["kl"], rel=1e-3, abs=1e-7)
        assert b["grad_norm"] == pytest.approx(a["grad_norm"], rel=1e-4)


def test_two_processes_write_one_run(two_processes):
    info = json.loads((two_processes / checkpoint.RUN_FILE).read_text())
    assert info["recipe"]["train"]["grad_accum"] == 2
    assert [p.name for p in checkpoint.checkpoints(two_processes)] == [
        "step-000002",
        "step-000004",
    ]
    # each rank cached the reference log-probs of its own share of the sequences
    chunks = sorted(p.name for p in (two_processes / "reference").glob("*/chunk-*.npz"))
    assert {c.rsplit("-", 1)[-1] for c in chunks} == {"rank0.npz", "rank1.npz"}
    evals = records(two_processes, "eval")
    assert [e["step"] for e in evals] == [0, 2, 4]  # start, end of the first call, end
    assert evals[0]["solutions"] > 0


def test_grad_accum_below_the_process_count_is_refused(synthetic, tmp_path):
    command = [
        *(sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"),
        *("-m", "codelog.cli", "train", str(synthetic), "--out", str(tmp_path / "run")),
        *("--no-progress", "--quiet", "--grad-accum", "1", "--steps", "1"),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "each of the 2 processes needs at least one group per step" in done.stderr
