"""The verl export carries tests; compute_score runs a response through the sandbox and returns
the recipe's reward, called exactly as verl's reward manager calls a custom reward function."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import codelog.execution.verl_reward
from codelog.dataset.export import export_dataset
from codelog.execution.testcases import load_problems
from codelog.execution.verl_reward import problem_from_spec, problem_spec


def load_like_verl(path: str, name: str):
    """verl's get_custom_reward_fn: import the file by path, take the function by name."""
    spec = importlib.util.spec_from_file_location("custom_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


@pytest.fixture(scope="module")
def python2_ids(sample_dataset: Path) -> set[str]:
    """A rollout is asked for Python 3: the sample's Python 2 rows are not such responses."""
    from codelog.execution.sandbox import PYTHON2_LANGUAGES

    rows = pq.read_table(sample_dataset / "solutions.parquet").to_pylist()
    return {r["submission_id"] for r in rows if r["original_language"] in PYTHON2_LANGUAGES}


@pytest.fixture(scope="module")
def verl_rows(sample_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    problems = load_problems(f"codenet:{sample_dataset}")
    out = tmp_path_factory.mktemp("verl") / "verl.parquet"
    export_dataset(
        sample_dataset,
        "verl-solutions",
        out,
        split="all",
        problem_tests={pid: problem_spec(p) for pid, p in problems.items()},
    )
    return pq.read_table(out).to_pylist()


def test_the_ground_truth_carries_tests_limits_and_verdict_rewards(verl_rows) -> None:
    truth = json.loads(verl_rows[0]["reward_model"]["ground_truth"])
    assert {"outcome", "reward", "is_correct"} <= set(truth)  # the logged verdict, as before
    assert truth["tests"] and truth["tests"][0]["output"] is not None
    assert truth["rewards"]["Accepted"] == 1.0 and truth["rewards"]["Compile Error"] == -1.0
    problem = problem_from_spec(truth)
    assert problem.time_limit_ms == truth["time_limit_ms"] and len(problem.tests) >= 1


def test_compute_score_as_verls_reward_manager_calls_it(verl_rows, python2_ids) -> None:
    compute_score = load_like_verl(codelog.execution.verl_reward.__file__, "compute_score")
    by_outcome: dict[str, list[dict]] = {}
    for row in verl_rows:
        info = row["extra_info"]
        if info["outcome"] != "time_limit" and info["submission_id"] not in python2_ids:
            by_outcome.setdefault(row["extra_info"]["outcome"], []).append(row)
    assert set(by_outcome) >= {
        "accepted",
        "wrong_answer",
        "presentation_error",
        "runtime_error",
        "compile_error",
        "output_limit",
    }
    for outcome, rows in sorted(by_outcome.items()):
        for row in rows[:2]:
            # NaiveRewardManager: data_source, decoded response, reward_model.ground_truth,
            # extra_info, all by keyword.
            score = compute_score(
                data_source=row["data_source"],
                solution_str=row["extra_info"]["response"],
                ground_truth=row["reward_model"]["ground_truth"],
                extra_info=row["extra_info"],
            )
            assert score == row["extra_info"]["reward"], (
                outcome,
                row["extra_info"]["submission_id"],
            )


def test_a_fenced_response_is_scored_by_its_code(verl_rows) -> None:
    row = next(r for r in verl_rows if r["extra_info"]["outcome"] == "accepted")
    fenced = "Here is my program:\n```python\n" + row["extra_info"]["response"] + "```\nDone."
    score = codelog.execution.verl_reward.compute_score(
        row["data_source"], fenced, row["reward_model"]["ground_truth"], row["extra_info"]
    )
    assert score == 1.0


def test_a_row_without_tests_cannot_be_scored() -> None:
    with pytest.raises(ValueError, match="no tests"):
        codelog.execution.verl_reward.compute_score(
            "codelog/codenet", "print(1)", json.dumps({"outcome": "accepted"}), {}
        )
