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
| Wrong Answer | other output; for function problems an AssertionError of the checks |
| Runtime Error | any other non-zero exit or signal (whatever the program printed) |
| Time Limit Exceeded | CPU time over the limit, or the wall clock (1.5 x limit + 0.5 s) |
| Memory Limit Exceeded | the memory limit was hit: `memory_limit_hit` (the peak resident set over the limit) |
| Output Limit Exceeded | stdout or stderr past its cap (killed there; on AIZU it runs on to its time limit instead) |
| Compile Error | the compile step fails (`languages.py`); for Python, `compile()` of the source in the box (`python_compiles`, once a run has failed), for Ruby `ruby -c` |

Every verdict comes from what happened (an exit status, a signal, a limit, the compile step,
the checker's own verdict), never from text the program printed: a program that writes
`SyntaxError: ...` or `MemoryError` and exits 1 is a Runtime Error.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from codelog.execution import harness, languages, sandbox, zygote
from codelog.execution.compare import (
    ACCEPTED,
    PRESENTATION_ERROR,
    WRONG_ANSWER,
    compare,
    rules_for,
)
from codelog.execution.testcases import Problem, TestCase, check_problem
from codelog.executors import (
    LOCAL,
    Executor,
    ExecutorSpec,
    PoolExecutor,
    batched,
    open_executor,
)

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

T = TypeVar("T")


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


def _show(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def memory_limit_hit(run: sandbox.Run, limit_kb: int) -> bool:
    """Whether the run hit its memory limit: the one place Memory Limit Exceeded is decided,
    from what the sandbox measured, never from what the program printed (a MemoryError it
    raised itself, an "out of memory" in its message).

    The facts: the sandbox's `Run.memory_limit_hit` (the run's memory cgroup killed it, or a
    peak over the limit: codelog.execution.sandbox.accounting), or the peak resident set over
    the limit. An allocation RLIMIT_AS refused before touching memory is recorded nowhere by
    the kernel, so it is a Runtime Error (docs/running-code.md)."""
    return run.memory_limit_hit or run.memory_kb > limit_kb


def classify(run: sandbox.Run, test: TestCase, problem: Problem) -> tuple[str, str]:
    """(verdict, detail) of one run of one test of a stdio problem that compiled."""
    if run.output_exceeded:
        return OUTPUT_LIMIT, "output past the cap; the program was stopped"
    if run.timed_out:
        return TIME_LIMIT, f"{run.cpu_ms} ms CPU, {run.wall_ms} ms wall"
    if memory_limit_hit(run, problem.memory_limit_kb):
        return (
            MEMORY_LIMIT,
            f"peak {run.memory_kb} KB, the limit {problem.memory_limit_kb} KB",
        )
    if run.exit_code != 0:
        how = "killed" if run.exit_code is None else f"exit status {run.exit_code}"
        return RUNTIME_ERROR, f"{how}: {_tail(run.stderr)}"
    output = run.stdout.decode("utf-8", "replace")
    status = compare(output, test.output or "", problem.tolerance, rules_for(problem.origin))
    if status == ACCEPTED:
        return status, ""
    return status, f"expected {_show(test.output or '')}, got {_show(output)}"


# Python's compile step: codelog's lines alone (valid Python 2 and 3) compile the source and
# never run it, so their exit status is a fact no program can choose. A syntax error (null
# bytes: ValueError before 3.12, TypeError on Python 2) exits 3 with the interpreter's message;
# anything else (a compile killed at the limits, a RecursionError) is no compile error, and the
# failed run's own verdict stands.
PYTHON_COMPILE = (
    "import sys\n"
    "f = open(sys.argv[1], 'rb')\ns = f.read()\nf.close()\n"
    "try:\n compile(s, sys.argv[1], 'exec', 0, 1)\n"
    "except (SyntaxError, ValueError, TypeError):\n"
    " import traceback\n"
    " e = sys.exc_info()\n"
    " sys.stderr.write(''.join(traceback.format_exception_only(e[0], e[1])))\n"
    " sys.exit(3)\n"
)
_DOES_NOT_COMPILE = 3


def python_compiles(
    runner: sandbox.Runner, limits: sandbox.Limits, source: str, warm: bool
) -> tuple[bool, str, sandbox.Run]:
    """(compiles, the compiler's message, the step's run): the source compiled by the
    program's own interpreter in the sandbox, under the program's limits. The judge runs it
    once a run of the program has failed: a program that compiles never pays for it."""
    check = replace(
        runner, run_argv=(runner.run_argv[0], "-S", "-c", PYTHON_COMPILE, runner.source_name)
    )
    run = _run_test(check, limits, "", {runner.source_name: source}, {}, warm)
    failed = run.exit_code == _DOES_NOT_COMPILE
    return not failed, _tail(run.stderr, 500) if failed else "", run


def _compiles(
    run: sandbox.Run, runner: sandbox.Runner, limits: sandbox.Limits, source: str, warm: bool
) -> tuple[bool, str, int]:
    """(compiles, the compiler's message, wall ms spent on it) of a program whose run failed:
    the run's own word where it compiled the source before it ran (a warm run), else the
    compile step's (`python_compiles`)."""
    if run.compiled is not None:
        return run.compiled, _tail(run.compile_errors.encode(), 500), 0
    compiles, diagnostics, check = python_compiles(runner, limits, source, warm)
    return compiles, diagnostics, check.wall_ms


def _compile_error(
    program: Program, problem: Problem, diagnostics: str, wall_ms: int, isolation: str
) -> Verdict:
    return Verdict(
        program.submission_id,
        program.problem_id,
        COMPILE_ERROR,
        0,
        0,
        len(problem.tests),
        0,
        0,
        wall_ms,
        diagnostics,
        isolation,
    )


def judge_program(
    program: Program, problem: Problem, options: JudgeOptions = DEFAULT_OPTIONS
) -> Verdict:
    """The verdict of one program on one problem's tests (a pure function of its arguments).

    Raises SandboxError when there is no runner for the program's language, InputError when
    the problem could judge nothing (testcases.check_problem)."""
    check_problem(problem, f"problem {problem.problem_id!r}")
    runner = languages.runner_for(program.language, program.original_language, options.python)
    limits = runner.limits(options.limits(problem))
    if problem.kind == "function":
        return _judge_function(program, problem, runner, limits, options)
    source = problem.program(program.code)
    wall = 0
    isolation = ""
    executables: dict[str, str] = {}
    if runner.compiled:
        compiled = sandbox.compile_source(runner, source, options.isolation, limits.disk_bytes)
        if not compiled.ok:
            return _compile_error(program, problem, compiled.diagnostics[-500:], 0, "")
        executables = {runner.binary_name: compiled.binary}  # type: ignore[dict-item]
        files: dict[str, str] = {}
    else:
        files = {runner.source_name: source}
    results: list[TestResult] = []
    decided: str | None = None
    presentation: TestResult | None = None
    compile_step = runner.language == "Python"
    for test in problem.tests:
        run = _run_test(
            runner, limits, test.input, files, executables, options.warm, compile=compile_step
        )
        isolation = run.isolation.describe()
        wall += run.wall_ms
        if compile_step and run.exit_code not in (0, None):
            # Only a program whose run failed can be one that does not compile. A warm run
            # compiled it before it ran and says; otherwise its compile step runs now, once,
            # and decides (what the run printed decides nothing).
            compile_step = False
            compiles, diagnostics, took = _compiles(run, runner, limits, source, options.warm)
            wall += took
            if not compiles:
                return _compile_error(program, problem, diagnostics, wall, isolation)
        status, detail = classify(run, test, problem)
        result = TestResult(test.name, status, run.cpu_ms, run.wall_ms, run.memory_kb, detail)
        results.append(result)
        if status == PRESENTATION_ERROR:
            presentation = presentation or result
        elif status != ACCEPTED:
            decided = decided or status
            if options.stop_at_first_failure:
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
    *,
    compile: bool = False,
) -> sandbox.Run:
    """One test's run: forked from a warm zygote when asked and possible, else cold.
    `compile`: a warm run compiles the program's source first, and its `compiled` says."""
    argv = runner.argv(limits)
    why = ""
    if warm and not runner.compiled:
        run, why = zygote.run(
            argv,
            stdin,
            limits,
            files=files,
            readable=runner.readable,
            compile=runner.source_name if compile and runner.source_name in files else None,
        )
        if run is not None:
            return run
    run, _ = sandbox.run(
        argv, stdin, limits, files=files, executables=executables, readable=runner.readable
    )
    if why:
        run = replace(run, isolation=replace(run.isolation, start=f"cold ({why})"))
    return run


def function_verdict(outcome: harness.Outcome, memory_limit_kb: int) -> tuple[str, str]:
    """(verdict, detail) of a function problem's checks (codelog.execution.harness), the
    source compiled already: only the checker's own verdict can make it Accepted or Wrong
    Answer; whatever the candidate printed or raised, a failure of its own is a Runtime Error."""
    run = outcome.candidate
    if run.output_exceeded:
        return OUTPUT_LIMIT, "output past the cap; the program was stopped"
    if run.timed_out or outcome.verdict == "timeout":
        spent = f"{run.cpu_ms} ms CPU, {run.wall_ms} ms wall"
        # which call (or the load) ran past its test's limit, when one did
        return TIME_LIMIT, f"{outcome.detail} ({spent} in all)" if outcome.detail else spent
    if memory_limit_hit(run, memory_limit_kb):
        return MEMORY_LIMIT, f"peak {run.memory_kb} KB, the limit {memory_limit_kb} KB"
    if outcome.verdict == "pass":
        return ACCEPTED, ""
    if outcome.verdict == "assert":
        return WRONG_ANSWER, _tail(outcome.detail.encode())
    if outcome.verdict in ("not-ready", "gone"):
        when = "before its checks ran" if outcome.verdict == "not-ready" else "during its checks"
        return RUNTIME_ERROR, f"exited {when} (status {run.exit_code}): {_tail(run.stderr)}"
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
    wall = run.wall_ms
    if outcome.verdict == "not-ready":  # it exited before its checks: did it compile?
        source = problem.program(program.code)
        compiles, diagnostics, took = _compiles(run, runner, limits, source, options.warm)
        wall += took
        if not compiles:
            return _compile_error(program, problem, diagnostics, wall, run.isolation.describe())
    status, detail = function_verdict(outcome, problem.memory_limit_kb)
    # the checks decide as one: a problem of many tests (a call each) is named by their count
    test = problem.tests[0].name if len(problem.tests) == 1 else f"{len(problem.tests)} calls"
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
        wall_ms=wall,
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
GROUP_WINDOW = 1024  # function problems' programs held back and grouped by problem (_grouped)
GROUP_BYTES = 8 << 20  # and at most this much of their code


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
    with a bounded number in flight: the programs are read as the window frees up, a
    function problem's grouped with the others of its problem (`_grouped`)."""
    size = batch_size(total, executor.parallelism)
    # submitted, results not yet handed out: each batch with its programs' input positions
    taken: deque[tuple[tuple[int, ...], JudgeBatch]] = deque()

    def tasks() -> Iterator[JudgeBatch]:
        for chunk in batched(_grouped(programs, problems), size):
            batch = tuple(p for _, p in chunk)
            needed = {p.problem_id: problems.get(p.problem_id) for p in batch}
            taken.append((tuple(i for i, _ in chunk), JudgeBatch(batch, needed, options)))
            yield taken[-1][1]

    def judged() -> Iterator[tuple[int, tuple[Program, Verdict | Skipped]]]:
        for results in executor.map(judge_batch, tasks()):
            positions, batch = taken.popleft()
            yield from zip(positions, zip(batch.programs, results, strict=True), strict=True)

    yield from _in_input_order(judged())


def _grouped(
    programs: Iterable[Program], problems: Mapping[str, Problem]
) -> Iterator[tuple[int, Program]]:
    """(input position, program) for every program. A function problem's programs are held
    back, up to GROUP_WINDOW programs (or GROUP_BYTES of their code, or GROUP_WINDOW positions
    past the first held), and handed on in problem order (stable): a warm worker keeps a
    function problem's checker for its programs in a row (codelog.execution.harness),
    whatever order a samples file has. The others go on at once."""
    held: list[tuple[int, Program]] = []
    size = 0
    for position, program in enumerate(programs):
        if _is_function(problems.get(program.problem_id)):
            held.append((position, program))
            size += len(program.code)
        else:
            yield position, program
        if held and (
            len(held) >= GROUP_WINDOW
            or size >= GROUP_BYTES
            or position - held[0][0] >= GROUP_WINDOW
        ):
            held.sort(key=lambda item: item[1].problem_id)
            yield from held
            held, size = [], 0
    held.sort(key=lambda item: item[1].problem_id)
    yield from held


def _is_function(problem: Problem | None) -> bool:
    return problem is not None and problem.kind == "function"


def _in_input_order(pairs: Iterable[tuple[int, T]]) -> Iterator[T]:
    """The items of (input position, item) pairs, in input order, each as soon as those
    before it are in."""
    done: dict[int, T] = {}
    next_out = 0
    for position, item in pairs:
        done[position] = item
        while next_out in done:
            yield done.pop(next_out)
            next_out += 1


def judge_pairs(
    programs: Iterable[Program],
    problems: Mapping[str, Problem],
    options: JudgeOptions = DEFAULT_OPTIONS,
    *,
    total: int,
    workers: int | None = None,
    executor: ExecutorSpec = LOCAL,
) -> Iterator[tuple[Program, Verdict | Skipped]]:
    """(program, verdict) for each of the `total` programs as it is ready, in input order: in
    this process (one worker or one program), in a pool of `workers` processes (default: all
    cores), or as Ray tasks. `programs` is read as the in-flight window frees up, so it may be
    a stream far larger than memory."""
    workers = workers or os.cpu_count() or 1
    if total == 0:  # no pool, no Ray session for nothing
        return
    if executor.kind == "local" and (workers == 1 or total <= 1):
        yield from _in_input_order(
            (i, (p, _task((p, problems.get(p.problem_id), options))))
            for i, p in _grouped(programs, problems)
        )
        return
    if executor.kind == "local":
        ready_before_fork(options)
    with open_executor(executor, workers=workers, local=lambda: local_executor(workers)) as ex:
        yield from judge_stream(programs, problems, options, ex, total=total)


def ready_before_fork(options: JudgeOptions) -> None:
    """Work out once, in this process, what every forked worker would work out for itself
    before its first Python run, and inherits instead: the isolation probe and the package
    directories a box hides (a walk of the interpreter's lib/: ~0.1 s a worker)."""
    with contextlib.suppress(sandbox.SandboxError, OSError):
        runner = languages.runner_for("Python", python=options.python)
        sandbox.resolve_isolation(options.isolation, runner.readable)


def judge_iter(
    programs: Sequence[Program],
    problems: Mapping[str, Problem],
    options: JudgeOptions = DEFAULT_OPTIONS,
    *,
    workers: int | None = None,
    executor: ExecutorSpec = LOCAL,
) -> Iterator[Verdict | Skipped]:
    """Every program's verdict as it is ready, in input order (judge_pairs)."""
    pairs = judge_pairs(
        programs, problems, options, total=len(programs), workers=workers, executor=executor
    )
    for _, result in pairs:
        yield result


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
    results: list[Verdict | Skipped] = []
    for result in judge_iter(programs, problems, options, workers=workers, executor=executor):
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
) -> list[Verdict | Skipped]:
    from codelog.progress import rate_progress

    with rate_progress("programs", disable=not show_progress) as progress:
        task = progress.add_task(description, total=len(programs))
        return judge_many(
            programs,
            problems,
            options,
            workers=workers,
            on_result=lambda _: progress.advance(task),
            executor=executor,
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
