"""Issue 44's hostile LiveCodeBench rows through `codelog eval`: what each costs before it is
refused (docs/benchmarks.md, "Bounds on what is read").

    python bench/decoding.py [--bomb-mib 1024] [--repo CHECKOUT] [--timeout 120]

- **bomb:** `private_test_cases` is a zlib stream of `--bomb-mib` MiB of zeros (~1 KB a MiB).
- **doubled:** a pickle of 40 lists, each holding the previous one twice (2 KB of row).
- **shared:** a pickle of one 4 MB test referenced 5,000 times (7.5 KB of row).

Each row runs `codelog eval --benchmark livecodebench:ROW` in a fresh process of `--repo`'s
codelog (default: this checkout); the table gives its exit status, wall seconds, peak RSS (the
process's own, from wait4) and the last line it printed. A run past `--timeout` is killed and
says so. The shared row on a checkout without the bound expands to ~20 GB: run it there only
on a machine with the memory to lose (`--rows bomb,doubled`).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROW = REPO / "tests" / "fixtures" / "benchmarks" / "livecodebench" / "test-3.jsonl"


def rows(bomb_mib: int) -> dict[str, str]:
    """Each hostile row's `private_test_cases`."""
    stream = zlib.compressobj(9)
    zeros = b"\0" * (1 << 20)
    bomb = b"".join(stream.compress(zeros) for _ in range(bomb_mib)) + stream.flush()
    doubled: list = []
    for _ in range(40):
        doubled = [doubled, doubled]
    test = {"input": "1\n" * (2 << 20), "output": "2\n", "testtype": "stdin"}
    return {
        "bomb": base64.b64encode(bomb).decode(),
        "doubled": base64.b64encode(zlib.compress(pickle.dumps(doubled))).decode(),
        "shared": base64.b64encode(zlib.compress(pickle.dumps([test] * 5000))).decode(),
    }


def run(repo: Path, row: Path, samples: Path, out: Path, timeout: float) -> tuple[str, ...]:
    """(status, wall s, peak RSS MiB, last line) of one eval in a fresh process."""
    command = [sys.executable, "-m", "codelog.cli", "eval", "--benchmark", f"livecodebench:{row}",
               "--samples", str(samples), "--out", str(out)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(repo)}
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=repo, env=env, stderr=subprocess.PIPE, text=True)
    timer = signal.signal(signal.SIGALRM, lambda *_: proc.kill())
    signal.setitimer(signal.ITIMER_REAL, timeout)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, timer)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    said = f"killed after {timeout:g} s" if code == -signal.SIGKILL else err.strip()
    last = said.splitlines()[-1] if said else ""
    return str(code), f"{wall:.1f}", f"{usage.ru_maxrss / 1024:.0f}", last[:160]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bomb-mib", type=int, default=1024)
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose codelog runs")
    parser.add_argument("--rows", default="bomb,doubled,shared")
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    base = json.loads(ROW.read_text().splitlines()[0])
    hostile = rows(args.bomb_mib)
    print(f"codelog at {args.repo}")
    print("| row | row bytes | exit | wall s | peak RSS MiB | last line |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory(prefix="codelog-bench-decoding-") as tmp:
        samples = Path(tmp) / "samples.jsonl"
        samples.write_text(json.dumps({"task_id": base["question_id"], "completion": "1"}) + "\n")
        for name in args.rows.split(","):
            row = Path(tmp) / f"{name}.jsonl"
            row.write_text(json.dumps({**base, "private_test_cases": hostile[name]}) + "\n")
            got = run(args.repo.resolve(), row, samples, Path(tmp) / f"out-{name}", args.timeout)
            print(f"| {name} | {row.stat().st_size:,} | " + " | ".join(got) + " |", flush=True)


if __name__ == "__main__":
    main()
