"""What a training run is (the recipe's [train] knobs, checked) and how it runs (TrainOptions).

A leaf: every other module of the trainer takes these, none of them owns them. The split is the
resume rule: the recipe's [train] section fixes what each step computes, so a resumed run keeps
it (only RESUMABLE keys may change); TrainOptions say where and how to run and may change
freely between a run and its resumption.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from codelog.errors import CodelogError, RecipeError
from codelog.recipe import Recipe, Train

# [train] keys whose command-line flag is not --key-with-dashes
_FLAGS = {"learning_rate": "--lr"}

# Options a resumed run may change: they do not alter what the next step computes.
RESUMABLE = {"steps", "checkpoint_every", "eval_every", "keep_checkpoints"}


class TrainingError(CodelogError):
    """A run that cannot start or continue (bad options, run directory, non-finite loss)."""


@dataclass(frozen=True)
class TrainOptions:
    """How to run: nothing here changes the numbers a step computes (beyond float rounding)."""

    dataset: Path
    out: Path
    overrides: dict[str, Any] = dataclasses.field(default_factory=dict)  # [train] fields
    recipe: Recipe | None = None  # default: the dataset's own recipe (its prompt template)
    resume: bool = False
    progress: bool = True  # the progress bar
    quiet: bool = False  # no memory estimate or notes on stderr
    gradient_checkpointing: bool = False  # recompute activations in backward: less memory
    compile: bool = False  # torch.compile each transformer block (models.compile_blocks)
    # "shared": each prompt runs once for its group's solutions; "padded": each sequence whole,
    # as before issue 45 (codelog.training.logprobs; the bench and the tests compare the two).
    # Both repeat bit for bit with several CPU threads (tests/train/test_reproducible.py)
    layout: Literal["shared", "padded"] = "shared"
    memory_check: bool = True  # refuse a run whose estimate exceeds the device
    reference: Literal["cached", "recompute"] = "cached"  # KL reference log-probs (reference.py)
    report_to: str | tuple[str, ...] | None = None  # "none", "tensorboard", "wandb" or a list
    evaluators: tuple[tuple[str, Any], ...] = ()  # (name, Evaluator): see evaluation.py
    # what the rows are: "solutions" or "repair" turns; None: what the dataset's manifest says
    task: Literal["solutions", "repair"] | None = None
    max_steps_this_call: int | None = None  # stop early as if interrupted (tests use it)


# The estimators codelog.training.advantages registers. Checked against the registry there by
# tests/train/test_advantages.py; named here so that a wrong --algo fails before torch loads.
BUILT_IN_ALGOS = ("exp", "grpo", "rloo", "sft")


def known_algos() -> list[str]:
    """The --algo values: the built-in estimators, and any a caller registered (registering
    imports codelog.training.advantages; until then there is nothing else to list)."""
    registry = sys.modules.get("codelog.training.advantages")
    return sorted(registry.ADVANTAGES) if registry is not None else list(BUILT_IN_ALGOS)


def resolve_recipe(recipe: Recipe, overrides: dict[str, Any]) -> Recipe:
    """The recipe with command-line overrides applied to [train], checked once here."""
    unknown = set(overrides) - {f.name for f in dataclasses.fields(Train)}
    if unknown:
        raise RecipeError(f"unknown training option(s) {sorted(unknown)}")
    t = dataclasses.replace(recipe.train, **overrides)
    problems = [  # (bad, the [train] keys it is about, why)
        (t.algo not in known_algos(), ("algo",), f"must be one of {known_algos()}"),
        (t.group_size < 2, ("group_size",), "must be at least 2 (one correct, one incorrect)"),
        (t.max_length < 16, ("max_length",), "must be at least 16 tokens"),
        (t.token_reduction not in ("mean", "sum"), ("token_reduction",), "must be mean or sum"),
        (t.reward not in ("reward", "reward_lint"), ("reward",), "must be reward or reward_lint"),
        (t.steps < 1, ("steps",), "must be at least 1"),
        (
            t.learning_rate is not None and not t.learning_rate > 0,
            ("learning_rate",),
            "must be positive",
        ),
        (t.warmup_steps < 0, ("warmup_steps",), "must be >= 0"),
        (t.weight_decay < 0, ("weight_decay",), "must be >= 0"),
        (t.kl < 0, ("kl",), "must be >= 0"),
        (t.max_grad_norm <= 0, ("max_grad_norm",), "must be positive"),
        (t.grad_accum < 1, ("grad_accum",), "must be at least 1"),
        (t.batch_tokens < 1, ("batch_tokens",), "must be at least 1"),
        (t.lora_r < 0, ("lora_r",), "must be >= 0 (0 = full fine-tuning)"),
        (t.lora_alpha < 1, ("lora_alpha",), "must be at least 1"),
        (t.precision not in ("auto", "bf16", "fp32"), ("precision",), "must be auto, bf16 or fp32"),
        (not 0 <= t.eval_fraction < 1, ("eval_fraction",), "must be in [0, 1)"),
        (t.checkpoint_every < 1, ("checkpoint_every",), "must be at least 1"),
        (t.eval_every < 0, ("eval_every",), "must be >= 0"),
        (t.keep_checkpoints < 0, ("keep_checkpoints",), "must be >= 0 (0 = keep all)"),
    ]
    for bad, keys, why in problems:
        if bad:
            key = keys[0]
            value = getattr(t, key)
            if key in overrides:  # the user typed it: name the flag, not the recipe key
                raise RecipeError(f"{_FLAGS.get(key, '--' + key.replace('_', '-'))} {value}: {why}")
            raise RecipeError(f"[train] {key} = {value!r}: {why}")
    if t.learning_rate is None:
        lr = 3e-3 if t.model == "tiny" and not t.lora_r else 1e-4 if t.lora_r else 1e-5
        t = dataclasses.replace(t, learning_rate=lr)
    return dataclasses.replace(recipe, train=t)
