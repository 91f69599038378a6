"""`codelog contamination`: a CodeNet tree against a benchmark file, the report, the errors."""

from __future__ import annotations

import json
import re
import tarfile

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.errors import CodelogError, InputError
from tests.contamination.conftest import FIXTURE
from tests.contamination.test_statements import P03000_AS_APPS


@pytest.fixture(scope="module")
def codenet_tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("codenet")
    with tarfile.open(FIXTURE / "codenet-statements.tar.gz") as tar:
        tar.extractall(root, filter="data")
    return root


@pytest.fixture(scope="module")
def apps_rows(tmp_path_factory):
    path = tmp_path_factory.mktemp("apps") / "rows.jsonl"
    rows = [
        {"problem_id": 4242, "question": P03000_AS_APPS, "solutions": "[]"},
        {"problem_id": 4243, "question": "Reverse the words of a sentence.", "solutions": "[]"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_codenet_tree_against_a_benchmark_writes_the_report(codenet_tree, apps_rows, tmp_path):
    out = tmp_path / "report.jsonl"
    result = run("contamination", codenet_tree, "--against", f"apps:{apps_rows}", "--out", out)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["source_problem"], r["task_id"], r["level"], r["accepted"]) for r in rows] == [
        ("p03000", "4242", "statement", True)
    ]
    assert "ball will bounce" in rows[0]["span"]
    assert "p03000" in result.output


def test_min_score_shows_near_misses_as_not_accepted(codenet_tree, apps_rows, tmp_path):
    out = tmp_path / "report.parquet"
    result = run(
        "contamination",
        codenet_tree,
        "--against",
        f"apps:{apps_rows}",
        "--out",
        out,
        "--min-score",
        "0.01",
    )
    assert result.exit_code == 0, result.output
    rows = pq.read_table(out).to_pylist()
    assert sum(r["accepted"] for r in rows) == 1 and len(rows) > 1
    assert all(r["score"] < 0.5 for r in rows if not r["accepted"])


def test_an_unknown_benchmark_is_a_clear_error(codenet_tree):
    result = run("contamination", codenet_tree, "--against", "nosuchbench")
    assert result.exit_code != 0
    assert isinstance(result.exception, CodelogError)
    assert "unknown benchmark 'nosuchbench'" in str(result.exception)


def test_an_unreadable_source_is_a_clear_error(tmp_path, apps_rows):
    result = run("contamination", tmp_path / "nothing", "--against", f"apps:{apps_rows}")
    assert result.exit_code != 0
    assert isinstance(result.exception, InputError)
    assert str(result.exception).startswith(str(tmp_path / "nothing") + ": not a codelog dataset")


@pytest.mark.parametrize(
    ("name", "kind"),
    [("mbpp", "directory"), ("mbpp", "fifo"), ("livecodebench", "fifo"), ("apps", "fifo")],
)
def test_a_benchmark_path_that_is_no_file_says_what_is_there(tmp_path, apps_rows, name, kind):
    import os

    from codelog.group.decontaminate import load_references

    path = tmp_path / "bench"
    if kind == "fifo":
        os.mkfifo(path)  # never opened: reading it would block
        said = "not a regular file (a pipe, socket or device)"
    else:
        path.mkdir()
        said = "a directory, not a file"
    result = run("contamination", f"apps:{apps_rows}", "--against", f"{name}:{path}")
    assert isinstance(result.exception, InputError)
    assert str(result.exception).startswith(f"{path}: {said}: ")
    with pytest.raises(InputError, match=re.escape(f"{path}: {said}")):  # build --decontaminate
        load_references([f"{name}:{path}"])
    with pytest.raises(InputError, match="no such file"):
        load_references([f"{name}:{tmp_path / 'absent'}"])
