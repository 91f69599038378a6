"""`codelog experiment`: the paper's table (methods x benchmark x difficulty x k) from one
command; a killed experiment resumes and never redoes a finished cell."""

from __future__ import annotations

import json
import math
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

import codelog
from codelog.errors import CodelogError, RecipeError
from codelog.evaluation.reporting import against, results_markdown
from codelog.evaluation.scoring import by_difficulty
from codelog.recipe import load_recipe
from codelog.uncertainty import mean_and_stderr

REPO = Path(__file__).resolve().parents[2]
APPS = REPO / "tests" / "fixtures" / "benchmarks" / "apps" / "apps-hub-rows.jsonl"  # 2 problems

# Small enough for `make test`: the tiny model, 4 steps, a checkpoint every 2, 2 short samples.
RECIPE = """
[train]
max_length = 128
batch_tokens = 2048
steps = 4
checkpoint_every = 2
warmup_steps = 1

[experiment]
n = 2
k = [1, 2]
max_new_tokens = 16
"""


@pytest.fixture
def recipe(tmp_path: Path) -> Path:
    path = tmp_path / "experiment.toml"
    path.write_text(RECIPE, encoding="utf-8")
    return path


def without_timings(results: dict) -> dict:
    """results.json less what differs between two runs of one experiment: wall times."""
    return {**results, "rows": [{**r, "seconds": None} for r in results["rows"]]}


def test_five_rows_then_every_cell_kept_and_a_changed_flag_refused(
    sample_dataset: Path, recipe: Path, tmp_path: Path
) -> None:
    out = tmp_path / "exp"
    columns = ["heldout", f"apps:{APPS}"]  # the dataset's test split; APPS, by difficulty
    result = codelog.experiment(sample_dataset, out, recipe=recipe, benchmarks=columns, workers=1)
    results = json.loads((out / "results.json").read_text())
    assert [r["algo"] for r in results["rows"]] == ["base", "sft", "rloo", "grpo", "exp"]
    assert result.ran == results["algos"] and not result.kept
    assert (results["steps"], results["seed"], results["n"], results["k"]) == (4, 0, 2, [1, 2])
    assert "standard error" in results["estimator"]
    assert [sorted(r["against"]) for r in results["rows"]] == [[], ["base"], *[["base", "sft"]] * 3]
    paired = results["rows"][2]["against"]["sft"][f"apps:{APPS}"]["all"]["pass@1"]
    assert paired["n"] == 2 and paired["word"] in ("better", "worse", "within noise")
    for row in results["rows"]:
        heldout = row["results"]["heldout"]
        assert heldout["problems"] == 1 and heldout["samples"] == 2  # the sample's test problem
        figures = heldout["by_difficulty"]["all"]
        assert 0 <= figures["pass@1"] <= figures["pass@2"] <= 1
        assert figures["stderr@1"] is None  # one problem: no spread to measure
        apps = row["results"][f"apps:{APPS}"]["by_difficulty"]
        assert list(apps) == ["all", "introductory", "interview"]  # one problem each
        assert apps["all"]["problems"] == 2 and apps["all"]["stderr@1"] is not None
        if row["algo"] != "base":
            checkpoint = out / row["training"]["checkpoint"]
            assert checkpoint.name == "step-000004" and (checkpoint / "codelog.json").is_file()
    table = (out / "results.md").read_text().splitlines()
    apps = "apps (apps-hub-rows.jsonl)"
    assert table[2] == (
        "| method | held-out pass@1 | held-out pass@2 | "
        f"{apps} pass@1 | {apps} pass@2 | {apps} introductory pass@1 | "
        f"{apps} introductory pass@2 | {apps} interview pass@1 | {apps} interview pass@2 |"
    )
    assert [line.split(" | ")[0] for line in table[4:9]] == [
        "| base",
        "| sft",
        "| rloo",
        "| grpo",
        "| exp",
    ]
    assert (out / "results.png").stat().st_size > 0

    # Again: every cell is finished with the same inputs, so nothing is trained or sampled.
    cells = {a: (out / a / "cell.json").stat().st_mtime_ns for a in results["algos"]}
    again = codelog.experiment(sample_dataset, out, recipe=recipe, benchmarks=columns, workers=1)
    assert again.ran == [] and again.kept == results["algos"]
    assert {a: (out / a / "cell.json").stat().st_mtime_ns for a in cells} == cells
    assert json.loads((out / "results.json").read_text()) == results

    # A finished cell with other inputs is an error naming the flag, before any work.
    with pytest.raises(CodelogError, match=r"base/cell.json: .*-n 2, not 3"):
        codelog.experiment(sample_dataset, out, recipe=recipe, benchmarks=columns, n=3)
    with pytest.raises(CodelogError, match=r"sft/cell.json: .*--steps 4, not 5"):
        codelog.experiment(sample_dataset, out, recipe=recipe, benchmarks=columns, steps=5)
    assert {a: (out / a / "cell.json").stat().st_mtime_ns for a in cells} == cells


def test_a_killed_experiment_resumes_without_redoing_a_finished_cell(
    sample_dataset: Path, recipe: Path, tmp_path: Path
) -> None:
    out = tmp_path / "killed"
    command = [sys.executable, "-m", "codelog.cli", "experiment", str(sample_dataset)]
    command += ["--out", str(out), "--recipe", str(recipe), "--algos", "base,sft", "--workers", "1"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    first = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: the kill reaches only what it started
    )  # fmt: skip
    halfway = out / "sft" / "run" / "checkpoints" / "step-000002"
    deadline = time.monotonic() + 120
    while not halfway.is_dir() and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate(timeout=30)
    assert first.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    assert (out / "base" / "cell.json").is_file() and halfway.is_dir()
    assert not (out / "sft" / "cell.json").exists() and not (out / "results.json").exists()
    base_done = (out / "base" / "cell.json").stat().st_mtime_ns
    checkpoint_2 = (halfway / "codelog.json").stat().st_mtime_ns

    second = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "[1/2] base: finished earlier, kept" in second.stderr
    assert "1 cell(s) run, 1 kept from before" in second.stderr
    assert (out / "base" / "cell.json").stat().st_mtime_ns == base_done
    # the training continued from its step-2 checkpoint, which it left as it was
    assert (halfway / "codelog.json").stat().st_mtime_ns == checkpoint_2
    assert "| sft |" in second.stdout

    # The same experiment, never interrupted (in this process), gives the same results.json
    # but for the wall times.
    whole = tmp_path / "whole"
    codelog.experiment(sample_dataset, whole, recipe=recipe, algos=["base", "sft"], workers=1)
    resumed = json.loads((out / "results.json").read_text())
    assert without_timings(resumed) == without_timings(
        json.loads((whole / "results.json").read_text())
    )


def results_of(levels: list[str], rows: list[dict]) -> dict:
    """results.json as results_markdown reads it: pass@1 of apps.jsonl at `levels`."""
    return {
        "recipe": "r",
        "model": "m",
        "steps": 1,
        "seed": 0,
        "n": 4,
        "temperature": 0.8,
        "max_new_tokens": 8,
        "estimator": "e",
        "benchmarks": ["apps.jsonl"],
        "columns": [{"benchmark": "apps.jsonl", "difficulty": d, "k": 1} for d in levels],
        "rows": rows,
    }


def test_pass_at_k_per_difficulty_with_the_standard_error_of_the_mean() -> None:
    per_problem = {
        "a": {"n": 4, "correct": 4, "pass@1": 1.0, "difficulty": "interview"},
        "b": {"n": 4, "correct": 1, "pass@1": 0.25, "difficulty": "interview"},
        "c": {"n": 4, "correct": 0, "pass@1": 0.0, "difficulty": "introductory"},
        "d": {"n": 4, "correct": 2, "pass@1": 0.5, "difficulty": "competition"},
    }
    figures = by_difficulty(per_problem, [1])
    assert list(figures) == ["all", "introductory", "interview", "competition"]
    values = [1.0, 0.25, 0.0, 0.5]
    assert figures["all"]["pass@1"] == pytest.approx(statistics.mean(values))
    assert figures["all"]["stderr@1"] == pytest.approx(statistics.stdev(values) / 2)
    assert figures["interview"]["stderr@1"] == pytest.approx(
        statistics.stdev([1.0, 0.25]) / math.sqrt(2)
    )
    assert (figures["introductory"]["pass@1"], figures["introductory"]["stderr@1"]) == (0.0, None)
    assert figures["all"]["samples"] == 16
    assert mean_and_stderr([]) == (None, None)

    results = results_of(
        list(figures),
        [{"algo": "base", "results": {"apps.jsonl": {"problems": 4, "by_difficulty": figures}}}],
    )
    row = results_markdown(results).splitlines()[4]
    # percent, ± the standard error, a column per difficulty in the paper's order
    assert row == "| base | 43.75 ± 21.35 | 0.00 | 62.50 ± 37.50 | 50.00 |"


def test_each_method_is_paired_against_the_base_model_and_sft_per_problem() -> None:
    levels = {"a": "interview", "b": "interview", "c": "introductory", "d": "introductory"}

    def cell(algo: str, pass_at_1: list[float]) -> dict:
        per_problem = {
            p: {"n": 4, "pass@1": v, "difficulty": levels[p]}
            for p, v in zip("abcd", pass_at_1, strict=True)
        }
        kept = {
            p: {"pass@1": e["pass@1"], "difficulty": e["difficulty"]}
            for p, e in per_problem.items()
        }
        result = {
            "problems": 4,
            "by_difficulty": by_difficulty(per_problem, [1]),
            "per_problem": kept,
        }
        return {"algo": algo, "results": {"apps.jsonl": result}}

    cells = [
        cell("base", [0.2, 0.4, 0.6, 0.8]),
        cell("sft", [0.3, 0.5, 0.8, 0.9]),
        cell("rloo", [0.3, 0.5, 0.7, 0.9]),
    ]
    assert against(cells[0], cells, [1]) == {}  # sft's row says base against sft
    sft = against(cells[1], cells, [1])
    assert list(sft) == ["base"]
    # sft - base per problem: 0.1, 0.1, 0.2, 0.1: mean 0.125, standard error 0.025. The
    # standard errors of the two rows combined are 0.189: twice that, 0.378, calls the same
    # rise noise; paired, t(3) * 0.025 = 0.080 < 0.125 shows it.
    overall = sft["base"]["apps.jsonl"]["all"]["pass@1"]
    assert (overall["difference"], overall["stderr"]) == (
        pytest.approx(0.125),
        pytest.approx(0.025),
    )
    assert overall["n"] == 4 and overall["word"] == "better"
    base_se = cells[0]["results"]["apps.jsonl"]["by_difficulty"]["all"]["stderr@1"]
    sft_se = cells[1]["results"]["apps.jsonl"]["by_difficulty"]["all"]["stderr@1"]
    unpaired_noise = 2 * math.sqrt(base_se**2 + sft_se**2)
    assert (
        unpaired_noise == pytest.approx(0.3775, abs=1e-4) and overall["difference"] < unpaired_noise
    )
    rloo = against(cells[2], cells, [1])
    assert list(rloo) == ["base", "sft"]
    # rloo - sft: 0, 0, -0.1, 0: mean -0.025 ± 0.025, within noise
    vs_sft = rloo["sft"]["apps.jsonl"]["all"]["pass@1"]
    assert vs_sft["difference"] == pytest.approx(-0.025) and vs_sft["word"] == "within noise"

    results = results_of(
        ["all", "introductory", "interview"],
        [
            {"algo": c["algo"], "results": c["results"], "against": against(c, cells, [1])}
            for c in cells
        ],
    )
    table = results_markdown(results)
    assert "twice the standard errors" not in table
    lines = table.splitlines()
    paired_rows = [
        line for line in lines if line.startswith("| sft - ") or line.startswith("| rloo - ")
    ]
    # introductory (c, d): 0.2, 0.1 -> 15 ± 5 points, t(1) = 12.7: noise; interview: 10 ± 0
    assert paired_rows == [
        "| sft - base | +12.50 ± 2.50 better | +15.00 ± 5.00 within noise | +10.00 ± 0.00 better |",
        "| rloo - base | +10.00 ± 0.00 better | +10.00 ± 0.00 better | +10.00 ± 0.00 better |",
        "| rloo - sft | -2.50 ± 2.50 within noise | -5.00 ± 5.00 within noise | +0.00 ± 0.00 within noise |",
    ]


def test_the_experiment_section_of_a_recipe(tmp_path: Path) -> None:
    paper = load_recipe(REPO / "recipes" / "paper-qwen2.5-coder-0.5b.toml")
    assert paper.experiment is not None and paper.experiment.algos[0] == "base"
    assert max(paper.experiment.k) == 10 <= paper.experiment.n
    assert "experiment" not in load_recipe().to_dict()  # manifests without it are unchanged
    bad = tmp_path / "bad.toml"
    bad.write_text("[experiment]\nn = 2\nk = [1, 10]\n")
    with pytest.raises(RecipeError, match=r"bad.toml: \[experiment\] k = \[1, 10\]"):
        load_recipe(bad)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"algos": ["base", "foo"]}, r"--algos base,foo: 'foo' is not base"),
        ({"n": 2, "k": [1, 20]}, r"-k 1,20: pass@20 needs -n 20"),
        ({"benchmarks": ["nosuch.jsonl"]}, r"nosuch.jsonl: no such file"),
        ({"steps": 0}, r"--steps 0: must be at least 1"),
    ],
)
def test_a_bad_flag_fails_before_anything_is_written(
    sample_dataset: Path, tmp_path: Path, options: dict, message: str
) -> None:
    with pytest.raises(CodelogError, match=message):
        codelog.experiment(sample_dataset, tmp_path / "exp", **options)
    assert not (tmp_path / "exp").exists()


def test_an_unfinished_cell_with_other_inputs_starts_over_and_foreign_files_stay(
    sample_dataset: Path, tmp_path: Path
) -> None:
    out = tmp_path / "exp"
    settings = {"algos": ["base"], "n": 1, "k": [1], "max_new_tokens": 8, "workers": 1}
    codelog.experiment(sample_dataset, out, **settings)
    (out / "base" / "cell.json").unlink()  # as if killed before the cell was done
    settings |= {"n": 2, "k": [1, 2]}
    again = codelog.experiment(sample_dataset, out, **settings)
    assert again.ran == ["base"]
    assert json.loads((out / "base" / "inputs.json").read_text())["n"] == 2
    assert again.results["rows"][0]["results"]["heldout"]["samples"] == 2

    # a directory in the cell's place that the experiment did not make is never removed
    (out / "sft").mkdir()
    (out / "sft" / "notes.txt").write_text("mine\n")
    with pytest.raises(CodelogError, match=r"sft: exists but is not a cell"):
        codelog.experiment(sample_dataset, out, **{**settings, "algos": ["base", "sft"]})
    assert (out / "sft" / "notes.txt").read_text() == "mine\n"
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "x").write_text("x")
    with pytest.raises(CodelogError, match=r"not a codelog experiment directory"):
        codelog.experiment(sample_dataset, foreign, **settings)
