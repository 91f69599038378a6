"""Recipes: every knob of a build or training run, loaded from TOML and validated once here."""

from __future__ import annotations

import dataclasses
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from codelog.errors import RecipeError
from codelog.outcomes import OUTCOME_NAMES, UNSCORABLE

RECIPES_DIR = Path(__file__).parent / "recipes"
DEFAULT_RECIPE = RECIPES_DIR / "offline-rl-paper.toml"


@dataclass(frozen=True)
class Grouping:
    dedup: Literal["ast", "exact", "none"] = "ast"
    min_correct: int = 1
    min_incorrect: int = 1
    max_correct_per_problem: int = 50


@dataclass(frozen=True)
class Limits:
    max_source_bytes: int = 1 << 20
    on_error: Literal["reject", "fail"] = "reject"


@dataclass(frozen=True)
class Prompt:
    template: str = "{statement}"


@dataclass(frozen=True)
class Train:
    """Knobs of `codelog train`; its command-line options override them (checked in codelog.train)."""

    group_size: int = 4  # solutions per group (one problem), at least one correct and one incorrect
    max_length: int = 2048  # tokens of prompt + solution; longer ones are truncated and counted
    algo: str = "rloo"  # advantage estimator: sft, rloo, grpo, exp (codelog.train.advantages)
    token_reduction: Literal["mean", "sum"] = (
        "mean"  # log p(solution) as mean or sum over its tokens
    )
    model: str = "tiny"  # HF causal LM path or hub name; "tiny" builds a small model offline
    steps: int = 100  # optimizer steps
    learning_rate: float | None = None  # None: 3e-3 tiny model, 1e-4 LoRA, 1e-5 full fine-tuning
    warmup_steps: int = 10  # linear warm-up, then constant
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    grad_accum: int = 1  # groups per optimizer step (gradients accumulated over them)
    batch_tokens: int = 16384  # padded tokens per forward pass at most (length-aware micro-batches)
    kl: float = 0.0  # KL penalty coefficient to the reference (initial) policy; 0 = off
    lora_r: int = 0  # LoRA rank; 0 = full fine-tuning
    lora_alpha: int = 16
    precision: Literal["auto", "bf16", "fp32"] = (
        "auto"  # auto: bf16 autocast on a bf16 GPU, else fp32
    )
    seed: int = 0
    eval_fraction: float = 0.1  # share of each group's solutions held out to measure the margin
    eval_every: int = 0  # steps between held-out evaluations; 0 = at start and end only
    checkpoint_every: int = 50
    keep_checkpoints: int = 2  # most recent checkpoints kept; 0 = keep all


@dataclass(frozen=True)
class Recipe:
    name: str
    statuses: Mapping[str, str]
    rewards: Mapping[str, float]
    grouping: Grouping = field(default_factory=Grouping)
    limits: Limits = field(default_factory=Limits)
    prompt: Prompt = field(default_factory=Prompt)
    train: Train = field(default_factory=Train)
    # The data's license for the dataset card (an SPDX-style id, e.g. "mit"), for sources that
    # do not fix it (CI, JUnit; CodeNet is cdla-permissive-2.0); `build --license` overrides it.
    license: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data, in a stable order: what the manifest stores and `from_dict` reads back."""
        data = {
            "name": self.name,
            "statuses": dict(self.statuses),
            "rewards": dict(self.rewards),
            "grouping": dataclasses.asdict(self.grouping),
            "limits": dataclasses.asdict(self.limits),
            "prompt": dataclasses.asdict(self.prompt),
            "train": dataclasses.asdict(self.train),
        }
        if self.license is not None:  # absent when unset: older manifests stay as they were
            data["license"] = self.license
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "recipe") -> Recipe:
        known = {"name", "statuses", "rewards", "grouping", "limits", "prompt", "train", "license"}
        unknown = set(data) - known
        if unknown:
            raise RecipeError(f"{where}: unknown section(s) {sorted(unknown)}")
        statuses = dict(data.get("statuses", {}))
        rewards = {k: _reward(k, v, where) for k, v in data.get("rewards", {}).items()}
        for status, outcome in statuses.items():
            if outcome != UNSCORABLE and outcome not in OUTCOME_NAMES:
                raise RecipeError(
                    f"{where}: status {status!r} maps to {outcome!r}, which is not an outcome "
                    f"(one of {sorted(OUTCOME_NAMES | {UNSCORABLE})})"
                )
        for outcome in rewards:
            if outcome not in OUTCOME_NAMES:
                raise RecipeError(f"{where}: [rewards] names {outcome!r}, which is not an outcome")
        missing = {o for o in statuses.values() if o != UNSCORABLE} - set(rewards)
        if missing:
            raise RecipeError(f"{where}: [rewards] has no reward for {sorted(missing)}")
        best_other = max((r for o, r in rewards.items() if o != "accepted"), default=None)
        if "accepted" in rewards and best_other is not None and rewards["accepted"] <= best_other:
            beaten = sorted(
                o for o, r in rewards.items() if o != "accepted" and r >= rewards["accepted"]
            )
            raise RecipeError(
                f"{where}: [rewards] accepted = {rewards['accepted']:g} is not above "
                f"{', '.join(beaten)} ({best_other:g}): a correct solution must earn the most"
            )
        recipe = cls(
            name=str(data.get("name", "unnamed")),
            statuses=MappingProxyType(statuses),
            rewards=MappingProxyType(rewards),
            grouping=_section(Grouping, data, "grouping", where),
            limits=_section(Limits, data, "limits", where),
            prompt=_section(Prompt, data, "prompt", where),
            train=_section(Train, data, "train", where),
            license=check_license(data["license"], where) if "license" in data else None,
        )
        _check(recipe, where)
        return recipe


# Rewards are scores around +-1 (the default recipe spans -1..1); the bound catches typos
# such as 1e9 that would swamp every advantage, without constraining any sensible scale.
MAX_ABS_REWARD = 1000.0

# How bad each failure is, best first: rewards should not rank a worse failure above a better
# one (a compile error is further from correct than a wrong answer). Outcomes on one level are
# not ordered among themselves.
OUTCOME_ORDER: tuple[frozenset[str], ...] = (
    frozenset({"accepted"}),
    frozenset({"wrong_answer", "presentation_error", "query_limit"}),
    frozenset({"time_limit", "memory_limit", "output_limit", "runtime_error"}),
    frozenset({"compile_error"}),
)


def _reward(outcome: str, value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RecipeError(f"{where}: [rewards] {outcome} = {value!r} is not a number")
    reward = float(value)
    if not math.isfinite(reward) or abs(reward) > MAX_ABS_REWARD:
        raise RecipeError(
            f"{where}: [rewards] {outcome} = {value!r}: a reward must be a finite number "
            f"within +-{MAX_ABS_REWARD:g}"
        )
    return reward


_LICENSE_ID = re.compile(r"^[a-z0-9][a-z0-9.+-]*$")


def check_license(value: Any, where: str = "--license") -> str:
    """A license id as the Hugging Face hub spells them: lowercase, e.g. mit, apache-2.0."""
    if not isinstance(value, str) or not _LICENSE_ID.match(value):
        raise RecipeError(
            f"{where}: license {value!r} is not a license id such as mit, apache-2.0, "
            "cc-by-4.0 or other (lowercase; see https://huggingface.co/docs/hub/repositories-licenses)"
        )
    return value


def reward_order_warnings(recipe: Recipe) -> list[str]:
    """Where the rewards rank a worse kind of failure above a better one (OUTCOME_ORDER):
    allowed (a recipe may mean it), but worth a warning."""
    level = {o: i for i, group in enumerate(OUTCOME_ORDER) for o in group}
    rewards = recipe.rewards
    found = []
    for worse in sorted(rewards, key=lambda o: (level.get(o, 99), o)):
        for better in sorted(rewards, key=lambda o: (level.get(o, 99), o)):
            if level.get(better, 99) < level.get(worse, 99) and rewards[worse] > rewards[better]:
                found.append(
                    f"{recipe.name}: [rewards] {worse} = {rewards[worse]:g} is above "
                    f"{better} = {rewards[better]:g}, though {worse} is the worse outcome"
                )
    return found


def _section(kind: type, data: Mapping[str, Any], name: str, where: str) -> Any:
    values = dict(data.get(name, {}))
    names = {f.name for f in dataclasses.fields(kind)}
    unknown = set(values) - names
    if unknown:
        raise RecipeError(f"{where}: [{name}] has unknown key(s) {sorted(unknown)}")
    try:
        return kind(**values)
    except TypeError as exc:
        raise RecipeError(f"{where}: [{name}]: {exc}") from None


def _check(recipe: Recipe, where: str) -> None:
    g, lim = recipe.grouping, recipe.limits
    if g.dedup not in ("ast", "exact", "none"):
        raise RecipeError(
            f"{where}: [grouping] dedup must be 'ast', 'exact' or 'none', not {g.dedup!r}"
        )
    if g.min_correct < 1 or g.min_incorrect < 1:
        raise RecipeError(f"{where}: [grouping] a group needs at least 1 correct and 1 incorrect")
    if g.max_correct_per_problem < g.min_correct:
        raise RecipeError(f"{where}: [grouping] max_correct_per_problem < min_correct")
    if lim.on_error not in ("reject", "fail"):
        raise RecipeError(
            f"{where}: [limits] on_error must be 'reject' or 'fail', not {lim.on_error!r}"
        )
    if lim.max_source_bytes <= 0:
        raise RecipeError(f"{where}: [limits] max_source_bytes must be positive")


def load_recipe(path: str | Path | None = None) -> Recipe:
    """Load a recipe TOML file (the default recipe when `path` is None)."""
    path = Path(path) if path is not None else DEFAULT_RECIPE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecipeError(f"{path}: recipe file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"{path}: not valid TOML: {exc}") from None
    return Recipe.from_dict(data, where=str(path))
