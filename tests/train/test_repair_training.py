"""`codelog train --task repair`: a step trains each repair turn on its own context, and the
run is a run like any other (KL reference cache, resume, the dataset kind checked)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch
from click.testing import CliRunner

from codelog.cli import cli
from codelog.recipe import load_recipe
from codelog.training import batches, data, loop, models, repair_data
from codelog.training.options import TrainingError, resolve_recipe
from tests.conftest import build_sample
from tests.train.synthetic import records, run, weights


@pytest.fixture(scope="module")
def repairs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample's repair turns, every trajectory kept (more groups than the default)."""
    base = load_recipe()
    every = dataclasses.replace(
        base,
        repairs=dataclasses.replace(
            base.repairs, require_correct=False, max_trajectories_per_problem=0
        ),
    )
    return build_sample(tmp_path_factory.mktemp("rt") / "repair", kind="repair", recipe=every).out


def test_a_step_trains_each_turn_after_its_own_context(repairs: Path, tmp_path: Path) -> None:
    dataset = repair_data.open_repairs(repairs)
    recipe = load_recipe()
    groups = repair_data.training_groups(dataset, recipe, 0.0, 0)
    tokenizer = models.load_tokenizer(str(models.build_tiny(dataset, tmp_path, 4096, 0)))
    t = resolve_recipe(recipe, {"grad_accum": 4, "max_length": 4096}).train
    step = batches.prepare_step(
        repair_data.RepairSampler(groups.train, t.group_size, t.seed),
        data.CodeStore(dataset.solutions),
        repair_data.RowPrompts(groups.prompts, tokenizer),
        tokenizer,
        t,
    )
    table = pq.read_table(dataset.solutions).take(pa.array(step.rows)).to_pylist()
    seen = 0
    for mb in step.batches:
        whole, attention, prompt_lengths = mb.padded()  # each sequence as the model reads it
        for b, i in enumerate(mb.sequence):
            row = table[i]
            ids = whole[b][attention[b].bool()].tolist()
            n_prompt = int(prompt_lengths[b])
            prompt, completion = tokenizer.decode(ids[:n_prompt]), tokenizer.decode(ids[n_prompt:])
            # every earlier attempt is shown with its verdict; the target is what is learned
            assert all(attempt["code"].strip() in prompt for attempt in row["context"])
            assert f"Attempt {len(row['context'])}:" in prompt
            assert completion.startswith(row["code"])
            seen += 1
    assert seen == len(step.rows) and len({tuple(r["context"][0].items()) for r in table}) > 1


def test_repair_training_with_kl_resumes_exactly(repairs: Path, tmp_path: Path) -> None:
    options = {"steps": 6, "checkpoint_every": 3, "kl": 0.05, "max_length": 1024}
    whole = run(repairs, tmp_path / "whole", **options)
    loop.train(repairs, tmp_path / "parts", options, progress=False, max_steps_this_call=4)
    resumed = loop.train(repairs, tmp_path / "parts", {"steps": 6}, resume=True, progress=False)
    a, b = weights(whole.checkpoint), weights(resumed.checkpoint)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    steps = records(tmp_path / "whole")
    assert [r["loss"] for r in steps] == [r["loss"] for r in records(tmp_path / "parts")]
    assert len(steps) == 6 and all(np.isfinite([r["loss"], r["kl"]]).all() for r in steps)
    assert any(r["kl"] != 0 for r in steps[1:])  # the policy moved off the cached reference
    assert list((tmp_path / "whole" / "reference").glob("*/chunk-*.npz"))


def test_the_task_must_match_the_dataset_kind(
    repairs: Path, sample_dataset: Path, tmp_path: Path
) -> None:
    with pytest.raises(TrainingError, match="a solutions dataset, not one for --task repair"):
        run(sample_dataset, tmp_path / "a", steps=1, task="repair")
    result = CliRunner().invoke(
        cli, ["train", str(repairs), "--task", "solutions", "--out", str(tmp_path / "b")]
    )
    assert isinstance(result.exception, TrainingError)
    assert "a repair dataset, not one for --task solutions" in str(result.exception)
    assert not (tmp_path / "b").exists()
