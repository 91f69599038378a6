"""What every command shares: the `cli` group, its options and manners, and how a signal
or a bad path becomes one line."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from codelog.errors import CodelogError
from codelog.version import __version__


class Interrupted(Exception):
    """Ctrl-C or SIGTERM, with what the interrupted command wants the user to know."""

    def __init__(self, message: str, status: int = 130):
        super().__init__(message)
        self.status = status


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so it unwinds (and cleans up) exactly as Ctrl-C does."""


# The exit status of each SIGTERM (143) or SIGINT (130) this process received, in order. A
# library may turn the exception a signal raises into its own (DuckDB: InterruptException,
# "Query interrupted"); `main` reads this to end with the signal's status all the same.
SIGNALLED: list[int] = []


def terminate(signum: int, frame: Any) -> None:
    SIGNALLED.append(143)
    raise Terminated


def interrupt(signum: int, frame: Any) -> None:
    SIGNALLED.append(130)
    raise KeyboardInterrupt


# --- shared options ------------------------------------------------------------------------------


class LocalPath(click.Path):
    """click.Path that refuses a URL (s3://, hf://, https://) on the raw string: as a Path,
    `s3://b/k` would become the local directory `s3:/b/k`."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from codelog.files import local_path

        if isinstance(value, str):
            try:
                local_path(value)
            except CodelogError as exc:
                self.fail(str(exc).split(" ", 1)[1], param, ctx)
        return super().convert(value, param, ctx)


def local_strings(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> Any:
    from codelog.files import local_path

    for value in values:
        try:
            local_path(value)
        except CodelogError as exc:
            raise click.BadParameter(str(exc).split(" ", 1)[1]) from None
    return values


def _set_manners(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    from codelog import progress

    ctx.meta[f"codelog.{param.name}"] = value
    progress.configure(
        quiet=bool(ctx.meta.get("codelog.quiet")), progress=ctx.meta.get("codelog.progress")
    )


def quiet_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--quiet",
        "-q",
        is_flag=True,
        expose_value=False,
        callback=_set_manners,
        help="Nothing on stderr but errors (results still go to stdout).",
    )(command)


def manners(command: Callable[..., Any]) -> Callable[..., Any]:
    """--quiet and --progress/--no-progress, the same on every command."""
    command = click.option(
        "--progress/--no-progress",
        default=None,
        expose_value=False,
        callback=_set_manners,
        help="Progress bars on stderr. Default: only on a terminal.",
    )(command)
    return quiet_option(command)


def verify_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--verify",
        "full_check",
        is_flag=True,
        help="Recompute the dataset's sha256s first (sizes and Parquet footers are always checked).",
    )(command)


def force_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--force",
        is_flag=True,
        help="Replace an existing output file codelog did not write (never an input).",
    )(command)


def executor_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """--executor local|ray and --ray-address (or RAY_ADDRESS), passed on as `executor`, an
    ExecutorSpec checked before any work (no Ray installed: one line saying how)."""

    @functools.wraps(command)
    def run(*args: Any, executor: str, ray_address: str | None, **kwargs: Any) -> Any:
        from codelog.executors import ExecutorSpec

        spec = ExecutorSpec(executor, ray_address if executor == "ray" else None)
        spec.check()
        return command(*args, executor=spec, **kwargs)

    run = click.option(
        "--ray-address",
        envvar="RAY_ADDRESS",
        help="With --executor ray: the cluster to join (host:port of its head, or ray://...). "
        "Default: $RAY_ADDRESS, else Ray started on this machine. See docs/scale.md.",
    )(run)
    return click.option(
        "--executor",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Where the work runs: a process pool on this machine, or Ray tasks (codelog[ray]).",
    )(run)


def verify_whole(dataset_dir: Path) -> None:
    from codelog.dataset.open import check_dataset
    from codelog.progress import say

    check_dataset(dataset_dir, full=True)
    say(f"{dataset_dir}: sha256 of every data file matches the manifest", style="dim")


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="codelog")
def cli() -> None:
    """Offline RL data for code LLMs: judged archives to grouped Parquet, and a trainer."""
