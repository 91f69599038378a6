"""group+write for the repair kind: the repair rules (codelog.group.repairs), then the dataset.

Layout:  repairs.parquet  rejects.parquet  problems.parquet  manifest.json (kind "repair")  README.md

DuckDB decides every staged row's fate on narrow columns and numbers the attempts of kept
trajectories (`member_pos`). The attempts with their code then stream once into
position-sorted runs (codelog.publish.spillsort) and come back in trajectory order; each
repair row is cut from that stream with Arrow takes: its target is one member, its context the
`context_len` members just before it. Memory stays one block of members plus the horizon.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from codelog import schema
from codelog.errors import CodelogError
from codelog.group.engine import connect
from codelog.group.split import SplitResult
from codelog.group.stage import group_repairs
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.prompts import render_repair_prompt
from codelog.publish.manifest import build_manifest, file_entries, write_manifest
from codelog.publish.spillsort import RunWriter, merge_runs
from codelog.publish.writer import (
    ParquetSink,
    publishing,
    teed_by_split,
    write_table,
)
from codelog.recipe import Recipe

KIND = "repair"
TABLES = ("repairs", "rejects", "problems")
SPLIT_FILES = {"train": "repairs-train.parquet", "test": "repairs-test.parquet"}
ROWS_PER_FETCH = 8192

# An attempt of a kept trajectory, as the members stream carries it.
MEMBER = pa.schema(
    [
        ("problem_id", pa.string()),
        ("language", pa.string()),
        ("dialect", pa.string()),
        ("split", pa.string()),
        ("user_id", pa.string()),
        ("submission_id", pa.string()),
        ("date", pa.int64()),
        ("original_language", pa.string()),
        ("status", pa.string()),
        ("outcome", pa.string()),
        ("accuracy", pa.string()),
        ("pass_rate", pa.float64()),
        ("is_correct", pa.bool_()),
        ("syntax_ok", pa.bool_()),
        ("ast_hash", pa.string()),
        ("reward", pa.float64()),
        ("code", pa.string()),
    ]
)


def publish_repairs(
    scan: SourceScan, options: BuildOptions, stage_dir: Path, out: Path, code_digest: str
) -> dict[str, Any]:
    """Apply the repair rules to the staged rows, then write the repair dataset to `out`."""
    recipe = options.recipe
    scratch = stage_dir / "scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    con = connect(options.memory_bytes, scratch)
    try:
        split = group_repairs(con, scan, options, stage_dir)
        with publishing(out) as tmp:
            _write_rejects(con, tmp / "rejects.parquet", scratch)
            # 🤗 datasets maps splits to files: with a test split, each split also has its own
            split_files = SPLIT_FILES if len(set(split.splits.values())) > 1 else {}
            _write_repairs(
                con,
                tmp / "repairs.parquet",
                {name: tmp / f for name, f in split_files.items()},
                scratch,
                recipe.repairs.horizon,
                RepairPrompts(recipe, scan.problems).with_prompt,
            )
            con.register("source_problems", scan.problems)
            problems = con.sql(
                "SELECT p.* REPLACE (s.split AS split) FROM source_problems p "
                "JOIN splits s ON s.problem_id = p.problem_id ORDER BY p.problem_id"
            ).to_arrow_reader(ROWS_PER_FETCH)
            write_table(tmp / "problems.parquet", schema.PROBLEM, problems)
            manifest = repair_manifest(con, scan, options, code_digest, split)
            manifest["split"]["files"] = dict(sorted(split_files.items()))
            (tmp / "README.md").write_text(repair_card(manifest), encoding="utf-8")
            manifest["files"] = file_entries(
                tmp, [*(f"{t}.parquet" for t in TABLES), *split_files.values(), "README.md"]
            )
            write_manifest(tmp, manifest)
    finally:
        con.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return manifest


def _sorted_stream(
    con: duckdb.DuckDBPyConnection,
    query: str,
    target: pa.Schema,
    rows: int,
    scratch: Path,
    name: str,
) -> Iterator[pa.RecordBatch]:
    """The rows of `query` (target's columns plus `pos`, any order) in `pos` order, spilled."""
    writer = RunWriter(scratch, name, target)
    for batch in con.sql(query).to_arrow_reader(ROWS_PER_FETCH):
        table = pa.Table.from_batches([batch])
        writer.write(table.select(writer.schema.names).cast(writer.schema))
    runs = writer.close()
    if writer.rows != rows:
        raise CodelogError(f"internal: {writer.rows} {name} rows streamed, {rows} expected")
    return merge_runs(runs, rows)


def _write_rejects(con: duckdb.DuckDBPyConnection, path: Path, scratch: Path) -> None:
    rows = con.sql("SELECT count(*) FROM fate WHERE reason IS NOT NULL").fetchall()[0][0]
    query = """
        SELECT f.problem_id, f.language, s.dialect, f.submission_id, s.status, f.outcome,
               f.reason, f.detail, s.origin, s.ast_hash, s.code, f.pos
        FROM fate f JOIN staged s USING (seq) WHERE f.reason IS NOT NULL
    """
    write_table(
        path, schema.REJECT, _sorted_stream(con, query, schema.REJECT, rows, scratch, "rejects")
    )


def _write_repairs(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    split_paths: dict[str, Path],
    scratch: Path,
    horizon: int,
    with_prompt: Callable[[pa.RecordBatch], pa.RecordBatch],
) -> None:
    members = con.sql("SELECT count(*) FROM attempts WHERE member_pos IS NOT NULL").fetchall()[0][0]
    query = """
        SELECT a.problem_id, a.language, a.dialect, p.split, a.user_id, a.submission_id, s.date,
               s.original_language, s.status, a.outcome, s.accuracy, a.pass_rate, a.is_correct,
               s.syntax_ok, s.ast_hash, a.reward, s.code, a.member_pos AS pos
        FROM attempts a JOIN staged s USING (seq) JOIN splits p ON p.problem_id = a.problem_id
        WHERE a.member_pos IS NOT NULL
    """
    window = _MemberWindow(_sorted_stream(con, query, MEMBER, members, scratch, "members"))
    sink = ParquetSink(path, schema.REPAIR)
    splits = {name: ParquetSink(p, schema.REPAIR) for name, p in split_paths.items()}
    try:
        for plan in con.sql("SELECT * FROM plan ORDER BY pos").to_arrow_reader(ROWS_PER_FETCH):
            targets = plan.column("member_pos").to_numpy()
            window.load_through(int(targets.max()))
            for batch in teed_by_split(
                _repair_rows(window, plan).to_batches(), splits, with_prompt
            ):
                sink.write(batch)
            # the next row's target is at least this batch's last (a perturbed copy shares it)
            window.drop_below(int(targets.max()) - (horizon - 1))
    finally:
        for each in (sink, *splits.values()):
            each.close()


class RepairPrompts:
    """The `prompt` column of the per-split repair files (🤗 datasets users get each row's
    prompt without a join): codelog.prompts.render_repair_prompt of the row's context, as the
    trainer and the exports render it; null for a problem without a statement."""

    def __init__(self, recipe: Recipe, problems: pa.Table) -> None:
        ids, texts = problems["problem_id"].to_pylist(), problems["prompt"].to_pylist()
        self.statements = {p: t for p, t in zip(ids, texts, strict=True) if t}
        self.template, self.instruction = recipe.prompt.template, recipe.repairs.instruction

    def with_prompt(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        rows = zip(
            batch.column("problem_id").to_pylist(),
            batch.column("language").to_pylist(),
            batch.column("context").to_pylist(),
            strict=True,
        )
        prompts = [
            render_repair_prompt(self.template, statement, language, context, self.instruction)
            if (statement := self.statements.get(problem))
            else None
            for problem, language, context in rows
        ]
        return batch.append_column("prompt", pa.array(prompts, pa.string()))


class _MemberWindow:
    """Members (attempts in `member_pos` order) from `base` on: a repair row's context lies
    at most horizon - 1 positions before its target, so older ones are dropped as rows go."""

    def __init__(self, batches: Iterator[pa.RecordBatch]):
        self._batches = batches
        self.table = MEMBER.empty_table()
        self.base = 0

    def load_through(self, pos: int) -> None:
        pending = [self.table]
        end = self.base + self.table.num_rows
        while end <= pos:
            batch = next(self._batches, None)
            if batch is None:
                raise CodelogError(
                    f"internal: repair row needs member {pos}, stream ended at {end}"
                )
            pending.append(pa.Table.from_batches([batch]))
            end += batch.num_rows
        self.table = pa.concat_tables(pending).combine_chunks()

    def drop_below(self, pos: int) -> None:
        cut = min(max(pos - self.base, 0), self.table.num_rows)
        self.table, self.base = self.table.slice(cut), self.base + cut

    def take(self, positions: np.ndarray) -> pa.Table:
        return self.table.take(pa.array(positions - self.base, pa.int64()))


def _repair_rows(window: _MemberWindow, plan: pa.RecordBatch) -> pa.Table:
    """One batch of repair rows: targets and contexts taken from the members window."""
    targets = plan.column("member_pos").to_numpy()
    lengths = plan.column("context_len").to_numpy()
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    # context of row i: members targets[i] - lengths[i] .. targets[i] - 1, oldest first
    within = np.arange(offsets[-1]) - np.repeat(offsets[:-1], lengths)
    flat = np.repeat(targets - lengths, lengths) + within
    shown = window.take(flat)
    # a perturbed row's last context attempt shows the drawn wrong verdict (and no test count)
    last = np.zeros(len(flat), bool)
    last[offsets[1:] - 1] = plan.column("perturbed").to_numpy(zero_copy_only=False)
    mask = pa.array(last)
    row_of = pa.array(np.repeat(np.arange(plan.num_rows), lengths))
    shown_outcome = plan.column("shown_outcome").take(row_of)
    outcome = pc.if_else(mask, shown_outcome, shown.column("outcome"))
    accuracy = pc.if_else(mask, pa.nulls(len(flat), pa.string()), shown.column("accuracy"))
    context = pa.ListArray.from_arrays(
        pa.array(offsets),
        pa.StructArray.from_arrays(
            [
                _array({"outcome": outcome, "accuracy": accuracy}.get(name, shown.column(name)))
                for name in schema.ATTEMPT.names
            ],
            fields=list(schema.ATTEMPT),
        ),
    )
    target = window.take(targets)
    columns = {
        "step": plan.column("step"),
        "context": context,
        "context_key": plan.column("context_key"),
        "reward_outcome": target.column("reward"),
        "best_pass_rate_before": plan.column("best_pass_rate_before"),
        "reward_improve": plan.column("reward_improve"),
        "reward": plan.column("repair_reward"),
        "perturbed": plan.column("perturbed"),
        "perturbation": plan.column("perturbation"),
    }
    return pa.Table.from_arrays(
        [columns[name] if name in columns else target.column(name) for name in schema.REPAIR.names],
        schema=schema.REPAIR,
    ).combine_chunks()


def _array(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def repair_manifest(
    con: duckdb.DuckDBPyConnection,
    scan: SourceScan,
    options: BuildOptions,
    code_digest: str,
    split: SplitResult,
) -> dict[str, Any]:
    """The solutions manifest's provenance and accounting, with the repair kind's counts:
    rows_in = targets + rejects; repairs = targets + perturbed copies."""
    base = build_manifest(con, scan, options, code_digest, split)
    counts = base.pop("counts")
    repairs, perturbed = con.sql(
        "SELECT count(*), count(*) FILTER (WHERE perturbed) FROM plan"
    ).fetchall()[0]
    trajectories, steps = con.sql(
        "SELECT count(DISTINCT (problem_id, language, user_id)), "
        "list(n ORDER BY n) FROM (SELECT problem_id, language, user_id, count(*) AS n "
        "FROM attempts WHERE member_pos IS NOT NULL GROUP BY ALL)"
    ).fetchall()[0]
    lengths: dict[str, int] = {}
    for n in steps or []:
        lengths[str(n)] = lengths.get(str(n), 0) + 1
    head = {k: base.pop(k) for k in ("codelog_version", "format_version")}
    return {
        **head,
        "kind": KIND,
        **base,
        "counts": {
            "rows_in": counts["rows_in"],
            "targets": counts["solutions"],
            "rejects": counts["rejects"],
            "rejects_by_reason": counts["rejects_by_reason"],
            "repairs": repairs,
            "perturbed": perturbed,
            "trajectories": trajectories,
            "trajectory_lengths": lengths,  # attempts per kept trajectory -> trajectories
            "problems": counts["groups"],
            "outcomes": counts["outcomes"],  # of the targets
            "statuses_in": counts["statuses_in"],
            "unknown_statuses": counts["unknown_statuses"],
        },
    }


_LICENCE = {"codenet": "Project CodeNet data is licensed CDLA-Permissive-2.0 (IBM).\n"}


def _split_data_files(manifest: dict[str, Any]) -> str:
    files = manifest["split"].get("files") or {}
    if not files:
        return " repairs.parquet"
    return "".join(f"\n  - split: {name}\n    path: {files[name]}" for name in ("train", "test"))


def repair_card(manifest: dict[str, Any]) -> str:
    counts, r = manifest["counts"], manifest["recipe"]["repairs"]
    reasons = "\n".join(f"| {k} | {n:,} |" for k, n in counts["rejects_by_reason"].items())
    outcomes = "\n".join(f"| {k} | {n:,} |" for k, n in counts["outcomes"].items())
    lengths = "\n".join(f"| {k} | {n:,} |" for k, n in counts["trajectory_lengths"].items())
    return f"""---
configs:
- config_name: repairs
  data_files:{_split_data_files(manifest)}
  default: true
- config_name: rejects
  data_files: rejects.parquet
- config_name: problems
  data_files: problems.parquet
tags:
- code
- offline-rl
- multi-turn
---
# {manifest["source"]}-{manifest["language"]} repairs (built by codelog {manifest["codelog_version"]})

Each user's successive {manifest["language"]} submissions to a problem, in date order, cut into
partial trajectories (COBALT-style contextual-bandit data): a row's `context` is the user's
earlier attempts with the judge's verdicts, its target the next attempt, with `reward`,
`reward_improve` and `outcome`. Recipe `{manifest["recipe"]["name"]}`, seed {manifest["seed"]};
horizon {r["horizon"]} ({r["long_trajectories"]}), at most
{r["max_trajectories_per_problem"] or "all"} trajectories per problem (max-variance down-sampling).

- `repairs`: {counts["repairs"]:,} rows ({counts["targets"]:,} targets, {counts["perturbed"]:,}
  perturbed copies) from {counts["trajectories"]:,} trajectories over {counts["problems"]:,} problems.
- `rejects`: {counts["rejects"]:,} rows not a target, each with its `reason` (a kept
  trajectory's first attempt is `first_attempt`: context only).
- `problems`: the problems with their plain-text `prompt`.

Split by problem, as the solutions kind splits them: {manifest["split"]["problems"]["train"]:,}
train and {manifest["split"]["problems"]["test"]:,} test problems,
{manifest["split"]["solutions"]["train"]:,} and {manifest["split"]["solutions"]["test"]:,} targets;
every attempt of a row shares its dialect.

Rows in: {counts["rows_in"]:,} = targets + rejects. Input fingerprint `{manifest["input_fingerprint"][:16]}…`.

| attempts per trajectory | trajectories |
| --- | --- |
{lengths or "| (none) | 0 |"}

| target outcome | rows |
| --- | --- |
{outcomes or "| (none) | 0 |"}

| reject reason | rows |
| --- | --- |
{reasons or "| (none) | 0 |"}

Query with `codelog sql path/to/this/dir "SELECT * FROM repairs"` (also the `trajectories`
view); export with `codelog export --format kto|verl`.
{_LICENCE.get(manifest["source"], "")}"""
