"""What a run tells its user: metrics.jsonl, the progress bar, the summary."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codelog.progress import console


@dataclass(frozen=True)
class RunResult:
    run_dir: Path
    steps: int
    checkpoint: Path
    margin_before: float | None
    margin_after: float | None
    sequences: int
    truncated: int
    padding_waste: float
    seconds: float


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


class ProgressBar:
    """A rich progress bar showing loss, reward and advantage stats (nothing when disabled)."""

    def __init__(self, enabled: bool, start: int, total: int):
        self.progress = None
        if enabled:
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
        if self.progress:
            self.progress.stop()


def print_summary(result: RunResult) -> None:
    """What the run did, on stderr: where it is, held-out margin, truncation, padding waste."""
    margin = (
        f"{result.margin_before:+.4f} -> {result.margin_after:+.4f}"
        if result.margin_before is not None and result.margin_after is not None
        else "not measured (no held-out groups; see --eval-fraction)"
    )
    console.print(
        f"[bold]codelog train[/] -> {result.run_dir}  ({result.steps} steps, {result.seconds:.1f}s)"
    )
    console.print(f"  checkpoint                {result.checkpoint}")
    console.print(f"  held-out margin (logp/tok correct - incorrect)  {margin}")
    console.print(f"  padding waste             {result.padding_waste:.1%}")
    style = "yellow" if result.truncated else ""
    console.print(
        f"  truncated to max_length   {result.truncated} of {result.sequences} sequences",
        style=style,
    )
