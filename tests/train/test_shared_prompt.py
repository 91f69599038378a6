"""The shared-prompt forward (each prompt once, its solutions after it) computes what the padded
per-sequence forward computes: the same per-sequence log-probs, loss and gradients, within
1e-5 relative in fp32, on Qwen2- and Llama-architecture models, full fine-tuning and LoRA, with
and without the KL term, with sequences cut at max_length."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from codelog.recipe import Train
from codelog.training import data, models
from codelog.training.batches import MicroBatch, lay_out, micro_batches
from codelog.training.logprobs import (
    padded_token_logps,
    reduce_tokens,
    shared_token_logps,
    token_logps,
)
from codelog.training.reference import ReferenceCache, cached_kl, recomputed_kl, reference_logps

VOCAB, MAX_LENGTH = 101, 48


def small_model(arch: str, seed: int) -> torch.nn.Module:
    from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    shape = dict(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                 num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)  # fmt: skip
    torch.manual_seed(seed)
    if arch == "llama":
        return LlamaForCausalLM(LlamaConfig(**shape)).float()
    # the tiny model's shape is Qwen2 with tied embeddings (models.build_tiny)
    return Qwen2ForCausalLM(Qwen2Config(**shape, tie_word_embeddings=arch == "tiny")).float()


def sequences() -> dict[int, tuple[list[int], int]]:
    """Groups of 3-4 solutions sharing a prompt, as data.join lays them out: one group's long
    solution is cut at MAX_LENGTH (its prompt then keeps its end: a prompt of its own), one
    prompt alone reaches MAX_LENGTH, one prompt is a single token."""
    rng = random.Random(0)
    prompts = [rng.choices(range(VOCAB), k=n) for n in (20, 9, MAX_LENGTH + 5, 1, 30)]
    seqs = {}
    for g, prompt in enumerate(prompts):
        for k in range(4 if g != 1 else 3):
            n = 40 if (g, k) == (0, 1) else rng.randint(1, 14)  # (0, 1): cut at MAX_LENGTH
            ids, n_prompt, _ = data.join(prompt, rng.choices(range(VOCAB), k=n), MAX_LENGTH)
            seqs[len(seqs)] = (ids, n_prompt)
    return seqs


def step_loss(
    model, batches: list[MicroBatch], kl: str, reference=None
) -> tuple[torch.Tensor, dict]:
    """The loop's loss over the micro-batches (loop.forward_backward), and each sequence's
    token log-probs."""
    loss, per_sequence = torch.zeros(()), {}
    for mb in batches:
        logp, mask = token_logps(model, mb)
        loss = loss - (mb.weight * reduce_tokens(logp, mask, "mean")).sum()
        if kl == "cached":
            loss = loss + 0.1 * (mb.kl_weight * cached_kl(mb, logp, mask, "mean")).sum()
        elif kl == "recomputed":
            loss = loss + 0.1 * (mb.kl_weight * recomputed_kl(model, reference, mb, logp, mask,
                                                              "sum")).sum()  # fmt: skip
        for b, i in enumerate(mb.sequence):
            per_sequence[i] = logp[b, : int(mask[b].sum())].detach()
    return loss, per_sequence


# each architecture with full fine-tuning and LoRA; each KL mode with both
CASES = [("tiny", False, None), ("tiny", True, "cached"), ("qwen2", False, "cached"),
         ("qwen2", True, "recomputed"), ("llama", False, "recomputed"), ("llama", True, None)]  # fmt: skip


@pytest.mark.parametrize(("arch", "lora", "kl"), CASES)
def test_shared_prompts_compute_what_the_padded_path_computes(arch, lora, kl, tmp_path):
    model = small_model(arch, 0)
    if lora:
        model = models.add_lora(model, 4, 8)
        with torch.no_grad():  # peft starts B at zero, which would leave A without a gradient
            for name, p in model.named_parameters():
                if "lora_B" in name:
                    p.normal_(0, 0.1)
    seqs = sequences()
    live = list(seqs)
    rows = np.arange(len(seqs))
    weight = np.linspace(-0.5, 1.5, len(seqs))  # advantages; not summing to 0: no cancellation
    kl_weight = np.full(len(seqs), 1 / len(seqs))
    cache, reference = None, None
    if kl == "cached":  # another model's log-probs: the k3 terms are far from zero
        cache = ReferenceCache(tmp_path, {})
        cache.values = reference_logps(small_model(arch, 1), seqs, torch.device("cpu"), False)
    elif kl == "recomputed" and not lora:
        reference = models.frozen(small_model(arch, 1))
    t = Train(batch_tokens=160, max_length=MAX_LENGTH)

    results = {}
    for layout in ("padded", "shared"):
        batches = micro_batches(
            seqs, live, weight, kl_weight, 0, t, rows, cache, layout == "padded"
        )
        model.zero_grad()
        loss, logps = step_loss(model, batches, kl or "", reference)
        loss.backward()
        grads = {n: p.grad.clone() for n, p in model.named_parameters() if p.requires_grad}
        results[layout] = (loss.detach(), logps, grads, batches)

    (loss_p, logp_p, grad_p, batches_p), (loss_s, logp_s, grad_s, batches_s) = results.values()
    assert len(batches_s) > 1  # the budget cuts the step
    # each prompt runs once per micro-batch it is in
    assert sum(b.prompt_ids.shape[0] for b in batches_s) < len(seqs)
    assert sum(b.padded_tokens for b in batches_s) < sum(b.padded_tokens for b in batches_p)
    assert logp_s.keys() == logp_p.keys() == set(seqs)
    for i in seqs:
        assert len(logp_s[i]) == len(seqs[i][0]) - seqs[i][1]
        torch.testing.assert_close(logp_s[i], logp_p[i], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(loss_s, loss_p, rtol=1e-5, atol=1e-7)
    for name, g in grad_p.items():
        scale = g.abs().max().clamp(min=1e-12)
        assert ((grad_s[name] - g).abs().max() / scale).item() < 1e-5, name


def test_gradient_checkpointing_keeps_the_prompt_pass():
    """transformers drops the cache of a checkpointed layer; the shared path's caches write
    nothing twice, so it keeps them and the gradients match the padded path's."""
    model = small_model("qwen2", 0)
    models.enable_gradient_checkpointing(model)
    model.train()
    seqs = sequences()
    mb = MicroBatch(**lay_out(list(seqs.values()), 0), weight=torch.ones(len(seqs)),
                    kl_weight=torch.ones(len(seqs)), sequence=list(seqs))  # fmt: skip
    grads = []
    for path in (shared_token_logps, padded_token_logps):
        model.zero_grad()
        path(model, mb).sum().backward()
        grads.append([p.grad.clone() for p in model.parameters()])
    for a, b in zip(*grads, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_micro_batches_count_the_tokens_computed_each_prompt_once():
    seqs = sequences()
    t = Train(batch_tokens=100, max_length=MAX_LENGTH)
    weight = np.ones(len(seqs))
    batches = micro_batches(seqs, list(seqs), weight, weight, 0, t)
    assert sorted(i for mb in batches for i in mb.sequence) == sorted(seqs)
    for mb in batches:
        # within the budget, padding included, unless one prompt and its first solution exceed it
        assert mb.padded_tokens <= t.batch_tokens or len(mb.sequence) == 1
        prompts = {tuple(seqs[i][0][: seqs[i][1]]) for i in mb.sequence}
        assert mb.prompt_ids.shape[0] == len(prompts)  # each prompt once
