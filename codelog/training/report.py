"""What a run tells its user: metrics.jsonl, the trackers of `--report-to`, the progress bar, the
summary.

metrics.jsonl is always written. `--report-to tensorboard` and `--report-to wandb` (several: a
comma-separated list) also send every numeric metric to those trackers, as TRL's `report_to`
does; each is an optional extra, imported only when asked for.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codelog.progress import LogProgress, bars, console
from codelog.training.options import TrainingError
from codelog.uncertainty import (
    BETTER,
    NOISE,
    WORSE,
    Difference,
    mean_and_stderr,
    paired,
    plus_minus,
    t_quantile,
)

REPORTERS = {"tensorboard", "wandb"}


@dataclass(frozen=True)
class RunResult:
    run_dir: Path
    steps: int
    checkpoint: Path
    margin_before: float | None
    margin_after: float | None
    sequences: int
    truncated: int
    padding_waste: float  # of the positions the model ran, the share that was padding
    seconds: float
    step_seconds: float | None = None  # mean wall time of the steps this call ran
    heldout: dict[str, float] | None = None  # the held-out evaluation at the end
    # TrainOptions.evaluators' figures by name (e.g. "pass@k"), at the start and at the end
    evaluations_before: dict[str, dict[str, float]] = field(default_factory=dict)
    evaluations_after: dict[str, dict[str, float]] = field(default_factory=dict)
    rank: int = 0  # under torchrun, only rank 0 prints the summary
    # the margin on (up to TRAIN_EVAL_GROUPS) groups the run trains on, at the start and the end
    train_margin_before: float | None = None
    train_margin_after: float | None = None
    train_groups: int = 0  # how many training groups that margin is measured on
    model: str = ""  # the recipe's --model ("tiny": the 2-layer model built on the dataset)
    # the held-out evaluation at the start, as `heldout` at the end: each group's margin at
    # both ends gives the change's paired standard error (None: not measured, or a run resumed
    # from a checkpoint that predates it)
    heldout_before: dict[str, Any] | None = None
    tokens: int = 0  # the sequences' tokens, each whole
    computed_tokens: int = 0  # the positions the model ran, padding left out (each prompt once)


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


def step_record(
    step: int, sums: dict[str, float], batch: Any, index: Any, kl: bool, truncated_total: int
) -> dict[str, Any]:
    """The metrics.jsonl line of a step: `sums` over the ranks, the rest from the step's groups
    (which every rank knows)."""
    a, tokens, padded = batch.advantages, int(sums["tokens"]), int(sums["padded_tokens"])
    computed = int(sums["computed_tokens"])
    return {
        "event": "step",
        "step": step,
        "loss": sums["loss"],
        **({"kl": sums["kl"]} if kl else {}),
        "reward_mean": float(batch.rewards.mean()),
        "correct_frac": float(batch.is_correct.mean()),
        "adv_mean": float(a.mean()),
        "adv_std": float(a.std()),
        "adv_min": float(a.min()),
        "adv_max": float(a.max()),
        "logp_token": sums["logp_sum"] / max(sums["logp_tokens"], 1),
        "tokens": tokens,
        "padded_tokens": padded,
        "computed_tokens": computed,
        "padding_waste": 1 - computed / max(padded, 1),
        "micro_batches": int(sums["micro_batches"]),
        "truncated": int(sums["truncated"]),
        "truncated_total": truncated_total,
        "problems": [index.keys[g][0] for g, _ in batch.groups],
    }


def parse_report_to(value: str | tuple[str, ...] | None) -> tuple[str, ...]:
    """ "none", "tensorboard", "wandb" or a comma-separated list of the last two."""
    if value is None:
        return ()
    names = value.split(",") if isinstance(value, str) else list(value)
    names = [n.strip() for n in names if n.strip() and n.strip() != "none"]
    unknown = sorted(set(names) - REPORTERS)
    if unknown:
        raise TrainingError(
            f"--report-to: unknown {unknown}; choose none, tensorboard or wandb (or a list)"
        )
    return tuple(dict.fromkeys(names))


def _require(module: str, extra: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise TrainingError(
            f"--report-to {what} needs the `{extra}` package: pip install 'codelog[{extra}]'"
        ) from None


class MetricsLog:
    """metrics.jsonl plus the `--report-to` trackers. `enabled=False` (ranks other than 0) writes
    nothing at all."""

    def __init__(
        self,
        path: Path,
        report_to: tuple[str, ...] = (),
        config: dict[str, Any] | None = None,
        enabled: bool = True,
    ):
        self.path, self.enabled = path, enabled
        self.tensorboard = self.wandb = None
        if not enabled:
            return
        if "tensorboard" in report_to:
            _require("tensorboard", "tensorboard", "tensorboard")
            from torch.utils.tensorboard import SummaryWriter

            self.tensorboard = SummaryWriter(log_dir=str(path.parent / "tensorboard"))
        if "wandb" in report_to:
            wandb = _require("wandb", "wandb", "wandb")
            run_dir = path.parent.resolve()
            # one W&B run per run directory, so --resume continues the same W&B run
            run_id = hashlib.sha256(str(run_dir).encode()).hexdigest()[:16]
            self.wandb = wandb.init(
                project="codelog",
                name=run_dir.name,
                id=run_id,
                resume="allow",
                dir=str(run_dir),
                config=config or {},
            )

    def write(self, record: dict[str, Any]) -> None:
        if not self.enabled:
            return
        append_jsonl(self.path, record)
        numbers = {
            k: v
            for k, v in record.items()
            if isinstance(v, int | float) and not isinstance(v, bool) and k != "step"
        }
        prefix = record["event"] if record["event"] != "eval" else f"eval/{record.get('name', '')}"
        prefix = prefix.rstrip("/")
        if self.tensorboard is not None:
            for k, v in numbers.items():
                self.tensorboard.add_scalar(f"{prefix}/{k}", v, record["step"])
            self.tensorboard.flush()
        if self.wandb is not None:
            self.wandb.log({f"{prefix}/{k}": v for k, v in numbers.items()}, step=record["step"])

    def close(self) -> None:
        if self.tensorboard is not None:
            self.tensorboard.close()
        if self.wandb is not None:
            self.wandb.finish()


class ProgressBar:
    """A rich progress bar showing loss, reward and advantage stats (nothing when disabled)."""

    def __init__(self, enabled: bool, start: int, total: int):
        self.progress = None
        if enabled and not bars():  # piped or logged: a line every LOG_EVERY_S seconds
            self.progress = LogProgress("steps")
            self.task = self.progress.add_task("train", total=total)
            self.progress.update(self.task, completed=start)
        elif enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.progress = Progress(
                TextColumn("[bold]train"),
                BarColumn(bar_width=24),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.fields[stats]}"),
                console=console,
            )
            self.progress.start()
            self.task = self.progress.add_task("train", total=total, completed=start, stats="")

    def update(self, step: int, r: dict[str, Any]) -> None:
        if self.progress:
            stats = (
                f"loss {r['loss']:+.4f}  reward {r['reward_mean']:+.2f}  "
                f"adv {r['adv_mean']:+.2f}±{r['adv_std']:.2f}  logp/tok {r['logp_token']:.3f}"
            )
            self.progress.update(self.task, completed=step, stats=stats)

    def close(self) -> None:
        if isinstance(self.progress, LogProgress):
            return
        if self.progress:
            self.progress.stop()


def print_summary(result: RunResult) -> None:
    """What the run did, on stderr: where it is, held-out margin, truncation, padding waste."""
    if result.rank != 0:
        return
    margin = (
        _before_after(result.margin_before, result.margin_after, _margins(result, ""))
        if result.margin_before is not None and result.margin_after is not None
        else "not measured (no held-out groups; see --eval-fraction)"
    )
    console.print(
        f"[bold]codelog train[/] -> {result.run_dir}  ({result.steps} steps, {result.seconds:.1f}s)"
    )
    console.print(f"  checkpoint                {result.checkpoint}")
    if result.step_seconds is not None:
        console.print(f"  time per step             {result.step_seconds:.2f} s")
    console.print(f"  held-out margin (logp/tok correct - incorrect)  {margin}")
    if result.train_margin_before is not None and result.train_margin_after is not None:
        fit = _before_after(
            result.train_margin_before, result.train_margin_after, _margins(result, "train_")
        )
        console.print(f"  margin on training groups {fit}")
    if result.heldout:
        h = result.heldout
        console.print(
            f"  held-out logp/tok         correct {h['logp_correct']:+.4f}, "
            f"incorrect {h['logp_incorrect']:+.4f} ({h['groups']} groups, "
            f"{h['solutions']} solutions)"
        )
    for name, after in result.evaluations_after.items():
        before = result.evaluations_before.get(name, {})
        counts = ", ".join(
            f"{after[k]} {k}" for k in ("problems", "samples", "accepted") if k in after
        )
        for key in (k for k in after if k.startswith("pass@")):
            start = f"{before[key]:.4f} -> " if key in before else ""
            label = key if name == "pass@k" else f"{name} {key}"
            console.print(f"  {label:<25} {start}{after[key]:.4f} ({counts})")
    if result.computed_tokens and result.computed_tokens < result.tokens:
        console.print(
            f"  each prompt once          ran {result.computed_tokens:,} of the sequences' "
            f"{result.tokens:,} tokens ({result.computed_tokens / result.tokens:.0%})"
        )
    console.print(f"  padding waste             {result.padding_waste:.1%}")
    style = "yellow" if result.truncated else ""
    console.print(
        f"  truncated to max_length   {result.truncated} of {result.sequences} sequences",
        style=style,
    )
    for line in conclusions(result):
        console.print(line, soft_wrap=True)


def _margins(result: RunResult, prefix: str) -> tuple[list[float], list[float], float] | None:
    """Each group's margin at the start and the end, and the smallest change they resolve (the
    held-out groups: prefix ""; the training groups: "train_"); None when not kept."""
    before, after = result.heldout_before or {}, result.heldout or {}
    key = f"{prefix}group_margins"
    if key not in before or key not in after or len(before[key]) != len(after[key]):
        return None
    resolution = max(before.get(f"{prefix}resolution", 0.0), after.get(f"{prefix}resolution", 0.0))
    return before[key], after[key], resolution


def _before_after(
    before: float, after: float, groups: tuple[list[float], list[float], float] | None
) -> str:
    """ "-0.0142 ± 0.0106 -> +0.2269 ± 0.0412": each margin ± its standard error over the
    groups it averages (none below two groups, or when the groups were not kept)."""
    return " -> ".join(
        plus_minus(margin, mean_and_stderr(each)[1] if groups else None)
        for margin, each in zip((before, after), groups[:2] if groups else ((), ()), strict=True)
    )


def _change(result: RunResult, prefix: str) -> Difference | None:
    """The margin's paired change over the groups measured at both ends."""
    groups = _margins(result, prefix)
    return paired(*groups) if groups and groups[0] else None


def _judged(result: RunResult, prefix: str) -> tuple[str, Difference | None, str]:
    """The change's word (codelog.uncertainty), the change, and its size (unsigned) ± its
    standard error."""
    change = _change(result, prefix)
    if change is None:
        return NOISE, None, ""
    return change.word, change, plus_minus(abs(change.mean), change.stderr).lstrip("+")


def _groups(n: int, what: str) -> str:
    return f"{n} {what}group{'s' if n != 1 else ''}"


def _why_noise(change: Difference | None, groups: int, what: str) -> str:
    """Why a change is not shown: its figures against its noise, and what would show it."""
    if change is None or change.stderr is None:
        if groups < 2:
            return "a change needs at least 2 groups to be told from noise"
        return (
            "the groups' margins at the start were not kept (a run resumed from an older "
            "checkpoint), so the change cannot be told from noise"
        )
    figures = (
        f"the change, {plus_minus(change.mean, change.stderr)} nats/token (± the standard error "
        f"of the paired difference over the {_groups(change.n, what)}), is within noise"
    )
    if abs(change.mean) <= change.resolution:
        return (
            f"{figures}: no larger than the float32 rounding of the log-probs it is made of "
            f"({change.resolution:.1e})"
        )
    figures += f": it would need to exceed {t_quantile(change.n - 1):.2f} standard errors"
    needed = change.needed()
    if needed is not None and needed > change.n:
        figures += f"; about {needed} {what}groups at this spread would show a change this size"
    return figures


def conclusions(result: RunResult) -> list[str]:
    """Plain sentences on what the run's numbers show and what they do not (the summary's end).

    A change is shown only when its 95% interval leaves out zero (codelog.uncertainty: the
    paired difference per group, Student's t over the groups: more than 2.04 standard errors
    on up to 32 training groups) and it is larger than the float32 rounding of the log-probs;
    otherwise the sentence gives the change and its standard error, calls it noise, and says
    how many groups would show a change that size."""
    lines = []
    fit = (result.train_margin_before, result.train_margin_after)
    held = (result.margin_before, result.margin_after)
    groups = _groups(result.train_groups, "training ")
    if fit[0] is not None and fit[1] is not None:
        figures = f"{fit[0]:+.4f} -> {fit[1]:+.4f} nats/token"
        word, change, by = _judged(result, "train_")
        if word == BETTER:
            lines.append(
                f"Shown: on the {groups} it trains on, the margin of correct over incorrect "
                f"solutions rose by +{by} ({figures}; ± the standard error of the paired "
                "difference per group): the model learns from these rewards."
            )
        elif word == WORSE:
            lines.append(
                f"Not shown: on the {groups} it trains on, the margin of correct over incorrect "
                f"solutions fell by {by} ({figures}), beyond noise; more steps or another --lr "
                "may."
            )
        else:
            lines.append(
                f"Not shown: on the {groups} it trains on, the margin of correct over incorrect "
                f"solutions went {figures}; {_why_noise(change, result.train_groups, 'training ')}"
                ". More steps or another --lr may."
            )
    if held[0] is not None and held[1] is not None:
        heldout = result.heldout["groups"] if result.heldout else 0
        where = _groups(heldout, "held-out ")
        figures = f"{held[0]:+.4f} -> {held[1]:+.4f}"
        word, change, by = _judged(result, "")
        if word == BETTER:
            lines.append(
                f"Shown: on {where} it rose too, by +{by} ({figures}): it carries over to "
                "solutions the run never saw."
            )
        elif word == WORSE:
            lines.append(
                f"Not shown: transfer. On {where} the margin fell by {by} ({figures}), beyond "
                "noise."
            )
        elif heldout < 2:
            lines.append(
                f"Not shown: transfer. On {where} the margin went {figures}; {where} cannot "
                "show transfer at all (a standard error over groups needs at least 2): a "
                "dataset with more test problems can."
            )
        else:
            lines.append(
                f"Not shown: transfer. On {where} the margin went {figures}; "
                f"{_why_noise(change, heldout, 'held-out ')}."
            )
    passes = [
        after[k]
        for after in result.evaluations_after.values()
        for k in after
        if k.startswith("pass@")
    ]
    if passes and not any(passes) and result.model == "tiny":
        lines.append(
            "Not shown: a working program. pass@k is 0 because the tiny model (2 layers, hidden "
            "size 64, trained from scratch on this dataset's code) has too little capacity and "
            "data to learn to program; the figure shows sampling, the sandbox and pass@k "
            "working end to end. A real model: --model NAME, or make demo-real."
        )
    return lines
