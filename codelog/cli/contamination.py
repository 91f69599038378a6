"""`codelog contamination`: which of a source's problems are benchmark problems."""

from __future__ import annotations

from pathlib import Path

import click

from codelog.cli.common import LocalPath, cli, force_option, manners, print_json


@cli.command("contamination")
@click.argument("source")
@click.option(
    "--against",
    "against",
    multiple=True,
    required=True,
    metavar="BENCH",
    help="A benchmark to check against: a registry name or NAME:PATH (repeat for several).",
)
@click.option(
    "--out",
    type=LocalPath(path_type=Path, dir_okay=False),
    help="Write the report here: .jsonl or .parquet.",
)
@click.option(
    "--min-score",
    type=click.FloatRange(0, 1),
    help="Also list pairs from this score up that the rule does not accept (near misses).",
)
@click.option(
    "--recipe",
    type=LocalPath(path_type=Path, dir_okay=False),
    help="Recipe whose [decontaminate] rule to use. Default: recipes/offline-rl-paper.toml.",
)
@click.option(
    "--solutions/--no-solutions",
    default=True,
    show_default=True,
    help="Also compare solutions with the benchmarks' reference solutions.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report's rows as JSON on stdout.")
@force_option
@manners
def contamination_command(
    source: str,
    against: tuple[str, ...],
    out: Path | None,
    min_score: float | None,
    recipe: Path | None,
    solutions: bool,
    as_json: bool,
    force: bool,
) -> None:
    """Check SOURCE (a dataset, a CodeNet tree or a benchmark) against benchmarks: statements
    by weighted n-gram coverage, solutions by AST hash and winnowed fingerprints."""
    import codelog
    from codelog.progress import result_console, say

    report = codelog.check_contamination(
        source,
        against,
        out,
        min_score=min_score,
        recipe=recipe,
        solutions=solutions,
        force=force,
    )
    if as_json:
        print_json(report.rows)
        return
    from rich.table import Table

    checked = ", ".join(f"{spec} ({n:,} problems)" for spec, n in report.benchmarks.items())
    table = Table(title=f"{report.source} ({report.kind}) against {checked}", header_style="bold")
    for column in ("source problem", "benchmark", "task", "score", "level", "accepted", "span"):
        table.add_column(column, justify="right" if column == "score" else "left")
    for r in report.rows[:50]:
        span = r["span"] or r["source_solution"] or ""
        table.add_row(
            r["source_problem"],
            r["benchmark"],
            r["task_id"],
            f"{r['score']:.3f}",
            f"{r['level']} ({r['how']})",
            "yes" if r["accepted"] else "no",
            span[:60] + ("…" if len(span) > 60 else ""),
        )
    result_console().print(table)
    accepted = report.accepted()
    problems = len({r["source_problem"] for r in accepted})
    say(
        f"{len(accepted):,} matches accepted ({problems:,} source problems)"
        + (f"; {len(report.rows) - 50:,} more rows in the report" if len(report.rows) > 50 else "")
        + (f"; report: {report.out}" if report.out else "")
    )
