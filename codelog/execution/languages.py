"""One runner per language: how a program is compiled and started, and how it is given memory.

Python 2/3, C and C++ are `codelog.execution.sandbox`'s runners; this module adds the other
languages of CodeNet (Java, Ruby, C#, Go, JavaScript, Rust) and CodeContests (Java), each where
its toolchain is installed. `runner_for(language, original_language)` picks one by CodeNet's
names (`JAVA`, `C#`, `Go`, ...) or common ones (`java`, `cs`, `golang`, `js`, `rust`); a missing
toolchain raises SandboxError naming what to install, and the judge skips the program with it.

| language | compile | run | memory limit on | syntax error |
| --- | --- | --- | --- | --- |
| Java | `javac` + `jar` (class `Main`) | `java -Xmx{limit} -Xss{stack}` | the heap (-Xmx) | Compile Error |
| C# | `mcs` | `mono` | the GC heap (MONO_GC_PARAMS) | Compile Error |
| Go | `go build` (CGO off) | the binary | GOMEMLIMIT, the measured peak | Compile Error |
| Rust | `rustc -O --edition 2018` | the binary | the address space | Compile Error |
| Ruby | `ruby -c` (a check, as AtCoder's) | `ruby` | the address space | Compile Error |
| JavaScript | none (as AtCoder's Node) | `node` | V8's old space | Runtime Error |

- Runtimes that reserve far more virtual memory than they use (the JVM, mono, Go, V8) get
  their reservation on top of RLIMIT_AS (`Runner.reserved_kb`: 16 GB for the JVM, 4 GB for V8, 1 GB
  for Go and mono), a ceiling against a runaway only: a heap flag binds instead, and a peak
  RSS over the problem's limit is Memory Limit Exceeded for every language (the judges
  measured memory, not reservations).
- Start-up is counted in the time limit, with no allowance: AtCoder and AIZU gave Java the same
  limit as C and timed the whole process. The JVM is started lean for that (serial GC, the C1
  JIT only, one CPU), as a judge's machine would not share its cores with a JIT anyway.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

from codelog.execution import sandbox
from codelog.execution.sandbox import Runner, SandboxError

_NAMES = {
    "java": "Java",
    "c#": "C#",
    "cs": "C#",
    "csharp": "C#",
    "go": "Go",
    "golang": "Go",
    "ruby": "Ruby",
    "rb": "Ruby",
    "javascript": "JavaScript",
    "js": "JavaScript",
    "node": "JavaScript",
    "node.js": "JavaScript",
    "rust": "Rust",
    "rs": "Rust",
}
FILENAME_EXT = {
    "Python": "py",
    "C": "c",
    "C++": "cpp",
    "Java": "java",
    "C#": "cs",
    "Go": "go",
    "Ruby": "rb",
    "JavaScript": "js",
    "Rust": "rs",
}
LANGUAGES = tuple(FILENAME_EXT)


def runner_language(language: str) -> str | None:
    """The canonical name of a language codelog can run (java -> Java, cpp -> C++), or None."""
    key = (language or "").strip().lower()
    return sandbox.runner_language(key) or _NAMES.get(key)


def _which(tool: str, package: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise SandboxError(f"no runner for {package}: `{tool}` is not on PATH")
    return os.path.realpath(found)


def _java() -> Runner:
    javac = _which("javac", "Java (install default-jdk-headless)")
    java = _which("java", "Java (install default-jdk-headless)")
    jar = _which("jar", "Java (install default-jdk-headless)")
    home = os.path.dirname(os.path.dirname(java))
    lean = "-J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-Xshare:auto"
    return Runner(
        language="Java",
        source_name="Main.java",
        compile_argv=(
            "/bin/sh",
            "-c",
            f"{javac} {lean} -encoding UTF-8 -nowarn Main.java && {jar} cfe Main.jar Main *.class",
        ),
        binary_name="Main.jar",
        run_argv=(
            java,
            "-Xmx{memory_mb}m",
            "-Xss{stack_kb}k",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-XX:ActiveProcessorCount=1",
            "-Xshare:auto",
            "-DONLINE_JUDGE=true",
            "-cp",
            "Main.jar",
            "Main",
        ),
        readable=(home,),
        # class space (1 GB), code cache, and -Xss for every Java thread (the JVM starts ~6)
        reserved_kb=16 << 20,
        processes=64,
    )


def _csharp() -> Runner:
    mcs = _which("mcs", "C# (install mono-mcs)")
    mono = _which("mono", "C# (install mono-runtime, with mono-mcs)")
    return Runner(
        language="C#",
        source_name="Main.cs",
        compile_argv=(mcs, "-optimize+", "-out:Main.exe", "Main.cs"),
        binary_name="Main.exe",
        run_argv=(
            "/usr/bin/env",
            "MONO_GC_PARAMS=max-heap-size={memory_mb}m",
            "MONO_THREADS_PER_CPU=1",
            mono,
            "Main.exe",
        ),
        reserved_kb=1 << 20,
        processes=64,
    )


def _go() -> Runner:
    go = _which("go", "Go (install golang-go)")
    root = _go_root(go)
    return Runner(
        language="Go",
        source_name="Main.go",
        # A fresh build cache per compile (the run directory's): nothing one program's build
        # leaves can reach another's. CGO off: no C compiler runs with a program's flags.
        compile_argv=(
            "/bin/sh",
            "-c",
            'GOCACHE="$PWD/.gocache" GOPATH="$PWD/.gopath" GO111MODULE=off CGO_ENABLED=0 '
            f"exec {go} build -trimpath -o Main Main.go",
        ),
        binary_name="Main",
        run_argv=("/usr/bin/env", "GOMEMLIMIT={memory_mb}MiB", "GOMAXPROCS=1", "./Main"),
        readable=(root,) if root else (),
        reserved_kb=1 << 20,  # the heap arena index: 256 MB is too little to start
        processes=64,
    )


@functools.lru_cache(maxsize=4)
def _go_root(go: str) -> str | None:
    try:
        out = subprocess.run([go, "env", "GOROOT"], capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    root = out.stdout.decode().strip()
    return os.path.realpath(root) if root else None


def _rust() -> Runner:
    rustc = shutil.which("rustc")
    if rustc is None:
        raise SandboxError("no runner for Rust: `rustc` is not on PATH")
    sysroot = _rust_sysroot(rustc)
    if sysroot is None:
        raise SandboxError(f"no runner for Rust: `{rustc} --print sysroot` failed")
    return Runner(
        language="Rust",
        source_name="Main.rs",
        # rustup's `rustc` is a proxy that reads ~/.rustup: the toolchain's own binary runs.
        compile_argv=(
            os.path.join(sysroot, "bin", "rustc"),
            "-O",
            "--edition",
            "2018",
            "-o",
            "Main",
            "Main.rs",
        ),
        binary_name="Main",
        run_argv=("./Main",),
        readable=(sysroot,),
    )


@functools.lru_cache(maxsize=4)
def _rust_sysroot(rustc: str) -> str | None:
    try:
        out = subprocess.run(
            [rustc, "--print", "sysroot"], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    root = out.stdout.decode().strip()
    return os.path.realpath(root) if out.returncode == 0 and root else None


def _ruby() -> Runner:
    ruby = _which("ruby", "Ruby (install ruby)")
    # AtCoder checked Ruby's syntax as its compile step (`ruby -w -c`): a syntax error is a
    # Compile Error. The "binary" is the checked source itself.
    return Runner(
        language="Ruby",
        source_name="Main.rb",
        compile_argv=(ruby, "-c", "Main.rb"),
        binary_name="Main.rb",
        run_argv=(ruby, "--disable-gems", "Main.rb"),
    )


def _javascript() -> Runner:
    node = _which("node", "JavaScript (install nodejs)")
    # No compile step, as AtCoder's Node.js: a syntax error is a Runtime Error.
    return Runner(
        language="JavaScript",
        source_name="Main.js",
        run_argv=(node, "--max-old-space-size={memory_mb}", "--stack-size=65500", "Main.js"),
        reserved_kb=4 << 20,  # V8's pointer cage and code range
        processes=64,
    )


_RUNNERS = {
    "Java": _java,
    "C#": _csharp,
    "Go": _go,
    "Rust": _rust,
    "Ruby": _ruby,
    "JavaScript": _javascript,
}


def runner_for(
    language: str, original_language: str | None = None, python: str | None = None
) -> Runner:
    """The runner for a program in `language` (see the module docstring); SandboxError when
    codelog has none, or its toolchain is not installed here."""
    name = runner_language(language)
    if name in _RUNNERS:
        return _RUNNERS[name]()
    if name is None:
        raise SandboxError(
            f"no runner for {language!r}: codelog runs {', '.join(LANGUAGES)} "
            "(each where its toolchain is installed)"
        )
    return sandbox.runner_for(language, original_language, python)


def available(language: str) -> str | None:
    """None when `language` can run here, else why not (what a skipped test says)."""
    try:
        runner_for(language)
    except SandboxError as exc:
        return str(exc)
    return None
