"""`codelog eval --benchmark NAME:PATH`: pass@k overall and per difficulty, the failures' mix,
stop at the first failing test unless per-test rates are asked for, compare with an earlier
run, and resume after a kill with the bytes of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import codelog
from codelog.errors import CodelogError
from codelog.evaluation.reporting import compare_summaries, load_summary
from codelog.execution.journal import journal_path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "benchmarks"
MBPP = f"mbpp:{FIXTURES / 'mbpp' / 'mbpp-sample.jsonl'}"
APPS = FIXTURES / "apps"
CC = FIXTURES / "codecontests" / "code_contests-hub-rows.jsonl"


def write_samples(path: Path, rows: list[tuple[object, str]]) -> Path:
    with path.open("w") as f:
        for task_id, code in rows:
            f.write(json.dumps({"task_id": task_id, "completion": code}) + "\n")
    return path


def killed_after(lines: int, argv: list[str], journal: Path, **popen) -> subprocess.Popen:
    """`argv` started, and SIGKILLed once its journal holds `lines` lines (or after 2 min)."""
    proc = subprocess.Popen(argv, **popen)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if journal.is_file() and journal.read_text().count("\n") >= lines:
            break
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    return proc


def mbpp_canonical() -> list[tuple[object, str]]:
    rows = [json.loads(line) for line in Path(MBPP[5:]).read_text().splitlines()]
    return [(r["task_id"], r["code"]) for r in rows]


def test_mbpp_canonical_code_scores_one_and_broken_completions_zero(tmp_path: Path) -> None:
    good = write_samples(tmp_path / "good.jsonl", mbpp_canonical())
    result = codelog.evaluate(MBPP, samples_file=good, split="all", out=tmp_path / "good")
    assert result.overall == {"pass@1": 1.0} and result.samples == 10
    broken = write_samples(
        tmp_path / "broken.jsonl",
        [
            (2, "def similar(a, b):\n    return tuple(set(a) & set(b))\n"),
            (2, "def similar_elements(a, b):\n    raise ValueError\n"),
            (2, "import sys\nsys.exit(0)\ndef similar_elements(a, b):\n    return (3, 4)\n"),
            (2, "import os\nos._exit(0)\n"),
            (2, "def similar_elements(a, b)\n    return a\n"),
        ],
    )
    result = codelog.evaluate(
        MBPP, samples_file=broken, split="all", out=tmp_path / "broken", quiet=True
    )
    assert result.overall == {"pass@1": 0.0}
    assert result.failures == {"Compile Error": 1, "Runtime Error": 4}
    summary = json.loads((tmp_path / "broken" / "summary.json").read_text())
    assert summary["failures"] == result.failures and summary["split"] == "all"


def test_apps_reports_pass_at_k_per_difficulty(tmp_path: Path) -> None:
    rows = []
    for tid in ("0001", "2404"):
        outputs = json.loads((APPS / "train" / tid / "gen_solutions.json").read_text())
        rows += [(tid, o["code"]) for o in outputs]
    samples = write_samples(tmp_path / "apps.jsonl", rows)
    result = codelog.evaluate(
        f"apps:{APPS}", samples_file=samples, split="train", ks="1,5", out=tmp_path / "o"
    )
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    levels = summary["by_difficulty"]
    assert set(levels) == {"interview", "introductory"}
    assert levels["interview"]["pass@1"] == pytest.approx(14 / 20)
    assert levels["introductory"]["pass@1"] == pytest.approx(18 / 19)
    assert levels["interview"]["failures"] == {"Wrong Answer": 6}
    assert summary["pass@1"] == pytest.approx((14 / 20 + 18 / 19) / 2)
    assert summary["per_problem"]["2404"]["difficulty"] == "introductory"
    assert result.by_difficulty == levels


def test_a_sample_stops_at_its_first_failing_test_unless_per_test_rates_are_asked(
    tmp_path: Path,
) -> None:
    row = json.loads(CC.read_text().splitlines()[0])  # 12_B: its wrong solution prints OK
    samples = write_samples(
        tmp_path / "s.jsonl", [(row["name"], row["incorrect_solutions"]["solution"][0])]
    )
    first = codelog.evaluate(f"codecontests:{CC}", samples_file=samples, out=tmp_path / "a")
    every = codelog.evaluate(
        f"codecontests:{CC}", samples_file=samples, out=tmp_path / "b", per_test=True
    )
    stopped = json.loads((tmp_path / "a" / "samples.jsonl").read_text())
    ran = json.loads((tmp_path / "b" / "samples.jsonl").read_text())
    assert stopped["status"] == ran["status"] == "Wrong Answer"
    assert stopped["tests_run"] < stopped["tests_total"] == ran["tests_run"] == 18
    assert first.test_pass_rate is None
    assert 0 < every.test_pass_rate == ran["tests_passed"] / 18 < 1


def test_compare_sets_a_run_against_an_earlier_one(tmp_path: Path) -> None:
    canonical = mbpp_canonical()
    half = [(t, c if i % 2 else "def nothing():\n    pass\n") for i, (t, c) in enumerate(canonical)]
    base = write_samples(tmp_path / "base.jsonl", half)
    trained = write_samples(tmp_path / "trained.jsonl", canonical)
    codelog.evaluate(MBPP, samples_file=base, split="all", out=tmp_path / "base")
    result = codelog.evaluate(
        MBPP, samples_file=trained, split="all", out=tmp_path / "trained",
        compare=tmp_path / "base",
    )  # fmt: skip
    # per problem 0 -> 1 on the 5 broken ones, 1 -> 1 on the others: differences five 1s and
    # five 0s, mean 0.5, sd sqrt(2.5 / 9), standard error sqrt(2.5 / 90) = 1/6; t(9) = 2.2622
    figures = result.comparison["overall"]["pass@1"]
    assert (figures["before"], figures["after"], figures["n"]) == (0.5, 1.0, 10)
    assert figures["difference"] == 0.5 and figures["stderr"] == pytest.approx(1 / 6)
    assert figures["interval95"] == pytest.approx([0.5 - 2.2622 / 6, 0.5 + 2.2622 / 6], abs=1e-4)
    assert figures["word"] == "better"
    assert result.comparison["only_before"] == result.comparison["only_after"] == []
    summary = json.loads((tmp_path / "trained" / "summary.json").read_text())
    assert summary["compared_with"] == result.comparison

    # The run against itself: 0 ± 0, within noise.
    again = codelog.evaluate(
        MBPP, samples_file=trained, split="all", out=tmp_path / "again",
        compare=tmp_path / "trained",
    )  # fmt: skip
    same = again.comparison["overall"]["pass@1"]
    assert (same["difference"], same["stderr"], same["interval95"]) == (0.0, 0.0, [0.0, 0.0])
    assert same["word"] == "within noise"


def test_compare_pairs_problems_per_difficulty_and_names_those_one_run_lacks() -> None:
    def summary(per_problem: dict) -> dict:
        return {"benchmark": "apps", "split": "test", "ks": [1, 2], "per_problem": per_problem}

    def problem(level: str, p1: float, p2: float | None = None) -> dict:
        return {"difficulty": level, "pass@1": p1, **({"pass@2": p2} if p2 is not None else {})}

    before = summary(
        {
            "a": problem("interview", 0.0, 0.0),
            "b": problem("interview", 0.5, 1.0),
            "c": problem("introductory", 0.25, 0.5),
            "d": problem("introductory", 0.5, 0.75),
            "gone": problem("interview", 1.0, 1.0),
        }
    )
    after = summary(
        {
            "a": problem("interview", 0.25, 0.5),
            "b": problem("interview", 0.75, 1.0),
            "c": problem("introductory", 0.25, 0.5),
            "d": problem("introductory", 0.75),  # one sample: no pass@2
            "new1": problem("competition", 0.0, 0.0),
            "new2": problem("competition", 1.0, 1.0),
        }
    )
    comparison = compare_summaries(before, after)
    assert comparison["only_before"] == ["gone"] and comparison["only_after"] == ["new1", "new2"]
    overall = comparison["overall"]
    # pass@1 over a, b, c, d: differences 0.25, 0.25, 0, 0.25: mean 0.1875, sd 0.125, se 0.0625
    assert (overall["pass@1"]["n"], overall["pass@1"]["difference"]) == (4, 0.1875)
    assert overall["pass@1"]["stderr"] == pytest.approx(0.0625)
    assert overall["pass@1"]["before"] == pytest.approx(0.3125)  # "gone" (1.0) left out
    assert overall["pass@1"]["word"] == "within noise"  # t(3) * 0.0625 = 0.199 > 0.1875
    # pass@2 over a, b, c only (d has none this run): 0.5, 0, 0
    assert (overall["pass@2"]["n"], overall["pass@2"]["difference"]) == (3, pytest.approx(1 / 6))
    levels = comparison["by_difficulty"]
    assert list(levels) == ["interview", "introductory"]  # competition: only this run has any
    assert levels["interview"]["pass@1"]["difference"] == 0.25
    assert levels["interview"]["pass@1"]["stderr"] == 0.0  # both rose by 0.25 exactly
    assert levels["interview"]["pass@1"]["word"] == "better"
    assert levels["introductory"]["pass@1"]["n"] == 2


def test_compare_with_a_summary_without_per_problem_figures_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "summary.json").write_text(json.dumps({"ks": [1], "pass@1": 0.5}))
    with pytest.raises(CodelogError, match=r"--compare .*summary.json has no per_problem figures"):
        load_summary(tmp_path)


def test_eval_resumes_after_a_kill_and_writes_the_bytes_of_an_uninterrupted_run(
    tmp_path: Path,
) -> None:
    samples = write_samples(tmp_path / "s.jsonl", mbpp_canonical() * 6)  # 60 samples
    argv = [
        sys.executable, "-m", "codelog.cli", "eval", "--benchmark", MBPP, "--split", "all",
        "--samples", str(samples), "--workers", "1", "--quiet",
    ]  # fmt: skip
    whole = subprocess.run(
        [*argv, "--out", str(tmp_path / "whole")], capture_output=True, timeout=300
    )
    assert whole.returncode == 0, whole.stderr
    out = tmp_path / "killed"
    journal = journal_path(out / "samples.jsonl")
    proc = killed_after(12, [*argv, "--out", str(out)], journal, stderr=subprocess.PIPE)
    assert proc.returncode == -signal.SIGKILL
    assert journal.is_file() and not (out / "summary.json").exists()
    with journal.open("a") as f:
        f.write('{"problem_id": "2", "ind')  # a line cut short by the kill
    loud = [a for a in argv if a != "--quiet"]  # --quiet silences the closing line too
    again = subprocess.run([*loud, "--out", str(out)], capture_output=True, timeout=300, text=True)
    assert again.returncode == 0, again.stderr
    assert "read back from the interrupted run" in again.stderr
    assert not journal.exists()
    for name in ("samples.jsonl", "summary.json"):
        assert (out / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()


def test_judge_tests_resolves_a_benchmark_name(tmp_path: Path) -> None:
    samples = tmp_path / "s.jsonl"
    with samples.open("w") as f:
        for task_id, code in mbpp_canonical()[:3]:
            f.write(json.dumps({"problem_id": str(task_id), "code": code}) + "\n")
    report = codelog.judge(samples, tmp_path / "ci.jsonl", tests=MBPP, workers=1)
    assert report.statuses == {"Accepted": 3}


def test_a_model_is_asked_the_benchmarks_own_prompt(sample_dataset: Path, tmp_path: Path) -> None:
    from codelog.evaluation.sampling import completion_program, prompt_text
    from codelog.training.data import open_dataset
    from codelog.training.models import build_tiny

    tiny = build_tiny(open_dataset(sample_dataset), tmp_path / "tiny", 512, 0)
    result = codelog.evaluate(
        MBPP, model=str(tiny), split="all", limit=2, n=2, ks="1,2", max_new_tokens=8,
        out=tmp_path / "o", quiet=True, workers=1,
    )  # fmt: skip
    assert result.samples == 4 and set(result.overall) == {"pass@1", "pass@2"}
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["model"] == str(tiny) and summary["split"] == "all"
    import codelog.benchmarks as benchmarks

    task = benchmarks.load(MBPP, "all").tasks["2"]
    assert prompt_text(task.problem, "{statement}", task).startswith(
        "You are an expert Python programmer, and here is your task: Write a function to find "
        "the similar elements"
    )
    fenced = "Here it is:\n```python\ndef f():\n    return 1\n```\nDone."
    assert completion_program(task.problem, fenced, task) == "def f():\n    return 1\n"


def test_a_resumed_eval_judges_again_what_changed_since_the_kill(tmp_path: Path) -> None:
    # the journal keys each verdict on the code and the problem's tests (issue 33): a tests
    # file edited between the kill and the re-run must not lend its old verdicts
    bench = tmp_path / "mbpp.jsonl"
    bench.write_text(Path(MBPP[5:]).read_text())
    samples = write_samples(tmp_path / "s.jsonl", mbpp_canonical() * 6)
    argv = [
        sys.executable, "-m", "codelog.cli", "eval", "--benchmark", f"mbpp:{bench}",
        "--split", "all", "--samples", str(samples), "--workers", "1", "--quiet",
    ]  # fmt: skip
    out = tmp_path / "killed"
    journal = journal_path(out / "samples.jsonl")
    killed_after(12, [*argv, "--out", str(out)], journal)
    rows = [json.loads(line) for line in bench.read_text().splitlines()]
    rows[0]["test_list"] = [t.replace("==", "!=", 1) for t in rows[0]["test_list"]]
    bench.write_text("".join(json.dumps(r) + "\n" for r in rows))
    again = subprocess.run([*argv, "--out", str(out)], capture_output=True, timeout=300)
    assert again.returncode == 0, again.stderr
    fresh = subprocess.run([*argv, "--out", str(tmp_path / "fresh")], capture_output=True)
    assert fresh.returncode == 0, fresh.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary == json.loads((tmp_path / "fresh" / "summary.json").read_text())
    assert summary["pass@1"] < 1.0  # the first task's samples now fail


# --- eval like judge: a pipe read once, one run per --out (issue 44) ---------------------------


@pytest.mark.parametrize(
    "given",
    ["<(cat {samples})", "/dev/stdin < <(cat {samples})"],
    ids=["process-substitution", "dev-stdin"],
)
def test_a_pipe_of_samples_is_judged_whole(tmp_path: Path, given: str) -> None:
    # the first pass that counts the samples used to empty the pipe: 0 scored, exit 0
    samples = write_samples(tmp_path / "s.jsonl", mbpp_canonical()[:3])
    out = tmp_path / "o"
    command = (
        f"{sys.executable} -m codelog.cli eval --benchmark {MBPP} --split all "
        f"--samples {given.format(samples=samples)} --workers 1 --out {out}"
    )
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert [(r["problem_id"], r["status"]) for r in rows] == [
        ("2", "Accepted"),
        ("3", "Accepted"),
        ("10", "Accepted"),
    ]
    assert json.loads((out / "summary.json").read_text())["samples"] == 3
    assert "judged 3 in" in done.stderr
    assert [p.name for p in tmp_path.iterdir() if "codelog-judge-input" in p.name] == []


def test_a_second_eval_on_the_same_out_is_refused(tmp_path: Path) -> None:
    # two runs on one --out shared a journal: 35 duplicate (problem, index) rows
    from codelog.errors import BusyError
    from codelog.files import exclusive_lock

    samples = write_samples(tmp_path / "s.jsonl", mbpp_canonical()[:2])
    out = tmp_path / "o"
    busy = pytest.raises(BusyError, match=r"another eval run of .*/o is running \(pid \d+\)")
    with exclusive_lock(tmp_path / ".o.lock", str(out)), busy:  # the lock judge and build take
        codelog.evaluate(MBPP, samples_file=samples, split="all", out=out, quiet=True)
    assert not out.exists() or not any(out.iterdir())
    codelog.evaluate(MBPP, samples_file=samples, split="all", out=out, quiet=True)
    rows = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert [(r["problem_id"], r["index"]) for r in rows] == [("2", 0), ("3", 0)]


def test_a_sample_of_a_problem_without_tests_is_counted_as_not_judged(tmp_path: Path) -> None:
    # it was refused as "not in the benchmark" while summary.json listed it under not_judged
    import shutil

    shutil.copytree(APPS / "train" / "2404", tmp_path / "apps" / "train" / "2404")
    untested = tmp_path / "apps" / "train" / "9999"
    shutil.copytree(APPS / "train" / "2404", untested)
    (untested / "input_output.json").unlink()
    good = json.loads((APPS / "train" / "2404" / "gen_solutions.json").read_text())[0]["code"]
    samples = write_samples(tmp_path / "s.jsonl", [("9999", good), ("2404", good)])
    result = codelog.evaluate(
        f"apps:{tmp_path / 'apps'}", samples_file=samples, split="train", out=tmp_path / "o"
    )
    why = "no input_output: nothing to judge against"
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["not_judged"] == {"9999": why}
    assert summary["skipped"] == result.skipped == {why: 1}
    assert summary["samples"] == 2 and list(summary["per_problem"]) == ["2404"]
    lines = (tmp_path / "o" / "samples.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert [(r["problem_id"], r["status"]) for r in rows] == [
        ("9999", "skipped"),
        ("2404", "Accepted"),
    ]
    assert rows[0]["detail"] == why
