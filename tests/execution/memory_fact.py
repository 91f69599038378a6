"""The verdict of a program whose allocation the memory limit refuses.

RLIMIT_AS refuses a big allocation before the peak grows, so the measured peak does not show
that the limit was hit, and neither does the run's memory cgroup (nothing was charged to it):
`Run.memory_limit_hit` (issue 32) covers cgroup OOM kills and peaks over the limit, not these.
Until the sandbox proves such a refusal (`sandbox.REFUSED_ALLOCATIONS_SEEN`), such a program is
a Runtime Error: its MemoryError is text it printed, and no verdict comes from text. Once it
does, Memory Limit Exceeded. Tests name the expected verdict through REFUSED_ALLOCATION, so
that change changes no test."""

from __future__ import annotations

from codelog.execution import sandbox

SANDBOX_SEES_THE_LIMIT = sandbox.REFUSED_ALLOCATIONS_SEEN
REFUSED_ALLOCATION = "Memory Limit Exceeded" if SANDBOX_SEES_THE_LIMIT else "Runtime Error"
