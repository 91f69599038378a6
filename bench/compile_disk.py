"""The host's disk under the compiled programs' cache: docs/reliability.md quotes this.

    python bench/compile_disk.py [--programs 4] [--megabytes 120]

Judges `--programs` distinct C programs in this process, one after another, each with an
initialised static array of `--megabytes` MB (so a binary of about that size), and samples
every 5 ms the bytes on disk under this process's sandbox scratch directory: the run
directories and the compiled programs' cache. Prints each verdict, the peak and what is left.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from codelog.execution import sandbox
from codelog.execution.judge import JudgeOptions, Program, judge_program
from codelog.execution.testcases import Problem, TestCase

MIB = 1 << 20


def disk_bytes(root: str) -> int:
    """Bytes allocated on disk under `root` (st_blocks: a sparse file counts what it holds)."""
    total = 0
    for where, _, names in os.walk(root):
        for name in names:
            with contextlib.suppress(OSError):  # removed meanwhile
                total += os.lstat(os.path.join(where, name)).st_blocks * 512
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=4)
    parser.add_argument("--megabytes", type=int, default=120)
    args = parser.parse_args()
    problem = Problem("p", (TestCase("t", "", "ok\n"),), time_limit_ms=2000)
    scratch = sandbox.scratch_dir()
    peak, done = 0, threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, disk_bytes(scratch))
            time.sleep(0.005)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    for i in range(args.programs):
        code = (
            f"#include <stdio.h>\nchar a[{args.megabytes} << 20] = {{{i + 1}}};\n"
            f'int main(void) {{ puts("ok"); return a[0] - {i + 1}; }}\n'
        )
        started = time.monotonic()
        verdict = judge_program(
            Program(f"s{i}", "p", code, language="C"), problem, JudgeOptions(warm=False)
        )
        last = verdict.detail.strip().splitlines()[-1:] if verdict.detail else []
        seconds = time.monotonic() - started
        print(f"program {i}: {verdict.status} in {seconds:.1f} s {last}")
    done.set()
    sampler.join()
    print(
        f"peak on disk {peak / MIB:.0f} MiB; left {disk_bytes(scratch) / MIB:.0f} MiB "
        f"(cache bound {sandbox.compile.CACHE_BYTES // MIB} MiB, "
        f"a run's disk cap {sandbox.Limits().disk_bytes // MIB} MiB)"
    )


if __name__ == "__main__":
    main()
