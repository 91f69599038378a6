"""Compiling a program once per distinct source, in the sandbox."""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, replace

from codelog.execution.sandbox.limits import COMPILE_LIMITS, IsolationMode
from codelog.execution.sandbox.run import run
from codelog.execution.sandbox.runners import Runner
from codelog.execution.sandbox.uids import scratch_dir


@dataclass(frozen=True)
class Compiled:
    ok: bool
    binary: str | None  # path of the cached binary
    diagnostics: str  # the compiler's stderr (capped)
    cached: bool


_compile_lock = threading.Lock()
_compile_cache: dict[str, Compiled] = {}


def compile_source(runner: Runner, source: str, isolation: IsolationMode = "auto") -> Compiled:
    """Compile once per distinct (compiler command, source): the binary is cached in this
    process's scratch directory, and every test of the program runs a copy of it."""
    key = hashlib.sha256(
        "\0".join([*runner.compile_argv, source]).encode("utf-8", "surrogatepass")
    ).hexdigest()
    with _compile_lock:
        hit = _compile_cache.get(key)
    if hit is not None and (hit.binary is None or os.path.exists(hit.binary)):
        return replace(hit, cached=True)
    result, outputs = run(
        runner.compile_argv,
        limits=runner.limits(replace(COMPILE_LIMITS, isolation=isolation)),
        files={runner.source_name: source},
        collect=(runner.binary_name,),
        readable=runner.readable,
    )
    diagnostics = result.stderr.decode("utf-8", "replace")
    if result.timed_out:
        diagnostics = "compiler stopped: over its time limit\n" + diagnostics
    binary = None
    if result.exit_code == 0 and runner.binary_name in outputs:
        cache = os.path.join(scratch_dir(), "compiled")
        os.makedirs(cache, exist_ok=True)
        binary = os.path.join(cache, key)
        with open(binary + ".tmp", "wb") as f:
            f.write(outputs[runner.binary_name])
        os.chmod(binary + ".tmp", 0o555)
        os.replace(binary + ".tmp", binary)
    compiled = Compiled(binary is not None, binary, diagnostics, False)
    with _compile_lock:
        _compile_cache[key] = compiled
    return compiled
