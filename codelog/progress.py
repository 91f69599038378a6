"""Progress bars and summary tables on stderr (rich), shared by the long-running commands."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

console = Console(stderr=True)


class RateColumn(ProgressColumn):
    """Items per second, in the task's own unit."""

    def __init__(self, unit: str):
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        # The mean over the whole task: work arrives in batches, so rich's windowed estimate
        # jumps between zero and absurd values.
        elapsed = task.finished_time if task.finished else task.elapsed
        if not elapsed or not task.completed:
            return Text("")
        return Text(f"{task.completed / elapsed:,.0f} {self.unit}/s", style="progress.data.speed")


def rate_progress(unit: str = "rows", *, disable: bool = False) -> Progress:
    """A bar with done/total counts, percent, rate, elapsed and remaining time."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        RateColumn(unit),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=disable,
    )
