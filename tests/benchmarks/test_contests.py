"""CodeContests and LiveCodeBench read in their Hub schemas and judged as their harnesses
judge; LiveCodeBench's compressed private tests are decoded without running code."""

from __future__ import annotations

import base64
import contextlib
import json
import pickle
import re
import signal
import zlib
from pathlib import Path

import pytest

import codelog.benchmarks as benchmarks
from codelog.benchmarks import decoding, plain_pickle
from codelog.benchmarks.codecontests import rating_band
from codelog.errors import CodelogError, InputError
from codelog.execution.judge import JudgeOptions, Program, judge_program
from tests.benchmarks import one_row_file
from tests.dataset.test_sql import run_main
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


# --- hostile rows (issue 44): every bound refused with its number, in time, in one line ------


def lcb_row(**fields) -> dict:
    return {**json.loads(LCB.read_text().splitlines()[0]), **fields}


def compressed(value) -> str:
    return base64.b64encode(zlib.compress(pickle.dumps(value))).decode()


def write_rows(path: Path, *rows: dict) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@contextlib.contextmanager
def within(seconds: float):
    """Fails the test after `seconds` (a hang before the fix) rather than waiting forever."""

    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_pickle_of_lists_each_holding_the_last_twice_is_refused_at_once(tmp_path) -> None:
    # 40 lists, each holding the previous one twice: 2 KB of row, 2^40 paths to walk
    doubled: list = []
    for _ in range(40):
        doubled = [doubled, doubled]
    path = write_rows(tmp_path / "lcb.jsonl", lcb_row(private_test_cases=compressed(doubled)))
    assert path.stat().st_size < 3000
    with within(10), pytest.raises(InputError, match="column 'private_test_cases'") as e:
        benchmarks.load(f"livecodebench:{path}")
    assert "expands to more than 512 MiB" in str(e.value)


def test_a_test_referenced_thousands_of_times_is_refused_naming_the_bound(tmp_path) -> None:
    # one 4 MB test, 5,000 references: a 7.5 KB row that expands to 20 GB
    test = {"input": "1\n" * (2 << 20), "output": "2\n", "testtype": "stdin"}
    path = write_rows(tmp_path / "lcb.jsonl", lcb_row(private_test_cases=compressed([test] * 5000)))
    assert path.stat().st_size < 20_000
    with pytest.raises(InputError, match="column 'private_test_cases'") as e:
        benchmarks.load(f"livecodebench:{path}")
    assert "expands to more than 512 MiB" in str(e.value)


def test_a_pickle_of_many_small_objects_is_refused_before_they_are_built(
    tmp_path, monkeypatch
) -> None:
    # 2 bytes an empty list and its append: 40 bytes an object once built
    monkeypatch.setattr(decoding, "MAX_PICKLE_OPS", 10_000)
    many = compressed([[] for _ in range(10_000)])
    path = write_rows(tmp_path / "lcb.jsonl", lcb_row(private_test_cases=many))
    with pytest.raises(InputError, match="the pickle has more than 10,000 opcodes"):
        benchmarks.load(f"livecodebench:{path}")
    monkeypatch.setattr(decoding, "MAX_PICKLE_OPS", 1_000_000)
    with pytest.raises(
        InputError, match=re.escape("test cases are {input, output, testtype} objects")
    ):
        benchmarks.load(f"livecodebench:{path}")  # under the bound: read, then refused as data


def test_a_zlib_bomb_stops_at_the_bound(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(decoding, "MAX_DECODED_BYTES", 1 << 20)
    bomb = base64.b64encode(zlib.compress(b"0" * (5 << 20), 9)).decode()
    path = write_rows(tmp_path / "lcb.jsonl", lcb_row(private_test_cases=bomb))
    with pytest.raises(InputError, match="inflates to more than 1 MiB"):
        benchmarks.load(f"livecodebench:{path}")


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("public_test_cases", deep(100_000)),
        ("private_test_cases", compressed(deep(100_000))),  # JSON in a pickled string
        ("metadata", json.dumps({"func_name": "f", "x": json.loads(deep(150))})),
    ],
    ids=["public JSON", "pickled JSON", "metadata"],
)
def test_data_nested_past_the_bound_is_refused(tmp_path, column, value) -> None:
    path = write_rows(tmp_path / "lcb.jsonl", lcb_row(**{column: value}))
    with pytest.raises(InputError, match=f"line 1: column '{column}'") as e:
        benchmarks.load(f"livecodebench:{path}")
    assert f"nests deeper than {decoding.MAX_DEPTH} levels" in str(e.value)


def test_contest_dates_are_parsed_not_compared_as_text(tmp_path) -> None:
    dates = {
        "iso": "2023-05-13",
        "iso time": "2023-09-21T00:00:00",
        "epoch 2023": 1693526400,  # 2023-09-01, dropped as text ("1693..." < "2023...")
        "epoch text": "1700000000",  # 2023-11-14
    }
    rows = [lcb_row(question_id=k, contest_date=v) for k, v in dates.items()]
    path = write_rows(tmp_path / "lcb.jsonl", *rows)
    picked = benchmarks.load(f"livecodebench:{path}", after="2023-06-01").tasks
    assert set(picked) == {"iso time", "epoch 2023", "epoch text"}
    assert picked["epoch 2023"].contest_date == "2023-09-01T00:00:00"


@pytest.mark.parametrize("date", ["21/09/2019", "Sep 21, 2019", "2019-9-01"])
def test_a_date_in_another_form_is_refused_naming_the_row(tmp_path, date) -> None:
    path = write_rows(
        tmp_path / "lcb.jsonl", lcb_row(), lcb_row(question_id="x", contest_date=date)
    )
    with pytest.raises(InputError, match=r"lcb.jsonl line 2: column 'contest_date'.*not a date"):
        benchmarks.load(f"livecodebench:{path}", after="2019-09-22")


def cc_row(**fields) -> dict:
    return {**cc_rows()[2], **fields}


@pytest.mark.parametrize(
    ("fields", "column", "message"),
    [
        ({"time_limit": {"seconds": "abc"}}, "time_limit.seconds", "not 'abc'"),
        ({"time_limit": {"seconds": 1_000_000}}, "time_limit", "at most 60 s per test"),
        ({"time_limit": 2}, "time_limit", "{seconds, nanos}"),
        ({"memory_limit_bytes": -1}, "memory_limit_bytes", "not -1"),
        ({"memory_limit_bytes": 1 << 40}, "memory_limit_bytes", "at most 4294967296"),
        ({"private_tests": [["1"], ["2"]]}, "private_tests", "not a list"),
        ({"private_tests": {"input": [1], "output": [2]}}, "private_tests", "strings"),
    ],
    ids=["seconds abc", "1e6 s", "a number", "negative memory", "1 TiB", "a list", "numbers"],
)
def test_a_codecontests_field_out_of_bounds_is_one_error_naming_it(
    tmp_path, monkeypatch, capsys, fields, column, message
) -> None:
    path = write_rows(tmp_path / "cc.jsonl", cc_rows()[0], cc_row(**fields))
    with pytest.raises(InputError, match=rf"cc.jsonl line 2: column '{re.escape(column)}'") as e:
        benchmarks.load(f"codecontests:{path}")
    assert message in str(e.value)
    samples = write_rows(tmp_path / "s.jsonl", {"task_id": "digjump", "completion": "print(1)"})
    code, _, err = run_main(
        monkeypatch, capsys, "eval", "--benchmark", f"codecontests:{path}", "--samples",
        str(samples), "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and f"column '{column}'" in err


def test_codecontests_solutions_of_another_shape_are_one_error_naming_them(tmp_path) -> None:
    path = write_rows(tmp_path / "cc.jsonl", cc_rows()[0], cc_row(solutions=["print(1)"]))
    with pytest.raises(InputError, match=r"cc\.jsonl line 2: column 'solutions': solutions must"):
        list(benchmarks.references(f"codecontests:{path}"))
