"""`codelog export` of a repair dataset: one row per repair turn, its prompt the earlier attempts.

One file per split, as for solutions (codelog.dataset.export.split_targets): the rows of a
split are those whose `split` column says so. A repair dataset built before repairs had a
`split` column exports only with split `all`, asked for by name.

- `kto` (TRL KTOTrainer): prompt, completion (the target attempt's code), label = is_correct,
  with the row's ids, step, outcome, reward, reward_improve and perturbed.
- `sft` (TRL SFTTrainer): the correct targets as prompt, completion (`chat`: each a list of
  messages, so that TRL still trains on the completion only).
- `verl` (verl's RL dataset format): prompt as chat messages; reward_model.ground_truth is a
  JSON string {"outcome", "reward", "reward_improve", "pass_rate", "is_correct"} (the judge's
  verdict on the logged target, as for solutions); extra_info carries the target's code as
  `response` and the context's submission ids.

`dpo` needs two completions of one prompt; logged repairs almost never share a context, so it
is refused rather than faked. Prompts come from codelog.prompts.render_repair_prompt (the
trainer's function too). With `chat`, kto and sft prompts are TRL's conversational format.
Rows whose problem has no statement are left out and counted. Rows come in the seeded shuffle of
the solutions' pointwise exports (codelog.dataset.export.spread_sql, `seed`), so neighbouring
rows are of different problems (TRL's KTOTrainer pairs neighbours for its KL term).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from codelog.dataset.export import (
    EXPORT_KEY,
    ExportJob,
    ExportReport,
    SplitExport,
    each_split,
    spread_sql,
)
from codelog.errors import CodelogError, EmptyResultError
from codelog.files import output_metadata
from codelog.prompts import render_repair_prompt
from codelog.recipe import Recipe
from codelog.sql import connect, literal

REPAIR_FORMATS = ("kto", "sft", "verl")
BATCH_ROWS = 1024
_COLUMNS = (
    "problem_id",
    "language",
    "user_id",
    "step",
    "context",
    "submission_id",
    "outcome",
    "pass_rate",
    "is_correct",
    "reward",
    "reward_improve",
    "perturbed",
    "code",
)


def statements(root: Path) -> dict[str, str]:
    """problem_id -> plain-text statement, for the problems that have one."""
    table = pq.read_table(root / "problems.parquet", columns=["problem_id", "prompt"])
    ids, texts = table["problem_id"].to_pylist(), table["prompt"].to_pylist()
    return {p: s for p, s in zip(ids, texts, strict=True) if s}


def repair_prompt(recipe: Recipe, statement: str, row: dict[str, Any]) -> str:
    """The prompt of one repairs row (a dict with language and context)."""
    return render_repair_prompt(
        recipe.prompt.template,
        statement,
        row["language"],
        row["context"],
        recipe.repairs.instruction,
    )


def export_repair_splits(job: ExportJob) -> ExportReport:
    """The repair kind's exports (kto, sft, verl): a file per split of the job."""

    def write(name: str, target: Path) -> SplitExport:
        meta = {EXPORT_KEY: json.dumps({"format": job.fmt, "split": name}).encode()}
        counts = export_repairs(
            job.root, job.manifest, job.recipe, job.fmt, name, target, job.chat, meta, job.seed
        )
        return SplitExport(name, target, *counts)

    return each_split(job, write)


def export_repairs(
    root: Path,
    manifest: dict[str, Any],
    recipe: Recipe,
    fmt: str,
    split: str,
    out: Path,
    chat: bool = False,
    metadata: dict[bytes, bytes] | None = None,
    seed: int = 0,
) -> tuple[int, int, int, int]:
    """Write the `fmt` view of the repair dataset at `root`'s `split` to `out` (its Parquet
    metadata with `metadata`), its rows in `seed`'s shuffle (codelog.dataset.export.spread_sql);
    (rows, groups, problems, skipped)."""

    if fmt not in REPAIR_FORMATS:
        raise CodelogError(
            f"{root}: a repair dataset exports as {', '.join(REPAIR_FORMATS)}, not {fmt!r} "
            "(dpo needs two completions of the same prompt; logged repairs rarely share one)"
        )
    if chat and fmt == "verl":
        raise CodelogError("--chat is not for verl: verl's prompt is always chat messages")
    file = pq.ParquetFile(root / "repairs.parquet")
    has_split = "split" in file.schema_arrow.names
    if not has_split and split != "all":
        raise CodelogError(
            f"{root}: this repair dataset has no split column (built before repairs were "
            "split by problem): export it with --split all, or rebuild it"
        )
    known = statements(root)
    source = f"codelog/{manifest['source']}-repair"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    rows = skipped = 0
    problems: set[str] = set()
    groups: set[tuple[str, str]] = set()
    writer = None
    columns = [*_COLUMNS, *(["split"] if has_split else [])]
    metadata = {**output_metadata(), **(metadata or {})}
    try:
        for batch in _shuffled(root / "repairs.parquet", columns, split, fmt, seed):
            records = []
            for row in batch.to_pylist():
                row.setdefault("split", None)
                if split != "all" and row["split"] != split:
                    continue
                if fmt == "sft" and not row["is_correct"]:
                    continue
                statement = known.get(row["problem_id"])
                if statement is None:
                    skipped += 1
                    continue
                prompt = repair_prompt(recipe, statement, row)
                if fmt == "kto":
                    records.append(_kto(row, prompt, chat))
                elif fmt == "sft":
                    records.append(_sft(row, prompt, chat))
                else:
                    records.append(_verl(row, prompt, source, rows))
                problems.add(row["problem_id"])
                groups.add((row["problem_id"], row["language"]))
                rows += 1
            if not records:
                continue
            table = pa.Table.from_pylist(records)
            if writer is None:
                schema = table.schema.with_metadata(metadata)
                writer = pq.ParquetWriter(tmp, schema, compression="zstd")
            writer.write_table(table.cast(writer.schema))
        if writer is None:
            which = "" if split == "all" else f" of split {split}"
            raise EmptyResultError(
                f"{root}: no {fmt} repair row{which} to export"
                + (f" ({skipped:,} left out: their problem has no statement)" if skipped else "")
                + f"; {out} was not written"
            )
        writer.close()
        writer = None
        os.replace(tmp, out)
    finally:
        if writer is not None:
            writer.close()
        tmp.unlink(missing_ok=True)
    return rows, len(groups), len(problems), skipped


def _shuffled(
    path: Path, columns: list[str], split: str, fmt: str, seed: int
) -> Iterator[pa.RecordBatch]:
    """The rows of `split` (sft: the correct ones) in `seed`'s shuffle, which spreads each
    problem over the file as the solutions' exports do; DuckDB sorts them, spilling to disk
    past its memory limit, so a large repair dataset streams through."""
    where = [] if split == "all" else [f"split = {literal(split)}"]
    if fmt == "sft":
        where.append("is_correct")
    rows = (
        f"SELECT {', '.join(columns)}, concat_ws(':', user_id, step, submission_id, perturbed) "
        f"AS _key FROM read_parquet({literal(path)})"
        + (f" WHERE {' AND '.join(where)}" if where else "")
    )
    con = connect()  # codelog's connection: no DuckDB progress bar in a piped log
    try:
        query = f"SELECT * EXCLUDE (_key, _order) FROM ({spread_sql(rows, seed)}) ORDER BY _order"
        yield from con.sql(query).to_arrow_reader(BATCH_ROWS)
    finally:
        con.close()


def _chat(role: str, content: str) -> list[dict[str, str]]:
    return [{"role": role, "content": content}]


_IDS = ("problem_id", "language", "split", "user_id", "step", "submission_id")


def _kto(row: dict[str, Any], prompt: str, chat: bool) -> dict[str, Any]:
    return {
        "prompt": _chat("user", prompt) if chat else prompt,
        "completion": _chat("assistant", row["code"]) if chat else row["code"],
        "label": row["is_correct"],
        **{k: row[k] for k in _IDS},
        **{k: row[k] for k in ("outcome", "reward", "reward_improve", "perturbed")},
    }


def _sft(row: dict[str, Any], prompt: str, chat: bool) -> dict[str, Any]:
    # prompt and completion, as messages with `chat`: TRL trains on the completion only
    return {
        "prompt": _chat("user", prompt) if chat else prompt,
        "completion": _chat("assistant", row["code"]) if chat else row["code"],
        **{k: row[k] for k in _IDS},
        "reward": row["reward"],
    }


def _verl(row: dict[str, Any], prompt: str, source: str, index: int) -> dict[str, Any]:
    truth = {k: row[k] for k in ("outcome", "reward", "reward_improve", "pass_rate", "is_correct")}
    return {
        "data_source": source,
        "prompt": [{"role": "user", "content": prompt}],
        "ability": "code",
        "reward_model": {"style": "rule", "ground_truth": json.dumps(truth)},
        "extra_info": {
            "split": row["split"],
            "index": index,
            **{k: row[k] for k in ("problem_id", "language", "user_id", "step", "submission_id")},
            "context_ids": [a["submission_id"] for a in row["context"]],
            **{k: row[k] for k in ("outcome", "reward", "reward_improve", "perturbed")},
            "response": row["code"],
        },
    }
