"""`codelog train` trains on the train problems only and measures on the test problems."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from codelog.errors import DatasetError
from codelog.publish.manifest import MANIFEST, file_entries
from codelog.recipe import Split, load_recipe
from codelog.train import data, loop
from tests.conftest import build_sample


def held_out_problems(dataset: Path) -> set[str]:
    problems = pq.read_table(dataset / "problems.parquet").to_pylist()
    return {p["problem_id"] for p in problems if p["split"] == "test"}


def test_training_groups_hold_out_the_test_problems_whole(sample_dataset):
    recipe = load_recipe()
    dataset = data.open_dataset(sample_dataset)
    train, heldout, prompts = data.training_groups(dataset, recipe, 0.1, 0)
    held_out = held_out_problems(sample_dataset)
    assert held_out and {k[0] for k in heldout.keys} == held_out
    assert not held_out & {k[0] for k in train.keys}
    # every solution of a test problem's group is held out, not a fraction of it
    solutions = pq.read_table(sample_dataset / "solutions.parquet").to_pylist()
    assert len(heldout.rows) == sum(s["problem_id"] in held_out for s in solutions)
    assert len(prompts) == len(train) + len(heldout)
    assert all("Write a Python 3 program" in p for p in prompts)


def test_without_test_problems_a_fraction_of_each_group_is_held_out(tmp_path):
    recipe = dataclasses.replace(load_recipe(), split=Split(test_fraction=0))
    out = build_sample(tmp_path / "ds", recipe=recipe).out
    train, heldout, prompts = data.training_groups(data.open_dataset(out), recipe, 0.2, 0)
    assert set(heldout.keys) <= set(train.keys) and len(heldout.rows)
    assert not set(heldout.rows) & set(train.rows)
    assert len(prompts) == len(train) + len(heldout)


def test_only_test_problems_is_refused(sample_dataset, tmp_path):
    copy = tmp_path / "all-test"
    shutil.copytree(sample_dataset, copy)
    path = copy / "problems.parquet"
    rows = pq.read_table(path).to_pylist()
    pq.write_table(
        pq.read_table(path).from_pylist(
            [r | {"split": "test"} for r in rows], pq.read_schema(path)
        ),
        path,
    )
    # the manifest follows the edit, so the dataset opens and the trainer's own check speaks
    manifest = json.loads((copy / MANIFEST).read_text())
    manifest["files"].update(file_entries(copy, ["problems.parquet"]))
    (copy / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match="belongs to a test problem"):
        data.training_groups(data.open_dataset(copy), load_recipe(), 0.1, 0)


def test_a_run_never_samples_a_test_problem_and_evaluates_on_them(sample_dataset, tmp_path):
    loop.train(sample_dataset, tmp_path / "run", {"steps": 6, "max_length": 512}, progress=False)
    lines = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    steps = [r for r in lines if r["event"] == "step"]
    evals = [r for r in lines if r["event"] == "eval"]
    held_out = held_out_problems(sample_dataset)
    assert len(steps) == 6
    assert not held_out & {p for r in steps for p in r["problems"]}
    assert [e["groups"] for e in evals] == [len(held_out), len(held_out)]
    # the same margin on the groups it trains on (every train problem of the sample has one)
    problems = pq.read_table(sample_dataset / "problems.parquet").to_pylist()
    assert [e["train_groups"] for e in evals] == [len(problems) - len(held_out)] * 2
    assert all(isinstance(e["train_margin"], float) for e in evals)
