"""Scratch directories and sandbox uids: one uid per concurrent run, and the sweeps that
remove what a run or a dead codelog process left, whatever its mode."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import sys
import tempfile
import threading
import time

import codelog.execution.sandbox.accounting as accounting
from codelog.execution.sandbox.host import _is_root, kill_until_none
from codelog.execution.sandbox.limits import SandboxError

# Sandbox uids: far above any real account, one per (process, run slot), so two concurrent
# runs never share a process count or can signal each other.
_UID_BASE = 1_500_000_000
_UID_SLOTS = 64


_scratch_lock = threading.Lock()
_scratch: str | None = None
_slots = itertools.count()


_SCRATCH_PREFIX = "codelog-sandbox-"


def scratch_dir() -> str:
    """This process's directory for run directories and compiled programs, removed at exit
    (a pool worker's too); what a killed process left is removed by the next one."""
    global _scratch
    with _scratch_lock:
        if _scratch is None or not os.path.isdir(_scratch):
            sweep_stale()
            _scratch = tempfile.mkdtemp(prefix=f"{_SCRATCH_PREFIX}{os.getpid()}-")
            os.chmod(_scratch, 0o711)  # a sandbox uid must traverse it to its own run dir
            import atexit
            from multiprocessing import util

            atexit.register(_remove, _scratch)
            # a multiprocessing worker leaves through os._exit, which skips atexit
            util.Finalize(None, _remove, (_scratch,), exitpriority=10)
        return _scratch


def _remove(path: str) -> None:
    """Remove a directory tree whatever a program made of it: a directory it set to mode 000
    (which its owner cannot list, nor root without CAP_DAC_OVERRIDE in a user namespace) is
    given its owner's rights back, and removed again. Never follows a link out of the tree."""

    def retry(failed: str) -> None:
        with contextlib.suppress(OSError):
            for where in (os.path.dirname(failed), failed):
                if os.path.isdir(where) and not os.path.islink(where):
                    os.chmod(where, 0o700)
            if os.path.isdir(failed) and not os.path.islink(failed):
                shutil.rmtree(failed, ignore_errors=True)
            else:
                os.unlink(failed)

    if sys.version_info >= (3, 12):
        shutil.rmtree(path, onexc=lambda _f, failed, _e: retry(failed))
    else:
        shutil.rmtree(path, onerror=lambda _f, failed, _e: retry(failed))


def _owner_pids(uid: int) -> tuple[int, ...]:
    """The pids that may have given out sandbox uid `uid` (`_sandbox_uid` takes a pid modulo
    4,000,000, and pids go up to 2**22)."""
    if not _UID_BASE <= uid < _UID_BASE + 4_000_000 * _UID_SLOTS:
        return ()
    low = (uid - _UID_BASE) // _UID_SLOTS
    return (low, low + 4_000_000) if low + 4_000_000 < (1 << 22) else (low,)


def sweep_stale() -> tuple[int, int]:
    """Remove what codelog processes that are gone left behind (a SIGKILL runs no cleanup):
    their scratch directories, and any process still running under a sandbox uid they gave
    out. Returns (directories removed, processes killed)."""
    from codelog.files import process_exists

    removed = killed = 0
    accounting.sweep_stale()  # their memory cgroups too
    with contextlib.suppress(OSError), os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            pid = entry.name.removeprefix(_SCRATCH_PREFIX).partition("-")[0]
            if (
                entry.name.startswith(_SCRATCH_PREFIX)
                and pid.isdigit()
                and not process_exists(int(pid))
                and entry.is_dir(follow_symlinks=False)
            ):
                _remove(entry.path)
                removed += 1
    if _is_root():
        orphans: set[int] = set()
        with os.scandir("/proc") as entries:
            for entry in entries:
                if entry.name.isdigit():
                    with contextlib.suppress(OSError):
                        uid = entry.stat(follow_symlinks=False).st_uid
                        owners = _owner_pids(uid)
                        if owners and not any(process_exists(pid) for pid in owners):
                            orphans.add(uid)
        killed = sum(kill_uid(uid) for uid in orphans)
    return removed, killed


# uids held by long-lived boxes (warm zygotes): never given to another run, whose cleanup
# (kill_uid) would kill the zygote too
_reserved_uids: set[int] = set()


def _sandbox_uid(reserve: bool = False) -> int:
    """The next sandbox uid of this process; `reserve`: held until `release_uid`."""
    first = _UID_BASE + (os.getpid() % 4_000_000) * _UID_SLOTS
    for _ in range(_UID_SLOTS):
        uid = first + next(_slots) % _UID_SLOTS
        if uid not in _reserved_uids:
            if reserve:
                _reserved_uids.add(uid)
            return uid
    raise SandboxError(f"all {_UID_SLOTS} sandbox uids of this process are held")


def release_uid(uid: int) -> None:
    _reserved_uids.discard(uid)


def _processes_of(uid: int) -> list[int]:
    """Live processes whose owner is `uid` (the owner of /proc/PID is the process's euid)."""
    pids = []
    with os.scandir("/proc") as entries:
        for entry in entries:
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid == uid and not _zombie(entry.path):
                        pids.append(int(entry.name))
    return pids


def _zombie(proc_dir: str) -> bool:
    """A dead process not yet reaped (an orphan waits for the host's init): nothing runs."""
    with open(os.path.join(proc_dir, "stat"), "rb") as f:
        return f.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")


def kill_uid(uid: int) -> int:
    """SIGKILL every process of `uid` until none is left; returns how many were found."""
    return kill_until_none(lambda: _processes_of(uid))


def _settle(uid: int, grace_s: float = 1.0) -> int:
    """Processes of `uid` still alive once the run is over, killed: 0 with a PID namespace.

    A killed sandbox's namespace dies a moment after its wrapper (the kernel kills and reaps
    its processes), so they get `grace_s` to go before they count as survivors."""
    deadline = time.monotonic() + grace_s
    while _processes_of(uid):
        if time.monotonic() >= deadline:
            return kill_uid(uid)
        time.sleep(0.005)
    return 0
