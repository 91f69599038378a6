"""Compiling a program once per distinct source, in the sandbox."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import threading
from dataclasses import dataclass, replace

from codelog.execution.sandbox.limits import COMPILE_LIMITS, IsolationMode, Limits
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
# What a compiler stopped at its file size limit says: strsignal(SIGXFSZ), for a tool killed by
# it (gcc's as, ld), and strerror(EFBIG), for one that handles the failed write
_FILE_LIMIT_SIGNS = (os.strerror(errno.EFBIG), "File size limit exceeded")


def compile_source(
    runner: Runner,
    source: str,
    isolation: IsolationMode = "auto",
    disk_bytes: int = Limits.disk_bytes,
) -> Compiled:
    """Compile once per distinct (compiler command, source, disk cap): the binary is cached in
    this process's scratch directory (at most CACHE_BYTES of them), and every test of the
    program runs a hard link of it.

    The binary counts against its run's disk cap (`disk_bytes`): the compiler writes no file
    larger (RLIMIT_FSIZE), and a program whose binary would be is a compile error saying so.
    Room is made in the cache before a binary is written to it, so the host holds at most the
    cache's bound plus one run's cap (the compile's own directory) at any moment."""
    key = hashlib.sha256(
        "\0".join([*runner.compile_argv, str(disk_bytes), source]).encode("utf-8", "surrogatepass")
    ).hexdigest()
    with _compile_lock:
        hit = _compile_cache.get(key)
    if hit is not None and (hit.binary is None or os.path.exists(hit.binary)):
        return replace(hit, cached=True)
    limits = replace(
        COMPILE_LIMITS,
        isolation=isolation,
        file_bytes=min(COMPILE_LIMITS.file_bytes, disk_bytes),
        disk_bytes=disk_bytes,
    )
    result, outputs = run(
        runner.compile_argv,
        limits=runner.limits(limits),
        files={runner.source_name: source},
        collect=(runner.binary_name,),
        readable=runner.readable,
    )
    diagnostics = result.stderr.decode("utf-8", "replace")
    if result.timed_out:
        diagnostics = "compiler stopped: over its time limit\n" + diagnostics
    data = outputs.get(runner.binary_name) if result.exit_code == 0 else None
    over = data is not None and len(data) > disk_bytes
    if over or (data is None and any(sign in diagnostics for sign in _FILE_LIMIT_SIGNS)):
        # last: the judge keeps the diagnostics' tail
        cap = f"{disk_bytes / (1 << 20):g} MiB"
        diagnostics = (
            diagnostics.rstrip("\n") + f"\nthe compiled program is over its run's disk cap ({cap})"
        )
        data = None
    binary = None
    if data is not None:
        cache = os.path.join(scratch_dir(), "compiled")
        os.makedirs(cache, mode=0o700, exist_ok=True)
        binary = os.path.join(cache, key)
        _bound(cache, room=len(data))
        with open(binary + ".tmp", "wb") as f:
            f.write(data)
        os.chmod(binary + ".tmp", 0o555)
        os.replace(binary + ".tmp", binary)
    compiled = Compiled(binary is not None, binary, diagnostics, False)
    with _compile_lock:
        _compile_cache[key] = compiled
    return compiled


def _bound(cache: str, room: int) -> None:
    """Remove the oldest binaries of `cache` until `room` more bytes fit in CACHE_BYTES (or
    none is left: a binary larger than the whole cache is still cached, alone)."""
    limit = CACHE_BYTES - room
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
            with contextlib.suppress(OSError):
                os.unlink(path)
                total -= size
