"""The verdict of a program whose allocation the memory limit refuses.

RLIMIT_AS refuses a big allocation before the peak grows, so the measured peak does not show
that the limit was hit; the sandbox's `Run.memory_limit_hit` does (a cgroup's failcnt or OOM
event; branch `sandbox`, issue 32). Until a run carries it, such a program is a Runtime Error:
its MemoryError is text it printed, and no verdict comes from text. With it, Memory Limit
Exceeded. Tests name the expected verdict through REFUSED_ALLOCATION, so that merge changes
no test."""

from __future__ import annotations

from dataclasses import fields

from codelog.execution import sandbox

SANDBOX_SEES_THE_LIMIT = "memory_limit_hit" in {f.name for f in fields(sandbox.Run)}
REFUSED_ALLOCATION = "Memory Limit Exceeded" if SANDBOX_SEES_THE_LIMIT else "Runtime Error"
