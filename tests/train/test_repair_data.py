"""`codelog train --task repair`, data side: groups of repair turns, prompts per row, sampling."""

from __future__ import annotations

import dataclasses

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch

from codelog.dataset.repair_export import repair_prompt, statements
from codelog.errors import DatasetError
from codelog.recipe import load_recipe
from codelog.training import data, repair_data
from codelog.training.advantages import ADVANTAGES, compute_advantages
from tests.conftest import build_sample


@pytest.fixture(scope="module")
def every_trajectory(tmp_path_factory):
    """The sample's repairs without the solved-only rule and the per-problem cap."""
    base = load_recipe()
    recipe = dataclasses.replace(
        base,
        repairs=dataclasses.replace(
            base.repairs, require_correct=False, max_trajectories_per_problem=0
        ),
    )
    return build_sample(tmp_path_factory.mktemp("rt") / "repair", kind="repair", recipe=recipe).out


def test_rows_sharing_a_context_form_a_group_and_the_rest_group_by_problem_and_step():
    table = pa.table(
        {
            "problem_id": ["p1", "p1", "p1", "p1", "p2"],
            "language": ["Python"] * 5,
            "step": [1, 1, 1, 2, 1],
            "context_key": ["k", "k", "x", "y", "z"],
        }
    )
    assert repair_data.group_labels(table) == [
        ("p1", "context k"),
        ("p1", "context k"),
        ("p1", "Python step 1"),
        ("p1", "Python step 2"),
        ("p2", "Python step 1"),
    ]


def test_groups_have_two_rows_with_different_rewards(every_trajectory):
    dataset = repair_data.open_repairs(every_trajectory)
    index, dropped = repair_data.read_repair_index(dataset)
    table = pq.read_table(dataset.solutions, columns=["reward"])
    assert len(index.rows) + dropped == table.num_rows
    assert len(set(index.rows.tolist())) == len(index.rows)
    for g in range(len(index)):
        rewards = index.rewards[index.members(g)]
        assert len(rewards) >= 2 and rewards.max() > rewards.min()
    assert any(key[1].startswith("context ") for key in index.keys)  # the sample has both kinds
    assert any(" step " in key[1] for key in index.keys)


def test_each_row_gets_the_prompt_the_export_writes(every_trajectory):
    dataset = repair_data.open_repairs(every_trajectory)
    recipe = load_recipe()
    groups = repair_data.training_groups(dataset, recipe, 0.0, 0)
    rows = groups.train.members(0)[:3]
    records = pq.read_table(dataset.solutions).take(pa.array(rows)).to_pylist()
    known = statements(dataset.path)
    assert groups.prompts.texts(rows) == [
        repair_prompt(recipe, known[r["problem_id"]], r) for r in records
    ]
    # the completion is the target's code, read by the solutions' CodeStore
    assert data.CodeStore(dataset.solutions).fetch(rows) == [r["code"] for r in records]


def test_the_sampler_keeps_the_best_and_the_worst_of_a_large_group():
    rewards = np.array([0.0, 1.0, -1.0, 0.5, 0.2, 0.3, 0.1])
    index = data.GroupIndex(
        keys=[("p1", "Python step 1")],
        starts=np.array([0, 7]),
        rows=np.arange(7),
        rewards=rewards,
        is_correct=rewards == 1.0,
        submission_ids=pa.array([f"s{i}" for i in range(7)]),
    )
    sampler = repair_data.RepairSampler(index, group_size=3, seed=0)
    for _ in range(5):
        _, rows = sampler.next()
        assert len(rows) == 3 and {1, 2} <= set(rows.tolist())


@pytest.mark.parametrize("algo", sorted(ADVANTAGES))
def test_every_estimator_weights_a_sampled_repair_group(every_trajectory, algo):
    dataset = repair_data.open_repairs(every_trajectory)
    groups = repair_data.training_groups(dataset, load_recipe(), 0.1, 0)
    sampler = repair_data.RepairSampler(groups.train, 4, 0)
    for _ in range(len(groups.train)):
        _, rows = sampler.next()
        r, c = groups.train.rewards[rows], groups.train.is_correct[rows]
        a = compute_advantages(algo, torch.from_numpy(r), torch.from_numpy(c)).numpy()
        assert np.isfinite(a).all()
        if algo != "sft":
            assert np.abs(a).max() > 0  # rewards differ within every group


def test_a_solutions_dataset_is_not_a_repair_dataset(sample_dataset):
    with pytest.raises(DatasetError, match="--kind repair"):
        repair_data.open_repairs(sample_dataset)
