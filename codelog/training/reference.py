"""The KL penalty to the reference policy (the model training started from), and its cache.

KL_i is the k3 estimate exp(q - p) - (q - p) - 1 on solution i's tokens, with p the policy's and
q the reference's token log-prob, reduced over the tokens like the likelihood term.

With logged data q never changes: the reference is fixed and so are the sequences. So the
reference log-probs of every sequence the run will train on are computed once, before the first
step, in one no-grad pass (`ReferenceCache.fill`), and each step reads them: a step with KL then
costs what a step without it costs. The cache sits beside the run (run_dir/reference/<key>/),
keyed by what the numbers depend on: the dataset (input fingerprint and solutions.parquet's
sha256), the reference model (its name, config and weight files), the tokenization (tokenizer,
chat template, prompt template, max_length) and the arithmetic (device type, precision). A
resumed or extended run reads it and computes only what is missing.

Each sequence is computed in a forward pass of its own (no padding, no neighbours), so its values
do not depend on which rows were computed together, in which run or on which rank: a resumed run
reads bit-identical values.

`--reference recompute` (TrainOptions.reference) keeps the old way, a reference forward in every
step; bench/train_step.py measures both.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from codelog.progress import rate_progress
from codelog.recipe import Train
from codelog.training import data, models
from codelog.training.batches import MicroBatch, Prompts, draw_groups, encode_group, lay_out
from codelog.training.distributed import Dist
from codelog.training.logprobs import reduce_tokens, token_logps
from codelog.training.memory import Precision


def k3(ref_logp: torch.Tensor, logp: torch.Tensor, mask: torch.Tensor, how: str) -> torch.Tensor:
    """Per sequence, the k3 estimate of KL(policy || reference) over the masked tokens."""
    delta = ref_logp - logp
    return reduce_tokens(torch.exp(delta) - delta - 1, mask, how)


def cached_kl(batch: MicroBatch, logp: torch.Tensor, mask: torch.Tensor, how: str) -> torch.Tensor:
    """KL from the micro-batch's cached reference log-probs (the same (B, S) grid as `logp`)."""
    return k3(batch.ref_logp, logp, mask, how)


def recomputed_kl(
    model: nn.Module,
    reference: nn.Module | None,
    batch: MicroBatch,
    logp: torch.Tensor,
    mask: torch.Tensor,
    how: str,
) -> torch.Tensor:
    """KL with the reference's forward pass run now. With LoRA the reference is the model with
    its adapters disabled (`reference` is None); full fine-tuning keeps a frozen copy."""
    with torch.no_grad():
        if reference is None:
            with model.disable_adapter():
                ref_logp, _ = token_logps(model, batch)
        else:
            ref_logp, _ = token_logps(reference, batch)
    return k3(ref_logp, logp, mask, how)


# --- the cache ---------------------------------------------------------------------------------


def model_identity(name: str) -> dict[str, Any]:
    """What identifies a model's weights: for a local directory its config and the names and sizes
    of its weight files (hashing gigabytes of weights at every start would cost minutes); for a
    hub name, the name (pass a local path to pin a revision)."""
    path = Path(name)
    if not path.is_dir():
        return {"name": name}
    config = path / "config.json"
    weights = sorted(
        (p.name, p.stat().st_size)
        for p in path.iterdir()
        if p.suffix in (".safetensors", ".bin", ".pt") or p.name.endswith(".index.json")
    )
    return {
        "name": str(path.resolve()),
        "config_sha256": hashlib.sha256(config.read_bytes()).hexdigest()
        if config.is_file()
        else None,
        "weights": weights,
    }


def tokenization_identity(tokenizer: Any, template: str, max_length: int) -> dict[str, Any]:
    backend = getattr(tokenizer, "backend_tokenizer", None)
    vocab = (
        backend.to_str()
        if backend is not None
        else json.dumps(sorted(tokenizer.get_vocab().items()))
    )
    return {
        "tokenizer_sha256": hashlib.sha256(vocab.encode()).hexdigest(),
        "chat_template": getattr(tokenizer, "chat_template", None),
        "eos_token_id": tokenizer.eos_token_id,
        "prompt_template": template,
        "max_length": max_length,
    }


def cache_key(
    dataset: Any, base_model: str, tokenizer: Any, template: str, max_length: int, arithmetic: str
) -> dict[str, Any]:
    return {
        "input_fingerprint": dataset.input_fingerprint,
        "solutions_sha256": dataset.manifest.get("files", {})
        .get(dataset.solutions.name, {})
        .get("sha256"),
        "reference_model": model_identity(base_model),
        "tokenization": tokenization_identity(tokenizer, template, max_length),
        "arithmetic": arithmetic,
    }


class ReferenceCache:
    """Reference log-probs of the solution tokens, by row of solutions.parquet.

    On disk: run_dir/reference/<sha256 of the key, 16 hex>/key.json and chunk files, each an .npz
    of rows, offsets and float32 values, written whole and renamed into place (rank r writes its
    own chunks; no two processes write one file)."""

    def __init__(self, run_dir: Path, key: dict[str, Any]):
        text = json.dumps(key, sort_keys=True)
        self.directory = run_dir / "reference" / hashlib.sha256(text.encode()).hexdigest()[:16]
        self.key = key
        self.values: dict[int, np.ndarray] = {}

    def load(self) -> ReferenceCache:
        for chunk in sorted(self.directory.glob("chunk-*.npz")):
            with np.load(chunk) as f:
                rows, offsets, values = f["rows"], f["offsets"], f["values"]
            for k, row in enumerate(rows.tolist()):
                self.values[row] = values[offsets[k] : offsets[k + 1]]
        return self

    def missing(self, rows: Iterable[int]) -> list[int]:
        return sorted({int(r) for r in rows} - self.values.keys())

    def get(self, row: int) -> np.ndarray:
        return self.values[row]

    def add(self, computed: dict[int, np.ndarray], rank: int) -> None:
        """Keep `computed` and write it as one chunk."""
        self.values.update(computed)
        if not computed:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        key_file = self.directory / "key.json"
        if not key_file.exists():
            tmp = key_file.with_name(f".key.{rank}.tmp")
            tmp.write_text(json.dumps(self.key, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(tmp, key_file)
        rows = sorted(computed)
        lengths = [len(computed[r]) for r in rows]
        name = f"chunk-{uuid.uuid4().hex[:12]}-rank{rank}"
        tmp = self.directory / f".{name}.tmp.npz"
        np.savez(
            tmp,
            rows=np.asarray(rows, dtype=np.int64),
            offsets=np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
            values=np.concatenate([computed[r] for r in rows]).astype(np.float32)
            if rows
            else np.zeros(0, np.float32),
        )
        os.replace(tmp, self.directory / f"{name}.npz")


@torch.no_grad()
def reference_logps(
    model: nn.Module,
    sequences: dict[int, tuple[list[int], int]],
    device: torch.device,
    bf16: bool,
    progress: Any = None,
    padded: bool = False,
) -> dict[int, np.ndarray]:
    """The reference's log-prob of each solution token, one sequence per forward pass (its
    prompt pass, then its solution: codelog.training.logprobs). `sequences` maps row -> (ids,
    prompt length); `progress(n)` is told of each one done; `padded`: the training's layout, so
    that the cached reference equals one recomputed every step to the last bit."""
    was_training = model.training
    model.eval()
    out = {}
    for row, (ids, n_prompt) in sequences.items():
        batch = MicroBatch(
            **{k: v.to(device) for k, v in lay_out([(ids, n_prompt)], 0, padded).items()},
            weight=torch.zeros(1),
            kl_weight=torch.zeros(1),
            sequence=[row],
            padded_layout=padded,
        )
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            logp, _ = token_logps(model, batch)
        out[row] = logp[0].float().cpu().numpy()
        if progress:
            progress(1)
    model.train(was_training)
    return out


def fill(
    cache: ReferenceCache,
    model: torch.nn.Module,
    base: str,
    sampler: data.GroupSampler,
    store: data.CodeStore,
    prompts: Prompts,
    tokenizer: Any,
    t: Train,
    d: Dist,
    precision: Precision,
    step: int,
    progress: bool,
    padded: bool = False,
) -> None:
    """Compute, in one pass, the reference log-probs of every sequence this rank will train on
    from `step` to the end (a copy of the sampler replays the draws) that the cache lacks."""
    replay = type(sampler)(sampler.index, t.group_size, t.seed)
    replay.load_state_dict(sampler.state_dict())
    wanted: dict[int, int] = {}  # row -> group
    for _ in range(step, t.steps):
        groups = draw_groups(replay, t)
        for group, rows in groups[d.rank :: d.world]:
            wanted.update(dict.fromkeys(rows.tolist(), group))
    missing = cache.missing(wanted)
    if not missing:
        return
    by_group: dict[int, list[int]] = {}
    for row in missing:
        by_group.setdefault(wanted[row], []).append(row)
    sequences = {}
    for group, rows in by_group.items():
        encoded = encode_group(store, prompts, group, rows, tokenizer, t.max_length)
        sequences.update({r: (ids, n) for r, (ids, n, _) in zip(rows, encoded, strict=True)})
    # The reference is the model training starts from: the LoRA model with its adapters off,
    # the policy itself before its first step, else the base model loaded for this pass.
    if t.lora_r:
        context, reference = model.disable_adapter(), model
    elif step == 0:
        context, reference = torch.no_grad(), model
    else:
        context = torch.no_grad()
        reference = models.frozen(models.load_model(base, precision.weights)).to(d.device)
    with rate_progress("sequences", disable=not progress) as bar, context:
        task = bar.add_task("reference", total=len(sequences))
        computed = reference_logps(
            reference,
            sequences,
            d.device,
            precision.autocast,
            lambda n: bar.advance(task, n),
            padded=padded,
        )
    cache.add(computed, d.rank)
