"""pass@k while training: the evaluator `codelog train --eval-samples N` plugs into the loop.

The loop (codelog.training.loop) calls its evaluators at the start, every `eval_every` steps and at
the end, and rank 0 logs what they return to metrics.jsonl as
{"event": "eval", "name": "pass@k", "step": ..., "pass@1": ...}. This one samples N programs
per held-out problem from the policy being trained, judges every one in the sandbox and returns
pass@k (Chen et al. 2021), the figure the seed paper reports.

Held-out problems are the dataset's test split (problems.parquet `split`, so the run never
trained on them), with the tests of their statements' sample sections; or any benchmark
`codelog eval` takes (humaneval, codenet:DIR, FILE.jsonl). Prompts are the training prompts:
the dataset's recipe template, then the tokenizer's chat template (`sampling.prompt_text`).
It is an eval like `codelog eval`'s (an `EvalSpec`, its problems, a `TransformersSampler` over
the policy, the judge, the scores), held in memory: nothing is written but metrics.jsonl.

Sampling draws from its own seed inside `torch.random.fork_rng`: evaluating never moves the
training's random stream, so a run with pass@k trains the same weights as one without. Only rank
0 samples and judges; under torchrun the other ranks return nothing and wait at the next step.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codelog.errors import CodelogError
from codelog.evaluation.problems import HELDOUT, heldout_problems, problems_of
from codelog.evaluation.run import score_samples
from codelog.evaluation.sampling import TransformersSampler, dataset_template
from codelog.evaluation.spec import EvalSpec, Sampling, parse_ks
from codelog.execution.testcases import Problem
from codelog.training.evaluation import EvalContext

if TYPE_CHECKING:
    from codelog.benchmarks import Task

NAME = "pass@k"  # the evaluator's name in metrics.jsonl


@dataclass(frozen=True)
class PassAtK:
    """An `Evaluator` (codelog.training.evaluation): pass@k of the policy on fixed problems."""

    spec: EvalSpec  # ks, sampling, judging options and workers
    problems: dict[str, Problem]
    template: str
    tasks: dict[str, Task] | None = None  # a benchmark's prompts (codelog.benchmarks)

    def __call__(self, ctx: EvalContext) -> dict[str, float]:
        import torch

        if ctx.rank != 0:
            return {}
        spec, started = self.spec, time.perf_counter()
        devices = [ctx.device] if ctx.device.type == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            ordered = [self.problems[p] for p in sorted(self.problems)]
            sampler = TransformersSampler(ctx.model, ctx.tokenizer, spec.sampling, self.template)
            samples = sampler.sample(ordered, self.tasks)
        result = score_samples(
            samples, self.problems, spec.ks, options=spec.judging, workers=spec.workers
        )
        accepted = sum(bool(r["passed"]) for r in result.records)
        return {
            **result.overall,
            "problems": len(result.per_problem),
            "samples": len(result.records),
            "accepted": accepted,
            "skipped": sum(result.skipped.values()),
            "seconds": round(time.perf_counter() - started, 3),
        }


def pass_at_k_evaluator(
    dataset: Path,
    *,
    n: int,
    ks: tuple[int, ...] = (1,),
    benchmark: str | None = None,
    limit: int | None = None,
    max_new_tokens: int = 256,
    temperature: float = 0.8,
    seed: int = 0,
    workers: int | None = None,
) -> PassAtK:
    """The evaluator for a run on `dataset`: its held-out problems (or `benchmark`), n samples
    each, prompts through the dataset's recipe template. Fails here, before any model loads,
    when there is nothing to evaluate."""
    if n < 1 or not ks or min(ks) < 1 or max(ks) > n:
        raise CodelogError(f"pass@k while training needs 1 <= k <= samples (-k {ks}, n {n})")
    spec = EvalSpec(
        benchmark=benchmark or HELDOUT,
        ks=tuple(ks),
        sampling=Sampling(n=n, temperature=temperature, max_new_tokens=max_new_tokens, seed=seed),
        limit=limit,
        workers=workers,
    )
    tasks = None
    if benchmark:
        bench = problems_of(spec)
        problems, tasks = bench.problems, bench.tasks
    else:
        problems = heldout_problems(dataset)
        problems = {p: problems[p] for p in sorted(problems)[:limit]}
    template = dataset_template(dataset)
    if tasks is not None:
        tasks = {p: tasks[p] for p in problems}
    return PassAtK(spec, problems, template, tasks)


def training_evaluators(
    dataset: Path,
    *,
    samples: int,
    ks: str,
    benchmark: str | None = None,
    limit: int | None = None,
    max_new_tokens: int = 256,
    seed: int = 0,
) -> tuple[tuple[str, PassAtK], ...]:
    """The evaluators `codelog train --eval-samples N -k K,...` asks for: pass@k on the
    held-out problems (or `benchmark`), as (name, evaluator); none when `samples` is 0."""
    if not samples:
        return ()
    evaluator = pass_at_k_evaluator(
        dataset,
        n=samples,
        ks=parse_ks(ks),
        benchmark=benchmark,
        limit=limit,
        max_new_tokens=max_new_tokens,
        seed=seed,
    )
    return ((NAME, evaluator),)
