"""The I/O pump: a run's output read up to its cap and its deadline, and the wrapper reaped
or killed."""

from __future__ import annotations

import contextlib
import os
import resource
import selectors
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from codelog.execution.sandbox.limits import Limits
from codelog.execution.sandbox.uids import kill_uid

_READ_CHUNK = 1 << 16


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
