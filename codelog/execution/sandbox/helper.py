"""The exec helper (`exec_helper.c`, built by setup.py as `codelog-exec` next to this file):
the program's own wait status, and the CPU time and peak memory of everything it started."""

from __future__ import annotations

import contextlib
import functools
import os

from codelog.execution.sandbox.limits import SandboxError

EXEC_HELPER_NAME = ".codelog-exec"


@functools.lru_cache(maxsize=1)
def exec_helper() -> str:
    """The built helper's path; an error naming the fix when the install did not build it."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "codelog-exec")
    if not os.access(path, os.X_OK):
        raise SandboxError(
            f"the sandbox's exec helper {path} is not built: reinstall codelog with a C "
            "compiler (pip install -e ., or `python setup.py build_ext --inplace`)"
        )
    return path


def _read_report(fd: int) -> tuple[int, int, int] | None:
    """(wait status, CPU ms, peak RSS KB) of the program, if the helper lived to report it."""
    os.set_blocking(fd, False)
    data = b""
    with contextlib.suppress(BlockingIOError, OSError):
        while chunk := os.read(fd, 256):
            data += chunk
    parts = data.split()
    if len(parts) != 3:
        return None
    try:
        status, cpu_ms, rss_kb = (int(p) for p in parts)
    except ValueError:
        return None
    return status, cpu_ms, rss_kb
