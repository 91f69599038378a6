"""The one forward pass for a sequence's log-probs: the loss, the KL reference and the held-out
margin all take a solution's token log-probs here, in the layout codelog.training.batches lays
out (a MicroBatch: each distinct prompt once, then the solutions that answer it).

Shared prompt (the default). A group's solutions all answer one prompt, so the prompt goes
through the model once: a first pass runs every prompt of the micro-batch (all but its last
token) and keeps each layer's keys and values; a second pass runs the solutions as a batch,
each attending to its own prompt's keys and values (gathered to its row, gradients flowing back
into the prompt pass) and causally to itself, never to a sibling. Its positions continue from
its prompt's length. This is prefix caching through transformers' own `cache=` argument and
SDPA, chosen over packing rows with a FlexAttention block mask because:
- every Hugging Face causal LM with a KV cache takes it (a packed block mask needs
  attn_implementation="flex_attention", and a model without it would need the other path);
- FlexAttention on CPU without torch.compile runs its reference implementation, which
  materialises the dense (T x T) scores the issue rules out; compiled, a new row length
  recompiles, and the CPU trainer compiles only on request (--compile);
- the masks are (solution x (prompt + solution)) per sequence, never (T x T) over a packed row.
The cost it keeps: prompts of one micro-batch are padded to the longest (the planner puts
similar lengths together) and each solution's row carries a copy of its prompt's keys and values.

The output head runs only where the loss is: the decoder's hidden states at solution positions
are gathered, then projected to the vocabulary in chunks of `HEAD_CHUNK` positions, each chunk
recomputed in backward (torch.utils.checkpoint), so no (tokens x vocabulary) logits tensor
exists for a micro-batch: at most one chunk's.

A model the shared path cannot split into decoder and head (logits scaled or soft-capped after
the head: Gemma 2/3's final_logit_softcapping, Cohere's logit_scale, Granite's logits_scaling)
runs the padded path: each sequence prompt + solution in a right-padded batch, the model's own
forward with `logits_to_keep`, as the trainer did before issue 45. `padded_token_logps` is kept
for that, for the equality tests and for bench/train_step.py's side-by-side.
"""

from __future__ import annotations

import contextlib
import inspect

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint
from transformers.cache_utils import Cache, DynamicLayer

from codelog.training.batches import MicroBatch

# Positions projected to the vocabulary at once: 4,096 x 151,936 fp32 logits would be 2.3 GiB,
# so the chunk shrinks with the vocabulary to about 2^26 logits (256 MiB in fp32).
HEAD_LOGITS = 1 << 26

# Config attributes that change logits after the head: such a model takes the padded path.
_AFTER_HEAD = ("final_logit_softcapping", "logit_scale", "logits_scaling")


def policy_of(model: nn.Module) -> nn.Module:
    """The Hugging Face model under peft's wrapper (the LoRA layers sit inside it)."""
    return model.get_base_model() if hasattr(model, "get_base_model") else model


def takes_logits_to_keep(model: nn.Module) -> bool:
    return "logits_to_keep" in inspect.signature(policy_of(model).forward).parameters


def shares_prompts(model: nn.Module) -> bool:
    """Whether `model` runs the shared-prompt path: a decoder with a KV cache and a plain head."""
    base = policy_of(model)
    config = base.config
    if getattr(config, "is_encoder_decoder", False) or any(
        getattr(config.get_text_config(), k, None) for k in _AFTER_HEAD
    ):
        return False
    return base.get_output_embeddings() is not None and hasattr(base, "get_decoder")


class _PromptDone(Exception):
    """The last layer's keys and values are kept: the rest of the prompt pass is not needed."""


class _KeepLayer(DynamicLayer):
    """The prompt pass: keeps the layer's keys and values. Writing them twice (gradient
    checkpointing replays the layer in backward) stores the same states again. `last`: stop the
    pass there (the last layer's attention and MLP on prompt positions feed nothing: 1/L of the
    prompt's compute, half of it for a 2-layer model)."""

    def __init__(self, last: bool = False):
        super().__init__()
        self.last = last

    def update(self, key_states, value_states, *args, **kwargs):
        self.keys, self.values, self.is_initialized = key_states, value_states, True
        if self.last:
            raise _PromptDone
        return key_states, value_states

    def get_seq_length(self) -> int:
        return 0  # the prompt pass starts at position 0; what it keeps is for the next pass


def _prompt_rows(states: torch.Tensor, unit: torch.Tensor) -> torch.Tensor:
    """`states[unit]`: each solution row's copy of its prompt's keys or values, whose gradient
    sums the rows of one prompt in the same order on every run.

    Indexing's backward (index_put_ with accumulate) adds the rows on CPU with atomic float adds
    split over the threads once the gradient holds 32,768 elements (torch's GRAIN_SIZE), in
    whatever order the threads reach them: two identical 2-thread runs on the bundled sample
    parted at step 2 (4 rows x a 366-token prompt). index_select's backward (index_add_) adds
    them in row order on CPU. On CUDA it is the other way round: index_add_ adds atomically and
    index_put_ sorts first (torch.use_deterministic_algorithms documents both)."""
    return states.index_select(0, unit) if states.device.type == "cpu" else states[unit]


class _PrefixLayer(DynamicLayer):
    """The solution pass: each row's prompt keys and values, then its own; nothing is stored,
    so a replay under gradient checkpointing reads the same states."""

    def __init__(self, keys: torch.Tensor, values: torch.Tensor):
        super().__init__()
        self.keys, self.values, self.is_initialized = keys, values, True
        self.device = keys.device

    def update(self, key_states, value_states, *args, **kwargs):
        return (
            torch.cat([self.keys.to(key_states.dtype), key_states], dim=-2),
            torch.cat([self.values.to(value_states.dtype), value_states], dim=-2),
        )


def _replays_blocks(decoder: nn.Module) -> bool:
    """Whether a block of `decoder` is checkpointed or compiled (it runs again, or as a graph)."""
    return any(
        getattr(m, "gradient_checkpointing", False) is True or m._compiled_call_impl is not None
        for m in decoder.modules()
    )


def _checkpoint_with_cache(decoder: nn.Module, on: bool) -> None:
    """Under gradient checkpointing transformers drops the cache of a layer that may write it
    twice; these caches write nothing twice (see _KeepLayer, _PrefixLayer)."""
    for module in decoder.modules():
        if hasattr(type(module), "_can_checkpoint_with_cache"):
            if on:
                module._can_checkpoint_with_cache = True
            else:
                module.__dict__.pop("_can_checkpoint_with_cache", None)


def _head_chunk(head: nn.Module, hidden: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    logits = head(hidden).float()
    return logits.gather(1, targets[:, None])[:, 0] - logits.logsumexp(-1)


def head_logps(head: nn.Module, hidden: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """log p(target) at each of `hidden`'s (N, H) positions, projected in chunks; a chunk's
    logits are recomputed in backward rather than kept."""
    step = max(1, HEAD_LOGITS // head.weight.shape[0])
    grad = torch.is_grad_enabled() and hidden.requires_grad
    out = []
    for s in range(0, hidden.shape[0], step):
        h, t = hidden[s : s + step], targets[s : s + step]
        out.append(
            checkpoint(_head_chunk, head, h, t, use_reentrant=False)
            if grad
            else _head_chunk(head, h, t)
        )
    return torch.cat(out) if out else hidden.new_zeros(0, dtype=torch.float32)


def shared_token_logps(model: nn.Module, batch: MicroBatch) -> torch.Tensor:
    """(B, S) log-prob of each solution token (0 where `batch.loss_mask` is not set)."""
    base = policy_of(model)
    decoder, head = base.get_decoder(), base.get_output_embeddings()
    layers = base.config.get_text_config().num_hidden_layers
    _checkpoint_with_cache(decoder, True)
    try:
        kept = None
        if batch.prompt_ids.shape[1]:
            # stopping early is plain Python control flow: not inside a compiled block, nor in
            # a checkpointed layer (its replay in backward would stop as well)
            stop = not _replays_blocks(decoder)
            kept = Cache(layers=[_KeepLayer(stop and k == layers - 1) for k in range(layers)])
            width = batch.prompt_ids.shape[1]
            # a prompt of one token has nothing here: its row still runs one (padding) token,
            # so that no query row is masked whole (SDPA would give NaN, and NaN * 0 is NaN)
            run_mask = batch.prompt_mask.clone()
            run_mask[:, 0] = True
            with contextlib.suppress(_PromptDone):
                decoder(
                    input_ids=batch.prompt_ids,
                    attention_mask=run_mask.long(),
                    position_ids=torch.arange(width, device=run_mask.device).expand_as(run_mask),
                    cache=kept,
                    use_cache=True,
                )
        cache = None
        mask = batch.loss_mask
        if kept is not None:
            rows = batch.unit
            cache = Cache(
                layers=[
                    _PrefixLayer(_prompt_rows(x.keys, rows), _prompt_rows(x.values, rows))
                    for x in kept.layers
                ]
            )
            mask = torch.cat([batch.prompt_mask[rows], batch.loss_mask], dim=1)
        positions = batch.start[:, None] + torch.arange(
            batch.input_ids.shape[1], device=batch.start.device
        )
        hidden = decoder(
            input_ids=batch.input_ids,
            attention_mask=mask.long(),
            position_ids=positions,
            cache=cache,
            use_cache=cache is not None,
        ).last_hidden_state
    finally:
        _checkpoint_with_cache(decoder, False)
    logp = head_logps(head, hidden[batch.loss_mask], batch.targets[batch.loss_mask])
    return torch.zeros(batch.targets.shape, dtype=logp.dtype, device=logp.device).masked_scatter(
        batch.loss_mask, logp
    )


def padded_token_logps(model: nn.Module, batch: MicroBatch) -> torch.Tensor:
    """The same (B, S) log-probs the padded way (before issue 45): each sequence whole (its
    prompt, then its solution) in a right-padded batch through the model's own forward, logits
    from the shortest prompt on (`logits_to_keep` where the model takes it)."""
    ids, attention, n_prompt = batch.padded()
    width = ids.shape[1]
    keep = width - int(n_prompt.min()) + 1 if takes_logits_to_keep(model) else width
    kwargs = {"logits_to_keep": keep} if keep != width else {}
    logits = model(input_ids=ids, attention_mask=attention, use_cache=False, **kwargs).logits
    # logits at column c (position width - keep + c) predict the token at the next position;
    # solution token j of row b sits at position n_prompt[b] + j
    start = width - keep
    targets = F.pad(ids[:, start + 1 :], (0, 1))
    logp = -F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten(), reduction="none")
    logp = logp.view(targets.shape)
    cols = n_prompt[:, None] - 1 - start + torch.arange(batch.targets.shape[1], device=ids.device)
    cols = cols.clamp(max=keep - 1)
    return logp.gather(1, cols) * batch.loss_mask


def token_logps(model: nn.Module, batch: MicroBatch) -> tuple[torch.Tensor, torch.Tensor]:
    """(log-prob of each solution token, mask of solution tokens), both (B, S): row b holds
    sequence `batch.sequence[b]`'s solution tokens from column 0."""
    if batch.padded_layout or not shares_prompts(model):
        return padded_token_logps(model, batch), batch.loss_mask
    return shared_token_logps(model, batch), batch.loss_mask


class SequenceLogps(nn.Module):
    """`token_logps` of `policy` as a module: DDP wraps it, so that the prompt pass and the
    solution pass are one forward of the module it synchronises."""

    def __init__(self, policy: nn.Module):
        super().__init__()
        self.policy = policy

    def forward(self, batch: MicroBatch) -> tuple[torch.Tensor, torch.Tensor]:
        return token_logps(self.policy, batch)


def reduce_tokens(values: torch.Tensor, mask: torch.Tensor, how: str) -> torch.Tensor:
    total = (values * mask).sum(dim=1)
    return total / mask.sum(dim=1).clamp(min=1) if how == "mean" else total
