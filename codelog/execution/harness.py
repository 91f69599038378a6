"""Function problems (HumanEval `check`, MBPP asserts) judged so that the program cannot forge
its verdict.

Two sandboxed processes, each in a box (run directory, uid, namespaces) of its own:

- the **candidate** runs the code prompt + completion, then serves calls: one JSON line in on
  its stdin (a function's name and arguments), one JSON line out (its return value, or the
  exception it raised). What it prints goes to its stderr. It never sees the tests.
- the **checker** never runs a line of the candidate's code. It runs the problem's own code
  (the prompt's helper functions, the test code, `check(candidate)`) with the candidate's
  functions bound to proxies: a call sends its arguments down the candidate's stdin and reads
  its answer line. codelog hands the checker those two pipes with each program (over the
  checker's stdin, a socket), with the candidate's wall-clock time left, which the checker
  spends only while the candidate answers; it reports the calls made and the time left with
  its verdict. The verdict goes to codelog on the checker's own stdout, which the candidate
  cannot reach.

A problem's tests are its calls where each test is one call (APPS's call-based, LiveCodeBench's
functional problems: `Problem.tests` holds one a call): the candidate's load and each call have
one test's limits, CPU time (as the candidate measures it around the call) and wall clock (the
checker's), and the whole run the test's limits times the number of tests, capped
(`run_limits`), which the kernel's CPU rlimit and the run's own accounting hold. HumanEval's and
MBPP's checks are one test, whose limits all their calls share.

A warm checker is kept for the next program, of any problem (the problem is sent with the
program when it changes; programs are judged grouped by problem: judge.judge_stream, so a
problem's code is compiled once): each program's checks run in a namespace of their own, and
after them the checker puts back what they changed in its process (the modules they imported
are dropped, so imported afresh; the attributes of every module it had, builtins included,
and the recursion limit are restored). Only a kept checker's clean word (a pass, a failed
check, the candidate's own failure or exit) is believed; anything else is checked again by a
fresh checker. State the checks keep inside objects (a list in a module, mutated in place) is
not put back: every benchmark's checks are pure functions of the values they get.

The two programs' source is codelog.execution.harness_scripts; this module is the host side.

Values cross as data only (`harness_scripts.ENCODING`: JSON with tags for tuple, set, frozenset, dict with any
keys, bytes, complex, exact floats and integers longer than `str()` converts), decoded into
builtin types only, never pickle: an object whose `__eq__` is always true cannot cross, nor can
anything else of the candidate's making. Nothing the candidate prints, no exit status, `atexit` or `sys.excepthook` decides
anything: only the checker's last line does. A result that is not such data (a generator, an
instance of the candidate's class, a NumPy number) fails the check.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import json
import os
import select
import selectors
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from codelog.execution import sandbox, zygote
from codelog.execution.harness_scripts import CANDIDATE, CHECKER
from codelog.execution.testcases import Problem

# The checker's own limits: it runs the problem's code, not the candidate's, and is not timed.
_CHECKER_TIME_MS = 20_000
_CHECKER_MEMORY_KB = 1 << 20
_CHECKER_WALL_S = 30
_LINE_CAP = 16 << 20  # a call or answer bigger than this ends the run (output limit)
# A function problem's whole run: its load and each of its tests (a call each: APPS's
# call-based, LiveCodeBench's functional problems) have one test's limits, and the run the
# test's limits times the number of tests, up to this much CPU (and as many tests' wall
# clocks). Without a cap a problem of 1,000 tests would let one slow sample hold a worker for
# over an hour; 120 s is 30 of APPS's 4 s tests, 20 of LiveCodeBench's 6 s ones, and only a
# program that spends more than that over all its calls, each within its test's limit, is
# judged Time Limit Exceeded by the cap.
RUN_TIME_CAP_MS = 120_000


def run_limits(limits: sandbox.Limits, tests: int) -> sandbox.Limits:
    """The candidate's limits for a run of `tests` tests, each with `limits`' time: CPU and
    wall clock `tests` times a test's, capped at RUN_TIME_CAP_MS of CPU (never below one
    test's)."""
    times = max(1, min(tests, RUN_TIME_CAP_MS // limits.time_ms))
    return replace(
        limits, time_ms=limits.time_ms * times, wall_ms=round(limits.wall_s * 1000) * times
    )


@dataclass(frozen=True)
class Outcome:
    """What became of a function problem's checks."""

    verdict: str  # pass | assert | error | gone | not-ready | timeout | output | judge-error
    detail: str
    candidate: sandbox.Run  # the candidate's run: time, memory, stderr, how it ended
    calls: int


def called_names(test_code: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(functions, modules) an MBPP-style assert list needs from outside: names it calls that
    it does not define and that are not builtins (the candidate's functions), and other free
    names (modules the asserts use, such as `math`, which the program imported)."""
    try:
        tree = ast.parse(test_code)
    except SyntaxError:
        return (), ()
    defined = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            defined.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
    called = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    loaded = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    free = {n for n in loaded - defined if not hasattr(builtins, n)}
    functions = tuple(sorted(free & called))
    return functions, tuple(sorted(free - called))


def asserted_builtins(test_code: str) -> tuple[str, ...]:
    """Builtin names the asserts test as the function under test: the call at the top of an
    assert, or of the left side of its comparison, whose arguments call none of the program's
    functions (`assert sum(2, 3) == 5`, not `assert set(pairs(3)) == {...}`, where `set` only
    normalizes). A program that defines such a name (MBPP's `def sum(a, b)`) is what the
    asserts mean by it, everywhere in them, as when MBPP runs them after the program. Any
    other builtin stays the checker's, so a program cannot redefine `set` or `sorted` to pass
    an assert that only uses them."""
    try:
        tree = ast.parse(test_code)
    except SyntaxError:
        return ()
    functions = set(called_names(test_code)[0])
    tested, wrappers = set(), set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        top = node.test
        if isinstance(top, ast.UnaryOp | ast.Compare):
            top = top.operand if isinstance(top, ast.UnaryOp) else top.left
        if not (
            isinstance(top, ast.Call)
            and isinstance(top.func, ast.Name)
            and hasattr(builtins, top.func.id)
        ):
            continue
        inner = {
            n.func.id
            for arg in [*top.args, *(k.value for k in top.keywords)]
            for n in ast.walk(arg)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        (wrappers if inner & functions else tested).add(top.func.id)
    return tuple(sorted(tested - wrappers))


# The last problem's only: a worker gets a problem's samples in a row (judge._grouped), and an
# APPS or LiveCodeBench problem's checks hold its tests, megabytes at times, which a larger
# cache would keep alive.
@functools.lru_cache(maxsize=1)
def _checks(
    prompt: str, test: str, entry_point: str | None
) -> tuple[str, frozenset[str], frozenset[str]]:
    """A problem's checks as a checker holds them (problem.json), the names of the candidate's
    functions they may call, and the names whose values they may read. Worked out once for a
    problem's samples in a row: parsing an MBPP assert list twice per sample cost ~0.3 ms of a
    ~3 ms sample, and encoding a problem's tests as JSON grows with them."""
    if entry_point:
        # the checks hold their own helpers (the prompt's): nothing of the program's but the
        # entry point may stand in for them, lest it redefine what judges it
        functions: tuple[str, ...] = ()
        modules: tuple[str, ...] = ()
        shadowed: tuple[str, ...] = ()
    else:
        functions, modules = called_names(test)
        shadowed = asserted_builtins(test)
    spec = {
        "prompt": prompt,
        "test": test,
        "entry_point": entry_point,
        "functions": list(functions),
        "modules": list(modules),
        "builtins": list(shadowed),
    }
    allowed = frozenset({*functions, *shadowed, *([entry_point] if entry_point else [])})
    return json.dumps(spec), allowed, frozenset(modules)


def check_function(
    problem: Problem,
    code: str,
    runner: sandbox.Runner,
    limits: sandbox.Limits,
    *,
    warm: bool = True,
    reuse: bool = True,
) -> Outcome:
    """Run `problem`'s checks against `code` (the completion) in two boxes; see the module.

    `warm`: both processes fork from warm zygotes (codelog.execution.zygote), each in a box of
    its own as cold; where that cannot work, or a zygote is lost mid-run (a candidate that
    kills its zygote), the checks run cold, and the cold run's outcome is the verdict. A warm
    checker that gave a clean verdict is kept for the same problem's next program (`reuse`):
    each program's checks run in a namespace of their own, and a kept checker's word other
    than pass, a failed check or the candidate's own failure is checked again afresh."""
    spec, allowed, modules = _checks(
        problem.code_prompt or "", problem.test_code or "", problem.entry_point
    )
    per_test, limits = limits, run_limits(limits, len(problem.tests))
    program = problem.program(code)
    if problem.setup_code:
        program += problem.setup_code + "\n"
    python = runner.run_argv[0]
    candidate_argv = (python, "-S", "-c", CANDIDATE, runner.source_name)
    checker_argv = (python, "-S", "-I", "-c", CHECKER)
    checker_limits = replace(  # a test's, not the run's: the kept checker's key
        per_test,
        time_ms=_CHECKER_TIME_MS,
        memory_kb=max(limits.memory_kb, _CHECKER_MEMORY_KB),
        wall_ms=None,
    )
    cfiles = {runner.source_name: program}
    kfiles = {"problem.json": spec}
    why = ""
    if warm:
        cwarm, why = zygote.available(candidate_argv, runner.readable, limits)
        if cwarm is not None:
            key = (checker_argv, runner.readable, checker_limits)
            kept = _kept.take(key if reuse else None)  # not reused: the kept one is closed
            kwarm, kwhy = (
                (kept.box.box, "")
                if kept is not None
                else zygote.available(checker_argv, runner.readable, checker_limits)
            )
            why = why or kwhy
            still: _Checker | None = None
            if kwarm is not None:
                try:
                    outcome, still, doubt = _broker(
                        _Warm(cwarm, candidate_argv, limits, cfiles, runner.source_name),
                        _Warm(kwarm, checker_argv, checker_limits, kfiles),
                        limits,
                        per_test,
                        allowed,
                        modules,
                        checker=kept,
                        keep=reuse,
                        spec=kfiles["problem.json"],
                    )
                    if not doubt:
                        return outcome
                except _Lost:
                    why = "a warm zygote was lost mid-run"
                finally:
                    zygote.release(cwarm)
                    if still is not None:
                        _kept.put(key, still)
                    else:
                        zygote.release(kwarm)
                if not why:  # a reused checker's word in doubt: a fresh checker's decides
                    return check_function(problem, code, runner, per_test, warm=True, reuse=False)
            else:
                zygote.release(cwarm)
    with (
        sandbox.sandboxed(
            candidate_argv, limits, files=cfiles, readable=runner.readable, own_usage=True
        ) as cbox,
        sandbox.sandboxed(
            checker_argv, checker_limits, files=kfiles, readable=runner.readable
        ) as kbox,
    ):
        outcome, _, _ = _broker(_Cold(cbox), _Cold(kbox), limits, per_test, allowed, modules)
    if why:
        start = f"cold ({why})"
        outcome = replace(
            outcome,
            candidate=replace(
                outcome.candidate, isolation=replace(outcome.candidate.isolation, start=start)
            ),
        )
    return outcome


class _KeptChecker:
    """The warm checker this process keeps between programs (one, for checks of its limits:
    `key`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._checker: _Checker | None = None
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:  # a forked worker must not use its parent's
        self._key, self._checker = None, None

    def take(self, key: tuple | None) -> _Checker | None:
        """The kept checker of `key` (its argv, files readable, limits; it is the caller's
        until `put`), or None; one of another key (None: any) is closed."""
        with self._lock:
            old_key, checker = self._key, self._checker
            self._key, self._checker = None, None
        if checker is not None and not zygote.alive(checker.box.box):
            return None  # its box was torn down (zygote.close_all)
        if checker is None or old_key == key:
            return checker
        with contextlib.suppress(_Lost, OSError):
            checker.close(checker.box.limits, time.monotonic())
        zygote.release(checker.box.box)
        return None

    def put(self, key: tuple, checker: _Checker) -> None:
        with self._lock:
            self._key, self._checker = key, checker


_kept = _KeptChecker()


class _Lost(Exception):
    """A warm zygote died or stopped answering during a run: run it all again cold."""


class _Cold:
    """A box's process, started from a fresh interpreter (sandbox.sandboxed)."""

    def __init__(self, box: sandbox.Box):
        self.box = box

    def start(self, stdin: int | None = None):
        """The process; `stdin`: an fd it reads (the checker's socket), else a pipe to it."""
        import subprocess

        pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        return self.box.popen(stdin=subprocess.PIPE if stdin is None else stdin, **pipes)

    def reap(self, proc, limits, stderr, start, deadline, timed_out, exceeded) -> sandbox.Run:
        """Wait for the process (killing it past the deadline) and describe its run."""
        box = self.box
        _close(proc.stdout)  # a process still writing answers gets EPIPE instead of blocking
        status = None if (timed_out or exceeded) else sandbox._wait(proc.pid, deadline)
        killed = status is None
        if status is None:
            status = sandbox._kill(proc.pid, box.uid)
        _, wait_status, usage = status
        proc.returncode = os.waitstatus_to_exitcode(wait_status)
        own = box.usage()
        if own is not None:  # the candidate's own figures, as a warm run's zygote reports them
            code = os.waitstatus_to_exitcode(own[0])
            cpu_ms, rss_kb = own[1], own[2]
        else:
            code = proc.returncode
            cpu_ms = int((usage.ru_utime + usage.ru_stime) * 1000)
            rss_kb = int(usage.ru_maxrss)
            # The exec helper was killed before it reported: this rusage is the wrappers',
            # and when the CPU rlimit ended the program (SIGXCPU; the wrappers exit 128 + the
            # signal), only the signal says it was a time limit.
            if code in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
                timed_out = True
        rss_kb, hit = sandbox.accounting.peak(box.cgroup, rss_kb, limits.memory_kb)
        return _described(
            code,
            killed,
            cpu_ms,
            rss_kb,
            hit,
            limits,
            stderr,
            start,
            timed_out,
            exceeded,
            box.isolation,
        )


class _Warm:
    """A box's process, forked from a warm zygote (codelog.execution.zygote)."""

    def __init__(
        self,
        box: zygote.Box,
        argv,
        limits: sandbox.Limits,
        files: dict[str, str],
        compile: str | None = None,
    ):
        self.box, self.argv, self.limits, self.files = box, argv, limits, files
        self.compile = compile  # the program's file: the run compiles it first and says

    def start(self, stdin: int | None = None):
        proc = zygote.spawn(
            self.box, self.argv, self.limits, self.files, stdin, compile=self.compile
        )
        if proc is None:
            raise _Lost
        return proc

    def reap(self, proc, limits, stderr, start, deadline, timed_out, exceeded) -> sandbox.Run:
        _close(proc.stdout)
        report = None if (timed_out or exceeded) else proc.wait(deadline)
        killed = False
        if report is None:
            if proc.lost:
                raise _Lost
            report, killed = proc.kill(), True
            if report is None:
                raise _Lost
        code = os.waitstatus_to_exitcode(int(report["status"]))
        rss_kb, hit = zygote.memory(self.box, int(report["rss_kb"]), limits)
        run = _described(
            code,
            killed or bool(report["killed"]),
            int(report["cpu_ms"]),
            rss_kb,
            hit,
            limits,
            stderr,
            start,
            timed_out,
            exceeded,
            self.box.isolation,
        )
        return replace(run, **zygote.compile_word(report))


def _described(
    code: int,
    killed: bool,
    cpu_ms: int,
    rss_kb: int,
    memory_limit_hit: bool,
    limits: sandbox.Limits,
    stderr: _Drain,
    start: float,
    timed_out: bool,
    exceeded: bool,
    isolation: sandbox.Isolation,
) -> sandbox.Run:
    err = stderr.collected()
    return sandbox.Run(
        exit_code=None if killed else code,
        stdout=b"",
        stderr=err[: limits.output_bytes + 1],
        cpu_ms=cpu_ms,
        wall_ms=int((time.monotonic() - start) * 1000),
        memory_kb=rss_kb,
        timed_out=timed_out or cpu_ms > limits.time_ms,
        output_exceeded=exceeded or len(err) > limits.output_bytes,
        survivors=0,
        isolation=isolation,
        memory_limit_hit=memory_limit_hit,
    )


class _Lines:
    """Lines from a pipe, with a deadline; past `cap` bytes without a newline: too long."""

    def __init__(self, fd: int, cap: int):
        self.fd, self.cap, self.buf = fd, cap, b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(fd, selectors.EVENT_READ)

    def readline(self, deadline: float) -> bytes | None:
        """A line; None at end of file; raises TimeoutError past the deadline, OverflowError
        past the cap."""
        while b"\n" not in self.buf:
            if len(self.buf) > self.cap:
                raise OverflowError
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.selector.select(remaining):
                raise TimeoutError
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def close(self) -> None:
        self.selector.close()


class _Drain:
    """A stream read to its end (by this process's `_drainer`), keeping the first `cap` + 1
    bytes."""

    def __init__(self, stream, cap: int):
        self.stream, self.cap, self.size = stream, cap, 0
        self.chunks: list[bytes] = []
        self.ended = threading.Event()
        _drainer.add(self)

    def feed(self, chunk: bytes) -> None:
        if self.size <= self.cap:
            self.chunks.append(chunk[: self.cap + 1 - self.size])
        self.size += len(chunk)

    def collected(self, timeout: float = 1.0) -> bytes:
        """All of it, once the process has exited: the drainer may still be reading the last
        bytes the process wrote (a warm run's exit is reported by its zygote, not by EOF)."""
        self.ended.wait(timeout)
        return b"".join(self.chunks)


class _Drainer:
    """One thread per process reads every stream a run's stderr is drained from, to its end:
    a thread started and joined per run cost ~0.3 ms, a tenth of a warm sample's judging."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._forget()
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:  # a forked child starts its own (the thread is not forked)
        self._epoll: select.epoll | None = None
        self._drains: dict[int, _Drain] = {}

    def add(self, drain: _Drain) -> None:
        fd = drain.stream.fileno()
        with self._lock:
            if self._epoll is None:
                self._epoll = select.epoll()
                threading.Thread(
                    target=self._run, args=(self._epoll,), daemon=True, name="codelog-drain"
                ).start()
            self._drains[fd] = drain
            try:
                self._epoll.register(fd, select.EPOLLIN)
            except FileExistsError:  # the number of a stream closed before its end: reused
                self._epoll.modify(fd, select.EPOLLIN)

    def _run(self, epoll: select.epoll) -> None:
        while True:
            for fd, _ in epoll.poll():
                with self._lock:
                    drain = self._drains.get(fd)
                if drain is None:
                    continue
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    chunk = b""
                if chunk:
                    drain.feed(chunk)
                    continue
                with self._lock:
                    del self._drains[fd]
                    epoll.unregister(fd)
                drain.ended.set()


_drainer = _Drainer()


class _Checker:
    """A checker process and its streams: for one program (cold), or for many in a row (warm:
    `_kept`). Its input is a socket: each program comes with the candidate's pipes, which the
    checker then talks to itself (its calls, the candidate's answers), and its verdicts come
    back on its stdout."""

    def __init__(self, box: _Cold | _Warm):
        self.box = box
        self.programs, theirs = socket.socketpair()
        try:
            self.proc = box.start(stdin=theirs.fileno())
        except BaseException:
            self.programs.close()
            raise
        finally:
            theirs.close()
        self.err = _Drain(self.proc.stderr, 1 << 20)
        self.verdicts = _Lines(self.proc.stdout.fileno(), _LINE_CAP)
        self.checked = 0  # programs it has checked
        self.spec = getattr(box, "files", {}).get("problem.json", "")  # the problem it holds

    def send(self, message: dict, candidate) -> bool:
        """Hand it a program: `message` and the candidate's pipes (its calls, its answers)."""
        try:
            socket.send_fds(
                self.programs, [b"P"], [candidate.stdin.fileno(), candidate.stdout.fileno()]
            )
            self.programs.sendall((json.dumps(message) + "\n").encode())
        except OSError:
            return False
        return True

    def close(self, limits: sandbox.Limits, start: float) -> None:
        """End its input, wait for it to exit (killing it past a second) and reap it."""
        self.verdicts.close()
        self.programs.close()
        self.box.reap(self.proc, limits, self.err, start, time.monotonic() + 1, False, False)


# What a checker that has checked other programs before may say and be believed: its clean
# verdicts, and the candidate's own failures. Anything else (its own error, no verdict) is
# checked again by a fresh checker, so no program's verdict depends on the ones before it.
_REUSED_BELIEVED = frozenset({"pass", "assert", "gone"})
_CHECKS_PER_CHECKER = 256  # then a fresh one: its CPU rlimit spans every check it makes


def _broker(
    cbox: _Cold | _Warm,
    kbox: _Cold | _Warm,
    limits: sandbox.Limits,
    per_test: sandbox.Limits,
    allowed: frozenset[str],
    values: frozenset[str],
    *,
    checker: _Checker | None = None,
    keep: bool = False,
    spec: str = "",
) -> tuple[Outcome, _Checker | None, bool]:
    """Run the checks: `limits` are the candidate's for the whole run (`run_limits`), and its
    load and each call have one test's (`per_test`); `allowed` names the candidate's functions
    they may call, `values` the names whose values they may read (when the candidate's program
    defines them); the checker holds both (its problem), and asks the candidate itself.

    `checker`: a live checker to use (else one is started in `kbox` once the candidate is
    ready); it is sent `spec` (the problem, as problem.json) when it holds another. `keep`: a
    checker that ends with a clean verdict is left running for the next program. Returns (the outcome, the checker kept or None, whether the
    outcome came from a reused checker that may not be believed: check again afresh)."""
    start = time.monotonic()
    # The candidate's wall clock runs while it loads and while it answers, not while codelog
    # starts the checker or the checks think: two interpreters start here, not one.
    budget = _Budget(limits.wall_s)
    cand = cbox.start()
    cerr = _Drain(cand.stderr, limits.output_bytes)
    answers = _Lines(cand.stdout.fileno(), _LINE_CAP)
    calls = 0
    verdict, detail = "judge-error", ""
    by_candidate = reused = clean = False
    timed_out = exceeded = False
    late = ""  # which call (or the load) ran past its test's limit
    used = False  # the checker took this program
    try:
        try:  # its load is a test's run: APPS's harness times the import as one test
            ready = answers.readline(budget.start(per_test.wall_s))
        except TimeoutError:
            ready, timed_out = None, True
        except OverflowError:
            ready, exceeded = None, True
        budget.stop()
        hello = _json_or_none(ready) if ready is not None else None
        defined = hello.get("names") if isinstance(hello, dict) else None
        loaded_cpu = hello.get("cpu") if isinstance(hello, dict) else None
        if type(loaded_cpu) in (int, float) and loaded_cpu * 1000 > per_test.time_ms:
            timed_out = True
            late = f"its load: {loaded_cpu * 1000:.0f} ms of CPU, over the test's"
            late += f" {per_test.time_ms} ms"
        if timed_out or not isinstance(hello, dict) or hello.get("ready") is not True:
            verdict = "timeout" if timed_out else "output" if exceeded else "not-ready"
        else:
            if checker is None:
                checker = _Checker(kbox)
            reused, used = checker.checked > 0, True
            # what the checks may take from the program: the names they use that it defines
            defined = defined if isinstance(defined, dict) else {}
            names = {
                n: k
                for n, k in defined.items()
                if isinstance(k, str) and (n in values or (n in allowed and k == "call"))
            }
            # the candidate's time left goes with it, and a test's limits for each call: the
            # checker times it while it answers
            message: dict = {
                "names": names,
                "left": budget.left,
                "cap": _LINE_CAP,
                "per_call": [per_test.wall_s, per_test.time_ms / 1000],
            }
            if spec and checker.spec != spec:
                message["spec"] = json.loads(spec)
                checker.spec = spec
            checker.send(message, cand)
            # the checker is not timed, but it cannot run for ever
            checker_deadline = time.monotonic() + limits.wall_s + _CHECKER_WALL_S
            try:
                line = checker.verdicts.readline(checker_deadline)
            except (TimeoutError, OverflowError):
                line, detail = None, "the checks did not finish"
            said = _json_or_none(line) if line is not None else None
            if not isinstance(said, dict) or "verdict" not in said:
                detail = detail or "the checks ended without a verdict: " + _tail(
                    [checker.err.collected(0.1 if reused else 1.0)]
                )
            else:
                verdict = str(said["verdict"])
                detail = str(said.get("detail", ""))
                by_candidate = said.get("candidate") is True
                clean = verdict in ("pass", "assert")
                # the checker's account of the candidate: taken only as numbers and flags
                calls = said["calls"] if type(said.get("calls")) is int else 0
                if type(said.get("left")) in (int, float):
                    budget.left = said["left"]
                timed_out = said.get("timed_out") is True
                exceeded = said.get("exceeded") is True
                if timed_out and isinstance(said.get("late"), str):
                    late = said["late"]
            checker.checked += 1
    finally:
        answers.close()
        _close(cand.stdin)
        kept = checker if keep and (clean or not used) else None
        kept = kept if kept is None or kept.checked < _CHECKS_PER_CHECKER else None
        # past a verdict the candidate only has to exit: a slow exit is not a time limit
        exit_by = time.monotonic() + max(budget.left, 0) + 2
        reaped = False
        try:
            crun = cbox.reap(cand, limits, cerr, start, exit_by, timed_out, exceeded)
            reaped = True
        finally:
            if checker is not None and (kept is None or not reaped):
                kept = None  # not kept past a failure of its own or of the candidate's box
                checker.close(limits, start)
    if crun.timed_out and verdict in ("gone", "not-ready", "timeout", "judge-error"):
        verdict = "timeout"
    if verdict == "timeout":
        detail = late
    doubt = reused and not (verdict in _REUSED_BELIEVED or by_candidate or crun.timed_out)
    return Outcome(verdict, detail, crun, calls), kept, doubt


class _Budget:
    """Wall-clock seconds the candidate has left, spent only between start() and stop()."""

    def __init__(self, seconds: float):
        self.left = seconds
        self.began: float | None = None

    def start(self, most: float) -> float:
        """The deadline of what starts now, at most `most` seconds away."""
        self.began = time.monotonic()
        return self.began + min(self.left, most)

    def stop(self) -> None:
        if self.began is not None:
            self.left -= time.monotonic() - self.began
            self.began = None


def _json_or_none(line: bytes):
    try:
        return json.loads(line)
    except (ValueError, RecursionError):  # a candidate's answer nested 100,000 deep
        return None


def _close(stream) -> None:
    with contextlib.suppress(OSError):
        stream.close()


def _tail(chunks: list[bytes], limit: int = 300) -> str:
    text = b"".join(chunks).decode("utf-8", "replace").strip()
    return text if len(text) <= limit else "..." + text[-limit:]


Checker = Callable[[Problem, str, sandbox.Runner, sandbox.Limits], Outcome]
