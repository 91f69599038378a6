"""A run directory: what the run is (run.json), its checkpoints, and the lock that keeps it to one
trainer. A checkpoint holds everything needed to continue exactly: weights (save_pretrained),
tokenizer, recipe, the dataset's input_fingerprint, optimizer, scheduler, RNG and sampler state.

A checkpoint is read as data, never as code: the trainer state is a torch file of tensors,
numbers, strings and containers only (RNG states are tensors; the sampler's numpy state is a
dict of ints), loaded with `weights_only=True`, so a pickle planted in `trainer_state.pt` is
refused, not run. A checkpoint whose files cannot be read is one TrainingError naming the file.
"""

from __future__ import annotations

import contextlib
import json
import pickle
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch
from torch import nn

from codelog.files import replacing
from codelog.recipe import Recipe
from codelog.training import data, models
from codelog.training.options import RESUMABLE, TrainingError, resolve_recipe

RUN_FILE = "run.json"  # in the run dir: what the run is (recipe, dataset, base model)
CHECKPOINT_FILE = "codelog.json"  # in each checkpoint: step, recipe, input_fingerprint, ...
STATE_FILE = "trainer_state.pt"  # in each checkpoint: optimizer, scheduler, RNG, sampler


def checkpoints(run_dir: Path) -> list[Path]:
    """Complete checkpoints of a run, oldest first (a partial one is never renamed into place)."""
    found = [p for p in (run_dir / "checkpoints").glob("step-*") if p.name[5:].isdigit()]
    return sorted(found, key=lambda p: int(p.name[5:]))


def save_checkpoint(
    run_dir: Path,
    step: int,
    model: nn.Module,
    tokenizer: Any,
    state: dict[str, Any],
    info: dict[str, Any],
    keep: int,
) -> Path:
    final = run_dir / "checkpoints" / f"step-{step:06d}"
    partial = final.with_name(f".{final.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with models.peft_quietly():
        model.save_pretrained(partial)
    _sort_lora_targets(partial)
    tokenizer.save_pretrained(partial)
    (partial / CHECKPOINT_FILE).write_text(
        json.dumps({**info, "step": step}, indent=2) + "\n", encoding="utf-8"
    )
    torch.save(state, partial / STATE_FILE)
    shutil.rmtree(final, ignore_errors=True)
    partial.rename(final)
    for old in checkpoints(run_dir)[:-keep] if keep else []:
        shutil.rmtree(old)
    return final


def _sort_lora_targets(checkpoint: Path) -> None:
    """peft keeps a LoRA's target_modules as a set and writes them in the set's order, which
    follows the process's string hashing (PYTHONHASHSEED): two identical runs wrote the same
    weights under adapter_config.json files that differed. Sorted, they write the same bytes."""
    path = checkpoint / "adapter_config.json"
    if not path.is_file():
        return
    config = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(config.get("target_modules"), list):
        config["target_modules"] = sorted(config["target_modules"])
        path.write_text(json.dumps(config, indent=2, sort_keys=True), encoding="utf-8")  # as peft


def load_state(checkpoint: Path) -> dict[str, Any]:
    """The trainer state saved with `checkpoint`, read as data (`weights_only=True`): a file
    that is damaged, or holds anything but tensors, numbers, strings and containers, is a
    TrainingError naming it. Checkpoints of earlier codelog versions hold the same types and
    load as they are."""
    path = checkpoint / STATE_FILE
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, EOFError, RuntimeError, ValueError, OSError) as exc:
        if isinstance(exc, torch.OutOfMemoryError):
            raise
        # torch's message is advice to load with weights_only=False (never, here); keep what
        # it found: "Unsupported global: GLOBAL posix.system ..." says what was planted
        found = re.search(r"WeightsUnpickler error:\s*(.+?)(?:\. |\n|$)", str(exc), re.S)
        text = str(exc).strip()
        reason = found.group(1).strip() if found else (text.splitlines()[0] if text else "")
        reason = reason or type(exc).__name__
        raise TrainingError(
            f"{path}: not a trainer state codelog can read ({reason}); it was not loaded. "
            "Remove this checkpoint to resume from the one before, or start the run again"
        ) from None
    if not isinstance(state, dict) or not isinstance(state.get("step"), int):
        raise TrainingError(f"{path}: not a trainer state (no step); it was not used")
    return state


@contextlib.contextmanager
def reading(checkpoint: Path | None) -> Iterator[None]:
    """Turns a failure to read the weights or tokenizer of `checkpoint` (a truncated
    model.safetensors, say) into one TrainingError naming the checkpoint."""
    if checkpoint is None:
        yield
        return
    try:
        yield
    except TrainingError:
        raise
    except Exception as exc:
        if isinstance(exc, torch.OutOfMemoryError | MemoryError):
            raise
        named = [p.name for p in checkpoint.glob("*.safetensors")]
        raise TrainingError(
            f"{checkpoint}: its weights cannot be read ({', '.join(named) or 'no weights file'}: "
            f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}); "
            "remove this checkpoint to resume from the one before, or start the run again"
        ) from None


_held: dict[Path, Any] = {}


def unlock_run_dir(run_dir: Path) -> None:
    """Release the lock of `run_dir` if this process holds it (a failed run too: a rerun in the
    same process, through the Python API, must not find it taken)."""
    handle = _held.pop(Path(run_dir).resolve(), None)
    if handle is not None:
        handle.close()


def lock_run_dir(run_dir: Path) -> Any:
    """An exclusive lock on the run directory, so two trainers never write the same checkpoints."""
    handle = (run_dir / ".lock").open("w")
    _held[Path(run_dir).resolve()] = handle
    try:
        import fcntl

        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # not on a POSIX system: no lock
        pass
    except BlockingIOError:
        handle.close()
        _held.pop(Path(run_dir).resolve(), None)
        raise TrainingError(f"{run_dir}: another `codelog train` is running in it") from None
    return handle


def resumed_recipe(
    run_dir: Path, overrides: dict[str, Any], dataset: data.DatasetDir
) -> tuple[Recipe, dict[str, Any]]:
    """The recipe and run.json of the run in `run_dir`, checked for `--resume`: the run continues
    with its own settings (only RESUMABLE options may change) on the dataset it started with."""
    if not (run_dir / RUN_FILE).is_file():
        raise TrainingError(f"{run_dir}: no run to resume ({RUN_FILE} missing)")
    if not checkpoints(run_dir):
        raise TrainingError(f"{run_dir}: no checkpoint to resume from")
    run_info = json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
    saved = Recipe.from_dict(run_info["recipe"], where=str(run_dir / RUN_FILE))
    changed = {
        k for k, v in overrides.items() if k not in RESUMABLE and getattr(saved.train, k) != v
    }
    if changed:
        raise TrainingError(
            f"{run_dir}: a resumed run continues with its own settings; "
            f"{sorted(changed)} differ from the run's ({ {k: getattr(saved.train, k) for k in sorted(changed)} })"
        )
    recipe = resolve_recipe(saved, {k: v for k, v in overrides.items() if k in RESUMABLE})
    if run_info["input_fingerprint"] != dataset.input_fingerprint:
        raise TrainingError(
            f"{dataset.path}: input_fingerprint {dataset.input_fingerprint} differs from the run's "
            f"{run_info['input_fingerprint']}; resume on the dataset the run started with"
        )
    return recipe, run_info


def truncate_metrics(metrics_path: Path, step: int) -> None:
    """Steps logged after the checkpoint will be run again: drop them from the log."""
    lines = metrics_path.read_text(encoding="utf-8").splitlines() if metrics_path.exists() else []
    metrics_path.write_text(
        "".join(ln + "\n" for ln in lines if json.loads(ln)["step"] <= step), encoding="utf-8"
    )


def begin_run(
    run_dir: Path, dataset: data.DatasetDir, recipe: Recipe, version: str
) -> dict[str, Any]:
    """A new run: the base model made ready (`tiny` built, a .gguf converted, beside the run),
    run.json written, metrics.jsonl started. Rank 0 only."""
    t = recipe.train
    base = models.prepare_base(t.model, dataset, run_dir / "base-model", t.max_length, t.seed)
    run_info = {
        "codelog_version": version,
        "dataset": str(dataset.path.resolve()),
        "input_fingerprint": dataset.input_fingerprint,
        "base_model": base,
        "recipe": recipe.to_dict(),
    }
    # whole or absent: a full disk must not leave a run.json that makes the directory a run
    with replacing(run_dir / RUN_FILE) as tmp:
        tmp.write_text(json.dumps(run_info, indent=2) + "\n", encoding="utf-8")
    (run_dir / "metrics.jsonl").write_text("", encoding="utf-8")
    return run_info


def read_run_info(run_dir: Path) -> dict[str, Any]:
    return json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
