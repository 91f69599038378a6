"""A checkpoint is read as data (issue 33): a pickle planted in trainer_state.pt never runs, and
a damaged trainer state or weights file is one error naming it, not a traceback."""

from __future__ import annotations

import pickle
import shutil
import sys
from pathlib import Path

import pytest
import torch

from codelog.cli import main
from codelog.training import checkpoint, loop
from codelog.training.options import TrainingError
from tests.train.synthetic import run


class Planted:
    """Unpickling this touches the marker file: what a hostile trainer_state.pt would do."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


@pytest.fixture(scope="module")
def finished_run(synthetic, tmp_path_factory) -> Path:
    """A 2-step run with a checkpoint at step 2 (copied per test before it is damaged)."""
    out = tmp_path_factory.mktemp("ckpt") / "run"
    run(synthetic, out, steps=2, checkpoint_every=2)
    return out


@pytest.fixture
def run_dir(finished_run, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(finished_run, copy)
    return copy


def resume(synthetic: Path, run_dir: Path):
    return loop.train(synthetic, run_dir, {"steps": 3}, resume=True, progress=False, quiet=True)


def latest(run_dir: Path) -> Path:
    return checkpoint.checkpoints(run_dir)[-1]


@pytest.mark.parametrize("form", ["torch.save", "plain pickle"])
def test_a_planted_pickle_never_runs(synthetic, run_dir, tmp_path, form):
    marker = tmp_path / "ran"
    state = latest(run_dir) / checkpoint.STATE_FILE
    if form == "torch.save":
        torch.save({"step": 2, "payload": Planted(marker)}, state)
    else:
        state.write_bytes(pickle.dumps({"step": 2, "payload": Planted(marker)}, protocol=2))
    pickle.loads(pickle.dumps(Planted(tmp_path / "probe")))  # the payload does work when run
    assert (tmp_path / "probe").exists()
    with pytest.raises(TrainingError, match=r"trainer_state\.pt: not a trainer state"):
        resume(synthetic, run_dir)
    assert not marker.exists()


def test_a_random_trainer_state_is_one_error_line(synthetic, run_dir, monkeypatch, capsys):
    (latest(run_dir) / checkpoint.STATE_FILE).write_bytes(bytes(range(256)) * 8)
    argv = ["codelog", "train", str(synthetic), "--out", str(run_dir), "--resume", "--steps", "3"]
    monkeypatch.setattr(sys, "argv", [*argv, "-q", "--no-progress"])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), lines
    assert str(latest(run_dir) / checkpoint.STATE_FILE) in lines[0]


def test_a_truncated_weights_file_names_the_checkpoint(synthetic, run_dir):
    weights = latest(run_dir) / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:1000])
    with pytest.raises(TrainingError, match=r"step-000002: its weights cannot be read") as info:
        resume(synthetic, run_dir)
    assert "model.safetensors" in str(info.value)


def test_an_intact_checkpoint_loads_as_data_and_resumes(synthetic, run_dir):
    state = checkpoint.load_state(latest(run_dir))
    assert state["step"] == 2
    assert isinstance(state["torch_rng"], torch.Tensor)
    assert resume(synthetic, run_dir).checkpoint.name == "step-000003"
