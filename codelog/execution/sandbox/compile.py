"""Compiling a program once per distinct source, in the sandbox."""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from dataclasses import dataclass, replace

from codelog.execution.sandbox.limits import COMPILE_LIMITS, IsolationMode
from codelog.execution.sandbox.runners import Runner
from codelog.execution.sandbox.running import run
from codelog.execution.sandbox.uids import scratch_dir


@dataclass(frozen=True)
class Compiled:
    ok: bool
    binary: str | None  # path of the cached binary
    diagnostics: str  # the compiler's stderr (capped)
    cached: bool


_compile_lock = threading.Lock()
_compile_cache: dict[str, Compiled] = {}
# The binaries a process keeps: past this many bytes the least recently compiled go (a later
# program that needs one compiles it again). The directory is root's (or the judge's) 0700:
# no program reads another's binary from it; each run gets a hard link of its own.
CACHE_BYTES = 256 << 20


def compile_source(runner: Runner, source: str, isolation: IsolationMode = "auto") -> Compiled:
    """Compile once per distinct (compiler command, source): the binary is cached in this
    process's scratch directory (at most CACHE_BYTES of them), and every test of the program
    runs a hard link of it."""
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
        os.makedirs(cache, mode=0o700, exist_ok=True)
        binary = os.path.join(cache, key)
        with open(binary + ".tmp", "wb") as f:
            f.write(outputs[runner.binary_name])
        os.chmod(binary + ".tmp", 0o555)
        os.replace(binary + ".tmp", binary)
        _bound(cache, keep=binary)
    compiled = Compiled(binary is not None, binary, diagnostics, False)
    with _compile_lock:
        _compile_cache[key] = compiled
    return compiled


def _bound(cache: str, keep: str) -> None:
    """Remove the oldest binaries of `cache` until it holds at most `limit` bytes (`keep`, the
    one just written, stays whatever its size)."""
    limit = CACHE_BYTES
    with _compile_lock:
        entries = []
        with os.scandir(cache) as found:
            for entry in found:
                with contextlib.suppress(OSError):
                    st = entry.stat(follow_symlinks=False)
                    entries.append((st.st_mtime_ns, st.st_size, entry.path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= limit:
                break
            if path != keep:
                with contextlib.suppress(OSError):
                    os.unlink(path)
                    total -= size
