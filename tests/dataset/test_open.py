"""Readers check what they read: every command that opens a dataset (sql, stats, export, train)
first compares the data files with the manifest (sizes, Parquet footers, row counts: cheap),
and with --verify recomputes their sha256 too. A damaged dataset is refused before any output."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import codelog
from codelog.cli import cli
from codelog.dataset.open import check_dataset
from codelog.errors import DatasetError
from codelog.training import data as train_data


@pytest.fixture
def ds(sample_dataset, tmp_path) -> Path:
    return Path(shutil.copytree(sample_dataset, tmp_path / "ds"))


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-100])


def append(path: Path) -> None:
    path.write_bytes(path.read_bytes() + b"\0" * 10)


def break_footer(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-2] ^= 0xFF  # the closing PAR1 magic: same size, unreadable footer
    path.write_bytes(bytes(data))


def flip_middle(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


COMMANDS = {
    "sql": lambda ds, out: ["sql", ds, "SELECT count(*) FROM solutions", "-o", out / "n.csv"],
    "stats": lambda ds, out: ["stats", ds, "--json"],
    "export": lambda ds, out: ["export", ds, "--format", "kto", "--out", out / "kto"],
}


def run(args: list) -> object:
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("damage", [truncate, append, break_footer], ids=lambda f: f.__name__)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_damaged_file_is_refused_before_any_output(ds, tmp_path, damage, command):
    damage(ds / "solutions.parquet")
    out = tmp_path / "out"
    out.mkdir()
    result = run(COMMANDS[command](ds, out))
    assert result.exit_code == 1
    assert isinstance(result.exception, DatasetError), result.exception
    assert "does not match its manifest: solutions.parquet" in str(result.exception)
    assert result.stdout == ""
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("damage", [truncate, break_footer], ids=lambda f: f.__name__)
def test_train_checks_the_dataset_the_same_way(ds, damage):
    damage(ds / "rejects.parquet")
    with pytest.raises(DatasetError, match=r"does not match its manifest: rejects\.parquet"):
        train_data.open_dataset(ds)


def test_a_flipped_byte_needs_verify_and_verify_catches_it(ds, tmp_path):
    # Same size, footer intact: the cheap check cannot see it, the sha256 check does.
    flip_middle(ds / "solutions.parquet")
    check_dataset(ds)
    with pytest.raises(DatasetError, match=r"solutions\.parquet: sha256 differs"):
        check_dataset(ds, full=True)
    for command, make in COMMANDS.items():
        out = tmp_path / command
        out.mkdir()
        result = run([*make(ds, out), "--verify"])
        assert isinstance(result.exception, DatasetError), (command, result.output)
        assert list(out.iterdir()) == []
    result = run(["train", ds, "--verify", "--out", tmp_path / "run", "--steps", "1"])
    assert isinstance(result.exception, DatasetError)
    assert not (tmp_path / "run").exists()
    with pytest.raises(DatasetError):
        codelog.open_dataset(ds, verify=True)


def test_an_intact_dataset_passes_verify_flags(ds, tmp_path):
    result = run(["stats", ds, "--verify", "--json"])
    assert result.exit_code == 0, result.output
    assert "sha256 of every data file matches the manifest" in result.stderr


def test_an_edited_card_does_not_stop_a_reader(ds):
    (ds / "README.md").write_text("my own card\n")
    check_dataset(ds, full=True)
    assert codelog.stats(ds, verify=True).solutions > 0


def test_damage_only_decoding_finds_is_one_error_line_not_a_traceback(ds):
    # A byte flipped inside the code column's pages: sizes and footer intact, DuckDB fails
    # while decoding. Found by trying flips, so the test does not depend on the file's layout.
    import subprocess
    import sys

    import duckdb

    path = ds / "solutions.parquet"
    original = path.read_bytes()
    for position in range(100, len(original) - 2000, 997):
        damaged = bytearray(original)
        damaged[position] ^= 0xFF
        path.write_bytes(bytes(damaged))
        try:
            duckdb.sql(f"SELECT sum(length(code)), sum(reward) FROM '{path}'").fetchall()
        except duckdb.Error:
            break
    else:
        pytest.skip("no single flip broke decoding")
    out = ds.parent / "kto.parquet"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "codelog.cli",
            "export",
            str(ds),
            "--format",
            "kto",
            "--out",
            str(out),
            "--split",
            "all",
        ],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "codelog verify DIR" in done.stderr
    assert not out.exists()
