"""The command lines of the namespace wrappers: bwrap (with its seccomp filter) and unshare, and setpriv's uid switch."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

from codelog.execution.sandbox.host import _is_root
from codelog.execution.sandbox.limits import Limits
from codelog.execution.sandbox.uids import scratch_dir

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
