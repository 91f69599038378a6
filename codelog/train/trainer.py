"""The trainer: advantage-weighted likelihood on logged, judged solutions. One loop, top to bottom.

Each optimizer step draws `grad_accum` groups; a group is up to `group_size` solutions of one
problem, at least one correct and one incorrect. With A_i the advantage of solution i in its
group (codelog.train.advantages) and n the group's size, the step minimises

    loss = mean over groups of  -1/n * sum_i A_i * log p(solution_i | prompt)
                              (+ kl * 1/n * sum_i KL_i, when a KL penalty is asked for)

where log p is the sum or the mean of the solution's token log-probs (`token_reduction`) and KL_i
is the k3 estimate exp(q - p) - (q - p) - 1 on the solution's tokens (q: reference log-prob).
This is advantage-weighted likelihood on logged data: nothing is sampled or executed during
training, so it is not on-policy RL.

The loop: sample groups -> tokenise -> length-aware micro-batches -> forward -> loss -> backward
-> clip -> step -> log -> checkpoint. Checkpoints hold everything needed to continue exactly:
weights (save_pretrained), tokenizer, recipe, the dataset's input_fingerprint, optimizer,
scheduler, RNG and sampler state.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from codelog.errors import CodelogError, RecipeError
from codelog.progress import console
from codelog.recipe import Recipe, Train, load_recipe
from codelog.train import data, models
from codelog.train.advantages import ADVANTAGES, compute_advantages
from codelog.version import __version__

RUN_FILE = "run.json"  # in the run dir: what the run is (recipe, dataset, base model)
CHECKPOINT_FILE = "codelog.json"  # in each checkpoint: step, recipe, input_fingerprint, ...
STATE_FILE = "trainer_state.pt"  # in each checkpoint: optimizer, scheduler, RNG, sampler
# Options a resumed run may change: they do not alter what the next step computes.
RESUMABLE = {"steps", "checkpoint_every", "eval_every", "keep_checkpoints"}
EVAL_PER_CLASS, EVAL_GROUPS = 8, 256  # held-out solutions per class and group, groups, at most


class TrainingError(CodelogError):
    """A run that cannot start or continue (bad options, run directory, non-finite loss)."""


@dataclass(frozen=True)
class RunResult:
    run_dir: Path
    steps: int
    checkpoint: Path
    margin_before: float | None
    margin_after: float | None
    sequences: int
    truncated: int
    padding_waste: float
    seconds: float


# --- configuration -----------------------------------------------------------------------------


def resolve_recipe(recipe: Recipe, overrides: dict[str, Any]) -> Recipe:
    """The recipe with command-line overrides applied to [train], checked once here."""
    unknown = set(overrides) - {f.name for f in dataclasses.fields(Train)}
    if unknown:
        raise RecipeError(f"unknown training option(s) {sorted(unknown)}")
    t = dataclasses.replace(recipe.train, **overrides)
    problems = [
        (t.algo not in ADVANTAGES, f"algo must be one of {sorted(ADVANTAGES)}, not {t.algo!r}"),
        (t.group_size < 2, "group_size must be at least 2 (one correct and one incorrect)"),
        (t.max_length < 16, "max_length must be at least 16 tokens"),
        (t.token_reduction not in ("mean", "sum"), "token_reduction must be 'mean' or 'sum'"),
        (t.steps < 1, "steps must be at least 1"),
        (t.learning_rate is not None and not t.learning_rate > 0, "learning_rate must be positive"),
        (
            t.warmup_steps < 0 or t.weight_decay < 0 or t.kl < 0,
            "warmup_steps, weight_decay, kl must be >= 0",
        ),
        (t.max_grad_norm <= 0, "max_grad_norm must be positive"),
        (t.grad_accum < 1 or t.batch_tokens < 1, "grad_accum and batch_tokens must be at least 1"),
        (
            t.lora_r < 0 or t.lora_alpha < 1,
            "lora_r must be >= 0 (0 = full fine-tuning), lora_alpha >= 1",
        ),
        (t.precision not in ("auto", "bf16", "fp32"), "precision must be 'auto', 'bf16' or 'fp32'"),
        (not 0 <= t.eval_fraction < 1, "eval_fraction must be in [0, 1)"),
        (
            t.checkpoint_every < 1 or t.eval_every < 0 or t.keep_checkpoints < 0,
            "checkpoint_every must be >= 1, eval_every and keep_checkpoints >= 0",
        ),
    ]
    for bad, message in problems:
        if bad:
            raise RecipeError(f"[train] {message}")
    if t.learning_rate is None:
        lr = 3e-3 if t.model == models.TINY and not t.lora_r else 1e-4 if t.lora_r else 1e-5
        t = dataclasses.replace(t, learning_rate=lr)
    return dataclasses.replace(recipe, train=t)


def pick_device(precision: str) -> tuple[torch.device, bool]:
    """(device, bf16 autocast?): CUDA when present; bf16 by default only on a bf16-capable GPU."""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if precision == "auto":
        return device, device.type == "cuda" and torch.cuda.is_bf16_supported()
    return device, precision == "bf16"


# --- one step's data ---------------------------------------------------------------------------


@dataclass
class MicroBatch:
    input_ids: torch.Tensor  # (B, T) right-padded
    attention_mask: torch.Tensor  # (B, T)
    loss_mask: torch.Tensor  # (B, T): 1 on solution tokens
    weight: torch.Tensor  # (B,) A_i / (n * groups): the factor of log p in the loss (negated)
    kl_weight: torch.Tensor  # (B,) 1 / (n * groups): the factor of KL_i
    sequence: list[int]  # positions in the step's sequence list
    min_prompt: int  # shortest prompt: logits are needed from there on

    def to(self, device: torch.device) -> MicroBatch:
        move = ("input_ids", "attention_mask", "loss_mask", "weight", "kl_weight")
        return dataclasses.replace(self, **{k: getattr(self, k).to(device) for k in move})


@dataclass
class StepData:
    groups: list[tuple[int, np.ndarray]]  # (group number, row numbers)
    group_of: list[int]  # per sequence: position in `groups`
    rewards: np.ndarray  # per sequence
    is_correct: np.ndarray  # per sequence
    advantages: np.ndarray  # per sequence
    lengths: list[int]  # per sequence, tokens
    batches: list[MicroBatch]
    truncated: int
    sampler_state: dict[str, Any]  # the sampler's state once this step's groups were drawn
    padded_tokens: int = field(init=False)

    def __post_init__(self) -> None:
        self.padded_tokens = sum(b.input_ids.numel() for b in self.batches)


def collate(
    seqs: list[tuple[list[int], int]], pad_id: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Right-pad (ids, prompt length) pairs to (input_ids, attention_mask, loss_mask)."""
    width = max(len(ids) for ids, _ in seqs)
    input_ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    attention_mask = torch.zeros((len(seqs), width), dtype=torch.long)
    loss_mask = torch.zeros((len(seqs), width), dtype=torch.bool)
    for b, (ids, n_prompt) in enumerate(seqs):
        input_ids[b, : len(ids)] = torch.tensor(ids)
        attention_mask[b, : len(ids)] = 1
        loss_mask[b, n_prompt : len(ids)] = True
    return input_ids, attention_mask, loss_mask


def prepare_step(
    sampler: data.GroupSampler,
    store: data.CodeStore,
    prompt_ids: list[list[int]],
    tokenizer: Any,
    t: Train,
) -> StepData:
    """Draw `grad_accum` groups, tokenise them, and cut them into length-aware micro-batches."""
    groups, group_of, seqs, rewards, correct, advantages = [], [], [], [], [], []
    truncated = 0
    for _ in range(t.grad_accum):
        group, rows = sampler.next()
        solutions = data.encode_solutions(tokenizer, store.fetch(rows))
        r, c = sampler.index.rewards[rows], sampler.index.is_correct[rows]
        a = compute_advantages(t.algo, torch.from_numpy(r), torch.from_numpy(c)).numpy()
        for solution in solutions:
            ids, n_prompt, cut = data.join(prompt_ids[group], solution, t.max_length)
            seqs.append((ids, n_prompt))
            truncated += cut
            group_of.append(len(groups))
        groups.append((group, rows))
        rewards.append(r), correct.append(c), advantages.append(a)
    rewards, correct, advantages = map(np.concatenate, (rewards, correct, advantages))
    scale = np.array([1.0 / (len(groups[g][1]) * len(groups)) for g in group_of])
    # A member with zero advantage adds nothing to the loss (SFT's incorrect solutions): skip it,
    # unless the KL penalty needs its tokens.
    live = [i for i in range(len(seqs)) if advantages[i] != 0 or t.kl > 0]
    batches = []
    for plan in data.plan_micro_batches([len(seqs[i][0]) for i in live], t.batch_tokens):
        members = [live[k] for k in plan]
        input_ids, attention_mask, loss_mask = collate(
            [seqs[i] for i in members], tokenizer.pad_token_id
        )
        batches.append(
            MicroBatch(
                input_ids,
                attention_mask,
                loss_mask,
                weight=torch.tensor(advantages[members] * scale[members], dtype=torch.float32),
                kl_weight=torch.tensor(scale[members], dtype=torch.float32),
                sequence=members,
                min_prompt=min(seqs[i][1] for i in members),
            )
        )
    return StepData(
        groups,
        group_of,
        rewards,
        correct,
        advantages,
        [len(s[0]) for s in seqs],
        batches,
        truncated,
        sampler.state_dict(),
    )


# --- forward: per-token log-probs of the solution tokens ---------------------------------------


def takes_logits_to_keep(model: nn.Module) -> bool:
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    return "logits_to_keep" in inspect.signature(base.forward).parameters


def token_logps(
    model: nn.Module, batch: MicroBatch, keep_logits: bool
) -> tuple[torch.Tensor, torch.Tensor]:
    """(log-prob of each next token, mask of solution tokens), both (B, K), for the last K positions.

    Only positions from the shortest prompt on are projected to the vocabulary when the model
    allows it (`logits_to_keep`): the prompt's logits are never needed."""
    ids, mask = batch.input_ids, batch.attention_mask
    width = ids.shape[1]
    keep = width - batch.min_prompt + 1 if keep_logits else width
    kwargs = {"logits_to_keep": keep} if keep_logits else {}
    logits = model(
        input_ids=ids, attention_mask=mask, use_cache=False, **kwargs
    ).logits  # (B, K, V)
    # logits at position p predict token p + 1; the last position predicts nothing (masked).
    start = width - keep
    targets = F.pad(ids[:, start + 1 :], (0, 1))
    target_mask = F.pad(batch.loss_mask[:, start + 1 :], (0, 1))
    logp = -F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten(), reduction="none")
    return logp.view(targets.shape), target_mask


def reduce_tokens(values: torch.Tensor, mask: torch.Tensor, how: str) -> torch.Tensor:
    total = (values * mask).sum(dim=1)
    return total / mask.sum(dim=1).clamp(min=1) if how == "mean" else total


def kl_to_reference(
    model: nn.Module,
    reference: nn.Module | None,
    batch: MicroBatch,
    logp: torch.Tensor,
    mask: torch.Tensor,
    t: Train,
    keep_logits: bool,
) -> torch.Tensor:
    """Per sequence, the k3 estimate of KL(policy || reference) on the solution's tokens:
    exp(q - p) - (q - p) - 1 with q the reference's token log-prob. With LoRA the reference is the
    model with its adapters disabled (`reference` is None); full fine-tuning keeps a frozen copy."""
    with torch.no_grad():
        if reference is None:
            with model.disable_adapter():
                ref_logp, _ = token_logps(model, batch, keep_logits)
        else:
            ref_logp, _ = token_logps(reference, batch, keep_logits)
    delta = ref_logp - logp
    return reduce_tokens(torch.exp(delta) - delta - 1, mask, t.token_reduction)


@torch.no_grad()
def evaluate(
    model: nn.Module,
    eval_set: list[tuple[int, bool, list[int], int]],
    pad_id: int,
    batch_tokens: int,
    device: torch.device,
    bf16: bool,
    keep_logits: bool,
) -> dict[str, float]:
    """Held-out margin: per group, mean token log-prob of correct minus incorrect solutions;
    averaged over groups. `eval_set` holds (group, is_correct, ids, prompt length)."""
    was_training = model.training
    model.eval()
    per_token = np.zeros(len(eval_set))
    for plan in data.plan_micro_batches([len(e[2]) for e in eval_set], batch_tokens):
        seqs = [(eval_set[i][2], eval_set[i][3]) for i in plan]
        input_ids, attention_mask, loss_mask = collate(seqs, pad_id)
        batch = MicroBatch(
            input_ids.to(device),
            attention_mask.to(device),
            loss_mask.to(device),
            torch.zeros(0),
            torch.zeros(0),
            plan,
            min(s[1] for s in seqs),
        )
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            logp, tmask = token_logps(model, batch, keep_logits)
        per_token[plan] = reduce_tokens(logp, tmask, "mean").cpu().numpy()
    model.train(was_training)
    groups = sorted({e[0] for e in eval_set})
    good = [
        np.mean([per_token[i] for i, e in enumerate(eval_set) if e[0] == g and e[1]])
        for g in groups
    ]
    bad = [
        np.mean([per_token[i] for i, e in enumerate(eval_set) if e[0] == g and not e[1]])
        for g in groups
    ]
    return {
        "margin": float(np.mean(np.subtract(good, bad))),
        "logp_correct": float(np.mean(good)),
        "logp_incorrect": float(np.mean(bad)),
        "groups": len(groups),
        "solutions": len(eval_set),
    }


def build_eval_set(
    heldout: data.GroupIndex,
    store: data.CodeStore,
    prompt_ids: dict[tuple[str, str], list[int]],
    tokenizer: Any,
    max_length: int,
) -> list[tuple[int, bool, list[int], int]]:
    """Tokenised held-out solutions of groups holding out both a correct and an incorrect one."""
    out = []
    for g in range(len(heldout)):
        members = heldout.members(g)
        correct = heldout.is_correct[members]
        if len(out) >= EVAL_GROUPS * 2 * EVAL_PER_CLASS or correct.all() or not correct.any():
            continue
        rows = np.concatenate(
            [members[correct][:EVAL_PER_CLASS], members[~correct][:EVAL_PER_CLASS]]
        )
        for row, solution in zip(
            rows, data.encode_solutions(tokenizer, store.fetch(rows)), strict=True
        ):
            ids, n_prompt, _ = data.join(prompt_ids[heldout.keys[g]], solution, max_length)
            out.append((g, bool(heldout.is_correct[row]), ids, n_prompt))
    return out


# --- checkpoints -------------------------------------------------------------------------------


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


def lock_run_dir(run_dir: Path) -> Any:
    """An exclusive lock on the run directory, so two trainers never write the same checkpoints."""
    handle = (run_dir / ".lock").open("w")
    try:
        import fcntl

        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # not on a POSIX system: no lock
        pass
    except BlockingIOError:
        handle.close()
        raise TrainingError(f"{run_dir}: another `codelog train` is running in it") from None
    return handle


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


# --- the run -----------------------------------------------------------------------------------


def train(
    dataset_dir: str | Path,
    out: str | Path,
    overrides: dict[str, Any] | None = None,
    recipe: Recipe | None = None,
    resume: bool = False,
    progress: bool = True,
    max_steps_this_call: int | None = None,
) -> RunResult:
    """Train on a dataset built by `codelog build`; return where the run and its last checkpoint are.

    `recipe` defaults to the one stored in the dataset's manifest (so the prompt template matches
    the build); `overrides` are [train] fields (the command-line options). `max_steps_this_call`
    stops early as if interrupted (tests use it)."""
    started = time.perf_counter()
    run_dir, overrides = Path(out), dict(overrides or {})

    # 1. Everything that can be wrong with the dataset or the options, before any model loads.
    dataset = data.open_dataset(dataset_dir)
    if resume:
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
    else:
        if checkpoints(run_dir):
            raise TrainingError(
                f"{run_dir}: already holds a run; pass --resume to continue it, or another --out"
            )
        recipe = resolve_recipe(recipe or dataset.recipe() or load_recipe(), overrides)
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
    # prompts: the training groups', then the held-out groups' (other problems' when the
    # dataset has test problems: codelog.train.data.training_groups)
    by_key = dict(zip([*train_index.keys, *heldout.keys], prompt_ids, strict=True))
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
        # Steps logged after the checkpoint will be run again: drop them from the log.
        lines = (
            metrics_path.read_text(encoding="utf-8").splitlines() if metrics_path.exists() else []
        )
        metrics_path.write_text(
            "".join(ln + "\n" for ln in lines if json.loads(ln)["step"] <= step), encoding="utf-8"
        )
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
    end = t.steps if max_steps_this_call is None else min(t.steps, step + max_steps_this_call)

    # 5. The loop. The next step's data is prepared in a thread while this step computes.
    bar = _ProgressBar(progress, step, t.steps)
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


class _ProgressBar:
    """A rich progress bar showing loss, reward and advantage stats (nothing when disabled)."""

    def __init__(self, enabled: bool, start: int, total: int):
        self.progress = None
        if enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.progress = Progress(
                TextColumn("[bold]train"),
                BarColumn(bar_width=24),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.fields[stats]}"),
                console=console,
            )
            self.progress.start()
            self.task = self.progress.add_task("train", total=total, completed=start, stats="")

    def update(self, step: int, r: dict[str, Any]) -> None:
        if self.progress:
            stats = (
                f"loss {r['loss']:+.4f}  reward {r['reward_mean']:+.2f}  "
                f"adv {r['adv_mean']:+.2f}±{r['adv_std']:.2f}  logp/tok {r['logp_token']:.3f}"
            )
            self.progress.update(self.task, completed=step, stats=stats)

    def close(self) -> None:
        if self.progress:
            self.progress.stop()


def print_summary(result: RunResult) -> None:
    """What the run did, on stderr: where it is, held-out margin, truncation, padding waste."""
    margin = (
        f"{result.margin_before:+.4f} -> {result.margin_after:+.4f}"
        if result.margin_before is not None and result.margin_after is not None
        else "not measured (no held-out groups; see --eval-fraction)"
    )
    console.print(
        f"[bold]codelog train[/] -> {result.run_dir}  ({result.steps} steps, {result.seconds:.1f}s)"
    )
    console.print(f"  checkpoint                {result.checkpoint}")
    console.print(f"  held-out margin (logp/tok correct - incorrect)  {margin}")
    console.print(f"  padding waste             {result.padding_waste:.1%}")
    style = "yellow" if result.truncated else ""
    console.print(
        f"  truncated to max_length   {result.truncated} of {result.sequences} sequences",
        style=style,
    )
