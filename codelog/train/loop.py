"""The training loop: advantage-weighted likelihood on logged, judged solutions. Read top to bottom.

Each optimizer step draws `grad_accum` groups; a group is up to `group_size` solutions of one
problem, at least one correct and one incorrect. With A_i the advantage of solution i in its
group (codelog.train.advantages) and n the group's size, the step minimises

    loss = mean over groups of  -1/n * sum_i A_i * log p(solution_i | prompt)
                              (+ kl * 1/n * sum_i KL_i, when a KL penalty is asked for)

where log p is the sum or the mean of the solution's token log-probs (`token_reduction`) and KL_i
is the k3 estimate on the solution's tokens (codelog.train.reference). This is
advantage-weighted likelihood on logged data: nothing is sampled or executed during training,
so it is not on-policy RL.

The loop: sample groups -> tokenise -> length-aware micro-batches (codelog.train.batches) ->
forward -> loss -> backward -> clip -> step -> log -> checkpoint (codelog.train.checkpoint).
"""

from __future__ import annotations

import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import torch

from codelog import __version__
from codelog.progress import console
from codelog.recipe import load_recipe
from codelog.train import data, models
from codelog.train.batches import StepData, prepare_step
from codelog.train.checkpoint import (
    RUN_FILE,
    STATE_FILE,
    checkpoints,
    lock_run_dir,
    resumed_recipe,
    save_checkpoint,
    truncate_metrics,
)
from codelog.train.evaluation import build_eval_set, evaluate
from codelog.train.logprobs import reduce_tokens, takes_logits_to_keep, token_logps
from codelog.train.options import TrainingError, TrainOptions, resolve_recipe
from codelog.train.reference import kl_to_reference
from codelog.train.report import ProgressBar, RunResult, append_jsonl


def pick_device(precision: str) -> tuple[torch.device, bool]:
    """(device, bf16 autocast?): CUDA when present; bf16 by default only on a bf16-capable GPU."""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if precision == "auto":
        return device, device.type == "cuda" and torch.cuda.is_bf16_supported()
    return device, precision == "bf16"


def train(dataset: str | Path, out: str | Path, overrides: dict[str, Any] | None = None, **options):
    """Train on a dataset built by `codelog build`; return where the run and its last checkpoint are.

    `overrides` are [train] fields (the command-line options); `options` the other fields of
    TrainOptions (recipe, resume, progress, ...)."""
    return run(TrainOptions(Path(dataset), Path(out), dict(overrides or {}), **options))


def run(options: TrainOptions) -> RunResult:
    """The run `options` describe. The recipe defaults to the one stored in the dataset's manifest
    (so the prompt template matches the build)."""
    started = time.perf_counter()
    run_dir, overrides, resume = options.out, options.overrides, options.resume

    # 1. Everything that can be wrong with the dataset or the options, before any model loads.
    dataset = data.open_dataset(options.dataset)
    if resume:
        recipe, run_info = resumed_recipe(run_dir, overrides, dataset)
    else:
        if checkpoints(run_dir):
            raise TrainingError(
                f"{run_dir}: already holds a run; pass --resume to continue it, or another --out"
            )
        recipe = resolve_recipe(options.recipe or dataset.recipe() or load_recipe(), overrides)
    t = recipe.train
    train_index, heldout, prompts = data.training_groups(dataset, recipe, t.eval_fraction, t.seed)
    device, bf16 = pick_device(t.precision)

    # 2. Model, tokenizer, reference policy (for the KL penalty).
    models.quiet_transformers()
    run_dir.mkdir(parents=True, exist_ok=True)
    lock = lock_run_dir(run_dir)  # noqa: F841 (held until train returns)
    if resume:
        latest = checkpoints(run_dir)[-1]
        tokenizer = models.load_tokenizer(str(latest))
        if t.lora_r:
            model = models.load_lora(models.load_model(run_info["base_model"]), latest)
        else:
            model = models.load_model(str(latest))
    else:
        base = t.model
        if base == models.TINY:
            base = str(models.build_tiny(dataset, run_dir / "base-model", t.max_length, t.seed))
        run_info = {
            "codelog_version": __version__,
            "dataset": str(dataset.path.resolve()),
            "input_fingerprint": dataset.input_fingerprint,
            "base_model": base,
            "recipe": recipe.to_dict(),
        }
        (run_dir / RUN_FILE).write_text(json.dumps(run_info, indent=2) + "\n", encoding="utf-8")
        (run_dir / "metrics.jsonl").write_text("", encoding="utf-8")
        tokenizer = models.load_tokenizer(base)
        model = models.load_model(base)
        if t.lora_r:
            model = models.add_lora(model, t.lora_r, t.lora_alpha)
    reference = None
    if t.kl > 0 and not t.lora_r:  # with LoRA the reference is the model with adapters disabled
        reference = models.frozen(models.load_model(run_info["base_model"])).to(device)
    model.to(device).train()
    keep_logits = takes_logits_to_keep(model)

    # 3. Data: prompts tokenised once per group; code fetched per step.
    store = data.CodeStore(dataset.solutions)
    prompt_ids = [data.encode_prompt(tokenizer, p) for p in prompts]
    by_key = dict(zip(train_index.keys, prompt_ids, strict=True))
    eval_set = build_eval_set(heldout, store, by_key, tokenizer, t.max_length)
    sampler = data.GroupSampler(train_index, t.group_size, t.seed)

    # 4. Optimizer: AdamW, linear warm-up then constant (so a run can be extended exactly).
    params = [p for p in model.parameters() if p.requires_grad]
    fused = device.type in ("cpu", "cuda")  # one kernel for all parameters: 4x faster on CPU
    optimizer = torch.optim.AdamW(
        params, lr=t.learning_rate, weight_decay=t.weight_decay, fused=fused
    )
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / (t.warmup_steps + 1))
    )
    totals = {
        "sequences": 0,
        "truncated": 0,
        "tokens": 0,
        "padded_tokens": 0,
        "margin_before": None,
    }
    step = 0
    metrics_path = run_dir / "metrics.jsonl"
    torch.manual_seed(t.seed)
    if resume:
        state = torch.load(latest / STATE_FILE, weights_only=False)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        sampler.load_state_dict(state["sampler"])
        torch.set_rng_state(state["torch_rng"])
        if device.type == "cuda" and state.get("cuda_rng") is not None:
            torch.cuda.set_rng_state_all(state["cuda_rng"])
        totals, step = state["totals"], state["step"]
        if step > t.steps:
            raise TrainingError(f"{latest}: the run is at step {step}, past --steps {t.steps}")
        truncate_metrics(metrics_path, step)
    info = {
        k: run_info[k]
        for k in ("codelog_version", "dataset", "input_fingerprint", "base_model", "recipe")
    }
    last_checkpoint = checkpoints(run_dir)[-1] if resume else None

    def run_eval(at: int) -> dict[str, float] | None:
        if not eval_set:
            return None
        result = evaluate(
            model, eval_set, tokenizer.pad_token_id, t.batch_tokens, device, bf16, keep_logits
        )
        append_jsonl(metrics_path, {"event": "eval", "step": at, **result})
        return result

    def checkpoint(at: int) -> Path:
        state = {
            "step": at,
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "sampler": sampler_state,  # after the last step taken, not the one prefetched
            "torch_rng": torch.get_rng_state(),
            "cuda_rng": torch.cuda.get_rng_state_all() if device.type == "cuda" else None,
            "totals": totals,
        }
        return save_checkpoint(run_dir, at, model, tokenizer, state, info, t.keep_checkpoints)

    if not resume:
        before = run_eval(0)
        totals["margin_before"] = before and before["margin"]
    end = t.steps
    if options.max_steps_this_call is not None:
        end = min(t.steps, step + options.max_steps_this_call)

    # 5. The loop. The next step's data is prepared in a thread while this step computes.
    bar = ProgressBar(options.progress, step, t.steps)
    prefetch = ThreadPoolExecutor(max_workers=1)
    sampler_state = sampler.state_dict()
    upcoming = prefetch.submit(prepare_step, sampler, store, prompt_ids, tokenizer, t)
    tick = time.perf_counter()
    try:
        while step < end:
            batch = upcoming.result()
            if step + 1 < end:
                upcoming = prefetch.submit(prepare_step, sampler, store, prompt_ids, tokenizer, t)
            loss_sum, kl_sum, logp_sum, logp_tokens = 0.0, 0.0, 0.0, 0
            for mb in batch.batches:
                mb = mb.to(device)
                with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
                    logp, mask = token_logps(model, mb, keep_logits)
                    terms = mb.weight * reduce_tokens(logp, mask, t.token_reduction)
                    loss = -terms.sum()
                    if t.kl > 0:
                        kl = mb.kl_weight * kl_to_reference(
                            model, reference, mb, logp, mask, t, keep_logits
                        )
                        loss = loss + t.kl * kl.sum()
                        kl_sum += kl.sum().item()
                if not torch.isfinite(loss):
                    bad = [
                        i
                        for i, x in zip(mb.sequence, terms.tolist(), strict=True)
                        if not math.isfinite(x)
                    ]
                    stop_non_finite(
                        step + 1,
                        batch,
                        bad or mb.sequence,
                        sampler.index,
                        last_checkpoint,
                        loss.item(),
                    )
                loss.backward()
                loss_sum += loss.item()
                logp_sum += (logp.detach() * mask).sum().item()
                logp_tokens += int(mask.sum())
            grad_norm = torch.nn.utils.clip_grad_norm_(params, t.max_grad_norm).item()
            if not math.isfinite(grad_norm):
                stop_non_finite(
                    step + 1,
                    batch,
                    range(len(batch.lengths)),
                    sampler.index,
                    last_checkpoint,
                    grad_norm,
                )
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            sampler_state = batch.sampler_state

            tokens = sum(batch.lengths[i] for mb in batch.batches for i in mb.sequence)
            totals["sequences"] += len(batch.lengths)
            totals["truncated"] += batch.truncated
            totals["tokens"] += tokens
            totals["padded_tokens"] += batch.padded_tokens
            a = batch.advantages
            record = {
                "event": "step",
                "step": step,
                "loss": loss_sum,
                **({"kl": kl_sum} if t.kl > 0 else {}),
                "reward_mean": float(batch.rewards.mean()),
                "correct_frac": float(batch.is_correct.mean()),
                "adv_mean": float(a.mean()),
                "adv_std": float(a.std()),
                "adv_min": float(a.min()),
                "adv_max": float(a.max()),
                "logp_token": logp_sum / max(logp_tokens, 1),
                "lr": scheduler.get_last_lr()[0],
                "grad_norm": grad_norm,
                "tokens": tokens,
                "padded_tokens": batch.padded_tokens,
                "padding_waste": 1 - tokens / max(batch.padded_tokens, 1),
                "micro_batches": len(batch.batches),
                "truncated": batch.truncated,
                "truncated_total": totals["truncated"],
                "problems": [sampler.index.keys[g][0] for g, _ in batch.groups],
                "step_time": time.perf_counter() - tick,
            }
            append_jsonl(metrics_path, record)
            bar.update(step, record)
            if t.eval_every and step % t.eval_every == 0 and step < t.steps:
                run_eval(step)
            if step % t.checkpoint_every == 0 or step == t.steps:
                last_checkpoint = checkpoint(step)
            tick = time.perf_counter()
    except KeyboardInterrupt:
        kept = (
            f"continue from {last_checkpoint.name} with --resume --out {run_dir}"
            if last_checkpoint
            else "no checkpoint was written yet"
        )
        console.print(f"interrupted at step {step + 1}; {kept}")
        raise
    finally:
        bar.close()
        prefetch.shutdown(cancel_futures=True)

    after = run_eval(step) if step == t.steps else None
    return RunResult(
        run_dir=run_dir,
        steps=step,
        checkpoint=last_checkpoint,
        margin_before=totals["margin_before"],
        margin_after=after and after["margin"],
        sequences=totals["sequences"],
        truncated=totals["truncated"],
        padding_waste=1 - totals["tokens"] / max(totals["padded_tokens"], 1),
        seconds=time.perf_counter() - started,
    )


def stop_non_finite(
    step: int,
    batch: StepData,
    sequences: Any,
    index: data.GroupIndex,
    last_checkpoint: Path | None,
    value: float,
) -> None:
    groups = sorted({batch.group_of[i] for i in sequences})
    named = "; ".join(
        f"problem {index.keys[batch.groups[g][0]][0]} ({index.keys[batch.groups[g][0]][1]}), "
        f"submissions {', '.join(index.names(batch.groups[g][1]))}"
        for g in groups
    )
    kept = (
        f"the last good checkpoint is {last_checkpoint}"
        if last_checkpoint
        else "no checkpoint was written yet"
    )
    raise TrainingError(f"step {step}: loss or gradient is {value} on {named}; stopped, {kept}")
