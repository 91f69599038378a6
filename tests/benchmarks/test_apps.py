"""APPS judged as APPS's own harness judges it: the 39 real model outputs of its two problems
get the verdicts APPS gave them, warm and cold; directories and Hub rows read the same."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import codelog.benchmarks as benchmarks
from codelog.errors import InputError
from codelog.execution.compare import apps_match
from codelog.execution.judge import JudgeOptions, Program, judge_program
from tests.benchmarks import one_row_file
from tests.execution.written_programs import SPINS_FOR_MS

APPS = Path(__file__).resolve().parent.parent / "fixtures" / "benchmarks" / "apps"


@pytest.mark.parametrize("start", ["warm", "cold"])
def test_the_39_real_outputs_get_apps_own_verdicts(start: str) -> None:
    suite = benchmarks.load(f"apps:{APPS}", "train")
    got, want = {}, {}
    for tid, task in suite.tasks.items():
        outputs = json.loads((APPS / "train" / tid / "gen_solutions.json").read_text())
        for i, sample in enumerate(outputs):
            verdict = judge_program(
                Program(f"{tid}#{i}", tid, sample["code"]),
                task.problem,
                JudgeOptions(warm=start == "warm"),
            )
            got[f"{tid}#{i}"] = verdict.accepted
            want[f"{tid}#{i}"] = sample["result"] is True
    assert len(got) == 39 and sum(want.values()) == 32
    assert got == want


def test_release_directories_and_hub_rows_give_the_same_problems() -> None:
    from_dirs = benchmarks.load(f"apps:{APPS}", "train")
    from_rows = benchmarks.load(f"apps:{APPS / 'apps-hub-rows.jsonl'}", "train")
    assert set(from_dirs.tasks) == {"0001", "2404"}
    assert set(from_rows.tasks) == {"1", "2404"}  # the Hub's problem_id is a number
    stdio, call = from_dirs.tasks["0001"], from_dirs.tasks["2404"]
    assert (stdio.difficulty, call.difficulty) == ("interview", "introductory")
    assert stdio.problem.kind == "stdio" and stdio.problem.origin == "APPS"
    assert call.problem.entry_point == "Solution.findKthPositive"
    assert from_rows.tasks["1"].problem.tests == stdio.problem.tests
    assert from_rows.tasks["2404"].problem.test_code == call.problem.test_code
    assert "Use Call-Based format" in call.prompt and "class Solution" in call.prompt
    refs = {r.task_id: r for r in benchmarks.references(f"apps:{APPS}", "train")}
    assert refs["2404"].url == "https://leetcode.com/problems/kth-missing-positive-number/"
    assert len(refs["0001"].solutions) > 1


def test_apps_comparison_is_apps_own_chain_of_rules() -> None:
    assert apps_match("1 2\n3\n", "1 2\n3")
    assert apps_match("  1 2  \n\n3\n", "1 2\n3")  # stripped lines, empty ones dropped
    assert apps_match("0.3333333\n", "0.33333333")  # within allclose's tolerance
    assert apps_match("3\n1 2\n", "1 2\n3")  # APPS compares lines as sets of tokens
    assert apps_match("1.0004 2\n", "1.0 2.0")  # ... and with numbers rounded to 3 places
    assert not apps_match("1.01\n", "1.0")
    assert not apps_match("1 2\n", "1 2\n3")
    assert not apps_match("YES\n", "NO")


def _apps_rows(tmp_path: Path, inputs: list, outputs: list, fn_name: str) -> Path:
    io = {"inputs": inputs, "outputs": outputs, "fn_name": fn_name}
    row = {"problem_id": 7, "question": "Spin.", "input_output": json.dumps(io)}
    return one_row_file(tmp_path / "rows.jsonl", row)


@pytest.mark.parametrize("start", ["warm", "cold"])
def test_each_call_has_its_tests_time_limit_as_each_stdin_test_does(
    start: str, tmp_path: Path
) -> None:
    # 6 calls of 60 ms of CPU (360 ms in all), an honest solution: each call well within its
    # test's 200 ms (APPS's 4 s scaled by 0.05), the 6 together not within one test's
    options = JudgeOptions(warm=start == "warm", time_scale=0.05)
    path = _apps_rows(tmp_path, [[60]] * 6, [60] * 6, "f")
    problem = benchmarks.load(f"apps:{path}", "test").tasks["7"].problem
    verdict = judge_program(Program("c", "7", SPINS_FOR_MS), problem, options)
    assert verdict.status == "Accepted", verdict.detail
    assert verdict.cpu_ms > 300  # more than one test's limit in all, as 6 stdin runs may
    # one call past its test's 200 ms is a time limit, however much of the run is left
    slow = replace(problem, test_code=problem.test_code.replace("[[60], 60]", "[[300], 300]", 1))
    verdict = judge_program(Program("c", "7", SPINS_FOR_MS), slow, options)
    assert verdict.status == "Time Limit Exceeded"
    assert "call 1:" in verdict.detail  # its CPU over 200 ms, or its wall clock past 0.8 s


def test_a_call_based_test_whose_arguments_are_not_a_list_is_refused_at_load(
    tmp_path: Path,
) -> None:
    # APPS's harness calls fn_name(*args): a test of bare 5 would fail every sample, honest
    # ones too; the problem is the file's fault, named with its row and field
    path = _apps_rows(tmp_path, [[1], 5], [1, 5], "f")
    with pytest.raises(InputError) as caught:
        benchmarks.load(f"apps:{path}", "test")
    assert caught.value.path == str(path) and caught.value.line == 1
    assert caught.value.column == "input_output"
    assert "test 2 has int 5" in str(caught.value)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("name", "content", "command", "expected"),
    [
        ("solutions.json", b"42", "contamination", "0001: column 'solutions': solutions must be"),
        ("metadata.json", b'{"difficulty": ', "eval", "0001/metadata.json: refused: not JSON"),
        ("metadata.json", b"[]", "contamination", "0001/metadata.json: needs a JSON object"),
        ("question.txt", b"caf\xe9\n", "eval", "0001/question.txt: not UTF-8 text"),
        ("input_output.json", DEEP.encode(), "eval", "column 'input_output': refused: the JSON"),
    ],
    ids=["solutions 42", "metadata cut", "metadata a list", "question latin-1", "deep JSON"],
)
def test_a_malformed_release_file_is_one_error_line_naming_it(
    tmp_path, monkeypatch, capsys, name, content, command, expected
) -> None:
    import shutil

    from tests.dataset.test_sql import run_main

    shutil.copytree(APPS / "train" / "0001", tmp_path / "apps" / "test" / "0001")
    (tmp_path / "apps" / "test" / "0001" / name).write_bytes(content)
    spec = f"apps:{tmp_path / 'apps'}"
    samples = tmp_path / "s.jsonl"
    samples.write_text(json.dumps({"task_id": "0001", "completion": "print(1)"}) + "\n")
    if command == "eval":
        args = ["eval", "--benchmark", spec, "--samples", samples, "--out", tmp_path / "out"]
    else:
        mbpp = APPS.parent / "mbpp" / "mbpp-sample.jsonl"
        args = ["contamination", spec, "--against", f"mbpp:{mbpp}", "--out", tmp_path / "r.jsonl"]
    code, _, err = run_main(monkeypatch, capsys, *map(str, args))
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    assert expected in err and "Traceback" not in err


def test_hub_rows_nested_past_the_bound_are_refused_naming_the_row(tmp_path) -> None:
    row = json.loads((APPS / "apps-hub-rows.jsonl").read_text().splitlines()[0])
    rows = tmp_path / "rows.jsonl"
    nested = {"inputs": [json.loads("[" * 150 + "]" * 150)], "outputs": ["1"]}
    rows.write_text(json.dumps({**row, "input_output": nested}) + "\n")
    with pytest.raises(
        InputError, match="line 1: column 'input_output': refused: the input_output"
    ):
        benchmarks.load(f"apps:{rows}", "train")
    rows.write_text(json.dumps(row) + "\n" + DEEP + "\n")  # past what the parser recurses
    with pytest.raises(InputError, match=r"rows\.jsonl line 2: nests deeper than the JSON parser"):
        benchmarks.load(f"apps:{rows}", "train")
