"""A build leaves no process behind, however it ends, and SIGTERM cleans up as Ctrl-C does.

Real process trees: `codelog build` with two parse workers (and multiprocessing's resource
tracker, which the spawn context starts for the pool's semaphores). After SIGKILL of the build
alone, the kernel kills the workers (PR_SET_PDEATHSIG) and the tracker, whose pipe only they
held open, exits on end-of-file. SIGTERM, to the build or to its whole process group (systemd,
docker stop, `kill`), unwinds like Ctrl-C: workers stopped, temporary directories removed,
exit status 143.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from .test_crash_safety import REPO, build_cmd, crash_tree, parse_workers, temp_dirs


@pytest.fixture(scope="module")
def slow_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sources big enough (~250 KB each) that parsing outlasts worker start-up by seconds."""
    return crash_tree(tmp_path_factory.mktemp("orphans") / "tree", rows=40, lines=20_000)


def living(processes: list[psutil.Process]) -> list[psutil.Process]:
    alive = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                alive.append(p)
        except psutil.NoSuchProcess:
            pass
    return alive


def survivors_after(processes: list[psutil.Process], seconds: float) -> list[psutil.Process]:
    deadline = time.monotonic() + seconds
    while living(processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    return living(processes)


def start_parsing(
    tree: Path, out: Path, log: Path
) -> tuple[subprocess.Popen, list[psutil.Process]]:
    """A build in its own session, once both workers are parsing; with its whole family.

    stderr goes to a file: a pipe would be held open by any orphan, hanging the test."""
    proc = subprocess.Popen(
        build_cmd(tree, out),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 30
    while len(parse_workers(proc.pid)) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.005)
    time.sleep(1.0)  # workers imported and parsing: one batch takes seconds
    family = psutil.Process(proc.pid).children(recursive=True)
    assert any("resource_tracker" in " ".join(p.cmdline()) for p in family), "tracker started"
    return proc, family


@pytest.fixture
def reaper():
    """Kills whatever a failing test left running, so a red test does not leak processes."""
    started: list[psutil.Process] = []
    yield started
    for p in living(started):
        p.kill()


def test_sigkill_of_the_build_leaves_no_process_behind(slow_tree, tmp_path, reaper):
    proc, family = start_parsing(slow_tree, tmp_path / "ds", tmp_path / "stderr")
    reaper.extend(family)
    assert len(family) == 3, [p.cmdline() for p in family]  # two workers and the tracker
    os.kill(proc.pid, signal.SIGKILL)  # the build alone, as the OOM killer would
    proc.wait(timeout=30)
    left = survivors_after(family, 10)
    assert left == [], [" ".join(p.cmdline()) for p in left]


@pytest.mark.parametrize("target", ["build", "group"])
def test_sigterm_cleans_up_and_exits_143(slow_tree, tmp_path, reaper, target):
    out = tmp_path / "ds"
    log = tmp_path / "stderr"
    proc, family = start_parsing(slow_tree, out, log)
    reaper.extend(family)
    if target == "build":
        os.kill(proc.pid, signal.SIGTERM)  # `kill PID`, docker stop
    else:
        os.killpg(proc.pid, signal.SIGTERM)  # systemd stopping the whole control group
    assert proc.wait(timeout=60) == 143, log.read_text()
    stderr = log.read_text()
    assert stderr.rstrip().endswith("Terminated: stopped cleanly; no dataset was published.")
    assert "Traceback" not in stderr
    assert temp_dirs(tmp_path) == [], "temporary directories removed"
    assert not out.exists()
    assert survivors_after(family, 10) == []
