"""Issue 22: the grouping stage finishes under a small memory budget by spilling, refuses a
budget below its floor at once, and a late failure keeps the staged parse for the re-run."""

from __future__ import annotations

import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.errors import CodelogError
from codelog.group.engine import GroupingMemoryError
from codelog.options import MEMORY_FLOOR, MIB, default_memory_budget, parse_memory

from .conftest import build_sample

COPIES = 62  # the sample's 1,609 staged rows, 62 times: 99,758 rows


def grow_staged_parts(out: Path, copies: int) -> int:
    """Replace the staged parts of the build at `out` by `copies` copies of them, each with
    its own submission ids and programs (problem ids kept), seq dense: a ~100k-row stage whose
    key still matches the sample's inputs, so the next build reuses it."""
    parts = out.parent / f".{out.name}.staging" / "parts"
    originals = sorted(parts.glob("*.parquet"))
    tables = [pq.read_table(p) for p in originals]
    n = sum(t.num_rows for t in tables)
    for path in originals:
        path.unlink()
    index = 0
    for k in range(copies):
        for table in tables:
            columns = {}
            for name in table.column_names:
                column = table.column(name)
                if name == "seq":
                    column = pc.add(column, k * n)
                elif name in ("submission_id", "ast_hash", "code_hash") and k:
                    column = pc.binary_join_element_wise(column, pa.scalar(f"_{k}"), "")
                columns[name] = column
            pq.write_table(
                pa.table(columns, schema=table.schema), parts / f"part-{index:06d}.parquet"
            )
            index += 1
    return n * copies


def test_100k_rows_group_under_the_floor_budget_by_spilling(tmp_path):
    out = tmp_path / "ds"
    build_sample(out)
    rows = grow_staged_parts(out, COPIES)
    assert rows > 99_000
    report = build_sample(out, memory=MEMORY_FLOOR)
    assert report.staged_reused
    counts = report.manifest["counts"]
    assert counts["rows_in"] == rows == counts["solutions"] + counts["rejects"]
    solutions = pq.ParquetFile(out / "solutions.parquet").metadata.num_rows
    rejects = pq.ParquetFile(out / "rejects.parquet").metadata.num_rows
    assert (solutions, rejects) == (counts["solutions"], counts["rejects"])
    # every copy of a program is the same program: dedup keeps one per copy set's first
    assert counts["rejects_by_reason"]["correct_cap"] > 0


def test_running_out_keeps_the_staged_parse_and_names_the_flag(tmp_path):
    out = tmp_path / "ds"
    build_sample(out)
    before = (out / "manifest.json").read_bytes()
    grow_staged_parts(out, COPIES)
    # below the floor (allowed only by bypassing --memory's check): DuckDB runs out
    with pytest.raises(GroupingMemoryError) as caught:
        build_sample(out, memory=8 * MIB)
    message = str(caught.value)
    assert "ran out of memory" in message and "8 MiB" in message
    assert "--memory" in message and "staged parse" in message and "kept" in message
    assert "verify" not in message
    assert (out / "manifest.json").read_bytes() == before  # the published dataset is untouched
    again = build_sample(out, memory=MEMORY_FLOOR)
    assert again.staged_reused  # the re-run parsed nothing


def test_a_budget_below_the_floor_fails_in_the_first_second(tmp_path):
    started = time.monotonic()
    result = CliRunner().invoke(
        cli, ["build", "--memory", "64MB", "--out", str(tmp_path / "ds"), "--workers", "1"]
    )
    assert result.exit_code != 0
    assert time.monotonic() - started < 1.0
    assert "--memory: 64MB is below the grouping stage's floor of 128 MiB" in str(result.exception)
    assert not (tmp_path / "ds").exists()


@pytest.mark.parametrize(
    ("text", "value"),
    [("512MB", 512 * MIB), ("2GB", 2048 * MIB), ("1.5GiB", 1536 * MIB), ("134217728", 128 * MIB)],
)
def test_memory_sizes(text, value):
    assert parse_memory(text) == value


@pytest.mark.parametrize("text", ["lots", "12XB", "-1GB", ""])
def test_a_memory_size_that_is_not_one_is_refused(text):
    with pytest.raises(CodelogError, match="is not a memory size"):
        parse_memory(text)


def test_the_environment_sets_the_budget(tmp_path, monkeypatch):
    monkeypatch.setenv("CODELOG_MEMORY", "32MB")
    result = CliRunner().invoke(cli, ["build", "--out", str(tmp_path / "ds"), "--workers", "1"])
    assert result.exit_code != 0
    assert "CODELOG_MEMORY: 32MB is below" in str(result.exception)


def test_the_default_budget_lies_in_its_bounds():
    assert 256 * MIB <= default_memory_budget() <= 512 * MIB
