"""A verl reward function: run the response against the problem's tests in the sandbox and
return the recipe's reward for the verdict.

verl's reward manager calls, for every rollout (verl 0.9: on its reward workers, several at a
time on an executor's threads),

    compute_score(data_source=..., solution_str=<decoded response>,
                  ground_truth=row["reward_model"]["ground_truth"], extra_info=row["extra_info"])

with a row of the files `codelog export --format verl --out DIR` wrote: DIR/train.parquet
and DIR/test.parquet (verl's data.train_files and data.val_files), one row per problem. Its
ground truth is a JSON string holding the problem's tests (stdin/stdout pairs, or
HumanEval-style check code), its limits and `rewards`, the recipe's reward of each CodeNet
verdict. Point verl at this file, under the key your verl reads:

    reward.custom_reward_function.path=<site-packages>/codelog/execution/verl_reward.py
    reward.custom_reward_function.name=compute_score
    # python -c "import codelog.execution.verl_reward as m; print(m.__file__)" prints the path

verl 0.9's `verl.trainer.main_ppo` reads only `reward.custom_reward_function`
(verl/trainer/ppo/reward.py, get_custom_reward_fn); verl up to 0.8 read the top-level
`custom_reward_function.path/name`, which 0.9 moves under `reward` only in its fully-async
trainer (migrate_legacy_reward_impl): set there and run with main_ppo, this function is not
called and verl's default scorer fails on data_source "codelog/...". docs/exporting.md has
the whole command line.

verl loads the file by path (importlib, a module of its own name), so the file imports
codelog by absolute name only; `reward_kwargs` from verl's config and the keys verl adds to
extra_info (num_turns, ...) are accepted and ignored. Each call judges its response on its
own (no shared pool, no shared state), so concurrent calls are safe. The sandbox isolation
is "auto"; set CODELOG_SANDBOX=bwrap (or unshare, rlimits) to require one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from codelog.execution.compare import Tolerance
from codelog.execution.completions import clean_completion
from codelog.execution.judge import JudgeOptions, Program, judge_program
from codelog.execution.testcases import Problem, TestCase


def problem_spec(problem: Problem) -> dict[str, Any]:
    """What the ground truth carries of a problem (the inverse of `problem_from_spec`)."""
    spec: dict[str, Any] = {
        "problem_id": problem.problem_id,
        "language": problem.language,
        "time_limit_ms": problem.time_limit_ms,
        "memory_limit_kb": problem.memory_limit_kb,
        "tests": [{"name": t.name, "input": t.input, "output": t.output} for t in problem.tests],
    }
    if problem.tolerance is not None:
        spec["float_tolerance"] = problem.tolerance.to_dict()
    if problem.test_code is not None:
        spec.update(
            code_prompt=problem.code_prompt,
            test_code=problem.test_code,
            entry_point=problem.entry_point,
        )
    return spec


def problem_from_spec(spec: Mapping[str, Any]) -> Problem:
    tolerance = spec.get("float_tolerance")
    return Problem(
        problem_id=str(spec.get("problem_id", "")),
        tests=tuple(
            TestCase(str(t.get("name", f"test {i + 1}")), t.get("input") or "", t.get("output"))
            for i, t in enumerate(spec["tests"])
        ),
        time_limit_ms=int(spec.get("time_limit_ms", 2000)),
        memory_limit_kb=int(spec.get("memory_limit_kb", 262_144)),
        tolerance=Tolerance(tolerance.get("absolute"), tolerance.get("relative"))
        if tolerance
        else None,
        language=str(spec.get("language", "Python")),
        code_prompt=spec.get("code_prompt"),
        test_code=spec.get("test_code"),
        entry_point=spec.get("entry_point"),
    )


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: str | Mapping[str, Any],
    extra_info: Mapping[str, Any] | None = None,
    **reward_kwargs: Any,
) -> float:
    """The recipe's reward for the verdict of `solution_str` on the problem's tests
    (`reward_kwargs`: what verl's config passes along; none is read)."""
    truth = json.loads(ground_truth) if isinstance(ground_truth, str) else dict(ground_truth)
    if not truth.get("tests"):
        raise ValueError(
            f"{data_source}: this row's ground truth has no tests (export with tests: "
            "`codelog export --format verl` from a dataset whose problems have sample I/O)"
        )
    problem = problem_from_spec(truth)
    code = clean_completion(problem, solution_str)
    program = Program(
        submission_id=str((extra_info or {}).get("index", "rollout")),
        problem_id=problem.problem_id,
        code=code,
        language=problem.language,
    )
    isolation = os.environ.get("CODELOG_SANDBOX", "auto")
    verdict = judge_program(program, problem, JudgeOptions(isolation=isolation))  # type: ignore[arg-type]
    rewards = truth.get("rewards") or {}
    if verdict.status not in rewards:
        raise ValueError(
            f"{data_source}: no reward for verdict {verdict.status!r} in the ground truth"
        )
    return float(rewards[verdict.status])
