"""An eval, start to end: the stages in order for one spec.

    spec ─► problems ─► sampling ─► judging ─► scoring ─► reporting
    EvalSpec  problems_of  samples_of  judge_into   Tally      summary.json, tables

`run_eval` is `codelog eval` (and `codelog.evaluate`, and each cell of `codelog experiment`):
one run per output directory, streamed, journaled and resumable. `score_samples` and
`evaluate_pass_at_k` are the in-memory runs a trainer calls: no files, the records returned.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from codelog.errors import CodelogError
from codelog.evaluation import reporting
from codelog.evaluation.judging import judge_in_memory, judge_into
from codelog.evaluation.problems import problems_of
from codelog.evaluation.sampling import Sample, TransformersSampler, samples_of
from codelog.evaluation.scoring import EvalResult, Tally, result_from_tally, score_records
from codelog.evaluation.spec import DEFAULT_SAMPLING, NEEDS_ONE_SOURCE, EvalSpec, Sampling
from codelog.execution.judge import DEFAULT_OPTIONS, JudgeOptions
from codelog.execution.testcases import Problem
from codelog.executors import LOCAL, ExecutorSpec
from codelog.files import exclusive_lock, lock_path


def run_eval(spec: EvalSpec | None = None, /, **options: Any) -> EvalResult:
    """`codelog eval` for `spec` (or `EvalSpec.from_options(**options)`): sample (or read)
    completions, judge them, print and write pass@k into `spec.directory`.

    One run per directory, under the lock `judge` and `build` take beside it; a pipe given as
    the samples file is spooled, and both are released when the run returns, however it
    returns. The result holds the figures, not the records (they are in samples.jsonl)."""
    spec = spec if spec is not None else EvalSpec.from_options(**options)
    if spec.model is None and spec.samples_file is None:
        raise CodelogError(NEEDS_ONE_SOURCE)
    with contextlib.ExitStack() as held:
        return _run(spec, held)


def _run(spec: EvalSpec, held: contextlib.ExitStack) -> EvalResult:
    out = spec.directory
    bench = problems_of(spec)
    inputs = [*([spec.samples_file] if spec.samples_file else []), *bench.inputs]
    reporting.check_outputs(out, inputs, force=spec.force)
    # one run per directory: two would append to one journal and write each sample twice
    held.enter_context(
        exclusive_lock(lock_path(out), str(out), activity="eval run", wait_option=None)
    )
    earlier = reporting.load_summary(spec.compare) if spec.compare is not None else None
    show = (not spec.quiet and sys.stderr.isatty()) if spec.progress is None else spec.progress
    source = samples_of(spec, bench, held, show)
    meta = reporting.run_meta(spec, bench, source.meta)
    tally = Tally(difficulty=bench.difficulty)
    judged = judge_into(spec, bench, source, meta, tally.add, show)
    result = result_from_tally(tally, spec.ks, [], judged.seconds, spec.per_test)
    result.not_judged = dict(sorted(bench.not_judged.items()))
    if earlier is not None:
        result.comparison = reporting.compare_summaries(earlier, {**meta, **result.summary()})
    summary_path = reporting.write_summary(result, out, meta)
    judged.journal.remove()
    if not spec.quiet:
        reporting.print_tables({**meta, **result.summary()}, result.comparison)
        reporting.print_done(spec, bench, result, judged, summary_path)
    return result


def score_samples(
    samples: Sequence[Sample],
    problems: Mapping[str, Problem],
    ks: Sequence[int] = (1,),
    *,
    options: JudgeOptions = DEFAULT_OPTIONS,
    workers: int | None = None,
    show_progress: bool = False,
    executor: ExecutorSpec = LOCAL,
) -> EvalResult:
    """Judge every sample (on `executor`) and compute pass@k per problem and overall; the
    result holds every record."""
    start = time.monotonic()
    records = judge_in_memory(
        samples,
        problems,
        options=options,
        workers=workers,
        show_progress=show_progress,
        executor=executor,
    )
    return score_records(records, ks, time.monotonic() - start)


def evaluate_pass_at_k(
    model: Any,
    tokenizer: Any,
    problems: Mapping[str, Problem],
    *,
    ks: Sequence[int] = (1,),
    sampling: Sampling = DEFAULT_SAMPLING,
    template: str = "{statement}",
    options: JudgeOptions = DEFAULT_OPTIONS,
    workers: int | None = None,
) -> EvalResult:
    """pass@k of an in-memory model on `problems`: what a trainer calls every N steps.

    Samples with a `TransformersSampler` (the same prompt rendering as training), judges every
    sample in the sandbox on `workers` processes, returns per-problem and overall pass@k
    (`result.overall["pass@1"]`). Leaves the model in eval mode: call model.train() after."""
    if max(ks) > sampling.n:
        raise CodelogError(f"pass@{max(ks)} needs at least {max(ks)} samples per problem (-n)")
    ordered = [problems[p] for p in sorted(problems)]
    samples = TransformersSampler(model, tokenizer, sampling, template).sample(ordered)
    return score_samples(samples, problems, ks, options=options, workers=workers)
