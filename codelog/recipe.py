"""Recipes: every knob of a build or training run, loaded from TOML and validated once here."""

from __future__ import annotations

import dataclasses
import math
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from codelog.dialects import DIALECTS
from codelog.errors import RecipeError
from codelog.outcomes import CODENET_STATUSES, OUTCOME_NAMES, UNSCORABLE

RECIPES_DIR = Path(__file__).parent / "recipes"
DEFAULT_RECIPE = RECIPES_DIR / "offline-rl-paper.toml"


@dataclass(frozen=True)
class Grouping:
    dedup: Literal["ast", "exact", "none"] = "ast"
    # Copies of one program with different outcomes (a flaky time limit, another interpreter):
    # "drop" them all (rejected as `verdict_conflict`), keep the "earliest" copy, or keep the
    # earliest copy of each outcome ("per_outcome"). Drop: the judge's label is not a reward.
    on_conflict: Literal["drop", "earliest", "per_outcome"] = "drop"
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
class PartialCredit:
    """A failed solution's reward plus `weight` x the share of tests it passed, where the
    judge logged it (`accuracy` "passed/total": AIZU, Codeforces' passedTestCount with
    --problems). 0, the default, leaves rewards as the outcome gives them."""

    weight: float = 0.0


@dataclass(frozen=True)
class Split:
    """The held-out split, by problem: a problem (with the problems CodeNet marks identical to
    it) is "test" when a seeded hash of its id falls under `test_fraction` (codelog.group.split)."""

    test_fraction: float = 0.1
    seed: int = 0  # its own seed: --seed (caps) can change without moving problems


@dataclass(frozen=True)
class Decontaminate:
    """Check the build's problems against benchmarks (codelog.contamination): a problem whose
    statement covers a benchmark problem's (or whose solution is a reference solution, by AST
    hash) moves to the test split (`action = "test"`) or has its rows rejected as
    `contaminated` (`"drop"`). Off while `benchmarks` is empty (the default)."""

    benchmarks: tuple[str, ...] = ()  # registry names or NAME:PATH (codelog.benchmarks)
    action: str = "test"  # "test" | "drop"
    ngram: int = 8  # tokens per n-gram
    threshold: float = 0.5  # share of the shorter statement covered (docs/contamination.md)
    max_df: int = 50  # n-grams in more statements than this are boilerplate
    min_shared: int = 3  # n-grams two statements must share, at least
    solutions: bool = True  # also join reference solutions' AST hashes with the build's


DECONTAMINATE_ACTIONS = ("test", "drop")


@dataclass(frozen=True)
class Train:
    """Knobs of `codelog train`; its command-line options override them (checked in codelog.training)."""

    group_size: int = 4  # solutions per group (one problem), at least one correct and one incorrect
    max_length: int = 2048  # tokens of prompt + solution; longer ones are truncated and counted
    algo: str = "rloo"  # advantage estimator: sft, rloo, grpo, exp (codelog.training.advantages)
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
    # the solutions' column rewards come from: "reward", or "reward_lint" (a dataset built
    # with [lint_reward] enabled: the outcome reward minus the lint penalty)
    reward: Literal["reward", "reward_lint"] = "reward"
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
class Experiment:
    """Knobs of `codelog experiment` (the paper's table: methods x benchmarks x pass@k); its
    command-line options override them. The model, steps and seed are [train]'s."""

    algos: tuple[str, ...] = ("base", "sft", "rloo", "grpo", "exp")  # rows; base = untrained
    # columns: "heldout" (the dataset's test split, as `train --eval-samples`), humaneval,
    # codenet:DIR or a problems .jsonl (what `codelog eval --benchmark` takes)
    benchmarks: tuple[str, ...] = ("heldout",)
    n: int = 10  # samples per problem
    k: tuple[int, ...] = (1, 10)  # pass@k for these k (each at most n)
    temperature: float = 0.8
    max_new_tokens: int = 512  # tokens per sample
    limit: int = 0  # problems per benchmark at most (the first by id); 0 = all


# --- other dataset kinds and reward shaping (issue 14) -----------------------------------------


@dataclass(frozen=True)
class Repairs:
    """Knobs of `codelog build --kind repair` (codelog.group.repairs has the rules, in order).

    The reward of a repair row, mirroring COBALT's clipped sum R_correct + R_improve + R_format:
        reward = clip(outcome_weight * r_outcome + pass_rate_weight * pass_rate
                      + improve_weight * reward_improve - format_penalty * [target does not parse],
                      reward_min, reward_max)
        reward_improve = clip(pass_rate - best pass rate in the context, improve_min, improve_max)
    """

    horizon: int = 3  # most attempts a row spans, context and target together (COBALT: <= 3 turns)
    long_trajectories: Literal["truncate", "window"] = "truncate"
    dedup: Literal["ast", "exact", "none"] = "ast"  # consecutive identical attempts fold into one
    end_at_accepted: bool = True  # a trajectory ends at its first accepted attempt
    require_correct: bool = True  # keep only trajectories that reach an accepted attempt
    max_trajectories_per_problem: int = 4  # max-variance down-sampling; 0 = no cap
    outcome_weight: float = 1.0
    pass_rate_weight: float = 0.0
    improve_weight: float = 1.0
    improve_min: float = 0.0
    improve_max: float = 1.0
    format_penalty: float = 0.0
    reward_min: float = -1.0
    reward_max: float = 1.0
    perturb_fraction: float = 0.0  # seeded share of rows copied with a wrong verdict in context
    instruction: str = "Write a corrected {language} program."


# Ruff rule-code prefix -> severity class; the longest matching prefix decides, "style" otherwise.
DEFAULT_LINT_SEVERITY = {
    "invalid-syntax": "error",
    "E9": "error",
    "F63": "error",
    "F7": "error",
    "F82": "error",
    "F": "warning",
    "B": "warning",
    "E": "style",
    "W": "style",
}
LINT_SEVERITIES = ("error", "warning", "style")


@dataclass(frozen=True)
class Lint:
    """Ruff's findings on every kept Python solution, as columns (codelog.stage.lint)."""

    enabled: bool = False
    select: tuple[str, ...] = ("E", "W", "F", "B")
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_LINT_SEVERITY))


@dataclass(frozen=True)
class LintReward:
    """The outcome reward shaped by a lint penalty (the RLVR + Ruff seed's combined reward):

        reward_lint = reward - min(cap, weight * n)

    n: the solution's Ruff findings whose rule code starts with one of `categories`.
    """

    enabled: bool = False
    weight: float = 0.05
    cap: float = 0.5
    categories: tuple[str, ...] = ("E", "W", "F", "B", "invalid-syntax")


@dataclass(frozen=True)
class Recipe:
    name: str
    statuses: Mapping[str, str]
    rewards: Mapping[str, float]
    grouping: Grouping = field(default_factory=Grouping)
    limits: Limits = field(default_factory=Limits)
    prompt: Prompt = field(default_factory=Prompt)
    train: Train = field(default_factory=Train)
    repairs: Repairs = field(default_factory=Repairs)
    lint: Lint = field(default_factory=Lint)
    lint_reward: LintReward = field(default_factory=LintReward)
    # The data's license for the dataset card (an SPDX-style id, e.g. "mit"), for sources that
    # do not fix it (CI, JUnit; CodeNet is cdla-permissive-2.0); `build --license` overrides it.
    license: str | None = None
    dialects: Dialects = field(default_factory=Dialects)
    split: Split = field(default_factory=Split)
    decontaminate: Decontaminate = field(default_factory=Decontaminate)
    partial_credit: PartialCredit = field(default_factory=PartialCredit)
    # [experiment]: absent from the default recipe, so manifests of builds without it are
    # unchanged (to_dict leaves it out when unset)
    experiment: Experiment | None = None

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
            "repairs": dataclasses.asdict(self.repairs),
            "lint": {
                "enabled": self.lint.enabled,
                "select": list(self.lint.select),
                "ignore": list(self.lint.ignore),
                "severity": dict(self.lint.severity),
            },
            "lint_reward": {
                **dataclasses.asdict(self.lint_reward),
                "categories": list(self.lint_reward.categories),
            },
            "dialects": {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in dataclasses.asdict(self.dialects).items()
            },
            "split": dataclasses.asdict(self.split),
        }
        if self.partial_credit.weight:  # absent when off: older manifests stay as they were
            data["partial_credit"] = dataclasses.asdict(self.partial_credit)
        if self.license is not None:  # absent when unset: older manifests stay as they were
            data["license"] = self.license
        if self.experiment is not None:
            data["experiment"] = {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in dataclasses.asdict(self.experiment).items()
            }
        if self.decontaminate.benchmarks:  # absent when off, as license
            data["decontaminate"] = {
                **dataclasses.asdict(self.decontaminate),
                "benchmarks": list(self.decontaminate.benchmarks),
            }
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "recipe") -> Recipe:
        known = {"name", "statuses", "rewards", "grouping", "limits", "prompt", "train", "license"}
        known |= {"repairs", "lint", "lint_reward", "dialects", "split", "experiment"}
        known |= {"decontaminate", "partial_credit"}
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
            repairs=_section(Repairs, data, "repairs", where),
            lint=_lint_section(data, where),
            lint_reward=_section(
                LintReward, _tuples(data, "lint_reward", ("categories",)), "lint_reward", where
            ),
            license=check_license(data["license"], where) if "license" in data else None,
            dialects=_section(Dialects, data, "dialects", where),
            split=_section(Split, data, "split", where),
            decontaminate=_section(
                Decontaminate,
                _tuples(data, "decontaminate", ("benchmarks",)),
                "decontaminate",
                where,
            ),
            experiment=_experiment_section(data, where) if "experiment" in data else None,
            partial_credit=_section(PartialCredit, data, "partial_credit", where),
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
# `incorrect` (a failure of unknown kind) is on no level: it may be any of the failures above.


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
    ranked = sorted((o for o in rewards if o in level), key=lambda o: (level[o], o))
    for worse in ranked:
        for better in ranked:
            if level[better] < level[worse] and rewards[worse] > rewards[better]:
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
    hints = typing.get_type_hints(kind)
    for key, value in values.items():
        expected = _type_name(hints[key], value)
        if expected:
            raise RecipeError(f"{where}: [{name}] {key} = {value!r} must be {expected}")
    try:
        return kind(**values)
    except TypeError as exc:
        raise RecipeError(f"{where}: [{name}]: {exc}") from None


_TYPE_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}


def _type_name(hint: Any, value: Any) -> str | None:
    """None when `value` has the type `hint` names, else what the type is called (for the
    error). Checked when the recipe is loaded: a string where a number belongs would otherwise
    surface as a TypeError deep in a build or a training step. The allowed values of a
    Literal are checked by `_check`, with their own messages."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        kinds = {type(a) for a in args}
        return None if type(value) in kinds else _TYPE_NAMES.get(next(iter(kinds)), "valid")
    if origin in (types.UnionType, typing.Union):
        if any(_type_name(a, value) is None for a in args):
            return None
        return " or ".join(_type_name(a, value) or "" for a in args if a is not type(None))
    if hint is type(None):
        return None if value is None else "absent"
    if origin is tuple or hint is tuple:
        return None if isinstance(value, list | tuple) else "a list"
    if origin in (Mapping, dict) or hint in (Mapping, dict):
        return None if isinstance(value, Mapping) else "a table"
    if hint is bool:
        return None if isinstance(value, bool) else _TYPE_NAMES[bool]
    if hint is int:
        return None if isinstance(value, int) and not isinstance(value, bool) else "an integer"
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return None if ok else "a number"
    if hint is str:
        return None if isinstance(value, str) else "a string"
    return None


def _tuples(data: Mapping[str, Any], name: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    """`data` with the lists under [name] `keys` as tuples (the dataclasses are frozen)."""
    section = dict(data.get(name, {}))
    for key in keys:
        if key in section:
            if isinstance(section[key], str) or not isinstance(section[key], list | tuple):
                raise RecipeError(f"[{name}] {key} must be a list of strings")
            section[key] = tuple(str(v) for v in section[key])
    return {**data, name: section}


def _experiment_section(data: Mapping[str, Any], where: str) -> Experiment:
    section = _tuples(data, "experiment", ("algos", "benchmarks"))["experiment"]
    k = section.get("k", Experiment.k)
    if isinstance(k, int) and not isinstance(k, bool):
        k = [k]
    if not isinstance(k, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in k
    ):
        raise RecipeError(f"{where}: [experiment] k must be a list of integers, not {k!r}")
    experiment = _section(
        Experiment, {"experiment": {**section, "k": tuple(k)}}, "experiment", where
    )
    e = experiment
    problems = [
        (not e.algos, "algos must name at least one method"),
        (len(set(e.algos)) != len(e.algos), f"algos {list(e.algos)} names a method twice"),
        (not e.benchmarks, "benchmarks must name at least one benchmark"),
        (not isinstance(e.n, int) or e.n < 1, f"n = {e.n!r} must be at least 1"),
        (not e.k or min(e.k) < 1 or max(e.k) > e.n, f"k = {list(e.k)} must be within 1..n ({e.n})"),
        (not e.temperature >= 0, f"temperature = {e.temperature!r} must be >= 0"),
        (
            not isinstance(e.max_new_tokens, int) or e.max_new_tokens < 1,
            "max_new_tokens must be >= 1",
        ),
        (
            not isinstance(e.limit, int) or e.limit < 0,
            f"limit = {e.limit!r} must be >= 0 (0 = all)",
        ),
    ]
    for bad, why in problems:
        if bad:
            raise RecipeError(f"{where}: [experiment] {why}")
    return experiment


def _lint_section(data: Mapping[str, Any], where: str) -> Lint:
    lint = _section(Lint, _tuples(data, "lint", ("select", "ignore")), "lint", where)
    severity = dict(lint.severity)
    bad = {k: v for k, v in severity.items() if v not in LINT_SEVERITIES}
    if bad:
        raise RecipeError(
            f"{where}: [lint.severity] values must be one of {list(LINT_SEVERITIES)}: {bad}"
        )
    return dataclasses.replace(lint, severity=MappingProxyType(severity))


def _check(recipe: Recipe, where: str) -> None:
    g, lim = recipe.grouping, recipe.limits
    weight = recipe.partial_credit.weight
    if isinstance(weight, bool) or not isinstance(weight, int | float) or weight < 0:
        raise RecipeError(f"{where}: [partial_credit] weight must be a number >= 0, not {weight!r}")
    best_failure = max((r for o, r in recipe.rewards.items() if o != "accepted"), default=None)
    accepted = recipe.rewards.get("accepted")
    if weight and None not in (best_failure, accepted) and best_failure + weight >= accepted:
        raise RecipeError(
            f"{where}: [partial_credit] weight = {weight:g}: a failure passing every test "
            f"would earn {best_failure + weight:g}, not below accepted = {accepted:g}"
        )
    if g.dedup not in ("ast", "exact", "none"):
        raise RecipeError(
            f"{where}: [grouping] dedup must be 'ast', 'exact' or 'none', not {g.dedup!r}"
        )
    if g.on_conflict not in ("drop", "earliest", "per_outcome"):
        raise RecipeError(
            f"{where}: [grouping] on_conflict must be 'drop', 'earliest' or 'per_outcome', "
            f"not {g.on_conflict!r}"
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
    _check_kinds(recipe, where)
    _check_decontaminate(recipe.decontaminate, where)


def _check_decontaminate(d: Decontaminate, where: str) -> None:
    problems = [
        (
            d.action not in DECONTAMINATE_ACTIONS,
            f"[decontaminate] action must be 'test' or 'drop', not {d.action!r}",
        ),
        (
            isinstance(d.ngram, bool) or not isinstance(d.ngram, int) or d.ngram < 1,
            f"[decontaminate] ngram must be a positive integer, not {d.ngram!r}",
        ),
        (
            isinstance(d.threshold, bool)
            or not isinstance(d.threshold, int | float)
            or not 0 < d.threshold <= 1,
            f"[decontaminate] threshold must be a number in (0, 1], not {d.threshold!r}",
        ),
        (
            isinstance(d.max_df, bool) or not isinstance(d.max_df, int) or d.max_df < 2,
            f"[decontaminate] max_df must be an integer of at least 2, not {d.max_df!r}",
        ),
        (
            isinstance(d.min_shared, bool) or not isinstance(d.min_shared, int) or d.min_shared < 1,
            f"[decontaminate] min_shared must be a positive integer, not {d.min_shared!r}",
        ),
        (
            not isinstance(d.solutions, bool),
            f"[decontaminate] solutions must be true or false, not {d.solutions!r}",
        ),
    ]
    for bad, message in problems:
        if bad:
            raise RecipeError(f"{where}: {message}")


def _check_kinds(recipe: Recipe, where: str) -> None:
    r, lr = recipe.repairs, recipe.lint_reward
    problems = [
        (r.horizon < 2, "[repairs] horizon must be at least 2 (one attempt, then the next)"),
        (
            r.long_trajectories not in ("truncate", "window"),
            f"[repairs] long_trajectories must be 'truncate' or 'window', not {r.long_trajectories!r}",
        ),
        (
            r.dedup not in ("ast", "exact", "none"),
            f"[repairs] dedup must be 'ast', 'exact' or 'none', not {r.dedup!r}",
        ),
        (r.max_trajectories_per_problem < 0, "[repairs] max_trajectories_per_problem must be >= 0"),
        (r.improve_min > r.improve_max, "[repairs] improve_min > improve_max"),
        (r.reward_min > r.reward_max, "[repairs] reward_min > reward_max"),
        (r.format_penalty < 0, "[repairs] format_penalty must be >= 0"),
        (not 0 <= r.perturb_fraction <= 1, "[repairs] perturb_fraction must be in [0, 1]"),
        (not recipe.lint.select, "[lint] select names no rule"),
        (lr.weight < 0 or lr.cap < 0, "[lint_reward] weight and cap must be >= 0"),
        (lr.enabled and not recipe.lint.enabled, "[lint_reward] needs [lint] enabled = true"),
    ]
    for bad, message in problems:
        if bad:
            raise RecipeError(f"{where}: {message}")


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
    """Load a recipe TOML file, layered over the default recipe (the default when `path` is
    None), and check every value: a bad one fails here, before a build reads anything.

    A file holds only what it changes: a section it names is merged key by key over the
    default's (a file with only `[rewards] wrong_answer = -0.2` keeps every status, grouping
    rule and split of the default), and a section it leaves out is the default's. The
    resolved recipe is what the manifest stores.
    """
    default = _read_toml(DEFAULT_RECIPE)
    if path is None or Path(path).resolve() == DEFAULT_RECIPE.resolve():
        return Recipe.from_dict(default, where=str(DEFAULT_RECIPE))
    path = Path(path)
    data = _read_toml(path)
    layered = _layered(default, data)
    layered["name"] = str(data.get("name", path.stem))
    return Recipe.from_dict(layered, where=str(path))


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecipeError(f"{path}: recipe file not found") from None
    except IsADirectoryError:
        raise RecipeError(f"{path}: is a directory, not a recipe file") from None
    except UnicodeDecodeError as exc:
        raise RecipeError(f"{path}: not UTF-8 text: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"{path}: not valid TOML: {exc}") from None


def _layered(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """`over` merged into `base`: tables key by key (recursively), everything else replaced."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), Mapping):
            merged[key] = _layered(base[key], value)
        else:
            merged[key] = value
    return merged


def verdict_rewards(recipe: Recipe) -> dict[str, float]:
    """The recipe's reward of each CodeNet verdict ("Accepted": 1.0, ...)."""
    return {
        status: recipe.rewards[outcome]
        for status in CODENET_STATUSES
        if (outcome := recipe.statuses.get(status)) in recipe.rewards
    }
