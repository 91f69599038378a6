"""The same manners on every command: results on stdout, chatter on stderr, --quiet silences
the chatter, --no-progress the bars, no bar when stderr is not a terminal (periodic lines
instead), tables never cut to
80 columns when piped, --json where a summary is data."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from codelog.cli import cli

from .ingest.test_junit import FIXTURES

REPO = Path(__file__).resolve().parents[1]


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_command_has_quiet_and_no_progress(name):
    options = {opt for param in cli.commands[name].params for opt in param.opts}
    secondary = {opt for param in cli.commands[name].params for opt in param.secondary_opts}
    assert {"--quiet", "-q", "--progress"} <= options
    assert "--no-progress" in secondary


def test_a_piped_build_draws_no_progress_bar_but_summarises(tmp_path):
    result = run("build", "--out", tmp_path / "ds", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "parse" not in result.stderr and "rows/s 0:" not in result.stderr, "no bar"
    assert "solutions kept" in result.stderr and "done in" in result.stderr
    assert result.stdout == ""


def test_a_piped_build_logs_a_periodic_progress_line(tmp_path, monkeypatch):
    from codelog import progress

    monkeypatch.setattr(progress, "LOG_EVERY_S", 0.0)  # every update: one line each
    result = run("build", "--out", tmp_path / "ds", "--workers", "1")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("parse: ")]
    assert lines, result.stderr
    assert "/1,609 rows (" in lines[-1] and "rows/s" in lines[-1] and "elapsed" in lines[-1]
    assert "\r" not in result.stderr and "\x1b[" not in result.stderr  # nothing redrawn
    quiet = run("build", "--out", tmp_path / "ds2", "--workers", "1", "--no-progress")
    assert not [line for line in quiet.stderr.splitlines() if line.startswith("parse: ")]


def test_progress_can_be_forced_on(tmp_path):
    result = run("build", "--out", tmp_path / "ds", "--workers", "1", "--progress")
    assert result.exit_code == 0, result.output
    assert "parse" in result.stderr


def test_build_json_is_the_summary_on_stdout(tmp_path):
    result = run("build", "--out", tmp_path / "ds", "--workers", "1", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["out"] == str(tmp_path / "ds")
    assert summary["counts"]["solutions"] == 749 and summary["counts"]["groups"] == 8
    assert set(summary["seconds"]) >= {"scan", "stage", "group_and_write", "total"}
    assert result.stderr == ""


def quiet_runs(dataset: Path, tmp_path: Path) -> dict[str, list[object]]:
    tree = tmp_path / "tree"
    convert = ["convert", "--from", "junit", tree / "pytest-report.xml", "--code-root", tree]
    return {
        "build": ["build", "--out", tmp_path / "ds2", "--workers", "1"],
        "sql": ["sql", dataset, "SELECT count(*) AS n FROM groups", "-o", tmp_path / "n.csv"],
        "stats": ["stats", dataset],
        "export": [
            "export",
            dataset,
            "--format",
            "kto",
            "--out",
            tmp_path / "kto",
            "--split",
            "all",
        ],
        "verify": ["verify", dataset],
        "convert": [*convert, "--out", tree / "e.jsonl"],
    }


@pytest.mark.parametrize("command", ["build", "sql", "stats", "export", "verify", "convert"])
def test_quiet_leaves_stderr_empty_and_results_on_stdout(sample_dataset, tmp_path, command):
    shutil.copytree(FIXTURES, tmp_path / "tree")
    args = quiet_runs(sample_dataset, tmp_path)[command]
    if command in ("sql", "export", "convert"):
        args.append("--force")  # the second run replaces the first one's file
    loud = run(*args)
    assert loud.exit_code == 0, loud.output
    quiet = run(*args, "--quiet", "--no-progress")
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stderr == ""
    assert quiet.stdout == loud.stdout, "--quiet never hides results"
    if command in ("build", "sql", "export", "convert"):
        assert loud.stdout == "", "nothing but results on stdout"
        assert loud.stderr != "", "the chatter went to stderr"
    else:
        assert loud.stdout != ""


def test_a_piped_table_is_not_cut_to_80_columns(sample_dataset):
    # a real pipe, not a test runner: the width rich picks for a non-terminal
    query = "SELECT repeat('x', 150) AS wide, 'end' AS last_column"
    done = subprocess.run(
        [sys.executable, "-m", "codelog.cli", "sql", str(sample_dataset), query],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    assert "x" * 150 in done.stdout
    assert "last_column" in done.stdout
    stats = subprocess.run(
        [sys.executable, "-m", "codelog.cli", "stats", str(sample_dataset)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    assert "submissions reaching dedup" in stats.stdout, "no cell cut with an ellipsis"


def test_train_on_a_directory_that_is_no_dataset_says_so_before_loading_torch(tmp_path):
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from codelog.cli import cli\n"
        f"result = CliRunner().invoke(cli, ['train', {str(tmp_path)!r}])\n"
        "print(result.exception)\n"
        "print('torch' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    message, torch_loaded = done.stdout.strip().splitlines()
    assert message == (
        f"{tmp_path}: not a codelog dataset (no manifest.json); make one with "
        f"`codelog build --out {tmp_path}`"
    )
    assert torch_loaded == "False"


def test_codelogs_own_duckdb_connections_draw_no_progress_bar(sample_dataset):
    from codelog.dataset.open import open_dataset
    from codelog.sql import connect

    con = connect()
    assert con.sql("SELECT current_setting('enable_progress_bar')").fetchall() == [(False,)]
    # every connection codelog's own work runs on comes from there, open_dataset's too
    direct = [
        str(path.relative_to(REPO))
        for path in (REPO / "codelog").rglob("*.py")
        if "duckdb.connect(" in path.read_text(encoding="utf-8")
    ]
    assert sorted(direct) == ["codelog/sql.py"]
    con = open_dataset(sample_dataset)
    assert con.sql("SELECT current_setting('enable_progress_bar')").fetchall() == [(False,)]


def test_a_slow_rate_reads_as_a_fraction_not_zero():
    from codelog.progress import LogProgress, per_second

    assert [per_second(r) for r in (0.2, 1.54, 12.4, 1609.0, 0.0)] == [
        "0.2",
        "1.5",
        "12",
        "1,609",
        "0",
    ]
    progress = LogProgress("steps")
    progress.add_task("train", total=100)
    task = progress._tasks[0]
    task["done"] = 3
    line = progress._line(task, task["start"] + 15.0)
    assert line.startswith("train: 3/100 steps (3%), 0.2 steps/s, 0:15 elapsed, ETA 8:05")


@pytest.mark.parametrize(("signum", "status"), [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_a_library_turns_into_its_own_error_still_ends_with_its_status(
    monkeypatch, capsys, signum, status
):
    # DuckDB catches the exception a signal raises mid-query and raises InterruptException
    # ("Query interrupted") instead: the command must end as the signal says, not with 1
    import signal

    import duckdb

    import codelog.cli as entry
    from tests.dataset.test_sql import run_main

    def query_interrupted(**_):
        try:
            signal.raise_signal(getattr(signal, signum))
        except KeyboardInterrupt:
            raise duckdb.InterruptException("Query interrupted") from None

    previous = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(entry, "cli", query_interrupted)
    try:
        code, _, err = run_main(monkeypatch, capsys, "build")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert code == status
    assert "Traceback" not in err and "error:" not in err
