"""`codelog sql` on the bundled sample, checked against Polars computations over the Parquet files."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest
from click.testing import CliRunner

from codelog.cli import cli, main
from codelog.dataset.open import open_dataset
from codelog.dataset.query import attach_statements, format_cell


def sql(*args: str) -> str:
    result = CliRunner().invoke(cli, ["sql", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def run_main(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """The installed entry point (its error handling included): exit status, stdout, stderr."""
    monkeypatch.setattr(sys, "argv", ["codelog", *args])
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def solutions(sample_dataset: Path) -> pl.DataFrame:
    return pl.read_parquet(sample_dataset / "solutions.parquet")


@pytest.fixture(scope="module")
def expected_groups(solutions: pl.DataFrame) -> pl.DataFrame:
    """The groups view, recomputed with Polars from solutions.parquet."""
    return (
        solutions.group_by("problem_id", "language")
        .agg(
            n_solutions=pl.len(),
            n_correct=pl.col("is_correct").sum(),
            n_incorrect=(~pl.col("is_correct")).sum(),
            reward_mean=pl.col("reward").mean(),
            reward_std=pl.col("reward").std(ddof=1).fill_null(0.0),
            n_submissions=pl.col("dup_count").sum(),
        )
        .sort("problem_id", "language")
    )


GROUP_COLUMNS = "problem_id, language, n_solutions, n_correct, n_incorrect, reward_mean, reward_std, n_submissions"


def test_groups_csv_matches_a_polars_group_by(sample_dataset, expected_groups):
    out = sql(
        str(sample_dataset),
        f"SELECT {GROUP_COLUMNS} FROM groups ORDER BY problem_id, language",
        "--format",
        "csv",
    )
    got = pl.read_csv(io.StringIO(out))
    assert got.height == expected_groups.height >= 6
    for column in ("problem_id", "language", "n_solutions", "n_correct", "n_incorrect"):
        assert got[column].to_list() == expected_groups[column].cast(got[column].dtype).to_list()
    for column in ("reward_mean", "reward_std"):
        assert got[column].to_list() == pytest.approx(expected_groups[column].to_list())
    assert got["n_submissions"].to_list() == expected_groups["n_submissions"].to_list()
    # a group needs both kinds of solution
    assert min(got["n_correct"]) >= 1 and min(got["n_incorrect"]) >= 1


def test_json_lines_keep_the_outcome_mix_as_an_object(sample_dataset, solutions):
    out = sql(
        str(sample_dataset),
        "SELECT problem_id, outcome_mix FROM groups ORDER BY problem_id",
        "--format",
        "json",
    )
    rows = [json.loads(line) for line in out.splitlines()]
    expected = solutions.group_by("problem_id", "outcome").len()
    for row in rows:
        mine = expected.filter(pl.col("problem_id") == row["problem_id"])
        assert row["outcome_mix"] == dict(zip(mine["outcome"], mine["len"], strict=True))
    assert len(rows) == solutions["problem_id"].n_unique()


def test_parquet_file_holds_every_row(sample_dataset, solutions, tmp_path):
    out = tmp_path / "sub" / "slow.parquet"  # format from the suffix, parent created
    result = CliRunner().invoke(
        cli,
        [
            "sql",
            str(sample_dataset),
            "SELECT submission_id, reward FROM solutions WHERE NOT is_correct ORDER BY 1",
            "--output",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    got = pl.read_parquet(out)
    wrong = solutions.filter(~pl.col("is_correct")).sort("submission_id")
    assert got["submission_id"].to_list() == wrong["submission_id"].to_list()
    assert got["reward"].to_list() == wrong["reward"].to_list()
    assert [p.name for p in out.parent.iterdir()] == ["slow.parquet"]  # no temporary left


def test_table_shows_the_rows_and_their_count(sample_dataset, solutions):
    out = sql(str(sample_dataset), "SELECT problem_id, count(*) AS n FROM solutions GROUP BY 1")
    counts = solutions.group_by("problem_id").len()
    for problem_id, n in counts.iter_rows():
        line = next(li for li in out.splitlines() if problem_id in li)
        assert f" {n} " in line
    assert f"{counts.height} rows" in out


def test_table_is_cut_at_max_rows_but_counts_all(sample_dataset, solutions):
    out = sql(
        str(sample_dataset),
        "SELECT submission_id FROM solutions ORDER BY 1",
        "--max-rows",
        "3",
    )
    ids = solutions["submission_id"].sort().to_list()
    assert all(i in out for i in ids[:3]) and ids[3] not in out
    assert f"first 3 of {len(ids):,} rows" in out


def test_cells_print_code_literally(sample_dataset):
    out = sql(str(sample_dataset), "SELECT '[bold]a[/bold]' AS markup, NULL AS nothing")
    assert "[bold]a[/bold]" in out and "NULL" in out
    assert format_cell({"accepted": 3}) == "{accepted: 3}"
    assert format_cell(0.123456789) == "0.123457"


def test_sql_error_is_duckdbs_message_and_exit_1(sample_dataset, monkeypatch, capsys):
    code, out, err = run_main(monkeypatch, capsys, "sql", str(sample_dataset), "SELECT * FROM nope")
    assert code == 1 and out == ""
    assert "Catalog Error" in err and "nope" in err
    assert "Traceback" not in err


def test_error_while_writing_leaves_no_file(sample_dataset, monkeypatch, capsys, tmp_path):
    out = tmp_path / "bad.csv"
    code, _, err = run_main(
        monkeypatch,
        capsys,
        "sql",
        str(sample_dataset),
        "SELECT CAST(problem_id AS INTEGER) FROM solutions",
        "-o",
        str(out),
    )
    assert code == 1 and "Conversion Error" in err
    assert "COPY" not in err  # the message is about the user's query, not our COPY wrapper
    assert list(tmp_path.iterdir()) == []


def test_parquet_to_stdout_is_refused(sample_dataset, monkeypatch, capsys):
    code, out, err = run_main(
        monkeypatch, capsys, "sql", str(sample_dataset), "SELECT 1", "--format", "parquet"
    )
    assert code == 1 and "--output" in err and out == ""


def test_not_a_dataset_is_a_clear_error(tmp_path, monkeypatch, capsys):
    code, _, err = run_main(monkeypatch, capsys, "sql", str(tmp_path), "SELECT 1")
    assert code == 1 and "manifest.json" in err


def test_query_from_stdin(sample_dataset, solutions):
    result = CliRunner().invoke(
        cli,
        ["sql", str(sample_dataset), "-", "--format", "csv"],
        input="SELECT count(*) AS n FROM solutions",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["n", str(solutions.height)]


def test_without_duckdb_cli_prints_statements_that_attach_the_views(
    sample_dataset, monkeypatch, capsys, tmp_path
):
    monkeypatch.setenv("PATH", str(tmp_path))  # no duckdb binary anywhere
    monkeypatch.chdir(tmp_path)  # the statements must not depend on the working directory
    code, out, err = run_main(monkeypatch, capsys, "sql", str(sample_dataset))
    assert code == 0 and "duckdb" in err
    fresh = duckdb.connect()
    fresh.execute(out)
    reference = open_dataset(sample_dataset)
    for view in ("solutions", "rejects", "problems", "groups"):
        query = f"SELECT * FROM {view} ORDER BY ALL"
        assert fresh.sql(query).fetchall() == reference.sql(query).fetchall(), view
    assert out == attach_statements(sample_dataset)


def test_without_query_opens_the_duckdb_cli_on_the_views(sample_dataset, tmp_path, solutions):
    """A stand-in `duckdb` binary runs what it is given (-cmd, then SQL from stdin) with DuckDB."""
    fake = tmp_path / "bin" / "duckdb"
    fake.parent.mkdir()
    fake.write_text(
        f"#!{sys.executable}\n"
        "import sys, duckdb\n"
        "assert sys.argv[1] == '-cmd'\n"
        "con = duckdb.connect()\n"
        "con.execute(sys.argv[2])\n"
        "print(con.sql(sys.stdin.read()).fetchall())\n"
    )
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}"}
    codelog = Path(sys.executable).parent / "codelog"
    done = subprocess.run(
        [str(codelog), "sql", str(sample_dataset)],
        input="SELECT count(*), sum(n_solutions) FROM groups",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    n_groups = solutions.select("problem_id", "language").unique().height
    assert done.stdout.strip() == f"[({n_groups}, {solutions.height})]"
