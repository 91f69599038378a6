"""One step's data: draw the step's groups, tokenise them, cut them into length-aware micro-batches.

Runs in the prefetch thread while the previous step computes, so nothing here touches the model.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import torch

from codelog.recipe import Train
from codelog.training import data
from codelog.training.advantages import compute_advantages


class Prompts(Protocol):
    """Prompt token ids of a group's rows: one per row, in the order of `rows`."""

    def ids(self, group: int, rows: Sequence[int]) -> list[list[int]]: ...


@dataclass(frozen=True)
class GroupPrompts:
    """Solutions: every row of a group answers the group's problem, so shares its prompt."""

    by_group: list[list[int]]

    def ids(self, group: int, rows: Sequence[int]) -> list[list[int]]:
        return [self.by_group[group]] * len(rows)


@dataclass
class MicroBatch:
    input_ids: torch.Tensor  # (B, T) right-padded
    attention_mask: torch.Tensor  # (B, T)
    loss_mask: torch.Tensor  # (B, T): 1 on solution tokens
    weight: torch.Tensor  # (B,) A_i / (n * groups): the factor of log p in the loss (negated)
    kl_weight: torch.Tensor  # (B,) 1 / (n * groups): the factor of KL_i
    sequence: list[int]  # positions in the step's sequence list
    min_prompt: int  # shortest prompt: logits are needed from there on
    # (B, T): the reference's log-prob of token p at [b, p] on solution tokens (cached KL only)
    ref_logp: torch.Tensor | None = None

    def to(self, device: torch.device) -> MicroBatch:
        move = ("input_ids", "attention_mask", "loss_mask", "weight", "kl_weight", "ref_logp")
        return dataclasses.replace(
            self, **{k: getattr(self, k).to(device) for k in move if getattr(self, k) is not None}
        )


@dataclass
class StepData:
    """One optimizer step. Sequences are numbered over the whole step (every rank's groups);
    `batches` hold this rank's share."""

    groups: list[tuple[int, np.ndarray]]  # (group number, row numbers), all ranks' groups
    group_of: np.ndarray  # per sequence: position in `groups`
    rows: np.ndarray  # per sequence: row number in solutions.parquet
    rewards: np.ndarray  # per sequence
    is_correct: np.ndarray  # per sequence
    advantages: np.ndarray  # per sequence
    lengths: dict[int, int]  # per sequence of this rank: tokens
    batches: list[MicroBatch]  # this rank's
    truncated: int  # this rank's sequences cut to max_length
    sampler_state: dict[str, Any]  # the sampler's state once this step's groups were drawn
    padded_tokens: int = field(init=False)

    def __post_init__(self) -> None:
        self.padded_tokens = sum(b.input_ids.numel() for b in self.batches)

    def describe(self, sequences: Iterable[int], index: data.GroupIndex) -> str:
        """The problems and submissions of the groups holding `sequences`, for error messages."""
        groups = sorted({int(self.group_of[i]) for i in sequences})
        return "; ".join(
            f"problem {index.keys[self.groups[g][0]][0]} ({index.keys[self.groups[g][0]][1]}), "
            f"submissions {', '.join(index.names(self.groups[g][1]))}"
            for g in groups
        )

    @property
    def tokens(self) -> int:
        """Tokens of this rank's sequences that reach the model (padding not counted)."""
        return sum(self.lengths[i] for mb in self.batches for i in mb.sequence)


def collate(
    seqs: list[tuple[list[int], int]], pad_id: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Right-pad (ids, prompt length) pairs to (input_ids, attention_mask, loss_mask)."""
    width = max(len(ids) for ids, _ in seqs)
    input_ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    attention_mask = torch.zeros((len(seqs), width), dtype=torch.long)
    loss_mask = torch.zeros((len(seqs), width), dtype=torch.bool)
    for b, (ids, n_prompt) in enumerate(seqs):
        input_ids[b, : len(ids)] = torch.tensor(ids)
        attention_mask[b, : len(ids)] = 1
        loss_mask[b, n_prompt : len(ids)] = True
    return input_ids, attention_mask, loss_mask


def draw_groups(sampler: data.GroupSampler, t: Train) -> list[tuple[int, np.ndarray]]:
    """The step's `grad_accum` groups (every rank draws all of them, in the same order)."""
    return [sampler.next() for _ in range(t.grad_accum)]


def encode_group(
    store: data.CodeStore,
    prompts: Prompts,
    group: int,
    rows: Sequence[int],
    tokenizer: Any,
    max_length: int,
) -> list[tuple[list[int], int, bool]]:
    """(ids, prompt length, truncated?) of each solution in `rows`: prompt + solution + EOS."""
    solutions = data.encode_solutions(tokenizer, store.fetch(np.asarray(rows)))
    return [
        data.join(prompt, solution, max_length)
        for prompt, solution in zip(prompts.ids(group, rows), solutions, strict=True)
    ]


def prepare_step(
    sampler: data.GroupSampler,
    store: data.CodeStore,
    prompts: Prompts,
    tokenizer: Any,
    t: Train,
    rank: int = 0,
    world: int = 1,
    reference: Any = None,
) -> StepData:
    """Draw the step's groups; tokenise this rank's share (groups rank, rank + world, ...) and cut
    it into length-aware micro-batches. `reference` (a ReferenceCache) supplies cached reference
    log-probs for the KL penalty."""
    groups = draw_groups(sampler, t)
    index = sampler.index
    rows = np.concatenate([r for _, r in groups])
    group_of = np.repeat(np.arange(len(groups)), [len(r) for _, r in groups])
    advantages = np.concatenate(
        [
            compute_advantages(
                t.algo,
                torch.from_numpy(index.rewards[r]),
                torch.from_numpy(index.is_correct[r]),
            ).numpy()
            for _, r in groups
        ]
    )
    scale = np.array([1.0 / (len(groups[g][1]) * len(groups)) for g in group_of])
    first = np.concatenate([[0], np.cumsum([len(r) for _, r in groups])])
    seqs: dict[int, tuple[list[int], int]] = {}
    truncated = 0
    for g in range(rank, len(groups), world):
        group, group_rows = groups[g]
        encoded = encode_group(store, prompts, group, group_rows, tokenizer, t.max_length)
        for k, (ids, n_prompt, cut) in enumerate(encoded):
            seqs[int(first[g]) + k] = (ids, n_prompt)
            truncated += cut
    # A member with zero advantage adds nothing to the loss (SFT's incorrect solutions): skip it,
    # unless the KL penalty needs its tokens. One is kept if none is left, so that every rank
    # takes part in the step's gradient all-reduce.
    live = [i for i in seqs if advantages[i] != 0 or t.kl > 0] or [min(seqs)]
    return StepData(
        groups,
        group_of,
        rows,
        index.rewards[rows],
        index.is_correct[rows],
        advantages,
        {i: len(seqs[i][0]) for i in seqs},
        micro_batches(
            seqs, live, advantages * scale, scale, tokenizer.pad_token_id, t, rows, reference
        ),
        truncated,
        sampler.state_dict(),
    )


def micro_batches(
    seqs: dict[int, tuple[list[int], int]],
    live: list[int],
    weight: np.ndarray,
    kl_weight: np.ndarray,
    pad_id: int,
    t: Train,
    rows: np.ndarray | None = None,
    reference: Any = None,
) -> list[MicroBatch]:
    """The `live` sequences of `seqs` ({position: (ids, prompt length)}) cut into length-aware
    micro-batches of at most `t.batch_tokens` padded tokens; `weight` and `kl_weight` are per
    position in the step, `rows` (row numbers) look up the cached reference log-probs.
    bench/gpu.py feeds it synthetic sequences: the trainer's batches without a dataset."""
    batches = []
    for plan in data.plan_micro_batches([len(seqs[i][0]) for i in live], t.batch_tokens):
        members = [live[k] for k in plan]
        input_ids, attention_mask, loss_mask = collate([seqs[i] for i in members], pad_id)
        ref_logp = None
        if reference is not None:
            ref_logp = torch.zeros(input_ids.shape, dtype=torch.float32)
            for b, i in enumerate(members):
                ids, n_prompt = seqs[i]
                ref_logp[b, n_prompt : len(ids)] = torch.from_numpy(reference.get(int(rows[i])))
        batches.append(
            MicroBatch(
                input_ids,
                attention_mask,
                loss_mask,
                weight=torch.tensor(weight[members], dtype=torch.float32),
                kl_weight=torch.tensor(kl_weight[members], dtype=torch.float32),
                sequence=members,
                min_prompt=min(seqs[i][1] for i in members),
                ref_logp=ref_logp,
            )
        )
    return batches
