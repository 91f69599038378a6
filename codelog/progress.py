"""Progress bars and summary tables on stderr (rich), shared by the long-running commands.

Manners, the same for every command: results on stdout, everything else (progress, summaries,
warnings) on stderr through `console`; `--quiet` silences stderr but errors; a progress bar
only on a terminal (and not with `--no-progress`); on a terminal tables take its width, piped
or redirected they take the width they need, never cut to 80 columns.
"""

from __future__ import annotations

import sys
from typing import TextIO

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

# Wide enough that no table is wrapped; rich pads a table to its own width, not this one.
PIPED_WIDTH = 1_000_000


def _width(stream: TextIO) -> int | None:
    try:
        return None if stream.isatty() else PIPED_WIDTH  # None: the terminal's width
    except (AttributeError, ValueError):  # a closed or odd stream
        return PIPED_WIDTH


console = Console(stderr=True, width=_width(sys.stderr))
_progress_choice: list[bool | None] = [None]


def configure(*, quiet: bool = False, progress: bool | None = None) -> None:
    """Set the manners of this process: `quiet` silences `console`; `progress` forces the
    bars on or off (None: on a terminal only)."""
    console.quiet = quiet
    console.width = _width(sys.stderr)  # type: ignore[assignment]  # None: the terminal's
    _progress_choice[0] = progress


def show_progress() -> bool:
    """Whether a progress bar should be drawn."""
    if console.quiet:
        return False
    choice = _progress_choice[0]
    return console.is_terminal if choice is None else choice


def result_console() -> Console:
    """A console on stdout for results (tables): the terminal's width, or unbounded when piped."""
    return Console(width=_width(sys.stdout))


def say(message: str, style: str | None = None) -> None:
    """A line of chatter on stderr, printed as it is (no markup: paths and recipe sections
    hold brackets), never wrapped."""
    console.print(message, style=style, markup=False, highlight=False, soft_wrap=True)


def warn(message: str) -> None:
    say(f"warning: {message}", style="yellow")


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
