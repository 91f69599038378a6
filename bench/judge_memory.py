"""The judge's driver memory as the input grows: `codelog judge` on N synthetic samples at two
sizes (or more), each program padded with a large comment so the code is most of the input.

    nice -n 19 .venv/bin/python bench/judge_memory.py [--sizes 2000,10000] [--pad 20000]
        [--workers 2] [--repo DIR] [--workdir DIR] [--json]

Each size runs `codelog.judge` (the API behind the command) in a fresh Python process, with
`--out judged.parquet` and `--details`, in the sandbox on `--workers` processes. The figure is
that process's own peak resident set (getrusage RUSAGE_SELF: the driver, without its pool
workers), printed side by side with the ratio of the largest size's to the smallest's (goal:
at most 1.2x). `--repo DIR` imports codelog from another checkout (e.g. `git archive` of an
earlier commit), to measure the code before a change with the same script.

Programs: `print(sum(map(int, input().split())))` over 10 problems, every seventh one wrong
(prints the difference), each with `--pad` bytes of comment lines; deterministic.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROBLEMS = 10


def write_inputs(workdir: Path, n: int, pad: int) -> tuple[Path, Path]:
    """The samples file of n programs (reused when it exists) and the problems file."""
    problems = workdir / "problems.jsonl"
    with problems.open("w") as f:
        for p in range(PROBLEMS):
            tests = [{"input": f"{p} {i}\n", "output": f"{p + i}\n"} for i in (1, 2)]
            f.write(json.dumps({"problem_id": f"p{p}", "tests": tests}) + "\n")
    samples = workdir / f"samples-{n}-{pad}.jsonl"
    if not samples.exists():
        comment = ("# " + "padding " * 12 + "\n") * (pad // 99)  # lines of 99 bytes
        tmp = samples.with_suffix(".tmp")
        with tmp.open("w") as f:
            for i in range(n):
                op = "-" if i % 7 == 0 else "+"
                code = f"{comment}a, b = map(int, input().split())\nprint(a {op} b)\n"
                record = {"submission_id": f"s{i:07d}", "problem_id": f"p{i % PROBLEMS}"}
                f.write(json.dumps({**record, "code": code}) + "\n")
        tmp.rename(samples)
    return samples, problems


def child(samples: Path, problems: Path, out: Path, workers: int) -> None:
    """In the measured process: one judge run, then its figures as a JSON line on stdout."""
    import codelog

    start = time.monotonic()
    report = codelog.judge(
        samples,
        out / "judged.parquet",
        tests=str(problems),
        workers=workers,
        details=out / "details.jsonl",
        force=True,
    )
    seconds = time.monotonic() - start
    figures = {
        "codelog": str(Path(codelog.__file__).parent),
        "seconds": seconds,
        "rows": report.rows_written,
        "statuses": dict(report.statuses),
        "isolation": report.isolation,
        "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,  # KiB on Linux
    }
    print(json.dumps(figures))


def measure(n: int, args: argparse.Namespace, workdir: Path) -> dict:
    samples, problems = write_inputs(workdir, n, args.pad)
    out = workdir / f"out-{n}"
    out.mkdir(exist_ok=True)
    env = dict(os.environ)
    if args.repo:
        env["PYTHONPATH"] = str(Path(args.repo).resolve())
    argv = [sys.executable, __file__, "--child", str(samples), str(problems), str(out)]
    run = subprocess.run(
        [*argv, str(args.workers)], env=env, capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        raise SystemExit(f"size {n}: the judge failed:\n{run.stderr[-3000:]}")
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    figures["programs"] = n
    figures["code_mib"] = n * args.pad / 2**20
    figures["samples_mib"] = samples.stat().st_size / 2**20
    return figures


def table(results: list[dict]) -> str:
    lines = [
        "| programs | code MiB | seconds | programs/s | rows | driver peak RSS MiB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        lines.append(
            f"| {r['programs']:,} | {r['code_mib']:.0f} | {r['seconds']:.1f} | "
            f"{r['programs'] / r['seconds']:.1f} | {r['rows']:,} | "
            f"{r['peak_rss_kib'] / 1024:.0f} |"
        )
    small, large = results[0], results[-1]
    ratio = large["peak_rss_kib"] / small["peak_rss_kib"]
    lines.append("")
    lines.append(
        f"peak RSS {large['programs']:,} / {small['programs']:,} programs: {ratio:.2f}x "
        f"(goal <= 1.2x: {'met' if ratio <= 1.2 else 'not met'}); codelog from "
        f"{small['codelog']}; isolation {small['isolation']}; verdicts at {large['programs']:,}: "
        + ", ".join(f"{k} {v:,}" for k, v in sorted(large["statuses"].items()))
    )
    return "\n".join(lines)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        samples, problems, out, workers = sys.argv[2:6]
        child(Path(samples), Path(problems), Path(out), int(workers))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,10000")
    parser.add_argument("--pad", type=int, default=20_000, help="comment bytes per program")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repo", help="import codelog from this checkout instead")
    parser.add_argument("--workdir", type=Path, help="keep inputs and outputs here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    with tempfile.TemporaryDirectory(prefix="codelog-judge-memory-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        results = [measure(n, args, workdir) for n in sizes]
    print(json.dumps(results, indent=2) if args.json else table(results))


if __name__ == "__main__":
    main()
