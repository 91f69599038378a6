"""`codelog experiment`: train each method, evaluate the base model and every checkpoint, write
the paper's table (codelog.evaluation.experiment)."""

from __future__ import annotations

from pathlib import Path

import click

from codelog.cli.common import LocalPath, cli, manners
from codelog.errors import CodelogError


def _comma_list(value: str | None, flag: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = tuple(v.strip() for v in value.split(",") if v.strip())
    if not items:
        raise CodelogError(f"{flag} {value!r}: names nothing")
    return items


@cli.command()
@click.argument("dataset_dir", type=LocalPath(path_type=Path, file_okay=False, exists=True))
@click.option(
    "--out",
    type=LocalPath(path_type=Path, file_okay=False),
    help="Experiment directory: a cell per method, results.json, results.md, results.png. "
    "Absent, empty or an experiment, whose finished cells are kept. "
    "Default: ./runs/<dataset>-experiment.",
)
@click.option(
    "--algos",
    help="Rows, comma-separated: base (the untrained model) and estimators sft, rloo, grpo, "
    "exp. [recipe [experiment]: base,sft,rloo,grpo,exp]",
)
@click.option("--model", help="HF causal LM path or hub name, a .gguf file, or 'tiny'. [recipe]")
@click.option("--steps", type=int, help="Optimizer steps per trained method. [recipe]")
@click.option("--seed", type=int, help="Seed of training and sampling. [recipe: 0]")
@click.option(
    "--benchmark",
    "benchmarks",
    multiple=True,
    help="Columns (repeatable): heldout (the dataset's test split), humaneval, codenet:DIR or "
    "a problems .jsonl. [recipe [experiment]: heldout]",
)
@click.option("-n", "n", type=int, help="Samples per problem. [recipe [experiment]: 10]")
@click.option("-k", "ks", help="pass@k for these k, comma-separated. [recipe [experiment]: 1,10]")
@click.option("--temperature", type=float, help="Sampling temperature. [0.8]")
@click.option("--max-new-tokens", type=int, help="Tokens per sample, at most. [512]")
@click.option(
    "--limit", type=int, help="Problems per benchmark at most (the first by id); 0 = all. [0]"
)
@click.option(
    "--recipe",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="Recipe TOML: [train] and [experiment] (recipes/paper-*.toml). Default: the "
    "dataset's recipe.",
)
@click.option("--workers", type=int, help="Judging processes. Default: all cores.")
@manners
def experiment(
    dataset_dir: Path,
    out: Path | None,
    algos: str | None,
    model: str | None,
    steps: int | None,
    seed: int | None,
    benchmarks: tuple[str, ...],
    n: int | None,
    ks: str | None,
    temperature: float | None,
    max_new_tokens: int | None,
    limit: int | None,
    recipe: Path | None,
    workers: int | None,
) -> None:
    """The paper's table: train each method on DATASET_DIR, evaluate the base model and every
    checkpoint with pass@k (and its standard error), write DIR/results.json, results.md and a
    plot. A killed experiment, run again, continues where it stopped; a finished cell is kept."""
    import codelog
    from codelog import progress as manners_
    from codelog.evaluation.spec import parse_ks

    result = codelog.experiment(
        dataset_dir,
        out or Path("runs") / f"{dataset_dir.name}-experiment",
        algos=_comma_list(algos, "--algos"),
        model=model,
        steps=steps,
        seed=seed,
        benchmarks=benchmarks or None,
        n=n,
        k=parse_ks(ks) if ks is not None else None,
        temperature=temperature,
        max_new_tokens=max_new_tokens,
        limit=limit,
        recipe=recipe,
        workers=workers,
        progress=manners_.show_progress(),
        quiet=manners_.console.quiet,
    )
    click.echo((result.out / "results.md").read_text(encoding="utf-8"), nl=False)
    written = ", ".join(
        str(p)
        for p in (result.out / "results.json", result.out / "results.md", result.plot)
        if p is not None
    )
    manners_.say(
        f"{len(result.ran)} cell(s) run, {len(result.kept)} kept from before; wrote {written}"
    )
