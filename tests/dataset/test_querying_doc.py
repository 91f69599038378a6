"""Every SQL block of docs/querying.md's Querying section runs on the bundled sample, finds something,
and runs in every output format: a table, CSV and JSON on stdout, CSV, JSON and Parquet files."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.dataset.query import connect, preview

DOC = Path(__file__).resolve().parents[2] / "docs" / "querying.md"
# The page's "Querying" section, up to the next top-level section.
DOC_TEXT = DOC.read_text(encoding="utf-8").split("\n## Querying", 1)[1].split("\n## ", 1)[0]
QUERIES = re.findall(r"^```sql\n(.*?)^```", DOC_TEXT, re.S | re.M)
TITLES = re.findall(r"^### (.+)$", DOC_TEXT, re.M)


def test_the_doc_has_at_least_five_queries_each_under_a_title():
    assert len(QUERIES) >= 5
    assert len(TITLES) == len(QUERIES)


@pytest.mark.parametrize("query", QUERIES, ids=TITLES)
def test_query_runs_on_the_sample_and_returns_rows(sample_dataset, query):
    result = preview(connect(sample_dataset), query, max_rows=5)
    assert result.total_rows > 0, "a documented query should show something on the sample"


def test_the_documented_command_line_works(sample_dataset):
    result = CliRunner().invoke(cli, ["sql", str(sample_dataset), QUERIES[0], "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("problem_id,name,")


def rows_in(fmt: str, text: str | None, path: Path | None) -> int:
    if fmt == "parquet":
        return pl.read_parquet(path).height
    data = text if path is None else path.read_text()
    if fmt == "csv":
        return pl.read_csv(io.StringIO(data)).height  # code cells hold line breaks
    return len([json.loads(line) for line in data.splitlines()])


FORMATS = {
    "table": ("table", False),
    "csv": ("csv", False),
    "json": ("json", False),
    "csv-file": ("csv", True),
    "json-file": ("json", True),
    "parquet-file": ("parquet", True),
}


@pytest.mark.parametrize(("fmt", "to_file"), FORMATS.values(), ids=FORMATS.keys())
@pytest.mark.parametrize("query", QUERIES, ids=TITLES)
def test_query_runs_in_every_format(sample_dataset, tmp_path, query, fmt, to_file):
    expected = preview(connect(sample_dataset), query, max_rows=0).total_rows
    args = ["sql", str(sample_dataset), query]
    out = tmp_path / f"result.{fmt}" if to_file else None
    if out is not None:
        args += ["-o", str(out)]
    elif fmt != "table":
        args += ["--format", fmt]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    if fmt == "table":
        assert f"{expected:,} row" in result.stdout
    else:
        assert rows_in(fmt, result.stdout if out is None else None, out) == expected
