"""The files a command writes (export --out, sql -o, convert --out, train --out): never an
input, never a file codelog did not write unless --force, never a URL taken for a local path.

The rule for a file output: an existing file is replaced when codelog wrote it (a Parquet file
carrying codelog's metadata mark) or with --force; a file that is, or lies inside, an input
(the dataset) is refused even with --force.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.errors import OutputError
from codelog.files import OUTPUT_KEY

from .ingest.test_junit import PYTEST_REPORT


def run(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def refused(result, match: str) -> None:
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, OutputError), result.exception
    assert match in str(result.exception)


@pytest.fixture
def dataset(sample_dataset, tmp_path) -> Path:
    return Path(shutil.copytree(sample_dataset, tmp_path / "ds"))


def test_export_refuses_a_file_it_did_not_write(dataset, tmp_path):
    out = tmp_path / "mine.parquet"
    out.write_bytes(b"someone's file")
    refused(run("export", dataset, "--format", "kto", "--out", out, "--split", "all"), "--force")
    assert out.read_bytes() == b"someone's file"
    forced = run("export", dataset, "--format", "kto", "--out", out, "--split", "all", "--force")
    assert forced.exit_code == 0, forced.output
    assert OUTPUT_KEY in pq.read_schema(out).metadata


def test_export_replaces_its_own_export_without_force(dataset, tmp_path):
    out = tmp_path / "dpo.parquet"
    for seed in ("1", "2"):
        result = run(
            "export", dataset, "--format", "dpo", "--out", out, "--split", "all", "--seed", seed
        )
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", ["solutions.parquet", "new.parquet"])
def test_export_never_writes_into_the_dataset_even_with_force(dataset, name):
    before = (dataset / "solutions.parquet").read_bytes()
    out = dataset / name
    refused(
        run("export", dataset, "--format", "kto", "--out", out, "--split", "all", "--force"),
        "lies inside",
    )
    assert (dataset / "solutions.parquet").read_bytes() == before
    assert not (dataset / "new.parquet").exists()


def test_sql_output_follows_the_same_rule(dataset, tmp_path):
    query = "SELECT problem_id FROM groups"
    csv = tmp_path / "groups.csv"
    csv.write_text("mine\n")
    refused(run("sql", dataset, query, "-o", csv), "pass --force")
    assert csv.read_text() == "mine\n"
    assert run("sql", dataset, query, "-o", csv, "--force").exit_code == 0
    assert csv.read_text().startswith("problem_id\n")
    for name in ("again.csv", "again.json", "groups.parquet"):
        out = tmp_path / name
        for _ in range(2):  # its own output, of every format: replaced without --force
            result = run("sql", dataset, query, "-o", out)
            assert result.exit_code == 0, result.output
    # ... until someone edits it: then it is theirs
    with (tmp_path / "again.csv").open("a") as f:
        f.write("my note\n")
    refused(run("sql", dataset, query, "-o", tmp_path / "again.csv"), "pass --force")
    assert (tmp_path / "again.csv").read_text().endswith("my note\n")
    refused(run("sql", dataset, query, "-o", dataset / "x.csv", "--force"), "lies inside")


def test_convert_never_overwrites_its_report(tmp_path):
    report = tmp_path / "report.xml"
    shutil.copy(PYTEST_REPORT, report)
    before = report.read_bytes()
    refused(run("convert", "--from", "junit", report, "--out", report, "--force"), "is the input")
    assert report.read_bytes() == before
    out = tmp_path / "export.jsonl"
    out.write_text("mine\n")
    refused(run("convert", "--from", "junit", report, "--out", out), "pass --force")
    assert out.read_text() == "mine\n"


def test_train_out_must_be_empty_or_a_run(dataset, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    result = run("train", dataset, "--out", mine, "--steps", "1")
    refused(result, "is not a codelog run directory (no run.json)")
    assert (mine / "notes.txt").read_text() == "mine"
    refused(run("train", dataset, "--out", dataset / "run", "--steps", "1"), "lies inside")
    refused(run("train", dataset, "--out", dataset, "--steps", "1"), "is the input")


@pytest.mark.parametrize(
    "args",
    [
        ["build", "--out", "s3://bucket/ds"],
        ["build", "--root", "hf://datasets/ibm/codenet"],
        ["build", "--source", "ci", "--input", "s3://bucket/export.jsonl"],
        ["export", "DS", "--format", "dpo", "--out", "s3://b/dpo.parquet"],
        ["sql", "DS", "SELECT 1", "-o", "s3://b/x.csv"],
        ["sql", "hf://datasets/me/ds", "SELECT 1"],
        ["stats", "DS", "--plot", "gs://b/stats.png"],
        ["verify", "https://example.com/ds"],
        ["convert", "--from", "junit", "s3://b/r.xml", "--out", "x.jsonl"],
        ["train", "DS", "--out", "s3://b/run"],
    ],
    ids=lambda a: " ".join(a[:1] + [x for x in a if "://" in x]),
)
def test_a_url_is_refused_never_written_as_a_local_path(
    args, sample_dataset, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    result = run(*(str(sample_dataset) if a == "DS" else a for a in args))
    assert result.exit_code == 2, result.output
    assert "a URL; codelog reads and writes local paths only" in result.output
    assert list(tmp_path.iterdir()) == [], "nothing written (no ./s3: directory)"
