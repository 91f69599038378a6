"""Every SQL block of the README's Querying section runs on the bundled sample and finds something."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.dataset.query import connect, preview

README = Path(__file__).resolve().parents[2] / "README.md"
# The README's "Querying" section, up to the next top-level section.
DOC_TEXT = README.read_text(encoding="utf-8").split("\n## Querying", 1)[1].split("\n## ", 1)[0]
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
