"""The forward pass the loss, the KL reference and the evaluation share: per-token log-probs of
the solution tokens, and their reduction to one number per sequence."""

from __future__ import annotations

import inspect

import torch
import torch.nn.functional as F
from torch import nn

from codelog.training.batches import MicroBatch


def takes_logits_to_keep(model: nn.Module) -> bool:
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    return "logits_to_keep" in inspect.signature(base.forward).parameters


def token_logps(
    model: nn.Module, batch: MicroBatch, keep_logits: bool
) -> tuple[torch.Tensor, torch.Tensor]:
    """(log-prob of each next token, mask of solution tokens), both (B, K), for the last K positions.

    Only positions from the shortest prompt on are projected to the vocabulary when the model
    allows it (`logits_to_keep`): the prompt's logits are never needed."""
    ids, mask = batch.input_ids, batch.attention_mask
    width = ids.shape[1]
    keep = width - batch.min_prompt + 1 if keep_logits else width
    kwargs = {"logits_to_keep": keep} if keep_logits else {}
    logits = model(
        input_ids=ids, attention_mask=mask, use_cache=False, **kwargs
    ).logits  # (B, K, V)
    # logits at position p predict token p + 1; the last position predicts nothing (masked).
    start = width - keep
    targets = F.pad(ids[:, start + 1 :], (0, 1))
    target_mask = F.pad(batch.loss_mask[:, start + 1 :], (0, 1))
    logp = -F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten(), reduction="none")
    return logp.view(targets.shape), target_mask


def reduce_tokens(values: torch.Tensor, mask: torch.Tensor, how: str) -> torch.Tensor:
    total = (values * mask).sum(dim=1)
    return total / mask.sum(dim=1).clamp(min=1) if how == "mean" else total
