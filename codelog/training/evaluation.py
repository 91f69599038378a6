"""Evaluation during a run: the held-out margin, and the hook other evaluations plug into.

The held-out margin: per group, the mean token log-prob of held-out correct solutions minus that
of held-out incorrect ones (solutions the run never trains on), averaged over groups. It is
computed at the start, every `eval_every` steps and at the end, sharded over the ranks. Each
group's margin is kept too: the same groups before and after give the change's paired standard
error (codelog.uncertainty), which the summary's conclusions judge it by, with the smallest
change the float32 log-probs resolve (`resolution`).

The hook: `Evaluator`, a callable taking an `EvalContext` and returning named numbers. The loop
calls each evaluator of TrainOptions.evaluators at the same points as the margin, on every rank
(the evaluator shards its own work with ctx.rank / ctx.world, or does it on rank 0), and rank 0
logs the result to metrics.jsonl as {"event": "eval", "name": <its name>, "step": ...}. A pass@k
evaluation (codelog.execution) plugs in here: it generates with ctx.model and ctx.tokenizer,
runs the programs in the sandbox and returns {"pass@1": ..., "pass@10": ...}.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from codelog.training import data
from codelog.training.batches import MicroBatch, Prompts, encode_group, lay_out, plan
from codelog.training.logprobs import reduce_tokens, token_logps

EVAL_PER_CLASS, EVAL_GROUPS = 8, 256  # held-out solutions per class and group, groups, at most
# The same margin on groups the run trains on: whether the method fits the data it sees, which
# the held-out margin cannot show when the test problems are too few to transfer to.
TRAIN_EVAL_GROUPS = 32


@dataclass(frozen=True)
class EvalContext:
    model: nn.Module  # the policy (unwrapped from DDP), in eval mode, gradients off
    tokenizer: Any
    step: int  # optimizer steps taken so far
    device: torch.device
    rank: int
    world: int
    bf16: bool  # autocast in bf16 as the training forward pass does


Evaluator = Callable[[EvalContext], dict[str, float]]


@torch.no_grad()
def heldout_margin(
    model: nn.Module,
    eval_set: list[tuple[int, bool, list[int], int]],
    pad_id: int,
    batch_tokens: int,
    device: torch.device,
    bf16: bool,
    rank: int = 0,
    world: int = 1,
    reduce: Callable[[torch.Tensor], torch.Tensor] | None = None,
) -> dict[str, Any]:
    """Held-out margin: per group, mean token log-prob of correct minus incorrect solutions;
    averaged over groups (`group_margins`: each group's, in group order). `eval_set` holds
    (group, is_correct, ids, prompt length). Rank r computes the solutions of groups r,
    r + world, ...; `reduce` sums the ranks' parts."""
    was_training = model.training
    model.eval()
    per_token = torch.zeros(len(eval_set), dtype=torch.float64)
    # by group, so that a group's solutions share their prompt's pass
    groups = sorted({e[0] for e in eval_set})
    kept = set(groups[rank::world])
    seqs = {i: (e[2], e[3]) for i, e in enumerate(eval_set) if e[0] in kept}
    for members in plan(seqs, list(seqs), batch_tokens, padded=False):
        batch = MicroBatch(
            **{k: v.to(device) for k, v in lay_out([seqs[i] for i in members], pad_id).items()},
            weight=torch.zeros(0),
            kl_weight=torch.zeros(0),
            sequence=members,
        )
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            logp, tmask = token_logps(model, batch)
        per_token[members] = reduce_tokens(logp, tmask, "mean").double().cpu()
    model.train(was_training)
    per_token = (reduce(per_token) if reduce else per_token).numpy()
    good = [
        np.mean([per_token[i] for i, e in enumerate(eval_set) if e[0] == g and e[1]])
        for g in groups
    ]
    bad = [
        np.mean([per_token[i] for i, e in enumerate(eval_set) if e[0] == g and not e[1]])
        for g in groups
    ]
    margins = np.subtract(good, bad)
    return {
        "margin": float(np.mean(margins)),
        "logp_correct": float(np.mean(good)),
        "logp_incorrect": float(np.mean(bad)),
        "groups": len(groups),
        "solutions": len(eval_set),
        "group_margins": [float(m) for m in margins],
        # The log-probs are float32 (logprobs.token_logps): when the weights barely move, each
        # one moves by whole float32 spacings, so a margin's change within two spacings at
        # their largest magnitude (one at each end) is rounding, not learning.
        "resolution": float(2 * np.spacing(np.float32(np.abs(per_token).max()))),
    }


def build_eval_set(
    heldout: data.GroupIndex,
    store: data.CodeStore,
    prompts: Prompts,
    tokenizer: Any,
    max_length: int,
    max_groups: int = EVAL_GROUPS,
) -> list[tuple[int, bool, list[int], int]]:
    """Tokenised held-out solutions of groups holding out both a correct and an incorrect one
    (the first `max_groups` such groups)."""
    out: list[tuple[int, bool, list[int], int]] = []
    for g in range(len(heldout)):
        members = heldout.members(g)
        correct = heldout.is_correct[members]
        if len({e[0] for e in out}) >= max_groups or correct.all() or not correct.any():
            continue
        rows = np.concatenate(
            [members[correct][:EVAL_PER_CLASS], members[~correct][:EVAL_PER_CLASS]]
        )
        for row, (ids, n_prompt, _) in zip(
            rows, encode_group(store, prompts, g, rows, tokenizer, max_length), strict=True
        ):
            out.append((g, bool(heldout.is_correct[row]), ids, n_prompt))
    return out
