"""The `codelog` command line: parses options, calls the library, prints summaries.

Heavy imports (duckdb, torch) happen inside the commands so `codelog --help` stays instant.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from codelog import __version__
from codelog.errors import CodelogError


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
    help="CodeNet root (metadata/, data/, problem_descriptions/). Default: the bundled sample.",
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
    run_build(options)


def main() -> None:
    try:
        cli(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Interrupted: stopped cleanly; no dataset was published.", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("Interrupted: stopped cleanly; no dataset was published.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except CodelogError as exc:
        click.secho(f"error: {exc}", fg="red", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
