"""`codelog stats`: the split, the dialects, and programs shared across the split."""

from __future__ import annotations

import dataclasses

import polars as pl
from click.testing import CliRunner

from codelog.cli import cli
from codelog.dataset.stats import LEAK_EXAMPLES, compute_stats
from codelog.recipe import Split, load_recipe
from tests.codenet_tree import CodenetTree
from tests.conftest import build_sample


def test_the_sample_split_and_dialects(sample_dataset):
    stats = compute_stats(sample_dataset)
    solutions = pl.read_parquet(sample_dataset / "solutions.parquet")
    problems = pl.read_parquet(sample_dataset / "problems.parquet")
    assert stats.split.problems == dict(problems.group_by("split").len().iter_rows())
    assert stats.split.solutions == dict(solutions.group_by("split").len().iter_rows())
    assert stats.dialects == {"python3": solutions.height}
    # the sample's problems are distinct tasks: no program is shared across the split
    assert stats.split.shared_programs == 0 and stats.split.examples == []


def test_programs_shared_by_a_test_and_a_train_problem_are_counted(tmp_path):
    # every problem of the standard tree has the same four programs: all of a test problem's
    # solutions are also train solutions
    problems = tuple(f"p{n:05d}" for n in range(1, 11))
    tree = CodenetTree.standard(tmp_path / "tree", problems)
    tree.write()
    recipe = dataclasses.replace(load_recipe(), split=Split(test_fraction=0.3, seed=2))
    out = build_sample(tmp_path / "ds", root=tree.root, workers=1, recipe=recipe).out
    stats = compute_stats(out)
    solutions = pl.read_parquet(out / "solutions.parquet")
    test = solutions.filter(pl.col("split") == "test")
    train_hashes = set(solutions.filter(pl.col("split") == "train")["ast_hash"])
    shared = test.filter(pl.col("ast_hash").is_in(train_hashes)).sort("problem_id", "submission_id")
    assert stats.split.shared_programs == shared.height > 0
    first = stats.split.examples[0]
    assert (first.test_problem, first.test_submission) == (
        shared["problem_id"][0],
        shared["submission_id"][0],
    )
    train_problem = solutions.filter(
        (pl.col("split") == "train") & (pl.col("ast_hash") == shared["ast_hash"][0])
    )["problem_id"].min()
    assert first.train_problem == train_problem
    assert len(stats.split.examples) == min(LEAK_EXAMPLES, shared.height)

    result = CliRunner().invoke(cli, ["stats", str(out)])
    assert result.exit_code == 0, result.output
    assert "sharing a program with train" in result.stdout
    assert f"{stats.split.shared_programs:,} ({stats.split.shared_share:.1%})" in result.stdout
    assert first.train_submission in result.stdout
