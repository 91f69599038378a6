"""`codelog export` on a full disk (issue 33): one error line naming the path, and no directory
the export made is left behind, empty or half-filled; a directory that was there stays."""

from __future__ import annotations

import errno
import os
import sys

import pyarrow.parquet as pq
import pytest

from codelog.cli import main


def export(monkeypatch, capsys, *args: str) -> tuple[int, list[str]]:
    monkeypatch.setattr(sys, "argv", ["codelog", "export", *args, "-q"])
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    return code, capsys.readouterr().err.strip().splitlines()


@pytest.fixture
def full_disk(monkeypatch):
    """The disk fills up at the second file written (train.parquet is whole, test.parquet not)."""
    real = pq.ParquetWriter.write_batch
    files: list[str] = []

    def write_batch(self, batch, *args, **kwargs):
        if self.where not in files:
            files.append(self.where)
        if len(files) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, batch, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_batch", write_batch)


def test_a_full_disk_leaves_no_directory_behind(sample_dataset, tmp_path, monkeypatch, capsys):
    out = tmp_path / "exports" / "sft"
    with monkeypatch.context() as patch:
        patch.setattr(pq.ParquetWriter, "write_batch", _always_full)
        code, err = export(monkeypatch, capsys, str(sample_dataset), "--format", "sft",
                           "--out", str(out))  # fmt: skip
    assert code == 1
    assert len(err) == 1 and err[0].startswith("error:") and "No space left" in err[0], err
    assert str(out) in err[0]
    assert list(tmp_path.iterdir()) == []  # neither sft/ nor exports/


def test_a_full_disk_on_the_second_split_removes_the_first_too(
    sample_dataset, tmp_path, monkeypatch, capsys, full_disk
):
    out = tmp_path / "sft"
    code, err = export(monkeypatch, capsys, str(sample_dataset), "--format", "sft",
                       "--out", str(out))  # fmt: skip
    assert code == 1 and "No space left" in err[0], err
    assert not out.exists()


def test_a_directory_that_was_there_keeps_what_it_held(
    sample_dataset, tmp_path, monkeypatch, capsys
):
    out = tmp_path / "sft"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    with monkeypatch.context() as patch:
        patch.setattr(pq.ParquetWriter, "write_batch", _always_full)
        code, _ = export(monkeypatch, capsys, str(sample_dataset), "--format", "sft",
                         "--out", str(out))  # fmt: skip
    assert code == 1
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def _always_full(self, batch, *args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
