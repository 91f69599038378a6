"""The exec helper: the program's own wait status, CPU time and peak memory, not its wrappers'."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading

from codelog.execution.sandbox.uids import scratch_dir

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
