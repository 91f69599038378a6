"""Advantage estimators against worked values (DESIGN.md's formulas)."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from codelog.training.advantages import ADVANTAGES, compute_advantages, register


def advantages(name: str, rewards: list[float], correct: list[bool] | None = None) -> list[float]:
    correct = correct if correct is not None else [r > 0 for r in rewards]
    return compute_advantages(
        name, torch.tensor(rewards, dtype=torch.float64), torch.tensor(correct)
    ).tolist()


def test_rloo_subtracts_the_mean_of_the_others():
    # 1 - mean(-0.1, -0.5, -1) = 1 + 1.6/3; -0.1 - mean(1, -0.5, -1) = -0.1 + 0.5/3; ...
    assert advantages("rloo", [1, -0.1, -0.5, -1]) == pytest.approx(
        [1.5333, 0.0667, -0.4667, -1.1333], abs=1e-4
    )


def test_grpo_binary_group_of_3_correct_5_wrong_uses_bessel_std():
    # rewards 1 (x3) and 0 (x5): mean 0.375, sample std sqrt(1.875 / 7) = 0.51755
    a = advantages("grpo", [1, 1, 1, 0, 0, 0, 0, 0])
    assert a[:3] == pytest.approx([1.2076] * 3, abs=1e-4)
    assert a[3:] == pytest.approx([-0.7246] * 5, abs=1e-4)


def test_grpo_on_the_paper_rewards():
    # mean -0.15; deviations 1.15, 0.05, -0.35, -0.85; sample std sqrt(2.17 / 3) = 0.8505
    assert advantages("grpo", [1, -0.1, -0.5, -1]) == pytest.approx(
        [1.3522, 0.0588, -0.4115, -0.9994], abs=1e-4
    )


def test_exp_is_the_exponential_of_grpo():
    a = advantages("exp", [1, 1, 1, 0, 0, 0, 0, 0])
    assert a[:3] == pytest.approx([3.3455] * 3, abs=1e-4)  # exp(1.2076)
    assert a[3:] == pytest.approx([0.4845] * 5, abs=1e-4)  # exp(-0.7246)
    assert all(x > 0 for x in a)


def test_sft_weights_correct_solutions_only():
    assert advantages("sft", [1, -0.1, -0.5, -1]) == [1.0, 0.0, 0.0, 0.0]
    assert advantages("sft", [0.5, 0.5], [True, False]) == [1.0, 0.0]  # correctness, not reward


def test_equal_rewards_give_zero_grpo_advantage_not_nan():
    assert advantages("grpo", [-0.1, -0.1, -0.1], [False] * 3) == pytest.approx([0, 0, 0], abs=1e-9)
    assert advantages("exp", [-0.1, -0.1], [False] * 2) == pytest.approx([1, 1], abs=1e-9)


def test_a_group_needs_two_members():
    with pytest.raises(ValueError, match="two members"):
        advantages("rloo", [1.0])


def test_a_new_estimator_is_one_function():
    @register("test-constant")
    def constant(rewards: torch.Tensor, is_correct: torch.Tensor) -> torch.Tensor:
        return torch.full_like(rewards, 2.0)

    try:
        assert advantages("test-constant", [1, 0]) == [2.0, 2.0]
        with pytest.raises(ValueError, match="already registered"):
            register("test-constant")(constant)
    finally:
        del ADVANTAGES["test-constant"]


rewards_strategy = st.lists(st.sampled_from([1.0, -0.1, -0.5, -0.6, -1.0]), min_size=2, max_size=16)


@given(rewards_strategy)
def test_rloo_and_grpo_advantages_sum_to_zero(rewards):
    for name in ("rloo", "grpo"):
        assert math.fsum(advantages(name, rewards)) == pytest.approx(0.0, abs=1e-9)


@given(rewards_strategy)
def test_rloo_is_grpo_centering_scaled_by_n_over_n_minus_1(rewards):
    n, mean = len(rewards), sum(rewards) / len(rewards)
    expected = [(r - mean) * n / (n - 1) for r in rewards]
    assert advantages("rloo", rewards) == pytest.approx(expected, abs=1e-9)


@given(rewards_strategy)
def test_better_reward_never_gets_a_smaller_advantage(rewards):
    for name in ("rloo", "grpo", "exp"):
        a = advantages(name, rewards)
        pairs = sorted(zip(rewards, a, strict=True))
        assert all(x[1] <= y[1] + 1e-12 for x, y in pairwise(pairs))
