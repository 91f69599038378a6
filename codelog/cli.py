"""The `codelog` command line: parses options, calls the library, prints summaries.

Heavy imports (duckdb, torch) happen inside the commands so `codelog --help` stays instant.
Manners shared by every command (codelog.progress): results on stdout, chatter on stderr,
`--quiet`, `--no-progress`; errors are one `error:` line and a non-zero exit.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from codelog import kinds
from codelog.errors import CodelogError
from codelog.version import __version__


class Interrupted(Exception):
    """Ctrl-C or SIGTERM, with what the interrupted command wants the user to know."""

    def __init__(self, message: str, status: int = 130):
        super().__init__(message)
        self.status = status


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so it unwinds (and cleans up) exactly as Ctrl-C does."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated


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


def _local_strings(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> Any:
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


def _full_check(dataset_dir: Path) -> None:
    from codelog.dataset.open import check_dataset
    from codelog.progress import say

    check_dataset(dataset_dir, full=True)
    say(f"{dataset_dir}: sha256 of every data file matches the manifest", style="dim")


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str))


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
    type=LocalPath(path_type=Path, file_okay=False),
    help="CodeNet root (metadata/, data/, problem_descriptions/). Default: the bundled sample. "
    "With --source ci/junit: the export root code paths are relative to (default: the "
    "directory of the first --input).",
)
@click.option(
    "--input",
    "inputs",
    multiple=True,
    callback=_local_strings,
    help="CI export file(s) or glob(s) (CSV, JSONL, Parquet); with --source ci/junit.",
)
@click.option(
    "--problems",
    type=LocalPath(path_type=Path, dir_okay=False),
    help="Problems file for --source ci (problem_id, name, description, ...).",
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
        report = codelog.build(recipe=loaded, progress=show_progress(), **options)
    except KeyboardInterrupt as exc:
        status = 143 if isinstance(exc, Terminated) else 130
        raise Interrupted("stopped cleanly; no dataset was published.", status) from None
    if as_json:
        _print_json(summary_data(report))
    else:
        print_summary(report)


@cli.command()
@click.argument("dataset_dir", type=LocalPath(path_type=Path, file_okay=False))
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
    type=LocalPath(path_type=Path, file_okay=False),
    help="Run directory. Default: ./runs/<dataset>-<algo>. Absent, empty or a codelog run.",
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
@click.option(
    "--reward",
    type=click.Choice(["reward", "reward_lint"]),
    help="Rewards from: the outcome's, or minus the lint penalty ([lint_reward]). [reward]",
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
@click.option(
    "--task",
    type=click.Choice(kinds.built()),
    help="What to train on: solutions, or repair turns (a `build --kind repair` dataset). "
    "[the dataset's kind]",
)
@click.option(
    "--eval-samples",
    type=int,
    default=0,
    help="Also pass@k at each evaluation: programs sampled per held-out problem and judged "
    "in the sandbox; 0 = off.",
)
@click.option(
    "--eval-k", default="1", show_default=True, help="pass@k for these k (comma-separated)."
)
@click.option(
    "--eval-benchmark",
    help="pass@k problems: humaneval, codenet:DIR or FILE.jsonl. [the dataset's test split]",
)
@click.option("--eval-limit", type=int, help="pass@k on at most this many problems.")
@click.option(
    "--eval-max-new-tokens", type=int, default=256, show_default=True, help="Per pass@k sample."
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
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar. Default: on a terminal."
)
@verify_option
@quiet_option
def train(
    dataset_dir: Path,
    out: Path | None,
    resume: bool,
    recipe: Path | None,
    progress: bool | None,
    full_check: bool,
    gradient_checkpointing: bool,
    reference: str,
    report_to: str,
    memory_check: bool,
    eval_samples: int,
    eval_k: str,
    eval_benchmark: str | None,
    eval_limit: int | None,
    eval_max_new_tokens: int,
    task: str | None,
    **options: object,
) -> None:
    """Train a causal LM on a dataset built by `codelog build`, offline.

    Advantage-weighted likelihood on logged, judged solutions: each step takes groups of
    solutions to one problem, weights log p(solution | prompt) by the solution's advantage in
    its group, and never samples or runs code, so this is not on-policy RL. Options left out
    come from the recipe's [train] section.
    """
    from codelog.publish.manifest import read_manifest
    from codelog.recipe import Recipe, load_recipe
    from codelog.training.options import resolve_recipe

    # not a dataset, or an option that cannot work: say so at once, before torch is imported
    manifest = read_manifest(dataset_dir)
    overrides = {k: v for k, v in options.items() if v is not None}
    built_with = manifest.get("recipe")
    resolve_recipe(
        load_recipe(recipe)
        if recipe
        else Recipe.from_dict(built_with, where=f"{dataset_dir}/manifest.json recipe")
        if built_with
        else load_recipe(),
        overrides,
    )
    from codelog.training.loop import train as run_train
    from codelog.training.report import print_summary

    out = out or Path("runs") / f"{dataset_dir.name}-{overrides.get('algo', 'rloo')}"
    # codelog-safe: where a run may write, and what it reads, checked before any model loads
    check_run_out(out, dataset_dir)
    if full_check:
        _full_check(dataset_dir)
    from codelog.evaluation.training_eval import training_evaluators

    evaluators = training_evaluators(
        dataset_dir,
        samples=eval_samples,
        ks=eval_k,
        benchmark=eval_benchmark,
        limit=eval_limit,
        max_new_tokens=eval_max_new_tokens,
        seed=int(options.get("seed") or 0),
    )
    from codelog import progress as manners_

    manners_.configure(quiet=manners_.console.quiet, progress=progress)
    with training_into(out):
        result = run_train(
            dataset_dir,
            out,
            overrides,
            recipe=load_recipe(recipe) if recipe else None,
            resume=resume,
            progress=manners_.show_progress(),
            quiet=manners_.console.quiet,
            gradient_checkpointing=gradient_checkpointing,
            reference=reference,
            report_to=report_to,
            memory_check=memory_check,
            evaluators=evaluators,
            task=task,
        )
    print_summary(result)


@contextlib.contextmanager
def training_into(out: Path) -> Iterator[None]:
    """The disk refusing a write while training (full, read-only) as one line naming the path,
    and what a rerun does with the half-made run directory."""
    from codelog.errors import OutputError
    from codelog.files import storage_error, storage_error_path

    try:
        yield
    except CodelogError:
        raise
    except Exception as exc:
        cause = storage_error(exc)
        if cause is None:
            raise
        raise OutputError(
            f"{storage_error_path(exc, out)}: {cause} (training into {out}; once there is room, "
            "the same command starts again in that directory, or --resume continues from its "
            "latest checkpoint)"
        ) from None


def is_run_dir(path: Path) -> bool:
    """Whether `path` is a `codelog train` run directory: its run.json (which the trainer
    writes first) names a codelog version."""
    try:
        info = json.loads((path / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and "codelog_version" in info


def check_run_out(out: Path, dataset_dir: Path) -> None:
    """A run directory is absent, empty or a codelog run, and apart from the dataset."""
    from codelog.files import check_output_dir, refuse_inputs

    refuse_inputs(out, [dataset_dir])
    check_output_dir(out, _run_or_begun, "codelog run directory", "run.json")


def _run_or_begun(path: Path) -> bool:
    """A run directory, or one a run began and a full disk stopped before run.json: nothing
    in it but its base model and hidden files (.lock)."""
    from codelog.files import foreign_entries

    visible = [n for n in foreign_entries(path, ()) if not n.startswith(".")]
    return is_run_dir(path) or set(visible) <= {"base-model"}


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
@force_option
@verify_option
@manners
def sql_command(
    dataset_dir: Path,
    query: str | None,
    fmt: str | None,
    output: Path | None,
    max_rows: int,
    force: bool,
    full_check: bool,
) -> None:
    """Run SQL over a dataset's views: solutions, rejects, problems, groups (a repair
    dataset: repairs, trajectories, rejects, problems).

    QUERY "-" reads the query from stdin. Without QUERY, opens the `duckdb` CLI on the views
    if it is installed, else prints the CREATE VIEW statements that attach them.
    """
    from codelog import open_dataset
    from codelog.dataset import query as q
    from codelog.progress import result_console, say

    if full_check:
        _full_check(dataset_dir)
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
    con = open_dataset(dataset_dir)
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
        _full_check(dataset_dir)
    kind = _dataset_kind(dataset_dir)
    if plot and not kind.has("dataset.stats_plot"):
        raise click.UsageError(f"--plot draws a solutions dataset; this is a {kind.name} dataset")
    result = codelog.stats(dataset_dir)
    if as_json:
        _print_json(kind.part("dataset.stats_data")(result))
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
    "--seed", type=int, default=0, show_default=True, help="dpo: which pairs; lists: which lists."
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
    help="dpo/kto/grpo: TRL's conversational format (user and assistant messages) for "
    "instruct models, instead of plain strings; sft: a `messages` column.",
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
        _full_check(dataset_dir)
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
        _print_json(report.to_dict())
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


@cli.command()
@click.option(
    "--from",
    "from_format",
    type=click.Choice(["junit"]),
    required=True,
    help="Format of the reports: JUnit XML (pytest, Maven surefire, ...).",
)
@click.argument("reports", nargs=-1, required=True, callback=_local_strings)
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


# --- running code: judge, eval (codelog.execution) ---------------------------------------------

_ISOLATION = click.Choice(["auto", "bwrap", "unshare", "rlimits"])


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
    help="Where the tests come from: codenet (the bundled sample), codenet:DIR (a CodeNet "
    "tree or a built dataset), humaneval, or a problems .jsonl. Default for a dataset: its "
    "own problems' sample I/O.",
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
@click.option("--workers", type=int, help="Judging processes. Default: all cores.")
@click.option("--isolation", type=_ISOLATION, default="auto", show_default=True)
@click.option(
    "--cold",
    is_flag=True,
    help="Start every Python run from a fresh interpreter. Default: fork it from a warm "
    "interpreter in the same sandbox (docs/judge-performance.md), where bwrap works.",
)
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
    help="humaneval, codenet, codenet:DIR (a CodeNet tree or a built dataset) or a problems .jsonl.",
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
@click.option("--workers", type=int, help="Judging processes. Default: all cores.")
@click.option("--isolation", type=_ISOLATION, default="auto", show_default=True)
@click.option(
    "--cold",
    is_flag=True,
    help="Start every Python run from a fresh interpreter. Default: fork it from a warm "
    "interpreter in the same sandbox (docs/judge-performance.md), where bwrap works.",
)
@click.option(
    "--split",
    type=click.Choice(["train", "test", "all"]),
    help="A dataset benchmark (codenet:DIR of a built dataset): only this split's problems "
    "(test: the held-out ones). Default: all of them.",
)
@executor_option
@force_option
@manners
def eval_command(
    benchmark: str,
    model: str | None,
    samples_file: Path | None,
    n: int,
    ks: str,
    out: Path | None,
    temperature: float,
    top_p: float,
    max_new_tokens: int,
    batch_size: int,
    seed: int,
    limit: int | None,
    recipe: Path | None,
    workers: int | None,
    isolation: str,
    split: str | None,
    force: bool,
    executor: Any,
    cold: bool,
) -> None:
    """pass@k of a model (or of a file of completions) on a benchmark, judged in the sandbox."""
    from codelog.evaluation.pass_at_k import run_eval
    from codelog.progress import console as chatter
    from codelog.progress import show_progress

    run_eval(
        benchmark=benchmark,
        model=model,
        samples_file=samples_file,
        n=n,
        ks=ks,
        out=out,
        temperature=temperature,
        top_p=top_p,
        max_new_tokens=max_new_tokens,
        batch_size=batch_size,
        seed=seed,
        limit=limit,
        recipe=recipe,
        workers=workers,
        isolation=isolation,
        quiet=chatter.quiet,
        progress=show_progress(),
        split=split,
        force=force,
        executor=executor,
        warm=not cold,
    )


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)  # SIGTERM unwinds like Ctrl-C: cleanup, then 143
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
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except CodelogError as exc:
        _error(str(exc))
    except BrokenPipeError:
        # `codelog sql ... | head`: the reader left; not an error worth a message
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
    except OSError as exc:
        # The disk or the system, not codelog: one line naming the path, no traceback.
        where = f"{os.fsdecode(exc.filename)}: " if exc.filename else ""
        _error(f"{where}{exc.strerror or exc}")
    except Exception as exc:
        message = _library_error(exc)
        if message is None:
            raise
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


if __name__ == "__main__":
    main()
