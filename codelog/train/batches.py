"""One step's data: draw the step's groups, tokenise them, cut them into length-aware micro-batches.

Runs in the prefetch thread while the previous step computes, so nothing here touches the model.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from codelog.recipe import Train
from codelog.train import data
from codelog.train.advantages import compute_advantages


@dataclass
class MicroBatch:
    input_ids: torch.Tensor  # (B, T) right-padded
    attention_mask: torch.Tensor  # (B, T)
    loss_mask: torch.Tensor  # (B, T): 1 on solution tokens
    weight: torch.Tensor  # (B,) A_i / (n * groups): the factor of log p in the loss (negated)
    kl_weight: torch.Tensor  # (B,) 1 / (n * groups): the factor of KL_i
    sequence: list[int]  # positions in the step's sequence list
    min_prompt: int  # shortest prompt: logits are needed from there on

    def to(self, device: torch.device) -> MicroBatch:
        move = ("input_ids", "attention_mask", "loss_mask", "weight", "kl_weight")
        return dataclasses.replace(self, **{k: getattr(self, k).to(device) for k in move})


@dataclass
class StepData:
    groups: list[tuple[int, np.ndarray]]  # (group number, row numbers)
    group_of: list[int]  # per sequence: position in `groups`
    rewards: np.ndarray  # per sequence
    is_correct: np.ndarray  # per sequence
    advantages: np.ndarray  # per sequence
    lengths: list[int]  # per sequence, tokens
    batches: list[MicroBatch]
    truncated: int
    sampler_state: dict[str, Any]  # the sampler's state once this step's groups were drawn
    padded_tokens: int = field(init=False)

    def __post_init__(self) -> None:
        self.padded_tokens = sum(b.input_ids.numel() for b in self.batches)


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


def prepare_step(
    sampler: data.GroupSampler,
    store: data.CodeStore,
    prompt_ids: list[list[int]],
    tokenizer: Any,
    t: Train,
) -> StepData:
    """Draw `grad_accum` groups, tokenise them, and cut them into length-aware micro-batches."""
    groups, group_of, seqs, rewards, correct, advantages = [], [], [], [], [], []
    truncated = 0
    for _ in range(t.grad_accum):
        group, rows = sampler.next()
        solutions = data.encode_solutions(tokenizer, store.fetch(rows))
        r, c = sampler.index.rewards[rows], sampler.index.is_correct[rows]
        a = compute_advantages(t.algo, torch.from_numpy(r), torch.from_numpy(c)).numpy()
        for solution in solutions:
            ids, n_prompt, cut = data.join(prompt_ids[group], solution, t.max_length)
            seqs.append((ids, n_prompt))
            truncated += cut
            group_of.append(len(groups))
        groups.append((group, rows))
        rewards.append(r), correct.append(c), advantages.append(a)
    rewards, correct, advantages = map(np.concatenate, (rewards, correct, advantages))
    scale = np.array([1.0 / (len(groups[g][1]) * len(groups)) for g in group_of])
    # A member with zero advantage adds nothing to the loss (SFT's incorrect solutions): skip it,
    # unless the KL penalty needs its tokens.
    live = [i for i in range(len(seqs)) if advantages[i] != 0 or t.kl > 0]
    batches = []
    for plan in data.plan_micro_batches([len(seqs[i][0]) for i in live], t.batch_tokens):
        members = [live[k] for k in plan]
        input_ids, attention_mask, loss_mask = collate(
            [seqs[i] for i in members], tokenizer.pad_token_id
        )
        batches.append(
            MicroBatch(
                input_ids,
                attention_mask,
                loss_mask,
                weight=torch.tensor(advantages[members] * scale[members], dtype=torch.float32),
                kl_weight=torch.tensor(scale[members], dtype=torch.float32),
                sequence=members,
                min_prompt=min(seqs[i][1] for i in members),
            )
        )
    return StepData(
        groups,
        group_of,
        rewards,
        correct,
        advantages,
        [len(s[0]) for s in seqs],
        batches,
        truncated,
        sampler.state_dict(),
    )
