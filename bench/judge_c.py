"""Judging compiled programs: the accepted C programs of tests/fixtures/codenet-mini-c (308 real
AIZU and AtCoder submissions, each compiled with gcc in the sandbox, then run on its problem's
sample tests), on one worker and on all cores.

    python bench/judge_c.py [--first 40] [--workers 2]

Prints the seconds of each and how many re-judged Accepted. A compile is most of a program's
judging here (its tests are a statement's one or two samples), so this measures the sandbox's
per-run cost around gcc.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import label_audit  # noqa: E402

from codelog.execution.judge import Verdict, judge_many  # noqa: E402
from codelog.execution.testcases import codenet_problems  # noqa: E402

C_DATA = REPO / "tests" / "fixtures" / "codenet-mini-c"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=40, help="programs judged on one worker")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    args = parser.parse_args()
    programs = label_audit.codenet_programs(C_DATA, status="Accepted")
    problems = codenet_problems(C_DATA)
    judge_many(programs[:2], problems, workers=1)  # gcc's files into the page cache
    print(f"load {os.getloadavg()[0]:.1f}")
    for label, chosen, workers in (
        ("one worker", programs[: args.first], 1),
        (f"{args.workers} workers", programs, args.workers),
    ):
        start = time.perf_counter()
        results = judge_many(chosen, problems, workers=workers)
        seconds = time.perf_counter() - start
        accepted = sum(isinstance(r, Verdict) and r.accepted for r in results)
        print(f"{len(chosen)} programs, {label}: {seconds:.2f} s, {accepted} Accepted")


if __name__ == "__main__":
    main()
