"""`codelog eval` on the real benchmark rows of ../shared/data/benchmarks/, warm and cold,
against its floor.

    python bench/eval.py [--shared ../shared/data/benchmarks] [--workers 2] [--rounds 1] [--json]

Each set is scored with `codelog.evaluate(..., samples_file=...)`, the whole command as a user
runs it (read, judge in the sandbox, journal, write samples.jsonl + summary.json):

- **mbpp**: the 474 rows' canonical `code` (function problems: a candidate box and a checker
  box per sample); every one must pass.
- **apps**: the 39 real model outputs of APPS's two problems in shared/ (stdio and
  call-based); their verdicts must be APPS's.
- **codecontests**: the 20 SandboxFusion problems as Hub-schema rows, every test private
  (35-331 each); samples: codelog's solutions of 12_B and 1238_B (every test runs) and a
  wrong program for each of the 20 (stops at its first failing test).

A *run* is a sandboxed process: a stdio test is one; a function sample is its candidate, and
its checker: cold one per sample, warm one per worker (a warm worker keeps its checker from
sample to sample). The floor is as many sandboxed `python -S -c pass` (cold) or forks of
it from a zygote (warm) on the same pool (bench/judge.py's `floor`): no eval can start fewer
processes.
Reported: samples/s, runs/s, and runs/s as a share of the floor's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from judge import floor  # noqa: E402

import codelog  # noqa: E402
import codelog.benchmarks as benchmarks  # noqa: E402

GOOD_12B = (
    REPO / "tests/fixtures/benchmarks/codecontests/code_contests-hub-rows.jsonl"
).read_text()


def mbpp_set(shared: Path, work: Path) -> tuple[str, Path, dict]:
    rows = [
        json.loads(line) for line in (shared / "mbpp/mbpp-prompt-validation-train.jsonl").open()
    ]
    samples = work / "mbpp.jsonl"
    with samples.open("w") as f:
        for r in rows:
            f.write(json.dumps({"task_id": r["task_id"], "completion": r["code"]}) + "\n")
    return f"mbpp:{shared / 'mbpp/mbpp-prompt-validation-train.jsonl'}", samples, {"split": "all"}


def apps_set(shared: Path, work: Path) -> tuple[str, Path, dict]:
    samples = work / "apps.jsonl"
    with samples.open("w") as f:
        for tid in ("0001", "2404"):
            for o in json.loads((shared / "apps/train" / tid / "gen_solutions.json").read_text()):
                f.write(json.dumps({"task_id": tid, "completion": o["code"]}) + "\n")
    return f"apps:{shared / 'apps'}", samples, {"split": "train"}


def codecontests_set(shared: Path, work: Path) -> tuple[str, Path, dict]:
    fixture = [json.loads(line) for line in GOOD_12B.splitlines()]
    solutions = {
        r["name"]: r["solutions"]["solution"][0] for r in fixture if r["solutions"]["solution"]
    }
    rows = work / "code_contests.jsonl"
    samples = work / "cc-samples.jsonl"
    with rows.open("w") as out, samples.open("w") as s:
        for line in (shared / "codecontests/sandboxfusion-code-contests-20.jsonl").open():
            r = json.loads(line)
            labels, tests = json.loads(r["labels"]), json.loads(r["test"])
            out.write(json.dumps({
                "name": labels["name"], "description": r["content"],
                "private_tests": {"input": [t["input"]["stdin"] for t in tests],
                                  "output": [t["output"]["stdout"] for t in tests]},
                "time_limit": {"seconds": 2, "nanos": 0}, "memory_limit_bytes": 256 << 20,
            }) + "\n")  # fmt: skip
            if labels["name"] in solutions:
                s.write(
                    json.dumps({"task_id": labels["name"], "completion": solutions[labels["name"]]})
                    + "\n"
                )
            s.write(json.dumps({"task_id": labels["name"], "completion": "print(0)\n"}) + "\n")
    return f"codecontests:{rows}", samples, {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared/data/benchmarks")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict = {"workers": args.workers, "load_before": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sets = {
            "mbpp": mbpp_set(args.shared, work),
            "apps": apps_set(args.shared, work),
            "codecontests": codecontests_set(args.shared, work),
        }
        for name, (spec, samples, extra) in sets.items():
            for warm in (True, False):
                best = None
                for r in range(args.rounds):
                    out = work / f"{name}-{warm}-{r}"
                    start = time.monotonic()
                    with contextlib.redirect_stderr(io.StringIO()):
                        result = codelog.evaluate(
                            spec, samples_file=samples, out=out, workers=args.workers,
                            warm=warm, quiet=True, **extra,
                        )  # fmt: skip
                    seconds = time.monotonic() - start
                    best = min(
                        best or (seconds, out, result), (seconds, out, result), key=lambda x: x[0]
                    )
                seconds, out, result = best  # type: ignore[misc]
                suite = benchmarks.load(spec, extra.get("split"))
                kinds = {p: t.problem.kind for p, t in suite.tasks.items()}
                runs = count_runs(out, kinds, warm, args.workers)
                floor_s = floor(runs, args.workers, warm)
                figures[f"{name} {'warm' if warm else 'cold'}"] = {
                    "samples": result.samples,
                    "pass@1": round(result.overall.get("pass@1", 0.0), 4),
                    "seconds": round(seconds, 2),
                    "samples/s": round(result.samples / seconds, 1),
                    "runs": runs,
                    "runs/s": round(runs / seconds, 1),
                    "floor runs/s": round(runs / floor_s, 1),
                    "share of floor": round(floor_s / seconds, 2),
                }
    figures["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"workers {args.workers}, load {figures['load_before']:.2f} -> {figures['load_after']:.2f}"
    )
    print(
        f"{'set':22} {'samples':>7} {'pass@1':>7} {'s':>7} {'samples/s':>9} {'runs':>6} {'runs/s':>7} {'floor':>7} {'share':>6}"
    )
    for key, f in figures.items():
        if isinstance(f, dict):
            print(
                f"{key:22} {f['samples']:>7} {f['pass@1']:>7} {f['seconds']:>7} "
                f"{f['samples/s']:>9} {f['runs']:>6} {f['runs/s']:>7} {f['floor runs/s']:>7} "
                f"{f['share of floor']:>6}"
            )


def count_runs(out: Path, kinds: dict[str, str], warm: bool, workers: int) -> int:
    """Sandboxed processes the run had to start at the least: one per stdio test run; per
    function sample its candidate, and a checker: cold one per sample, warm one per worker (a
    warm worker keeps its checker from sample to sample, of any problem)."""
    total = 0
    functions = False
    for line in (out / "samples.jsonl").open():
        r = json.loads(line)
        if r.get("status") == "skipped":
            continue
        if kinds[r["problem_id"]] == "function":
            total += 1 if warm else 2
            functions = True
        else:
            total += r["tests_run"]
    return total + (workers if warm and functions else 0)


if __name__ == "__main__":
    main()
