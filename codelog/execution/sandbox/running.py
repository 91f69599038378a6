"""One program run: the run directory, the wrappers' command line (`sandboxed`) and `run`."""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from codelog.execution.sandbox.accounting import RunCgroup, peak, release, run_cgroup
from codelog.execution.sandbox.bwrap import (
    _bwrap_argv,
    _setpriv,
    _unshare_argv,
    clear_of_seccomp_fd,
)
from codelog.execution.sandbox.helper import EXEC_HELPER_NAME, _read_report, exec_helper
from codelog.execution.sandbox.host import _is_root, _tool
from codelog.execution.sandbox.isolation import resolve_isolation
from codelog.execution.sandbox.limits import DEFAULT_LIMITS, Isolation, Limits, Run
from codelog.execution.sandbox.pump import _kill, _wait, pump
from codelog.execution.sandbox.uids import _remove, _sandbox_uid, _settle, kill_uid, scratch_dir


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
    limits: Limits = DEFAULT_LIMITS,
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
        result = box.accounted(result, limits)
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
    cgroup: RunCgroup | None = None  # the run's memory cgroup, where this machine gives one
    cgroup_fd: int | None = None  # its cgroup.procs, for the outer helper to join

    @property
    def pass_fds(self) -> tuple[int, ...]:
        """The descriptors the run must inherit besides its streams."""
        fds = (self.report_pipe[1],) if self.report_pipe is not None else ()
        return fds + ((self.cgroup_fd,) if self.cgroup_fd is not None else ())

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
        """Once the run has been reaped: (wait status, CPU ms, peak RSS KB) of the program and
        everything it started, from the exec helper; None if it was killed before reporting
        (a wall-clock kill takes every process of the uid, the helper too)."""
        return _read_report(self.report_pipe[0]) if self.report_pipe is not None else None

    def accounted(self, run: Run, limits: Limits) -> Run:
        """`run` (as its outermost wrapper's wait4 saw it) with the run's own figures: CPU
        time and largest peak from the exec helper, the whole run's peak and OOM kills from
        its cgroup, and whether the memory limit was hit."""
        usage = self.usage()
        if usage is not None:  # the program's own figures, not its wrappers'
            _, cpu_ms, rss_kb = usage
            run = replace(
                run,
                cpu_ms=cpu_ms,
                memory_kb=rss_kb,
                timed_out=run.timed_out or cpu_ms > limits.time_ms,
            )
        memory_kb, hit = peak(self.cgroup, run.memory_kb, limits.memory_kb)
        return replace(run, memory_kb=memory_kb, memory_limit_hit=hit)


@contextlib.contextmanager
def sandboxed(
    argv: Sequence[str],
    limits: Limits = DEFAULT_LIMITS,
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
    helper = exec_helper()
    if own_usage:
        executables = {**(executables or {}), EXEC_HELPER_NAME: helper}
    mode = resolve_isolation(limits.isolation, readable)
    uid = _sandbox_uid() if mode.drop_uid else None
    rundir = tempfile.mkdtemp(prefix="run-", dir=scratch_dir())
    pipe = os.pipe() if own_usage else None
    if pipe is not None:  # the write end goes into the box
        pipe = (pipe[0], clear_of_seccomp_fd(pipe[1]))
    cgroup = run_cgroup(limits.memory_kb) if own_usage else None
    cgroup_fd = cgroup.procs_fd() if cgroup is not None else None
    try:
        for name, data in (files or {}).items():
            with open(os.path.join(rundir, name), "wb") as f:
                f.write(data.encode() if isinstance(data, str) else data)
        for name, src in (executables or {}).items():
            _place(src, os.path.join(rundir, name))
        if uid is not None:
            os.chown(rundir, uid, uid)
        os.chmod(rundir, 0o700)

        # First, on the host: a fresh session keyring (nothing in the box holds the judge's)
        # and the run's cgroup, which every process of the box is then born in.
        wrapper: list[str] = [helper, "-k"]
        if cgroup_fd is not None:
            wrapper += ["-c", str(cgroup_fd)]
        wrapper.append("--")
        pidns = mode.isolation.mode in ("bwrap", "unshare")
        if mode.isolation.mode == "bwrap":
            staged = None if collect else [*(files or {}), *(executables or {})]
            wrapper += _bwrap_argv(mode.prefix[0], rundir, readable, staged, limits.disk_bytes)
        elif mode.isolation.mode == "unshare":
            wrapper += _unshare_argv(mode.prefix[0])
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
            # Before the uid switch: the program cannot kill the helper to lose its figures,
            # and a wall-clock kill (every process of the uid) leaves it to report. In a PID
            # namespace it ends the run with the program: whatever is left is killed.
            wrapper += [f"./{EXEC_HELPER_NAME}", "-r", str(pipe[1]), *(["-n"] if pidns else [])]
            wrapper.append("--")
        if uid is not None:
            wrapper += _setpriv(_tool("setpriv"), uid)
        iso = replace(mode.isolation, uid=uid, processes=nproc)
        try:
            yield Box([*wrapper, *program, *argv[1:]], rundir, uid, iso, pipe, cgroup, cgroup_fd)
        finally:
            if uid is not None:
                kill_uid(uid)
    finally:
        for fd in (*(pipe or ()), *([cgroup_fd] if cgroup_fd is not None else [])):
            os.close(fd)
        if cgroup is not None:
            release(cgroup)
        _remove(rundir)


def _place(src: str | Path, dest: str) -> None:
    """An executable into a run directory: a hard link where it can be (a compiled binary
    costs no second copy on the host's disk), else a copy; read and run only."""
    try:
        os.link(src, dest)
    except OSError:
        shutil.copyfile(src, dest)
        os.chmod(dest, 0o555)


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
