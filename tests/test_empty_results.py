"""Nothing usable out is an error, not an empty success: a clear message with the reasons, a
non-zero exit, nothing published and no staging directory left behind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import codelog
from codelog.cli import cli
from codelog.errors import EmptyResultError
from codelog.publish.manifest import MANIFEST, file_entries

from .codenet_tree import write_standard_tree


def build_cli(*args: str):
    return CliRunner().invoke(cli, ["build", "--workers", "1", *map(str, args)])


def assert_nothing_left(parent: Path, *keep: str) -> None:
    assert sorted(p.name for p in parent.iterdir() if not p.name.endswith(".lock")) == sorted(keep)


@pytest.mark.parametrize(
    ("name", "text"),
    [("header-only.csv", "submission_id,problem_id,language,status,code\n"), ("empty.jsonl", "")],
)
def test_an_input_without_rows_is_a_clear_error(tmp_path, name, text):
    export = tmp_path / name
    export.write_text(text)
    result = build_cli("--source", "ci", "--input", export, "--out", tmp_path / "ds")
    assert result.exit_code == 1
    assert isinstance(result.exception, EmptyResultError)
    assert str(result.exception).startswith(f"0 rows in: {export} holds no 'python' rows")
    assert_nothing_left(tmp_path, name)


def test_a_language_with_no_rows_is_a_clear_error(tmp_path):
    result = build_cli("--lang", "rust", "--out", tmp_path / "ds")
    assert isinstance(result.exception, EmptyResultError)
    assert "lists no 'rust' submissions" in str(result.exception)
    assert_nothing_left(tmp_path)


def test_zero_groups_names_the_reasons_and_publishes_nothing(tmp_path):
    tree = write_standard_tree(tmp_path / "tree")
    shutil.rmtree(tree / "data")  # --root pointing at metadata without the sources
    with pytest.raises(EmptyResultError) as info:
        codelog.build(tmp_path / "ds", root=tree, workers=1)
    message = str(info.value)
    assert message.startswith("0 groups: 8 rows rejected as missing_source — is --root right?")
    assert "(e.g. s000000001: " in message
    assert_nothing_left(tmp_path, "tree")


def test_zero_repair_rows_names_the_reasons_and_publishes_nothing(tmp_path):
    tree = write_standard_tree(tmp_path / "tree")
    shutil.rmtree(tree / "data")
    with pytest.raises(EmptyResultError) as info:
        codelog.build(tmp_path / "ds", kind="repair", root=tree, workers=1)
    assert str(info.value).startswith("0 repair rows: 8 rows rejected as missing_source")
    assert_nothing_left(tmp_path, "tree")


def test_zero_groups_keeps_the_previous_dataset(tmp_path):
    tree = write_standard_tree(tmp_path / "tree")
    codelog.build(tmp_path / "ds", root=tree, workers=1)
    before = (tmp_path / "ds" / MANIFEST).read_bytes()
    for n, source in enumerate(sorted((tree / "data").rglob("*.py"))):
        # distinct programs: identical ones judged differently would be verdict conflicts
        source.write_text(f"print('only wrong answers now', {n})\n")
    csv = tree / "metadata" / "p00001.csv"
    csv.write_text(csv.read_text().replace("Accepted", "Wrong Answer"))
    csv = tree / "metadata" / "p00002.csv"
    csv.write_text(csv.read_text().replace("Accepted", "Wrong Answer"))
    with pytest.raises(EmptyResultError, match=r"0 groups: .* as no_contrast"):
        codelog.build(tmp_path / "ds", root=tree, workers=1)
    assert (tmp_path / "ds" / MANIFEST).read_bytes() == before
    assert codelog.verify(tmp_path / "ds").ok
    assert_nothing_left(tmp_path, "tree", "ds")


def test_an_export_of_zero_rows_is_an_error_and_writes_nothing(sample_dataset, tmp_path):
    ds = Path(shutil.copytree(sample_dataset, tmp_path / "ds"))
    pl.read_parquet(ds / "problems.parquet").with_columns(
        prompt=pl.lit(None, pl.String)
    ).write_parquet(ds / "problems.parquet")
    manifest = json.loads((ds / MANIFEST).read_text())
    manifest["files"] = file_entries(ds, manifest["files"])
    (ds / MANIFEST).write_text(json.dumps(manifest))
    out = tmp_path / "kto.parquet"
    result = CliRunner().invoke(
        cli, ["export", str(ds), "--format", "kto", "--out", str(out), "--split", "all"]
    )
    assert result.exit_code == 1
    assert isinstance(result.exception, EmptyResultError)
    assert str(result.exception) == (
        "0 kto rows to write for split all (749 solutions in 8 groups; 749 left out because their problem "
        f"has no statement); {out} was not written"
    )
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]
