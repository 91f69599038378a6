"""A run repeated or resumed trains the same weights to the last bit on the shared-prompt layout
with more than one CPU thread (tests/execution/test_training_eval.py: evaluated along the way).

The sample's CodeNet statements make prompts of 180-450 tokens: a prompt's keys and values
copied to its 4 solutions' rows then hold more than 32,768 elements, where torch's CPU
indexing backward would add the rows' gradients with atomic adds split over the threads."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
import torch

from codelog.recipe import Split, load_recipe
from codelog.training.batches import MicroBatch, lay_out
from codelog.training.logprobs import shared_token_logps
from tests.conftest import build_sample
from tests.train.synthetic import records, run

# The tiny model, 3 steps: on 99882db the runs parted at step 2 (4 rows x a 366-token prompt)
RUN = {"steps": 3, "checkpoint_every": 2, "max_length": 512, "layout": "shared"}


@pytest.fixture
def two_threads():
    """Two intra-op threads, whatever the machine or pytest-xdist set: the order of a parallel
    reduction is what these tests are about."""
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(threads)


def test_shared_prompt_gradients_repeat_bitwise_on_two_threads(two_threads):
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(0)
    config = Qwen2Config(vocab_size=101, hidden_size=64, intermediate_size=64,
                         num_hidden_layers=1, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=512)  # fmt: skip
    model = Qwen2ForCausalLM(config).float()
    rng = random.Random(0)
    prompt = rng.choices(range(101), k=300)  # 4 rows x 299 positions x 2 heads x 16: 38,272
    seqs = [(prompt + rng.choices(range(101), k=n), len(prompt)) for n in (9, 5, 12, 7)]
    mb = MicroBatch(**lay_out(seqs, 0), weight=torch.ones(4), kl_weight=torch.ones(4),
                    sequence=[0, 1, 2, 3])  # fmt: skip
    grads = []
    for _ in range(4):
        model.zero_grad()
        shared_token_logps(model, mb).sum().backward()
        grads.append([p.grad.clone() for p in model.parameters()])
    for again in grads[1:]:
        assert all(torch.equal(a, b) for a, b in zip(grads[0], again, strict=True))


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample without a test split: nothing held out, so no margin is evaluated
    (tests/execution/test_training_eval.py runs the evaluations) and a run is its steps."""
    recipe = dataclasses.replace(load_recipe(), split=Split(test_fraction=0))
    return build_sample(tmp_path_factory.mktemp("sample") / "ds", recipe=recipe).out


@pytest.fixture(scope="module")
def uninterrupted(sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3-step run on the sample with two threads: the run the others must equal."""
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        return run(sample, tmp_path_factory.mktemp("whole") / "run", **RUN).checkpoint
    finally:
        torch.set_num_threads(threads)


def checkpoint_bytes(checkpoint: Path) -> bytes:
    return (checkpoint / "model.safetensors").read_bytes()


def test_the_same_run_twice_writes_byte_identical_weights(
    sample, uninterrupted, tmp_path, two_threads
):
    again = run(sample, tmp_path / "again", **RUN).checkpoint
    assert checkpoint_bytes(again) == checkpoint_bytes(uninterrupted)
    losses = [r["loss"] for r in records(tmp_path / "again")]
    assert losses == [r["loss"] for r in records(uninterrupted.parent.parent)]


def test_a_resumed_run_writes_the_weights_of_the_uninterrupted_one(
    sample, uninterrupted, tmp_path, two_threads
):
    parts = tmp_path / "parts"
    run(sample, parts, **RUN, max_steps_this_call=2)  # "interrupted" after step 2
    resumed = run(sample, parts, {"steps": 3}, resume=True, layout="shared")
    assert resumed.checkpoint.name == uninterrupted.name == "step-000003"
    assert checkpoint_bytes(resumed.checkpoint) == checkpoint_bytes(uninterrupted)
