"""Progress bars and summary tables on stderr (rich), shared by the long-running commands.

Manners, the same for every command: results on stdout, everything else (progress, summaries,
warnings) on stderr through `console`; `--quiet` silences stderr but errors; long work shows
a progress bar on a terminal and, piped or redirected into a log, a line every
`LOG_EVERY_S` seconds with the count, rate and ETA (`--no-progress` silences both); on a
terminal tables take its width, piped or redirected they take the width they need, never cut
to 80 columns.
"""

from __future__ import annotations

import sys
import time
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
    """Whether progress should be shown (a bar on a terminal, periodic lines in a log)."""
    if console.quiet:
        return False
    choice = _progress_choice[0]
    return True if choice is None else choice


def bars() -> bool:
    """A redrawn bar (a terminal, or --progress forced it), else periodic lines."""
    return console.is_terminal or _progress_choice[0] is True


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
        return Text(
            f"{per_second(task.completed / elapsed)} {self.unit}/s", style="progress.data.speed"
        )


LOG_EVERY_S = 30.0


class LogProgress:
    """Progress for a log file or a pipe: every LOG_EVERY_S seconds one line per task with
    done/total, percent, rate and ETA; nothing redrawn. Takes the calls rich's Progress
    takes from codelog (add_task, advance, update)."""

    def __init__(self, unit: str, every: float | None = None):
        self.unit = unit
        self.every = LOG_EVERY_S if every is None else every
        self._tasks: list[dict] = []
        self._last = 0.0

    def __enter__(self) -> LogProgress:
        self._last = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, total: float | None = None, **_: object) -> int:
        self._tasks.append(
            {"description": description, "total": total, "done": 0, "start": time.monotonic()}
        )
        return len(self._tasks) - 1

    def advance(self, task_id: int, advance: float = 1) -> None:
        self.update(task_id, advance=advance)

    def update(
        self,
        task_id: int,
        *,
        total: float | None = None,
        completed: float | None = None,
        advance: float | None = None,
        description: str | None = None,
        **fields: object,
    ) -> None:
        task = self._tasks[task_id]
        if "stats" in fields:  # the trainer's loss and reward figures
            task["stats"] = fields["stats"]
        if total is not None:
            task["total"] = total
        if completed is not None:
            task["done"] = completed
        if advance:
            task["done"] += advance
        if description is not None:
            task["description"] = description
        now = time.monotonic()
        if now - self._last >= self.every:
            self._last = now
            for each in self._tasks:
                say(self._line(each, now), style="dim")

    def _line(self, task: dict, now: float) -> str:
        done, total = task["done"], task["total"]
        elapsed = max(now - task["start"], 1e-9)
        rate = done / elapsed
        line = f"{task['description']}: {done:,.0f}"
        if total:
            line += f"/{total:,.0f} {self.unit} ({done / total:.0%})"
        else:
            line += f" {self.unit}"
        line += f", {per_second(rate)} {self.unit}/s, {_clock(elapsed)} elapsed"
        if total and rate > 0 and done < total:
            line += f", ETA {_clock((total - done) / rate)}"
        if task.get("stats"):
            line += f"; {task['stats']}"
        return line


def per_second(rate: float) -> str:
    """A rate as a person reads it: whole numbers from 10 up, two significant digits below
    (a step every 5 s is 0.2 steps/s, not 0)."""
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def rate_progress(unit: str = "rows", *, disable: bool = False) -> Progress | LogProgress:
    """A bar with done/total counts, percent, rate, elapsed and remaining time on a terminal;
    periodic lines with the same figures in a log (LogProgress)."""
    if not disable and not bars():
        return LogProgress(unit)
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
