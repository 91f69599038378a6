"""CodeContests and LiveCodeBench read in their Hub schemas and judged as their harnesses
judge; LiveCodeBench's compressed private tests are decoded without running code."""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from pathlib import Path

import pytest

import codelog.benchmarks as benchmarks
from codelog.benchmarks import plain_pickle
from codelog.benchmarks.codecontests import rating_band
from codelog.errors import CodelogError, InputError
from codelog.execution.judge import JudgeOptions, Program, judge_program
from tests.benchmarks import one_row_file
from tests.execution.written_programs import SPINS_FOR_MS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "benchmarks"
CC = FIXTURES / "codecontests" / "code_contests-hub-rows.jsonl"
LCB = FIXTURES / "livecodebench" / "test-3.jsonl"


def verdict(code: str, problem) -> str:
    return judge_program(Program("s", problem.problem_id, code), problem, JudgeOptions()).status


def cc_rows() -> list[dict]:
    return [json.loads(line) for line in CC.read_text().splitlines()]


def test_codecontests_judges_private_and_generated_tests_by_default() -> None:
    suite = benchmarks.load(f"codecontests:{CC}", "test")
    assert list(suite.tasks) == ["12_B. Correct Solution?", "1238_B. Kill 'Em All", "digjump"]
    b12 = suite.tasks["12_B. Correct Solution?"]
    assert [t.name for t in b12.problem.tests][:1] == ["private 1"]
    assert len(b12.problem.tests) == 18  # 8 private + 10 generated, no public
    assert b12.difficulty == "rating <1200" and suite.tasks["digjump"].difficulty == "medium"
    assert b12.problem.time_limit_ms == 2000 and b12.problem.memory_limit_kb == 250_000
    for row in cc_rows()[:2]:
        problem = suite.tasks[row["name"]].problem
        assert verdict(row["solutions"]["solution"][0], problem) == "Accepted"
        assert verdict(row["incorrect_solutions"]["solution"][0], problem) == "Wrong Answer"
    with_public = benchmarks.load(
        f"codecontests:{CC}", "test", options={"test_sets": ["public"]}
    ).tasks["digjump"]
    assert [t.name for t in with_public.problem.tests] == ["public 1", "public 2"]
    with pytest.raises(CodelogError, match="--test-sets: hidden"):
        benchmarks.load(f"codecontests:{CC}", options={"test_sets": ["hidden"]})


def test_codecontests_references_keep_python_solutions_and_the_url() -> None:
    refs = {r.task_id: r for r in benchmarks.references(f"codecontests:{CC}")}
    assert refs["12_B. Correct Solution?"].url == "https://codeforces.com/problemset/problem/12/B"
    assert refs["12_B. Correct Solution?"].solutions[0].startswith("n = input()")
    assert refs["digjump"].url is None and refs["digjump"].solutions == ()


def test_rating_bands() -> None:
    assert [rating_band(r) for r in (800, 1200, 1999, 2400, 3500)] == [
        "rating <1200",
        "rating 1200-1599",
        "rating 1600-1999",
        "rating 2400+",
        "rating 2400+",
    ]


LCB_SOLUTIONS = {
    "1873_A": (
        "t = int(input())\nfor _ in range(t):\n    s = input().strip()\n"
        '    print("YES" if sum(a != b for a, b in zip(s, "abc")) in (0, 2) else "NO")\n'
    ),
    "2727": (
        "class Solution:\n    def countSeniors(self, details: List[str]) -> int:\n"
        "        return sum(int(d[11:13]) > 60 for d in details)\n"
    ),
    "abc301_a": (
        "n = int(input())\ns = input().strip()\nt, a = s.count('T'), s.count('A')\n"
        "if t != a:\n    print('T' if t > a else 'A')\nelse:\n    print('A' if s[-1] == 'T' else 'T')\n"
    ),
}


def test_livecodebench_judges_functional_and_stdin_problems_on_every_test() -> None:
    suite = benchmarks.load(f"livecodebench:{LCB}")
    assert set(suite.tasks) == set(LCB_SOLUTIONS)
    call = suite.tasks["2727"]
    assert call.problem.entry_point == "Solution.countSeniors" and call.difficulty == "easy"
    assert "class Solution" in call.prompt
    assert len(suite.tasks["abc301_a"].problem.tests) == 15  # 1 public + 14 private
    for qid, code in LCB_SOLUTIONS.items():
        assert verdict(code, suite.tasks[qid].problem) == "Accepted", qid
    off_by_one = LCB_SOLUTIONS["2727"].replace("> 60", ">= 60")
    assert verdict(off_by_one, call.problem) == "Wrong Answer"


def test_after_and_before_pick_a_window_of_contest_dates() -> None:
    spec = f"livecodebench:{LCB}"
    assert set(benchmarks.load(spec, after="2023-06-01").tasks) == {"1873_A"}
    assert set(benchmarks.load(spec, before="2023-06-01").tasks) == {"2727", "abc301_a"}
    assert set(benchmarks.load(spec, after="2023-05-13", before="2023-05-14").tasks) == {
        "2727",
        "abc301_a",
    }
    with pytest.raises(CodelogError, match="within the dates given"):
        benchmarks.load(spec, after="2024-01-01")


class _Sneaky:
    def __reduce__(self):
        import os

        return (os.system, ("touch pwned",))


@pytest.mark.parametrize(
    "payload",
    [
        _Sneaky(),
        [{"input": "1", "output": "2", "testtype": "stdin"}, _Sneaky()],
        ("a tuple",),
        {b"bytes": 1},
    ],
    ids=["os.system", "nested", "tuple", "bytes"],
)
def test_a_pickle_carrying_anything_but_plain_data_is_refused(
    payload, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    row = json.loads(LCB.read_text().splitlines()[0])
    row["private_test_cases"] = base64.b64encode(zlib.compress(pickle.dumps(payload))).decode()
    path = tmp_path / "lcb.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(InputError, match=r"lcb.jsonl line 1: column 'private_test_cases'") as e:
        benchmarks.load(f"livecodebench:{path}")
    assert "refused" in str(e.value) and "plain data" in str(e.value)
    assert not (tmp_path / "pwned").exists()


def test_plain_pickles_decode_to_their_data() -> None:
    value = {"input_output": json.dumps({"inputs": ["1\n"], "outputs": ["2\n"]}), "n": [1, 2.5]}
    text = base64.b64encode(zlib.compress(pickle.dumps(value))).decode()
    assert plain_pickle.decode_compressed(text) == value
    with pytest.raises(plain_pickle.NotPlainData, match="not base64 of zlib"):
        plain_pickle.decode_compressed("not a pickle")


@pytest.mark.parametrize(
    ("name", "key"), [("codecontests", "name"), ("livecodebench", "question_id")]
)
def test_a_file_of_another_schema_is_refused_naming_the_key(tmp_path, name, key):
    # SandboxFusion's converted rows ({"id", "content", "test"}) are not the Hub's schema: their
    # references would be nameless, empty statements
    path = tmp_path / "sandboxfusion.jsonl"
    path.write_text(json.dumps({"id": 7, "content": "Read n; print n.", "test": []}) + "\n")
    with pytest.raises(InputError, match=rf"line 1: column '{key}'"):
        list(benchmarks.references(f"{name}:{path}"))


def _lcb_functional(tmp_path: Path, cases: list[tuple[str, str]]) -> Path:
    row = {
        "question_id": "spin",
        "question_content": "Spin.",
        "public_test_cases": json.dumps(
            [{"input": i, "output": o, "testtype": "functional"} for i, o in cases]
        ),
        "private_test_cases": "",
        "metadata": json.dumps({"func_name": "f"}),
    }
    return one_row_file(tmp_path / "test.jsonl", row)


@pytest.mark.parametrize("start", ["warm", "cold"])
def test_a_functional_problems_calls_each_have_a_tests_time_limit(
    start: str, tmp_path: Path
) -> None:
    # 6 calls of 60 ms of CPU: each well within a test's 200 ms (LiveCodeBench's 6 s scaled
    # by 1/30), the 6 together not within one test's
    options = JudgeOptions(warm=start == "warm", time_scale=1 / 30)
    path = _lcb_functional(tmp_path, [("60", "60")] * 6)
    problem = benchmarks.load(f"livecodebench:{path}").tasks["spin"].problem
    verdict = judge_program(Program("s", "spin", SPINS_FOR_MS), problem, options)
    assert verdict.status == "Accepted", verdict.detail
    assert verdict.cpu_ms > 300
    # one call past its test's 200 ms is a time limit, however much of the run is left
    path = _lcb_functional(tmp_path, [("60", "60"), ("300", "300")])
    problem = benchmarks.load(f"livecodebench:{path}").tasks["spin"].problem
    verdict = judge_program(Program("s", "spin", SPINS_FOR_MS), problem, options)
    assert verdict.status == "Time Limit Exceeded" and "call 2:" in verdict.detail


def test_a_functional_test_that_is_not_json_is_refused_at_load(tmp_path: Path) -> None:
    # the checks read each input line and the output as JSON: a test that is not would fail
    # every sample, honest ones too
    path = _lcb_functional(tmp_path, [("1\n2", "3"), ("1\nnot json", "3")])
    with pytest.raises(InputError) as caught:
        benchmarks.load(f"livecodebench:{path}")
    assert (caught.value.path, caught.value.line) == (str(path), 1)
    assert caught.value.column == "public_test_cases" and "test 2" in str(caught.value)
