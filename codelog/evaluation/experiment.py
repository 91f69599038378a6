"""`codelog experiment`: the paper's table in one command, a train x eval matrix.

Rows are methods (`base`, the untrained model, then one training run per advantage estimator:
sft, rloo, grpo, exp); columns are benchmark x difficulty x k. Each row is a *cell*, a directory
under the experiment's DIR:

    DIR/experiment.json          what the directory is (written first: the marker)
    DIR/<algo>/inputs.json       the cell's inputs, written when it starts
    DIR/<algo>/run/              the `codelog train` run directory (base: DIR/base/base-model)
    DIR/<algo>/eval/<bench>/     `codelog eval`'s samples.jsonl and summary.json
    DIR/<algo>/cell.json         inputs + figures, written atomically when the cell is done
    DIR/results.json, results.md, results.png   the table, rebuilt from the cells at the end

A cell is done when its cell.json exists and its inputs match this run's (dataset digest, algo,
model, steps, seed, n, k, benchmarks, sampling and the rest of [train]): it is never redone. A
done cell with other inputs is an error naming the flag that differs. A cell that never finished
is continued: its training resumes from its latest checkpoint (`codelog train --resume`), its
evaluation runs again; if its inputs changed, it starts over (its directory is codelog's own).

pass@k per problem is the unbiased estimator of Chen et al. 2021 (codelog.evaluation.scoring);
a column's figure is its mean over the column's problems, and its standard error is the standard
error of that mean: the sample standard deviation (ddof 1) of the per-problem estimates over the
square root of the number of problems (None with a single problem). It covers which problems
were drawn and each problem's sampling noise; it treats the problems as independent draws.
Whether two rows differ is judged paired, per problem both scored (each row's `against`: minus
the base model, minus SFT; codelog.uncertainty), not from the two standard errors.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codelog.dataset.open import read_manifest
from codelog.errors import BusyError, CodelogError, RecipeError
from codelog.evaluation.problems import HELDOUT, resolve_benchmark
from codelog.evaluation.reporting import (
    BASE,
    against,
    columns_of,
    figures_line,
    results_markdown,
    write_plot,
)
from codelog.evaluation.run import run_eval
from codelog.evaluation.scoring import by_difficulty
from codelog.evaluation.spec import EvalSpec, Sampling
from codelog.files import (
    check_output_dir,
    exclusive_lock,
    refuse_inputs,
    replacing,
)
from codelog.progress import _clock
from codelog.recipe import Experiment, Recipe, load_recipe
from codelog.version import __version__

MARKER = "experiment.json"
CELL_FILE = "cell.json"
INPUTS_FILE = "inputs.json"
ESTIMATOR = (
    "pass@k: the unbiased estimator 1 - C(n-c, k)/C(n, k) (Chen et al. 2021) per problem, "
    "averaged over the problems; stderr@k: the standard error of that mean over problems "
    "(sample standard deviation of the per-problem estimates, ddof 1, / sqrt(problems)); "
    "null with one problem"
)
# Inputs that do not change a cell's figures: a finished cell is kept whatever they are.
_NOT_INPUTS = {"checkpoint_every", "eval_every", "keep_checkpoints"}
_TRAIN_FLAGS = ("model", "steps", "seed")  # flags that set [train] fields
# The flag that sets each input, for the error when a finished cell disagrees.
_FLAGS = {
    "dataset": "DATASET",
    "algo": "--algos",
    "model": "--model",
    "steps": "--steps",
    "seed": "--seed",
    "benchmarks": "--benchmark",
    "n": "-n",
    "k": "-k",
    "temperature": "--temperature",
    "max_new_tokens": "--max-new-tokens",
    "limit": "--limit",
}


@dataclass(frozen=True)
class Plan:
    """An experiment's inputs, resolved: the recipe's [train] and [experiment] under the flags."""

    dataset: Path
    out: Path
    recipe: Recipe  # its [train] holds model, steps and seed
    recipe_path: Path | None  # --recipe, for the prompt of a non-dataset benchmark
    settings: Experiment
    digest: str  # of the dataset's data files (codelog.dataset manifest sha256s)

    @property
    def seed(self) -> int:
        return self.recipe.train.seed


@dataclass
class ExperimentResult:
    out: Path
    results: dict[str, Any]  # what results.json holds
    ran: list[str] = field(default_factory=list)  # cells computed by this call
    kept: list[str] = field(default_factory=list)  # cells finished before, kept as they were
    plot: Path | None = None  # results.png, when matplotlib is installed


# ---------------------------------------------------------------------------------- the plan


def plan_experiment(
    dataset: Path, out: Path, *, recipe: Path | None = None, flags: Mapping[str, Any] | None = None
) -> Plan:
    """Every input checked, before any model loads: a bad flag fails here, naming itself.
    `flags`: `codelog.experiment`'s keywords by name (None: the recipe's); model, steps and
    seed are [train]'s, the others [experiment]'s."""
    from codelog.training.options import known_algos, resolve_recipe

    manifest = read_manifest(dataset)  # a DatasetError when `dataset` is not one
    base = (
        load_recipe(recipe)
        if recipe is not None
        else Recipe.from_dict(manifest["recipe"], where=f"{dataset}/manifest.json recipe")
        if manifest.get("recipe")
        else load_recipe()
    )
    given = {key: value for key, value in (flags or {}).items() if value is not None}
    overrides = {key: given.pop(key) for key in _TRAIN_FLAGS if key in given}
    for key in ("algos", "benchmarks", "k"):  # the frozen recipe holds tuples
        if key in given:
            given[key] = tuple(given[key])
    settings = dataclasses.replace(base.experiment or Experiment(), **given)
    _check_settings(settings)
    resolved = resolve_recipe(base, overrides)
    for algo in settings.algos:  # each training row's recipe, checked now
        if algo != BASE:
            try:
                resolve_recipe(resolved, {"algo": algo})
            except RecipeError:
                raise CodelogError(
                    f"--algos {','.join(settings.algos)}: {algo!r} is not {BASE} (the untrained "
                    f"model) or an estimator ({', '.join(known_algos())})"
                ) from None
    for benchmark in settings.benchmarks:  # a missing file fails now, not after a training
        _check_benchmark(Path(dataset), benchmark)
    resolved = dataclasses.replace(resolved, experiment=settings)
    return Plan(Path(dataset), Path(out), resolved, recipe, settings, dataset_digest(manifest))


def _check_benchmark(dataset: Path, benchmark: str) -> None:
    """A column's problems load (`heldout`: the dataset's test split), before any training."""
    name, split = _column_benchmark(dataset, benchmark)
    try:
        resolve_benchmark(name, split)
    except CodelogError as exc:
        if benchmark != HELDOUT:
            raise
        raise CodelogError(
            f"--benchmark heldout: {exc}; give --benchmark NAME[:PATH] (mbpp, apps, humaneval, "
            "...), codenet:DIR or FILE.jsonl"
        ) from None


def _column_benchmark(dataset: Path, benchmark: str) -> tuple[str, str | None]:
    """`codelog eval`'s --benchmark and --split for a column."""
    return (f"codenet:{dataset}", "test") if benchmark == HELDOUT else (benchmark, None)


def _check_settings(e: Experiment) -> None:
    problems = [
        (not e.algos, "--algos", "names no method"),
        (len(set(e.algos)) != len(e.algos), "--algos", "names a method twice"),
        (not e.benchmarks, "--benchmark", "names no benchmark"),
        (len(set(e.benchmarks)) != len(e.benchmarks), "--benchmark", "names a benchmark twice"),
        (e.n < 1, "-n", "must be at least 1"),
        (not e.k or min(e.k) < 1, "-k", "must be positive integers"),
        (
            bool(e.k) and max(e.k) > e.n,
            "-k",
            f"pass@{max(e.k or (0,))} needs -n {max(e.k or (0,))} or more",
        ),
        (e.temperature < 0, "--temperature", "must be >= 0"),
        (e.max_new_tokens < 1, "--max-new-tokens", "must be at least 1"),
        (e.limit < 0, "--limit", "must be >= 0 (0 = every problem)"),
    ]
    values = {
        "--algos": ",".join(e.algos),
        "--benchmark": " ".join(e.benchmarks),
        "-n": e.n,
        "-k": ",".join(map(str, e.k)),
        "--temperature": e.temperature,
        "--max-new-tokens": e.max_new_tokens,
        "--limit": e.limit,
    }
    for bad, flag, why in problems:
        if bad:
            raise CodelogError(f"{flag} {values[flag]}: {why}")


def dataset_digest(manifest: Mapping[str, Any]) -> str:
    """sha256 over the data files' sha256s in the manifest (the card, README.md, left out: a
    user may edit it). The same data gives the same digest, wherever the dataset lies."""
    files = manifest.get("files", {})
    text = "\n".join(
        f"{name} {entry['sha256']}" for name, entry in sorted(files.items()) if name != "README.md"
    )
    return hashlib.sha256(text.encode()).hexdigest()


def cell_inputs(plan: Plan, algo: str) -> dict[str, Any]:
    """What a cell's figures depend on: the keys a finished cell is checked against."""
    from codelog.training.options import resolve_recipe

    e, t = plan.settings, plan.recipe.train
    inputs: dict[str, Any] = {
        "dataset": plan.digest,
        "algo": algo,
        "model": t.model,
        "seed": t.seed,
        "benchmarks": list(e.benchmarks),
        "n": e.n,
        "k": list(e.k),
        "temperature": e.temperature,
        "max_new_tokens": e.max_new_tokens,
        "limit": e.limit,
        "prompt": plan.recipe.prompt.template,
    }
    if algo == BASE:
        inputs["max_length"] = t.max_length  # the tiny model is built for it
    else:
        trained = resolve_recipe(plan.recipe, {"algo": algo}).train
        inputs["steps"] = trained.steps
        inputs["train"] = {
            key: value
            for key, value in dataclasses.asdict(trained).items()
            if key not in _NOT_INPUTS and key not in inputs and key != "algo"
        }
    return inputs


def _difference(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """The first input that differs, as the flag (or recipe key) and both values."""
    for key in sorted(set(old) | set(new), key=lambda k: (k not in _FLAGS, k)):
        if old.get(key) == new.get(key):
            continue
        if key == "train":
            inner_old, inner_new = old.get(key) or {}, new.get(key) or {}
            for name in sorted(set(inner_old) | set(inner_new)):
                if inner_old.get(name) != inner_new.get(name):
                    return (
                        f"--recipe ([train] {name} = {inner_old.get(name)!r}, "
                        f"not {inner_new.get(name)!r})"
                    )
        if key == "prompt":
            return "--recipe ([prompt] template differs)"
        if key == "dataset":
            return f"DATASET (data digest {str(old.get(key))[:12]}, not {str(new.get(key))[:12]})"
        flag = _FLAGS.get(key, f"--recipe ({key})")
        return f"{flag} {_shown(old.get(key))}, not {_shown(new.get(key))}"
    return None


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


# ------------------------------------------------------------------------------------ the run


def run_experiment(
    plan: Plan,
    *,
    progress: bool = False,
    quiet: bool = False,
    say: Callable[[str], Any] | None = None,
    workers: int | None = None,
) -> ExperimentResult:
    """Train and evaluate every cell of `plan` not done yet, then write the table."""
    out = plan.out
    refuse_inputs(out, [plan.dataset])
    check_output_dir(out, _is_experiment, "codelog experiment directory", MARKER)
    out.mkdir(parents=True, exist_ok=True)
    say = say or (lambda message: None)
    try:
        with exclusive_lock(out / ".lock", f"experiment {out}"):
            _write_json(
                out / MARKER,
                {
                    "codelog_version": __version__,
                    "dataset": str(plan.dataset),
                    "recipe": plan.recipe.to_dict(),
                },
            )
            return _run_cells(plan, progress=progress, quiet=quiet, say=say, workers=workers)
    except BusyError:
        raise CodelogError(
            f"--out {out}: another `codelog experiment` is running in it; wait for it to finish"
        ) from None


def _run_cells(
    plan: Plan, *, progress: bool, quiet: bool, say: Callable[[str], Any], workers: int | None
) -> ExperimentResult:
    algos = plan.settings.algos
    result = ExperimentResult(plan.out, {})
    cells: dict[str, dict[str, Any]] = {}
    durations: list[float] = []
    # Finished cells first: a finished cell that disagrees with this run is an error before
    # any work, not after an hour of it.
    for algo in algos:
        done = _finished(plan, algo)
        if done is not None:
            cells[algo] = done
    todo = [a for a in algos if a not in cells]
    for algo in todo:
        _begun(plan.out / algo)  # a directory that is not a cell: an error before any work
    for number, algo in enumerate(algos, 1):
        head = f"[{number}/{len(algos)}] {algo}"
        if algo in cells:
            result.kept.append(algo)
            say(f"{head}: finished earlier, kept ({figures_line(cells[algo])})")
            continue
        what = (
            "evaluate the base model"
            if algo == BASE
            else (f"train {plan.recipe.train.steps} steps, then evaluate")
        )
        say(f"{head}: {what}")
        started = time.monotonic()
        cells[algo] = _run_cell(plan, algo, progress=progress, quiet=quiet, workers=workers)
        durations.append(time.monotonic() - started)
        result.ran.append(algo)
        left = len(todo) - len(durations)
        eta = f"; ETA {_clock(left * sum(durations) / len(durations))}" if left else ""
        say(f"{head}: done in {_clock(durations[-1])} ({figures_line(cells[algo])}){eta}")
    result.results = results_data(plan, [cells[a] for a in algos])
    _write_json(plan.out / "results.json", result.results)
    _write_text(plan.out / "results.md", results_markdown(result.results))
    result.plot = write_plot(result.results, plan.out / "results.png", say)
    return result


def _is_experiment(path: Path) -> bool:
    try:
        info = json.loads((path / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and "codelog_version" in info


def _finished(plan: Plan, algo: str) -> dict[str, Any] | None:
    """The cell's record when it is done with these inputs; None when it never finished. A
    finished cell with other inputs is an error naming the flag."""
    path = plan.out / algo / CELL_FILE
    try:
        cell = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # written atomically: only a hand edit gets here
        raise CodelogError(f"{path}: unreadable ({exc}); move the cell away to redo it") from None
    differs = _difference(cell.get("inputs", {}), cell_inputs(plan, algo))
    if differs is not None:
        raise CodelogError(
            f"{path}: the {algo} cell finished with {differs}; pass the same values to continue "
            f"this experiment, or give another --out"
        )
    return cell


def _begun(cell: Path) -> dict[str, Any] | None:
    """The inputs of a cell that began (None: an empty directory, or one killed before its
    inputs.json); a directory the experiment did not make is an error, and left alone."""
    try:
        return json.loads((cell / INPUTS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        visible = [e for e in cell.iterdir() if not e.name.startswith(".")] if cell.is_dir() else []
        if visible and not (cell / INPUTS_FILE).exists():  # hidden: a temporary file of ours
            raise CodelogError(
                f"{cell}: exists but is not a cell of this experiment (no {INPUTS_FILE}); "
                "it is left alone: move it away or give another --out"
            ) from None
        return None


def _run_cell(
    plan: Plan, algo: str, *, progress: bool, quiet: bool, workers: int | None
) -> dict[str, Any]:
    cell = plan.out / algo
    inputs = cell_inputs(plan, algo)
    if cell.exists() and _begun(cell) != inputs:
        shutil.rmtree(cell)  # it never finished, with other inputs: start it over
    cell.mkdir(parents=True, exist_ok=True)
    _write_json(cell / INPUTS_FILE, inputs)
    started = time.monotonic()
    if algo == BASE:
        model, training = _base_model(plan, cell), None
    else:
        model, training = _train(plan, algo, cell / "run", progress=progress, quiet=quiet)
    trained = time.monotonic()
    evaluations = {
        benchmark: evaluate_model(
            plan, model, benchmark, cell / "eval" / _slug(benchmark), progress, workers
        )
        for benchmark in plan.settings.benchmarks
    }
    record = {
        "inputs": inputs,
        "algo": algo,
        "model": os.path.relpath(model, plan.out) if Path(model).exists() else model,
        "training": training,
        "results": evaluations,
        "seconds": {
            "train": round(trained - started, 3),
            "eval": round(time.monotonic() - trained, 3),
        },
    }
    _write_json(cell / CELL_FILE, record)  # the cell is done once this file is in place
    return record


def _base_model(plan: Plan, cell: Path) -> str:
    """The untrained model every training row starts from: `tiny` built (with the seed and
    length each run builds it with, so the same weights), a .gguf converted, a name as it is."""
    from codelog.training import data, models

    t = plan.recipe.train
    dataset = data.open_dataset(plan.dataset)
    models.quiet_transformers()  # as training does: no "Writing model shards" bar
    return models.prepare_base(t.model, dataset, cell / "base-model", t.max_length, t.seed)


def _train(
    plan: Plan, algo: str, run_dir: Path, *, progress: bool, quiet: bool
) -> tuple[str, dict[str, Any]]:
    """Train one row (or continue its run from its latest checkpoint); its final checkpoint."""
    from codelog.training import checkpoint as ckpt
    from codelog.training.loop import train

    steps = plan.recipe.train.steps
    saved = ckpt.checkpoints(run_dir) if run_dir.is_dir() else []
    if not saved or int(saved[-1].name[5:]) != steps:
        train(
            plan.dataset,
            run_dir,
            {"algo": algo},
            recipe=plan.recipe,
            resume=bool(saved),
            progress=progress,
            quiet=quiet,
        )
        saved = ckpt.checkpoints(run_dir)
    last = saved[-1]
    if int(last.name[5:]) != steps:
        raise CodelogError(f"{run_dir}: training stopped at {last.name}, not step {steps}")
    return str(last), {"steps": steps, "checkpoint": str(last.relative_to(plan.out))}


def evaluate_model(
    plan: Plan, model: str, benchmark: str, out: Path, progress: bool, workers: int | None
) -> dict[str, Any]:
    """pass@k of `model` on `benchmark`, per difficulty, each with its standard error.

    The one place the experiment evaluates: `codelog eval`'s run (what `codelog.evaluate`
    calls; evaluation/ may not import the API above it), writing samples.jsonl and
    summary.json into `out`."""
    e = plan.settings
    name, split = _column_benchmark(plan.dataset, benchmark)
    spec = EvalSpec(
        benchmark=name,
        model=model,
        ks=tuple(sorted(set(e.k))),
        sampling=Sampling(
            n=e.n, temperature=e.temperature, max_new_tokens=e.max_new_tokens, seed=plan.seed
        ),
        out=out,
        split=split,
        limit=e.limit or None,
        recipe=plan.recipe_path,
        workers=workers,
        quiet=True,
        progress=progress,
        force=True,  # out is the cell's own directory
    )
    result = run_eval(spec)
    summary = result.summary()
    return {
        "problems": summary["problems"],
        "samples": summary["samples"],
        "skipped": summary["skipped"],
        "by_difficulty": by_difficulty(summary["per_problem"], e.k),
        # what the rows are paired on: each problem's pass@k (and difficulty)
        "per_problem": {
            pid: {key: value for key, value in entry.items() if key.startswith("pass@")}
            | ({"difficulty": entry["difficulty"]} if entry.get("difficulty") else {})
            for pid, entry in summary["per_problem"].items()
        },
    }


# -------------------------------------------------------------------------------- the table


def results_data(plan: Plan, cells: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """results.json: the settings, the estimator, and a row per method. Only `seconds` differs
    between two runs of the same experiment (and a resumed one)."""
    e, t = plan.settings, plan.recipe.train
    return {
        "codelog_version": __version__,
        "dataset": str(plan.dataset),
        "dataset_digest": plan.digest,
        "recipe": plan.recipe.name,
        "model": t.model,
        "steps": t.steps,
        "seed": t.seed,
        "n": e.n,
        "k": list(e.k),
        "temperature": e.temperature,
        "max_new_tokens": e.max_new_tokens,
        "limit": e.limit,
        "benchmarks": list(e.benchmarks),
        "algos": list(e.algos),
        "estimator": ESTIMATOR,
        "columns": [{"benchmark": b, "difficulty": d, "k": k} for b, d, k in columns_of(cells, e)],
        "rows": [
            {
                "algo": cell["algo"],
                "model": cell["model"],
                "training": cell["training"],
                "results": {
                    benchmark: {key: v for key, v in result.items() if key != "per_problem"}
                    for benchmark, result in cell["results"].items()
                },
                "against": against(cell, cells, e.k),
                "seconds": cell["seconds"],
            }
            for cell in cells
        ],
    }


# ------------------------------------------------------------------------------------ helpers


def _slug(benchmark: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", benchmark).strip("-.") or "benchmark"


def _write_json(path: Path, data: Any) -> None:
    _write_text(path, json.dumps(data, indent=2) + "\n")


def _write_text(path: Path, text: str) -> None:
    """Whole or absent: a temporary file, flushed to disk, renamed into place."""
    with replacing(path, durable=True) as tmp:
        tmp.write_text(text, encoding="utf-8")
