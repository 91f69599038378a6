"""Recipes: every knob of a build or training run, loaded from TOML and validated once here."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from codelog.dialects import DIALECTS
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
class Dialects:
    """Which dialects a build keeps, per language that has them (codelog.dialects); rows of
    another dialect are rejected as `dialect`. `unknown`: rows whose original_language does not
    tell the dialect ("keep" them with dialect null, in groups of their own, or "reject")."""

    python: tuple[str, ...] = ("python3",)
    unknown: Literal["keep", "reject"] = "keep"

    def __post_init__(self) -> None:
        # TOML gives lists; a tuple keeps the recipe hashable and its dict form stable
        if isinstance(self.python, str):
            raise TypeError('python must be a list of dialects, e.g. ["python3"]')
        object.__setattr__(self, "python", tuple(self.python))

    def kept(self) -> dict[str, tuple[str, ...]]:
        """Language (lower case) -> the dialects kept."""
        return {lang: getattr(self, lang) for lang in DIALECTS}


@dataclass(frozen=True)
class Split:
    """The held-out split, by problem: a problem (with the problems CodeNet marks identical to
    it) is "test" when a seeded hash of its id falls under `test_fraction` (codelog.group.split)."""

    test_fraction: float = 0.1
    seed: int = 0  # its own seed: --seed (caps) can change without moving problems


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
    dialects: Dialects = field(default_factory=Dialects)
    split: Split = field(default_factory=Split)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, in a stable order: what the manifest stores and `from_dict` reads back."""
        return {
            "name": self.name,
            "statuses": dict(self.statuses),
            "rewards": dict(self.rewards),
            "grouping": dataclasses.asdict(self.grouping),
            "limits": dataclasses.asdict(self.limits),
            "prompt": dataclasses.asdict(self.prompt),
            "train": dataclasses.asdict(self.train),
            "dialects": {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in dataclasses.asdict(self.dialects).items()
            },
            "split": dataclasses.asdict(self.split),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "recipe") -> Recipe:
        known = {"name", "statuses", "rewards", "grouping", "limits", "prompt", "train"}
        known |= {"dialects", "split"}
        unknown = set(data) - known
        if unknown:
            raise RecipeError(f"{where}: unknown section(s) {sorted(unknown)}")
        statuses = dict(data.get("statuses", {}))
        rewards = {k: float(v) for k, v in data.get("rewards", {}).items()}
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
        recipe = cls(
            name=str(data.get("name", "unnamed")),
            statuses=MappingProxyType(statuses),
            rewards=MappingProxyType(rewards),
            grouping=_section(Grouping, data, "grouping", where),
            limits=_section(Limits, data, "limits", where),
            prompt=_section(Prompt, data, "prompt", where),
            train=_section(Train, data, "train", where),
            dialects=_section(Dialects, data, "dialects", where),
            split=_section(Split, data, "split", where),
        )
        _check(recipe, where)
        return recipe


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
    _check_dialects(recipe.dialects, where)
    fraction = recipe.split.test_fraction
    if isinstance(fraction, bool) or not isinstance(fraction, int | float) or not 0 <= fraction < 1:
        raise RecipeError(
            f"{where}: [split] test_fraction must be a number from 0 (no test split) up to "
            f"but not including 1, not {fraction!r}"
        )
    if isinstance(recipe.split.seed, bool) or not isinstance(recipe.split.seed, int):
        raise RecipeError(f"{where}: [split] seed must be an integer, not {recipe.split.seed!r}")


def _check_dialects(dialects: Dialects, where: str) -> None:
    for lang, kept in dialects.kept().items():
        unknown = [d for d in kept if d not in DIALECTS[lang]]
        if unknown:
            raise RecipeError(
                f"{where}: [dialects] {lang} names {unknown}, not dialects of {lang} "
                f"(one of {list(DIALECTS[lang])})"
            )
        if not kept:
            raise RecipeError(
                f"{where}: [dialects] {lang} keeps no dialect; list at least one of "
                f"{list(DIALECTS[lang])}"
            )
    if dialects.unknown not in ("keep", "reject"):
        raise RecipeError(
            f"{where}: [dialects] unknown must be 'keep' or 'reject', not {dialects.unknown!r}"
        )


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
