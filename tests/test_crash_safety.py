"""A build killed at any point never leaves something that looks like a complete dataset.

- SIGKILL at random moments of real `codelog build` runs (staging, grouping, publishing);
- SIGKILL-equivalent exits (`os._exit`, no cleanup) at every file-system step of publishing,
  where a random delay rarely lands;
- Ctrl-C: exit 130 with a message, no temporary directories left.
After each kill the output directory is either absent, a temporary name, or a complete dataset
that verifies; re-running completes and gives the same bytes as an uninterrupted build.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from codelog.dataset.open import MANIFEST
from codelog.dataset.verify import verify_dataset
from codelog.publish import tables as publish

from .codenet_tree import CodenetTree
from .conftest import build_sample

REPO = Path(__file__).resolve().parents[1]
FILES = ("solutions.parquet", "rejects.parquet", "problems.parquet", "README.md", MANIFEST)


def crash_tree(root: Path, rows: int = 60, lines: int = 1500) -> Path:
    """Big enough sources that parsing takes a moment, so kills land in every phase."""
    tree = CodenetTree(root)
    rng = random.Random(0)
    for i in range(rows):
        status = ("Accepted", "Wrong Answer", "Runtime Error")[i % 3]
        body = "".join(f"v{j} = {rng.randint(0, 9)} + {i}\n" for j in range(lines))
        tree.add(f"s{i:09d}", f"p{i % 4:05d}", status, body.encode())
    return tree.write()


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "codelog.cli", *args]


def build_cmd(tree: Path, out: Path, workers: int = 2) -> list[str]:
    return cli("build", "--root", str(tree), "--out", str(out), "--workers", str(workers))


def start(cmd: list[str]) -> subprocess.Popen:
    # Own process group: a signal reaches the parse workers too, as Ctrl-C in a terminal does.
    # SIGINT at its default, as in a terminal: a test run started in the background by a
    # non-interactive shell inherits it ignored, and the build would never see the Ctrl-C.
    return subprocess.Popen(
        cmd,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)


def contents(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in FILES}


def assert_no_false_dataset(parent: Path, out: Path) -> None:
    """Whatever a killed build left: `out` complete or absent; anything else has a temp name."""
    if out.exists():
        assert (out / MANIFEST).exists(), "an output directory without manifest"
        report = verify_dataset(out)
        assert report.ok, report.mismatches
    for path in parent.iterdir():
        if path != out and (path / MANIFEST).exists():
            assert path.name.startswith(".") and (".tmp-" in path.name or ".old-" in path.name)


SHM = Path("/dev/shm")


def semaphores() -> set[str]:
    """The named semaphores of multiprocessing pools (the build's, and any other's)."""
    return {p.name for p in SHM.glob("sem.mp-*")} if SHM.is_dir() else set()


def sweep_semaphores(before: set[str]) -> None:
    """Unlink the pools' semaphores that appeared since `before` and that no process maps.

    SIGKILL of the whole group takes multiprocessing's resource tracker with the build, and
    the tracker is what unlinks a dead pool's semaphores: without this, a run of this test left
    up to 20 in /dev/shm (5 for each kill that lands while the pool is up).

    In use is told by inode, not by name: glibc makes a semaphore as a temporary file, maps
    it, then links it to its name and unlinks the temporary one, so /proc/PID/maps names it
    `/dev/shm/sem.XXXXXX (deleted)`. Told by name, a semaphore of a pool running beside this
    test (another pytest worker's build) looked unused and was unlinked, and that build's
    spawned workers failed to open it (a BrokenProcessPool in test_faults' full-disk build).
    """
    new: dict[str, int] = {}
    for name in semaphores() - before:
        with contextlib.suppress(FileNotFoundError):
            new[name] = (SHM / name).stat().st_ino
    mapped: set[int] = set()
    for maps in Path("/proc").glob("[0-9]*/maps"):
        with contextlib.suppress(OSError):
            for line in maps.read_text().splitlines():
                fields = line.split(maxsplit=5)
                if len(fields) == 6 and fields[5].startswith(str(SHM) + "/"):
                    mapped.add(int(fields[4]))
    for name, inode in new.items():
        if inode not in mapped:
            with contextlib.suppress(FileNotFoundError):
                (SHM / name).unlink()


def test_the_semaphore_sweep_keeps_one_in_use_and_removes_one_nobody_maps() -> None:
    """The sweep runs beside other tests' pools: one of theirs must survive it."""
    import multiprocessing

    before = semaphores()
    live = multiprocessing.get_context("spawn").Lock()  # a pool's, in use
    dead = SHM / f"sem.mp-codelog-test-{os.getpid()}"  # a killed pool's, mapped by nobody
    dead.write_bytes(bytes(32))
    try:
        sweep_semaphores(before)
        assert not dead.exists()
        assert len(semaphores() - before) == 1 and live.acquire(timeout=1)
    finally:
        dead.unlink(missing_ok=True)


def wait_group_gone(pgid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def temp_dirs(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if ".tmp-" in p.name or ".old-" in p.name)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return crash_tree(tmp_path_factory.mktemp("crash") / "tree")


@pytest.fixture(scope="module")
def reference(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The bytes of an uninterrupted build of `tree` (in-process, one worker: the bytes do not
    depend on how the build was run)."""
    out = tmp_path_factory.mktemp("reference") / "ds"
    build_sample(out, root=tree, workers=1)
    return contents(out)


def test_sigkill_at_random_moments_then_rerun_gives_the_same_bytes(tree, reference, tmp_path):
    out = tmp_path / "ds"
    rng = random.Random(6)
    for trial in range(5):
        if trial % 2 == 0:  # without staged results the kill can land in parsing
            shutil.rmtree(tmp_path / ".ds.staging", ignore_errors=True)
        before = semaphores()
        proc = start(build_cmd(tree, out))
        time.sleep(rng.uniform(0.2, 3.2))
        with contextlib.suppress(ProcessLookupError):  # finished first: also valid
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
        wait_group_gone(proc.pid)  # a process still exiting may map a semaphore yet
        sweep_semaphores(before)
        assert_no_false_dataset(tmp_path, out)

    result = run(build_cmd(tree, out))
    assert result.returncode == 0, result.stderr
    assert contents(out) == reference
    assert [n for n in temp_dirs(tmp_path) if not n.startswith(".ds.staging")] == []


# Runs `codelog build` and dies, as SIGKILL would (`os._exit`: no cleanup at all), at the N-th
# file-system step (rename or fsync) once publishing started. N = 0: never; prints the steps.
_DIE_AT_STEP = """
import os, sys
import codelog.publish.tables as publish
from codelog.cli import main

target, steps, armed = int(sys.argv[1]), [], [False]

def dying(real):
    def step(*args, **kwargs):
        if armed[0]:
            steps.append(real.__name__)
            if len(steps) == target:
                os._exit(137)
        return real(*args, **kwargs)
    return step

os.replace, os.fsync = dying(os.replace), dying(os.fsync)
real_publishing = publish.publishing

def publishing(out):
    armed[0] = True
    return real_publishing(out)

publish.publishing = publishing
sys.argv = ["codelog", *sys.argv[2:]]
try:
    main()
finally:
    print(f"steps={','.join(steps)}", file=sys.stderr)
"""


@pytest.fixture
def published(tmp_path) -> tuple[Path, Path, dict[str, bytes]]:
    """A small tree, its dataset `base/ds` (staged results beside it) and that dataset's bytes."""
    tree = CodenetTree.standard(tmp_path / "tree").write()
    base = tmp_path / "base"
    build_sample(base / "ds", root=tree, workers=1)
    return tree, base, contents(base / "ds")


def test_sigkill_at_every_step_of_publishing(published, tmp_path):
    tree, base, expected = published

    def die_at(step: int) -> tuple[Path, subprocess.Popen]:
        trial = tmp_path / f"step-{step}"
        shutil.copytree(base, trial, symlinks=True)  # each step starts from a published dataset
        cmd = [sys.executable, "-c", _DIE_AT_STEP, str(step)]
        cmd += build_cmd(tree, trial / "ds", workers=1)[3:]
        return trial, subprocess.Popen(
            cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    _, counting = die_at(0)
    steps = counting.communicate(timeout=120)[1].decode().rsplit("steps=", 1)[1].split()[0]
    kinds = steps.split(",")
    assert kinds.count("replace") >= 3, "manifest, old dataset aside, new dataset in place"
    # Every rename, and the first and last fsync: consecutive fsyncs leave the same state.
    fsyncs = [i for i, kind in enumerate(kinds, 1) if kind == "fsync"]
    pending = sorted(
        {i for i, kind in enumerate(kinds, 1) if kind == "replace"} | {fsyncs[0], fsyncs[-1]}
    )
    while pending:  # two at a time: each is mostly interpreter start-up
        running = [die_at(step) for step in pending[:2]]
        del pending[:2]
        for trial, proc in running:
            _, stderr = proc.communicate(timeout=120)
            assert proc.returncode == 137, stderr.decode()
            assert_no_false_dataset(trial, trial / "ds")
            build_sample(trial / "ds", root=tree, workers=1)  # the re-run cleans up and completes
            assert contents(trial / "ds") == expected
            assert temp_dirs(trial) == []


def test_ctrl_c_at_every_step_of_publishing(published, monkeypatch):
    # Ctrl-C raises KeyboardInterrupt in the main thread between two bytecodes; raising it from
    # the file-system call itself puts it at each step in turn, deterministically.
    tree, base, expected = published
    out = base / "ds"
    steps: list[str] = []
    armed, target = [False], [0]

    def interrupting(real):
        def step(*args, **kwargs):
            if armed[0]:
                steps.append(real.__name__)
                if len(steps) == target[0]:
                    raise KeyboardInterrupt
            return real(*args, **kwargs)

        return step

    real_publishing = publish.publishing

    @contextlib.contextmanager
    def publishing(path):
        armed[0] = True
        try:
            with real_publishing(path) as tmp:
                yield tmp
        finally:
            armed[0] = False

    monkeypatch.setattr(os, "replace", interrupting(os.replace))
    monkeypatch.setattr(os, "fsync", interrupting(os.fsync))
    monkeypatch.setattr(publish, "publishing", publishing)
    build_sample(out, root=tree, workers=1)
    kinds = list(steps)
    assert kinds.count("replace") >= 3
    fsyncs = [i for i, kind in enumerate(kinds, 1) if kind == "fsync"]
    for step in sorted(
        {i for i, k in enumerate(kinds, 1) if k == "replace"} | {fsyncs[0], fsyncs[-1]}
    ):
        target[0] = step
        steps.clear()
        with pytest.raises(KeyboardInterrupt):
            build_sample(out, root=tree, workers=1)
        assert temp_dirs(base) == [], f"Ctrl-C at step {step} left temporary directories"
        assert out.exists(), "the previous dataset (or the new one) stays in place"
        assert_no_false_dataset(base, out)
        assert contents(out) == expected


@pytest.fixture(scope="module")
def slow_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sources big enough (~250 KB) that parsing outlasts worker start-up by seconds."""
    return crash_tree(tmp_path_factory.mktemp("slow") / "tree", rows=40, lines=20_000)


def parse_workers(pid: int) -> list[psutil.Process]:
    """The build's pool workers: its children but multiprocessing's resource tracker."""
    children = psutil.Process(pid).children()
    return [c for c in children if "resource_tracker" not in " ".join(c.cmdline())]


def test_ctrl_c_while_parsing_stops_cleanly_with_exit_130(slow_tree, tmp_path):
    out = tmp_path / "ds"
    proc = start(build_cmd(slow_tree, out))
    deadline = time.monotonic() + 30
    while len(parse_workers(proc.pid)) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, "parsing never started"
        time.sleep(0.005)
    time.sleep(1.0)  # workers imported and parsing: the one batch takes seconds
    assert not list(tmp_path.glob(".ds.staging.tmp-*/parts/part-*.parquet")), "parsed already"
    os.killpg(proc.pid, signal.SIGINT)  # the whole group, as Ctrl-C in a terminal
    _, stderr = proc.communicate(timeout=60)
    stderr = stderr.decode(errors="replace")
    assert proc.returncode == 130, stderr
    assert stderr.rstrip().endswith("Interrupted: stopped cleanly; no dataset was published.")
    assert temp_dirs(tmp_path) == []
    assert not out.exists()


# A build run by this script gets `signal` (to its whole group, as a terminal sends Ctrl-C) from
# inside the pool's start, right after its first worker spawns: where the signals used to be
# ignored, so one landing there was lost and the build published and exited 0.
SIGNALLED_WHILE_SPAWNING = """
import os, sys
from concurrent.futures import ProcessPoolExecutor
from codelog.stage import staging

SIGNAL = int(sys.argv[1])

class SignalledWhileSpawning(ProcessPoolExecutor):
    sent = False

    def _spawn_process(self):
        super()._spawn_process()
        if not SignalledWhileSpawning.sent:
            SignalledWhileSpawning.sent = True
            os.killpg(0, SIGNAL)

staging.ProcessPoolExecutor = SignalledWhileSpawning
sys.argv = ["codelog", *sys.argv[2:]]
from codelog.cli import main
main()
"""


@pytest.mark.parametrize(
    ("sig", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["SIGTERM", "SIGINT"]
)
def test_a_signal_while_the_pool_starts_stops_the_build(tmp_path, sig, status):
    tree = crash_tree(tmp_path / "tree", rows=8, lines=20)
    out = tmp_path / "ds"
    argv = build_cmd(tree, out)[3:]  # the command's arguments, after `python -m codelog.cli`
    proc = start([sys.executable, "-c", SIGNALLED_WHILE_SPAWNING, str(int(sig)), *argv])
    _, stderr = proc.communicate(timeout=120)
    stderr = stderr.decode(errors="replace")
    assert proc.returncode == status, stderr
    assert stderr.rstrip().endswith("stopped cleanly; no dataset was published."), stderr
    assert not out.exists() and temp_dirs(tmp_path) == []
    wait_group_gone(proc.pid)
    with pytest.raises(ProcessLookupError):  # no worker left running
        os.killpg(proc.pid, 0)
