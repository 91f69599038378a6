"""`CodeReward` goes to another process as TRL's AsyncGRPOTrainer, verl's Ray workers and
multiprocessing send a reward function: pickled, without its judging pool. The copy opens its
own where it scores, gives the same rewards, and leaves no worker behind."""

from __future__ import annotations

import gc
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import psutil

from codelog.execution.trl_reward import CodeReward

PROBLEM = "p02971"
COMPLETIONS = ["print(0)\n", "print(\n", "raise SystemExit(3)\n"]


def children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def score(reward: CodeReward) -> tuple[list[float], int]:
    """In another process: the rewards, and how many processes judged them there."""
    scores = reward([""] * len(COMPLETIONS), COMPLETIONS, problem_id=[PROBLEM] * len(COMPLETIONS))
    judging = len(children())
    reward.close()
    return scores, judging


def test_a_pickled_reward_scores_alike_and_leaves_no_worker(sample_dataset):
    with CodeReward.from_dataset(sample_dataset, workers=2) as reward:
        ids = [PROBLEM] * len(COMPLETIONS)
        expected = reward([""] * len(COMPLETIONS), COMPLETIONS, problem_id=ids)
        assert expected == [-0.1, -1.0, -0.6]
        running = children()  # the original's pool, started: it does not travel
        copy = pickle.loads(pickle.dumps(reward))
        assert children() == running
        assert copy([""] * len(COMPLETIONS), COMPLETIONS, problem_id=ids) == expected
        started = children() - running
        assert started, "the copy judged on a pool of its own"
        del copy
        gc.collect()
        assert not started & children(), "the copy's workers outlived it"

        # spawned, as TRL's AsyncRolloutWorker starts the process its reward functions run in
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(1, mp_context=spawn) as other:
            scores, judging = other.submit(score, reward).result()
        assert scores == expected and judging > 0
        assert children() <= running
