"""Judging: a program against a problem's tests -> a CodeNet verdict; many programs on all cores.

`judge_program(program, problem, options)` is a pure function of its arguments (the sandbox's
compile cache only saves time), so any map over (program, problem) pairs can run it: the
process pool here, or Ray. Its verdict follows a judge's order: the tests run one after the
other and the first that fails decides (later ones are not run unless
`stop_at_first_failure=False`); a test whose output matches only once whitespace is normalised
makes the verdict a presentation error unless a later test fails harder.

Verdicts are CodeNet's words, so they flow through the recipe's `[statuses]` -> outcome ->
reward mapping like any logged status:

| verdict | when |
| --- | --- |
| Accepted | every test's output matches (for function problems: the checker's verdict, harness.py) |
| WA: Presentation Error | the right tokens, laid out differently (not on AtCoder; on AIZU only for exact-compare problems: `compare.RULES`) |
| Wrong Answer | other output; for function problems an AssertionError |
| Runtime Error | a non-zero exit or a signal |
| Time Limit Exceeded | CPU time over the limit, or the wall clock (1.5 x limit + 0.5 s) |
| Memory Limit Exceeded | the program's peak resident set over the limit, or an allocation refused (MemoryError, bad_alloc, OutOfMemoryError, ...) |
| Output Limit Exceeded | stdout or stderr past its cap (killed there; on AIZU it runs on to its time limit instead) |
| Compile Error | the compiler fails (`languages.py`); for Python a syntax error before anything ran, for Ruby `ruby -c` |
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError, InputError
from codelog.execution import harness, languages, sandbox, zygote
from codelog.execution.compare import (
    ACCEPTED,
    PRESENTATION_ERROR,
    WRONG_ANSWER,
    compare,
    rules_for,
)
from codelog.execution.testcases import Problem, TestCase, dataset_manifest
from codelog.executors import (
    LOCAL,
    Executor,
    ExecutorSpec,
    PoolExecutor,
    batched,
    open_executor,
)
from codelog.files import check_output_file, json_lines, mark_written

RUNTIME_ERROR = "Runtime Error"
TIME_LIMIT = "Time Limit Exceeded"
MEMORY_LIMIT = "Memory Limit Exceeded"
OUTPUT_LIMIT = "Output Limit Exceeded"
COMPILE_ERROR = "Compile Error"
VERDICTS = (
    ACCEPTED,
    WRONG_ANSWER,
    PRESENTATION_ERROR,
    RUNTIME_ERROR,
    TIME_LIMIT,
    MEMORY_LIMIT,
    OUTPUT_LIMIT,
    COMPILE_ERROR,
)

_OUT_OF_MEMORY = (
    b"MemoryError",
    b"std::bad_alloc",
    b"Cannot allocate memory",
    b"out of memory",  # Go's runtime, V8's "heap out of memory"
    b"java.lang.OutOfMemoryError",
    b"System.OutOfMemoryException",
)
_FILENAME_EXT = languages.FILENAME_EXT


@dataclass(frozen=True)
class Program:
    """A program to judge, with what a CI row carries through."""

    submission_id: str
    problem_id: str
    code: str
    language: str = "Python"
    original_language: str | None = None
    user_id: str | None = None
    date: int | None = None
    logged_status: str | None = None  # a label audit's verdict on record


@dataclass(frozen=True)
class JudgeOptions:
    isolation: sandbox.IsolationMode = "auto"
    python: str | None = None  # Python 3 interpreter; default: the one running codelog
    time_scale: float = 1.0  # multiplies every problem's time limit
    stop_at_first_failure: bool = True
    output_bytes: int = 1 << 20
    # Python runs fork from a warm zygote in the same sandbox (codelog.execution.zygote);
    # where that cannot work (no bwrap, Python 2) they run cold and the isolation says why
    warm: bool = True

    def limits(self, problem: Problem) -> sandbox.Limits:
        """The limits of the problem's origin judge (compare.Rules: stack, which limit wins)."""
        time_ms = max(1, round(problem.time_limit_ms * self.time_scale))
        rules = rules_for(problem.origin)
        return sandbox.Limits(
            time_ms=time_ms,
            memory_kb=problem.memory_limit_kb,
            wall_ms=round(time_ms * 1.5) + 500,
            output_bytes=self.output_bytes,
            isolation=self.isolation,
            stack_kb=rules.stack_kb(problem.memory_limit_kb),
            run_past_output_cap=rules.time_limit_before_output_limit,
        )


DEFAULT_OPTIONS = JudgeOptions()


@dataclass(frozen=True)
class TestResult:
    test: str
    status: str
    cpu_ms: int
    wall_ms: int
    memory_kb: int
    detail: str = ""


@dataclass(frozen=True)
class Verdict:
    submission_id: str
    problem_id: str
    status: str  # one of VERDICTS
    tests_passed: int
    tests_run: int
    tests_total: int
    cpu_ms: int  # the slowest test
    memory_kb: int  # the largest test
    wall_ms: int  # all tests (and the compile)
    detail: str  # why, for anything but Accepted
    isolation: str
    results: tuple[TestResult, ...] = field(default=(), repr=False)

    @property
    def accepted(self) -> bool:
        return self.status == ACCEPTED

    @property
    def accuracy(self) -> str | None:
        """passed/total, CodeNet's `accuracy`, when every test ran."""
        if self.tests_run != self.tests_total:
            return None
        return f"{self.tests_passed}/{self.tests_total}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "submission_id": self.submission_id,
            "problem_id": self.problem_id,
            "status": self.status,
            "tests_passed": self.tests_passed,
            "tests_run": self.tests_run,
            "tests_total": self.tests_total,
            "cpu_ms": self.cpu_ms,
            "memory_kb": self.memory_kb,
            "wall_ms": self.wall_ms,
            "detail": self.detail,
            "isolation": self.isolation,
            "tests": [r.__dict__ for r in self.results],
        }


# ------------------------------------------------------------------------------- one program


def _tail(data: bytes, limit: int = 300) -> str:
    text = data.decode("utf-8", "replace").strip()
    return text if len(text) <= limit else "..." + text[-limit:]


def _python_compile_error(stderr: bytes) -> bool:
    """A syntax error reported before anything ran: the interpreter (and codelog's bootstrap)
    prints it with no "Traceback" header, which any exception raised at run time has."""
    text = stderr.decode("utf-8", "replace")
    if "Traceback (most recent call last)" in text:
        return False
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    last = lines[-1]
    return last in sandbox.COMPILE_ERROR_NAMES or last.startswith(
        tuple(f"{name}:" for name in sandbox.COMPILE_ERROR_NAMES)
    )


def _show(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def classify(
    run: sandbox.Run,
    test: TestCase,
    problem: Problem,
    runner: sandbox.Runner,
) -> tuple[str, str]:
    """(verdict, detail) of one run of one test of a stdio problem."""
    if run.output_exceeded:
        return OUTPUT_LIMIT, "output past the cap; the program was stopped"
    python = runner.language == "Python"
    if python and run.exit_code not in (0, None) and _python_compile_error(run.stderr):
        return COMPILE_ERROR, _tail(run.stderr)
    if run.timed_out:
        return TIME_LIMIT, f"{run.cpu_ms} ms CPU, {run.wall_ms} ms wall"
    if run.exit_code != 0 and any(marker in run.stderr for marker in _OUT_OF_MEMORY):
        return MEMORY_LIMIT, _tail(run.stderr)
    if run.memory_kb > problem.memory_limit_kb:
        return (
            MEMORY_LIMIT,
            f"peak {run.memory_kb} KB over the limit of {problem.memory_limit_kb} KB",
        )
    if run.exit_code != 0:
        if test.output is None and re.search(rb"^AssertionError\b", run.stderr, re.MULTILINE):
            return WRONG_ANSWER, _tail(run.stderr)
        return RUNTIME_ERROR, f"exit status {run.exit_code}: {_tail(run.stderr)}"
    if test.output is None:
        return ACCEPTED, ""
    output = run.stdout.decode("utf-8", "replace")
    status = compare(output, test.output, problem.tolerance, rules_for(problem.origin))
    if status == ACCEPTED:
        return status, ""
    return status, f"expected {_show(test.output)}, got {_show(output)}"


def judge_program(
    program: Program, problem: Problem, options: JudgeOptions = DEFAULT_OPTIONS
) -> Verdict:
    """The verdict of one program on one problem's tests (a pure function of its arguments).

    Raises SandboxError when there is no runner for the program's language."""
    runner = languages.runner_for(program.language, program.original_language, options.python)
    limits = runner.limits(options.limits(problem))
    if problem.kind == "function":
        return _judge_function(program, problem, runner, limits, options)
    source = problem.program(program.code)
    executables: dict[str, str] = {}
    wall = 0
    isolation = ""
    if runner.compiled:
        compiled = sandbox.compile_source(runner, source, options.isolation)
        if not compiled.ok:
            return Verdict(
                program.submission_id,
                program.problem_id,
                COMPILE_ERROR,
                0,
                0,
                len(problem.tests),
                0,
                0,
                0,
                compiled.diagnostics[-500:],
                "",
            )
        executables = {runner.binary_name: compiled.binary}  # type: ignore[dict-item]
        files: dict[str, str] = {}
    else:
        files = {runner.source_name: source}
    results: list[TestResult] = []
    decided: str | None = None
    presentation: TestResult | None = None
    for test in problem.tests:
        run = _run_test(runner, limits, test.input, files, executables, options.warm)
        isolation = run.isolation.describe()
        wall += run.wall_ms
        status, detail = classify(run, test, problem, runner)
        result = TestResult(test.name, status, run.cpu_ms, run.wall_ms, run.memory_kb, detail)
        results.append(result)
        if status == PRESENTATION_ERROR:
            presentation = presentation or result
        elif status != ACCEPTED:
            decided = decided or status
            if options.stop_at_first_failure or status == COMPILE_ERROR:
                break
    if decided is not None:
        first = next(r for r in results if r.status == decided)
        status, detail = decided, f"{first.test}: {first.detail}"
    elif presentation is not None:
        status, detail = PRESENTATION_ERROR, f"{presentation.test}: {presentation.detail}"
    else:
        status, detail = ACCEPTED, ""
    return Verdict(
        submission_id=program.submission_id,
        problem_id=program.problem_id,
        status=status,
        tests_passed=sum(r.status == ACCEPTED for r in results),
        tests_run=len(results),
        tests_total=len(problem.tests),
        cpu_ms=max((r.cpu_ms for r in results), default=0),
        memory_kb=max((r.memory_kb for r in results), default=0),
        wall_ms=wall,
        detail=detail,
        isolation=isolation,
        results=tuple(results),
    )


def _run_test(
    runner: sandbox.Runner,
    limits: sandbox.Limits,
    stdin: str,
    files: Mapping[str, str],
    executables: Mapping[str, str],
    warm: bool,
) -> sandbox.Run:
    """One test's run: forked from a warm zygote when asked and possible, else cold."""
    argv = runner.argv(limits)
    why = ""
    if warm and not runner.compiled:
        run, why = zygote.run(argv, stdin, limits, files=files, readable=runner.readable)
        if run is not None:
            return run
    run, _ = sandbox.run(
        argv, stdin, limits, files=files, executables=executables, readable=runner.readable
    )
    if why:
        run = replace(run, isolation=replace(run.isolation, start=f"cold ({why})"))
    return run


def function_verdict(outcome: harness.Outcome) -> tuple[str, str]:
    """(verdict, detail) of a function problem's checks (codelog.execution.harness): only
    the checker's own verdict can make it Accepted."""
    run = outcome.candidate
    if run.output_exceeded:
        return OUTPUT_LIMIT, "output past the cap; the program was stopped"
    if outcome.verdict == "not-ready" and _python_compile_error(run.stderr):
        return COMPILE_ERROR, _tail(run.stderr)
    if run.timed_out or outcome.verdict == "timeout":
        return TIME_LIMIT, f"{run.cpu_ms} ms CPU, {run.wall_ms} ms wall"
    if outcome.verdict == "pass":
        return ACCEPTED, ""
    if outcome.verdict == "assert":
        return WRONG_ANSWER, _tail(outcome.detail.encode())
    if outcome.verdict in ("not-ready", "gone"):
        if any(marker in run.stderr for marker in _OUT_OF_MEMORY):
            return MEMORY_LIMIT, _tail(run.stderr)
        if outcome.verdict == "not-ready" and re.search(
            rb"^AssertionError\b", run.stderr, re.MULTILINE
        ):
            return WRONG_ANSWER, _tail(run.stderr)
        when = "before its checks ran" if outcome.verdict == "not-ready" else "during its checks"
        return RUNTIME_ERROR, f"exited {when} (status {run.exit_code}): {_tail(run.stderr)}"
    if "MemoryError" in outcome.detail:
        return MEMORY_LIMIT, _tail(outcome.detail.encode())
    return RUNTIME_ERROR, _tail(outcome.detail.encode())


def _judge_function(
    program: Program,
    problem: Problem,
    runner: sandbox.Runner,
    limits: sandbox.Limits,
    options: JudgeOptions,
) -> Verdict:
    if runner.language != "Python":
        raise sandbox.SandboxError(f"function problems run Python only, not {runner.language}")
    outcome = harness.check_function(problem, program.code, runner, limits, warm=options.warm)
    run = outcome.candidate
    status, detail = function_verdict(outcome)
    test = problem.tests[0].name if problem.tests else "check"
    result = TestResult(test, status, run.cpu_ms, run.wall_ms, run.memory_kb, detail)
    return Verdict(
        submission_id=program.submission_id,
        problem_id=program.problem_id,
        status=status,
        tests_passed=int(status == ACCEPTED),
        tests_run=1,
        tests_total=1,
        cpu_ms=run.cpu_ms,
        memory_kb=run.memory_kb,
        wall_ms=run.wall_ms,
        detail="" if status == ACCEPTED else f"{test}: {detail}",
        isolation=run.isolation.describe(),
        results=(result,),
    )


# ----------------------------------------------------------------------------- many programs


@dataclass(frozen=True)
class Skipped:
    submission_id: str
    problem_id: str
    reason: str


def _task(item: tuple[Program, Problem | None, JudgeOptions]) -> Verdict | Skipped:
    program, problem, options = item
    if problem is None:
        return Skipped(program.submission_id, program.problem_id, "no tests for this problem")
    try:
        return judge_program(program, problem, options)
    except sandbox.SandboxError as exc:
        return Skipped(program.submission_id, program.problem_id, str(exc))


def die_with_parent(parent: int) -> None:
    """In a pool worker: exit when `parent` (codelog) is gone, however it went (a SIGKILL too,
    which leaves a worker blocked on a pipe whose other end it holds itself)."""
    import ctypes
    import signal
    import threading
    import time

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # gone before the line above
        os._exit(1)

    def watch() -> None:  # the death signal follows the forking thread; this, the process
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="codelog-parent-watch").start()


@dataclass(frozen=True)
class JudgeBatch:
    """One task of a judging run: programs, the problems they need (None: no tests), options."""

    programs: tuple[Program, ...]
    problems: Mapping[str, Problem | None]
    options: JudgeOptions


def judge_batch(batch: JudgeBatch) -> list[Verdict | Skipped]:
    """Every program of the batch judged, in order: the pure function any executor runs."""
    return [_task((p, batch.problems[p.problem_id], batch.options)) for p in batch.programs]


BATCH_MAX = 16  # programs per task: ~1 s of work, small enough to balance the tail


def batch_size(programs: int | None, parallelism: int) -> int:
    """Programs per task: 8 tasks per worker, at most BATCH_MAX (unknown count: BATCH_MAX)."""
    if programs is None:
        return BATCH_MAX
    return max(1, min(BATCH_MAX, programs // (parallelism * 8)))


def local_executor(workers: int) -> PoolExecutor:
    """The judge's own process pool: forked, so workers start at once and need no `if __name__
    == "__main__"` guard in a caller's script; they only run the sandbox, never the parent's
    threads (torch's, in codelog eval)."""
    context = multiprocessing.get_context("fork")
    return PoolExecutor(
        lambda: ProcessPoolExecutor(
            workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
        ),
        workers,
    )


def judge_stream(
    programs: Iterable[Program],
    problems: Mapping[str, Problem],
    options: JudgeOptions,
    executor: Executor,
    *,
    total: int | None = None,
) -> Iterator[tuple[Program, Verdict | Skipped]]:
    """(program, verdict) for every program, in input order, judged in batches on `executor`
    with a bounded number in flight: the programs are read as the window frees up."""
    size = batch_size(total, executor.parallelism)
    taken: deque[JudgeBatch] = deque()  # submitted, results not yet handed out: the window

    def tasks() -> Iterator[JudgeBatch]:
        for chunk in batched(programs, size):
            needed = {p.problem_id: problems.get(p.problem_id) for p in chunk}
            taken.append(JudgeBatch(tuple(chunk), needed, options))
            yield taken[-1]

    for results in executor.map(judge_batch, tasks()):
        yield from zip(taken.popleft().programs, results, strict=True)


def judge_many(
    programs: Sequence[Program],
    problems: Mapping[str, Problem],
    options: JudgeOptions = DEFAULT_OPTIONS,
    *,
    workers: int | None = None,
    on_result: Callable[[Verdict | Skipped], None] | None = None,
    executor: ExecutorSpec = LOCAL,
) -> list[Verdict | Skipped]:
    """Every program judged, in input order: in a pool of `workers` processes (all cores), or
    as Ray tasks (`executor`)."""
    workers = workers or os.cpu_count() or 1
    results: list[Verdict | Skipped] = []
    if not programs:  # no pool, no Ray session for nothing
        return results
    if executor.kind == "local" and (workers == 1 or len(programs) <= 1):
        for program in programs:
            results.append(_task((program, problems.get(program.problem_id), options)))
            if on_result:
                on_result(results[-1])
        return results
    with open_executor(executor, workers=workers, local=lambda: local_executor(workers)) as ex:
        for _, result in judge_stream(programs, problems, options, ex, total=len(programs)):
            results.append(result)
            if on_result:
                on_result(result)
    return results


def judge_with_progress(
    programs: Sequence[Program],
    problems: Mapping[str, Problem],
    options: JudgeOptions = DEFAULT_OPTIONS,
    *,
    workers: int | None = None,
    show_progress: bool = False,
    description: str = "judge",
    executor: ExecutorSpec = LOCAL,
    on_result: Callable[[Verdict | Skipped], None] | None = None,
) -> list[Verdict | Skipped]:
    from codelog.progress import rate_progress

    with rate_progress("programs", disable=not show_progress) as progress:
        task = progress.add_task(description, total=len(programs))

        def advance(result: Verdict | Skipped) -> None:
            if on_result:
                on_result(result)
            progress.advance(task)

        return judge_many(
            programs, problems, options, workers=workers, on_result=advance, executor=executor
        )


def result_record(result: Verdict | Skipped) -> dict[str, Any]:
    """A result as a JSON object (the --details line): a verdict, or status "skipped"."""
    if isinstance(result, Verdict):
        return result.to_dict()
    return {**result.__dict__, "status": "skipped"}


def result_from_record(record: Mapping[str, Any]) -> Verdict | Skipped:
    """The inverse of result_record."""
    if record["status"] == "skipped":
        return Skipped(record["submission_id"], record["problem_id"], record["reason"])
    fields = {k: v for k, v in record.items() if k != "tests"}
    return Verdict(**fields, results=tuple(TestResult(**t) for t in record["tests"]))


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
        judge_with_progress(
            todo,
            problems,
            options,
            workers=workers,
            show_progress=show_progress,
            executor=executor,
            on_result=lambda result: journal.append(result_record(result)),
        )
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
