"""Trainer step time vs the floor: a bare forward + backward of the same model on the same batches.

    python bench/train_step.py [--dataset DIR] [--steps 40] [--warmup 5] [--group-size 4] ...

Runs `codelog train` (the real loop, tiny model by default) and reads each step's wall time from
metrics.jsonl: sampling, reading code from Parquet, tokenising, batching, forward, loss,
backward, clipping, the optimizer step and logging. It then rebuilds the very same micro-batches
(same seed, same sampler) and times, on the same model architecture:

- floor:     forward + backward of exactly the trainer's micro-batches, the loss a bare
             cross-entropy on the solution tokens (`logits_to_keep` as the trainer uses it);
- HF labels: the same micro-batches through `model(..., labels=...)`, every position's logits.

It runs the trainer three ways: without KL, with a KL penalty whose reference log-probs are
recomputed in every step (before issue 16), and with them cached (computed once before the
first step, codelog.training.reference). It prints each against the no-KL step (goal: a step with
KL <= 1.10x a step without) and against the floor (goal: trainer / floor under 1.15x), and the
padding waste of the trainer's length-aware micro-batches against one padded batch per step.
Without --dataset it builds the bundled sample into a temporary directory first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch
import torch.nn.functional as F

from codelog.recipe import Recipe
from codelog.training import data, loop, models
from codelog.training.batches import GroupPrompts, StepData, prepare_step
from codelog.training.checkpoint import RUN_FILE


def build_sample(into: Path) -> Path:
    from codelog.builder import run_build
    from codelog.options import BuildOptions
    from codelog.recipe import load_recipe

    out = into / "codenet-python"
    options = BuildOptions(
        source="codenet", language="python", out=out, recipe=load_recipe(), show_progress=False
    )
    run_build(options)
    return out


def floor_step(model: torch.nn.Module, step: StepData, labels: bool) -> float:
    """Seconds for a bare forward + backward over the step's micro-batches."""
    start = time.perf_counter()
    for mb in step.batches:
        if labels:
            target = mb.input_ids.masked_fill(~mb.loss_mask, -100)
            model(
                input_ids=mb.input_ids,
                attention_mask=mb.attention_mask,
                labels=target,
                use_cache=False,
            ).loss.backward()
        else:
            keep = mb.input_ids.shape[1] - mb.min_prompt + 1
            logits = model(
                input_ids=mb.input_ids,
                attention_mask=mb.attention_mask,
                use_cache=False,
                logits_to_keep=keep,
            ).logits
            start_pos = mb.input_ids.shape[1] - keep
            target = F.pad(
                mb.input_ids[:, start_pos + 1 :].masked_fill(
                    ~mb.loss_mask[:, start_pos + 1 :], -100
                ),
                (0, 1),
                value=-100,
            )
            F.cross_entropy(logits.flatten(0, 1).float(), target.flatten()).backward()
    elapsed = time.perf_counter() - start
    model.zero_grad(set_to_none=True)
    return elapsed


def trainer_runs(dataset: Path, into: Path, configs: dict, repeats: int) -> dict:
    """Per configuration, per step the fastest of `repeats` identical runs (same seed: same
    batches, same arithmetic), read from metrics.jsonl, and the first run's step records. The
    configurations take turns, so a busy spell on the machine falls on all of them alike."""
    runs: dict[str, list] = {name: [] for name in configs}
    for r in range(repeats):
        for name, (overrides, options) in configs.items():
            out = into / f"{name}-{r}"
            loop.train(dataset, out, overrides, progress=False, quiet=True, **options)
            lines = (out / "metrics.jsonl").read_text().splitlines()
            runs[name].append([s for s in map(json.loads, lines) if s["event"] == "step"])
    return {
        name: ([min(run[i]["step_time"] for run in rs) for i in range(len(rs[0]))], rs[0])
        for name, rs in runs.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dataset", type=Path, help="Dataset dir (default: build the bundled sample)."
    )
    parser.add_argument("--model", default="tiny", help="tiny, an HF directory or a .gguf file.")
    parser.add_argument(
        "--steps", type=int, default=40, help="Steps timed (after the warm-up steps)."
    )
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument(
        "--repeats", type=int, default=3, help="Runs of each; per step the fastest."
    )
    parser.add_argument("--group-size", type=int, default=4)
    parser.add_argument("--grad-accum", type=int, default=1)
    parser.add_argument("--max-length", type=int, default=2048)
    parser.add_argument("--batch-tokens", type=int, default=16384)
    parser.add_argument("--lora-r", type=int, default=0)
    parser.add_argument("--kl", type=float, default=0.05, help="KL coefficient of the KL runs.")
    args = parser.parse_args()
    overrides = {
        "model": args.model,
        "steps": args.warmup + args.steps,
        "group_size": args.group_size,
        "grad_accum": args.grad_accum,
        "max_length": args.max_length,
        "batch_tokens": args.batch_tokens,
        "lora_r": args.lora_r,
        "checkpoint_every": 10**9,
        "eval_fraction": 0.0,  # the held-out margin is not part of a step
    }

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dataset = args.dataset or build_sample(tmp)
        kl = {**overrides, "kl": args.kl}
        configs = {
            "plain": (overrides, {}),
            "recompute": (kl, {"reference": "recompute"}),
            "cached": (kl, {"reference": "cached"}),
        }
        timed = trainer_runs(dataset, tmp, configs, args.repeats)
        (plain_s, steps), (recompute_s, _), (cached_s, _) = timed.values()

        # The same batches again: same recipe, same split, same sampler state.
        run_info = json.loads((tmp / "plain-0" / RUN_FILE).read_text())
        recipe = Recipe.from_dict(run_info["recipe"])
        t = recipe.train
        ds = data.open_dataset(dataset)
        train_index, _, prompts = data.training_groups(ds, recipe, t.eval_fraction, t.seed)
        tokenizer = models.load_tokenizer(run_info["base_model"])
        model = models.load_model(run_info["base_model"])
        if t.lora_r:
            model = models.add_lora(model, t.lora_r, t.lora_alpha)
        model.train()
        prompt_ids = [data.encode_prompt(tokenizer, p) for p in prompts]
        sampler = data.GroupSampler(train_index, t.group_size, t.seed)
        store = data.CodeStore(ds.solutions)
        batches = [
            prepare_step(sampler, store, GroupPrompts(prompt_ids), tokenizer, t) for _ in steps
        ]
        for b, s in zip(batches, steps, strict=True):
            assert b.padded_tokens == s["padded_tokens"], "rebuilt batches differ from the run's"
        floor, labels = [], []
        for b in batches:
            floor.append(min(floor_step(model, b, labels=False) for _ in range(args.repeats)))
            labels.append(min(floor_step(model, b, labels=True) for _ in range(args.repeats)))

    measured = slice(args.warmup, None)
    plain_ms, recompute_ms, cached_ms, floor_ms, labels_ms = (
        1000 * statistics.median(x[measured])
        for x in (plain_s, recompute_s, cached_s, floor, labels)
    )
    tokens = sum(s["tokens"] for s in steps[measured])
    padded = sum(s["padded_tokens"] for s in steps[measured])
    naive = sum(len(b.lengths) * max(b.lengths.values()) for b in batches[measured])
    print(
        f"model {args.model}{f' LoRA r={t.lora_r}' if t.lora_r else ''}, {args.steps} steps "
        f"(median over steps of the fastest of {args.repeats} runs), {t.grad_accum} group(s) of "
        f"{t.group_size} per step, {tokens / args.steps:.0f} tokens/step, "
        f"torch threads {torch.get_num_threads()}"
    )
    print(f"{'':40}{'ms/step':>10}{'vs no KL':>10}{'vs floor':>10}")
    rows = [
        ("trainer step, no KL", plain_ms),
        (f"trainer step, KL {args.kl}, recompute (before)", recompute_ms),
        (f"trainer step, KL {args.kl}, cached (after)", cached_ms),
        ("floor: bare fwd+bwd", floor_ms),
        ("HF labels fwd+bwd (all logits)", labels_ms),
    ]
    for name, ms in rows:
        print(f"{name:40}{ms:>10.2f}{ms / plain_ms:>9.3f}x{ms / floor_ms:>9.3f}x")
    verdict = "PASS" if cached_ms / plain_ms <= 1.10 else "FAIL"
    print(
        f"goal: a step with KL <= 1.10x a step without: {cached_ms / plain_ms:.3f}x {verdict} "
        f"(recomputing the reference: {recompute_ms / plain_ms:.3f}x)"
    )
    print(
        f"padding waste: length-aware micro-batches {1 - tokens / padded:.1%} "
        f"vs one padded batch per step {1 - tokens / naive:.1%}"
    )


if __name__ == "__main__":
    main()
