"""`codelog train` on a full disk: one line naming the path, and a rerun into the half-made run
directory works (no lock, no 0-byte config.json in the way)."""

from __future__ import annotations

import errno
import json
from pathlib import Path

from click.testing import CliRunner

from codelog.cli import cli
from codelog.errors import OutputError


def train(dataset: Path, out: Path):
    return CliRunner().invoke(
        cli, ["train", str(dataset), "--steps", "1", "--out", str(out), "--no-progress", "-q"]
    )


def test_a_full_disk_names_the_path_and_a_rerun_works(synthetic, tmp_path, monkeypatch):
    import transformers

    def full(self, directory, *args, **kwargs):
        Path(directory).mkdir(parents=True, exist_ok=True)
        (Path(directory) / "config.json").write_bytes(b"")  # what a full disk leaves
        raise OSError(errno.ENOSPC, "No space left on device")

    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(transformers.PreTrainedModel, "save_pretrained", full)
        failed = train(synthetic, out)
    assert failed.exit_code != 0
    assert isinstance(failed.exception, OutputError)
    assert str(out) in str(failed.exception)
    assert "No space left on device" in str(failed.exception)
    assert "--resume continues from its latest checkpoint" in str(failed.exception)
    assert not (out / "base-model").exists()  # nothing half-written in its place
    again = train(synthetic, out)
    assert again.exit_code == 0, again.output
    assert json.loads((out / "run.json").read_text())["codelog_version"]


def test_a_half_made_run_directory_is_picked_up(synthetic, tmp_path):
    out = tmp_path / "run"
    (out / "base-model").mkdir(parents=True)
    (out / "base-model" / "config.json").write_bytes(b"")  # left by an older codelog
    (out / ".lock").write_text("12345\n")
    result = train(synthetic, out)
    assert result.exit_code == 0, result.output
    assert json.loads((out / "base-model" / "config.json").read_text())
