"""Memory for real models: the estimate's arithmetic, the refusal, gradient checkpointing."""

from __future__ import annotations

import dataclasses
import json

import pytest
import torch
from click.testing import CliRunner

from codelog.cli import cli
from codelog.recipe import Train
from codelog.training import data, memory, models
from codelog.training.memory import GiB, Precision
from codelog.training.options import TrainingError
from tests.train.synthetic import records, run, weights

FP32, BF16 = Precision(torch.float32, False), Precision(torch.bfloat16, True)
AUTOCAST = Precision(torch.float32, True)  # --precision auto on a GPU

# Qwen2.5-Coder-7B's shape (config.json of the hub model): only the config is written, no weights.
QWEN_7B = {
    "architectures": ["Qwen2ForCausalLM"],
    "model_type": "qwen2",
    "hidden_size": 3584,
    "intermediate_size": 18944,
    "num_hidden_layers": 28,
    "num_attention_heads": 28,
    "num_key_value_heads": 4,
    "vocab_size": 152064,
    "max_position_embeddings": 32768,
    "tie_word_embeddings": False,
}


def qwen_7b(tmp_path):
    from transformers import AutoConfig

    (tmp_path / "qwen-7b").mkdir()
    (tmp_path / "qwen-7b" / "config.json").write_text(json.dumps(QWEN_7B))
    return tmp_path / "qwen-7b", AutoConfig.from_pretrained(tmp_path / "qwen-7b")


def test_parameters_are_counted_from_the_config_alone(synthetic, tmp_path):
    base = models.build_tiny(data.open_dataset(synthetic), tmp_path / "base", 64, 0)
    config, model = models.load_config(str(base)), models.load_model(str(base))
    real = sum(p.numel() for p in model.parameters())
    assert memory.count_parameters(config, 0) == (real, real)
    lora = models.add_lora(model, 4, 8)
    trained = sum(p.numel() for p in lora.parameters() if p.requires_grad)
    assert memory.count_parameters(config, 4) == (real, trained)


def test_full_fine_tuning_needs_16_bytes_a_parameter_in_fp32_and_8_in_bf16(tmp_path):
    _, config = qwen_7b(tmp_path)
    t = Train(max_length=2048, batch_tokens=2048)
    fp32 = memory.estimate(config, t, FP32, gradient_checkpointing=False, reference_copy=False,
                           groups_per_rank=1)  # fmt: skip
    p = fp32.parameters
    assert 7.5e9 < p < 7.7e9  # Qwen2.5-Coder-7B: 7.62B
    assert (fp32.parts["weights"], fp32.parts["gradients"], fp32.parts["optimizer"]) == (
        4 * p,
        4 * p,
        8 * p,
    )
    bf16 = memory.estimate(config, t, BF16, gradient_checkpointing=False, reference_copy=True,
                           groups_per_rank=1)  # fmt: skip
    assert bf16.parts["weights"] + bf16.parts["gradients"] + bf16.parts["optimizer"] == 8 * p
    assert bf16.parts["reference"] == 2 * p  # a frozen copy when the reference is recomputed


def test_lora_trains_adapters_in_fp32_on_a_frozen_base(tmp_path):
    _, config = qwen_7b(tmp_path)
    t = Train(lora_r=16, max_length=2048, batch_tokens=2048)
    est = memory.estimate(config, t, BF16, gradient_checkpointing=False, reference_copy=False,
                          groups_per_rank=1)  # fmt: skip
    a = est.trainable
    assert 30e6 < a < 50e6  # r=16 on every linear layer of 28 blocks: 40.4M
    assert est.parts["weights"] == 2 * est.parameters + 4 * a
    assert (est.parts["gradients"], est.parts["optimizer"]) == (4 * a, 8 * a)
    checkpointed = memory.estimate(config, t, BF16, gradient_checkpointing=True,
                                   reference_copy=False, groups_per_rank=1)  # fmt: skip
    assert checkpointed.parts["activations"] < est.parts["activations"] / 10
    assert est.total < 80 * GiB  # the paper's 7B LoRA run fits its A100 80GB


def test_a_run_that_cannot_fit_is_refused_before_any_weight_loads(synthetic, tmp_path, monkeypatch):
    path, _ = qwen_7b(tmp_path)
    monkeypatch.setattr(memory, "device_capacity", lambda device: ("A100 80GB", 80 * GiB))
    with pytest.raises(TrainingError, match="does not fit") as error:
        run(synthetic, tmp_path / "full", model=str(path), precision="fp32")
    needs = float(str(error.value).split("about ")[1].split(" GiB")[0])
    assert needs > 16 * 7.6e9 / GiB  # at least fp32 weights, gradients and AdamW state
    assert "--lora-r 16" in str(error.value) and "--gradient-checkpointing" in str(error.value)
    # LoRA on bf16 weights passes the check and goes on to load the (absent) weights
    with pytest.raises(models.CodelogError, match="cannot load"):
        run(synthetic, tmp_path / "lora", model=str(path), lora_r=16, precision="bf16",
            batch_tokens=2048)  # fmt: skip
    with pytest.raises(models.CodelogError, match="cannot load"):
        run(synthetic, tmp_path / "forced", model=str(path), memory_check=False)


def test_the_cli_prints_the_estimate_before_training(synthetic, tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(
        cli, ["train", str(synthetic), "--steps", "1", "--out", str(out), "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    assert "memory estimate:" in result.output and "GiB per process" in result.output
    [estimate] = records(out, "memory")
    assert estimate["total"] > estimate["weights"] > 0


def test_gradient_checkpointing_changes_memory_not_the_result(synthetic, tmp_path):
    plain = run(synthetic, tmp_path / "plain", steps=3, lora_r=4)
    saved = run(synthetic, tmp_path / "ckpt", steps=3, lora_r=4, gradient_checkpointing=True)
    for a, b in zip(records(tmp_path / "plain"), records(tmp_path / "ckpt"), strict=True):
        assert b["loss"] == pytest.approx(a["loss"], rel=1e-5)
    for name, w in weights(plain.checkpoint).items():
        torch.testing.assert_close(weights(saved.checkpoint)[name], w, rtol=1e-5, atol=1e-6)
    model = models.load_model(str(tmp_path / "plain" / "base-model"))
    assert not models.checkpointing_enabled(model)
    models.enable_gradient_checkpointing(models.add_lora(model, 4, 8))
    assert models.checkpointing_enabled(model)


def peak_bytes(fn) -> int:
    """The peak of CPU bytes allocated while `fn` runs, above what was allocated before: the
    profiler's per-op allocations and frees, summed in the order the ops ran."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn()
    events = [e for e in prof.events() if e.self_cpu_memory_usage]
    level = peak = 0
    for e in sorted(events, key=lambda e: e.time_range.start):
        level += e.self_cpu_memory_usage
        peak = max(peak, level)
    return peak


@pytest.mark.parametrize(
    ("precision", "lora_r"), [(FP32, 0), (AUTOCAST, 0), (AUTOCAST, 4), (BF16, 0), (BF16, 4)]
)
def test_the_estimate_of_a_forward_and_backward_matches_the_allocator(precision, lora_r):
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from codelog.training.batches import MicroBatch, lay_out
    from codelog.training.logprobs import reduce_tokens, token_logps

    config = Qwen2Config(hidden_size=256, intermediate_size=1024, num_hidden_layers=4,
                         num_attention_heads=4, num_key_value_heads=2, vocab_size=4096,
                         tie_word_embeddings=True)  # fmt: skip
    t = Train(lora_r=lora_r, max_length=128, batch_tokens=512)
    est = memory.estimate(config, t, precision, gradient_checkpointing=False,
                          reference_copy=False, groups_per_rank=1)  # fmt: skip
    torch.manual_seed(0)
    model = Qwen2ForCausalLM(config).to(precision.weights)
    model = models.add_lora(model, lora_r, 8) if lora_r else model
    ids = torch.randint(0, 4000, (4, 128)).tolist()
    ids[3] = ids[3][:64]  # a padded row, as micro-batches have
    # one-token prompts: no prompt pass, every other position computed and projected
    batch = MicroBatch(**lay_out([(x, 1) for x in ids], 0), weight=torch.ones(4),
                       kl_weight=torch.ones(4), sequence=[0, 1, 2, 3])  # fmt: skip

    def forward_backward():
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision.autocast):
            logp, solution = token_logps(model.train(), batch)
            loss = -reduce_tokens(logp, solution, "sum").sum()
        loss.backward()

    forward_backward()  # gradients exist from here on, as in a step's later micro-batches
    measured = peak_bytes(forward_backward)
    parts = est.parts
    assert est.tokens == 512 and batch.padded_tokens == 4 * 127
    assert measured == pytest.approx(
        parts["bf16_copies"] + parts["activations"] + parts["logits"], rel=0.10
    )


def test_bf16_on_a_gpu_without_it_falls_back_to_fp32_saying_so(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda: False)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda device: "Tesla V100")
    p = memory.resolve_precision("bf16", torch.device("cuda", 0))
    assert p.weights == torch.float32 and "V100 has no bf16" in p.note
    assert dataclasses.replace(p, note=None) == FP32
