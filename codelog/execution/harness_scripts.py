"""The two programs of a function problem's run (codelog.execution.harness), as source text each
box's interpreter runs with `-c`: the **candidate** (the prompt + completion, then a function call
answered per line) and the **checker** (the problem's own code and checks, with proxies for the
candidate's functions). Both start with `ENCODING`, the one definition of how values cross between
them (and codelog's tests of it), and `PRELUDE_END` (codelog.execution.zygote) marks where a warm
box's prelude ends and the program's own part begins.

Kept apart from the host side (harness.py: the boxes, the broker, the verdicts) because they run in
other interpreters: nothing here is imported by them, and nothing here runs in codelog's process.
"""

from __future__ import annotations

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
