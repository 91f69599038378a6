"""The data side of `codelog train --task repair`: repair turns in groups, with a prompt per row.

A repair dataset (`codelog build --kind repair`) has one row per turn: the user's earlier
attempts with their verdicts (the context) and the next attempt (the completion) with its
reward. Training is the same advantage-weighted likelihood as for solutions, with the same
estimators (codelog.train.advantages); what differs is what a group is and where prompts come
from.

Groups. COBALT samples several completions of one partial trajectory and compares them; a
group is "completions of the same context". Logged data has one completion per context, except
where contexts coincide: rows whose `context_key` is equal show the same programs (canonical
AST) with the same verdicts, so their completions answer the same state. Such rows, when at
least two share a key, form a group. Every other row joins the group of its problem, language
and step (the t-th repair of the problem, whoever made it): the comparison the data allows when
no two completions share a context. A group needs at least two rows whose rewards are not all
equal (otherwise every estimator but sft gives zero advantages); other rows are not trained on
and counted (`RepairGroups.dropped`).

Prompts are per row (each row has its own context), rendered by
codelog.dataset.repair_export.repair_prompt, i.e. codelog.prompts.render_repair_prompt: the
text `codelog export` writes for the row. `RowPrompts` hands them to the loop's batching
(codelog.train.batches.Prompts), tokenised when a step draws the row.

The loop (codelog.train.loop) takes this path when the dataset's manifest says
`"kind": "repair"` (or `--task repair` asks for it): the repair kind (codelog.kinds) names
`REPAIR_ROWS` as its training rows (codelog.train.rows), whose steps are `open_repairs`,
`training_groups`, `RepairSampler` and `RowPrompts` in place of their solutions counterparts;
the rest (estimators, KL reference cache, held-out margin, checkpoints, DDP) is shared.
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

from codelog import kinds
from codelog.dataset.open import check_dataset
from codelog.dataset.repair_export import repair_prompt, statements
from codelog.errors import DatasetError
from codelog.recipe import Recipe
from codelog.train import data
from codelog.train.options import TrainingError

INDEX_COLUMNS = (
    "problem_id",
    "language",
    "step",
    "context_key",
    "submission_id",
    "reward",
    "is_correct",
)


@dataclass(frozen=True)
class RepairDatasetDir(data.DatasetDir):
    """A repair dataset; `solutions` names its completions table, repairs.parquet."""

    @property
    def solutions(self) -> Path:
        return self.path / "repairs.parquet"


def open_repairs(path: str | Path) -> RepairDatasetDir:
    """Check a repair dataset directory; DatasetError naming what is wrong."""
    path = Path(path)
    manifest = check_dataset(path)  # missing dir or manifest, other format_version, file sizes
    kinds.REPAIRS.expect(
        manifest, path, "--task repair trains on a dataset built with `codelog build --kind repair`"
    )
    dataset = RepairDatasetDir(path, manifest)
    for table in (dataset.solutions, dataset.problems):
        if not table.is_file():
            raise DatasetError(f"{table}: missing; the dataset is incomplete, rebuild it")
    names = set(pq.read_schema(dataset.solutions).names)
    missing = [c for c in (*INDEX_COLUMNS, "context", "code") if c not in names]
    if missing:
        raise DatasetError(f"{dataset.solutions}: missing column(s) {missing}")
    return dataset


def group_labels(table: pa.Table) -> list[tuple[str, str]]:
    """Each row's group as (problem_id, label): label "context <key>" for rows sharing a
    context with another row, else "<language> step <t>"."""
    keys = table["context_key"].to_pylist()
    shared = {k for k, n in zip(*_counts(keys), strict=True) if n >= 2}
    return [
        (problem, f"context {key}" if key in shared else f"{language} step {step}")
        for problem, language, step, key in zip(
            table["problem_id"].to_pylist(),
            table["language"].to_pylist(),
            table["step"].to_pylist(),
            keys,
            strict=True,
        )
    ]


def _counts(values: list[str]) -> tuple[list[str], list[int]]:
    counts = pc.value_counts(pa.array(values, pa.string()))
    return counts.field("values").to_pylist(), counts.field("counts").to_pylist()


def read_repair_index(dataset: RepairDatasetDir) -> tuple[data.GroupIndex, int]:
    """The groups of repairs.parquet (row numbers in the file), and how many rows fit none."""
    table = pq.read_table(dataset.solutions, columns=list(INDEX_COLUMNS))
    if table.num_rows == 0:
        raise DatasetError(f"{dataset.solutions}: no repair rows to train on")
    labels = group_labels(table)
    rewards = table["reward"].to_numpy().astype(np.float64)
    encoded = pc.dictionary_encode(pa.array(["\x00".join(k) for k in labels], pa.string()))
    codes = encoded.indices.to_numpy(zero_copy_only=False)
    order = np.argsort(codes, kind="stable").astype(np.int64)
    counts = np.bincount(codes, minlength=len(encoded.dictionary))
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    index = data.GroupIndex(
        keys=[tuple(k.split("\x00", 1)) for k in encoded.dictionary.to_pylist()],  # type: ignore[misc]
        starts=starts,
        rows=order,
        rewards=rewards,
        is_correct=table["is_correct"].to_numpy(zero_copy_only=False).astype(bool),
        submission_ids=table["submission_id"].combine_chunks(),
    )
    kept = []
    for g in range(len(index)):
        members = index.members(g)
        varied = len(members) >= 2 and np.ptp(rewards[members]) > 0
        kept.append(members if varied else members[:0])
    subset = index.subset(kept)
    return subset, table.num_rows - len(subset.rows)


class RepairPrompts:
    """The rendered prompt of each row of repairs.parquet, read a row group at a time."""

    def __init__(self, dataset: RepairDatasetDir, recipe: Recipe, cached_row_groups: int = 4):
        self.recipe = recipe
        self.statements = statements(dataset.path)
        self.file = pq.ParquetFile(dataset.solutions)
        sizes = [self.file.metadata.row_group(i).num_rows for i in range(self.file.num_row_groups)]
        self.bounds = np.cumsum([0, *sizes])
        self.cache: OrderedDict[int, list[dict[str, Any]]] = OrderedDict()
        self.cached_row_groups = cached_row_groups
        self.path = dataset.solutions

    def texts(self, rows: Sequence[int]) -> list[str]:
        out = []
        for row in rows:
            rg = int(np.searchsorted(self.bounds, row, side="right") - 1)
            record = self._row_group(rg)[int(row) - int(self.bounds[rg])]
            statement = self.statements.get(record["problem_id"])
            if statement is None:
                raise DatasetError(
                    f"{self.path}: row {int(row)}: no statement for problem {record['problem_id']}"
                )
            out.append(repair_prompt(self.recipe, statement, record))
        return out

    def ids(self, rows: Sequence[int], tokenizer: Any) -> list[list[int]]:
        """Prompt token ids per row, as data.encode_prompt makes them for solutions."""
        return [data.encode_prompt(tokenizer, text) for text in self.texts(rows)]

    def _row_group(self, rg: int) -> list[dict[str, Any]]:
        if rg in self.cache:
            self.cache.move_to_end(rg)
            return self.cache[rg]
        columns = ["problem_id", "language", "context"]
        records = self.file.read_row_group(rg, columns=columns).to_pylist()
        self.cache[rg] = records
        while len(self.cache) > self.cached_row_groups:
            self.cache.popitem(last=False)
        return records


@dataclass(frozen=True)
class RowPrompts:
    """codelog.train.batches.Prompts for repair rows: each row's own rendered context."""

    prompts: RepairPrompts
    tokenizer: Any

    def ids(self, group: int, rows: Sequence[int]) -> list[list[int]]:
        return self.prompts.ids(rows, self.tokenizer)


@dataclass(frozen=True)
class RepairGroups:
    train: data.GroupIndex
    heldout: data.GroupIndex
    prompts: RepairPrompts
    dropped: int  # rows in no trainable group (alone, or all rewards equal)


def training_groups(
    dataset: RepairDatasetDir, recipe: Recipe, eval_fraction: float, seed: int
) -> RepairGroups:
    """The groups to train on, the held-out rows, and the per-row prompts."""
    index, dropped = read_repair_index(dataset)
    if not len(index):
        raise DatasetError(
            f"{dataset.solutions}: no group of two or more repair rows with different rewards"
        )
    train, heldout = data.split_heldout(index, eval_fraction, seed)
    return RepairGroups(train, heldout, RepairPrompts(dataset, recipe), dropped)


class RepairSampler(data.GroupSampler):
    """data.GroupSampler for repair groups: a group larger than `group_size` gives a member of
    the highest reward, one of the lowest (so its advantages are never all zero) and the rest
    at random; a repair group need not hold a correct completion."""

    def next(self) -> tuple[int, np.ndarray]:
        if self.pos == len(self.order):
            self.order, self.pos = self.rng.permutation(len(self.index)), 0
            self.epoch += 1
        group = int(self.order[self.pos])
        self.pos += 1
        members = self.index.members(group)
        if len(members) <= self.group_size:
            return group, members.copy()
        rewards = self.index.rewards[members]
        first = self.rng.choice(np.flatnonzero(rewards == rewards.max()))
        second = self.rng.choice(np.flatnonzero(rewards == rewards.min()))
        rest = np.setdiff1d(np.arange(len(members)), [first, second])
        more = self.rng.choice(rest, self.group_size - 2, replace=False)
        return group, np.sort(members[np.concatenate([[first, second], more])])


class RepairRows:
    """The repair kind's training rows (codelog.train.rows): groups of repair rows, a prompt
    per row."""

    def open(self, path: str | Path) -> RepairDatasetDir:
        return open_repairs(path)

    def check(self, recipe: Recipe) -> None:
        if recipe.train.reward != "reward":
            raise TrainingError(
                f"--reward {recipe.train.reward}: repair rows have one reward, `reward`"
            )

    def training_set(self, dataset: RepairDatasetDir, recipe: Recipe) -> data.TrainingSet:
        t = recipe.train
        groups = training_groups(dataset, recipe, t.eval_fraction, t.seed)
        note = None
        if groups.dropped:
            note = f"{groups.dropped:,} repair rows are in no group of two with different rewards"
        return data.TrainingSet(groups.train, groups.heldout, groups.prompts, note)

    def prompts(self, training: data.TrainingSet, tokenizer: Any) -> tuple[RowPrompts, RowPrompts]:
        prompts = RowPrompts(training.prompts, tokenizer)
        return prompts, prompts

    def sampler(self, index: data.GroupIndex, group_size: int, seed: int) -> RepairSampler:
        return RepairSampler(index, group_size, seed)

    def prompt_identity(self, recipe: Recipe) -> str:
        return f"{recipe.prompt.template}\n{recipe.repairs.instruction}"


REPAIR_ROWS = RepairRows()
