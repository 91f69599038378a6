"""`codelog train`, and where a run may write."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import click

from codelog import kinds
from codelog.cli.common import (
    LocalPath,
    cli,
    quiet_option,
    verify_option,
    verify_whole,
)


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
    help="pass@k problems: a benchmark (humaneval, mbpp:PATH, apps:PATH, ...: its default "
    "split), codenet:DIR or FILE.jsonl. [the dataset's test split]",
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
    "--compile",
    "compile_",
    is_flag=True,
    help="torch.compile each transformer block (compiles on the first steps; see docs/training.md).",
)
@click.option(
    "--layout",
    type=click.Choice(["padded", "shared"]),
    default="shared",
    show_default=True,
    help="shared: each prompt computed once for its group's solutions (3-8x the solution "
    "tokens/s on CPU); padded: each sequence whole, as before (for comparisons).",
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
    compile_: bool,
    layout: str,
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
    explicit = load_recipe(recipe) if recipe else None
    built_with = manifest.get("recipe")
    if explicit is None and built_with:  # what the trainer starts from (codelog.training.loop)
        resolve_recipe(
            Recipe.from_dict(built_with, where=f"{dataset_dir}/manifest.json recipe"), overrides
        )
    else:
        resolve_recipe(explicit or load_recipe(), overrides)
    from codelog.training.loop import train as run_train
    from codelog.training.report import print_summary

    out = out or Path("runs") / f"{dataset_dir.name}-{overrides.get('algo', 'rloo')}"
    # codelog-safe: where a run may write, and what it reads, checked before any model loads
    check_run_out(out, dataset_dir)
    if full_check:
        verify_whole(dataset_dir)
    from codelog.dataset.decontamination import unchecked_warning
    from codelog.progress import warn

    # after the checks that can refuse the run: a refused run is one error line
    if message := unchecked_warning(manifest, str(dataset_dir), eval_benchmark):
        warn(message)
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
            recipe=explicit,
            resume=resume,
            progress=manners_.show_progress(),
            quiet=manners_.console.quiet,
            gradient_checkpointing=gradient_checkpointing,
            compile=compile_,
            layout=layout,
            reference=reference,
            report_to=report_to,
            memory_check=memory_check,
            evaluators=evaluators,
            task=task,
        )
    print_summary(result)


def training_into(out: Path) -> contextlib.AbstractContextManager[None]:
    """The disk refusing a write while training (full, read-only) as one line naming the path,
    and what a rerun does with the half-made run directory."""
    from codelog.files import writing

    return writing(
        out,
        f"training into {out}; once there is room, the same command starts again in that "
        "directory, or --resume continues from its latest checkpoint",
    )


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
