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
    """Sequences laid out with each distinct prompt once (codelog.training.logprobs).

    Unit u is one prompt: `prompt_ids[u]` its tokens but the last, right-padded. Row b is one
    sequence: `input_ids[b]` its prompt's last token then its solution but the last token,
    `targets[b]` its solution (the tokens each position predicts), right-padded; it attends to
    unit `unit[b]`'s prompt and its positions start at `start[b]` (its prompt's length - 1).
    `padded_layout`: the padded path runs it instead (each sequence whole, in its own row)."""

    prompt_ids: torch.Tensor  # (U, P)
    prompt_mask: torch.Tensor  # (U, P) bool
    input_ids: torch.Tensor  # (B, S)
    targets: torch.Tensor  # (B, S)
    loss_mask: torch.Tensor  # (B, S) bool: 1 on solution tokens
    unit: torch.Tensor  # (B,)
    start: torch.Tensor  # (B,)
    weight: torch.Tensor  # (B,) A_i / (n * groups): the factor of log p in the loss (negated)
    kl_weight: torch.Tensor  # (B,) 1 / (n * groups): the factor of KL_i
    sequence: list[int]  # positions in the step's sequence list
    # (B, S): the reference's log-prob of each solution token (cached KL only)
    ref_logp: torch.Tensor | None = None
    padded_layout: bool = False

    def to(self, device: torch.device) -> MicroBatch:
        move = ("prompt_ids", "prompt_mask", "input_ids", "targets", "loss_mask", "unit")
        move += ("start", "weight", "kl_weight", "ref_logp")
        return dataclasses.replace(
            self, **{k: getattr(self, k).to(device) for k in move if getattr(self, k) is not None}
        )

    @property
    def padded_tokens(self) -> int:
        """Token positions the model runs, padding included."""
        if self.padded_layout:
            return self.input_ids.shape[0] * int((self.start + 1 + self.loss_mask.sum(1)).max())
        return self.prompt_ids.numel() + self.input_ids.numel()

    @property
    def computed_tokens(self) -> int:
        """Token positions the model runs, padding left out: each sequence whole (padded
        layout), or each prompt once and each solution (shared)."""
        if self.padded_layout:
            return int((self.start + 1 + self.loss_mask.sum(1)).sum())
        return int(self.prompt_mask.sum() + self.loss_mask.sum())

    def padded(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Each sequence whole, right-padded: (input_ids, attention_mask, prompt lengths)."""
        n_prompt = self.start + 1
        lengths = n_prompt + self.loss_mask.sum(1)
        width = int(lengths.max())
        rows = self.input_ids.shape[0]
        ids = torch.zeros((rows, width), dtype=torch.long, device=self.input_ids.device)
        for b in range(rows):
            p, n = int(self.start[b]), int(lengths[b]) - int(n_prompt[b])
            ids[b, :p] = self.prompt_ids[self.unit[b], :p]
            ids[b, p] = self.input_ids[b, 0]
            ids[b, p + 1 : p + 1 + n] = self.targets[b, :n]
        positions = torch.arange(width, device=ids.device)
        return ids, (positions < lengths[:, None]).long(), n_prompt


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
    padded_tokens: int = field(init=False)  # tokens the model computes, padding included
    computed_tokens: int = field(init=False)  # the same, padding left out

    def __post_init__(self) -> None:
        self.padded_tokens = sum(b.padded_tokens for b in self.batches)
        self.computed_tokens = sum(b.computed_tokens for b in self.batches)

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


def lay_out(
    seqs: list[tuple[list[int], int]], pad_id: int, padded: bool = False
) -> dict[str, torch.Tensor]:
    """The MicroBatch tensors of (ids, prompt length) pairs: sequences with the same prompt
    share a unit (every sequence its own with `padded`)."""
    units: dict[tuple[int, ...], int] = {}
    unit = []
    for k, (ids, n_prompt) in enumerate(seqs):
        key = (k,) if padded else tuple(ids[:n_prompt])
        unit.append(units.setdefault(key, len(units)))
    prefixes = [None] * len(units)
    for k, (ids, n_prompt) in enumerate(seqs):
        prefixes[unit[k]] = ids[: n_prompt - 1]
    width = max(len(p) for p in prefixes)
    prompt_ids = torch.full((len(units), width), pad_id, dtype=torch.long)
    prompt_mask = torch.zeros((len(units), width), dtype=torch.bool)
    for u, prefix in enumerate(prefixes):
        prompt_ids[u, : len(prefix)] = torch.tensor(prefix, dtype=torch.long)
        prompt_mask[u, : len(prefix)] = True
    span = max(len(ids) - n_prompt for ids, n_prompt in seqs)
    input_ids = torch.full((len(seqs), span), pad_id, dtype=torch.long)
    targets = torch.full((len(seqs), span), pad_id, dtype=torch.long)
    loss_mask = torch.zeros((len(seqs), span), dtype=torch.bool)
    for b, (ids, n_prompt) in enumerate(seqs):
        n = len(ids) - n_prompt
        input_ids[b, :n] = torch.tensor(ids[n_prompt - 1 : -1], dtype=torch.long)
        targets[b, :n] = torch.tensor(ids[n_prompt:], dtype=torch.long)
        loss_mask[b, :n] = True
    return {
        "prompt_ids": prompt_ids,
        "prompt_mask": prompt_mask,
        "input_ids": input_ids,
        "targets": targets,
        "loss_mask": loss_mask,
        "unit": torch.tensor(unit, dtype=torch.long),
        "start": torch.tensor([n_prompt - 1 for _, n_prompt in seqs], dtype=torch.long),
    }


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
    padded: bool = False,
) -> StepData:
    """Draw the step's groups; tokenise this rank's share (groups rank, rank + world, ...) and cut
    it into length-aware micro-batches. `reference` (a ReferenceCache) supplies cached reference
    log-probs for the KL penalty; `padded` lays each sequence out whole (the path before issue 45)."""
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
            seqs,
            live,
            advantages * scale,
            scale,
            tokenizer.pad_token_id,
            t,
            rows,
            reference,
            padded,
        ),
        truncated,
        sampler.state_dict(),
    )


def plan(
    seqs: dict[int, tuple[list[int], int]], live: list[int], batch_tokens: int, padded: bool
) -> list[list[int]]:
    """`live`, positions in `seqs` ({position: (ids, prompt length)}), cut into micro-batches of
    at most `batch_tokens` computed tokens: each prompt once, or each sequence whole (`padded`)."""
    if padded:
        plans = data.plan_micro_batches([len(seqs[i][0]) for i in live], batch_tokens)
    else:
        prompts: dict[tuple[int, ...], int] = {}
        unit = [prompts.setdefault(tuple(seqs[i][0][: seqs[i][1]]), len(prompts)) for i in live]
        plans = data.plan_shared_micro_batches(
            unit,
            [seqs[i][1] - 1 for i in live],
            [len(seqs[i][0]) - seqs[i][1] for i in live],
            batch_tokens,
        )
    return [[live[k] for k in p] for p in plans]


def micro_batches(
    seqs: dict[int, tuple[list[int], int]],
    live: list[int],
    weight: np.ndarray,
    kl_weight: np.ndarray,
    pad_id: int,
    t: Train,
    rows: np.ndarray | None = None,
    reference: Any = None,
    padded: bool = False,
) -> list[MicroBatch]:
    """The `live` sequences of `seqs` ({position: (ids, prompt length)}) cut into micro-batches
    of at most `t.batch_tokens` computed tokens, each prompt once (`padded`: each sequence
    whole, as before issue 45); `weight` and `kl_weight` are per position in the step, `rows`
    (row numbers) look up the cached reference log-probs.
    bench/gpu.py feeds it synthetic sequences: the trainer's batches without a dataset."""
    batches = []
    for members in plan(seqs, live, t.batch_tokens, padded):
        tensors = lay_out([seqs[i] for i in members], pad_id, padded)
        ref_logp = None
        if reference is not None:
            ref_logp = torch.zeros(tensors["targets"].shape, dtype=torch.float32)
            for b, i in enumerate(members):
                ids, n_prompt = seqs[i]
                ref_logp[b, : len(ids) - n_prompt] = torch.from_numpy(reference.get(int(rows[i])))
        batches.append(
            MicroBatch(
                **tensors,
                weight=torch.tensor(weight[members], dtype=torch.float32),
                kl_weight=torch.tensor(kl_weight[members], dtype=torch.float32),
                sequence=members,
                ref_logp=ref_logp,
                padded_layout=padded,
            )
        )
    return batches
