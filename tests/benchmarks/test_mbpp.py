"""MBPP judged as its own asserts judge it: every canonical solution passes (the five whose
values the checks could not take before among them), broken programs and forgeries fail."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import codelog.benchmarks as benchmarks
from codelog.benchmarks.mbpp import MBPP_TIME_LIMIT_MS
from codelog.errors import InputError
from codelog.execution.harness import asserted_builtins
from codelog.execution.harness_scripts import ENCODING
from codelog.execution.judge import JudgeOptions, Program, judge_program
from codelog.execution.testcases import Problem

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "benchmarks"
SPEC = f"mbpp:{FIXTURES / 'mbpp' / 'mbpp-sample.jsonl'}"


def mbpp_row(task_id: int, text: str, asserts: list[str], setup: str = "") -> Problem:
    from codelog.benchmarks.mbpp import task

    row = {"task_id": task_id, "text": text, "test_list": asserts, "test_setup_code": setup}
    return task(row, "test", 1).problem


def judged(code: str, problem: Problem, **options) -> str:
    program = Program("s", problem.problem_id, code)
    return judge_program(program, problem, JudgeOptions(**options)).status


@pytest.mark.parametrize("start", ["warm", "cold"])
def test_every_canonical_solution_passes_its_asserts(start: str) -> None:
    suite = benchmarks.load(SPEC, "all")
    solutions = {r.task_id: r.solutions[0] for r in benchmarks.references(SPEC, "all")}
    verdicts = {
        tid: judged(solutions[tid], task.problem, warm=start == "warm")
        for tid, task in suite.tasks.items()
    }
    # 533 passes a type, 601 builds the program's class in its asserts, 653 returns a
    # defaultdict, 902 a Counter, 927 asserts on trees its setup builds from the program's Node
    assert {"533", "601", "653", "902", "927"} <= set(verdicts)
    assert verdicts == dict.fromkeys(verdicts, "Accepted")


SIMILAR = "def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n"
BROKEN = {
    "a wrong function name": "def similar(a, b):\n    return tuple(set(a) & set(b))\n",
    "an exception": "def similar_elements(a, b):\n    raise ValueError('no')\n",
    "sys.exit(0) before the asserts": "import sys\n" + SIMILAR + "sys.exit(0)\n",
    "os._exit(0) before the asserts": "import os\n" + SIMILAR + "os._exit(0)\n",
    "an endless loop": SIMILAR + "while True:\n    pass\n",
    "an endless loop in the function": "def similar_elements(a, b):\n    while True:\n        pass\n",
}


@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_completion_fails(name: str) -> None:
    problem = benchmarks.load(SPEC, "all").tasks["2"].problem
    assert judged(SIMILAR, problem) == "Accepted"
    # a tenth of MBPP's limit: the endless loops end in a second
    assert judged(BROKEN[name], problem, time_scale=0.1) != "Accepted"


def test_an_always_equal_object_fails() -> None:
    problem = benchmarks.load(SPEC, "all").tasks["2"].problem
    for forged in (
        "class Any:\n    def __eq__(self, other):\n        return True\n"
        "def similar_elements(a, b):\n    return Any()\n",
        "class T(tuple):\n    def __eq__(self, other):\n        return True\n"
        "def similar_elements(a, b):\n    return T()\n",
        "import collections\nclass C(collections.Counter):\n    def __eq__(self, o):\n"
        "        return True\ndef similar_elements(a, b):\n    return C()\n",
    ):
        assert judged(forged, problem) == "Wrong Answer"


def test_an_object_of_the_programs_own_class_is_neither_true_nor_equal() -> None:
    problem = mbpp_row(9004, "Primes.", ["assert is_prime(7)", "assert not is_prime(8)"])
    assert judged("def is_prime(n):\n    return all(n % d for d in range(2, n))\n", problem) == (
        "Accepted"
    )
    truthy = "class T:\n    def __bool__(self):\n        return True\n"
    assert judged(truthy + "def is_prime(n):\n    return T()\n", problem) != "Accepted"
    flips = (
        "class F:\n    n = 0\n    def __bool__(self):\n        F.n += 1\n"
        "        return F.n == 1\ndef is_prime(n):\n    return F()\n"
    )
    assert judged(flips, problem) != "Accepted"


def test_a_solution_that_redefines_the_builtin_its_asserts_test_passes() -> None:
    problem = mbpp_row(
        9001, "Add two numbers.", ["assert sum(2, 3) == 5", "assert sum(len([1]), 1) == 2"]
    )
    assert asserted_builtins(problem.test_code or "") == ("sum",)
    assert judged("def sum(a, b):\n    return a + b\n", problem) == "Accepted"
    assert judged("def sum(a, b):\n    return a - b\n", problem) == "Wrong Answer"


def test_a_program_cannot_redefine_a_builtin_the_asserts_only_use() -> None:
    problem = mbpp_row(9002, "Pairs.", ["assert set(pairs(3)) == set([(0, 1), (1, 2)])"])
    assert asserted_builtins(problem.test_code or "") == ()
    cheat = "def set(x=()):\n    return 1\ndef pairs(n):\n    return 0\n"
    assert judged(cheat, problem) != "Accepted"  # the checks' own set() meets pairs' 0
    honest = "def pairs(n):\n    return [(i, i + 1) for i in range(n - 1)]\n"
    assert judged(honest, problem) == "Accepted"


def test_a_problems_asserts_are_read_once_for_all_its_samples(monkeypatch) -> None:
    # which of the program's names the checks may use comes from parsing the assert list:
    # ~0.3 ms a sample when it was parsed for each (harness._checks)
    from codelog.execution import harness

    parsed = []
    monkeypatch.setattr(
        harness, "asserted_builtins", lambda test: parsed.append(test) or asserted_builtins(test)
    )
    harness._checks.cache_clear()
    problem = mbpp_row(9004, "Double.", ["assert double(2) == 4", "assert double(0) == 0"])
    verdicts = [
        judged("def double(x):\n    return 2 * x\n", problem),
        judged("def double(x):\n    return x + 2\n", problem),
        judged("def double(x):\n    return x * 2\n", problem),
    ]
    assert verdicts == ["Accepted", "Wrong Answer", "Accepted"]
    assert parsed == [problem.test_code]
    # another problem's asserts are its own
    other = mbpp_row(9005, "Triple.", ["assert double(2) == 6"])
    assert judged("def double(x):\n    return 3 * x\n", other) == "Accepted"
    assert parsed == [problem.test_code, other.test_code]
    # and only the last problem's are kept: a problem's tests can be megabytes
    assert harness._checks.cache_info().currsize == 1


def test_mbpp_gives_a_correct_slow_solution_the_time_it_needs() -> None:
    problem = mbpp_row(9003, "Slow.", ["assert slow() == 0"])
    assert problem.time_limit_ms == MBPP_TIME_LIMIT_MS >= 3000
    # 2.5 s of CPU, more than codelog's 2 s default and than one train-split solution needs
    code = (
        "import time\ndef slow():\n    end = time.process_time() + 2.5\n"
        "    while time.process_time() < end:\n        pass\n    return 0\n"
    )
    assert judged(code, problem) == "Accepted"
    assert judged(code, replace(problem, time_limit_ms=2000)) == "Time Limit Exceeded"


def test_collections_and_builtin_types_cross_as_data() -> None:
    import collections

    scope: dict = {}
    exec(ENCODING, scope)
    enc, dec = scope["_enc"], scope["_dec"]
    values = [
        collections.Counter("abca"),
        collections.OrderedDict([(2, "b"), (1, "a")]),
        collections.defaultdict(list, {"x": [1]}),
        collections.deque([1, (2, 3)]),
        int,
        [str, float],
    ]
    for value in values:
        back = dec(json.loads(json.dumps(enc(value))))
        assert back == value and type(back) is type(value)
    assert dec(enc(collections.defaultdict(list))).default_factory is list
    for hostile in ({"type": "eval"}, {"defaultdict": ["print", []]}, {"ref": 0}):
        with pytest.raises(ValueError):
            dec(hostile)  # no code, no builtin function, no handle without a candidate


@pytest.mark.parametrize(
    ("asserts", "setup", "column"),
    [(["assert f(1) == (2"], "", "test_list"), (["assert f(1) == 2"], "x = (", "test_setup_code")],
)
def test_asserts_or_setup_that_do_not_compile_are_refused_at_load(
    asserts: list[str], setup: str, column: str
) -> None:
    # their SyntaxError would be every sample's Runtime Error, honest ones too
    with pytest.raises(InputError) as caught:
        mbpp_row(11, "f", asserts, setup)
    assert (caught.value.path, caught.value.line, caught.value.column) == ("test", 1, column)
    assert "does not compile" in str(caught.value)
