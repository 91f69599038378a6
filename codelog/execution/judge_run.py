"""`codelog judge`: programs from a samples file or a dataset, judged (codelog.execution.judge),
out as CI rows, with the per-verdict details, the problems file and a dataset's label audit.

A run streams, so the driver's memory does not grow with the input (CodeNet: 14M programs):
- **Input, read twice.** A first pass holds no code: a dataset's row count is in its Parquet
  footer; a samples file is checked line by line (so a bad line stops the run before anything
  is judged) and its submission ids, not its code, are kept to refuse a repeat. The second
  pass reads programs a batch at a time, as the judge's in-flight window frees up
  (`judge_pairs`), and must find as many as the first. A pipe (`<(gen)`, `/dev/stdin`) reads
  once: it is spooled to a temporary file beside the output first.
- **Results, in input order.** They are journaled as they arrive (codelog.execution.journal).
  Since the journal is in input order too, it holds the results of the first programs of the
  input, whatever runs wrote it: a resumed run reads those back a line at a time beside the
  first programs it reads, checking their ids and their keys (the code, language and tests
  judged: journal.verdict_key), and judges the rest, from the first program that changed: no
  table of ids.
- **Outputs, as rows arrive.** CI rows go to a temporary file in row groups of at most
  ROW_GROUP_ROWS rows or ROW_GROUP_CODE_BYTES of code (ci_format.RowsWriter), --details lines
  likewise; both are renamed into place when the run is whole. Counts and the label audit are
  added up as each result goes by.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
import stat
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError, InputError
from codelog.execution import languages
from codelog.execution.journal import Entry, Journal, VerdictKeys, journal_path, read_back
from codelog.execution.judge import (
    DEFAULT_OPTIONS,
    JudgeOptions,
    Program,
    Skipped,
    Verdict,
    judge_pairs,
    result_from_record,
    result_record,
)
from codelog.execution.testcases import Problem, dataset_manifest, load_problems, problem_files
from codelog.executors import LOCAL, ExecutorSpec
from codelog.files import check_output_file, json_lines, mark_written
from codelog.outcomes import OUTCOME_NAMES, Outcome

_FILENAME_EXT = languages.FILENAME_EXT

# A row group of the CI rows ends at ROW_GROUP_ROWS rows (the dataset writer's) or at
# ROW_GROUP_CODE_BYTES of code, whichever comes first: the rows waiting for it are what the
# writer holds. Below both, the file is one row group: the bytes of the one pq.write_table of
# all rows that the judge wrote before it streamed.
ROW_GROUP_ROWS = 16_384
ROW_GROUP_CODE_BYTES = 8 << 20
# Rows of a dataset read at a time; their code stays in Arrow until its program is taken.
READ_BATCH_ROWS = 256
DATASET_COLUMNS = (
    "submission_id",
    "problem_id",
    "code",
    "language",
    "original_language",
    "user_id",
    "date",
    "status",
)


# ------------------------------------------------------------------------------------ inputs


@dataclass(frozen=True)
class ProgramSource:
    """The programs of a run: how many (from a first pass that held no code) and a way to
    read them, in input order, a batch at a time, as often as needed."""

    path: Path
    count: int
    read: Callable[[], Iterator[Program]] = field(repr=False)
    statuses: Mapping[str, str] = field(default_factory=dict)  # a dataset's recipe's

    def programs(self) -> Iterator[Program]:
        return self.read()


def _sample(path: Path, n: int, record: Any, per_problem: Counter[str]) -> Program:
    """Line `n` of a samples file as a program (per_problem numbers the ids it makes up)."""
    if not isinstance(record, dict):
        raise InputError(path, "not a JSON object", line=n)
    pid = record.get("problem_id", record.get("task_id"))
    code = record.get("code", record.get("completion"))
    if not isinstance(pid, str | int) or pid == "":
        raise InputError(path, "needs a problem_id (or task_id)", line=n, column="problem_id")
    if not isinstance(code, str):
        raise InputError(path, "needs code (or completion) as a string", line=n, column="code")
    pid = str(pid)
    sid = str(record.get("submission_id") or f"{pid}#{per_problem[pid]}")
    per_problem[pid] += 1
    date = record.get("date")
    return Program(
        submission_id=sid,
        problem_id=pid,
        code=code,
        language=str(record.get("language") or "Python"),
        original_language=record.get("original_language"),
        user_id=record.get("user_id"),
        date=date if isinstance(date, int) else None,
    )


def _samples(path: Path, limit: int | None, name: Path) -> Iterator[tuple[int, Program]]:
    per_problem: Counter[str] = Counter()
    for n, record in itertools.islice(json_lines(path), limit):
        yield n, _sample(name, n, record, per_problem)


def is_stream(path: Path) -> bool:
    """True for a pipe, socket or terminal (`<(gen)`, `/dev/stdin` fed by `|`): it reads once,
    so the two passes of a run need it spooled to a file first (`spool`)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def spool(stream: Path, directory: Path) -> Path:
    """The bytes of `stream`, read once, in a file of `directory` (the caller removes it)."""
    import shutil
    import tempfile

    fd, name = tempfile.mkstemp(prefix=".codelog-judge-input-", suffix=".jsonl", dir=directory)
    with open(stream, "rb") as src, os.fdopen(fd, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    return Path(name)


def samples_source(
    path: Path, limit: int | None = None, *, name: Path | None = None
) -> ProgramSource:
    """The programs of a JSONL file (the first `limit`): problem_id (or task_id) and code (or
    completion) per line; optional submission_id, language (default Python),
    original_language, user_id, date. Every line is checked here, before any is judged
    (errors name `name`, default `path`). The file is read twice: a stream (`is_stream`) is
    spooled to a file first (`spool`)."""
    path = Path(path)
    shown = Path(name or path)  # the file errors name: the user's, not a spool
    seen: dict[str, int] = {}  # submission id -> line: ids only, never the code
    for n, program in _samples(path, limit, shown):
        first = seen.setdefault(program.submission_id, n)
        if first != n:
            raise InputError(
                shown,
                f"submission_id {program.submission_id!r} repeats line {first}",
                line=n,
                column="submission_id",
            )
    return ProgramSource(shown, len(seen), lambda: (p for _, p in _samples(path, limit, shown)))


def _dataset_programs(path: Path, limit: int) -> Iterator[Program]:
    import pyarrow.parquet as pq

    left = limit
    with pq.ParquetFile(path) as file:
        for batch in file.iter_batches(READ_BATCH_ROWS, columns=list(DATASET_COLUMNS)):
            batch = batch.slice(0, left)
            # the code becomes a Python string only when its program is taken
            code = batch.column("code")
            for i, r in enumerate(batch.drop_columns(["code"]).to_pylist()):
                yield Program(
                    submission_id=r["submission_id"],
                    problem_id=r["problem_id"],
                    code=code[i].as_py(),
                    language=r["language"],
                    original_language=r["original_language"],
                    user_id=r["user_id"],
                    date=r["date"],
                    logged_status=r["status"],
                )
            left -= batch.num_rows
            if left <= 0:
                return


def dataset_source(dataset: Path, limit: int | None = None) -> ProgramSource:
    """A built dataset's solutions (the first `limit`) as programs with their logged status,
    and its recipe's status -> outcome mapping for the label audit."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    dataset = Path(dataset)
    manifest = dataset_manifest(dataset)
    path = dataset / "solutions.parquet"
    try:
        rows = pq.read_metadata(path).num_rows
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(path, f"cannot read as Parquet: {exc}") from None
    count = rows if limit is None else min(rows, limit)
    statuses = manifest.get("recipe", {}).get("statuses", {})
    return ProgramSource(dataset, count, lambda: _dataset_programs(path, count), statuses)


def read_samples(path: Path) -> list[Program]:
    """Every program of a samples file, in memory (samples_source streams them)."""
    return list(samples_source(path).programs())


def dataset_programs(dataset: Path) -> tuple[list[Program], dict[str, Any]]:
    """A built dataset's solutions as programs, in memory (dataset_source streams them), and
    its manifest."""
    return list(dataset_source(dataset).programs()), dataset_manifest(Path(dataset))


# ----------------------------------------------------------------------------------- outputs


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


class CIRows:
    """The CI rows of judged programs, in the order added, written to `out` (any CI format) a
    row group at a time; `close` puts the file in place, leaving by an exception drops it."""

    def __init__(self, out: Path) -> None:
        import pyarrow as pa

        from codelog import schema
        from codelog.ci_format import SUBMISSION_FIELDS, RowsWriter

        fields = pa.schema([schema.SUBMISSION.field(name) for name in SUBMISSION_FIELDS])
        self._writer = RowsWriter(Path(out), fields)
        self._pending: list[dict[str, Any]] = []
        self._code_bytes = 0

    @property
    def rows(self) -> int:
        return self._writer.rows + len(self._pending)

    def add(self, program: Program, verdict: Verdict) -> None:
        row = ci_row(program, verdict)
        self._pending.append(row)
        self._code_bytes += row["code_size"]
        if len(self._pending) >= ROW_GROUP_ROWS or self._code_bytes >= ROW_GROUP_CODE_BYTES:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        self._writer.write(pa.Table.from_pylist(self._pending, schema=self._writer.schema))
        self._pending, self._code_bytes = [], 0

    def __enter__(self) -> CIRows:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is not None:
            self._writer.abort()
            return
        if self._pending:
            self._flush()
        self._writer.close()


class DetailsFile:
    """--details: one JSON line per result (result_record), in the order added, to a temporary
    file that `close` renames to `out`; leaving by an exception drops it."""

    def __init__(self, out: Path) -> None:
        self.out = Path(out)
        self._tmp = self.out.with_name(f".{self.out.name}.tmp")
        if self._tmp.is_symlink():  # codelog's own temporary name: never written through
            self._tmp.unlink()
        self._file = self._tmp.open("w", encoding="utf-8")

    def add(self, record: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(record) + "\n")

    def __enter__(self) -> DetailsFile:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        try:
            self._file.close()
            if kind is None:
                os.replace(self._tmp, self.out)
                mark_written(self.out)
        finally:
            self._tmp.unlink(missing_ok=True)


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


class LabelAudit:
    """Per logged outcome, how many re-runs reach the same outcome, counted a result at a time
    (statuses: the recipe's status -> outcome)."""

    def __init__(self, statuses: Mapping[str, str]) -> None:
        self.statuses = statuses
        self._by_outcome: dict[str, Counter[str]] = {}

    def add(self, program: Program, result: Verdict | Skipped) -> None:
        if not isinstance(result, Verdict) or program.logged_status is None:
            return
        logged = self.statuses.get(program.logged_status, program.logged_status)
        rejudged = self.statuses.get(result.status, result.status)
        self._by_outcome.setdefault(logged, Counter())[rejudged] += 1

    def rows(self) -> list[AuditRow]:
        rows = [
            AuditRow(
                outcome,
                sum(c.values()),
                sum(n for rejudged, n in c.items() if _agrees(outcome, rejudged)),
                dict(c.most_common()),
            )
            for outcome, c in self._by_outcome.items()
        ]
        return sorted(rows, key=lambda r: (-r.judged, r.outcome))


def _agrees(logged: str, rejudged: str) -> bool:
    """A re-run agrees with the logged outcome when it is that outcome; `incorrect` (a failure
    of unknown kind: CodeContests') agrees with every failure the judge can name."""
    if logged == Outcome.INCORRECT:
        return rejudged in OUTCOME_NAMES and rejudged != Outcome.ACCEPTED
    return rejudged == logged


def audit(
    programs: Sequence[Program],
    results: Sequence[Verdict | Skipped],
    statuses: Mapping[str, str],
) -> list[AuditRow]:
    """Per logged outcome: how many re-runs reach the same outcome (statuses: the recipe's)."""
    counted = LabelAudit(statuses)
    for program, result in zip(programs, results, strict=True):
        counted.add(program, result)
    return counted.rows()


@dataclass
class JudgeReport:
    """What a run did, in counts. The verdicts themselves are in `out` (and with --details,
    each with its per-test results, one JSON line per program, `result_from_record` reads
    one back): the report stays small however many programs are judged."""

    rows_written: int = 0
    skipped_reasons: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    audit: list[AuditRow] = field(default_factory=list)
    isolation: str = ""
    seconds: float = 0.0
    resumed: int = 0  # results an interrupted run of the same command had journaled

    def add(self, result: Verdict | Skipped) -> None:
        if isinstance(result, Verdict):
            self.statuses[result.status] += 1
            self.isolation = self.isolation or result.isolation
        else:
            self.skipped_reasons[result.reason] += 1


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


@dataclass(frozen=True)
class JudgeRun:
    """One `codelog judge` run's settings, as run_judge was given them: what is judged
    (`source`, its first `limit` programs, against `tests`), how (`options`, `workers`,
    `executor`), and where the outputs go."""

    source: Path
    out: Path
    tests: str | None = None
    options: JudgeOptions = DEFAULT_OPTIONS
    workers: int | None = None
    executor: ExecutorSpec = LOCAL
    limit: int | None = None
    problems_out: Path | None = None
    details_out: Path | None = None
    force: bool = False
    show_progress: bool = False

    @property
    def outputs(self) -> list[tuple[str, Path | None]]:
        """Each output with the flag that names it."""
        return [
            ("--out", self.out),
            ("--problems-out", self.problems_out),
            ("--details", self.details_out),
        ]

    def journal_header(self) -> dict[str, Any]:
        """What the journal is resumed only under: the same input, tests and options. A
        pipe's path resolves to a new name each run (pipe:[N]): as given (/dev/stdin,
        /dev/fd/63), a re-run of the command resumes."""
        source = self.source
        identity = str(source) if is_stream(source) else str(source.resolve())
        return {"source": identity, "tests": self.tests, **dataclasses.asdict(self.options)}


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
    benchmark: tuple[Mapping[str, Problem], Sequence[Path]] | None = None,
) -> JudgeReport:
    """`codelog judge`: samples JSONL or a dataset directory -> CI rows in `out`, streamed
    (the module's docstring says how).

    `benchmark`: the problems `tests` names and the files they were read from, when the
    caller resolved a benchmark name (codelog.benchmarks: execution/ reads no benchmark).

    Every output follows codelog.files.check_output_file, checked before anything runs: never
    an input (the samples, the dataset, a problems file), never another output of this run,
    and an existing file only if codelog wrote it or with `force`. One run at a time writes
    `out` (the lock `codelog build` takes on its output). Results are journaled as they arrive
    (codelog.execution.journal), keyed on the code and the tests judged: an interrupted run,
    re-run with the same arguments, judges only the programs it had not judged yet, and again
    those whose code or tests changed since. A pipe (`<(gen)`, `/dev/stdin`) is read once,
    into a temporary file beside `out`."""
    from codelog.files import exclusive_lock, lock_path, writing

    run = JudgeRun(
        Path(source), Path(out), tests=tests, options=options, workers=workers,
        executor=executor, limit=limit, problems_out=problems_out, details_out=details_out,
        force=force, show_progress=show_progress,
    )  # fmt: skip
    _check(run, [run.source, *(benchmark[1] if benchmark else problem_files(tests or ""))])
    with (
        exclusive_lock(lock_path(run.out), str(run.out), activity="judge run", wait_option=None),
        contextlib.ExitStack() as spooled,
    ):
        programs, problems = _open_input(run, benchmark, spooled)
        with writing(run.out):  # a full disk names the file it could not write
            return _judge_run(run, programs, problems)


def _check(run: JudgeRun, inputs: list[Path]) -> None:
    """The run's refusals, before anything runs: its outputs (never one of `inputs`), its
    --limit, and --tests where a samples file needs them."""
    outputs = run.outputs
    for i, (option, path) in enumerate(outputs):
        if path is not None:
            check_output_file(
                Path(path), force=run.force, inputs=inputs, option=option, others=outputs[:i]
            )
    if run.limit is not None and run.limit < 0:
        raise CodelogError(f"--limit {run.limit}: the number of programs to judge is 0 or more")
    if not run.source.is_dir() and run.tests is None:
        raise CodelogError(
            "--tests is required with a samples file: a benchmark (humaneval, mbpp:PATH, "
            "apps:PATH, ...), codenet, codenet:DIR or a problems .jsonl"
        )


def _open_input(
    run: JudgeRun,
    benchmark: tuple[Mapping[str, Problem], Sequence[Path]] | None,
    spooled: contextlib.ExitStack,
) -> tuple[ProgramSource, dict[str, Problem]]:
    """The run's programs (a first pass, holding no code) and the problems they are judged
    on. A pipe is spooled beside `out` first; `spooled` removes the spool when the run ends."""
    from codelog.files import writing

    source = run.source
    if source.is_dir():
        programs = dataset_source(source, run.limit)
        problems = (
            dict(benchmark[0]) if benchmark else load_problems(run.tests or f"codenet:{source}")
        )
        return programs, problems
    read = source
    if is_stream(source):
        with writing(run.out):
            read = spool(source, run.out.parent)
        spooled.callback(read.unlink, missing_ok=True)
    programs = samples_source(read, run.limit, name=source)
    return programs, dict(benchmark[0]) if benchmark else load_problems(str(run.tests))


class _Results:
    """Where each result goes, in input order, read back or judged: the CI rows, --details,
    the report's counts, the label audit and the problems judged (for --problems-out). The
    outputs are opened on `outputs`: left by an exception, it drops them."""

    def __init__(
        self, run: JudgeRun, statuses: Mapping[str, str], outputs: contextlib.ExitStack
    ) -> None:
        self.rows = outputs.enter_context(CIRows(run.out))
        self.details = (
            outputs.enter_context(DetailsFile(run.details_out)) if run.details_out else None
        )
        self.report = JudgeReport()
        self.audit = LabelAudit(statuses)
        self.problem_ids: set[str] = set()
        self.seen = 0  # results added on this pass: the first pass counted the programs

    def add(self, program: Program, result: Verdict | Skipped) -> None:
        self.seen += 1
        if isinstance(result, Verdict):
            self.rows.add(program, result)
        if self.details is not None:
            self.details.add(result_record(result))
        self.report.add(result)
        self.audit.add(program, result)
        self.problem_ids.add(program.problem_id)


def _judge_run(
    run: JudgeRun, programs: ProgramSource, problems: Mapping[str, Problem]
) -> JudgeReport:
    """The run once its input is open: the journal's results read back, the rest judged, each
    result to the outputs in input order; the outputs put in place when all are there."""
    if not programs.count:
        raise InputError(run.source, "no programs to judge")
    journal = Journal(journal_path(run.out), run.journal_header(), force=run.force)
    try:
        with contextlib.ExitStack() as outputs:
            results = _Results(run, programs.statuses, outputs)
            _judge(run, journal, programs, problems, results)
            if results.seen != programs.count:  # leaving by an exception drops the outputs
                raise InputError(
                    run.source,
                    f"{programs.count:,} programs on the first read, {results.seen:,} on the "
                    "second: it changed while being judged; nothing was written",
                )
    finally:
        journal.close()
    report = results.report
    report.rows_written = results.rows.rows
    report.audit = results.audit.rows()
    if run.problems_out is not None:
        used = sorted(results.problem_ids & problems.keys())
        write_problems([problems[p] for p in used], run.problems_out)
    journal.remove()  # the outputs are whole: nothing left to resume
    return report


def _read_back(
    run: JudgeRun,
    journal: Journal,
    programs: ProgramSource,
    keys: VerdictKeys,
    results: _Results,
) -> Iterator[Program]:
    """The results an interrupted run journaled, to `results` while each program's key agrees
    with its result's; the programs left to judge. A journaled result of another submission
    id is refused: the input changed since."""
    from codelog.progress import say

    def same_program(n: int, program: Program, entry: Entry) -> None:
        if entry.record.get("submission_id") != program.submission_id:
            raise CodelogError(
                f"{journal.path} line {entry.line}: holds the verdict of "
                f"{entry.record.get('submission_id')!r}, but program {n} of {run.source} "
                f"is {program.submission_id!r}: the input changed since the "
                f"interrupted run; delete {journal.path} to judge it from the start"
            )

    back = read_back(
        journal,
        programs.programs(),
        keys,
        lambda program, entry: results.add(program, _journaled_result(journal.path, entry)),
        check=same_program,
    )
    if back.changed is not None:
        say(
            f"{back.changed.submission_id} (program {back.used + 1}) is not the program, or "
            "its problem's tests are not the tests, the interrupted run judged: judging it "
            "and the programs after it again"
        )
    results.report.resumed = back.used
    return back.rest


def _judge(
    run: JudgeRun,
    journal: Journal,
    programs: ProgramSource,
    problems: Mapping[str, Problem],
    results: _Results,
) -> None:
    """Every program's result to `results`, in input order: those the journal holds read
    back, the rest judged, each journaled as it arrives."""
    import time

    from codelog.progress import rate_progress

    keys = VerdictKeys(problems)
    rest = _read_back(run, journal, programs, keys, results)
    start = time.monotonic()
    todo = programs.count - results.report.resumed
    with rate_progress("programs", disable=not run.show_progress) as progress:
        task = progress.add_task("judge", total=todo)
        judged = judge_pairs(
            rest, problems, run.options, total=todo, workers=run.workers, executor=run.executor
        )
        for program, result in judged:
            journal.append(result_record(result), key=keys(program))
            results.add(program, result)
            progress.advance(task)
    results.report.seconds = time.monotonic() - start


def _journaled_result(path: Path, entry: Entry) -> Verdict | Skipped:
    try:
        return result_from_record(entry.record)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise CodelogError(
            f"{path} line {entry.line}: not a verdict codelog journaled (edited or damaged); "
            "pass --force to judge from the start"
        ) from None
