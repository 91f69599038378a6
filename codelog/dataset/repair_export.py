"""`codelog export` of a repair dataset: one row per repair turn, its prompt the earlier attempts.

- `kto` (TRL KTOTrainer): prompt, completion (the target attempt's code), label = is_correct,
  with the row's ids, step, outcome, reward, reward_improve and perturbed.
- `verl` (verl's RL dataset format): prompt as chat messages; reward_model.ground_truth is a
  JSON string {"outcome", "reward", "reward_improve", "pass_rate", "is_correct"} (the judge's
  verdict on the logged target, as for solutions); extra_info carries the target's code as
  `response` and the context's submission ids.

`dpo` needs two completions of one prompt; logged repairs almost never share a context, so it
is refused rather than faked. Prompts come from codelog.prompts.render_repair_prompt (the
trainer's function too). Rows whose problem has no statement are left out and counted.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from codelog.errors import CodelogError
from codelog.prompts import render_repair_prompt
from codelog.recipe import Recipe

REPAIR_FORMATS = ("kto", "verl")
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


def export_repairs(
    root: Path, manifest: dict[str, Any], recipe: Recipe, fmt: str, out: Path
) -> tuple[int, int, int]:
    """Write the `fmt` view of the repair dataset at `root` to `out`; (rows, problems, skipped)."""
    if fmt not in REPAIR_FORMATS:
        raise CodelogError(
            f"{root}: a repair dataset exports as {' or '.join(REPAIR_FORMATS)}, not {fmt!r} "
            "(dpo needs two completions of the same prompt; logged repairs rarely share one)"
        )
    known = statements(root)
    source = f"codelog/{manifest['source']}-repair"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    rows = skipped = 0
    problems: set[str] = set()
    writer = None
    try:
        for batch in pq.ParquetFile(root / "repairs.parquet").iter_batches(
            BATCH_ROWS, columns=list(_COLUMNS)
        ):
            records = []
            for row in batch.to_pylist():
                statement = known.get(row["problem_id"])
                if statement is None:
                    skipped += 1
                    continue
                prompt = repair_prompt(recipe, statement, row)
                records.append(
                    _kto(row, prompt) if fmt == "kto" else _verl(row, prompt, source, rows)
                )
                problems.add(row["problem_id"])
                rows += 1
            if not records:
                continue
            table = pa.Table.from_pylist(records)
            if writer is None:
                writer = pq.ParquetWriter(tmp, table.schema, compression="zstd")
            writer.write_table(table.cast(writer.schema))
        if writer is None:
            raise CodelogError(f"{root}: no repair row has a problem statement: nothing to export")
        writer.close()
        writer = None
        os.replace(tmp, out)
    finally:
        if writer is not None:
            writer.close()
        tmp.unlink(missing_ok=True)
    return rows, len(problems), skipped


def _kto(row: dict[str, Any], prompt: str) -> dict[str, Any]:
    return {
        "prompt": prompt,
        "completion": row["code"],
        "label": row["is_correct"],
        **{k: row[k] for k in ("problem_id", "language", "user_id", "step", "submission_id")},
        **{k: row[k] for k in ("outcome", "reward", "reward_improve", "perturbed")},
    }


def _verl(row: dict[str, Any], prompt: str, source: str, index: int) -> dict[str, Any]:
    truth = {k: row[k] for k in ("outcome", "reward", "reward_improve", "pass_rate", "is_correct")}
    return {
        "data_source": source,
        "prompt": [{"role": "user", "content": prompt}],
        "ability": "code",
        "reward_model": {"style": "rule", "ground_truth": json.dumps(truth)},
        "extra_info": {
            "split": "train",
            "index": index,
            **{k: row[k] for k in ("problem_id", "language", "user_id", "step", "submission_id")},
            "context_ids": [a["submission_id"] for a in row["context"]],
            **{k: row[k] for k in ("outcome", "reward", "reward_improve", "perturbed")},
            "response": row["code"],
        },
    }
