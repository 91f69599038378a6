"""The data side of training: open a dataset, index its groups, sample them, tokenise, batch.

Nothing here loads the whole table into Python objects. The index keeps, per solution, only its
row number, reward and correctness (NumPy arrays) and per group the range of its rows; code text
is fetched from Parquet for the solutions of the current step only (`CodeStore`).

No torch import at module level: opening and checking a dataset happens before any model loads.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from codelog.errors import DatasetError
from codelog.prompts import SEPARATOR, render_prompt
from codelog.recipe import Recipe

INDEX_COLUMNS = ("problem_id", "language", "dialect", "submission_id", "reward", "is_correct")


# --- the dataset directory ---------------------------------------------------------------------


@dataclass(frozen=True)
class DatasetDir:
    path: Path
    manifest: dict[str, Any]

    @property
    def solutions(self) -> Path:
        return self.path / "solutions.parquet"

    @property
    def problems(self) -> Path:
        return self.path / "problems.parquet"

    @property
    def input_fingerprint(self) -> str | None:
        return self.manifest.get("input_fingerprint")

    def recipe(self) -> Recipe | None:
        """The recipe the dataset was built with (its prompt template), if the manifest has one."""
        data = self.manifest.get("recipe")
        return (
            Recipe.from_dict(data, where=f"{self.path / 'manifest.json'}: recipe") if data else None
        )


def open_dataset(path: str | Path) -> DatasetDir:
    """Check a dataset directory written by `codelog build`; raise DatasetError naming what is wrong."""
    path = Path(path)
    # Imported here: the dataset layer brings the build's modules, which the GPU bench
    # (bench/gpu.py) drives the trainer's step without.
    from codelog.dataset.open import check_dataset

    manifest = check_dataset(path)  # missing dir or manifest, other format_version, file sizes
    dataset = DatasetDir(path, manifest)
    for table in (dataset.solutions, dataset.problems):
        if not table.is_file():
            raise DatasetError(f"{table}: missing; the dataset is incomplete, rebuild it")
    try:
        names = set(pq.read_schema(dataset.solutions).names)
    except (pa.ArrowInvalid, OSError) as exc:
        raise DatasetError(f"{dataset.solutions}: not a readable Parquet file: {exc}") from None
    missing = [c for c in (*INDEX_COLUMNS, "code") if c not in names]
    if missing:
        raise DatasetError(f"{dataset.solutions}: missing column(s) {missing}")
    return dataset


# --- the group index ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupIndex:
    """Groups of solutions: group g owns rows[starts[g]:starts[g + 1]] (row numbers in the file)."""

    keys: list[tuple[str, str, str | None]]  # (problem_id, language, dialect) per group
    starts: np.ndarray  # int64, len(keys) + 1
    rows: np.ndarray  # int64 row numbers in solutions.parquet, grouped
    rewards: np.ndarray  # float64, indexed by row number
    is_correct: np.ndarray  # bool, indexed by row number
    submission_ids: pa.Array  # indexed by row number; read only to name solutions in messages

    def __len__(self) -> int:
        return len(self.keys)

    def members(self, group: int) -> np.ndarray:
        return self.rows[self.starts[group] : self.starts[group + 1]]

    def names(self, rows: Sequence[int]) -> list[str]:
        return [self.submission_ids[int(r)].as_py() for r in rows]

    def subset(self, rows_per_group: list[np.ndarray]) -> GroupIndex:
        """The same solutions table, with group g restricted to rows_per_group[g]; empty groups go."""
        keep = [g for g, rows in enumerate(rows_per_group) if len(rows)]
        lengths = [len(rows_per_group[g]) for g in keep]
        return GroupIndex(
            keys=[self.keys[g] for g in keep],
            starts=np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
            rows=np.concatenate([rows_per_group[g] for g in keep]).astype(np.int64)
            if keep
            else np.zeros(0, np.int64),
            rewards=self.rewards,
            is_correct=self.is_correct,
            submission_ids=self.submission_ids,
        )


def read_index(dataset: DatasetDir, reward: str = "reward") -> GroupIndex:
    """Index the groups (problem, language, dialect) of solutions.parquet from a few narrow
    columns (no code text); rewards from the column `reward` names."""
    if reward not in pq.read_schema(dataset.solutions).names:
        raise DatasetError(
            f"{dataset.solutions}: no column {reward!r} to take rewards from"
            + (
                " (build the dataset with [lint_reward] enabled = true)"
                if reward == "reward_lint"
                else ""
            )
        )
    columns = [c if c != "reward" else reward for c in INDEX_COLUMNS]
    table = pq.read_table(dataset.solutions, columns=columns).rename_columns(list(INDEX_COLUMNS))
    if table.num_rows == 0:
        raise DatasetError(f"{dataset.solutions}: no solutions, so no groups to train on")
    for column in ("reward", "is_correct", "problem_id", "language"):
        if table[column].null_count:
            raise DatasetError(f"{dataset.solutions}: column '{column}' has nulls")
    # "\x01" marks a null dialect (languages without dialects), "\x02" + name a dialect
    dialect = pc.fill_null(pc.binary_join_element_wise("\x02", table["dialect"], ""), "\x01")
    key = pc.binary_join_element_wise(table["problem_id"], table["language"], dialect, "\x00")
    encoded = pc.dictionary_encode(key).combine_chunks()
    codes = encoded.indices.to_numpy(zero_copy_only=False)
    rows = np.argsort(codes, kind="stable").astype(np.int64)
    counts = np.bincount(codes, minlength=len(encoded.dictionary))
    keys = []
    for k in encoded.dictionary.to_pylist():
        problem_id, language, marked = k.split("\x00", 2)
        keys.append((problem_id, language, marked[1:] if marked.startswith("\x02") else None))
    return GroupIndex(
        keys=keys,  # type: ignore[arg-type]
        starts=np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
        rows=rows,
        rewards=table["reward"].to_numpy().astype(np.float64),
        is_correct=table["is_correct"].to_numpy(zero_copy_only=False).astype(bool),
        submission_ids=table["submission_id"].combine_chunks(),
    )


def contrastive(index: GroupIndex) -> GroupIndex:
    """Only the groups with at least one correct and one incorrect solution."""
    rows = []
    for g in range(len(index)):
        members = index.members(g)
        correct = index.is_correct[members]
        rows.append(members if correct.any() and not correct.all() else members[:0])
    return index.subset(rows)


def split_heldout(index: GroupIndex, fraction: float, seed: int) -> tuple[GroupIndex, GroupIndex]:
    """Hold out `fraction` of each group's correct and of its incorrect solutions (at random, by
    seed), always leaving at least one of each to train on. Returns (train, heldout)."""
    rng = np.random.default_rng([seed, 0x5EED])
    train_rows, heldout_rows = [], []
    for g in range(len(index)):
        members = index.members(g)
        keep, out = [], []
        for part in (members[index.is_correct[members]], members[~index.is_correct[members]]):
            n_out = min(int(fraction * len(part)), max(len(part) - 1, 0))
            chosen = rng.permutation(len(part))
            out.append(part[np.sort(chosen[:n_out])])
            keep.append(part[np.sort(chosen[n_out:])])
        train_rows.append(np.sort(np.concatenate(keep)))
        heldout_rows.append(np.sort(np.concatenate(out)))
    return index.subset(train_rows), index.subset(heldout_rows)


def problem_splits(dataset: DatasetDir) -> dict[str, str]:
    """problem_id -> "train" / "test" from problems.parquet."""
    table = pq.read_table(dataset.problems, columns=["problem_id", "split"])
    return dict(zip(table["problem_id"].to_pylist(), table["split"].to_pylist(), strict=True))


def split_by_problem(index: GroupIndex, splits: dict[str, str]) -> tuple[GroupIndex, GroupIndex]:
    """(groups of train problems, groups of test problems)."""
    train_rows, test_rows = [], []
    for g, key in enumerate(index.keys):
        members = index.members(g)
        test = splits.get(key[0]) == "test"
        train_rows.append(members[:0] if test else members)
        test_rows.append(members if test else members[:0])
    return index.subset(train_rows), index.subset(test_rows)


@dataclass(frozen=True)
class TrainingSet:
    """What a kind's training rows (codelog.training.rows) train and measure on."""

    train: GroupIndex
    heldout: GroupIndex
    prompts: Any  # the prompts' source, which the kind's `prompts` tokenises
    note: str | None = None  # what was left out, said once before training


def training_groups(
    dataset: DatasetDir, recipe: Recipe, eval_fraction: float, seed: int
) -> tuple[GroupIndex, GroupIndex, list[str]]:
    """The groups to train on, the held-out groups, and the prompt text of the training groups
    followed by that of the held-out groups (in `train.keys + heldout.keys` order).

    The dataset's test problems are held out whole: training never sees them and the held-out
    metrics are measured on them. A dataset without test problems (built with test_fraction 0,
    or from a single problem) holds out `eval_fraction` of each training
    group's solutions instead, which measures fit on the training problems, not transfer."""
    index = contrastive(read_index(dataset, recipe.train.reward))
    if not len(index):
        raise DatasetError(
            f"{dataset.solutions}: no group has both a correct and an incorrect solution"
        )
    train, heldout = split_by_problem(index, problem_splits(dataset))
    if not len(train):
        raise DatasetError(
            f"{dataset.solutions}: every group with a correct and an incorrect solution belongs "
            "to a test problem; nothing to train on"
        )
    if not len(heldout):
        train, heldout = split_heldout(train, eval_fraction, seed)
    keys = [*train.keys, *heldout.keys]
    return train, heldout, render_prompts(dataset, keys, recipe.prompt.template)


# --- code text and prompts ---------------------------------------------------------------------


class CodeStore:
    """Code text by row number, read from Parquet a row group at a time (a few cached).

    Solutions are sorted by problem, so one group's rows sit in one or two row groups.
    """

    def __init__(self, path: Path, cached_row_groups: int = 4):
        self.file = pq.ParquetFile(path)
        sizes = [self.file.metadata.row_group(i).num_rows for i in range(self.file.num_row_groups)]
        self.bounds = np.cumsum([0, *sizes])
        self.cache: OrderedDict[int, pa.Array] = OrderedDict()
        self.cached_row_groups = cached_row_groups

    def fetch(self, rows: Sequence[int]) -> list[str]:
        out = []
        for row in rows:
            rg = int(np.searchsorted(self.bounds, row, side="right") - 1)
            out.append(self._row_group(rg)[int(row) - int(self.bounds[rg])].as_py() or "")
        return out

    def _row_group(self, rg: int) -> pa.Array:
        if rg in self.cache:
            self.cache.move_to_end(rg)
            return self.cache[rg]
        column = self.file.read_row_group(rg, columns=["code"])["code"].combine_chunks()
        self.cache[rg] = column
        while len(self.cache) > self.cached_row_groups:
            self.cache.popitem(last=False)
        return column


def render_prompts(
    dataset: DatasetDir, keys: list[tuple[str, str, str | None]], template: str
) -> list[str]:
    """The prompt text of each group (problem, language, dialect): the same text `codelog
    export` writes for it (without the separator, which `encode_prompt` adds)."""
    table = pq.read_table(dataset.problems, columns=["problem_id", "prompt"])
    statements = dict(
        zip(table["problem_id"].to_pylist(), table["prompt"].to_pylist(), strict=True)
    )
    prompts = []
    for problem_id, language, dialect in keys:
        statement = statements.get(problem_id)
        if statement is None:
            raise DatasetError(f"{dataset.problems}: no statement for problem {problem_id}")
        prompts.append(render_prompt(template, statement, language, dialect))
    return prompts


# --- sampling groups ---------------------------------------------------------------------------


class GroupSampler:
    """Draws one group per call: a problem (each once per epoch, in a seeded random order) and up
    to `group_size` of its solutions, at least one correct and one incorrect. A problem with fewer
    solutions gives all it has. The state is plain data, so a resumed run draws the same groups."""

    def __init__(self, index: GroupIndex, group_size: int, seed: int):
        self.index, self.group_size = index, group_size
        self.rng = np.random.default_rng(seed)
        self.order = self.rng.permutation(len(index))
        self.pos = 0
        self.epoch = 0

    def next(self) -> tuple[int, np.ndarray]:
        """(group number, row numbers of the chosen solutions, ascending)."""
        if self.pos == len(self.order):
            self.order, self.pos, self.epoch = (
                self.rng.permutation(len(self.index)),
                0,
                self.epoch + 1,
            )
        group = int(self.order[self.pos])
        self.pos += 1
        members = self.index.members(group)
        if len(members) <= self.group_size:
            return group, members.copy()
        correct = self.index.is_correct[members]
        first = self.rng.choice(np.flatnonzero(correct))
        second = self.rng.choice(np.flatnonzero(~correct))
        rest = np.setdiff1d(np.arange(len(members)), [first, second])
        more = self.rng.choice(rest, self.group_size - 2, replace=False)
        return group, np.sort(members[np.concatenate([[first, second], more])])

    def state_dict(self) -> dict[str, Any]:
        return {
            "rng": self.rng.bit_generator.state,
            "order": self.order.tolist(),
            "pos": self.pos,
            "epoch": self.epoch,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.rng.bit_generator.state = state["rng"]
        self.order = np.asarray(state["order"], dtype=np.int64)
        self.pos, self.epoch = int(state["pos"]), int(state["epoch"])


# --- tokenisation ------------------------------------------------------------------------------


def encode_prompt(tokenizer: Any, prompt: str) -> list[int]:
    """Prompt token ids: through the tokenizer's chat template when it has one, else the plain
    prompt and SEPARATOR (what `codelog export` writes for TRL, which adds the completion)."""
    if getattr(tokenizer, "chat_template", None):
        text = tokenizer.apply_chat_template(
            [{"role": "user", "content": prompt}], tokenize=False, add_generation_prompt=True
        )
        ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    else:
        ids = tokenizer(prompt + SEPARATOR, add_special_tokens=True)["input_ids"]
    if not ids:  # the first solution token needs a position to be predicted from
        ids = [
            tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
        ]
    return list(ids)


def encode_solutions(tokenizer: Any, codes: list[str]) -> list[list[int]]:
    """Solution token ids, each ended by the end-of-sequence token."""
    ids = tokenizer(codes, add_special_tokens=False)["input_ids"]
    return [[*x, tokenizer.eos_token_id] for x in ids]


def join(prompt: list[int], solution: list[int], max_length: int) -> tuple[list[int], int, bool]:
    """prompt + solution in at most `max_length` tokens: (ids, prompt length, truncated?).

    Too long: the solution keeps at least half the budget (its end is cut), the prompt keeps its
    end (the instruction and the assistant header)."""
    if len(prompt) + len(solution) <= max_length:
        return prompt + solution, len(prompt), False
    n_solution = min(len(solution), max(max_length - len(prompt), max_length // 2))
    n_prompt = max(max_length - n_solution, 1)
    n_solution = max_length - n_prompt
    return prompt[len(prompt) - n_prompt :] + solution[:n_solution], n_prompt, True


# --- length-aware micro-batches ----------------------------------------------------------------


def plan_micro_batches(
    lengths: Sequence[int], batch_tokens: int, overhead: int = 256
) -> list[list[int]]:
    """Split sequences into micro-batches that minimise padded tokens plus `overhead` per forward
    pass, with at most `batch_tokens` padded tokens each (a longer sequence runs alone).

    Sequences are sorted by length and cut into contiguous runs by dynamic programming, so
    similar lengths share a batch. Returns lists of positions into `lengths`."""
    order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
    n = len(order)
    best = [0.0] + [float("inf")] * n  # best[k]: cost of the first k sorted sequences
    cut = [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(end - 1, -1, -1):
            longest = lengths[order[start]]  # sorted descending: the run's first is longest
            padded = longest * (end - start)
            if padded > batch_tokens and end - start > 1:
                break
            cost = best[start] + padded + overhead
            if cost < best[end]:
                best[end], cut[end] = cost, start
    batches, end = [], n
    while end > 0:
        batches.append(order[cut[end] : end])
        end = cut[end]
    return batches[::-1]


def plan_shared_micro_batches(
    unit: Sequence[int], prefix: Sequence[int], span: Sequence[int], batch_tokens: int
) -> list[list[int]]:
    """Split sequences that share prompts into micro-batches of at most `batch_tokens` computed
    tokens, padding included: each prompt once (`prefix[i]`: tokens of sequence i's prompt run
    in the prompt pass; `unit[i]`: which prompt) plus each sequence's `span[i]` tokens.

    Prompts go longest first, so similar lengths share a batch; a prompt's sequences stay
    together unless they alone exceed the budget (then the prompt is run once per part). A
    sequence longer than the budget runs alone. Returns lists of positions into `unit`."""
    members: dict[int, list[int]] = {}
    for i, u in enumerate(unit):
        members.setdefault(u, []).append(i)
    order = sorted(members, key=lambda u: (-prefix[members[u][0]], members[u][0]))
    batches: list[list[int]] = []
    current: list[int] = []
    units = width = span_max = 0
    for u in order:
        p = prefix[members[u][0]]
        for i in sorted(members[u], key=lambda i: (-span[i], i)):
            fresh = not current or unit[current[-1]] != u  # the prompt is not in this batch yet
            rows = len(current) + 1
            if current and (units + fresh) * max(width, p) + rows * max(span_max, span[i]) > (
                batch_tokens
            ):
                batches.append(current)
                current, units, width, span_max, fresh = [], 0, 0, 0, True
            units, width, span_max = units + fresh, max(width, p), max(span_max, span[i])
            current.append(i)
    if current:
        batches.append(current)
    return batches
