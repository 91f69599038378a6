"""`codelog judge`: programs from a samples file or a dataset, judged (codelog.execution.judge),
out as CI rows, with the per-verdict details, the problems file and a dataset's label audit."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError, InputError
from codelog.execution import languages
from codelog.execution.judge import (
    DEFAULT_OPTIONS,
    JudgeOptions,
    Program,
    Skipped,
    Verdict,
    judge_iter,
    result_from_record,
    result_record,
)
from codelog.execution.testcases import Problem, dataset_manifest
from codelog.executors import LOCAL, ExecutorSpec
from codelog.files import check_output_file, json_lines, mark_written

_FILENAME_EXT = languages.FILENAME_EXT


# ------------------------------------------------------------------------------ inputs, rows


def read_samples(path: Path) -> list[Program]:
    """Programs from a JSONL file: problem_id (or task_id) and code (or completion) per line;
    optional submission_id, language (default Python), original_language, user_id, date."""
    programs: list[Program] = []
    seen: dict[str, int] = {}
    per_problem: Counter[str] = Counter()
    for n, rec in json_lines(path):
        if not isinstance(rec, dict):
            raise InputError(path, "not a JSON object", line=n)
        pid = rec.get("problem_id", rec.get("task_id"))
        code = rec.get("code", rec.get("completion"))
        if not isinstance(pid, str | int) or pid == "":
            raise InputError(path, "needs a problem_id (or task_id)", line=n, column="problem_id")
        if not isinstance(code, str):
            raise InputError(path, "needs code (or completion) as a string", line=n, column="code")
        pid = str(pid)
        sid = str(rec.get("submission_id") or f"{pid}#{per_problem[pid]}")
        per_problem[pid] += 1
        if sid in seen:
            raise InputError(
                path,
                f"submission_id {sid!r} repeats line {seen[sid]}",
                line=n,
                column="submission_id",
            )
        seen[sid] = n
        date = rec.get("date")
        programs.append(
            Program(
                submission_id=sid,
                problem_id=pid,
                code=code,
                language=str(rec.get("language") or "Python"),
                original_language=rec.get("original_language"),
                user_id=rec.get("user_id"),
                date=date if isinstance(date, int) else None,
            )
        )
    return programs


def dataset_programs(dataset: Path) -> tuple[list[Program], dict[str, Any]]:
    """A built dataset's solutions as programs (with their logged status), and its manifest."""
    import pyarrow.parquet as pq

    dataset = Path(dataset)
    manifest = dataset_manifest(dataset)
    columns = [
        "submission_id",
        "problem_id",
        "code",
        "language",
        "original_language",
        "user_id",
        "date",
        "status",
    ]
    rows = pq.read_table(dataset / "solutions.parquet", columns=columns).to_pylist()
    programs = [
        Program(
            submission_id=r["submission_id"],
            problem_id=r["problem_id"],
            code=r["code"],
            language=r["language"],
            original_language=r["original_language"],
            user_id=r["user_id"],
            date=r["date"],
            logged_status=r["status"],
        )
        for r in rows
    ]
    return programs, manifest


def ci_row(program: Program, verdict: Verdict) -> dict[str, Any]:
    """The CI-schema row (codelog/schemas/submission.schema.json) of a judged program."""
    language = languages.runner_language(program.language) or program.language
    return {
        "submission_id": program.submission_id,
        "problem_id": program.problem_id,
        "user_id": program.user_id,
        "date": program.date,
        "language": language,
        "original_language": program.original_language,
        "filename_ext": _FILENAME_EXT.get(language),
        "status": verdict.status,
        "cpu_time": verdict.cpu_ms,
        "memory": verdict.memory_kb,
        "code_size": len(program.code.encode("utf-8", "surrogatepass")),
        "accuracy": verdict.accuracy,
        "code": program.code,
        "code_path": None,
    }


def write_ci_rows(rows: Iterable[dict[str, Any]], out: Path) -> int:
    """Write rows as a CI export (CSV, JSONL or Parquet by the suffix), atomically."""
    import pyarrow as pa

    from codelog import schema
    from codelog.ci_format import SUBMISSION_FIELDS, write_rows

    fields = pa.schema([schema.SUBMISSION.field(name) for name in SUBMISSION_FIELDS])
    table = pa.Table.from_pylist(list(rows), schema=fields)
    write_rows(table, Path(out))
    return table.num_rows


def write_problems(problems: Iterable[Problem], out: Path) -> int:
    """The problems file `codelog build --source ci --problems` reads (statement as description)."""
    import pyarrow as pa

    from codelog.ci_format import PROBLEM_FIELDS, write_rows

    rows = [
        {
            "problem_id": p.problem_id,
            "name": p.name,
            "description": p.statement,
            "time_limit": p.time_limit_ms,
            "memory_limit": p.memory_limit_kb,
            "dataset": p.origin,
        }
        for p in problems
    ]
    fields = pa.schema(
        [
            (n, pa.int64() if kind == "integer" else pa.string())
            for n, kind in PROBLEM_FIELDS.items()
        ]
    )
    table = pa.Table.from_pylist(
        [{k: r.get(k) for k in PROBLEM_FIELDS} for r in rows], schema=fields
    )
    write_rows(table, Path(out))
    return table.num_rows


def write_details(results: Sequence[Verdict | Skipped], out: Path) -> None:
    tmp = out.with_name(f".{out.name}.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(result_record(r)) + "\n")
    os.replace(tmp, out)
    mark_written(out)


# --------------------------------------------------------------------------------- the audit


@dataclass(frozen=True)
class AuditRow:
    outcome: str  # the logged outcome
    judged: int
    agree: int
    rejudged: dict[str, int]  # re-run outcome -> count

    @property
    def rate(self) -> float:
        return self.agree / self.judged if self.judged else 0.0


def audit(
    programs: Sequence[Program],
    results: Sequence[Verdict | Skipped],
    statuses: Mapping[str, str],
) -> list[AuditRow]:
    """Per logged outcome: how many re-runs reach the same outcome (statuses: the recipe's)."""
    by_outcome: dict[str, Counter[str]] = {}
    for program, result in zip(programs, results, strict=True):
        if not isinstance(result, Verdict) or program.logged_status is None:
            continue
        logged = statuses.get(program.logged_status, program.logged_status)
        rejudged = statuses.get(result.status, result.status)
        by_outcome.setdefault(logged, Counter())[rejudged] += 1
    rows = [
        AuditRow(outcome, sum(c.values()), c.get(outcome, 0), dict(c.most_common()))
        for outcome, c in by_outcome.items()
    ]
    return sorted(rows, key=lambda r: (-r.judged, r.outcome))


@dataclass
class JudgeReport:
    results: list[Verdict | Skipped]
    rows_written: int = 0
    skipped_reasons: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    audit: list[AuditRow] = field(default_factory=list)
    isolation: str = ""
    seconds: float = 0.0
    resumed: int = 0  # results an interrupted run of the same command had journaled


def judge_tables(report: JudgeReport, out: Path) -> list[Any]:
    """What `codelog judge` shows: the verdicts (and skips) written to `out`, and with a
    dataset's logged verdicts the label audit (re-run vs logged outcome), as rich tables."""
    from rich.table import Table

    table = Table(title=f"codelog judge → {out}")
    table.add_column("verdict")
    table.add_column("programs", justify="right")
    for status, n in report.statuses.most_common():
        table.add_row(status, f"{n:,}")
    for reason, n in report.skipped_reasons.most_common():
        table.add_row(f"skipped: {reason}", f"{n:,}")
    if not report.audit:
        return [table]
    agreement = Table(title="label audit: re-run vs logged outcome")
    for name in ("logged outcome", "judged", "agree", "rate", "re-run outcomes"):
        agreement.add_column(name, justify="left" if "outcome" in name else "right")
    for row in report.audit:
        mix = ", ".join(f"{k} {v}" for k, v in row.rejudged.items())
        agreement.add_row(row.outcome, f"{row.judged:,}", f"{row.agree:,}", f"{row.rate:.1%}", mix)
    total = sum(r.judged for r in report.audit)
    agree = sum(r.agree for r in report.audit)
    agreement.add_row("all", f"{total:,}", f"{agree:,}", f"{agree / total:.1%}", "")
    return [table, agreement]


def run_judge(
    source: Path,
    out: Path,
    *,
    tests: str | None = None,
    options: JudgeOptions = DEFAULT_OPTIONS,
    workers: int | None = None,
    show_progress: bool = False,
    problems_out: Path | None = None,
    details_out: Path | None = None,
    limit: int | None = None,
    force: bool = False,
    executor: ExecutorSpec = LOCAL,
) -> JudgeReport:
    """`codelog judge`: samples JSONL or a dataset directory -> CI rows in `out`.

    Every output follows codelog.files.check_output_file, checked before anything runs: never
    an input (the samples, the dataset, a problems file), never another output of this run,
    and an existing file only if codelog wrote it or with `force`. Results are journaled as
    they arrive (codelog.execution.journal): an interrupted run, re-run with the same
    arguments, judges only the submission ids it lacks."""
    import dataclasses
    import time

    from codelog.execution.journal import Journal, journal_path
    from codelog.execution.testcases import load_problems, problem_files
    from codelog.progress import rate_progress

    source = Path(source)
    outputs = [("--out", Path(out)), ("--problems-out", problems_out), ("--details", details_out)]
    inputs = [source, *problem_files(tests or "")]
    for i, (option, path) in enumerate(outputs):
        if path is not None:
            check_output_file(
                Path(path), force=force, inputs=inputs, option=option, others=outputs[:i]
            )
    statuses: Mapping[str, str] = {}
    if source.is_dir():
        programs, manifest = dataset_programs(source)
        statuses = manifest.get("recipe", {}).get("statuses", {})
        problems = load_problems(tests or f"codenet:{source}")
    else:
        if tests is None:
            raise CodelogError(
                "--tests is required with a samples file: humaneval, codenet, codenet:DIR or "
                "a problems .jsonl"
            )
        programs = read_samples(source)
        problems = load_problems(tests)
    if limit is not None:
        programs = programs[:limit]
    if not programs:
        raise InputError(source, "no programs to judge")
    header = {"source": str(source.resolve()), "tests": tests, **dataclasses.asdict(options)}
    journal = Journal(journal_path(Path(out)), header, force=force)
    try:
        todo = [p for p in programs if p.submission_id not in journal.resumed]
        start = time.monotonic()
        with rate_progress("programs", disable=not show_progress) as progress:
            task = progress.add_task("judge", total=len(todo))
            for result in judge_iter(todo, problems, options, workers=workers, executor=executor):
                journal.append(result_record(result))  # the journal holds them, not memory
                progress.advance(task)
        seconds = time.monotonic() - start
        recorded = {r["submission_id"]: r for r in journal.records()}
    finally:
        journal.close()
    results = [result_from_record(recorded[p.submission_id]) for p in programs]
    report = JudgeReport(results=results, seconds=seconds, resumed=len(programs) - len(todo))
    rows = []
    for program, result in zip(programs, results, strict=True):
        if isinstance(result, Verdict):
            rows.append(ci_row(program, result))
            report.statuses[result.status] += 1
            report.isolation = report.isolation or result.isolation
        else:
            report.skipped_reasons[result.reason] += 1
    report.rows_written = write_ci_rows(rows, out)
    if problems_out is not None:
        used = sorted({p.problem_id for p in programs} & set(problems))
        write_problems([problems[p] for p in used], problems_out)
    if details_out is not None:
        write_details(results, details_out)
    if statuses:
        report.audit = audit(programs, results, statuses)
    journal.remove()  # the outputs are whole: nothing left to resume
    return report
