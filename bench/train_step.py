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

    python bench/train_step.py --layouts [--compile] [--steps 2 --warmup 1 --grad-accum 4]

Issue 45 instead: `codelog export --format sft` rows of the sample, each problem's prompt a
CodeNet statement drawn from the shared data (the real prompt lengths: about 8x a solution),
timed through `loop.optimizer_step` with each sequence whole (the padded path, before) and
with each prompt once (now, and with --compile), and through TRL's SFTTrainer padding-free and
padded, on the tiny model and a Qwen2 shape of 4 layers x 256, the same rows in the same order.
It prints solution tokens/s (what the loss trains on) and computed tokens/s (what the model
ran, padding not counted) side by side, and the load average.
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
from lengths import build_sample  # a sibling: bench/ is sys.path[0] when run as a script

from codelog.recipe import Recipe
from codelog.training import data, loop, memory, models
from codelog.training.batches import GroupPrompts, StepData, prepare_step
from codelog.training.checkpoint import RUN_FILE
from codelog.training.logprobs import token_logps


def floor_step(model: torch.nn.Module, step: StepData, labels: bool) -> float:
    """Seconds for a bare forward + backward over the step's micro-batches."""
    start = time.perf_counter()
    for mb in step.batches:
        if labels:
            ids, attention, n_prompt = mb.padded()
            before = torch.arange(ids.shape[1]) < n_prompt[:, None]
            target = ids.masked_fill(before | ~attention.bool(), -100)
            model(input_ids=ids, attention_mask=attention, labels=target, use_cache=False)[
                "loss"
            ].backward()
        else:
            logp, _ = token_logps(model, mb)
            (-logp.sum()).backward()
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


# --- issue 45: each prompt once, against the padded path and TRL, on the data's real shape ------

QWEN2_SMALL = dict(
    hidden_size=256,
    intermediate_size=1024,
    num_hidden_layers=4,
    num_attention_heads=4,
    num_key_value_heads=2,
)


def sft_rows(dataset: Path, into: Path, seed: int) -> list[dict]:
    """`codelog export --format sft` rows of `dataset`, each problem's prompt replaced by a
    CodeNet statement drawn at random (tags stripped; bench/lengths.py): the sample's 8
    problems have real solutions, the 3,999 statements the real prompt lengths."""
    import subprocess
    import sys

    import numpy as np
    import pyarrow.parquet as pq
    from lengths import statements

    out = into / "sft.parquet"
    command = [sys.executable, "-m", "codelog.cli", "export", str(dataset), "--format", "sft"]
    subprocess.run([*command, "--out", str(out), "--split", "all"], check=True, capture_output=True)
    rows = pq.read_table(out, columns=["prompt", "completion", "problem_id"]).to_pylist()
    texts = statements()
    rng = np.random.default_rng(seed)
    problems = sorted({r["problem_id"] for r in rows})
    drawn = dict(zip(problems, rng.choice(len(texts), len(problems), replace=False), strict=True))
    return [{**r, "prompt": texts[drawn[r["problem_id"]]]} for r in rows]


# The bench's tokenizer: as many entries as the tiny model's (models.TINY_VOCAB).
BENCH_VOCAB = 4096


def statement_tokenizer(rows: list[dict]):
    """A byte-level BPE tokenizer trained on the 3,999 CodeNet statements and the rows'
    solutions, with the tiny tokenizer's entries and special tokens.

    The tiny tokenizer (models.build_tiny) learns its merges from the bundled sample alone,
    8 statements and their solutions: about 1,700 entries, and an unseen English statement
    comes out at about a token a character, where a real model's tokenizer gives 3-4
    characters a token (lengths.CHARS_PER_TOKEN). Prompts would then be ~20x a solution, not
    the data's ~8x, and most Qwen2-shape sequences would be cut at --max-length, sharing no
    prompt. Trained on the statements, a prompt's tokens keep about their characters' ratio
    to the solution's (the header prints the characters a token of each)."""
    from lengths import statements
    from tokenizers import Tokenizer, decoders, pre_tokenizers, trainers
    from tokenizers import models as bpe_models
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(bpe_models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=BENCH_VOCAB,
        special_tokens=[models.EOS, models.PAD],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator([*statements(), *(r["completion"] for r in rows)], trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token=models.EOS, pad_token=models.PAD)


def groups_of(rows: list[dict], size: int) -> list[list[dict]]:
    """The rows cut into groups of `size` rows of one problem, in the rows' order."""
    by_problem: dict[str, list[dict]] = {}
    for r in rows:
        by_problem.setdefault(r["problem_id"], []).append(r)
    return [
        members[k : k + size]
        for members in by_problem.values()
        for k in range(0, len(members) - size + 1, size)
    ]


def layout_steps(rows: list[dict], tokenizer, t, steps: int, padded: bool) -> list[StepData]:
    """`steps` steps of `t.grad_accum` groups of `t.group_size` rows of one problem, in the
    rows' order, through the trainer's batching (SFT: every row correct, weight 1/n)."""
    import numpy as np

    from codelog.training.batches import micro_batches

    groups = groups_of(rows, t.group_size)
    prompts = {g[0]["problem_id"]: data.encode_prompt(tokenizer, g[0]["prompt"]) for g in groups}
    out = []
    for s in range(steps):
        chosen = [groups[(s * t.grad_accum + g) % len(groups)] for g in range(t.grad_accum)]
        seqs, truncated = {}, 0
        for group in chosen:
            codes = data.encode_solutions(tokenizer, [r["completion"] for r in group])
            for r, code in zip(group, codes, strict=True):
                ids, n_prompt, cut = data.join(prompts[r["problem_id"]], code, t.max_length)
                seqs[len(seqs)] = (ids, n_prompt)
                truncated += cut
        n = len(seqs)
        weight = np.full(n, 1.0 / n)
        batches = micro_batches(
            seqs, list(seqs), weight, weight, tokenizer.pad_token_id, t, padded=padded
        )
        rows_ = np.arange(n)
        out.append(
            StepData(
                [(g, rows_[g * t.group_size : (g + 1) * t.group_size]) for g in range(len(chosen))],
                np.repeat(np.arange(len(chosen)), t.group_size),
                rows_,
                np.ones(n),
                np.ones(n, bool),
                np.ones(n),
                {i: len(seqs[i][0]) for i in seqs},
                batches,
                truncated,
                {},
            )
        )
    return out


def time_codelog(model, t, steps: list[StepData], compile_: bool = False) -> list[float]:
    """Seconds of `loop.optimizer_step` (what the loop runs) on each step."""
    from gpu import step_runner

    if compile_:
        models.compile_blocks(model)
    cpu = torch.device("cpu")
    run = step_runner(model, t, memory.resolve_precision("fp32", cpu), cpu)
    times = []
    for s in steps:
        start = time.perf_counter()
        loop.optimizer_step(run, s)
        times.append(time.perf_counter() - start)
        run.step += 1
    return times


def time_trl(
    model, tokenizer, rows: list[dict], t, steps: int, into: Path, padding_free: bool
) -> list[float]:
    """Seconds per optimizer step of TRL's SFTTrainer on the same rows in the same order (one
    step: the same group_size x grad_accum rows), completion-only loss; `padding_free`: the
    batch flattened into one row, sequences told apart by position_ids (under SDPA transformers
    then masks the whole row: a dense (T x T) mask; TRL means it for flash-attention's varlen),
    else a right-padded batch."""
    from datasets import Dataset
    from transformers import TrainerCallback
    from trl import SFTConfig, SFTTrainer

    n = t.group_size * t.grad_accum
    groups = groups_of(rows, t.group_size)
    ordered = [
        {"prompt": r["prompt"], "completion": r["completion"]}
        for s in range(steps)
        for g in range(t.grad_accum)
        for r in groups[(s * t.grad_accum + g) % len(groups)]
    ]

    class Clock(TrainerCallback):
        def __init__(self):
            self.times: list[float] = []

        def on_step_begin(self, *a, **k):
            self.start = time.perf_counter()

        def on_step_end(self, *a, **k):
            self.times.append(time.perf_counter() - self.start)

    clock = Clock()
    config = SFTConfig(
        output_dir=str(into / "trl"),
        per_device_train_batch_size=n,
        max_steps=steps,
        max_length=None,  # padding-free truncates nothing; the rows fit max_length anyway
        padding_free=padding_free,
        completion_only_loss=True,
        learning_rate=1e-5,
        report_to="none",
        use_cpu=True,
        save_strategy="no",
        logging_steps=10**6,
        dataloader_drop_last=False,
        shuffle_dataset=False,
        seed=0,
        disable_tqdm=True,
    )
    trainer = SFTTrainer(
        model=model,
        args=config,
        train_dataset=Dataset.from_list(ordered),
        processing_class=tokenizer,
        callbacks=[clock],
    )
    trainer.train()
    return clock.times


def compare_layouts(args: argparse.Namespace) -> None:
    """Solution tokens/s and computed tokens/s of the padded path, the shared-prompt path and
    TRL's SFTTrainer, for the tiny model and a small Qwen2 shape, on the same rows."""
    import os

    from transformers import AutoModelForCausalLM, Qwen2Config

    from codelog.recipe import Train

    t = Train(
        group_size=args.group_size,
        grad_accum=args.grad_accum,
        max_length=args.max_length,
        batch_tokens=args.batch_tokens,
        algo="sft",
        learning_rate=1e-5,
    )
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dataset = args.dataset or build_sample(tmp)
        rows = sft_rows(dataset, tmp, args.seed)
        base = models.build_tiny(data.open_dataset(dataset), tmp / "tiny", t.max_length, 0)
        tokenizer = statement_tokenizer(rows)
        tiny = models.load_model(str(base)).config
        tiny.update(
            {
                "vocab_size": len(tokenizer),
                "eos_token_id": tokenizer.eos_token_id,
                "pad_token_id": tokenizer.pad_token_id,
            }
        )
        shapes = {
            "tiny": tiny,
            "qwen2 4x256": Qwen2Config(**{**tiny.to_dict(), **QWEN2_SMALL, "layer_types": None}),
        }
        total = args.warmup + args.steps
        padded = layout_steps(rows, tokenizer, t, total, padded=True)
        shared = layout_steps(rows, tokenizer, t, total, padded=False)
        measured = slice(args.warmup, None)
        solution = sum(int(mb.loss_mask.sum()) for s in shared[measured] for mb in s.batches)
        whole = sum(s.tokens for s in shared[measured])  # each sequence whole, no padding
        once = sum(
            int(mb.prompt_mask.sum() + mb.loss_mask.sum()) + len(mb.sequence)
            for s in shared[measured]
            for mb in s.batches
        )
        print(
            f"load {os.getloadavg()[0]:.2f}; torch threads {torch.get_num_threads()}; "
            f"{args.steps} steps (+{args.warmup} warm-up) of {t.grad_accum} groups of "
            f"{t.group_size}; per step {whole / args.steps:.0f} tokens, "
            f"{solution / args.steps:.0f} of them solution tokens; each prompt once: "
            f"{once / args.steps:.0f}"
        )
        print(f"{'':34}{'s/step':>9}{'solution tok/s':>16}{'computed tok/s':>16}{'vs padded':>11}")
        for name, config in shapes.items():
            if args.shape not in ("both", name.split()[0]):
                continue
            results = {}
            paths = {"padded (before)": padded, "shared prompt": shared}
            for label, steps in paths.items():
                torch.manual_seed(0)
                model = AutoModelForCausalLM.from_config(config).train()
                times = time_codelog(model, t, steps)[measured]
                results[label] = (sum(times), whole if label.startswith("padded") else once)
            if args.compile:
                torch.manual_seed(0)
                model = AutoModelForCausalLM.from_config(config).train()
                times = time_codelog(model, t, shared, compile_=True)[measured]
                results["shared prompt, --compile"] = (sum(times), once)
            for padding_free in (True, False):
                torch.manual_seed(0)
                model = AutoModelForCausalLM.from_config(config).train()
                times = time_trl(model, tokenizer, rows, t, total, tmp, padding_free)[measured]
                label = "padding-free" if padding_free else "padded batch"
                results[f"TRL SFTTrainer, {label}"] = (sum(times), whole)
            base_s = results["padded (before)"][0]
            print(f"{name}:")
            for label, (seconds, computed) in results.items():
                print(
                    f"  {label:32}{seconds / args.steps:>9.3f}{solution / seconds:>16,.0f}"
                    f"{computed / seconds:>16,.0f}{base_s / seconds:>10.2f}x"
                )
            trl_s = min(v[0] for k, v in results.items() if k.startswith("TRL"))
            ours = results["shared prompt"][0]
            print(
                f"  goal >= 3x: {base_s / ours:.2f}x the padded path, {trl_s / ours:.2f}x TRL's "
                f"faster option; "
                f"load {os.getloadavg()[0]:.2f}"
            )


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
    parser.add_argument(
        "--layouts",
        action="store_true",
        help="Issue 45: padded vs shared-prompt vs TRL on CodeNet-shaped rows, instead.",
    )
    parser.add_argument("--compile", action="store_true", help="--layouts: also --compile.")
    parser.add_argument("--seed", type=int, default=0, help="--layouts: which statements.")
    parser.add_argument("--shape", choices=["both", "tiny", "qwen2"], default="both")
    args = parser.parse_args()
    if args.layouts:
        compare_layouts(args)
        return
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
    computed = sum(s.get("computed_tokens", s["tokens"]) for s in steps[measured])
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
        f"padding waste: length-aware micro-batches {1 - computed / padded:.1%} "
        f"vs one padded batch per step {1 - tokens / naive:.1%}"
    )


if __name__ == "__main__":
    main()
