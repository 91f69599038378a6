"""`codelog sql` reads the dataset and the files the user names, and writes only its result
(issue 33): every probe of a hostile query is refused with one `error:` line, and nothing on
disk or on the network is touched."""

from __future__ import annotations

import http.server
import shutil
import threading
from pathlib import Path
from typing import ClassVar

import pytest

from codelog.dataset.verify import verify_dataset
from tests.dataset.test_sql import run_main


def run_sql(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    return run_main(monkeypatch, capsys, "sql", *args)


@pytest.fixture
def dataset(sample_dataset: Path, tmp_path: Path) -> Path:
    """A private copy: a probe that got through would damage it, not the session's sample."""
    copy = tmp_path / "ds"
    shutil.copytree(sample_dataset, copy)
    return copy


def refused(code: int, err: str, word: str) -> None:
    assert code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert word in lines[0], err
    assert "Traceback" not in err


def test_copy_over_the_dataset_is_refused_and_the_dataset_stays_whole(dataset, monkeypatch, capsys):
    target = dataset / "solutions.parquet"
    before = target.read_bytes()
    for options in ("", " (FORMAT csv)"):
        code, _, err = run_sql(
            monkeypatch, capsys, str(dataset), f"COPY (SELECT 1 AS x) TO '{target}'{options}"
        )
        refused(code, err, "COPY")
    assert target.read_bytes() == before
    assert verify_dataset(dataset).ok


@pytest.mark.parametrize(
    "wrapped",
    [
        "PREPARE p AS {copy}; EXECUTE p",
        "EXPLAIN ANALYZE {copy}",
        "explain analyse {copy}",
        "EXPLAIN (ANALYZE) {copy}",
        "EXPLAIN {copy}",
    ],
)
def test_a_copy_inside_another_statement_is_refused(dataset, monkeypatch, capsys, wrapped):
    # a direct write (no temporary file) to a file the views read: DuckDB's own lock allows it
    target = dataset / "solutions.parquet"
    before = target.read_bytes()
    copy = f"COPY (SELECT 1 AS x) TO '{target}' (FORMAT csv, USE_TMP_FILE false)"
    code, _, err = run_sql(monkeypatch, capsys, str(dataset), wrapped.format(copy=copy))
    refused(code, err, "refused")
    assert target.read_bytes() == before


def test_explain_of_a_query_still_works(dataset, monkeypatch, capsys):
    for query in ("EXPLAIN SELECT count(*) FROM solutions", "EXPLAIN ANALYZE SELECT 1"):
        code, out, err = run_sql(monkeypatch, capsys, str(dataset), query, "--format", "csv")
        assert code == 0, err
        assert "plan" in out


def test_copy_to_a_user_file_is_refused(dataset, tmp_path, monkeypatch, capsys):
    notes = tmp_path / "user-notes.txt"
    notes.write_text("mine\n")
    code, _, err = run_sql(
        monkeypatch, capsys, str(dataset), f"SELECT 1; COPY (SELECT 1 AS x) TO '{notes}'"
    )
    refused(code, err, "COPY")
    assert notes.read_text() == "mine\n"


@pytest.mark.parametrize(
    ("statement", "word"),
    [
        ("ATTACH '{dir}/made.duckdb' AS made", "ATTACH"),
        ("EXPORT DATABASE '{dir}/exported'", "EXPORT"),
    ],
)
def test_attach_and_export_write_nothing(dataset, tmp_path, monkeypatch, capsys, statement, word):
    work = tmp_path / "work"
    work.mkdir()
    code, _, err = run_sql(monkeypatch, capsys, str(dataset), statement.format(dir=work))
    refused(code, err, word)
    assert list(work.iterdir()) == []


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def loopback_server():
    _Recorder.hits = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _Recorder.hits
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    "statement",
    [
        "SET custom_extension_repository = '{url}'",
        "INSTALL httpfs FROM '{url}'",
        "SET custom_extension_repository = '{url}'; INSTALL httpfs",
        "FORCE INSTALL httpfs FROM '{url}'",
        "LOAD httpfs",
        "SELECT * FROM read_parquet('{url}/x.parquet')",
    ],
)
def test_no_extension_is_installed_or_fetched(
    dataset, loopback_server, monkeypatch, capsys, statement
):
    url, hits = loopback_server
    code, _, err = run_sql(monkeypatch, capsys, str(dataset), statement.format(url=url))
    assert code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines and lines[0].startswith("error:"), err
    assert "Traceback" not in err
    assert hits == []


@pytest.mark.parametrize(
    "statement",
    [
        "SET lock_configuration = false",
        "RESET lock_configuration",
        "SET enable_external_access = true",
        "SET allowed_directories = ['/']",
        "SET autoinstall_known_extensions = true",
        "PRAGMA enable_profiling",
    ],
)
def test_the_configuration_cannot_be_unlocked(dataset, monkeypatch, capsys, statement):
    code, _, err = run_sql(
        monkeypatch, capsys, str(dataset), f"{statement}; SELECT count(*) FROM '/etc/hostname'"
    )
    assert code == 1
    assert err.startswith("error:") and "locked" in err, err


def test_other_files_are_read_only_when_named(dataset, tmp_path, monkeypatch, capsys):
    extra = tmp_path / "extra.csv"
    extra.write_text("problem_id,note\np00000,hello\n")
    query = f"SELECT note FROM read_csv('{extra}')"
    code, _, err = run_sql(monkeypatch, capsys, str(dataset), query)
    assert code == 1 and err.startswith("error:") and "disabled" in err, err
    code, out, err = run_sql(
        monkeypatch, capsys, str(dataset), query, "--read", str(extra), "--format", "csv"
    )
    assert code == 0, err
    assert out.splitlines() == ["note", "hello"]
    # a directory lets the query read what lies under it
    code, out, err = run_sql(
        monkeypatch, capsys, str(dataset), query, "--read", str(tmp_path), "--format", "csv"
    )
    assert code == 0, err


def test_the_result_is_written_through_output_only(dataset, tmp_path, monkeypatch, capsys):
    out = tmp_path / "groups.parquet"
    code, _, err = run_sql(
        monkeypatch, capsys, str(dataset), "SELECT * FROM groups", "-o", str(out)
    )
    assert code == 0, err
    assert out.stat().st_size > 0
    user_file = tmp_path / "mine.csv"
    user_file.write_text("not codelog's\n")
    code, _, err = run_sql(monkeypatch, capsys, str(dataset), "SELECT 1 AS x", "-o", str(user_file))
    assert code == 1 and "--force" in err
    assert user_file.read_text() == "not codelog's\n"
