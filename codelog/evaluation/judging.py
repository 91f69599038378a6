"""Samples to verdicts, in the sandbox (codelog.execution.judge): each judged sample becomes a
record (`sample_record`: its problem, index, completion, verdict and tests passed), the line
samples.jsonl holds.

`judge_into` is a `codelog eval` run's judging: samples stream in, one at a time, and each
verdict is appended to a journal (codelog.execution.journal) beside samples.jsonl. An
interrupted run, re-run with the same spec, reads back the verdicts whose keys (the code,
language, and the problem's tests and limits) still agree with its samples, judges the rest,
and writes the bytes an uninterrupted run writes. `judge_in_memory` judges samples held in
memory (what a trainer calls) and returns their records.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError
from codelog.evaluation.problems import Benchmarked
from codelog.evaluation.sampling import Sample, SampleSource
from codelog.evaluation.spec import EvalSpec
from codelog.execution.journal import Journal, VerdictKeys, journal_path, read_back
from codelog.execution.judge import (
    DEFAULT_OPTIONS,
    JudgeOptions,
    Program,
    Skipped,
    Verdict,
    judge_pairs,
    judge_with_progress,
)
from codelog.execution.testcases import Problem
from codelog.executors import LOCAL, ExecutorSpec
from codelog.files import mark_written, replacing

_UID = re.compile(r", uid \d+")


def sample_record(
    problem_id: str, index: int, completion: str, result: Verdict | Skipped
) -> dict[str, Any]:
    """A judged sample as samples.jsonl holds it: no timings and not the sandbox's random uid,
    so the same verdicts give the same bytes; the one exception is a Time Limit Exceeded's
    detail, which says the time it measured."""
    record: dict[str, Any] = {"problem_id": problem_id, "index": index, "completion": completion}
    if isinstance(result, Skipped):
        record.update(status="skipped", passed=None, detail=result.reason)
    else:
        record.update(
            status=result.status,
            passed=result.accepted,
            detail=result.detail,
            tests_passed=result.tests_passed,
            tests_run=result.tests_run,
            tests_total=result.tests_total,
            isolation=_UID.sub("", result.isolation),
        )
    return record


def judge_in_memory(
    samples: Sequence[Sample],
    problems: Mapping[str, Problem],
    *,
    options: JudgeOptions = DEFAULT_OPTIONS,
    workers: int | None = None,
    show_progress: bool = False,
    executor: ExecutorSpec = LOCAL,
) -> list[dict[str, Any]]:
    """Every sample judged (on `executor`), as records in the samples' order."""
    unknown = sorted({s.problem_id for s in samples} - set(problems))
    if unknown:
        raise CodelogError(
            f"{len(unknown)} sampled problem(s) are not in the benchmark, e.g. {unknown[:3]}"
        )
    programs = [
        Program(
            submission_id=f"{s.problem_id}#{s.index}",
            problem_id=s.problem_id,
            code=s.completion,
            language=problems[s.problem_id].language,
        )
        for s in samples
    ]
    results = judge_with_progress(
        programs,
        problems,
        options,
        workers=workers,
        show_progress=show_progress,
        description="eval",
        executor=executor,
    )
    return [
        sample_record(s.problem_id, s.index, s.completion, result)
        for s, result in zip(samples, results, strict=True)
    ]


@dataclass
class Judged:
    """What a run's judging did: `resumed` verdicts read back, `judged` new ones in
    `seconds`, written to `samples_path`. Its journal stays until the run's summary is
    written (`journal.remove()`): a run stopped before that resumes from it."""

    samples_path: Path
    journal: Journal
    resumed: int
    judged: int
    seconds: float


def judge_into(
    spec: EvalSpec,
    bench: Benchmarked,
    source: SampleSource,
    meta: Mapping[str, Any],
    on_record: Callable[[dict[str, Any]], None],
    show_progress: bool,
) -> Judged:
    """Judge the source's samples into `spec.directory`/samples.jsonl through the journal,
    calling `on_record` with each record in input order (read back or judged)."""
    from codelog.progress import rate_progress

    out, problems = spec.directory, bench.problems
    samples_path = out / "samples.jsonl"
    out.mkdir(parents=True, exist_ok=True)
    # a model's samples differ from run to run unless its sampling is deterministic: then
    # an interrupted run's journal cannot be resumed and is started over
    journal = Journal(
        journal_path(samples_path),
        _journal_header(spec, bench, source, meta),
        force=spec.force or spec.model is not None,
    )
    keys = VerdictKeys(problems)
    # the journal's verdicts while each key agrees with its sample's; from the first that
    # differs, that sample and the rest are judged again (the summary counts those read back)
    back = read_back(
        journal,
        map(partial(_program, problems), source.stream()),
        keys,
        lambda _program, entry: on_record(entry.record),
    )
    programs, resumed = back.rest, back.used
    start = time.monotonic()
    try:
        with rate_progress("samples", disable=not show_progress) as bar:
            task = bar.add_task("eval", total=source.total, completed=resumed)
            for program, result in judge_pairs(
                programs, problems, spec.judging, total=source.total - resumed,
                workers=spec.workers, executor=spec.executor,
            ):  # fmt: skip
                index = int(program.submission_id.rpartition("#")[2])
                if isinstance(result, Skipped) and program.problem_id in bench.not_judged:
                    reason = bench.not_judged[program.problem_id]
                    result = dataclasses.replace(result, reason=reason)
                record = sample_record(program.problem_id, index, program.code, result)
                journal.append(record, key=keys(program))
                on_record(record)
                bar.advance(task)
        _write_samples(journal, samples_path)
    finally:
        journal.close()
    seconds = time.monotonic() - start
    return Judged(samples_path, journal, resumed, source.total - resumed, seconds)


def _journal_header(
    spec: EvalSpec, bench: Benchmarked, source: SampleSource, meta: Mapping[str, Any]
) -> dict[str, Any]:
    """What a journal is resumed only under: the same benchmark, filters, samples, problems
    and judge options."""
    return {
        "eval": spec.benchmark,
        **{k: v for k, v in meta.items() if k not in ("benchmark", "samples_file")},
        **source.identity,
        "limit": spec.limit,
        "problems": hashlib.sha256("\n".join(sorted(bench.problems)).encode()).hexdigest(),
        "options": dataclasses.asdict(spec.judging),
    }


def _program(problems: Mapping[str, Problem], s: Sample) -> Program:
    """A sample as the Program judged, in its problem's language (Python for a problem
    without tests: the judge skips it)."""
    problem = problems.get(s.problem_id)
    language = problem.language if problem is not None else "Python"
    return Program(f"{s.problem_id}#{s.index}", s.problem_id, s.completion, language=language)


def _write_samples(journal: Journal, samples_path: Path) -> None:
    """samples.jsonl: the journal's records in input order, those read back as they were."""
    with replacing(samples_path) as tmp, tmp.open("w", encoding="utf-8") as f:
        for entry in journal.records():
            f.write(json.dumps(entry.record) + "\n")
    mark_written(samples_path)
