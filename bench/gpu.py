"""The trainer on one GPU (issue 36): step time against a floor, MFU, memory against the estimate,
eval sampling throughput; for a Qwen2.5-Coder-0.5B-shaped model fully fine-tuned and a
7B-shaped one with LoRA, both with random weights (the GPU machine reaches no hub).

    PYTHONPATH=. python bench/gpu.py --out DIR            # on the GPU (bench/gpu_device.sh)
    PYTHONPATH=. python bench/gpu.py --smoke --out DIR    # tiny shapes on CPU, < 1 minute

Each model trains under its paper recipe's [train] section (recipes/paper-qwen2.5-coder-*.toml:
precision, batch_tokens, grad_accum 8 groups of 4, max_length 2048, algo, LoRA rank), on
synthetic token batches: per group one prompt of 150-600 tokens and four solutions of
log-normal length (median 300), joined and cut at max_length by the trainer's own
`data.join`, the step's first sequence always cut at the cap. They go through the trainer's
own code: advantages (`compute_advantages`), length-aware micro-batches
(`batches.micro_batches`), then `loop.optimizer_step`, the function the training loop calls
(forward under autocast, the advantage-weighted loss, backward, clipping, fused AdamW).

- step: wall time of `loop.optimizer_step` on one step's micro-batches (host-to-device copies
  included; the loop prepares the next step's batches in a thread, so tokenising is not);
- floor: a bare forward + backward of exactly those micro-batches, already on the device: the
  same model, autocast and `logits_to_keep`, a plain cross-entropy on the solution tokens, no
  optimizer; step / floor is the trainer's overhead (goal <= 1.15);
- MFU: model FLOPs of the step / (time x peak dense bf16 FLOP/s: 989e12 for H100 SXM and H200).
  Model FLOPs count useful tokens only (padding and the logits of prompt positions are not):
  full fine-tuning 6 N T (2 forward, 4 backward), LoRA 4 N T for the frozen weights (no weight
  gradient) + 6 N_lora T for the adapters, N the transformer blocks' weights and T the step's
  tokens; the output head 6 (LoRA: 4) h V on solution tokens only; attention 6 L h s^2 per
  sequence of s tokens (causal: half of the s^2 scores; backward twice the forward);
- memory: torch.cuda.max_memory_allocated over the timed steps against the trainer's estimate
  (training/memory.py) before its runtime allowance and margin (goal: within 10%), and the
  device's whole use (CUDA context and cached blocks: total - free) against the estimate's total;
- sampling: tokens/s of `TransformersSampler` (codelog.evaluation.sampling, batched HF
  generate: what `codelog eval` and pass@k while training use without vLLM) without autocast,
  as the loop samples, and for fp32 master weights under bf16 autocast too; with a word-level
  tokenizer over the model's whole vocabulary.

Results go to OUT/gpu.json and OUT/gpu.md, rewritten after every measurement, so a run that is
cut short still leaves what it measured. A phase that would start past --budget-s is skipped
and says so. --smoke runs the same code on CPU with tiny shapes, and refuses to import what
the GPU machine lacks (duckdb, tree-sitter, polars, vllm, datasets, ray).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import gc
import importlib.abc
import json
import os
import platform
import statistics
import sys
import time
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
DEVICE_LACKS = ("duckdb", "tree_sitter", "polars", "vllm", "datasets", "ray")
GiB = 1 << 30
PROMPT_OVERHEAD = 40  # tokens of the prompt template around a statement (instruction, header)

# Peak dense bf16 FLOP/s (no sparsity), from NVIDIA's data sheets; matched in the device name.
PEAK_BF16 = (("H100 PCIe", 756e12), ("H100", 989e12), ("H200", 989e12), ("A100", 312e12))

# (name, shape of the Qwen2 config, recipe); hub config.json values of Qwen2.5-Coder.
QWEN_05B = dict(
    hidden_size=896,
    num_hidden_layers=24,
    num_attention_heads=14,
    num_key_value_heads=2,
    intermediate_size=4864,
    vocab_size=151936,
    tie_word_embeddings=True,
)
QWEN_7B = dict(
    hidden_size=3584,
    num_hidden_layers=28,
    num_attention_heads=28,
    num_key_value_heads=4,
    intermediate_size=18944,
    vocab_size=152064,
    tie_word_embeddings=False,
)
TINY = dict(
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    intermediate_size=128,
    vocab_size=2048,
)


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    shape: dict[str, Any]
    recipe: str
    overrides: dict[str, Any] = dataclasses.field(default_factory=dict)


CASES = (
    Case("qwen2.5-coder-0.5b shape, full fine-tuning", QWEN_05B, "paper-qwen2.5-coder-0.5b.toml"),
    Case("qwen2.5-coder-7b shape, LoRA r=16", QWEN_7B, "paper-qwen2.5-coder-7b.toml"),
)
# Tiny shapes for --smoke, on the same recipes shrunk to seconds.
SMOKE = {"max_length": 256, "batch_tokens": 512, "grad_accum": 2}
SMOKE_CASES = tuple(
    Case(f"smoke: {c.name}", TINY, c.recipe, {**SMOKE, "lora_r": 4 if "LoRA" in c.name else 0})
    for c in CASES
)


class Refuse(importlib.abc.MetaPathFinder):
    """Imports of what the GPU machine lacks fail, as they would there (--smoke)."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in DEVICE_LACKS:
            raise ModuleNotFoundError(f"No module named {name!r} (not on the GPU machine)")
        return None


STARTED = time.perf_counter()


def say(*parts: Any) -> None:
    print(f"[{time.perf_counter() - STARTED:5.0f} s]", *parts, flush=True)


# ------------------------------------------------------------------------------- the results


class Results:
    """gpu.json and gpu.md in `out`, rewritten whole (write, then rename) after each figure."""

    def __init__(self, out: Path, header: dict[str, Any]):
        self.out, self.data = out, {**header, "cases": {}}
        out.mkdir(parents=True, exist_ok=True)

    def case(self, name: str) -> dict[str, Any]:
        return self.data["cases"].setdefault(name, {})

    def save(self) -> None:
        for name, text in (("gpu.json", json.dumps(self.data, indent=2)), ("gpu.md", self.md())):
            partial = self.out / f".{name}.partial"
            partial.write_text(text + "\n", encoding="utf-8")
            partial.replace(self.out / name)

    def md(self) -> str:
        d = self.data
        lines = [
            f"Device: {d['device']} ({d['device_memory_gib']} GiB); torch {d['torch']}, "
            f"transformers {d['transformers']}, peft {d['peft']}; {d['date']}",
            f"Command: `{d['command']}`; PYTORCH_CUDA_ALLOC_CONF={d.get('cuda_alloc_conf')}",
            f"Peak dense bf16 used for MFU: {fmt(d['peak_flops'], 1e-12, '.0f')} TFLOP/s",
            "",
            "| case | gradient checkpointing | tokens/step | micro-batches | step ms | floor ms "
            "| step/floor | tokens/s | solution tokens/s | computed tokens/s | MFU step | MFU floor "
            "| peak allocated GiB "
            "| estimate GiB (parts) | estimate/peak | device used GiB | estimate total GiB |",
            "|" + "---|" * 17,
        ]
        for name, c in d["cases"].items():
            for key, r in c.get("runs", {}).items():
                m = r.get("memory", {})
                lines.append(
                    f"| {name} | {key} | {r['tokens_per_step']:,.0f} | {r['micro_batches']:.1f} "
                    f"| {r['step_ms']:.1f} | {r['floor_ms']:.1f} | {r['step_over_floor']:.3f} "
                    f"| {r['tokens_per_s']:,.0f} | {r['solution_tokens_per_s']:,.0f} "
                    f"| {r['computed_tokens_per_s']:,.0f} | {fmt(r['mfu_step'], 100, '.1f', '%')} "
                    f"| {fmt(r['mfu_floor'], 100, '.1f', '%')} "
                    f"| {fmt(m.get('peak_allocated'), 1 / GiB)} "
                    f"| {fmt(m.get('estimate_parts'), 1 / GiB)} "
                    f"| {fmt(m.get('estimate_over_peak'), 1, '.3f')} "
                    f"| {fmt(m.get('device_used'), 1 / GiB)} "
                    f"| {fmt(m.get('estimate_total'), 1 / GiB)} |"
                )
        lines += [
            "",
            "| case | sequences | new tokens | seconds | tokens/s |",
            "|---|---|---|---|---|",
        ]
        for name, c in d["cases"].items():
            for key, how in (("sampling", ""), ("sampling_autocast", ", under bf16 autocast")):
                g = c.get(key)
                if g:
                    lines.append(
                        f"| {name}{how} | {g['sequences']} | {g['new_tokens']:,} "
                        f"| {g['seconds']:.1f} | {g['tokens_per_s']:,.0f} |"
                    )
        notes = [f"- {name}: {n}" for name, c in d["cases"].items() for n in c.get("notes", [])]
        return "\n".join(lines + (["", *notes] if notes else []))


def fmt(value: float | None, scale: float = 1.0, spec: str = ".2f", unit: str = "") -> str:
    return "n/a" if value is None else f"{value * scale:{spec}}{unit}"


# ------------------------------------------------------------------------------ the workload


def synthetic_step(t, vocab: int, seed: int, padded: bool = False):
    """One step's StepData on random tokens, through the trainer's own batching: `grad_accum`
    groups of `group_size` solutions to one prompt, rewards with at least one correct and one
    incorrect per group, advantages by `t.algo`."""
    import numpy as np
    import torch
    from lengths import draw_tokens  # a sibling: bench/ is sys.path[0] when run as a script

    from codelog.training import data
    from codelog.training.advantages import compute_advantages
    from codelog.training.batches import StepData, micro_batches

    rng = np.random.default_rng(seed)
    n, groups = t.group_size, t.grad_accum
    scale = t.max_length / 2048  # the smoke run's shorter max_length shrinks the lengths alike
    prompts = draw_tokens(rng, "statement_chars", groups, scale)
    seqs: dict[int, tuple[list[int], int]] = {}
    rewards, correct, truncated = [], [], 0
    for g in range(groups):
        # the statement, then the template's instruction and chat header (about 40 tokens)
        length = prompts[g] + max(1, int(PROMPT_OVERHEAD * scale))
        prompt = rng.integers(0, vocab - 3, length).tolist()
        for k, length in enumerate(draw_tokens(rng, "solution_chars", n, scale)):
            if g == 0 and k == 0:  # every step has a sequence at the cap
                length = t.max_length
            solution = rng.integers(0, vocab - 3, length + 1).tolist()  # + EOS
            ids, n_prompt, cut = data.join(prompt, solution, t.max_length)
            seqs[g * n + k] = (ids, n_prompt)
            truncated += cut
            ok = k == 0 or (k > 1 and rng.random() < 0.3)  # member 0 correct, member 1 not
            correct.append(ok)
            rewards.append(1.0 if ok else float(rng.choice([-0.1, -0.5, -0.6, -1.0])))
    rewards_a, correct_a = np.array(rewards), np.array(correct)
    advantages = np.concatenate(
        [
            compute_advantages(
                t.algo,
                torch.from_numpy(rewards_a[g * n : (g + 1) * n]),
                torch.from_numpy(correct_a[g * n : (g + 1) * n]),
            ).numpy()
            for g in range(groups)
        ]
    )
    kl_weight = np.full(groups * n, 1.0 / (n * groups))
    live = [i for i in seqs if advantages[i] != 0 or t.kl > 0] or [min(seqs)]
    rows = np.arange(groups * n)
    return StepData(
        groups=[(g, rows[g * n : (g + 1) * n]) for g in range(groups)],
        group_of=np.repeat(np.arange(groups), n),
        rows=rows,
        rewards=rewards_a,
        is_correct=correct_a,
        advantages=advantages,
        lengths={i: len(seqs[i][0]) for i in seqs},
        batches=micro_batches(
            seqs, live, advantages * kl_weight, kl_weight, vocab - 2, t, padded=padded
        ),
        truncated=truncated,
        sampler_state={},
    )


def model_flops(step, config, lora: bool, block: int, adapters: int) -> float:
    """Model FLOPs of a step's forward and backward (see the module docstring)."""
    h, layers, vocab = config.hidden_size, config.num_hidden_layers, config.vocab_size
    tokens = step.computed_tokens  # each shared prompt once, each solution, no padding
    solution = sum(int(mb.loss_mask.sum()) for mb in step.batches)
    # causal attention of a prompt of P tokens: P^2 (halved, times 2 matmuls, backward 2x);
    # a solution of S tokens after it: its S queries over the P prompt keys and causally itself
    squares = 0
    for mb in step.batches:
        prompts = mb.prompt_mask.sum(1)
        squares += int((prompts**2).sum())
        p, n = prompts[mb.unit], mb.loss_mask.sum(1)
        squares += int((2 * p * n + n**2).sum())
    weights = (4 * block + 6 * adapters if lora else 6 * block) * tokens
    head = (4 if lora and not config.tie_word_embeddings else 6) * h * vocab * solution
    return weights + head + 6 * layers * h * squares


# ------------------------------------------------------------------------------ measurements


def sync(device) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


def free_memory(device) -> None:
    import torch

    gc.collect()
    if device.type == "cuda":
        torch.cuda.empty_cache()


def floor_step(model, step, device, bf16: bool) -> float:
    """Seconds of a bare forward + backward of the step's micro-batches (already on `device`):
    the trainer's own forward (codelog.training.logprobs), the loss a plain sum."""
    import torch

    from codelog.training.logprobs import token_logps

    sync(device)
    start = time.perf_counter()
    for mb in step.batches:
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            logp, _ = token_logps(model, mb)
            loss = -logp.sum()
        loss.backward()
    sync(device)
    elapsed = time.perf_counter() - start
    model.zero_grad(set_to_none=True)
    return elapsed


def build_model(case: Case, device, smoke: bool):
    """(config, Train, Precision, model) for a case: random weights built on the device."""
    import torch
    from transformers import AutoModelForCausalLM, Qwen2Config

    from codelog.recipe import load_recipe
    from codelog.training import memory, models
    from codelog.training.options import resolve_recipe

    recipe = resolve_recipe(load_recipe(ROOT / "recipes" / case.recipe), case.overrides)
    t = recipe.train
    precision = memory.resolve_precision(t.precision, device)
    config = Qwen2Config(**case.shape, max_position_embeddings=max(t.max_length, 4096))
    torch.manual_seed(t.seed)
    with torch.device(device):  # initialised where it trains: seconds for 7B on a GPU
        model = AutoModelForCausalLM.from_config(config, dtype=precision.weights).to(device)
    if t.lora_r:
        model = models.add_lora(model, t.lora_r, t.lora_alpha)
    return config, t, precision, model.train()


def step_runner(model, t, precision, device):
    """The loop's Run with what `loop.optimizer_step` reads, for `model` alone on `device`."""
    from codelog.training import loop
    from codelog.training.distributed import Dist
    from codelog.training.logprobs import SequenceLogps

    params = [p for p in model.parameters() if p.requires_grad]
    optimizer, scheduler = loop.optimizer_for(params, t, device)
    run = loop.Run(**{f.name: None for f in dataclasses.fields(loop.Run) if f.init})
    run.__dict__.update(
        d=Dist(0, 1, 0, device),
        t=t,
        precision=precision,
        policy=model,
        model=SequenceLogps(model),
        params=params,
        optimizer=optimizer,
        scheduler=scheduler,
        step=0,
    )
    return run


def measure_training(case, config, t, precision, model, device, args, checkpointing: bool):
    """Step vs floor, MFU and memory over `args.steps` steps after `args.warmup`."""
    import torch

    from codelog.training import loop, memory, models

    if checkpointing:
        models.enable_gradient_checkpointing(model)
    estimate = memory.estimate(
        config,
        t,
        precision,
        gradient_checkpointing=checkpointing,
        reference_copy=False,
        groups_per_rank=t.grad_accum,
    )
    say(estimate.describe(precision, *memory.device_capacity(device)))
    run = step_runner(model, t, precision, device)
    lora = bool(t.lora_r)
    block = sum(
        p.numel() for n, p in model.named_parameters() if ".layers." in n and "lora_" not in n
    )
    adapters = sum(p.numel() for n, p in model.named_parameters() if "lora_" in n)
    steps = [synthetic_step(t, config.vocab_size, seed=s) for s in range(args.warmup + args.steps)]
    say(f"  {len(steps)} synthetic steps, {args.warmup} of them warm-up")
    for s in steps[: args.warmup]:
        loop.optimizer_step(run, s)
        run.step += 1
    held = 0  # weights and optimizer state between steps (gradients are freed after each)
    if device.type == "cuda":
        sync(device)
        held = torch.cuda.memory_allocated(device)
        torch.cuda.reset_peak_memory_stats(device)
    timed, floors, flops = [], [], []
    for i, s in enumerate(steps[args.warmup :]):
        on_device = dataclasses.replace(s, batches=[mb.to(device) for mb in s.batches])
        # each step has new shapes, and whichever runs first on them pays the allocator's new
        # blocks: the step and the floor take turns at going first
        if i % 2:
            floors.append(floor_step(model, on_device, device, precision.autocast))
        sync(device)
        start = time.perf_counter()
        loop.optimizer_step(run, s)
        sync(device)
        timed.append(time.perf_counter() - start)
        run.step += 1
        if not i % 2:
            floors.append(floor_step(model, on_device, device, precision.autocast))
        flops.append(model_flops(s, config, lora, block, adapters))
        say(
            f"  step {i + 1}/{args.steps}: {1000 * timed[-1]:.1f} ms, floor "
            f"{1000 * floors[-1]:.1f} ms, {s.tokens:,} tokens in {len(s.batches)} micro-batches"
        )
    tokens = [s.tokens for s in steps[args.warmup :]]
    peak = args.peak
    step_s, floor_s = sum(timed), sum(floors)
    result = {
        "steps": args.steps,
        "tokens_per_step": statistics.mean(tokens),
        "padded_tokens_per_step": statistics.mean(s.padded_tokens for s in steps[args.warmup :]),
        "micro_batches": statistics.mean(len(s.batches) for s in steps[args.warmup :]),
        "truncated_per_step": statistics.mean(s.truncated for s in steps[args.warmup :]),
        "step_ms": 1000 * statistics.median(timed),
        "floor_ms": 1000 * statistics.median(floors),
        "step_over_floor": step_s / floor_s,
        "step_over_floor_per_step": [round(a / b, 4) for a, b in zip(timed, floors, strict=True)],
        "tokens_per_s": sum(tokens) / step_s,
        # what the issue 45 goals count: solution tokens (the loss's), and the tokens the step
        # needs computed (each shared prompt once, no padding), per second of step
        "solution_tokens_per_s": sum(
            int(mb.loss_mask.sum()) for s in steps[args.warmup :] for mb in s.batches
        )
        / step_s,
        "computed_tokens_per_s": sum(s.computed_tokens for s in steps[args.warmup :]) / step_s,
        "model_tflop_per_step": statistics.mean(flops) / 1e12,
        "mfu_step": sum(flops) / step_s / peak if peak else None,
        "mfu_floor": sum(flops) / floor_s / peak if peak else None,
        "parameters": estimate.parameters,
        "trained_parameters": estimate.trainable,
        "block_parameters": block,
        "precision": precision.name,
        "attention": getattr(model.config, "_attn_implementation", None),
        "memory": {
            "estimate_parts": sum(estimate.parts.values()),
            "estimate_total": estimate.total,
            "estimate": estimate.parts,
            "estimate_tokens": estimate.tokens,
        },
    }
    largest = max(mb.input_ids.numel() for s in steps for mb in s.batches)
    at_largest = memory.estimate(
        config,
        dataclasses.replace(t, batch_tokens=largest),
        precision,
        gradient_checkpointing=checkpointing,
        reference_copy=False,
        groups_per_rank=t.grad_accum,
    )
    result["memory"] |= {"largest_micro_batch": largest, "estimate_at_largest": at_largest.parts}
    if device.type == "cuda":
        free, total = torch.cuda.mem_get_info(device)
        peak_allocated = torch.cuda.max_memory_allocated(device)
        result["memory"] |= {
            "held_between_steps": held,
            "peak_allocated": peak_allocated,
            "peak_reserved": torch.cuda.max_memory_reserved(device),
            "device_used": total - free,
            "estimate_over_peak": sum(estimate.parts.values()) / peak_allocated,
        }
    return result, run


def measure_sampling(model, config, autocast: bool, device, args) -> dict[str, Any]:
    """Tokens/s of batched HF generate through codelog's sampler, under bf16 autocast or not
    (the training loop samples without autocast: loop.evaluate)."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    from codelog.evaluation.sampling import TransformersSampler
    from codelog.evaluation.spec import Sampling
    from codelog.execution.testcases import Problem

    vocab = config.vocab_size
    words = {f"w{i}": i for i in range(vocab - 3)}
    words |= {"<unk>": vocab - 3, "<|pad|>": vocab - 2, "<|endoftext|>": vocab - 1}
    wordlevel = Tokenizer(models.WordLevel(words, unk_token="<unk>"))
    wordlevel.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=wordlevel,
        unk_token="<unk>",
        pad_token="<|pad|>",
        eos_token="<|endoftext|>",
    )
    import numpy as np

    rng = np.random.default_rng(0)
    problems = [
        Problem(
            f"p{i}",
            (),
            statement=" ".join(f"w{w}" for w in rng.integers(0, vocab - 3, args.prompt_tokens)),
        )
        for i in range(args.prompts)
    ]
    sampling = Sampling(
        n=args.samples, max_new_tokens=args.new_tokens, batch_size=args.prompts, seed=0
    )
    with torch.no_grad(), torch.autocast(device.type, torch.bfloat16, enabled=autocast):
        warm = dataclasses.replace(sampling, max_new_tokens=4)
        TransformersSampler(model, tokenizer, warm, "{statement}").sample(problems[:1])
        sync(device)
        start = time.perf_counter()
        samples = TransformersSampler(model, tokenizer, sampling, "{statement}").sample(problems)
        sync(device)
        seconds = time.perf_counter() - start
    new_tokens = sum(len(s.completion.split()) for s in samples)
    return {
        "sequences": len(samples),
        "prompt_tokens": args.prompt_tokens,
        "max_new_tokens": args.new_tokens,
        "new_tokens": new_tokens,
        "seconds": seconds,
        "tokens_per_s": new_tokens / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "gpu-bench")))
    parser.add_argument("--smoke", action="store_true", help="Tiny shapes on CPU.")
    parser.add_argument("--steps", type=int, default=None, help="Timed steps per run (5).")
    parser.add_argument("--warmup", type=int, default=None, help="Untimed steps first (2).")
    parser.add_argument("--only", choices=("0.5b", "7b"), help="One of the two cases.")
    parser.add_argument(
        "--no-checkpointing-runs",
        action="store_true",
        help="Skip the second run of each case with gradient checkpointing.",
    )
    parser.add_argument("--budget-s", type=float, default=390.0, help="No phase starts after.")
    parser.add_argument("--peak-tflops", type=float, help="Peak dense bf16 (default: by name).")
    parser.add_argument("--prompts", type=int, default=None, help="Sampling: prompts (16).")
    parser.add_argument("--samples", type=int, default=10, help="Sampling: n per prompt.")
    parser.add_argument("--prompt-tokens", type=int, default=None, help="Sampling (400).")
    parser.add_argument("--new-tokens", type=int, default=None, help="Sampling (256).")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.smoke:
        sys.meta_path.insert(0, Refuse())
    small = args.smoke
    args.steps = args.steps or (2 if small else 5)
    args.warmup = args.warmup if args.warmup is not None else (1 if small else 2)
    args.prompts = args.prompts or (2 if small else 16)
    args.prompt_tokens = args.prompt_tokens or (32 if small else 400)
    args.new_tokens = args.new_tokens or (8 if small else 256)
    args.samples = 2 if small else args.samples

    import peft
    import torch
    import transformers

    from codelog.training import distributed, models

    distributed.prefer_expandable_segments()  # as the trainer does, before the first allocation
    models.quiet_transformers()
    if small:  # seconds on a shared CPU: one thread does not fight the other tests for cores
        torch.set_num_threads(1)
    device = torch.device("cpu" if small or not torch.cuda.is_available() else "cuda")
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor()
    capacity = torch.cuda.get_device_properties(device).total_memory if device.type == "cuda" else 0
    peak = args.peak_tflops * 1e12 if args.peak_tflops else None
    if peak is None and device.type == "cuda":
        peak = next((f for key, f in PEAK_BF16 if key in name), None)
    args.peak = peak
    say(f"device: {name or device.type}; torch {torch.__version__}, transformers "
        f"{transformers.__version__}; peak bf16 {fmt(peak, 1e-12, '.0f')} TFLOP/s")  # fmt: skip
    results = Results(
        args.out,
        {
            "device": name or device.type,
            "device_memory_gib": round(capacity / GiB, 1),
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "cuda_alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF"),
            "peft": peft.__version__,
            "python": platform.python_version(),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": " ".join(["python", "bench/gpu.py", *sys.argv[1:]]),
            "peak_flops": peak,
            "smoke": small,
        },
    )
    results.save()
    cases = SMOKE_CASES if small else CASES
    if args.only:
        cases = [c for c in cases if args.only in c.recipe]

    def over(phase: str, c: dict) -> bool:
        if time.perf_counter() - started < args.budget_s:
            return False
        c.setdefault("notes", []).append(f"{phase}: skipped, past --budget-s {args.budget_s:.0f}")
        say(f"  {phase}: skipped (past --budget-s)")
        results.save()
        return True

    def attempt(phase: str, c: dict, fn, *fn_args):
        """fn(*fn_args); on the GPU a failure is noted and the run goes on to the next phase
        (one shot on the device: a phase that fails must not cost the others their figures).
        --smoke lets it raise, so that the test sees it."""
        try:
            return fn(*fn_args)
        except Exception as exc:
            if small:
                raise
            c.setdefault("notes", []).append(f"{phase}: {type(exc).__name__}: {exc}"[:600])
            say(traceback.format_exc())
            return None
        finally:  # the exception and its frames are gone here: their tensors can be freed
            results.save()
            free_memory(device)

    for case in cases:
        c = results.case(case.name)
        if over("the case", c):
            continue
        say(f"\n{case.name}: building (random weights) on {device.type}")
        built = time.perf_counter()
        made = attempt("building the model", c, build_model, case, device, small)
        if made is None:
            continue
        config, t, precision, model = made
        c["build_s"] = round(time.perf_counter() - built, 1)
        c["recipe"] = {k: getattr(t, k) for k in ("algo", "batch_tokens", "grad_accum",
                       "group_size", "max_length", "lora_r", "precision", "token_reduction")}  # fmt: skip
        say(f"  built in {c['build_s']} s")
        runs = c.setdefault("runs", {})
        run = None
        for checkpointing in (False, True):
            if checkpointing and args.no_checkpointing_runs:
                continue
            key = "on" if checkpointing else "off"
            if over(f"gradient checkpointing {key}", c):
                continue
            say(f"  training, gradient checkpointing {key}")
            if run is not None:  # the last run's optimizer state is not this run's
                run.optimizer.state.clear()
                run = None
                free_memory(device)
            measured = attempt(
                f"training, gradient checkpointing {key}",
                c,
                measure_training,
                *(case, config, t, precision, model, device, args, checkpointing),
            )
            if measured is None:
                continue
            runs[key], run = measured
            results.save()
            r = runs[key]
            say(f"  -> step/floor {r['step_over_floor']:.3f}, {r['tokens_per_s']:,.0f} tokens/s, "
                f"MFU {fmt(r['mfu_step'], 100, '.1f', '%')}")  # fmt: skip
            if "peak_allocated" in r["memory"]:
                m = r["memory"]
                say(f"  -> peak allocated {m['peak_allocated'] / GiB:.2f} GiB, estimate "
                    f"{m['estimate_parts'] / GiB:.2f} GiB (x{m['estimate_over_peak']:.3f})")  # fmt: skip
        if run is not None:  # the optimizer state is not needed to sample
            run.optimizer.state.clear()
            run = None
        model.zero_grad(set_to_none=True)
        free_memory(device)
        # "sampling" is the loop's path (no autocast: loop.evaluate); "sampling_autocast" the
        # alternative for fp32 master weights, which casts every weight on each forward pass
        fp32 = precision.autocast and precision.weights == torch.float32
        for key, autocast in (("sampling", False), ("sampling_autocast", True)):
            if (key == "sampling_autocast" and not fp32) or over(key, c):
                continue
            say(f"  {key}: batched HF generate, bf16 autocast {'on' if autocast else 'off'}")
            got = attempt(key, c, measure_sampling, model, config, autocast, device, args)
            if got is not None:
                c[key] = got
                say(f"  -> {got['tokens_per_s']:,.0f} tokens/s")
                results.save()
        del model
        free_memory(device)
    results.data["seconds"] = round(time.perf_counter() - started, 1)
    # with --smoke this stays empty: any import of these fails (Refuse)
    results.data["imported_what_the_device_lacks"] = [m for m in DEVICE_LACKS if m in sys.modules]
    results.save()
    say(f"\ndone in {results.data['seconds']} s; {args.out / 'gpu.md'}:\n")
    print(results.md(), flush=True)


if __name__ == "__main__":
    main()
