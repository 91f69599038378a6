"""What the second box costs a function problem's sample, in the parts bench/RESULTS.md adds up
("Issue 37, fifth pass: why function problems stop short of 80%").

    python bench/crossings.py [--trips 20000] [--shared ../shared/data/benchmarks]

- **A crossing:** the wall time of one round trip between two processes over two pipes
  (`os.write`, then `os.read` of the answer), `--trips` of them: the least each call from the
  checker to the candidate, and each hello, program, verdict and report, costs.
- **Calls per sample:** the calls each sample's checks made to its candidate (the `calls` of
  each `harness.check_function` outcome), HumanEval's 820 canonical samples and MBPP's 948.
- **The judge process's CPU per sample:** `score_samples` on one worker, in this process (the
  pool is skipped: this process spawns, hears and reaps every candidate and checker itself),
  CPU seconds of this process over the samples, after a first 40 have started its zygotes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from judge import function_judge, humaneval_samples, mbpp_samples  # noqa: E402

from codelog.execution import harness  # noqa: E402


def round_trip_us(trips: int) -> float:
    """Microseconds of wall time per round trip between this process and a forked echo."""
    calls_r, calls_w = os.pipe()
    answers_r, answers_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # each side keeps only its own ends: the echo sees the end of its calls
        os.close(calls_w)
        os.close(answers_r)
        while data := os.read(calls_r, 64):
            os.write(answers_w, data)
        os._exit(0)
    os.close(calls_r)
    os.close(answers_w)
    start = time.perf_counter()
    for _ in range(trips):
        os.write(calls_w, b"x")
        os.read(answers_r, 64)
    seconds = time.perf_counter() - start
    os.close(calls_w)
    os.close(answers_r)
    os.waitpid(pid, 0)
    return seconds / trips * 1e6


def one_worker(samples: list, problems: dict) -> dict:
    """Calls per sample, and this process's CPU per sample, judging on one worker."""
    calls: list[int] = []
    check = harness.check_function

    def counted(*args, **kwargs):
        outcome = check(*args, **kwargs)
        calls.append(outcome.calls)
        return outcome

    function_judge(samples[:40], problems, 1)  # imports, zygotes, a checker: not per sample
    harness.check_function = counted
    try:
        before = time.process_time()
        seconds, passed = function_judge(samples, problems, 1)
        cpu = time.process_time() - before
    finally:
        harness.check_function = check
    return {
        "samples": len(samples),
        "calls": sum(calls),
        "calls_per_sample": sum(calls) / len(samples),
        "wall_ms_per_sample": seconds / len(samples) * 1000,
        "judge_cpu_ms_per_sample": cpu / len(samples) * 1000,
        "pass@1": passed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trips", type=int, default=20_000)
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared/data/benchmarks")
    args = parser.parse_args()
    print(f"a crossing (pipe round trip): {round_trip_us(args.trips):.1f} µs", flush=True)
    sets = {"HumanEval": humaneval_samples(), "MBPP": mbpp_samples(args.shared)}
    for name, found in sets.items():
        if found is None:
            print(f"{name}: no rows in {args.shared}")
            continue
        r = one_worker(*found)
        print(
            f"{name}, {r['samples']} samples on one worker: {r['calls']} calls "
            f"({r['calls_per_sample']:.1f} a sample); {r['wall_ms_per_sample']:.2f} ms wall and "
            f"{r['judge_cpu_ms_per_sample']:.2f} ms of the judge process's CPU a sample; "
            f"pass@1 {r['pass@1']:.3f}"
        )


if __name__ == "__main__":
    main()
