"""`codelog verify` reports a dropped or renamed column as a finding, never as DuckDB's error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.dataset.verify import verify_dataset
from codelog.errors import DatasetError

from .test_verify import built, reseal  # noqa: F401  (the module's small dataset)


@pytest.fixture
def ds(built: Path, tmp_path: Path) -> Path:  # noqa: F811
    return Path(shutil.copytree(built, tmp_path / "ds"))


def drop(ds: Path, name: str, column: str, rename: str | None = None) -> None:
    table = pq.read_table(ds / name)
    index = table.schema.get_field_index(column)
    if rename is None:
        table = table.remove_column(index)
    else:
        table = table.rename_columns([rename if n == column else n for n in table.column_names])
    pq.write_table(table, ds / name)


@pytest.mark.parametrize("resealed", [False, True])
@pytest.mark.parametrize("rename", [None, "score"])
def test_a_missing_column_is_a_finding(ds, resealed, rename):
    drop(ds, "solutions.parquet", "reward", rename)
    if resealed:
        reseal(ds)
    report = verify_dataset(ds)
    assert not report.ok
    found = "\n".join(report.mismatches)
    assert "solutions.parquet: column 'reward' is missing (dropped or renamed)" in found
    assert "Binder" not in found


def test_verify_prints_its_report_for_a_dropped_column(ds):
    drop(ds, "rejects.parquet", "reason")
    reseal(ds)
    result = CliRunner().invoke(cli, ["verify", str(ds)])
    assert result.exit_code != 0
    assert "rejects.parquet: column 'reason' is missing" in result.output
    assert "Binder" not in result.output
    assert isinstance(result.exception, DatasetError)  # the report's own ending: N mismatches
