"""Held-out evaluation: the margin of correct over incorrect solutions the run never trains on."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from codelog.train import data
from codelog.train.batches import MicroBatch, collate
from codelog.train.logprobs import reduce_tokens, token_logps

EVAL_PER_CLASS, EVAL_GROUPS = 8, 256  # held-out solutions per class and group, groups, at most


@torch.no_grad()
def evaluate(
    model: nn.Module,
    eval_set: list[tuple[int, bool, list[int], int]],
    pad_id: int,
    batch_tokens: int,
    device: torch.device,
    bf16: bool,
    keep_logits: bool,
) -> dict[str, float]:
    """Held-out margin: per group, mean token log-prob of correct minus incorrect solutions;
    averaged over groups. `eval_set` holds (group, is_correct, ids, prompt length)."""
    was_training = model.training
    model.eval()
    per_token = np.zeros(len(eval_set))
    for plan in data.plan_micro_batches([len(e[2]) for e in eval_set], batch_tokens):
        seqs = [(eval_set[i][2], eval_set[i][3]) for i in plan]
        input_ids, attention_mask, loss_mask = collate(seqs, pad_id)
        batch = MicroBatch(
            input_ids.to(device),
            attention_mask.to(device),
            loss_mask.to(device),
            torch.zeros(0),
            torch.zeros(0),
            plan,
            min(s[1] for s in seqs),
        )
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            logp, tmask = token_logps(model, batch, keep_logits)
        per_token[plan] = reduce_tokens(logp, tmask, "mean").cpu().numpy()
    model.train(was_training)
    groups = sorted({e[0] for e in eval_set})
    good = [
        np.mean([per_token[i] for i, e in enumerate(eval_set) if e[0] == g and e[1]])
        for g in groups
    ]
    bad = [
        np.mean([per_token[i] for i, e in enumerate(eval_set) if e[0] == g and not e[1]])
        for g in groups
    ]
    return {
        "margin": float(np.mean(np.subtract(good, bad))),
        "logp_correct": float(np.mean(good)),
        "logp_incorrect": float(np.mean(bad)),
        "groups": len(groups),
        "solutions": len(eval_set),
    }


def build_eval_set(
    heldout: data.GroupIndex,
    store: data.CodeStore,
    prompt_ids: dict[tuple[str, str], list[int]],
    tokenizer: Any,
    max_length: int,
) -> list[tuple[int, bool, list[int], int]]:
    """Tokenised held-out solutions of groups holding out both a correct and an incorrect one."""
    out = []
    for g in range(len(heldout)):
        members = heldout.members(g)
        correct = heldout.is_correct[members]
        if len(out) >= EVAL_GROUPS * 2 * EVAL_PER_CLASS or correct.all() or not correct.any():
            continue
        rows = np.concatenate(
            [members[correct][:EVAL_PER_CLASS], members[~correct][:EVAL_PER_CLASS]]
        )
        for row, solution in zip(
            rows, data.encode_solutions(tokenizer, store.fetch(rows)), strict=True
        ):
            ids, n_prompt, _ = data.join(prompt_ids[heldout.keys[g]], solution, max_length)
            out.append((g, bool(heldout.is_correct[row]), ids, n_prompt))
    return out
