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
from codelog.evaluation.experiment import by_difficulty, mean_and_stderr, results_markdown
from codelog.recipe import load_recipe

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

    results = {
        "recipe": "r",
        "model": "m",
        "steps": 1,
        "seed": 0,
        "n": 4,
        "temperature": 0.8,
        "max_new_tokens": 8,
        "estimator": "e",
        "benchmarks": ["apps.jsonl"],
        "columns": [{"benchmark": "apps.jsonl", "difficulty": d, "k": 1} for d in figures],
        "rows": [{"algo": "base", "results": {"apps.jsonl": {"problems": 4, "by_difficulty": figures}}}],
    }  # fmt: skip
    row = results_markdown(results).splitlines()[4]
    # percent, ± the standard error, a column per difficulty in the paper's order
    assert row == "| base | 43.75 ± 21.35 | 0.00 | 62.50 ± 37.50 | 50.00 |"


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
