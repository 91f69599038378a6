"""What `codelog judge` reads and writes stays within its rules (issue 33): a pipe is read once,
a resumed run reuses a verdict only for the code and tests it was given, two runs never share
an output, a link is never written through, a damaged journal or a full disk is one error
naming the file, and a tampered dataset is refused.

Most tests replace the judge by the fake of test_judge_stream (no sandbox); the pipe tests run
the real command on three one-line programs.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import codelog
from codelog.errors import BusyError, CodelogError, DatasetError, InputError, OutputError
from codelog.execution import journal as journal_module
from codelog.execution.journal import MARK, Journal, journal_path
from codelog.execution.judge_run import run_judge
from codelog.files import exclusive_lock
from tests.execution.test_judge_stream import Interrupted, fake_judge, judge_into, write_inputs

REPO = Path(__file__).resolve().parents[2]


def ids(n: int, start: int = 0) -> list[str]:
    return [f"s{i:04d}" for i in range(start, n)]


# --- resume keys each verdict on the code and tests judged ------------------------------------


def test_regenerated_code_with_the_same_ids_is_judged_again(tmp_path, monkeypatch):
    samples, problems = write_inputs(tmp_path, 12)
    fake_judge(monkeypatch, stop_at=6)
    with pytest.raises(Interrupted):
        judge_into(samples, problems, tmp_path / "out")
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    rows[3]["code"] = "print('regenerated')\n"  # same submission_id, other code
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    judged = fake_judge(monkeypatch)
    report = judge_into(samples, problems, tmp_path / "out")
    assert report.resumed == 3
    assert judged == [i for i in ids(12, 3) if int(i[1:]) % 3 != 2]  # s0003 on, with tests


def test_a_changed_tests_file_is_judged_again(tmp_path, monkeypatch):
    samples, problems = write_inputs(tmp_path, 12)
    fake_judge(monkeypatch, stop_at=6)
    with pytest.raises(Interrupted):
        judge_into(samples, problems, tmp_path / "out")
    lines = problems.read_text().splitlines()
    p2 = json.loads(lines[1])
    p2["tests"][0]["output"] = "2\n"  # p2's expected output changed at the same path
    problems.write_text("\n".join([lines[0], json.dumps(p2)]) + "\n")
    judged = fake_judge(monkeypatch)
    report = judge_into(samples, problems, tmp_path / "out")
    assert report.resumed == 1  # s0001 is the first program of p2
    assert judged[0] == "s0001"


def test_an_unchanged_input_resumes_every_journaled_verdict(tmp_path, monkeypatch):
    samples, problems = write_inputs(tmp_path, 12)
    fake_judge(monkeypatch, stop_at=6)
    with pytest.raises(Interrupted):
        judge_into(samples, problems, tmp_path / "out")
    judged = fake_judge(monkeypatch)
    report = judge_into(samples, problems, tmp_path / "out")
    assert report.resumed == 9 and judged == [
        i for i in ids(12, report.resumed) if int(i[1:]) % 3 != 2
    ]


def test_a_journal_of_the_old_format_is_refused_with_one_line(tmp_path):
    path = tmp_path / ".out.jsonl.judging"
    path.write_text(json.dumps({"journal": MARK, "source": "a"}) + "\n")
    path.write_text(path.read_text() + json.dumps({"submission_id": "s1"}) + "\n")
    with pytest.raises(CodelogError, match=r"earlier codelog \(format 1.*pass --force"):
        Journal(path, {"source": "a"})
    assert Journal(path, {"source": "a"}, force=True).resumed == 0


@pytest.mark.parametrize("line", ["{}", "[]", '"text"', '{"key": 1, "result": {}}'])
def test_a_whole_line_that_is_not_a_result_names_the_line(tmp_path, line):
    path = tmp_path / ".out.jsonl.judging"
    journal = Journal(path, {"source": "a"})
    journal.append({"submission_id": "s1"}, key="k")
    journal.close()
    with path.open("a") as f:
        f.write(line + "\n")
    with pytest.raises(CodelogError, match=rf"{path.name} line 3: not a journaled result"):
        Journal(path, {"source": "a"})


def test_a_damaged_journal_is_one_error_line_from_the_command(tmp_path, monkeypatch, capsys):
    from codelog.cli import main

    samples, problems = write_inputs(tmp_path, 12)
    out = tmp_path / "rows.jsonl"
    fake_judge(monkeypatch, stop_at=6)
    with pytest.raises(Interrupted):
        run_judge(samples, out, tests=str(problems), workers=1)
    with journal_path(out).open("a") as f:
        f.write("[]\n")  # a whole line, JSON, not a result
    fake_judge(monkeypatch)
    argv = ["judge", str(samples), "--tests", str(problems), "--out", str(out), "--workers", "1"]
    monkeypatch.setattr(sys, "argv", ["codelog", *argv, "-q"])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:"), err
    assert f"{journal_path(out)} line 11: not a journaled result" in err[0]


# --- one run per output; links and full disks ---------------------------------------------------


def test_a_second_judge_on_the_same_out_is_refused(tmp_path, monkeypatch):
    samples, problems = write_inputs(tmp_path, 6)
    judged = fake_judge(monkeypatch)
    out = tmp_path / "out" / "rows.parquet"
    out.parent.mkdir()
    busy = pytest.raises(BusyError, match=r"another judge run of .*rows\.parquet is running")
    with exclusive_lock(out.parent / ".rows.parquet.lock", str(out)), busy:  # the first run
        judge_into(samples, problems, tmp_path / "out")
    assert judged == [] and not journal_path(out).exists()
    judge_into(samples, problems, tmp_path / "out")  # once it is done
    assert pq.read_table(out).num_rows == 4


def test_force_replaces_a_journal_link_never_its_target(tmp_path, monkeypatch):
    samples, problems = write_inputs(tmp_path, 6)
    fake_judge(monkeypatch)
    mine = tmp_path / "user-notes.txt"
    mine.write_text("mine\n")
    out = tmp_path / "out" / "rows.parquet"
    out.parent.mkdir()
    journal_path(out).symlink_to(mine)
    with pytest.raises(OutputError, match="symbolic link"):
        judge_into(samples, problems, tmp_path / "out")
    judge_into(samples, problems, tmp_path / "out", force=True)
    assert mine.read_text() == "mine\n"
    assert not journal_path(out).exists() and not journal_path(out).is_symlink()
    assert pq.read_table(out).num_rows == 4


def test_a_full_disk_names_the_output(tmp_path, monkeypatch):
    samples, problems = write_inputs(tmp_path, 6)
    fake_judge(monkeypatch)

    def full(self, record, *, key):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(journal_module.Journal, "append", full)
    out = tmp_path / "out" / "rows.parquet"
    with pytest.raises(OutputError) as info:
        judge_into(samples, problems, tmp_path / "out")
    assert str(out) in str(info.value) and "No space left on device" in str(info.value)
    assert not out.exists()


# --- a tampered dataset ------------------------------------------------------------------------


def test_a_tampered_dataset_is_refused_before_judging(sample_dataset, tmp_path, monkeypatch):
    judged = fake_judge(monkeypatch)
    dataset = tmp_path / "ds"
    shutil.copytree(sample_dataset, dataset)
    solutions = dataset / "solutions.parquet"
    pq.write_table(pq.read_table(solutions).slice(0, 5), solutions)
    with pytest.raises(DatasetError, match=r"solutions\.parquet has .* the manifest says"):
        codelog.judge(dataset, tmp_path / "rows.jsonl", limit=3)
    assert judged == [] and not (tmp_path / "rows.jsonl").exists()


# --- a pipe is read once -----------------------------------------------------------------------


def test_a_fifo_is_read_once_and_every_program_judged(tmp_path, monkeypatch):
    samples, problems = write_inputs(tmp_path, 9)
    fake_judge(monkeypatch)
    fifo = tmp_path / "samples.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with fifo.open("wb") as f:  # blocks until the judge opens it
            f.write(samples.read_bytes())

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    report = run_judge(fifo, tmp_path / "rows.parquet", tests=str(problems), workers=1)
    writer.join(timeout=10)
    assert report.rows_written == 6 and sum(report.skipped_reasons.values()) == 3
    assert pq.read_table(tmp_path / "rows.parquet")["submission_id"].to_pylist() == [
        i for i in ids(9) if int(i[1:]) % 3 != 2
    ]
    assert sorted(p.name for p in tmp_path.iterdir() if "codelog-judge-input" in p.name) == []


def _three_programs(tmp_path: Path) -> tuple[Path, Path]:
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        json.dumps({"problem_id": "echo", "tests": [{"input": "", "output": "ok\n"}]}) + "\n"
    )
    samples = tmp_path / "samples.jsonl"
    samples.write_text(
        "".join(
            json.dumps({"submission_id": f"s{i}", "problem_id": "echo", "code": f"print({c!r})"})
            + "\n"
            for i, c in enumerate(["ok", "no", "ok"])
        )
    )
    return samples, problems


@pytest.mark.parametrize(
    "shell",
    [
        "{py} -m codelog.cli judge <(cat {samples}) --tests {problems} --out {out} --workers 1",
        "cat {samples} | {py} -m codelog.cli judge /dev/stdin --tests {problems} --out {out} "
        "--workers 1",
    ],
    ids=["process-substitution", "dev-stdin"],
)
def test_a_pipe_from_the_shell_is_judged_whole(tmp_path, shell):
    samples, problems = _three_programs(tmp_path)
    out = tmp_path / "rows.jsonl"
    command = shell.format(py=sys.executable, samples=samples, problems=problems, out=out)
    done = subprocess.run(
        ["bash", "-c", command], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["submission_id"], r["status"]) for r in rows] == [
        ("s0", "Accepted"),
        ("s1", "Wrong Answer"),
        ("s2", "Accepted"),
    ]
    assert "judged 3 programs" in done.stderr


def test_an_empty_pipe_is_an_error_not_an_empty_success(tmp_path):
    _, problems = _three_programs(tmp_path)
    out = tmp_path / "rows.jsonl"
    command = f"{sys.executable} -m codelog.cli judge <(true) --tests {problems} --out {out}"
    done = subprocess.run(
        ["bash", "-c", command], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error:") and "no programs to judge" in done.stderr
    assert not out.exists()


def test_an_input_that_changes_between_the_two_reads_writes_nothing(tmp_path, monkeypatch):
    from codelog.execution import judge_run

    samples, problems = write_inputs(tmp_path, 9)
    fake_judge(monkeypatch)
    real = judge_run.samples_source

    def shrinking(path, limit=None, *, name=None):
        source = real(path, limit, name=name)
        samples.write_text("".join(samples.read_text().splitlines(True)[:4]))  # cut after
        return source

    monkeypatch.setattr(judge_run, "samples_source", shrinking)
    with pytest.raises(InputError, match=r"9 programs on the first read, 4 on the second"):
        run_judge(samples, tmp_path / "rows.parquet", tests=str(problems), workers=1)
    assert not (tmp_path / "rows.parquet").exists()


def test_an_interrupted_run_from_a_pipe_resumes_from_a_new_pipe(tmp_path, monkeypatch):
    # `<(gen)` is /dev/fd/63 both times, a link to a new pipe each time: a link stands for it
    samples, problems = write_inputs(tmp_path, 12)
    given = tmp_path / "fd63"

    def pipe(name: str) -> threading.Thread:
        fifo = tmp_path / name
        os.mkfifo(fifo)
        given.unlink(missing_ok=True)
        given.symlink_to(fifo)

        def feed() -> None:
            with fifo.open("wb") as f:
                f.write(samples.read_bytes())

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        return writer

    out = tmp_path / "rows.parquet"
    fake_judge(monkeypatch, stop_at=6)
    first = pipe("pipe-1")
    with pytest.raises(Interrupted):
        run_judge(given, out, tests=str(problems), workers=1)
    first.join(timeout=10)
    judged = fake_judge(monkeypatch)
    second = pipe("pipe-2")
    report = run_judge(given, out, tests=str(problems), workers=1)
    second.join(timeout=10)
    assert report.resumed == 9 and judged == ["s0009", "s0010"]
