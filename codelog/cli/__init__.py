"""The `codelog` command line: parses options, calls the library, prints summaries.

One module per family of commands (build, dataset, train, run, experiment), all on the group in
`common`; `main` turns what escapes a command into one line and an exit status.

Heavy imports (duckdb, torch) happen inside the commands so `codelog --help` stays instant.
Manners shared by every command (codelog.progress): results on stdout, chatter on stderr,
`--quiet`, `--no-progress`; errors are one `error:` line and a non-zero exit.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from codelog.cli import build as _build_commands  # noqa: F401  (each module registers its commands)
from codelog.cli import contamination as _contamination_commands  # noqa: F401
from codelog.cli import dataset as _dataset_commands  # noqa: F401
from codelog.cli import experiment as _experiment_commands  # noqa: F401
from codelog.cli import run as _run_commands  # noqa: F401
from codelog.cli import train as _train_commands  # noqa: F401
from codelog.cli.build import build
from codelog.cli.common import SIGNALLED, Interrupted, Terminated, cli, interrupt, terminate
from codelog.errors import CodelogError

__all__ = ["build", "cli", "main"]


def main() -> None:
    SIGNALLED.clear()
    signal.signal(signal.SIGTERM, terminate)  # SIGTERM unwinds like Ctrl-C: cleanup, then 143
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, interrupt)  # the same, recorded (not where SIGINT is ignored)
    try:
        cli(standalone_mode=False)
    except Interrupted as exc:
        kind = "Terminated" if exc.status == 143 else "Interrupted"
        click.echo(f"{kind}: {exc}", err=True)
        sys.exit(exc.status)
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        # click turns KeyboardInterrupt (Terminated too) into Abort, keeping it as the cause
        terminated = isinstance(exc, Terminated) or isinstance(exc.__cause__, Terminated)
        click.echo("Terminated." if terminated else "Interrupted.", err=True)
        sys.exit(143 if terminated else 130)
    except Exception as exc:
        _exit_for(exc)


def _exit_for(exc: Exception) -> None:
    """One line and an exit status for what a command raised; a traceback only for a bug."""
    if SIGNALLED:
        # a library turned the signal into its own error (DuckDB: "Query interrupted")
        click.echo("Terminated." if SIGNALLED[0] == 143 else "Interrupted.", err=True)
        sys.exit(SIGNALLED[0])
    if isinstance(exc, click.ClickException):
        exc.show()
        sys.exit(exc.exit_code)
    if isinstance(exc, CodelogError):
        _error(str(exc))
    if isinstance(exc, BrokenPipeError):
        # `codelog sql ... | head`: the reader left; not an error worth a message
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
    if isinstance(exc, OSError):
        # The disk or the system, not codelog: one line naming the path, no traceback.
        where = f"{os.fsdecode(exc.filename)}: " if exc.filename else ""
        _error(f"{where}{exc.strerror or exc}")
    message = _library_error(exc)
    if message is None:
        raise exc
    _error(message)


def _library_error(exc: Exception) -> str | None:
    """One line for what DuckDB or pyarrow raised about the files they read or wrote (a full
    disk, a Parquet file damaged in place): their message names the file. None for anything
    else, which keeps its traceback: that is a bug to report."""
    from codelog.files import storage_error

    module = type(exc).__module__.lstrip("_")
    if storage_error(exc) is None and not module.startswith(("duckdb", "pyarrow")):
        return None
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if len(text) > 300:  # DuckDB quotes whole values (a program's code) in some messages
        text = text[:300] + "…"
    if storage_error(exc) is None and "parquet" in text.lower():
        # a damaged data file: verify says which of the dataset's files are bad
        return f"{text} (`codelog verify DIR` checks a whole dataset)"
    return text


def _error(message: str) -> None:
    click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(1)
