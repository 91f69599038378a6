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

Values cross as data only (`ENCODING`: JSON with tags for tuple, set, frozenset, dict with any
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
from codelog.execution.testcases import Problem
from codelog.execution.zygote import PRELUDE_END

# The value encoding, one source for both processes (and for codelog's tests of it).
ENCODING = r"""
import builtins as _builtins
import collections as _collections
import json as _json

# How a value that is not data crosses (an instance of the program's class, a function): the
# candidate keeps it and sends a number ({"ref": n}); the checker holds an opaque handle that
# compares equal to nothing but itself, and sends it back as the same number. Set per process.
_keep = None  # value -> n (the candidate's)
_ref = None  # n -> value (the candidate: its kept value; the checker: its handle)


def _builtin_type(x):
    return type(x) is type and getattr(_builtins, x.__name__, None) is x


def _enc(x):
    t = type(x)
    if x is None or t is bool or t is str:
        return x
    if t is int:  # past str()'s 4,300 digits (APPS's tests hold some) in hex, which has no limit
        return x if x.bit_length() < 14000 else {"int": hex(x)}
    if t is float:
        return {"float": repr(x)}
    if t is list:
        return [_enc(v) for v in x]
    if t is tuple:
        return {"tuple": [_enc(v) for v in x]}
    if t is dict:
        return {"dict": [[_enc(k), _enc(v)] for k, v in x.items()]}
    if t is set:
        return {"set": [_enc(v) for v in x]}
    if t is frozenset:
        return {"frozenset": [_enc(v) for v in x]}
    if t is bytes:
        return {"bytes": x.hex()}
    if t is complex:
        return {"complex": [repr(x.real), repr(x.imag)]}
    if t is _collections.Counter:
        return {"Counter": [[_enc(k), _enc(v)] for k, v in x.items()]}
    if t is _collections.OrderedDict:
        return {"OrderedDict": [[_enc(k), _enc(v)] for k, v in x.items()]}
    if t is _collections.defaultdict:
        factory = x.default_factory
        name = factory.__name__ if factory is not None and _builtin_type(factory) else None
        return {"defaultdict": [name, [[_enc(k), _enc(v)] for k, v in x.items()]]}
    if t is _collections.deque:
        return {"deque": [_enc(v) for v in x]}
    if _builtin_type(x):  # int, str, ... passed as an argument (MBPP's remove_datatype)
        return {"type": x.__name__}
    if _keep is not None:
        return {"ref": _keep(x)}
    raise TypeError(
        "a value of type %s cannot cross to the checks: only None, bool, int, float, str, "
        "bytes, complex, list, tuple, dict, set, frozenset, Counter, OrderedDict, "
        "defaultdict, deque, a builtin type" % t.__name__
    )


def _dec(x):
    t = type(x)
    if x is None or t is bool or t is int or t is str:
        return x
    if t is list:
        return [_dec(v) for v in x]
    if t is dict and len(x) == 1:
        ((tag, v),) = x.items()
        if tag == "float" and type(v) is str:
            return float(v)
        if tag == "int" and type(v) is str:
            return int(v, 16)
        if tag == "tuple" and type(v) is list:
            return tuple(_dec(i) for i in v)
        if tag == "dict" and type(v) is list:
            return {_dec(k): _dec(i) for k, i in v}
        if tag == "set" and type(v) is list:
            return {_dec(i) for i in v}
        if tag == "frozenset" and type(v) is list:
            return frozenset(_dec(i) for i in v)
        if tag == "bytes" and type(v) is str:
            return bytes.fromhex(v)
        if tag == "complex" and type(v) is list and len(v) == 2:
            return complex(float(v[0]), float(v[1]))
        if tag in ("Counter", "OrderedDict") and type(v) is list:
            return getattr(_collections, tag)({_dec(k): _dec(i) for k, i in v})
        if tag == "defaultdict" and type(v) is list and len(v) == 2:
            factory = getattr(_builtins, v[0]) if type(v[0]) is str else None
            if factory is not None and not _builtin_type(factory):
                raise ValueError("not an encoded value")
            return _collections.defaultdict(factory, ((_dec(k), _dec(i)) for k, i in v[1]))
        if tag == "deque" and type(v) is list:
            return _collections.deque(_dec(i) for i in v)
        if tag == "type" and type(v) is str and _builtin_type(getattr(_builtins, v, None)):
            return getattr(_builtins, v)
        if tag == "ref" and type(v) is int and _ref is not None:
            return _ref(v)
    raise ValueError("not an encoded value")
"""

# The candidate: load the program, then answer calls. Its own prints go to stderr; the answer
# channel is a copy of the original stdout.
CANDIDATE = (
    ENCODING
    + r"""
import os as _os
import sys as _sys
import builtins as _b
import time as _time

_kept = []
# the CPU time each call takes, sent with its answer: the checker holds it to the test's limit
_cpu = _time.process_time


def _keep(x):
    _kept.append(x)
    return len(_kept) - 1


def _ref(n):
    return _kept[n]


def _kind(v):
    if type(v).__name__ == "module" and isinstance(getattr(v, "__name__", None), str):
        return "module:" + v.__name__
    return "call" if callable(v) else "value"


"""
    + PRELUDE_END
    + r"""_b.exit = _b.quit = _sys.exit
_answers = _os.fdopen(_os.dup(1), "wb")  # bytes: JSON lines are ASCII
_calls = _os.fdopen(_os.dup(0), "rb")
_os.dup2(2, 1)
_null = _os.open(_os.devnull, _os.O_RDONLY)
_os.dup2(_null, 0)
_sys.argv = _sys.argv[1:]
# a warm run compiled the source already, before any of it ran (zygote.spawn's `compile`)
_c = globals().pop("_codelog_code", None)
if _c is None:
    with open(_sys.argv[0], "rb") as _f:
        _s = _f.read()
    try:
        _c = compile(_s, _sys.argv[0], "exec", 0, 1)
    except (SyntaxError, ValueError, TypeError):
        import traceback as _t

        _e = _sys.exc_info()
        _sys.stderr.write("".join(_t.format_exception_only(_e[0], _e[1])))
        _sys.exit(1)
_g = {"__name__": "__main__", "__file__": _sys.argv[0], "__builtins__": _b}
exec(_c, _g)
_names = {k: _kind(v) for k, v in list(_g.items()) if type(k) is str and k[:2] != "__"}
_ready = {"ready": True, "names": _names, "cpu": _cpu()}
_answers.write(_json.dumps(_ready).encode() + b"\n")
_answers.flush()
for _line in _calls:
    _began = _cpu()
    try:
        _req = _json.loads(_line)
        if "get" in _req:
            _reply = {"value": _enc(_g[_req["get"]])}
            _answers.write(_json.dumps(_reply).encode() + b"\n")
            _answers.flush()
            continue
        _owner, _dot, _method = _req["call"].partition(".")
        # "Solution.twoSum": LeetCode's form, a method of a fresh instance (as APPS calls it)
        _fn = getattr(_g[_owner](), _method) if _dot else _g[_owner]
        _reply = {"value": _enc(_fn(*_dec(_req["args"]), **_dec(_req["kwargs"])))}
    except BaseException as _x:
        _reply = {"raise": [type(_x).__name__, str(_x)[:500]]}
    _reply["cpu"] = _cpu() - _began
    _answers.write(_json.dumps(_reply).encode() + b"\n")
    _answers.flush()
_os._exit(0)
"""
)

# The checker: the problem's code with proxies for the candidate's functions. Its verdict is
# its last line on the original stdout; the test code's own prints go to stderr.
CHECKER = (
    ENCODING
    + r'''
import builtins
import importlib
import os
import select
import socket
import sys
import time
import traceback



class CandidateGone(BaseException):
    """The candidate stopped answering (it exited, was killed, or sent nonsense)."""


class CandidateRaised(Exception):
    pass


_NOT_DATA = {"raise": ["RuntimeError", "the candidate's answer is not data"]}

# What the exchange with the candidate and the verdict use, bound before any check runs: checks
# that replace json.dumps, time.monotonic or len change neither how the candidate is timed and
# heard nor how the verdict is written.
_dumps, _loads, _len = _json.dumps, _json.loads, len
_monotonic, _select = time.monotonic, select.select


class _Candidate:
    """The candidate of one program, as codelog hands it over with the program: a pipe to its
    calls and one from its answers. Its wall clock runs only while it answers (`left`
    seconds in all); each call has a test's limits (`per_call`: wall seconds, CPU seconds as
    the candidate measures them); an answer longer than `cap` bytes ends it (an output
    limit)."""

    def __init__(self, fds, left, cap, per_call):
        self.calls_fd, self.answers_fd = fds
        os.set_blocking(self.calls_fd, False)
        self.left, self.cap = left, cap
        self.call_wall, self.call_cpu = per_call
        self.buf = b""
        self.calls = 0
        self.timed_out = self.exceeded = False
        self.late = ""  # which call ran out of its test's time, and how

    def ask(self, request):
        """Its answer line to `request` (bytes, a line without its end), or None: it is gone,
        out of time or past the cap. A candidate that stops reading its calls runs out of
        time too: the pipe is written without blocking."""
        self.calls += 1
        began = _monotonic()
        deadline = began + min(self.left, self.call_wall)
        try:
            data = memoryview(request + b"\n")
            while data:
                if not self._ready([], [self.calls_fd], deadline):
                    return None
                try:
                    data = data[os.write(self.calls_fd, data) :]
                except BlockingIOError:
                    pass
            return self._line(deadline)
        except OSError:  # it exited: its end of the pipe is closed
            return None
        finally:
            took = _monotonic() - began
            self.left -= took
            if self.timed_out and not self.late:
                self.late = "call %d: past %.1f s of wall clock" % (self.calls, took)

    def spent(self, cpu):
        """Whether a call's CPU time (seconds, its answer's "cpu") is within its test's limit;
        past it the candidate is out of time."""
        if (type(cpu) is int or type(cpu) is float) and cpu > self.call_cpu:
            self.timed_out = True
            self.late = "call %d: %d ms of CPU, over the test's %d ms" % (
                self.calls,
                cpu * 1000,
                self.call_cpu * 1000,
            )
            return False
        return True

    def _ready(self, reading, writing, deadline):
        remaining = deadline - _monotonic()
        if remaining <= 0 or not any(_select(reading, writing, [], remaining)[:2]):
            self.timed_out = True
            return False
        return True

    def _line(self, deadline):
        while True:
            end = self.buf.find(b"\n")
            if end >= 0:
                line, self.buf = self.buf[:end], self.buf[end + 1 :]
                return line
            if _len(self.buf) > self.cap:
                self.exceeded = True
                return None
            if not self._ready([self.answers_fd], [], deadline):
                return None
            chunk = os.read(self.answers_fd, 1 << 16)
            if not chunk:
                return None
            self.buf += chunk

    def close(self):
        for fd in (self.calls_fd, self.answers_fd):
            try:
                os.close(fd)
            except OSError:
                pass

    def report(self):
        return {
            "calls": self.calls,
            "left": self.left,
            "timed_out": self.timed_out,
            "exceeded": self.exceeded,
            "late": self.late,
        }


_candidate = None  # the program being checked: its _Candidate


def _exchange(request):
    """A request to the candidate, on the pipes codelog handed over with the program; its
    reply (a dict). Only the names the checks use may be asked for. The candidate's line is
    read as data or not: anything but {"value": ...} or {"raise": ...} is not data."""
    if "get" in request:
        name, legal = request["get"], spec["modules"]
    else:
        name, legal = request["call"], _callable
    if name not in legal:
        return {"raise": ["NameError", "name %r is not defined" % (name,)]}
    line = _candidate.ask(_dumps(request).encode())
    if line is None:
        raise CandidateGone()
    try:
        reply = _loads(line)
    except (ValueError, RecursionError):  # an answer nested 100,000 deep
        return _NOT_DATA
    if type(reply) is not dict:
        return _NOT_DATA
    if not _candidate.spent(reply.pop("cpu", None)):
        raise CandidateGone()
    keys = set(reply)
    return reply if keys == {"value"} or keys == {"raise"} else _NOT_DATA


def _call(name, args, kwargs):
    reply = _exchange({"call": name, "args": _enc(list(args)), "kwargs": _enc(kwargs)})
    if "raise" in reply:
        kind, message = reply["raise"]
        found = getattr(builtins, str(kind), None)
        if isinstance(found, type) and issubclass(found, Exception):
            try:
                exc = found(message)
            except Exception:
                exc = CandidateRaised("%s: %s" % (kind, message))
        else:
            exc = CandidateRaised("%s: %s" % (kind, message))
        _raised_by_candidate.append(exc)
        raise exc
    return _dec(reply["value"])


# The candidate's own exceptions, as re-raised here: an AssertionError among them is the
# candidate failing (a runtime error), not a check failing (a wrong answer).
_raised_by_candidate = []


def _proxy(name):
    def candidate(*args, **kwargs):
        return _call(name, args, kwargs)

    candidate.__name__ = candidate.__qualname__ = name
    return candidate


class _Handle:
    """A value of the candidate's that is not data: equal to nothing but itself here."""

    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return "<a value of the candidate's, not data>"

    def __bool__(self):
        # its own __bool__ would decide in the candidate's box: no answer here
        raise TypeError("a value of the candidate's that is not data has no truth value")


_handles = {}


def _ref(n):
    return _handles.setdefault(n, _Handle(n))


def _keep(x):
    if type(x) is _Handle:
        return x.n
    raise TypeError("a value of type %s cannot cross to the candidate" % type(x).__name__)


def _get(name):
    reply = _exchange({"get": name})
    if "raise" in reply:
        raise CandidateRaised("%s: %s" % tuple(reply["raise"]))
    return _dec(reply["value"])


'''
    + PRELUDE_END
    + r"""verdicts = os.fdopen(os.dup(1), "w")
# codelog's socket: each program comes as one byte carrying the candidate's two pipes, then a
# JSON line; a closed socket: no more programs
programs = socket.socket(fileno=os.dup(0))
os.dup2(2, 1)
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
with open("problem.json") as f:
    spec = _json.load(f)


def _callable_names():
    # the candidate's functions the checks may call (codelog's harness.check_function)
    entry = [spec["entry_point"]] if spec["entry_point"] else []
    return frozenset(spec["functions"] + spec["builtins"] + entry)


_callable = _callable_names()


def _programs():
    while True:
        head, fds, _, _ = socket.recv_fds(programs, 1, 2)
        if not head or len(fds) != 2:
            return
        line = b""
        while not line.endswith(b"\n"):
            chunk = programs.recv(1 << 16)
            if not chunk:
                return
            line += chunk
        yield _loads(line), fds
_code = {}  # the problem's code compiled once: a warm checker checks many programs in a row


def _compiled(text, name):
    code = _code.get((text, name))
    if code is None:
        code = _code[text, name] = compile(text, name, "exec")  # a failure: not kept
    return code


def _by_candidate(exc):
    return any(exc is e for e in _raised_by_candidate)


def _check(names):
    # one program's checks, in a namespace of their own; `names`: what its program defines
    # that the checks use
    del _raised_by_candidate[:]
    _handles.clear()
    g = {"__name__": "__main__", "__builtins__": builtins}
    verdict = {"verdict": "pass"}
    try:
        prompt = spec["prompt"]
        if prompt:
            for text in (prompt, prompt + "    pass\n"):  # "def f(x):\n" alone needs a body
                try:
                    code = _compiled(text, "prompt.py")
                except SyntaxError:
                    continue
                exec(code, g)
                break
        for name in spec["modules"]:
            kind = names.get(name)
            if kind is None or kind.startswith("module:"):  # the checker imports its own copy
                try:
                    g[name] = importlib.import_module(kind[7:] if kind else name)
                except ImportError:
                    pass
            else:  # a value of the program's (MBPP 927's tree `root`): data, or a handle
                g[name] = _get(name)
        # the checks may call the function by its name too (HumanEval/33 does)
        for name in spec["functions"] + ([spec["entry_point"]] if spec["entry_point"] else []):
            g[name] = _proxy(name)
        for name in spec["builtins"]:  # a builtin the program redefines and the checks test
            if names.get(name) == "call":
                g[name] = _proxy(name)
        exec(_compiled(spec["test"], "test.py"), g)
        if spec["entry_point"]:
            g["check"](_proxy(spec["entry_point"]))
    except CandidateGone:
        verdict = {"verdict": "gone"}
    except AssertionError as exc:
        failed = "error" if _by_candidate(exc) else "assert"
        verdict = {"verdict": failed, "detail": traceback.format_exc(limit=-2)}
    except BaseException as exc:
        verdict = {"verdict": "error", "detail": traceback.format_exc(limit=-2)}
        if _by_candidate(exc):
            verdict["candidate"] = True
    return verdict


# What the checks may change in this process, as it is before any: put back after each, so
# one problem's checks leave nothing to the next (a warm checker checks many programs)
_base = set(sys.modules)
_saved = {n: (m, dict(m.__dict__)) for n, m in sys.modules.items() if hasattr(m, "__dict__")}
_limit = sys.getrecursionlimit()


def _restore():
    for name in set(sys.modules) - _base:  # modules the checks imported: afresh next time
        del sys.modules[name]
    for name, (module, saved) in _saved.items():
        sys.modules[name] = module
        found = module.__dict__
        if found != saved:  # identity first: cheap when nothing changed
            for key in [k for k in found if k not in saved]:
                del found[key]
            for key, value in saved.items():
                if found.get(key) is not value:
                    found[key] = value
    sys.setrecursionlimit(_limit)


# One program's checks for each message codelog sends (the candidate's pipes, the names of its
# program, its time left, and the problem when it changes): a cold checker gets one, a warm
# one many in a row (codelog starts a fresh one after anything but a clean verdict). A closed
# socket: done.
for _message, _fds in _programs():
    if "spec" in _message:
        spec = _message["spec"]
        _callable = _callable_names()
        if len(_code) > 256:
            _code.clear()
    _candidate = _Candidate(_fds, _message["left"], _message["cap"], _message["per_call"])
    try:
        _verdict = _check(_message["names"])
    finally:
        _candidate.close()  # its calls end: it exits
    _verdict.update(_candidate.report())
    verdicts.write(_dumps(_verdict) + "\n")
    verdicts.flush()
    try:
        _restore()
    except BaseException:  # what the checks left cannot be put back: no next program here
        os._exit(1)
os._exit(0)
"""
)

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
