"""How each language's programs are built and started (`Runner`), and the Python bootstrap."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass, replace

from codelog.execution.sandbox.host import install_prefix, real_python
from codelog.execution.sandbox.limits import Limits, SandboxError

# Python programs start through this bootstrap (valid Python 2 and 3): `-S` skips site-packages
# (a judge's interpreter has none, and site's .pth files cost more than the program), so the
# bootstrap restores what site would add that programs use (exit, quit), compiles the source
# itself and, on a syntax error, prints it exactly as the interpreter would for a script: no
# "Traceback" header. That is how a compile error is told from a SyntaxError raised at run time.
PYTHON_BOOTSTRAP = (
    "import sys\n"
    "try:\n import builtins as _b\nexcept ImportError:\n import __builtin__ as _b\n"
    "_b.exit = _b.quit = sys.exit\n"
    "sys.argv = sys.argv[1:]\n"
    # a warm run compiled the source already, before any of it ran (zygote.spawn's `compile`)
    "_c = globals().pop('_codelog_code', None)\n"
    "if _c is None:\n"
    " _f = open(sys.argv[0], 'rb')\n _s = _f.read()\n _f.close()\n"
    " try:\n  _c = compile(_s, sys.argv[0], 'exec', 0, 1)\n"
    " except (SyntaxError, ValueError, TypeError):\n"
    "  import traceback\n"
    "  _e = sys.exc_info()\n"
    "  sys.stderr.write(''.join(traceback.format_exception_only(_e[0], _e[1])))\n"
    "  sys.exit(1)\n"
    "_g = sys.modules['__main__'].__dict__\n"
    "_g['__file__'] = sys.argv[0]\n"
    "for _n in ('_b', '_f', '_s', '_e', 'sys', '_n'):\n _g.pop(_n, None)\n"
    "exec(_g.pop('_c'), _g)\n"
)

COMPILE_ERROR_NAMES = ("SyntaxError", "IndentationError", "TabError", "ValueError", "TypeError")

PYTHON2_LANGUAGES = frozenset({"Python", "Python (2.7.6)", "PyPy2 (5.6.0)", "PyPy2 (7.3.0)"})


@dataclass(frozen=True)
class Runner:
    """How one language's programs are built and started."""

    language: str  # CodeNet's name: Python, C, C++
    source_name: str
    run_argv: tuple[str, ...]
    compile_argv: tuple[str, ...] = ()  # empty: interpreted
    binary_name: str = ""  # what compile_argv writes
    readable: tuple[str, ...] = ()
    # address space a runtime reserves beyond what it uses (JVM, Go, mono, V8): added to
    # RLIMIT_AS; its run_argv caps the heap instead ({memory_mb}, {memory_kb}, {stack_kb})
    reserved_kb: int = 0
    processes: int | None = None  # a runtime's own threads need more than Limits.processes

    @property
    def compiled(self) -> bool:
        return bool(self.compile_argv)

    def argv(self, limits: Limits) -> tuple[str, ...]:
        """run_argv with the limits filled in."""
        stack_kb = limits.stack_kb or 8192
        values = {
            "memory_kb": limits.memory_kb,
            "memory_mb": max(1, limits.memory_kb // 1024),
            "stack_kb": stack_kb,
        }
        return tuple(a.format(**values) if "{" in a else a for a in self.run_argv)

    def limits(self, limits: Limits) -> Limits:
        """`limits` as this runtime takes them."""
        processes = max(limits.processes, self.processes or 0)
        return replace(limits, reserved_kb=self.reserved_kb, processes=processes)


def python_files(python: str) -> tuple[str, ...]:
    """What a Python interpreter needs mounted: the binary and its prefix's lib/ (the standard
    library, libpython and the libraries its extension modules link), not the prefix's
    share/, include/ or etc/; its site-packages are hidden in the box (bwrap.package_dirs).
    An interpreter under /usr needs nothing: the system directories are mounted."""
    prefix = install_prefix(python)
    paths = [python]
    for lib in ("lib", "lib64"):
        path = os.path.join(prefix, lib)
        if os.path.isdir(path) and not os.path.islink(path):
            paths.append(path)
    return tuple(p for p in paths if not any(p.startswith(d + "/") for d in ("/usr", "/etc")))


@functools.lru_cache(maxsize=8)
def python_runner(interpreter: str | None = None) -> Runner:
    """The runner of a Python 3 interpreter (default: the one running codelog), made once per
    process: resolving its real path and its lib/ is a tenth of a millisecond per program."""
    python = os.path.realpath(interpreter) if interpreter else real_python()
    return Runner(
        language="Python",
        source_name="Main.py",
        run_argv=(python, "-S", "-c", PYTHON_BOOTSTRAP, "Main.py"),
        readable=python_files(python),
    )


@functools.lru_cache(maxsize=1)
def find_python2() -> str | None:
    """A working Python 2 interpreter's real path: python2/python2.7 on PATH, else a pyenv
    2.7 install. A pyenv shim is asked for the interpreter it stands for (sys.executable)."""
    import glob

    candidates = [shutil.which(name) for name in ("python2", "python2.7")]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/2.7*/bin/python2.7")))
    for candidate in candidates:
        if not candidate:
            continue
        try:
            probe = subprocess.run(
                [candidate, "-c", "import sys; sys.stdout.write(sys.executable)"],
                capture_output=True,
                timeout=10,
                check=False,
                env={**os.environ, "PYTHONPATH": ""},
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        # pyenv shims exist on PATH even when no 2.7 is selected; they fail here.
        if probe.returncode == 0 and probe.stdout:
            path = os.path.realpath(probe.stdout.decode())
            check = subprocess.run(
                [path, "-c", "import sys; sys.stdout.write(str(sys.version_info[0]))"],
                capture_output=True,
                timeout=10,
                check=False,
            )
            if check.stdout == b"2":
                return path
    return None


def _compiler_runner(language: str) -> Runner | None:
    if language == "C":
        cc = shutil.which("gcc")
        if cc is None:
            return None
        # As the judges' GCC 5 did: no PIE (an undeclared function's int result, e.g. gets() under
        # C11, still holds a pointer) and common symbols (a tentative definition in two places).
        argv = (
            os.path.realpath(cc),
            "-O2",
            "-std=gnu11",
            "-no-pie",
            "-fcommon",
            "-o",
            "Main",
            "Main.c",
            "-lm",
        )
        return Runner("C", "Main.c", ("./Main",), argv, "Main")
    cxx = shutil.which("g++")
    if cxx is None:
        return None
    argv = (os.path.realpath(cxx), "-O2", "-std=gnu++17", "-no-pie", "-o", "Main", "Main.cpp")
    return Runner("C++", "Main.cpp", ("./Main",), argv, "Main")


_LANGUAGE_NAMES = {
    "python": "Python",
    "python3": "Python",
    "py": "Python",
    "c": "C",
    "c++": "C++",
    "cpp": "C++",
    "cxx": "C++",
}


def runner_language(language: str) -> str | None:
    """CodeNet's name for a language codelog can run (python -> Python, cpp -> C++), or None."""
    return _LANGUAGE_NAMES.get((language or "").strip().lower())


def runner_for(
    language: str, original_language: str | None = None, python: str | None = None
) -> Runner:
    """The runner for a program in `language` (CodeNet's names, case-insensitive).

    Python is Python 3 (the interpreter running codelog, or `python`), except that an
    `original_language` CodeNet marks as Python 2 (AIZU's bare "Python", "Python (2.7.6)",
    "PyPy2 ...") needs a Python 2 interpreter. C and C++ need gcc/g++ on PATH."""
    name = runner_language(language)
    if name == "Python":
        if original_language in PYTHON2_LANGUAGES or (original_language or "").startswith("PyPy2"):
            python2 = find_python2()
            if python2 is None:
                raise SandboxError(
                    f"no runner for {original_language} (Python 2): no python2 on PATH or "
                    "in ~/.pyenv/versions/2.7*"
                )
            return python_runner(python2)
        return python_runner(python)
    if name in ("C", "C++"):
        found = _compiler_runner(name)
        if found is None:
            raise SandboxError(
                f"no runner for {name}: {'gcc' if name == 'C' else 'g++'} is not on PATH"
            )
        return found
    raise SandboxError(
        f"no runner for {language!r}: codelog runs Python 3 (and 2 where installed), C and C++"
    )
