"""Commands on a built dataset: `sql`, `stats`, `export`, `eval-verifier`, `verify`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from codelog import kinds
from codelog.cli.common import (
    LocalPath,
    cli,
    force_option,
    manners,
    print_json,
    verify_option,
    verify_whole,
)


@cli.command("sql")
@click.argument("dataset_dir", type=LocalPath(path_type=Path, file_okay=False))
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
    type=LocalPath(path_type=Path, dir_okay=False),
    help="Write to this file (written whole, then renamed into place). Default: stdout.",
)
@click.option(
    "--max-rows",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Rows shown in a table.",
)
@click.option(
    "--read",
    "read",
    multiple=True,
    type=LocalPath(path_type=Path, exists=True),
    help="A file or directory the query may read besides the dataset (repeatable); "
    "nothing else outside the dataset is readable.",
)
@force_option
@verify_option
@manners
def sql_command(
    dataset_dir: Path,
    query: str | None,
    fmt: str | None,
    output: Path | None,
    max_rows: int,
    read: tuple[Path, ...],
    force: bool,
    full_check: bool,
) -> None:
    """Run SQL over a dataset's views: solutions, rejects, problems, groups (a repair
    dataset: repairs, trajectories, rejects, problems).

    QUERY "-" reads the query from stdin. The query reads the dataset and the files named
    with --read; it writes nothing (COPY, ATTACH, EXPORT, INSTALL are refused): the result
    goes to stdout or --output. Without QUERY, opens the `duckdb` CLI on the views if it is
    installed (your own DuckDB session, with its own rights), else prints the CREATE VIEW
    statements that attach them.
    """
    from codelog.dataset import query as q
    from codelog.progress import result_console, say

    if full_check:
        verify_whole(dataset_dir)
    if query is None:
        if fmt or output:
            raise click.UsageError("--format/--output need a QUERY")
        statements = q.attach_statements(dataset_dir)
        binary = q.duckdb_cli()
        if binary:
            sys.exit(q.interactive(dataset_dir, binary))
        say(
            "No `duckdb` CLI on PATH (install: https://duckdb.org/docs/installation). "
            "In any DuckDB session, these statements define the views "
            f"(e.g. `codelog sql {dataset_dir} > views.sql; duckdb -init views.sql`):"
        )
        click.echo(statements, nl=False)
        return
    if query == "-":
        query = sys.stdin.read()
    fmt = q.format_for(output, fmt)
    if fmt == "table" and output:
        raise click.UsageError("--output needs --format csv, json or parquet")
    con = q.connect(dataset_dir, read=read)
    if fmt == "table":
        result = q.preview(con, query, max_rows)
        out = result_console()
        out.print(q.preview_table(result))
        out.print(q.preview_note(result), style="dim", soft_wrap=True)
        return
    q.write_result(con, query, fmt, output, sys.stdout.buffer, force=force, inputs=[dataset_dir])
    if output:
        say(f"wrote {output}")


def _dataset_kind(dataset_dir: Path) -> kinds.Kind:
    from codelog.dataset.open import check_dataset

    return kinds.of_manifest(check_dataset(dataset_dir))


@cli.command("stats")
@click.argument("dataset_dir", type=LocalPath(path_type=Path, file_okay=False))
@click.option(
    "--plot",
    type=LocalPath(path_type=Path, dir_okay=False),
    help="Also draw the same numbers as figures into this image (PNG, SVG or PDF); needs "
    "the plot extra (pip install 'codelog[plot]').",
)
@click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON on stdout.")
@verify_option
@manners
def stats_command(dataset_dir: Path, plot: Path | None, as_json: bool, full_check: bool) -> None:
    """Outcome mix, group sizes, rejects by reason, dedup ratio and code-length percentiles."""
    import codelog
    from codelog.dataset.stats import require_plotting
    from codelog.files import writing
    from codelog.progress import result_console, say

    if plot:
        require_plotting()  # before any work
    if full_check:
        verify_whole(dataset_dir)
    kind = _dataset_kind(dataset_dir)
    if plot and not kind.has("dataset.stats_plot"):
        raise click.UsageError(f"--plot draws a solutions dataset; this is a {kind.name} dataset")
    result = codelog.stats(dataset_dir)
    if as_json:
        print_json(kind.part("dataset.stats_data")(result))
    else:
        out = result_console()
        for table in kind.part("dataset.stats_tables")(result):
            out.print(table)
    if plot:
        with writing(plot):
            written = kind.part("dataset.stats_plot")(result, plot)
        say(f"wrote {written}")


@cli.command("export")
@click.argument("dataset_dir", type=LocalPath(path_type=Path, file_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["dpo", "kto", "sft", "grpo", "verl", "verl-solutions", "verifier-lists"]),
    required=True,
    help="Layout: dpo, kto, sft, grpo (TRL), verl (one row per problem), verl-solutions (one "
    "row per solution), verifier-lists.",
)
@click.option(
    "--out",
    type=LocalPath(path_type=Path),
    required=True,
    help="Directory: gets train.parquet and test.parquet (or <split>.parquet with --split). "
    "A FILE.parquet holds the one --split named. An existing file is replaced only if codelog "
    "wrote it (or --force).",
)
@click.option(
    "--split",
    type=click.Choice(["train", "test", "all"]),
    help="Only this split's problems (all: train and test in one file). Default: train and "
    "test, a file each.",
)
@click.option(
    "--max-pairs-per-problem",
    type=click.IntRange(min=1),
    default=32,
    show_default=True,
    help="dpo: pairs per group (problem, language) at most.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="dpo: which pairs; kto/sft/grpo/verl: the row order (a shuffle that spreads each "
    "problem over the file); lists: which lists.",
)
@click.option(
    "--list-size", default="2-5", show_default=True, help="verifier-lists: a size or a range."
)
@click.option(
    "--lists-per-problem",
    type=int,
    default=8,
    show_default=True,
    help="verifier-lists: per problem and bucket (easy, hard), at most.",
)
@click.option(
    "--hard-similarity",
    type=float,
    default=0.6,
    show_default=True,
    help="verifier-lists: token similarity of a hard list's candidates to the correct one.",
)
@click.option(
    "--chat",
    is_flag=True,
    help="dpo/kto/sft/grpo: TRL's conversational format (user and assistant messages) for "
    "instruct models, instead of plain strings.",
)
@click.option(
    "--tests",
    help="grpo/verl: where each problem's tests come from (codenet, codenet:DIR, a problems .jsonl). "
    "Default: the sample I/O of the dataset's own problem statements.",
)
@force_option
@verify_option
@manners
def export_command(
    dataset_dir: Path,
    fmt: str,
    out: Path,
    split: str | None,
    max_pairs_per_problem: int,
    seed: int,
    list_size: str,
    lists_per_problem: int,
    hard_similarity: float,
    chat: bool,
    tests: str | None,
    force: bool,
    full_check: bool,
) -> None:
    """Write a dataset as Parquet for other trainers, one file per split: dpo/kto/sft/grpo
    (TRL), verl, or candidate lists for code verifiers (Aletheia-style: distinct pass rates,
    exactly one correct)."""
    import codelog
    from codelog.progress import say, warn

    if full_check:
        verify_whole(dataset_dir)
    if kinds.drawn(fmt):  # verifier lists: a kind drawn from the dataset, not a row layout
        written = codelog.export_verifier_lists(
            dataset_dir,
            out,
            split=split,
            force=force,
            list_size=list_size,
            seed=seed,
            lists_per_problem=lists_per_problem,
            hard_similarity=hard_similarity,
        )
        for name, lists in written:
            buckets = ", ".join(f"{n:,} {b}" for b, n in lists.by_bucket.items()) or "none"
            sizes = ", ".join(f"{n:,} of {k}" for k, n in lists.by_size.items()) or "none"
            say(
                f"wrote {lists.lists:,} verifier lists of split {name} ({buckets}; sizes: "
                f"{sizes}) from {lists.problems:,} problems → {lists.out}"
            )
            if lists.candidates_unscored:
                warn(
                    f"{name}: {lists.candidates_unscored:,} incorrect solutions have no test "
                    "count (accuracy) and were not candidates"
                )
        _warn_unchecked(dataset_dir)
        return
    report = codelog.export(
        dataset_dir,
        fmt,
        out,
        split=split,
        max_pairs_per_problem=max_pairs_per_problem,
        seed=seed,
        chat=chat,
        tests=tests,
        force=force,
    )
    for file in report.files:
        held = "train and test problems" if file.split == "all" else f"{file.split} problems only"
        say(
            f"wrote {file.rows:,} {fmt} rows of split {file.split} ({held}; {file.problems:,} "
            f"problems, {file.groups:,} groups) → {file.out}"
        )
        if file.skipped_no_statement:
            warn(
                f"{file.split}: left out {file.skipped_no_statement:,} solutions whose problem "
                "has no statement"
            )
        if file.skipped_no_tests:
            warn(
                f"{file.split}: left out {file.skipped_no_tests:,} groups whose problem has no tests"
            )
    for name in report.empty_splits:
        warn(f"split {name} has no {fmt} rows: {name}.parquet not written")
    _warn_unchecked(dataset_dir)


def _warn_unchecked(dataset_dir: Path) -> None:
    """After an export: warn when the dataset was never checked against a benchmark
    (codelog.dataset.decontamination)."""
    from codelog.dataset.decontamination import unchecked_warning
    from codelog.progress import warn
    from codelog.publish.manifest import read_manifest

    if message := unchecked_warning(read_manifest(dataset_dir), str(dataset_dir)):
        warn(message)


@cli.command("eval-verifier")
@click.argument("predictions", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option(
    "--lists",
    "lists_path",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    required=True,
    help="The lists the predictions rank (codelog export --format verifier-lists).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as one JSON object.")
@manners
def eval_verifier_command(predictions: Path, lists_path: Path, as_json: bool) -> None:
    """Score a verifier's rankings (PREDICTIONS: JSONL of list_id + scores/ranking/choice):
    list accuracy and Kendall's tau-b against the true pass rates."""
    import json

    from codelog.dataset.eval_verifier import evaluate_verifier

    report = evaluate_verifier(predictions, lists_path)
    if as_json:
        click.echo(json.dumps(report.to_dict()))
        return
    for line in report.table_lines():
        click.echo(line)
    if report.missing or report.unknown:
        from codelog.progress import warn

        warn(
            f"{report.missing:,} lists without a prediction (counted wrong); "
            f"{report.unknown:,} predictions for no list of the file"
        )


@cli.command()
@click.argument("dataset_dir", type=LocalPath(path_type=Path, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON on stdout.")
@manners
def verify(dataset_dir: Path, as_json: bool) -> None:
    """Check a dataset's files (sha256, sizes, rows), invariants and code hashes.

    The report goes to stdout, one line per mismatch; exits 1 if there is any. An edited card
    (README.md) is reported, not failed: it is documentation, not data.
    """
    import codelog
    from codelog.errors import DatasetError
    from codelog.progress import show_progress

    report = codelog.verify(dataset_dir, progress=show_progress())
    if as_json:
        print_json(report.to_dict())
    else:
        for line in report.mismatches:
            click.echo(f"{report.path}: {line}")
        for line in report.notes:
            click.echo(f"{report.path}: note: {line}")
        if report.ok:
            click.echo(
                f"{report.path}: ok ({report.files_checked} files, {report.rows_checked:,} rows, "
                f"{report.code_hashes_checked:,} code hashes, every invariant holds; "
                f"card {report.card})"
            )
    if not report.ok:
        raise DatasetError(f"{report.path}: {len(report.mismatches)} mismatch(es) found")
