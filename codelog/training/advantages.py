"""Advantage estimators: a registry of plain functions, one per algorithm.

Each estimator maps one group's rewards (and which members are correct) to one advantage per
member. The trainer minimises -mean_i A_i * log p(solution_i | prompt) over the group, so on
logged data every estimator is a weighting of the likelihood, not on-policy RL.

Adding an estimator is adding one function:

    @register("my-estimator")
    def my_estimator(rewards: torch.Tensor, is_correct: torch.Tensor) -> torch.Tensor:
        ...

`rewards` is a float64 vector of the group's rewards, `is_correct` a bool vector of the same
length; the result is a float64 vector of advantages. Groups have at least two members.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

Estimator = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]

ADVANTAGES: dict[str, Estimator] = {}

# Keeps GRPO finite when every member of a group has the same reward (its advantages are then 0).
EPS = 1e-6


def register(name: str) -> Callable[[Estimator], Estimator]:
    """Register an advantage estimator under `name` (the value of `--algo`)."""

    def add(fn: Estimator) -> Estimator:
        if name in ADVANTAGES:
            raise ValueError(f"advantage estimator {name!r} is already registered")
        ADVANTAGES[name] = fn
        return fn

    return add


def compute_advantages(name: str, rewards: torch.Tensor, is_correct: torch.Tensor) -> torch.Tensor:
    """Advantages of one group under the estimator `name`."""
    rewards = torch.as_tensor(rewards, dtype=torch.float64)
    is_correct = torch.as_tensor(is_correct, dtype=torch.bool)
    if rewards.ndim != 1 or rewards.shape != is_correct.shape:
        raise ValueError("rewards and is_correct must be vectors of the same length")
    if rewards.numel() < 2:
        raise ValueError("a group needs at least two members to compare")
    return ADVANTAGES[name](rewards, is_correct)


@register("sft")
def sft(rewards: torch.Tensor, is_correct: torch.Tensor) -> torch.Tensor:
    """Supervised fine-tuning on the correct solutions: A = 1 if correct, else 0."""
    return is_correct.to(torch.float64)


@register("rloo")
def rloo(rewards: torch.Tensor, is_correct: torch.Tensor) -> torch.Tensor:
    """REINFORCE leave-one-out: A_i = r_i - mean_{j != i} r_j."""
    n = rewards.numel()
    return rewards - (rewards.sum() - rewards) / (n - 1)


@register("grpo")
def grpo(rewards: torch.Tensor, is_correct: torch.Tensor) -> torch.Tensor:
    """GRPO-style: A_i = (r_i - mean r) / (std r + eps), std with Bessel's correction (n - 1)."""
    return (rewards - rewards.mean()) / (rewards.std(correction=1) + EPS)


@register("exp")
def exponential(rewards: torch.Tensor, is_correct: torch.Tensor) -> torch.Tensor:
    """Exponential: A_i = exp(GRPO-style A_i); always positive, about [0.37, 2.72] for A in [-1, 1]."""
    return torch.exp(grpo(rewards, is_correct))
