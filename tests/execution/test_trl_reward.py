"""codelog's TRL reward function: completions run against their problem's tests in the sandbox,
scored with the recipe's reward of the verdict; TRL's GRPOTrainer trains with it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import polars as pl
import pytest

import codelog
from codelog.errors import CodelogError
from codelog.execution.trl_reward import CodeReward
from tests.execution.memory_fact import SANDBOX_SEES_THE_LIMIT


@pytest.fixture(scope="module")
def reward(sample_dataset: Path) -> CodeReward:
    return CodeReward.from_dataset(sample_dataset, workers=2)


@pytest.fixture(scope="module")
def canonical(sample_dataset: Path) -> dict[str, str]:
    """problem_id -> an accepted solution's code."""
    accepted = (
        pl.read_parquet(sample_dataset / "solutions.parquet")
        .filter(pl.col("is_correct"))
        .sort("submission_id")
        .group_by("problem_id", maintain_order=True)
        .first()
    )
    return dict(accepted.select("problem_id", "code").iter_rows())


def test_canonical_and_broken_completions_get_their_verdicts_rewards(reward, canonical):
    problem = sorted(canonical)[0]
    completions = {
        "canonical": (canonical[problem], 1.0),
        "fenced, as a chat message": (
            [{"role": "assistant", "content": f"Here:\n```python\n{canonical[problem]}```"}],
            1.0,
        ),
        "wrong answer": ("print(0)\n", -0.1),
        "compile error": ("print(\n", -1.0),
        "runtime error": ("raise SystemExit(3)\n", -0.6),
    }
    scores = reward(
        prompts=[""] * len(completions),
        completions=[c for c, _ in completions.values()],
        problem_id=[problem] * len(completions),
    )
    assert dict(zip(completions, scores, strict=True)) == {
        k: r for k, (_, r) in completions.items()
    }


def test_every_problems_canonical_solution_scores_one(reward, canonical):
    ids = sorted(canonical)
    assert reward([""] * len(ids), [canonical[p] for p in ids], problem_id=ids) == [1.0] * len(ids)


def test_a_hanging_or_hostile_completion_gets_its_verdicts_reward_without_stalling(reward):
    hostile = {
        "busy loop": ("while True:\n    pass\n", -0.5),  # time limit
        "sleeps": ("import time\ntime.sleep(3600)\n", -0.5),  # the wall timeout: time limit
        "floods stdout": ("while True:\n    print('x' * 10000)\n", -0.6),  # output limit
        # memory limit counts as time limit; refused by RLIMIT_AS: tests/execution/memory_fact.py
        "eats memory": ("x = bytearray(1 << 40)\n", -0.5 if SANDBOX_SEES_THE_LIMIT else -0.6),
        "forks forever": ("import os\nwhile True:\n    os.fork()\n", None),
    }
    start = time.monotonic()
    scores = reward(
        prompts=[""] * len(hostile),
        completions=[c for c, _ in hostile.values()],
        problem_id=["p02971"] * len(hostile),
    )
    assert time.monotonic() - start < 60, "a rollout batch never waits on a hung program"
    for (name, (_, expected)), score in zip(hostile.items(), scores, strict=True):
        if expected is None:  # a fork bomb's verdict depends on the isolation in effect
            assert score < 0, name
        else:
            assert score == expected, name


def test_problem_ids_come_from_verl_extra_info_too(reward, canonical):
    problem = sorted(canonical)[0]
    info = [{"problem_id": problem, "index": 0}]
    assert reward([""], [canonical[problem]], extra_info=info) == [1.0]


def test_a_problem_without_tests_is_an_error_not_a_reward(reward):
    with pytest.raises(CodelogError, match="no tests for it"):
        reward([""], ["print(1)"], problem_id=["p99999"])
    with pytest.raises(CodelogError, match="no problem_id column"):
        reward([""], ["print(1)"])


def test_from_a_problems_file(tmp_path):
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        json.dumps({"problem_id": "add", "tests": [{"input": "1 2\n", "output": "3\n"}]}) + "\n"
    )
    reward = CodeReward.from_problems(str(problems), workers=1)
    right, wrong = "a, b = map(int, input().split())\nprint(a + b)\n", "print(4)\n"
    assert reward(["", ""], [right, wrong], problem_id=["add", "add"]) == [1.0, -0.1]


def test_grpo_trainer_trains_two_steps_with_codelogs_reward(
    sample_dataset, reward, tmp_path, monkeypatch
):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # nothing is downloaded: the tiny model is built
    datasets = pytest.importorskip("datasets")
    trl = pytest.importorskip("trl")
    from codelog.training import data, models

    report = codelog.export(sample_dataset, "grpo", tmp_path / "grpo")
    base = models.build_tiny(data.open_dataset(sample_dataset), tmp_path / "tiny", 4096, 0)
    train = datasets.load_dataset(
        "parquet",
        data_files=str(report.file("train")),
        split="train",
        cache_dir=str(tmp_path / "hf-cache"),
    )
    seen: list[tuple[list[str], list[float]]] = []

    def recorded(prompts, completions, **columns):
        scores = reward(prompts, completions, **columns)
        seen.append((columns["problem_id"], scores))
        return scores

    recorded.__name__ = "codelog"
    args = trl.GRPOConfig(
        output_dir=str(tmp_path / "out"),
        max_steps=2,
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=16,
        report_to=[],
        use_cpu=True,
        bf16=False,
        logging_steps=1,
        save_strategy="no",
        seed=0,
    )
    trainer = trl.GRPOTrainer(
        model=str(base),
        reward_funcs=recorded,
        args=args,
        train_dataset=train,
        processing_class=models.load_tokenizer(str(base)),
    )
    trainer.train()
    assert trainer.state.global_step == 2
    assert len(seen) == 2 and all(len(scores) == 2 for _, scores in seen)
    train_problems = set(train["problem_id"])
    verdict_rewards = set(reward.rewards.values())
    for ids, scores in seen:
        assert set(ids) <= train_problems
        assert set(scores) <= verdict_rewards
    logged = [
        h["rewards/codelog/mean"] for h in trainer.state.log_history if "rewards/codelog/mean" in h
    ]
    assert logged == pytest.approx([sum(s) / len(s) for _, s in seen])


def test_the_judging_processes_outlive_a_batch_and_stop_on_close(sample_dataset, canonical):
    """A trainer calls the reward every step: the pool, and its warm interpreters, start once."""
    import psutil

    me = psutil.Process()
    problem = sorted(canonical)[0]
    with CodeReward.from_dataset(sample_dataset, workers=2) as reward:
        before = {p.pid for p in me.children()}
        assert reward([""], [canonical[problem]], problem_id=[problem]) == [1.0]
        first = {p.pid for p in me.children()} - before
        assert reward([""], ["print(0)\n"], problem_id=[problem]) == [-0.1]
        assert first and first <= {p.pid for p in me.children()}
    assert not first & {p.pid for p in me.children()}
