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
