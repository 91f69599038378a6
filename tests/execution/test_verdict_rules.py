"""Issue 32's verdict probes: no verdict is bought with text a program prints, output is
compared as the origin judge does, and a malformed problem is refused when loaded.

Programs run warm and cold (codelog.execution.zygote), each with a short limit."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codelog.errors import InputError
from codelog.execution import sandbox, zygote
from codelog.execution.compare import RULES, Tolerance, compare, number, tokens
from codelog.execution.judge import JudgeOptions, Program, Verdict, judge_program
from codelog.execution.testcases import (
    BUNDLED_CODENET,
    Problem,
    TestCase,
    check_problem,
    codenet_problems,
    jsonl_problems,
)

ECHO = Problem("echo", (TestCase("t", "7\n", "7\n"),), time_limit_ms=1000, memory_limit_kb=65_536)
INC = Problem(
    "inc",
    (TestCase("check"),),
    time_limit_ms=1000,
    memory_limit_kb=65_536,
    code_prompt="def inc(x):\n",
    test_code="def check(candidate):\n    assert candidate(1) == 2\n",
    entry_point="inc",
)
WARM_AND_COLD = pytest.mark.parametrize("warm", [True, False], ids=["warm", "cold"])


@pytest.fixture(autouse=True, scope="module")
def _close_zygotes():
    yield
    zygote.close_all()


def judged(code: str, warm: bool, problem: Problem = ECHO, language: str = "Python") -> Verdict:
    verdict = judge_program(
        Program("s", problem.problem_id, code, language), problem, JudgeOptions(warm=warm)
    )
    if warm and language == "Python" and _bwrap():
        assert verdict.isolation.endswith("warm"), verdict.isolation
    return verdict


def _bwrap() -> bool:
    runner = sandbox.python_runner()
    return sandbox.resolve_isolation("auto", runner.readable).isolation.mode == "bwrap"


# ------------------------------------------------------------ no verdict bought with text

PRINTED_COMPILE_ERROR = (
    'import sys\nsys.stderr.write(\'  File "Main.py", line 1\\n    x =\\n       ^\\n'
    "SyntaxError: invalid syntax\\n')\nsys.exit(1)\n"
)


@WARM_AND_COLD
@pytest.mark.parametrize(
    "code",
    [
        "import sys\nsys.stderr.write('MemoryError\\n')\nsys.exit(1)\n",
        "raise ValueError('index out of memory-mapped range')\n",
        "raise MemoryError\n",
        "import sys\nsys.stderr.write('std::bad_alloc\\njava.lang.OutOfMemoryError\\n')\nsys.exit(1)\n",
        "import sys\nsys.stderr.write('ValueError: bad input\\n')\nsys.exit(1)\n",
        "import sys\nprint('ValueError: bad input')\nsys.exit(1)\n",
        PRINTED_COMPILE_ERROR,
        "raise SyntaxError('made at run time')\n",
        "import sys\nsys.exit(3)\n",  # the compile step's own status, from the program
    ],
    ids=[
        "MemoryError-printed",
        "out-of-memory-in-a-message",
        "MemoryError-raised",
        "other-runtimes-oom-printed",
        "ValueError-printed-to-stderr",
        "ValueError-printed-to-stdout",
        "a-compile-error-printed",
        "SyntaxError-raised",
        "exit-3",
    ],
)
def test_printed_text_is_a_runtime_error(code: str, warm: bool) -> None:
    verdict = judged(code, warm)
    assert (verdict.status, verdict.tests_run) == ("Runtime Error", 1), verdict.detail


@WARM_AND_COLD
def test_the_real_cases_keep_their_verdicts(warm: bool) -> None:
    broken = judged("x = input(\nprint(x)\n", warm)
    assert (broken.status, broken.tests_run) == ("Compile Error", 0)
    assert "SyntaxError" in broken.detail and "Main.py" in broken.detail
    assert judged("print 7\n", warm).status == "Compile Error"  # Python 2 under Python 3
    assert judged("x = 1\0\nprint(x)\n", warm).status == "Compile Error"  # a null byte
    # 100 MB touched under a 64 MB limit: the measured peak is over it
    over = judged("x = bytearray(100 << 20)\nprint(input())\n", warm)
    assert over.status == "Memory Limit Exceeded" and over.memory_kb > 65_536, over
    assert judged("print(input())\n", warm).status == "Accepted"


@WARM_AND_COLD
@pytest.mark.parametrize(
    ("completion", "status"),
    [
        ("    return x + 1\n", "Accepted"),
        ("    return x\n", "Wrong Answer"),
        ("    return x +\n", "Compile Error"),
        ("    raise MemoryError\n", "Runtime Error"),
        ("    raise AssertionError('a check failed')\n", "Runtime Error"),
        ("    raise ValueError('out of memory')\n", "Runtime Error"),
        # the candidate's own text at load time, before any check ran
        (
            "    return x + 1\nimport sys\nsys.stderr.write('AssertionError\\n')\nsys.exit(1)\n",
            "Runtime Error",
        ),
        ("    return x + 1\nassert inc(1) == 3\n", "Runtime Error"),
        ("    return x + 1\n" + PRINTED_COMPILE_ERROR, "Runtime Error"),
    ],
)
def test_a_function_problems_verdict_is_the_checkers_or_a_fact(
    completion: str, status: str, warm: bool
) -> None:
    verdict = judged(completion, warm, INC)
    assert verdict.status == status, verdict.detail


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")
def test_a_c_program_that_prints_bad_alloc_is_a_runtime_error() -> None:
    code = (
        "#include <stdio.h>\n#include <stdlib.h>\n"
        'int main(){fputs("terminate called after throwing an instance of '
        "'std::bad_alloc'\\n  what():  std::bad_alloc\\n\", stderr); abort();}\n"
    )
    assert judged(code, False, language="C").status == "Runtime Error"
    assert judged("int main({", False, language="C").status == "Compile Error"


# ----------------------------------------------------------------------------- comparison


@pytest.mark.parametrize("origin", ["AtCoder", "AIZU", "codelog"])
@pytest.mark.parametrize("separator", ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u3000"])
def test_tokens_split_on_ascii_whitespace_only(origin: str, separator: str) -> None:
    rules = RULES[origin]
    assert compare(f"1{separator}2\n", "1 2\n", None, rules) == "Wrong Answer"
    assert compare(f"1{separator}2\n", "1 2\n", Tolerance(1e-6, 1e-6), rules) == "Wrong Answer"
    assert tokens(f" 1\t2\r\n3\v4\f5{separator}6 ") == ["1", "2", "3", "4", f"5{separator}6"]


@pytest.mark.parametrize("origin", ["AtCoder", "AIZU", "codelog"])
@pytest.mark.parametrize(
    "got",
    ["3_0.0", "３０", "３０.０", "30.0\u200b", "0x1ep0", "nan", "inf", "+inf", "Infinity", "1e999"],
)
def test_a_tolerance_reads_plain_decimal_numbers_only(origin: str, got: str) -> None:
    tol = Tolerance(absolute=1e-6)
    assert compare(f"{got}\n", "30.0\n", tol, RULES[origin]) == "Wrong Answer"
    assert number(got) is None


def test_the_decimal_forms_a_judge_reads_stay_numbers() -> None:
    tol = Tolerance(absolute=1e-6)
    for got in ("30", "30.", "30.0000001", "+30.0", "3e1", "3.0E+1", "300e-1"):
        assert compare(f"{got}\n", "30.0\n", tol, RULES["AtCoder"]) == "Accepted", got
    assert number(".5") == 0.5 and number("-0") == 0.0
    # a token equal to the expected one is equal, number or not
    assert compare("inf\n", "inf\n", tol, RULES["AtCoder"]) == "Accepted"


# ---------------------------------------------------------------------- malformed problems

HUMANEVAL = {
    "task_id": "HumanEval/x",
    "prompt": "def inc(x):\n",
    "test": "def check(candidate):\n    assert candidate(1) == 2\n",
    "entry_point": "inc",
}
MBPP = {"task_id": 2, "text": "Write inc.", "test_list": ["assert inc(1) == 2"]}
STDIO = {"problem_id": "add", "tests": [{"input": "1 2\n", "output": "3\n"}]}


def _load(tmp_path: Path, *records: dict) -> dict[str, Problem]:
    path = tmp_path / "problems.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return jsonl_problems(path)


@pytest.mark.parametrize(
    ("record", "where", "says"),
    [
        ({**MBPP, "test_list": []}, "column 'test_list'", "no asserts"),
        ({**MBPP, "test_list": ["  ", ""]}, "column 'test_list'", "no asserts"),
        ({k: v for k, v in HUMANEVAL.items() if k != "entry_point"}, "'entry_point'", "needs"),
        ({**HUMANEVAL, "entry_point": None}, "column 'entry_point'", "needs entry_point"),
        ({**HUMANEVAL, "entry_point": "not a name"}, "column 'entry_point'", "needs"),
        ({**HUMANEVAL, "test": None}, "column 'test'", "not None"),
        ({**HUMANEVAL, "test": ""}, "column 'test'", "test code"),
        ({**HUMANEVAL, "prompt": None}, "column 'prompt'", "must be a string"),
        # checks that do not compile would fail every sample, honest ones too
        ({**HUMANEVAL, "test": "def check(c):\n    assert c(1) ==\n"}, "'test'", "not compile"),
        ({**MBPP, "test_list": ["assert f(1) == (2"]}, "column 'test_list'", "not compile"),
        ({**MBPP, "test_setup_code": "x = ("}, "column 'test_setup_code'", "not compile"),
        ({**HUMANEVAL, "time_limit_ms": -5}, "'time_limit_ms'", "positive integer, not -5"),
        ({**HUMANEVAL, "time_limit_ms": "abc"}, "'time_limit_ms'", "not 'abc'"),
        ({**HUMANEVAL, "memory_limit_kb": 0}, "'memory_limit_kb'", "not 0"),
        ({**MBPP, "time_limit_ms": -5}, "'time_limit_ms'", "not -5"),
        ({**MBPP, "time_limit_ms": "abc"}, "'time_limit_ms'", "not 'abc'"),
        ({**STDIO, "time_limit_ms": -5}, "'time_limit_ms'", "not -5"),
        ({**STDIO, "time_limit_ms": "abc"}, "'time_limit_ms'", "not 'abc'"),
        ({**STDIO, "time_limit_ms": 1.5}, "'time_limit_ms'", "not 1.5"),
        ({**STDIO, "time_limit_ms": True}, "'time_limit_ms'", "not True"),
        ({**STDIO, "tests": []}, "column 'tests'", "needs tests"),
        ({**STDIO, "tests": [{"input": "1 2\n", "output": None}]}, "'tests'", "'output'"),
    ],
)
def test_a_malformed_problem_is_an_error_at_its_line(
    tmp_path: Path, record: dict, where: str, says: str
) -> None:
    with pytest.raises(InputError) as caught:
        _load(tmp_path, STDIO | {"problem_id": "fine"}, record)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'problems.jsonl'} line 2: ")
    assert where in message and says in message, message


def test_the_well_formed_problems_load(tmp_path: Path) -> None:
    problems = _load(tmp_path, HUMANEVAL, MBPP, STDIO)
    assert {p.problem_id: p.kind for p in problems.values()} == {
        "HumanEval/x": "function",
        "2": "function",
        "add": "stdio",
    }


def test_check_problem_holds_every_source(tmp_path: Path) -> None:
    fine = Problem("p", (TestCase("t", "", "ok\n"),))
    assert check_problem(fine, "x.jsonl", 3) is fine
    for bad, says in [
        (Problem("p", ()), "has no tests"),
        (Problem("p", (TestCase("t", "", None),)), "with no expected output"),
        (Problem("p", (TestCase("t", "", "ok\n"),), time_limit_ms=-5), "not -5"),
        (Problem("p", (TestCase("c"),), test_code=" \n"), "no test code"),
        (Problem("p", (TestCase("c"),), code_prompt="def f(x):\n", test_code="x"), "entry_point"),
    ]:
        with pytest.raises(InputError, match=f"^x.jsonl line 3: .*{says}"):
            check_problem(bad, "x.jsonl", 3)


def test_a_codenet_limit_that_is_not_a_positive_integer_is_an_error_at_its_row(
    tmp_path: Path,
) -> None:
    root = tmp_path / "tree"
    shutil.copytree(BUNDLED_CODENET / "problem_descriptions", root / "problem_descriptions")
    (root / "metadata").mkdir()
    listing = root / "metadata" / "problem_list.csv"
    listing.write_text(
        "id,name,dataset,time_limit,memory_limit\n"
        "p02400,Circle,AIZU,1000,131072\n"
        "p03001,Rectangle Cutting,AtCoder,abc,1048576\n"
    )
    with pytest.raises(InputError, match=r"problem_list.csv line 3: column 'time_limit'.*'abc'"):
        codenet_problems(root, ["p02400", "p03001"])
    listing.write_text(listing.read_text().replace(",abc,", ",,"))  # empty: the default
    assert codenet_problems(root, ["p03001"])["p03001"].time_limit_ms == 2000


def test_codelog_judge_says_one_error_line_for_a_bad_time_limit(tmp_path: Path) -> None:
    problems = tmp_path / "problems.jsonl"
    problems.write_text(json.dumps({**HUMANEVAL, "time_limit_ms": "abc"}) + "\n")
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"problem_id": "HumanEval/x", "completion": "    return 2\n"}))
    out = tmp_path / "judged.jsonl"
    args = ["judge", str(samples), "--tests", str(problems), "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", "from codelog.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"error: {problems} line 1: column 'time_limit_ms': "
        "time_limit_ms must be a positive integer, not 'abc'"
    )
