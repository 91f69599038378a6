"""Running code in the sandbox: `codelog judge` and `codelog eval` (codelog.execution)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from codelog.cli.common import (
    LocalPath,
    cli,
    executor_option,
    force_option,
    manners,
)

_ISOLATION = click.Choice(["auto", "bwrap", "unshare", "rlimits"])


def sandbox_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--workers, --isolation and --cold: how `judge` and `eval` run programs."""
    for option in reversed(
        (
            click.option("--workers", type=int, help="Judging processes. Default: all cores."),
            click.option("--isolation", type=_ISOLATION, default="auto", show_default=True),
            click.option(
                "--cold",
                is_flag=True,
                help="Start every Python run from a fresh interpreter. Default: fork it from a "
                "warm interpreter in the same sandbox (docs/judge-performance.md), where bwrap "
                "works.",
            ),
        )
    ):
        command = option(command)
    return command


@cli.command()
@click.argument("source", type=LocalPath(path_type=Path, exists=True))
@click.option(
    "--out",
    type=LocalPath(path_type=Path, dir_okay=False),
    required=True,
    help="CI export to write (.jsonl, .csv or .parquet): `codelog build --source ci` reads it. "
    "An existing file is replaced only if codelog wrote it (or --force); never an input.",
)
@click.option(
    "--tests",
    help="Where the tests come from: a benchmark (humaneval, mbpp[:PATH], apps[:PATH], "
    "codecontests[:PATH], livecodebench[:PATH], humaneval+[:PATH], mbpp+[:PATH]: "
    "docs/benchmarks.md), codenet (the bundled "
    "sample), codenet:DIR (a CodeNet tree or a built dataset), or a problems .jsonl. Default "
    "for a dataset: its own problems' sample I/O.",
)
@click.option(
    "--problems-out",
    type=LocalPath(path_type=Path, dir_okay=False),
    help="Also write the judged problems as a --problems file for `codelog build --source ci`.",
)
@click.option(
    "--details",
    type=LocalPath(path_type=Path, dir_okay=False),
    help="Also write every verdict with its per-test results and reasons (JSONL).",
)
@sandbox_options
@click.option(
    "--time-scale", type=float, default=1.0, show_default=True, help="Multiplies time limits."
)
@click.option("--python", "python", help="Python 3 interpreter for Python programs.")
@click.option("--limit", type=int, help="Judge only the first N programs.")
@executor_option
@force_option
@manners
def judge(
    source: Path,
    out: Path,
    tests: str | None,
    problems_out: Path | None,
    details: Path | None,
    workers: int | None,
    isolation: str,
    time_scale: float,
    python: str | None,
    limit: int | None,
    force: bool,
    executor: Any,
    cold: bool,
) -> None:
    """Re-run programs in the sandbox and write CI rows with their verdicts.

    SOURCE is a JSONL of programs (problem_id + code per line: model samples) or a dataset
    directory: then its own solutions are re-judged and the agreement of each re-run with
    the logged verdict is reported per outcome (a label audit). An interrupted run, re-run
    with the same arguments, judges only the programs it had not judged yet.
    """
    from rich.console import Console

    import codelog
    from codelog.execution.judge import JudgeOptions
    from codelog.execution.judge_run import judge_tables
    from codelog.progress import console as chatter
    from codelog.progress import show_progress

    quiet = chatter.quiet
    options = JudgeOptions(isolation=isolation, python=python, time_scale=time_scale, warm=not cold)
    report = codelog.judge(
        source,
        out,
        tests=tests,
        options=options,
        workers=workers,
        progress=show_progress(),
        problems_out=problems_out,
        details=details,
        limit=limit,
        force=force,
        executor=executor,
    )
    judged = sum(report.statuses.values())
    skipped = sum(report.skipped_reasons.values())
    console = Console(stderr=True)
    if not quiet:
        for table in judge_tables(report, out):
            console.print(table)
    rate = (judged + skipped - report.resumed) / report.seconds if report.seconds else 0.0
    click.echo(
        f"judged {judged:,} programs in {report.seconds:.1f}s ({rate:,.1f}/s), skipped "
        f"{skipped:,}"
        + (
            f" ({report.resumed:,} of them read back from the interrupted run)"
            if report.resumed
            else ""
        )
        + f"; wrote {report.rows_written:,} rows to {out}"
        + (f"; isolation: {report.isolation}" if report.isolation else ""),
        err=True,
    )


@cli.command("eval")
@click.option(
    "--benchmark",
    required=True,
    help="A benchmark: NAME (the Hub, or the bundled copy), NAME:PATH (a local copy in its "
    "published form) or livecodebench@RELEASE (release_v6, v5, v4_v6): humaneval, mbpp, apps, "
    "codecontests, livecodebench, humaneval+, mbpp+ (docs/benchmarks.md); codenet, codenet:DIR "
    "(a CodeNet tree or a built dataset); or a problems .jsonl.",
)
@click.option("--model", help="Model to sample from: a checkpoint directory or a hub name.")
@click.option(
    "--samples",
    "samples_file",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="Score these completions (JSONL: task_id/problem_id + completion/code) instead.",
)
@click.option("-n", "n", type=int, default=1, show_default=True, help="Samples per problem.")
@click.option("-k", "ks", default="1", show_default=True, help="pass@k for these k (comma list).")
@click.option(
    "--out",
    type=LocalPath(path_type=Path, file_okay=False),
    help="Directory for samples.jsonl and summary.json. Default: ./runs/eval-<benchmark>. "
    "Other files in it are left alone; these two are replaced only if codelog wrote them (or "
    "--force), never when one is an input.",
)
@click.option("--temperature", type=float, default=0.8, show_default=True)
@click.option("--top-p", type=float, default=0.95, show_default=True)
@click.option("--max-new-tokens", type=int, default=512, show_default=True)
@click.option("--batch-size", type=int, default=8, show_default=True, help="Prompts per batch.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--limit", type=int, help="Only the first N problems (sorted by id).")
@click.option(
    "--recipe",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="Recipe whose [prompt] template renders stdio problems. Default: the default recipe "
    "(a dataset benchmark: the dataset's recipe).",
)
@sandbox_options
@click.option(
    "--split",
    help="The benchmark's split (default: the one its scores are reported on, e.g. MBPP's "
    "test, task_ids 11-510). A built dataset (codenet:DIR): train, test or all (default).",
)
@click.option("--after", metavar="DATE", help="Only problems of contests on or after DATE "
              "(YYYY-MM-DD; livecodebench).")  # fmt: skip
@click.option("--before", metavar="DATE", help="Only problems of contests before DATE.")
@click.option(
    "--test-sets",
    help="CodeContests: the test sets a sample must pass, a comma list of public, private, "
    "generated. Default: private,generated (as AlphaCode scored).",
)
@click.option("--challenge-tests", is_flag=True, help="MBPP: run challenge_test_list too.")
@click.option(
    "--per-test",
    is_flag=True,
    help="Run every test of every sample and report per-test pass rates. Default: a sample "
    "stops at its first failing test (its verdict is the same).",
)
@click.option(
    "--compare",
    type=click.Path(path_type=Path, exists=True),
    help="An earlier eval's directory: print and record this run's pass@k against it, paired "
    "per problem (each difference ± its standard error, 95% interval, better/worse/within noise).",
)
@executor_option
@force_option
@manners
def eval_command(
    cold: bool, after: str | None, before: str | None, test_sets: str | None, **options: Any
) -> None:
    """pass@k of a model (or of a file of completions) on a benchmark, judged in the sandbox.

    Reports pass@k overall and per difficulty, and the verdicts of the failures; writes
    samples.jsonl and summary.json. An interrupted run, re-run with the same arguments,
    judges only the samples it had not judged yet."""
    from codelog.evaluation.run import run_eval
    from codelog.evaluation.spec import EvalSpec
    from codelog.progress import console as chatter
    from codelog.progress import show_progress

    # the other options are EvalSpec.from_options's own, by name: its keywords are the one
    # spelling of each flag (codelog.evaluate takes the same)
    spec = EvalSpec.from_options(
        warm=not cold,
        after=_date(after, "--after"),
        before=_date(before, "--before"),
        test_sets=[t.strip() for t in test_sets.split(",") if t.strip()] if test_sets else None,
        quiet=chatter.quiet,
        progress=show_progress(),
        **options,
    )
    run_eval(spec)


def _date(value: str | None, option: str) -> str | None:
    """An ISO date (YYYY-MM-DD), checked at the edge."""
    import datetime

    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not a date (YYYY-MM-DD)", param_hint=option
        ) from None
