"""pass@k while training: the evaluator `codelog train --eval-samples N` plugs into the loop.

The loop (codelog.training.loop) calls its evaluators at the start, every `eval_every` steps and at
the end, and rank 0 logs what they return to metrics.jsonl as
{"event": "eval", "name": "pass@k", "step": ..., "pass@1": ...}. This one samples N programs
per held-out problem from the policy being trained, judges every one in the sandbox and returns
pass@k (Chen et al. 2021), the figure the seed paper reports.

Held-out problems are the dataset's test split (problems.parquet `split`, so the run never
trained on them), with the tests of their statements' sample sections; or any benchmark
`codelog eval` takes (humaneval, codenet:DIR, FILE.jsonl). Prompts are the training prompts:
the dataset's recipe template, then the tokenizer's chat template (`evaluate.prompt_text`).

Sampling draws from its own seed inside `torch.random.fork_rng`: evaluating never moves the
training's random stream, so a run with pass@k trains the same weights as one without. Only rank
0 samples and judges; under torchrun the other ranks return nothing and wait at the next step.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codelog.errors import CodelogError
from codelog.evaluation.pass_at_k import (
    Sampling,
    generate_samples,
    parse_ks,
    resolve_benchmark,
    score_samples,
)
from codelog.execution.judge import DEFAULT_OPTIONS, JudgeOptions
from codelog.execution.testcases import Problem, dataset_problems
from codelog.recipe import Recipe
from codelog.training.evaluation import EvalContext

if TYPE_CHECKING:
    from codelog.benchmarks import Task

NAME = "pass@k"  # the evaluator's name in metrics.jsonl


@dataclass(frozen=True)
class PassAtK:
    """An `Evaluator` (codelog.training.evaluation): pass@k of the policy on fixed problems."""

    problems: dict[str, Problem]
    ks: tuple[int, ...]
    sampling: Sampling
    template: str
    options: JudgeOptions = DEFAULT_OPTIONS
    workers: int | None = None
    tasks: dict[str, Task] | None = None  # a benchmark's prompts (codelog.benchmarks)

    def __call__(self, ctx: EvalContext) -> dict[str, float]:
        import torch

        if ctx.rank != 0:
            return {}
        started = time.perf_counter()
        devices = [ctx.device] if ctx.device.type == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            ordered = [self.problems[p] for p in sorted(self.problems)]
            samples = generate_samples(
                ctx.model, ctx.tokenizer, ordered, self.sampling, self.template, tasks=self.tasks
            )
        result = score_samples(
            samples, self.problems, self.ks, options=self.options, workers=self.workers
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


def heldout_problems(dataset: Path) -> dict[str, Problem]:
    """The dataset's test-split problems that have tests (their statements' samples)."""
    import pyarrow.parquet as pq

    with_tests = dataset_problems(dataset)  # an InputError if it is not a dataset
    split = pq.read_table(Path(dataset) / "problems.parquet", columns=["problem_id", "split"])
    test = {row["problem_id"] for row in split.to_pylist() if row["split"] == "test"}
    problems = {p: problem for p, problem in with_tests.items() if p in test}
    if not problems:
        raise CodelogError(
            f"{dataset}: no test-split problem has tests in its statement ({len(test)} test "
            "problems); pass@k while training needs some: rebuild with a [split] test fraction, "
            "or give --eval-benchmark humaneval|codenet:DIR|FILE.jsonl"
        )
    return problems


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
    tasks = None
    if benchmark:
        bench = resolve_benchmark(benchmark)
        problems, tasks = bench.problems, bench.tasks
    else:
        problems = heldout_problems(dataset)
    if limit is not None:
        problems = {p: problems[p] for p in sorted(problems)[:limit]}
    manifest = json.loads((Path(dataset) / "manifest.json").read_text(encoding="utf-8"))
    template = Recipe.from_dict(manifest["recipe"]).prompt.template
    sampling = Sampling(n=n, temperature=temperature, max_new_tokens=max_new_tokens, seed=seed)
    if tasks is not None:
        tasks = {p: tasks[p] for p in problems}
    return PassAtK(problems, tuple(ks), sampling, template, workers=workers, tasks=tasks)


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
