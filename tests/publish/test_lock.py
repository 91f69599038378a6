"""One build per output at a time: an exclusive lock on `.NAME.lock`, held for the whole build
(staging included). A second build fails at once naming the first one's pid, or with --wait
waits for it; the kernel releases the lock however the holder ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import codelog
from codelog.errors import BusyError
from codelog.files import exclusive_lock

from ..test_crash_safety import REPO, build_cmd, crash_tree, parse_workers


@pytest.fixture(scope="module")
def slow_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return crash_tree(tmp_path_factory.mktemp("lock") / "tree", rows=40, lines=20_000)


def start(cmd: list[str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=log.open("wb"), start_new_session=True
    )


def wait_for_workers(proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while len(parse_workers(proc.pid)) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, "parsing never started"
        time.sleep(0.01)


def test_a_second_build_of_the_same_out_fails_at_once_naming_the_first(slow_tree, tmp_path):
    out = tmp_path / "ds"
    first = start(build_cmd(slow_tree, out), tmp_path / "first.log")
    try:
        wait_for_workers(first)  # the lock is taken before parsing starts
        t0 = time.monotonic()
        second = subprocess.run(
            build_cmd(slow_tree, out), cwd=REPO, capture_output=True, text=True, timeout=60
        )
        assert time.monotonic() - t0 < 15, "failed at once, not after the first build"
        assert second.returncode == 1
        assert second.stderr.strip() == (
            f"error: another build of {out} is running (pid {first.pid}); "
            "wait for it, or pass --wait"
        )
        assert first.poll() is None, "the first build is untouched"
    finally:
        assert first.wait(timeout=300) == 0, (tmp_path / "first.log").read_text()
    assert codelog.verify(out).ok
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [".ds.lock", ".ds.staging", "ds", "first.log"], "no half-state of either"


def test_with_wait_the_second_build_runs_after_the_first(slow_tree, tmp_path):
    out = tmp_path / "ds"
    first = start(build_cmd(slow_tree, out), tmp_path / "first.log")
    wait_for_workers(first)
    second = subprocess.run(
        [*build_cmd(slow_tree, out), "--wait", "--seed", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert first.wait(timeout=300) == 0
    assert second.returncode == 0, second.stderr
    assert f"another build of {out} is running (pid {first.pid}); waiting" in second.stderr
    manifest = codelog.verify(out)
    assert manifest.ok
    assert '"seed": 1' in (out / "manifest.json").read_text(), "the waiting build published last"


def test_the_lock_of_a_killed_build_is_free(tmp_path):
    lock = tmp_path / ".ds.lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from codelog.files import exclusive_lock\n"
            "with exclusive_lock(Path(sys.argv[1]), 'x'):\n"
            "    print('held', flush=True); time.sleep(60)",
            str(lock),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(BusyError, match=rf"pid {holder.pid}\)"), exclusive_lock(lock, "ds"):
        pass
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    with exclusive_lock(lock, "ds"):  # no stale lock to clean up by hand
        assert lock.read_text().strip() == str(os.getpid())
