"""What a run may use (`Limits`), what it had (`Isolation`) and what it did (`Run`)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal

from codelog.errors import CodelogError

IsolationMode = Literal["auto", "bwrap", "unshare", "rlimits"]
ISOLATION_MODES: tuple[str, ...] = ("bwrap", "unshare", "rlimits")


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
            modes = ", ".join(ISOLATION_MODES)
            raise CodelogError(f"isolation must be auto or one of {modes}, not {self.isolation!r}")

    @property
    def wall_s(self) -> float:
        return (self.wall_ms if self.wall_ms is not None else 2 * self.time_ms + 1000) / 1000


DEFAULT_LIMITS = Limits()

# Whether `Run.memory_limit_hit` also covers an allocation that RLIMIT_AS refused before any
# memory was touched (`bytearray(1 << 40)`). The kernel records that nowhere: proving it means
# watching the run's mmap/brk calls (ptrace, or a seccomp user-notification supervisor), which
# the sandbox does not do yet. Until then such a run is not a memory limit hit (its MemoryError
# is text it printed); a cgroup OOM kill and a peak over the limit are.
REFUSED_ALLOCATIONS_SEEN = False

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
    memory_kb: int  # peak memory of the program and what it started (see sandbox.accounting)
    timed_out: bool  # wall clock, or the CPU limit
    output_exceeded: bool
    survivors: int  # processes found (and killed) after the run under its uid
    isolation: Isolation = field(compare=False)
    # the run's memory limit was hit, as the kernel tells it: its cgroup's OOM killer ended one
    # of its processes, or the peak (`memory_kb`) is over the limit (sandbox.accounting)
    memory_limit_hit: bool = False
    # whether the program's source compiled, where the run told it apart from the program (a
    # warm Python run compiles it before a line of it runs: zygote.spawn's `compile`); None:
    # not known. `compile_errors`: the compiler's message when it did not
    compiled: bool | None = field(default=None, compare=False)
    compile_errors: str = field(default="", compare=False)
