"""Nothing outlives its judge: a SIGKILL of `codelog judge` takes its sandboxed programs and its
pool workers with it within 2 s, and the next run removes what the killed one left on disk.
Bounded: one slow program per worker, two workers at most, nothing but loopback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from codelog.execution import sandbox
from codelog.files import process_exists

SPIN = "import time\nwhile True:\n    time.sleep(0.01)\n"


def uid_range(pid: int) -> range:
    first = sandbox._UID_BASE + (pid % 4_000_000) * sandbox._UID_SLOTS
    return range(first, first + sandbox._UID_SLOTS)


def processes(where) -> list[int]:
    """Live processes whose uid, or parent pid, `where` accepts: where(uid, ppid)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            uid = entry.stat().st_uid
            with open(os.path.join(entry.path, "stat"), "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if fields[0] not in (b"Z", b"X") and where(uid, int(fields[1])):
            found.append(int(entry.name))
    return found


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture(autouse=True)
def _needs_root_and_namespaces():
    if os.geteuid() != 0:
        pytest.skip("sandbox uids are given out by root only")
    mode = sandbox.resolve_isolation("auto", sandbox.python_runner().readable)
    if mode.isolation.uid is None:
        pytest.skip("no setpriv: the sandbox runs under the caller's uid")


@pytest.mark.parametrize("start", ["warm", "cold"])
@pytest.mark.parametrize("workers", [1, 2])
def test_kill_9_of_judge_leaves_no_sandbox_process_or_worker(
    tmp_path: Path, workers: int, start: str
):
    problems = tmp_path / "problems.jsonl"
    problems.write_text(json.dumps({"problem_id": "p", "tests": [{"output": "x\n"}]}) + "\n")
    samples = tmp_path / "samples.jsonl"
    samples.write_text(
        "".join(json.dumps({"problem_id": "p", "code": SPIN}) + "\n" for _ in range(workers))
    )
    judge = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "codelog.cli",
            "judge",
            str(samples),
            "--tests",
            str(problems),
            "--out",
            str(tmp_path / "rows.jsonl"),
            "--workers",
            str(workers),
            "--time-scale",
            "20",
            "--quiet",
            *(["--cold"] if start == "cold" else []),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def pids() -> set[int]:
            workers_ = set(processes(lambda uid, ppid: ppid == judge.pid))
            return {judge.pid, *workers_}

        def sandboxed() -> list[int]:
            owners = pids()
            return processes(lambda uid, ppid: any(uid in uid_range(p) for p in owners))

        assert wait_for(lambda: len(sandboxed()) > 0, 60), "no program started"
        owners = pids()
        pool = owners - {judge.pid}
        judge.send_signal(signal.SIGKILL)
        judge.wait(10)

        def left() -> list[int]:
            in_box = processes(lambda uid, ppid: any(uid in uid_range(p) for p in owners))
            alive_workers = [p for p in pool if os.path.exists(f"/proc/{p}")]
            return in_box + [p for p in alive_workers if not _zombie(p)]

        assert wait_for(lambda: not left(), 2.0), f"outlived the judge: {left()}"
    finally:
        if judge.poll() is None:
            judge.kill()
            judge.wait()
        sandbox.sweep_stale()


def _zombie(pid: int) -> bool:
    try:
        return sandbox._zombie(f"/proc/{pid}")
    except OSError:
        return True


def test_the_next_run_removes_what_a_killed_one_left(tmp_path: Path):
    gone = subprocess.Popen(["true"])
    gone.wait()
    left = Path(tempfile.mkdtemp(prefix=f"codelog-sandbox-{gone.pid}-"))
    (left / "run-x").mkdir()
    mine = Path(sandbox.scratch_dir())
    removed, _ = sandbox.sweep_stale()
    assert removed >= 1
    assert not left.exists()
    assert mine.exists()  # a live process's directory stays


@pytest.mark.parametrize("start", ["warm", "cold"])
def test_a_judge_run_leaves_no_scratch_directory(tmp_path: Path, start: str):
    problems = tmp_path / "problems.jsonl"
    problems.write_text(json.dumps({"problem_id": "p", "tests": [{"output": "x\n"}]}) + "\n")
    samples = tmp_path / "samples.jsonl"
    samples.write_text(
        "".join(json.dumps({"problem_id": "p", "code": "print('x')"}) + "\n" for _ in range(4))
    )
    before = set(Path(tempfile.gettempdir()).glob("codelog-sandbox-*"))
    judge = subprocess.run(
        [
            sys.executable,
            "-m",
            "codelog.cli",
            "judge",
            str(samples),
            "--tests",
            str(problems),
            "--out",
            str(tmp_path / "rows.jsonl"),
            "--workers",
            "2",
            "--quiet",
            *(["--cold"] if start == "cold" else []),
        ],
        capture_output=True,
        timeout=120,
    )
    assert judge.returncode == 0, judge.stderr
    after = set(Path(tempfile.gettempdir()).glob("codelog-sandbox-*"))
    # the judge's processes are gone: a directory of a live process is another codelog's on
    # this shared machine (or this test's own), not one left behind
    mine = {p for p in after - before if not process_exists(int(p.name.split("-")[2]))}
    assert not mine, f"left behind: {sorted(mine)}"
