"""The training loop: advantage-weighted likelihood on logged, judged solutions. Read top to bottom.

Each optimizer step draws `grad_accum` groups; a group is up to `group_size` solutions of one
problem, at least one correct and one incorrect. With A_i the advantage of solution i in its
group (codelog.training.advantages) and n the group's size, the step minimises

    loss = mean over groups of  -1/n * sum_i A_i * log p(solution_i | prompt)
                              (+ kl * 1/n * sum_i KL_i, when a KL penalty is asked for)

where log p is the sum or the mean of the solution's token log-probs (`token_reduction`) and KL_i
is the k3 estimate on the solution's tokens against cached reference log-probs
(codelog.training.reference). This is advantage-weighted likelihood on logged data: nothing is
sampled or executed during training, so it is not on-policy RL.

The loop: sample groups -> tokenise -> length-aware micro-batches (codelog.training.batches) ->
forward -> loss -> backward -> clip -> step -> log -> checkpoint (codelog.training.checkpoint).
Under torchrun each process takes its share of the step's groups (codelog.training.distributed);
`grad_accum` counts the groups of the whole step, so a recipe computes the same on any number
of processes.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from codelog import kinds
from codelog.errors import DatasetError
from codelog.progress import console
from codelog.recipe import Train, load_recipe
from codelog.training import checkpoint as ckpt
from codelog.training import data, distributed, memory, models
from codelog.training.batches import StepData, prepare_step
from codelog.training.distributed import Dist, unwrap
from codelog.training.evaluation import (
    TRAIN_EVAL_GROUPS,
    EvalContext,
    build_eval_set,
    heldout_margin,
)
from codelog.training.logprobs import SequenceLogps, reduce_tokens
from codelog.training.options import TrainingError, TrainOptions, resolve_recipe
from codelog.training.reference import ReferenceCache, cache_key, cached_kl, fill, recomputed_kl
from codelog.training.report import MetricsLog, ProgressBar, RunResult, parse_report_to, step_record
from codelog.version import __version__

# Sums over ranks after each step, in this order.
STEP_SUMS = ("loss", "kl", "logp_sum", "logp_tokens", "tokens", "padded_tokens", "computed_tokens")
STEP_SUMS += ("micro_batches", "truncated")


def train(dataset: str | Path, out: str | Path, overrides: dict[str, Any] | None = None, **options):
    """Train on a dataset built by `codelog build`; return where the run and its last checkpoint are.

    `overrides` are [train] fields (the command-line options); `options` the other fields of
    TrainOptions (recipe, resume, progress, ...)."""
    return run(TrainOptions(Path(dataset), Path(out), dict(overrides or {}), **options))


def run(options: TrainOptions) -> RunResult:
    d = distributed.init()
    try:
        return _run(options, d)
    finally:
        ckpt.unlock_run_dir(options.out)
        distributed.close(d)


def _run(options: TrainOptions, d: Dist) -> RunResult:
    started = time.perf_counter()
    run = set_up(options, d)
    if not options.resume:
        before, run.totals["evaluations_before"] = evaluate(run, 0)
        run.totals["margin_before"] = before and before["margin"]
        run.totals["train_margin_before"] = before and before.get("train_margin")
        run.totals["heldout_before"] = before  # its groups' margins: the change's paired SE
    train_steps(run)
    after, evaluations = evaluate(run, run.step) if run.step == run.t.steps else (None, {})
    run.log.close()
    distributed.barrier(d)  # the last checkpoint is on disk before any process returns
    totals, step_times = run.totals, run.step_times
    return RunResult(
        run_dir=run.run_dir,
        steps=run.step,
        checkpoint=run.last_checkpoint,
        margin_before=totals["margin_before"],
        margin_after=after and after["margin"],
        train_margin_before=totals.get("train_margin_before"),
        train_margin_after=after and after.get("train_margin"),
        train_groups=(after or {}).get("train_groups", 0),
        heldout_before=totals.get("heldout_before"),
        model=run.t.model,
        sequences=totals["sequences"],
        truncated=totals["truncated"],
        padding_waste=1 - totals["computed_tokens"] / max(totals["padded_tokens"], 1),
        tokens=totals["tokens"],
        computed_tokens=totals["computed_tokens"],
        seconds=time.perf_counter() - started,
        step_seconds=sum(step_times) / len(step_times) if step_times else None,
        heldout=after,
        evaluations_before=totals.get("evaluations_before", {}),
        evaluations_after=evaluations,
        rank=d.rank,
    )


@dataclass
class Run:
    """A run once set up (`set_up`): what the loop reads, and what it moves forward as it goes
    (`step`, `sampler_state`, `totals`, `last_checkpoint`, `step_times`)."""

    options: TrainOptions
    d: Dist
    t: Train
    run_dir: Path
    info: dict[str, Any]  # what each checkpoint records of the run
    precision: memory.Precision
    tokenizer: Any
    policy: torch.nn.Module  # the model trained (peft's, with LoRA)
    model: torch.nn.Module  # the policy's SequenceLogps, wrapped for DDP under torchrun
    reference: torch.nn.Module | None  # a frozen copy for the KL, when it is recomputed
    cache: ReferenceCache | None  # cached reference log-probs, when they are cached
    params: list[torch.nn.Parameter]
    optimizer: torch.optim.Optimizer
    scheduler: torch.optim.lr_scheduler.LambdaLR
    sampler: data.GroupSampler
    store: data.CodeStore
    train_prompts: Any  # codelog.training.batches.Prompts
    eval_set: Any  # the held-out sequences of the margin (codelog.training.evaluation)
    fit_set: Any  # the same of up to TRAIN_EVAL_GROUPS training groups
    log: MetricsLog
    step: int  # optimizer steps taken
    end: int  # the step this call stops at
    totals: dict[str, Any]
    last_checkpoint: Path | None
    sampler_state: dict[str, Any] | None = None  # after the last step taken
    step_times: list[float] = field(default_factory=list)


def set_up(options: TrainOptions, d: Dist) -> Run:
    """Everything before the first step, in the order a failure should surface: the dataset
    and options (before any model loads), the run directory, the model, the data, the KL
    reference, the optimizer; a resumed run's state restored."""
    say = console.print if d.main and not options.quiet else (lambda *a, **k: None)
    report_to = parse_report_to(options.report_to)
    plan = _plan(options, d, say)
    run_info = _begin(options, d, plan)
    base, t = run_info["base_model"], plan.t
    estimate = _memory_estimate(options, d, plan, base, say)
    latest, state, tokenizer, model = _load(options, d, plan, base)
    step = state["step"] if state else 0
    inputs = _inputs(plan, tokenizer, state)
    cache, reference = _kl_reference(options, d, plan, base, tokenizer, model, inputs, step)

    # 6. Optimizer: AdamW, linear warm-up then constant (so a run can be extended exactly).
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer, scheduler = optimizer_for(params, t, d.device)
    torch.manual_seed(t.seed)
    metrics_path = options.out / "metrics.jsonl"
    totals = _restore(d, state, optimizer, scheduler, metrics_path, step)
    policy, model = model, distributed.wrap(d, SequenceLogps(model))
    log = MetricsLog(metrics_path, report_to, run_info["recipe"], enabled=d.main)
    log.write({"event": "memory", "step": step, "total": estimate.total, **estimate.parts})
    info = {k: run_info[k] for k in ("codelog_version", "dataset", "input_fingerprint")}
    info |= {"base_model": base, "recipe": run_info["recipe"]}
    end = t.steps
    if options.max_steps_this_call is not None:
        end = min(t.steps, step + options.max_steps_this_call)
    return Run(
        options=options,
        d=d,
        t=t,
        run_dir=options.out,
        info=info,
        precision=plan.precision,
        tokenizer=tokenizer,
        policy=policy,
        model=model,
        reference=reference,
        cache=cache,
        params=params,
        optimizer=optimizer,
        scheduler=scheduler,
        sampler=inputs.sampler,
        store=inputs.store,
        train_prompts=inputs.train_prompts,
        eval_set=inputs.eval_set,
        fit_set=inputs.fit_set,
        log=log,
        step=step,
        end=end,
        totals=totals,
        last_checkpoint=latest,
    )


@dataclass(frozen=True)
class _Plan:
    """What set_up works out before any model loads (`_plan`)."""

    rows: Any  # the kind's training rows (training.rows)
    dataset: Any
    recipe: Any
    t: Train
    training: Any  # the rows' training set: train and held-out groups
    precision: memory.Precision
    resumed_info: dict[str, Any] | None  # a resumed run's run.json
    recompute_copy: bool  # the KL against a frozen copy of the base, recomputed each step


def _plan(options: TrainOptions, d: Dist, say: Any) -> _Plan:
    """1. Everything that can be wrong with the dataset or the options, before any model
    loads."""
    run_dir, resume = options.out, options.resume
    rows = task_kind(options).part("training.data")  # the kind's training rows (training.rows)
    dataset = rows.open(options.dataset)
    run_info = None
    if resume:
        recipe, run_info = ckpt.resumed_recipe(run_dir, options.overrides, dataset)
    elif ckpt.checkpoints(run_dir):
        raise TrainingError(
            f"{run_dir}: already holds a run; pass --resume to continue it, or another --out"
        )
    else:
        default = options.recipe or dataset.recipe() or load_recipe()
        recipe = resolve_recipe(default, options.overrides)
    t = recipe.train
    if t.grad_accum < d.world:
        raise TrainingError(
            f"--grad-accum {t.grad_accum}: each of the {d.world} processes needs at least one "
            "group per step (grad_accum counts the groups of the whole step)"
        )
    rows.check(recipe)
    training = rows.training_set(dataset, recipe)
    if training.note:
        say(training.note)
    precision = memory.resolve_precision(t.precision, d.device)
    if precision.note:
        say(precision.note, style="yellow")
    recompute_copy = t.kl > 0 and not t.lora_r and options.reference == "recompute"
    return _Plan(rows, dataset, recipe, t, training, precision, run_info, recompute_copy)


def _begin(options: TrainOptions, d: Dist, plan: _Plan) -> dict[str, Any]:
    """2. The run directory: rank 0 makes and locks it (held until the run returns:
    run's unlock_run_dir) and records a new run; every rank then reads the run's record."""
    models.quiet_transformers()
    run_info = plan.resumed_info
    if d.main:
        options.out.mkdir(parents=True, exist_ok=True)
        ckpt.lock_run_dir(options.out)
        if not options.resume:
            run_info = ckpt.begin_run(options.out, plan.dataset, plan.recipe, __version__)
    distributed.barrier(d)
    if run_info is None:  # another rank's new run: rank 0 wrote it
        run_info = ckpt.read_run_info(options.out)
    return run_info


def _memory_estimate(
    options: TrainOptions, d: Dist, plan: _Plan, base: str, say: Any
) -> memory.MemoryEstimate:
    """The memory the run will take, said (or checked against the device, --memory-check)."""
    t, precision = plan.t, plan.precision
    estimate = memory.estimate(
        models.load_config(base),
        t,
        precision,
        gradient_checkpointing=options.gradient_checkpointing,
        reference_copy=plan.recompute_copy,
        groups_per_rank=-(-t.grad_accum // d.world),
        padded=options.layout == "padded",
    )
    if options.memory_check:
        say(memory.check_fits(estimate, t, precision, d.device, options.gradient_checkpointing))
    else:
        say(estimate.describe(precision, *memory.device_capacity(d.device)))
    return estimate


def _load(
    options: TrainOptions, d: Dist, plan: _Plan, base: str
) -> tuple[Path | None, dict[str, Any] | None, Any, torch.nn.Module]:
    """3. The model and tokenizer (from the latest checkpoint when resuming), on the device in
    training mode; (latest checkpoint, its trainer state, tokenizer, model)."""
    t = plan.t
    latest = ckpt.checkpoints(options.out)[-1] if options.resume else None
    with ckpt.reading(latest):
        tokenizer, model = models.load_policy(
            base, latest, t.lora_r, t.lora_alpha, plan.precision.weights
        )
    if options.gradient_checkpointing:
        models.enable_gradient_checkpointing(model)
    if options.compile:
        models.compile_blocks(model)
    model.to(d.device).train()
    state = ckpt.load_state(latest) if latest else None
    if state and state["step"] > t.steps:
        raise TrainingError(f"{latest}: the run is at step {state['step']}, past --steps {t.steps}")
    return latest, state, tokenizer, model


@dataclass(frozen=True)
class _Inputs:
    """What the steps and the evaluations read (`_inputs`)."""

    store: data.CodeStore  # solutions' code, fetched per step
    train_prompts: Any  # codelog.training.batches.Prompts
    sampler: data.GroupSampler
    eval_set: Any  # the held-out sequences of the margin (codelog.training.evaluation)
    fit_set: Any  # the same of up to TRAIN_EVAL_GROUPS training groups


def _inputs(plan: _Plan, tokenizer: Any, state: dict[str, Any] | None) -> _Inputs:
    """4. Data: prompts tokenised once per group (a repair row's, when it is drawn); code
    fetched per step; a resumed run's sampler where it stopped."""
    t, rows, training = plan.t, plan.rows, plan.training
    store = data.CodeStore(plan.dataset.solutions)
    train_prompts, heldout_prompts = rows.prompts(training, tokenizer)
    sampler = rows.sampler(training.train, t.group_size, t.seed)
    eval_set = build_eval_set(training.heldout, store, heldout_prompts, tokenizer, t.max_length)
    fit_set = build_eval_set(
        training.train, store, train_prompts, tokenizer, t.max_length, TRAIN_EVAL_GROUPS
    )
    if state:
        sampler.load_state_dict(state["sampler"])
    return _Inputs(store, train_prompts, sampler, eval_set, fit_set)


def _kl_reference(
    options: TrainOptions,
    d: Dist,
    plan: _Plan,
    base: str,
    tokenizer: Any,
    model: torch.nn.Module,
    inputs: _Inputs,
    step: int,
) -> tuple[ReferenceCache | None, torch.nn.Module | None]:
    """5. The KL reference, when the recipe has a KL term: log-probs of every sequence this
    rank will train on, computed once and cached (the default), or a frozen copy of the base
    model recomputing them each step; (cache, copy)."""
    t, precision = plan.t, plan.precision
    if t.kl > 0 and options.reference == "cached":
        key = cache_key(
            plan.dataset,
            base,
            tokenizer,
            plan.rows.prompt_identity(plan.recipe),
            t.max_length,
            f"{d.device.type} {precision.name}",
        )
        cache = ReferenceCache(options.out, key).load()
        fill(
            cache,
            model,
            base,
            inputs.sampler,
            inputs.store,
            inputs.train_prompts,
            tokenizer,
            t,
            d,
            precision,
            step,
            options.progress and d.main,
            padded=options.layout == "padded",
        )
        return cache, None
    if plan.recompute_copy:
        return None, models.frozen(models.load_model(base, precision.weights)).to(d.device)
    return None, None


def _restore(
    d: Dist,
    state: dict[str, Any] | None,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LambdaLR,
    metrics_path: Path,
    step: int,
) -> dict[str, Any]:
    """A resumed run's optimizer, schedule, random state and running totals, its metrics cut
    back to its checkpoint's step; the totals (new ones for a new run)."""
    if not state:
        counts = ("sequences", "truncated", "tokens", "padded_tokens", "computed_tokens")
        return {**dict.fromkeys(counts, 0), "margin_before": None}
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    torch.set_rng_state(state["torch_rng"])
    if d.device.type == "cuda" and state.get("cuda_rng") is not None:
        torch.cuda.set_rng_state_all(state["cuda_rng"])
    totals = state["totals"]
    # a checkpoint from before the count: its steps ran the padded layout, tokens whole
    totals.setdefault("computed_tokens", totals["tokens"])
    if d.main:
        ckpt.truncate_metrics(metrics_path, step)
    return totals


def optimizer_for(
    params: list[torch.nn.Parameter], t: Train, device: torch.device
) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LambdaLR]:
    """AdamW with a linear warm-up, then constant (so a run can be extended exactly)."""
    fused = device.type in ("cpu", "cuda")  # one kernel for all parameters: 4x faster on CPU
    optimizer = torch.optim.AdamW(
        params, lr=t.learning_rate, weight_decay=t.weight_decay, fused=fused
    )
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / (t.warmup_steps + 1))
    )
    return optimizer, scheduler


def train_steps(run: Run) -> None:
    """7. The loop, from `run.step` to `run.end`: one optimizer step per iteration, logged,
    evaluated and checkpointed on schedule. The next step's data is prepared in a thread while
    this step computes."""
    t, d = run.t, run.d
    bar = ProgressBar(run.options.progress and d.main, run.step, t.steps)
    prefetch = ThreadPoolExecutor(max_workers=1)
    run.sampler_state = run.sampler.state_dict()
    prepare = (
        run.sampler,
        run.store,
        run.train_prompts,
        run.tokenizer,
        t,
        d.rank,
        d.world,
        run.cache,
        run.options.layout == "padded",
    )
    upcoming = prefetch.submit(prepare_step, *prepare)
    tick = time.perf_counter()
    try:
        while run.step < run.end:
            batch = upcoming.result()
            if run.step + 1 < run.end:
                upcoming = prefetch.submit(prepare_step, *prepare)
            sums, grad_norm = optimizer_step(run, batch)
            run.step += 1
            run.sampler_state = batch.sampler_state

            run.totals["sequences"] += len(batch.rewards)
            for k in ("truncated", "tokens", "padded_tokens", "computed_tokens"):
                run.totals[k] += int(sums[k])
            run.step_times.append(time.perf_counter() - tick)
            record = step_record(
                run.step, sums, batch, run.sampler.index, t.kl > 0, run.totals["truncated"]
            )
            record |= {"lr": run.scheduler.get_last_lr()[0], "grad_norm": grad_norm}
            record["step_time"] = run.step_times[-1]
            run.log.write(record)
            bar.update(run.step, record)
            if t.eval_every and run.step % t.eval_every == 0 and run.step < t.steps:
                evaluate(run, run.step)
            if run.step % t.checkpoint_every == 0 or run.step == t.steps:
                run.last_checkpoint = checkpoint(run, run.step)
            tick = time.perf_counter()
    except KeyboardInterrupt:
        kept = (
            f"continue from {run.last_checkpoint.name} with --resume --out {run.run_dir}"
            if run.last_checkpoint
            else "no checkpoint was written yet"
        )
        console.print(f"interrupted at step {run.step + 1}; {kept}")
        raise
    finally:
        bar.close()
        prefetch.shutdown(cancel_futures=True)


def optimizer_step(run: Run, batch: StepData) -> tuple[dict[str, float], float]:
    """Forward, backward, clip and step on one step's batch: the step's sums over the ranks
    and the gradient norm. A non-finite loss or gradient stops the run (TrainingError naming
    the sequences and the last good checkpoint) before the optimizer steps."""
    t, d = run.t, run.d
    sums, bad, bad_value = forward_backward(
        run.model, run.reference, batch, t, d, run.precision.autocast
    )
    sums = dict(zip(STEP_SUMS, distributed.reduce_sum(d, sums), strict=True))
    bad = distributed.reduce_array(d, bad, "max")
    grad_norm = torch.nn.utils.clip_grad_norm_(run.params, t.max_grad_norm).item()
    if bad.any() or not math.isfinite(grad_norm):
        found = bad.nonzero().flatten().tolist() or range(len(batch.rewards))
        value = distributed.reduce_sum(d, [bad_value])[0] if bad.any() else grad_norm
        kept = (
            f"the last good checkpoint is {run.last_checkpoint}"
            if run.last_checkpoint
            else "no checkpoint was written yet"
        )
        raise TrainingError(
            f"step {run.step + 1}: loss or gradient is {value} on "
            f"{batch.describe(found, run.sampler.index)}; stopped, {kept}"
        )
    run.optimizer.step()
    run.scheduler.step()
    run.optimizer.zero_grad(set_to_none=True)
    return sums, grad_norm


def evaluate(run: Run, at: int) -> tuple[dict[str, Any] | None, dict[str, dict[str, float]]]:
    """The held-out margin, and each evaluator's figures by name, logged at step `at`."""
    d = run.d
    policy = run.policy
    margin, figures = None, {}
    if run.eval_set:
        margin = margin_of(run, policy, run.eval_set)
        if run.fit_set:  # the same on training groups: the method at work on what it sees
            fit = margin_of(run, policy, run.fit_set)
            margin |= {
                "train_margin": fit["margin"],
                "train_groups": fit["groups"],
                "train_group_margins": fit["group_margins"],
                "train_resolution": fit["resolution"],
            }
        # metrics.jsonl keeps the figures; the per-group lists are for the summary's conclusions
        logged = {k: v for k, v in margin.items() if not isinstance(v, list)}
        run.log.write({"event": "eval", "name": "margin", "step": at, **logged})
    for name, evaluator in run.options.evaluators:
        was_training = policy.training
        policy.eval()
        # no autocast here: generate runs one forward pass per token, and autocast casts every
        # fp32 master weight to bf16 on each of them. On an H200 the 0.5B shape sampled 3,537
        # tokens/s in fp32 and 1,577 under autocast (bench/gpu.py measures both).
        with torch.no_grad():
            context = EvalContext(
                policy, run.tokenizer, at, d.device, d.rank, d.world, run.precision.autocast
            )
            figures[name] = evaluator(context)
        policy.train(was_training)
        run.log.write({"event": "eval", "name": name, "step": at, **figures[name]})
    return margin, figures


def margin_of(run: Run, policy: torch.nn.Module, solutions: list) -> dict[str, Any]:
    """The margin (codelog.training.evaluation.heldout_margin) of `policy` on `solutions`."""
    d = run.d
    return heldout_margin(
        policy,
        solutions,
        run.tokenizer.pad_token_id,
        run.t.batch_tokens,
        d.device,
        run.precision.autocast,
        d.rank,
        d.world,
        lambda x: distributed.reduce_array(d, x),
    )


def checkpoint(run: Run, at: int) -> Path:
    """Save the policy and the trainer state at step `at` (rank 0 writes); its path."""
    path = run.run_dir / "checkpoints" / f"step-{at:06d}"
    if run.d.main:
        state = {
            "step": at,
            "optimizer": run.optimizer.state_dict(),
            "scheduler": run.scheduler.state_dict(),
            "sampler": run.sampler_state,  # after the last step taken, not the one prefetched
            "torch_rng": torch.get_rng_state(),
            "cuda_rng": torch.cuda.get_rng_state_all() if run.d.device.type == "cuda" else None,
            "totals": run.totals,
        }
        path = ckpt.save_checkpoint(
            run.run_dir,
            at,
            run.policy,
            run.tokenizer,
            state,
            run.info,
            run.t.keep_checkpoints,
        )
    return path


def task_kind(options: TrainOptions) -> kinds.Kind:
    """What the rows are: the dataset's kind (solutions when its manifest cannot be read:
    opening it then names the problem), which --task must match."""
    from codelog.dataset.open import read_manifest  # the build's modules: see data.open_dataset

    try:
        kind = kinds.of_manifest(read_manifest(options.dataset))
    except DatasetError:
        kind = None
    if options.task is not None and kind is not None and options.task != kind.name:
        raise TrainingError(
            f"{options.dataset}: a {kind.name} dataset, not one for --task {options.task} "
            f"(which trains on a dataset built with `codelog build --kind {options.task}`)"
        )
    return kinds.get(options.task) if options.task else kind or kinds.get(kinds.built()[0])


def forward_backward(
    model: torch.nn.Module,
    reference: torch.nn.Module | None,
    batch: StepData,
    t: Train,
    d: Dist,
    bf16: bool,
) -> tuple[list[float], torch.Tensor, float]:
    """Forward and backward over this rank's micro-batches; gradients all-reduced with the last.
    Returns this rank's STEP_SUMS, a mask of the step's sequences with a non-finite loss term,
    and the non-finite value found (0.0 if none).

    Nothing in the loop waits for the device: the micro-batches are copied to it up front and
    the figures stay there until the last backward is queued, then come back in one transfer.
    On a GPU a `.item()` per micro-batch would leave it idle while Python launches the next
    forward pass (bench/gpu.py measures the step against a bare forward + backward)."""
    batches = [mb.to(d.device) for mb in batch.batches]
    losses, kls, logps, counts, all_terms = [], [], [], [], []
    for k, mb in enumerate(batches):
        with distributed.accumulating(model, last=k == len(batches) - 1):
            with torch.autocast(d.device.type, dtype=torch.bfloat16, enabled=bf16):
                logp, mask = model(mb)
                terms = mb.weight * reduce_tokens(logp, mask, t.token_reduction)
                loss = -terms.sum()
                if t.kl > 0:
                    if mb.ref_logp is not None:
                        kl_i = cached_kl(mb, logp, mask, t.token_reduction)
                    else:
                        kl_i = recomputed_kl(
                            unwrap(model).policy, reference, mb, logp, mask, t.token_reduction
                        )
                    kl = mb.kl_weight * kl_i
                    loss = loss + t.kl * kl.sum()
                    kls.append(kl.sum().detach())
            # DDP averages gradients over the ranks; the loss is already weighted by the
            # global group count, so the sum over ranks is what one process would compute.
            (loss * d.world).backward()
        losses.append(loss.detach())
        logps.append((logp.detach() * mask).sum())
        counts.append(mask.sum())
        all_terms.append(terms.detach())
    # float32 figures and token counts are exact in float64: one transfer, the same sums as
    # reading each figure as it comes
    n = len(batches)
    figures = torch.cat(
        [
            torch.stack([*losses, *(kls or losses), *logps]).double(),
            torch.stack(counts).double(),
            torch.cat(all_terms).double(),
        ]
    ).tolist()
    losses, kls, logps = figures[:n], figures[n : 2 * n], figures[2 * n : 3 * n]
    counts, flat_terms = figures[3 * n : 4 * n], figures[4 * n :]
    bad, bad_value = torch.zeros(len(batch.rewards)), 0.0
    for mb, loss in zip(batches, losses, strict=True):
        terms, flat_terms = flat_terms[: len(mb.sequence)], flat_terms[len(mb.sequence) :]
        if not math.isfinite(loss):
            found = [i for i, x in zip(mb.sequence, terms, strict=True) if not math.isfinite(x)]
            bad[found or mb.sequence] = 1
            bad_value = loss
    loss_sum = kl_sum = logp_sum = 0.0
    for loss, kl, logp in zip(losses, kls, logps, strict=True):  # in order, as before
        loss_sum, logp_sum = loss_sum + loss, logp_sum + logp
        kl_sum += kl if t.kl > 0 else 0.0
    local = (loss_sum, kl_sum, logp_sum, int(sum(counts)), batch.tokens, batch.padded_tokens)
    local += (batch.computed_tokens,)
    return [*local, len(batches), batch.truncated], bad, bad_value
