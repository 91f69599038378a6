"""The `codelog` command line: parses options, calls the library, prints summaries.

Heavy imports (duckdb, torch) happen inside the commands so `codelog --help` stays instant.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from codelog import __version__
from codelog.errors import CodelogError


class Interrupted(Exception):
    """Ctrl-C, with what the interrupted command wants the user to know."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="codelog")
def cli() -> None:
    """Offline RL data for code LLMs: judged archives to grouped Parquet, and a trainer."""


@cli.command()
@click.option(
    "--source", type=click.Choice(["codenet", "ci", "junit"]), default="codenet", show_default=True
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
    type=click.Path(path_type=Path, file_okay=False),
    help="CodeNet root (metadata/, data/, problem_descriptions/). Default: the bundled sample. "
    "With --source ci/junit: the export root code paths are relative to (default: the "
    "directory of the first --input).",
)
@click.option(
    "--input",
    "inputs",
    multiple=True,
    help="CI export file(s) or glob(s) (CSV, JSONL, Parquet); with --source ci/junit.",
)
@click.option(
    "--problems",
    "problems_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Problems file for --source ci (problem_id, name, description, ...).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Dataset directory. Default: ./datasets/<source>-<lang>.",
)
@click.option(
    "--recipe",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="Recipe TOML. Default: recipes/offline-rl-paper.toml.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=int, default=None, help="Parse processes. Default: all cores.")
def build(
    source: str,
    language: str,
    root: Path | None,
    inputs: tuple[str, ...],
    problems_file: Path | None,
    out: Path | None,
    recipe: Path | None,
    seed: int,
    workers: int | None,
) -> None:
    """Build a deduplicated, grouped Parquet dataset from judged submissions."""
    from codelog.build import BuildOptions, run_build
    from codelog.recipe import load_recipe

    options = BuildOptions(
        source=source,
        language=language,
        root=root,
        inputs=inputs,
        problems_file=problems_file,
        out=out or Path("datasets") / f"{source}-{language.lower()}",
        recipe=load_recipe(recipe),
        seed=seed,
        workers=workers,
    )
    try:
        run_build(options)
    except KeyboardInterrupt:
        raise Interrupted("stopped cleanly; no dataset was published.") from None


@cli.command()
@click.argument("dataset_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option("--algo", help="Advantage estimator: sft, rloo, grpo or exp. [recipe: rloo]")
@click.option(
    "--model",
    help="HF causal LM path or hub name, a .gguf file, or 'tiny' (built offline). [recipe: tiny]",
)
@click.option(
    "--steps", type=int, help="Optimizer steps in all (a resumed run may raise it). [recipe: 100]"
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Run directory. Default: ./runs/<dataset>-<algo>.",
)
@click.option(
    "--resume", is_flag=True, help="Continue the run in --out from its latest checkpoint."
)
@click.option(
    "--recipe",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="Recipe TOML. Default: the recipe stored in the dataset's manifest.",
)
@click.option("--group-size", type=int, help="Solutions per group. [recipe: 4]")
@click.option(
    "--max-length",
    type=int,
    help="Tokens per sequence; longer are truncated and counted. [recipe: 2048]",
)
@click.option(
    "--lr",
    "learning_rate",
    type=float,
    help="Peak learning rate. [3e-3 tiny, 1e-4 LoRA, 1e-5 full]",
)
@click.option("--warmup-steps", type=int, help="Linear warm-up steps. [recipe: 10]")
@click.option("--grad-accum", type=int, help="Groups per optimizer step. [recipe: 1]")
@click.option(
    "--batch-tokens", type=int, help="Padded tokens per forward pass, at most. [recipe: 16384]"
)
@click.option(
    "--token-reduction", type=click.Choice(["mean", "sum"]), help="log p(solution) from its tokens."
)
@click.option(
    "--kl", type=float, help="KL penalty coefficient to the reference policy. [recipe: 0]"
)
@click.option("--lora-r", type=int, help="LoRA rank; 0 = full fine-tuning. [recipe: 0]")
@click.option("--lora-alpha", type=int, help="LoRA alpha. [recipe: 16]")
@click.option(
    "--precision",
    type=click.Choice(["auto", "bf16", "fp32"]),
    help="auto: fp32 weights, bf16 autocast on a bf16 GPU; bf16: weights in bf16. [recipe: auto]",
)
@click.option("--seed", type=int, help="Seed of init, held-out split and group order. [recipe: 0]")
@click.option(
    "--eval-fraction", type=float, help="Share of solutions held out for the margin. [recipe: 0.1]"
)
@click.option(
    "--eval-every", type=int, help="Steps between held-out evaluations; 0 = start and end."
)
@click.option("--checkpoint-every", type=int, help="Steps between checkpoints. [recipe: 50]")
@click.option(
    "--keep-checkpoints", type=int, help="Most recent checkpoints kept; 0 = all. [recipe: 2]"
)
@click.option(
    "--gradient-checkpointing",
    is_flag=True,
    help="Recompute activations in backward: far less memory, ~30% more compute.",
)
@click.option(
    "--reference",
    type=click.Choice(["cached", "recompute"]),
    default="cached",
    show_default=True,
    help="KL reference log-probs: computed once and cached beside the run, or every step.",
)
@click.option(
    "--report-to",
    default="none",
    show_default=True,
    help="Also log to tensorboard, wandb or both (comma-separated); metrics.jsonl always.",
)
@click.option(
    "--memory-check/--no-memory-check",
    default=True,
    help="Refuse a run whose memory estimate exceeds the device. [on]",
)
@click.option("--quiet", "-q", is_flag=True, help="No memory estimate or notes on stderr.")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar. Default: on a terminal."
)
def train(
    dataset_dir: Path,
    out: Path | None,
    resume: bool,
    recipe: Path | None,
    progress: bool | None,
    gradient_checkpointing: bool,
    reference: str,
    report_to: str,
    memory_check: bool,
    quiet: bool,
    **options: object,
) -> None:
    """Train a causal LM on a dataset built by `codelog build`, offline.

    Advantage-weighted likelihood on logged, judged solutions: each step takes groups of
    solutions to one problem, weights log p(solution | prompt) by the solution's advantage in
    its group, and never samples or runs code, so this is not on-policy RL. Options left out
    come from the recipe's [train] section.
    """
    from codelog.recipe import load_recipe
    from codelog.train.loop import train as run_train
    from codelog.train.report import print_summary

    overrides = {k: v for k, v in options.items() if v is not None}
    out = out or Path("runs") / f"{dataset_dir.name}-{overrides.get('algo', 'rloo')}"
    result = run_train(
        dataset_dir,
        out,
        overrides,
        recipe=load_recipe(recipe) if recipe else None,
        resume=resume,
        progress=sys.stderr.isatty() and not quiet if progress is None else progress,
        quiet=quiet,
        gradient_checkpointing=gradient_checkpointing,
        reference=reference,
        report_to=report_to,
        memory_check=memory_check,
    )
    print_summary(result)


@cli.command("sql")
@click.argument("dataset_dir", type=click.Path(path_type=Path, file_okay=False))
@click.argument("query", required=False)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json", "parquet"]),
    help="Output format. Default: a table, or from --output's suffix. json = one object per line.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write to this file (written whole, then renamed into place). Default: stdout.",
)
@click.option("--max-rows", type=int, default=100, show_default=True, help="Rows shown in a table.")
def sql_command(
    dataset_dir: Path, query: str | None, fmt: str | None, output: Path | None, max_rows: int
) -> None:
    """Run SQL over a dataset's views: solutions, rejects, problems, groups.

    QUERY "-" reads the query from stdin. Without QUERY, opens the `duckdb` CLI on the views
    if it is installed, else prints the CREATE VIEW statements that attach them.
    """
    from rich.console import Console

    from codelog import query as q

    if query is None:
        if fmt or output:
            raise click.UsageError("--format/--output need a QUERY")
        statements = q.attach_statements(dataset_dir)
        binary = q.duckdb_cli()
        if binary:
            sys.exit(q.interactive(dataset_dir, binary))
        click.echo(
            "No `duckdb` CLI on PATH (install: https://duckdb.org/docs/installation). "
            "In any DuckDB session, these statements define the views "
            f"(e.g. `codelog sql {dataset_dir} > views.sql; duckdb -init views.sql`):",
            err=True,
        )
        click.echo(statements, nl=False)
        return
    if query == "-":
        query = sys.stdin.read()
    fmt = q.format_for(output, fmt)
    con = q.connect(dataset_dir)
    if fmt == "table":
        if output:
            raise click.UsageError("--output needs --format csv, json or parquet")
        result = q.preview(con, query, max_rows)
        console = Console()
        console.print(q.preview_table(result))
        console.print(q.preview_note(result), style="dim", soft_wrap=True)
        return
    q.write_result(con, query, fmt, output, sys.stdout.buffer)
    if output:
        click.echo(f"wrote {output}", err=True)


@cli.command("stats")
@click.argument("dataset_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option(
    "--plot",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also draw the same numbers as figures into this image (PNG, SVG or PDF).",
)
def stats_command(dataset_dir: Path, plot: Path | None) -> None:
    """Outcome mix, group sizes, rejects by reason, dedup ratio and code-length percentiles."""
    from rich.console import Console

    from codelog.stats import compute_stats, plot_stats, render_tables

    result = compute_stats(dataset_dir)
    console = Console()
    for table in render_tables(result):
        console.print(table)
    if plot:
        click.echo(f"wrote {plot_stats(result, plot)}", err=True)


@cli.command("export")
@click.argument("dataset_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option(
    "--format", "fmt", type=click.Choice(["dpo", "kto", "verl"]), required=True, help="Layout."
)
@click.option(
    "--out", type=click.Path(path_type=Path, dir_okay=False), required=True, help="Parquet file."
)
@click.option(
    "--max-pairs-per-problem",
    type=int,
    default=32,
    show_default=True,
    help="dpo: pairs per group (problem, language) at most.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="dpo: which pairs.")
def export_command(
    dataset_dir: Path, fmt: str, out: Path, max_pairs_per_problem: int, seed: int
) -> None:
    """Write a dataset as Parquet for other trainers: dpo/kto (TRL) or verl."""
    from codelog.export import export_dataset

    report = export_dataset(
        dataset_dir, fmt, out, max_pairs_per_group=max_pairs_per_problem, seed=seed
    )
    click.echo(f"wrote {report.rows:,} {fmt} rows from {report.groups:,} groups → {report.out}")
    if report.skipped_no_statement:
        click.secho(
            f"left out {report.skipped_no_statement:,} solutions whose problem has no statement",
            fg="yellow",
            err=True,
        )


@cli.command()
@click.argument("dataset_dir", type=click.Path(path_type=Path, file_okay=False))
def verify(dataset_dir: Path) -> None:
    """Check a dataset's files (sha256, sizes, rows) and invariants against its manifest.

    Reports every mismatch; exits 1 if there is any.
    """
    from codelog.errors import DatasetError
    from codelog.verify import verify_dataset

    report = verify_dataset(dataset_dir)
    for mismatch in report.mismatches:
        click.echo(f"{report.path}: {mismatch}", err=True)
    if not report.ok:
        raise DatasetError(f"{report.path}: {len(report.mismatches)} mismatch(es) found")
    click.echo(
        f"{report.path}: ok ({report.files_checked} files, {report.rows_checked:,} rows, "
        "every invariant holds)"
    )


@cli.command()
@click.option(
    "--from",
    "from_format",
    type=click.Choice(["junit"]),
    required=True,
    help="Format of the reports: JUnit XML (pytest, Maven surefire, ...).",
)
@click.argument("reports", nargs=-1, required=True)
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="Export file: .jsonl, .csv or .parquet (the format follows the suffix).",
)
@click.option(
    "--code-root",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
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
def convert(
    from_format: str,
    reports: tuple[str, ...],
    out: Path,
    code_root: Path | None,
    language: str,
    inline: bool,
) -> None:
    """Turn test reports into a CI export (one row per test case) for `build --source ci`."""
    from codelog.sources.cilog import expand_inputs
    from codelog.sources.junit import convert_junit

    files = expand_inputs(reports)
    rows = convert_junit(files, out, language=language, code_root=code_root, inline=inline)
    click.echo(f"wrote {rows} rows from {len(files)} {from_format} report(s) to {out}")


def main() -> None:
    try:
        cli(standalone_mode=False)
    except Interrupted as exc:
        click.echo(f"Interrupted: {exc}", err=True)
        sys.exit(130)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("Interrupted.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except CodelogError as exc:
        click.secho(f"error: {exc}", fg="red", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
