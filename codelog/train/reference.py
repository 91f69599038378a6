"""The KL penalty to the reference policy (the model training started from).

KL_i is the k3 estimate exp(q - p) - (q - p) - 1 on solution i's tokens, with p the policy's and
q the reference's token log-prob, reduced over the tokens like the likelihood term."""

from __future__ import annotations

import torch
from torch import nn

from codelog.recipe import Train
from codelog.train.batches import MicroBatch
from codelog.train.logprobs import reduce_tokens, token_logps


def kl_to_reference(
    model: nn.Module,
    reference: nn.Module | None,
    batch: MicroBatch,
    logp: torch.Tensor,
    mask: torch.Tensor,
    t: Train,
    keep_logits: bool,
) -> torch.Tensor:
    """Per sequence, the k3 estimate of KL(policy || reference) on the solution's tokens:
    exp(q - p) - (q - p) - 1 with q the reference's token log-prob. With LoRA the reference is the
    model with its adapters disabled (`reference` is None); full fine-tuning keeps a frozen copy."""
    with torch.no_grad():
        if reference is None:
            with model.disable_adapter():
                ref_logp, _ = token_logps(model, batch, keep_logits)
        else:
            ref_logp, _ = token_logps(reference, batch, keep_logits)
    delta = ref_logp - logp
    return reduce_tokens(torch.exp(delta) - delta - 1, mask, t.token_reduction)
