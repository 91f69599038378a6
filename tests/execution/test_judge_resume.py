"""An interrupted `codelog judge` resumes from its journal: re-run with the same arguments, it
judges only the submission ids it lacks, and the output holds every verdict once, in order."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codelog.errors import CodelogError, OutputError
from codelog.execution.journal import Journal, VerdictKeys, journal_path, read_back
from codelog.execution.judge import Program
from codelog.execution.testcases import Problem, TestCase

PROGRAMS = 24


def _inputs(tmp_path: Path, sleep: float = 0.2) -> tuple[Path, Path]:
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        json.dumps({"problem_id": "echo", "tests": [{"input": "", "output": "ok\n"}]}) + "\n"
    )
    samples = tmp_path / "samples.jsonl"
    with samples.open("w") as f:
        for i in range(PROGRAMS):
            answer = "ok" if i % 3 else "no"
            code = f"import time\ntime.sleep({sleep})\nprint({answer!r})\n"
            f.write(json.dumps({"submission_id": f"s{i:03d}", "problem_id": "echo", "code": code}))
            f.write("\n")
    return samples, problems


def _judge(samples: Path, problems: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "codelog.cli", "judge", str(samples), "--tests", str(problems),
            "--out", str(out), "--workers", "2", *extra]  # fmt: skip


def test_a_killed_judge_resumes_and_the_counts_add_up(tmp_path: Path) -> None:
    samples, problems = _inputs(tmp_path)
    out = tmp_path / "judged.jsonl"
    journal = journal_path(out)
    first = subprocess.Popen(_judge(samples, problems, out), stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and first.poll() is None:
            if journal.exists() and len(journal.read_text().splitlines()) > 5:
                break
            time.sleep(0.05)
        os.kill(first.pid, signal.SIGKILL)  # no cleanup at all: the journal is all there is
    finally:
        first.wait(timeout=30)
    done = len(journal.read_text().splitlines()) - 1
    assert 5 <= done < PROGRAMS and not out.exists()
    second = subprocess.run(_judge(samples, problems, out), capture_output=True, text=True)
    assert second.returncode == 0, second.stderr
    assert f"skipped 0 ({done} of them read back from the interrupted run)" in second.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["submission_id"] for r in rows] == [f"s{i:03d}" for i in range(PROGRAMS)]
    assert [r["status"] for r in rows] == [
        "Wrong Answer" if i % 3 == 0 else "Accepted" for i in range(PROGRAMS)
    ]
    assert f"judged {PROGRAMS} programs" in second.stderr  # the counts add up
    assert not journal.exists()


def test_a_line_cut_short_is_dropped_and_judged_again(tmp_path: Path) -> None:
    path = tmp_path / ".out.jsonl.judging"
    journal = Journal(path, {"source": "a"})
    journal.append({"submission_id": "s1", "status": "Accepted"}, key="k1")
    journal.close()
    with path.open("a") as f:
        f.write('{"key": "k2", "result": {"submission_id": "s2", "sta')  # killed mid-write
    again = Journal(path, {"source": "a"})
    assert again.resumed == 1
    assert [(e.key, e.record["submission_id"]) for e in again.resumed_records()] == [("k1", "s1")]
    again.append({"submission_id": "s2", "status": "Wrong Answer"}, key="k2")
    assert [(e.line, e.record["submission_id"]) for e in again.records()] == [(2, "s1"), (3, "s2")]
    again.close()


def test_a_journal_of_another_run_is_not_resumed(tmp_path: Path) -> None:
    path = tmp_path / ".out.jsonl.judging"
    Journal(path, {"source": "a", "time_scale": 1.0}).close()
    with pytest.raises(CodelogError, match=r"another judge run \(its time_scale differ\)"):
        Journal(path, {"source": "a", "time_scale": 2.0})
    started_over = Journal(path, {"source": "a", "time_scale": 2.0}, force=True)
    assert started_over.resumed == 0
    started_over.close()


def test_a_file_codelog_did_not_write_is_not_taken_for_a_journal(tmp_path: Path) -> None:
    path = tmp_path / ".out.jsonl.judging"
    path.write_text("someone's notes\n")
    with pytest.raises(OutputError, match="codelog did not write it"):
        Journal(path, {"source": "a"})
    assert path.read_text() == "someone's notes\n"


# --- the read-back both `codelog judge` and `codelog eval` resume through ----------------------

ECHO = Problem("echo", (TestCase("t1", "", "ok\n"),), statement="Print ok.")


def _journaled(path: Path, programs: list[Program]) -> None:
    """A journal holding a verdict for each program, keyed as the judge keys them."""
    keys = VerdictKeys({"echo": ECHO})
    journal = Journal(path, {"source": "a"})
    for p in programs:
        journal.append({"submission_id": p.submission_id, "status": "Accepted"}, key=keys(p))
    journal.close()


def test_read_back_uses_verdicts_until_a_key_differs_then_judges_the_rest_again(tmp_path):
    path = tmp_path / ".out.jsonl.judging"
    before = [Program(f"s{i}", "echo", f"print('ok')  # {i}\n") for i in range(4)]
    _journaled(path, before)
    now = [
        *before[:2],
        Program("s2", "echo", "print('no')\n"),
        before[3],
        Program("s4", "echo", ""),
    ]
    used, checked = [], []
    journal = Journal(path, {"source": "a"})
    back = read_back(
        journal,
        now,
        VerdictKeys({"echo": ECHO}),
        lambda program, entry: used.append((program.submission_id, entry.line)),
        check=lambda n, program, entry: checked.append((n, program.submission_id)),
    )
    assert used == [("s0", 2), ("s1", 3)] and back.used == 2
    assert checked == [(1, "s0"), (2, "s1"), (3, "s2")]
    assert back.changed == now[2] and list(back.rest) == now[2:]  # s3 is judged again too
    assert [e.record["submission_id"] for e in journal.records()] == ["s0", "s1"]  # rewound
    journal.close()
    assert Journal(path, {"source": "a"}).resumed == 2


def test_read_back_of_fewer_programs_than_verdicts_uses_as_many_as_there_are(tmp_path):
    path = tmp_path / ".out.jsonl.judging"
    programs = [Program(f"s{i}", "echo", f"print({i})\n") for i in range(5)]
    _journaled(path, programs)
    journal = Journal(path, {"source": "a"})
    back = read_back(journal, programs[:3], VerdictKeys({"echo": ECHO}), lambda p, e: None)
    assert (back.used, back.changed, list(back.rest)) == (3, None, [])
    assert journal.resumed == 3 and len(list(journal.records())) == 3
    journal.close()


def test_a_verdict_is_keyed_on_the_tests_and_code_not_the_statement() -> None:
    program = Program("s0", "echo", "print('ok')\n")
    key = VerdictKeys({"echo": ECHO})(program)
    reworded = dataclasses.replace(ECHO, statement="Say ok.", name="Echo")
    assert VerdictKeys({"echo": reworded})(program) == key
    retested = dataclasses.replace(ECHO, tests=(TestCase("t1", "", "no\n"),))
    assert VerdictKeys({"echo": retested})(program) != key
    assert VerdictKeys({})(program) != key  # no such problem: no tests judged
    assert VerdictKeys({"echo": ECHO})(dataclasses.replace(program, language="PyPy3")) != key
