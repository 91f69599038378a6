"""TRL's online trainers on `codelog export --format grpo` with `CodeReward` as `reward_funcs`:
every call returns one float per completion, each a reward of the recipe. GRPOTrainer gets a
pickled copy, as TRL's AsyncGRPOTrainer sends its reward functions to another process."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from codelog.execution.trl_reward import CodeReward
from tests.clients.conftest import cpu_args, load_split, trl


class Recorded(CodeReward):
    """CodeReward that keeps (completions, rewards) of each call (a module-level class: it
    pickles like its parent)."""

    calls: list[tuple[int, list[float]]]

    def __call__(self, prompts: Any = None, completions: Any = (), **columns: Any) -> list[float]:
        scores = super().__call__(prompts, completions, **columns)
        self.__dict__.setdefault("calls", []).append((len(completions), scores))
        return scores


@pytest.mark.parametrize(
    "trainer, config, chat",
    [("GRPOTrainer", "GRPOConfig", False), ("RLOOTrainer", "RLOOConfig", True)],
    ids=["grpo-pickled", "rloo-chat"],
)
def test_rollouts_get_one_reward_of_the_recipe_per_completion(
    export, tiny, tokenizer, reward, tmp_path, trainer, config, chat
):
    recorded = Recorded(reward.problems, reward.rewards, workers=2)
    if trainer == "GRPOTrainer":
        recorded = pickle.loads(pickle.dumps(recorded))
    args = cpu_args(
        getattr(trl, config),
        tmp_path,
        max_steps=1,
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=8,
    )
    run = getattr(trl, trainer)(
        model=str(tiny),
        reward_funcs=recorded,
        args=args,
        train_dataset=load_split(export("grpo", chat)),
        processing_class=tokenizer,
    )
    try:
        run.train()
    finally:
        recorded.close()
    assert run.state.global_step == 1
    low, high = min(reward.rewards.values()), max(reward.rewards.values())
    assert recorded.calls
    for completions, scores in recorded.calls:
        assert len(scores) == completions
        assert all(isinstance(s, float) and low <= s <= high for s in scores)
    logged = [h for h in run.state.log_history if "rewards/codelog_code_reward/mean" in h]
    assert logged
