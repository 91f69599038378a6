"""`codelog eval --benchmark codenet:DIR --split`: a dataset benchmark scores only its split."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from codelog.cli import cli


@pytest.fixture(scope="module")
def completions(sample_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One accepted solution of every problem, train and test, as a samples file."""
    accepted = (
        pl.read_parquet(sample_dataset / "solutions.parquet")
        .filter(pl.col("is_correct"))
        .sort("submission_id")
        .group_by("problem_id", maintain_order=True)
        .first()
    )
    path = tmp_path_factory.mktemp("samples") / "samples.jsonl"
    path.write_text(
        "".join(
            json.dumps({"problem_id": p, "completion": c}) + "\n"
            for p, c in accepted.select("problem_id", "code").iter_rows()
        )
    )
    return path


def run_eval(sample_dataset: Path, completions: Path, out: Path, *extra: str):
    args = ["eval", "--benchmark", f"codenet:{sample_dataset}", "--samples", str(completions)]
    return CliRunner().invoke(cli, [*args, "--out", str(out), "--workers", "2", *extra])


@pytest.mark.parametrize("split", ["test", "train"])
def test_eval_split_scores_only_that_splits_problems(sample_dataset, completions, tmp_path, split):
    problems = pl.read_parquet(sample_dataset / "problems.parquet")
    wanted = set(problems.filter(pl.col("split") == split)["problem_id"])
    result = run_eval(sample_dataset, completions, tmp_path / "eval", "--split", split)
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "eval" / "summary.json").read_text())
    assert set(summary["per_problem"]) == wanted
    assert summary["split"] == split and summary["pass@1"] == 1.0
    scored = [json.loads(line) for line in (tmp_path / "eval" / "samples.jsonl").open()]
    assert {r["problem_id"] for r in scored} == wanted
    assert f"over {len(wanted)} problems of split {split}" in result.stderr


def test_eval_without_split_scores_every_problem(sample_dataset, completions, tmp_path):
    result = run_eval(sample_dataset, completions, tmp_path / "eval")
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "eval" / "summary.json").read_text())
    assert len(summary["per_problem"]) == 8 and "split" not in summary


def test_split_is_refused_for_a_benchmark_without_it(tmp_path):
    samples = tmp_path / "s.jsonl"
    samples.write_text('{"task_id": "HumanEval/0", "completion": "    return 1\\n"}\n')
    result = CliRunner().invoke(
        cli, ["eval", "--benchmark", "humaneval", "--samples", str(samples), "--split", "train"]
    )
    assert result.exit_code == 1
    assert "humaneval has one split, test; not 'train' (--split)" in str(result.exception)
    problems = tmp_path / "p.jsonl"
    problems.write_text('{"problem_id": "a", "tests": [{"input": "", "output": "1"}]}\n')
    result = CliRunner().invoke(
        cli, ["eval", "--benchmark", str(problems), "--samples", str(samples), "--split", "test"]
    )
    assert result.exit_code == 1
    assert "--split is for a dataset benchmark" in str(result.exception)
