"""Memory of a whole run: a memory cgroup per run, where this machine lets codelog make one.

A program's processes are all born in its run's cgroup (the exec helper, or a warm run's
forked child, writes "0" to the cgroup.procs that codelog opened and passed it), so the
cgroup's limit binds the program and everything it started together, orphans included: past
it the kernel's OOM killer ends one of them, and the cgroup counts the kill. Without a writable
cgroup (no cgroup v1 memory hierarchy, or not root) there is no whole-run memory limit: each
process is held by RLIMIT_AS alone, the largest single peak is reported, and `available()`
says why (docs/running-code.md).

cgroup v1 only (`/sys/fs/cgroup/memory`, nested in codelog's own memory cgroup, so any limit
on codelog still holds). A v2-only host (memory.peak, memory.events) is not handled yet.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import threading
from dataclasses import dataclass

from codelog.execution.sandbox.host import kill_until_none

_V1 = "/sys/fs/cgroup/memory"
_PREFIX = "codelog-"
# room on top of the program's limit for what the cgroup charges besides the program: the
# exec helper, page tables, pipe buffers (RLIMIT_AS already holds each process to the limit)
SLACK_KB = 8 << 10

_lock = threading.Lock()
_names = itertools.count()
_parent: list[str] = []
_failures: list[str] = []  # the latest run cgroups not made (`failures()`)
# Run cgroups of this process whose runs are over, emptied, for its next runs (`release`).
# Removing a cgroup after every run cost about as much as the run: its page cache (a compiler's
# binary and headers, read by every compile) must be uncharged first (memory.force_empty, or
# the removed cgroup lingers in the kernel while any page charged to it lives), which also
# evicted that cache: 46 ms a run, half of a C program's judging (bench/RESULTS.md).
_free: list[RunCgroup] = []
_FREE_MAX = 8


@functools.lru_cache(maxsize=1)
def _own_v1() -> str | None:
    """This process's own v1 memory cgroup directory, or None without a v1 memory hierarchy."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            found = os.path.join(_V1, path.lstrip("/"))
            return (
                found if os.path.isfile(os.path.join(found, "memory.max_usage_in_bytes")) else None
            )
    return None


def _process_dir() -> str | None:
    """This process's cgroup directory for its runs (made once, removed at exit), or None. A
    forked child makes its own (`_forget_after_fork`)."""
    with _lock:
        if _parent and os.path.isdir(_parent[0]):
            return _parent[0]
        own = _own_v1()
        if own is None or os.geteuid() != 0:
            return None
        path = os.path.join(own, f"{_PREFIX}{os.getpid()}")
        try:
            os.makedirs(path, exist_ok=True)
        except OSError:
            return None
        import atexit
        from multiprocessing import util

        atexit.register(_close_process_dir, path)
        # a multiprocessing worker leaves through os._exit, which skips atexit
        util.Finalize(None, _close_process_dir, (path,), exitpriority=10)
        _parent[:] = [path]
        return path


def _close_process_dir(path: str) -> None:
    """At exit: this process's runs, then what its killed workers left (their directories
    outlive them: a SIGKILL runs no cleanup, and their programs' processes would run on)."""
    with _lock:
        kept, _free[:] = list(_free), []
    for group in kept:
        group.forget()
    _remove_tree(path)
    sweep_stale()


def _forget_after_fork() -> None:
    """A forked child (a judge pool's worker) makes a cgroup directory of its own, named for
    its pid: killed mid-run, it leaves that directory alone, which `sweep_stale` finds by its
    dead pid and empties (killing the run's processes), in place of run cgroups left inside
    its parent's directory until the parent exits."""
    global _lock
    _lock = threading.Lock()  # another thread may have held it at the fork
    _parent.clear()
    _failures.clear()
    for group in _free:  # the parent's, in the parent's directory: its to reuse and remove
        group.forget()
    _free.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


def available() -> str:
    """ "" where runs get a memory cgroup, else why not."""
    if _own_v1() is None:
        return "no cgroup v1 memory hierarchy here"
    if os.geteuid() != 0:
        return "memory cgroups need root"
    if _process_dir() is None:
        return "codelog's memory cgroup is not writable"
    return ""


@dataclass(frozen=True)
class Usage:
    peak_kb: int  # the most the run's processes held at once (anonymous, kernel, tmpfs files)
    oom_kills: int  # processes the kernel killed at the run's limit


class RunCgroup:
    """One run's memory cgroup. `procs_fd()` gives the fd a run's first process writes "0" to;
    `usage()` reads the figures; `reset()` readies it for another run (a warm box's);
    `close()` kills what is left in it and removes it.

    The files read or written for every run (the peak, the OOM count) stay open: a warm box
    resets and reads its cgroup once a run, and opening each file every time was a tenth of
    an empty run's cost in codelog's process."""

    def __init__(self, path: str, limit_kb: int):
        self.path = path
        self._fds: dict[str, int] = {}
        os.mkdir(path)
        try:
            self._set_limit(limit_kb)
        except OSError:
            os.rmdir(path)
            raise
        self._kills = 0

    def _fd(self, name: str) -> int:
        fd = self._fds.get(name)
        if fd is None:
            fd = self._fds[name] = os.open(os.path.join(self.path, name), os.O_RDWR | os.O_CLOEXEC)
        return fd

    def _write(self, name: str, value: str) -> None:
        os.pwrite(self._fd(name), value.encode(), 0)

    def _read(self, name: str) -> str:
        # a cgroup file is generated at each read from offset 0
        return os.pread(self._fd(name), 1 << 16, 0).decode()

    def _set_limit(self, limit_kb: int) -> None:
        self._write("memory.limit_in_bytes", str((limit_kb + SLACK_KB) * 1024))
        self._limit_kb = limit_kb

    def procs_fd(self) -> int:
        """A new write-only fd to the cgroup's cgroup.procs (the caller closes it)."""
        return os.open(os.path.join(self.path, "cgroup.procs"), os.O_WRONLY | os.O_CLOEXEC)

    def _oom_kills(self) -> int:
        for line in self._read("memory.oom_control").splitlines():
            name, _, value = line.partition(" ")
            if name == "oom_kill":
                return int(value)
        return 0

    def usage(self) -> Usage:
        peak = int(self._read("memory.max_usage_in_bytes")) // 1024
        return Usage(peak, self.oom_kills())

    def oom_kills(self) -> int:
        """Processes the kernel killed at the limit since the last reset."""
        return self._oom_kills() - self._kills

    def procs(self) -> list[int]:
        """The processes in the cgroup now. Read through a new fd each time: cgroup v1 keeps
        the list an open file's first read made (for a second after its last use), so reading
        a kept fd again gave processes already gone and missed ones forked since (a fork
        bomb's), and the kill below went round on a stale list for 100 ms."""
        with open(os.path.join(self.path, "cgroup.procs"), "rb") as f:
            return [int(p) for p in f.read().split()]

    def held_kb(self) -> int:
        """What is charged to the cgroup that the kernel cannot reclaim with no process left:
        anonymous memory, and tmpfs files (shmem) a run left where it outlives the run (the
        host's /dev/shm in the unshare and rlimits fallbacks). Kept across runs, it would
        count against the next run's limit."""
        stat = dict(line.split() for line in self._read("memory.stat").splitlines())
        return (int(stat.get("rss", 0)) + int(stat.get("shmem", 0))) // 1024

    def kill(self) -> int:
        """SIGKILL every process in the cgroup until it is empty; how many."""
        return kill_until_none(self.procs)

    def reset(self, limit_kb: int) -> None:
        """For the next run: the peak back to what is held now, the kills counted so far."""
        if limit_kb != self._limit_kb:
            self._set_limit(limit_kb)
        self._write("memory.max_usage_in_bytes", "0")
        self._kills = self._oom_kills()

    def forget(self) -> None:
        """Let go of the cgroup without touching it (a forked child's copy of its parent's)."""
        for fd in self._fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = {}

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.kill()
            # uncharge cached pages: no lingering memcg (a write-only file: opened once, here)
            with open(os.path.join(self.path, "memory.force_empty"), "w") as f:
                f.write("0")
        for fd in self._fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = {}
        with contextlib.suppress(OSError):
            os.rmdir(self.path)


def peak(cgroup: RunCgroup | None, rss_kb: int, limit_kb: int) -> tuple[int, bool]:
    """(peak KB, memory limit hit) of a run that is over. The peak is the largest of its
    processes' (`rss_kb`, wait4's: comparable with a judge's figure), and the cgroup's where
    the cgroup's OOM killer ended one of them: the limit was hit then, or when the peak is over
    `limit_kb`. The cgroup's peak alone is not the figure: it also counts page cache the run
    read in (an interpreter's files, evicted under pressure), which the kernel reclaims before
    it kills anything."""
    oom = False
    if cgroup is not None:
        with contextlib.suppress(OSError, ValueError):
            if cgroup.oom_kills() > 0:  # the peak is read only then
                whole = cgroup.usage()
                oom = True
                rss_kb = max(rss_kb, whole.peak_kb)
    return rss_kb, oom or rss_kb > limit_kb


def run_cgroup(limit_kb: int) -> RunCgroup | None:
    """A memory cgroup for one run, limited to `limit_kb` (plus SLACK_KB), with no process in
    it: one an earlier run of this process released, else a new one; None where this machine
    gives none (`available()` says why). Hand it back with `release`."""
    with _lock:
        group = _free.pop() if _free else None
    if group is not None:
        try:
            group.reset(limit_kb)
            return group
        except OSError:  # a limit below what is still charged (a reclaim that failed)
            group.close()
    for _ in range(2):
        parent = _process_dir()
        if parent is None:
            return None
        try:
            # named for this process as well as counted: should a child ever share the
            # directory (forked past os.register_at_fork), a bare count would give the parent
            # a name the child took: EEXIST, and a run with no whole-run memory limit
            name = f"run-{os.getpid()}-{next(_names)}"
            return RunCgroup(os.path.join(parent, name), limit_kb)
        except OSError as exc:
            # the process directory can be gone by the time its run cgroup is made (removed
            # after _process_dir saw it): the second attempt makes it again
            _failures.append(f"{parent}: {exc}")
            del _failures[:-8]
    return None


def release(group: RunCgroup) -> None:
    """A run is over: every process left in its cgroup is killed, and the cgroup is kept for
    this process's next run (reset there: its peak, its OOM kills, its limit), or removed if
    it cannot be emptied, still holds memory the kernel cannot reclaim (`held_kb`), or enough
    are kept. What the run read stays charged to it as page cache, which the kernel reclaims
    before it would kill anything at the next run's limit."""
    try:
        group.kill()
        keep = not group.procs() and not group.held_kb()
    except (OSError, ValueError):
        keep = False
    if keep:
        with _lock:
            keep = len(_free) < _FREE_MAX and os.path.dirname(group.path) in _parent
            if keep:
                _free.append(group)
    if not keep:
        group.close()


def failures() -> list[str]:
    """The latest attempts to make a run cgroup that failed (each: where, and why); a run whose
    two attempts both failed ran with no whole-run memory limit."""
    return list(_failures)


def _remove_tree(path: str) -> None:
    """Remove a process's cgroup directory: its run cgroups first (each emptied)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(path):
            if entry.is_dir(follow_symlinks=False):
                group = RunCgroup.__new__(RunCgroup)
                group.path, group._fds = entry.path, {}
                group.close()
    with contextlib.suppress(OSError):
        os.rmdir(path)


def sweep_stale() -> int:
    """Remove the cgroup directories of codelog processes that are gone; how many."""
    own = _own_v1()
    if own is None or os.geteuid() != 0:
        return 0
    from codelog.files import process_exists

    removed = 0
    with contextlib.suppress(OSError), os.scandir(own) as entries:
        for entry in entries:
            pid = entry.name.removeprefix(_PREFIX)
            if entry.name.startswith(_PREFIX) and pid.isdigit() and not process_exists(int(pid)):
                _remove_tree(entry.path)
                removed += 1
    return removed
