"""`codelog build` (a source into a dataset) and `codelog convert` (test reports into a CI export)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from codelog import kinds
from codelog.cli.common import (
    Interrupted,
    LocalPath,
    Terminated,
    cli,
    executor_option,
    force_option,
    local_strings,
    manners,
    print_json,
)


@cli.command()
@click.option(
    "--source",
    type=click.Choice(["codenet", "ci", "junit", "codecontests", "codeforces"]),
    multiple=True,
    help="Where the submissions come from (default: codenet). Repeated, one build of several "
    "sources (e.g. --source codenet --source codecontests): a problem two of them hold, found "
    "by its statement, is one problem (one split, deduplicated together).",
)
@click.option(
    "--lang",
    "language",
    default="python",
    show_default=True,
    help="CodeNet language directory name, case-insensitive (python, c++, java, ...).",
)
@click.option(
    "--root",
    type=LocalPath(path_type=Path, file_okay=False),
    help="CodeNet root (metadata/, data/, problem_descriptions/). Default: the bundled sample. "
    "With --source ci/junit: the export root code paths are relative to (default: the "
    "directory of the first --input).",
)
@click.option(
    "--input",
    "inputs",
    multiple=True,
    callback=local_strings,
    help="CI export file(s) or glob(s) (CSV, JSONL, Parquet); with --source ci/junit. With "
    "--source codecontests/codeforces: Parquet shards (files, directories, globs) or a Hub "
    "name (deepmind/code_contests, open-r1/codeforces-submissions).",
)
@click.option(
    "--problems",
    type=LocalPath(path_type=Path),
    help="Problems file for --source ci (problem_id, name, description, ...); for --source "
    "codeforces, open-r1/codeforces' Parquet (config verifiable): a file or a directory.",
)
@click.option(
    "--tests",
    type=LocalPath(path_type=Path, dir_okay=False, exists=True),
    help="The problems' tests for --source ci: Parquet with problem_id, name, input, output "
    "(a dataset's tests.parquet), so a dataset rebuilt from `codelog judge`'s rows keeps them.",
)
@click.option(
    "--out",
    type=LocalPath(path_type=Path, file_okay=False),
    help="Dataset directory. Default: ./datasets/<source>-<lang>. Replaced only if it is a "
    "codelog dataset (or empty); never an input.",
)
@click.option(
    "--recipe",
    type=LocalPath(path_type=Path, dir_okay=False, exists=True),
    help="Recipe TOML. Default: recipes/offline-rl-paper.toml.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Parse processes, at least 1. Default: all cores.",
)
@click.option(
    "--license",
    help="The card's license for --source ci/junit data (e.g. mit, apache-2.0). "
    "CodeNet data is always cdla-permissive-2.0.",
)
@click.option(
    "--wait",
    is_flag=True,
    help="If another build of --out is running, wait for it instead of failing at once.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON on stdout.")
@click.option(
    "--memory",
    help="DuckDB's budget for the grouping stage, e.g. 512MB or 2GB (at least 128MB); beyond "
    "it the grouping spills to disk. Default: $CODELOG_MEMORY, else a quarter of the available "
    "memory within 256-512MB.",
)
@click.option(
    "--kind",
    type=click.Choice(kinds.built()),
    default=kinds.built()[0],
    show_default=True,
    help="What a row is: a solution, or a repair turn (earlier attempts -> the next; "
    "recipe [repairs]).",
)
@click.option(
    "--decontaminate",
    metavar="BENCH,...",
    help="Check the problems against these benchmarks (registry names or NAME:PATH) and act "
    "as the recipe's [decontaminate] action says (default: move them to the test split). "
    "Replaces the recipe's [decontaminate] benchmarks; see docs/contamination.md.",
)
@executor_option
@manners
def build(recipe: Path | None, as_json: bool, **options: Any) -> None:
    """Build a deduplicated, grouped Parquet dataset from judged submissions."""
    import codelog
    from codelog.builder import print_summary, summary_data
    from codelog.progress import show_progress, warn
    from codelog.recipe import load_recipe, reward_order_warnings

    loaded = load_recipe(recipe)
    for message in reward_order_warnings(loaded):
        warn(message)
    try:
        # the options are codelog.build's own, by name: its signature is the one spelling
        decontaminate = options.pop("decontaminate")
        # several sources are one source string, "codenet+codecontests" (codelog.build's)
        options["source"] = "+".join(dict.fromkeys(options["source"])) or "codenet"
        report = codelog.build(
            recipe=loaded,
            progress=show_progress(),
            decontaminate=[b.strip() for b in decontaminate.split(",") if b.strip()]
            if decontaminate
            else None,
            **options,
        )
    except KeyboardInterrupt as exc:
        status = 143 if isinstance(exc, Terminated) else 130
        raise Interrupted("stopped cleanly; no dataset was published.", status) from None
    if as_json:
        print_json(summary_data(report))
    else:
        print_summary(report)


@cli.command()
@click.option(
    "--from",
    "from_format",
    type=click.Choice(["junit"]),
    required=True,
    help="Format of the reports: JUnit XML (pytest, Maven surefire, ...).",
)
@click.argument("reports", nargs=-1, required=True, callback=local_strings)
@click.option(
    "--out",
    type=LocalPath(path_type=Path, dir_okay=False),
    required=True,
    help="Export file: .jsonl, .csv or .parquet (the format follows the suffix). An existing "
    "file is replaced only with --force.",
)
@click.option(
    "--code-root",
    type=LocalPath(path_type=Path, file_okay=False, exists=True),
    help="Directory the reports' code paths are relative to. Default: the current directory.",
)
@click.option(
    "--lang",
    "language",
    default="python",
    show_default=True,
    help="Language of rows with no language property.",
)
@click.option("--inline", is_flag=True, help="Put the code text in the export instead of its path.")
@force_option
@manners
def convert(
    from_format: str,
    reports: tuple[str, ...],
    out: Path,
    code_root: Path | None,
    language: str,
    inline: bool,
    force: bool,
) -> None:
    """Turn test reports into a CI export (one row per test case) for `build --source ci`."""
    from codelog.files import check_output_file, writing
    from codelog.ingest.ci.formats import expand_inputs
    from codelog.ingest.ci.junit import convert_junit
    from codelog.progress import say

    files = expand_inputs(reports)
    check_output_file(out.resolve(), force=force, inputs=files)
    with writing(out):
        rows = convert_junit(files, out, language=language, code_root=code_root, inline=inline)
    say(f"wrote {rows} rows from {len(files)} {from_format} report(s) to {out}")
