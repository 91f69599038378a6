"""`codelog export`: a dataset as the Parquet tables other trainers read.

- `dpo` (TRL DPOTrainer, standard format): prompt, chosen, rejected — a correct and an
  incorrect solution of the same group (problem, language and dialect). Per group at most
  `max_pairs_per_group` pairs, chosen by seed: each side is put in a seeded order and pair k
  takes correct[k mod C] with incorrect[(k mod C + k div C) mod I], which walks the C x I pairs
  without repeating one and uses every correct solution before any is used twice.
- `kto` (TRL KTOTrainer, unpaired): prompt, completion, label — one row per solution,
  label = is_correct.
- `verl` (verl's RL dataset format): one row per solution with data_source, prompt as chat
  messages, ability = "code", reward_model and extra_info. Logged data has no tests to run, so
  the "ground truth" a rule can score against is the judge's verdict on the logged response:
  reward_model.ground_truth is a JSON string {"outcome", "reward", "is_correct"} and
  extra_info carries the response itself (the solution's code) with its ids, outcome and reward.
  A custom verl reward function for offline data reads both. Given each problem's tests
  (`problem_tests`, as `codelog export --tests` does), the ground truth also carries them with
  the limits and the recipe's reward per verdict, and
  `codelog.execution.verl_reward.compute_score` runs a rollout's response against them in the
  sandbox.

Prompts are problems.prompt through the dataset's recipe template (codelog.prompts), the
same text `codelog train` conditions on, naming the group's dialect ("Python 3"). TRL joins a
plain-string prompt and its completion as they are, so dpo and kto prompts end with the
separator codelog's trainer puts between them (`codelog.prompts.SEPARATOR`, a newline): the
tokens TRL trains on are the tokens codelog's trainer trains on. With `chat`, dpo and kto are
TRL's conversational format instead (a user message, an assistant message; the tokenizer's chat
template then decides what joins them), for instruct models. Solutions of a problem without a
statement are left out and counted. Every export carries problem_id, dialect, split and
submission ids, so a row can be traced back to `solutions` and a trainer can hold out the test
problems. Files appear only when complete (temporary file, then rename).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from codelog.dataset.open import open_dataset, read_manifest
from codelog.errors import CodelogError, EmptyResultError
from codelog.files import check_output_file, output_metadata
from codelog.outcomes import CODENET_STATUSES
from codelog.prompts import SEPARATOR, render_prompt
from codelog.publish.manifest import dataset_kind
from codelog.recipe import Recipe
from codelog.sql import literal

ExportFormat = Literal["dpo", "kto", "verl"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("dpo", "kto", "verl")
DEFAULT_MAX_PAIRS = 32
BATCH_ROWS = 8192


@dataclass(frozen=True)
class ExportReport:
    out: Path
    format: str
    rows: int
    groups: int  # groups with at least one exported row
    skipped_no_statement: int  # solutions left out: their problem has no statement


def export_dataset(
    dataset: str | Path,
    fmt: ExportFormat,
    out: str | Path,
    *,
    max_pairs_per_group: int = DEFAULT_MAX_PAIRS,
    seed: int = 0,
    force: bool = False,
    chat: bool = False,
    problem_tests: Mapping[str, Mapping[str, Any]] | None = None,
) -> ExportReport:
    """Writes the `fmt` view of the dataset to the Parquet file `out` (`chat`: dpo and kto
    as TRL's conversational format).

    verl: `problem_tests` maps problem_id -> what a reward function needs to run a response
    (tests, limits, ...; `codelog.execution.verl_reward.problem_spec` makes it); it is merged
    into each row's ground truth with `rewards`, the recipe's reward of every CodeNet verdict.
    Without it the ground truth is the logged verdict alone.

    `out` may not lie inside the dataset; an existing `out` is replaced only when codelog
    wrote it, or with `force` (codelog.files.check_output_file). Writing 0 rows is an
    EmptyResultError saying why, and leaves `out` as it was."""
    if fmt not in EXPORT_FORMATS:
        raise CodelogError(f"unknown export format {fmt!r}; one of {', '.join(EXPORT_FORMATS)}")
    if chat and fmt == "verl":
        raise CodelogError("--chat is for dpo and kto: verl's prompt is always chat messages")
    if max_pairs_per_group < 1:
        raise CodelogError("--max-pairs-per-problem must be at least 1")
    root = Path(dataset).resolve()
    manifest = read_manifest(root)
    recipe = Recipe.from_dict(manifest["recipe"], where=f"{root}/manifest.json recipe")
    out = Path(out).resolve()
    check_output_file(out, force=force, inputs=[root])
    if out.is_dir():
        raise CodelogError(f"{out}: is a directory; --out names the Parquet file to write")
    if dataset_kind(manifest) == "repair":
        from codelog.dataset.repair_export import export_repairs

        rows, problems, skipped = export_repairs(root, manifest, recipe, fmt, out)
        return ExportReport(out, fmt, rows, problems, skipped)

    con = open_dataset(root)
    try:
        # plain strings end with the trainer's separator; chat messages leave it to the template
        skipped = _register_prompts(
            con, recipe.prompt.template, "" if chat or fmt == "verl" else SEPARATOR
        )
        if fmt == "dpo":
            query = dpo_sql(max_pairs_per_group, seed, chat)
        elif fmt == "kto":
            query = kto_sql(chat)
        else:
            _register_problem_tests(con, problem_tests or {}, recipe)
            query = verl_sql(f"codelog/{manifest.get('source', 'unknown')}")
        try:
            rows = _write_atomically(con.sql(query).to_arrow_reader(BATCH_ROWS), out)
        except EmptyResultError:
            raise EmptyResultError(_why_empty(con, fmt, out, skipped)) from None
        # Counted from the written file: cheaper than running the export query twice.
        where = "extra_info." if fmt == "verl" else ""
        groups = con.sql(
            f"SELECT count(DISTINCT ({where}problem_id, {where}language, {where}dialect)) "
            f"FROM read_parquet({literal(out)})"
        ).fetchall()[0][0]
    finally:
        con.close()
    return ExportReport(out=out, format=fmt, rows=rows, groups=groups, skipped_no_statement=skipped)


def _why_empty(con: duckdb.DuckDBPyConnection, fmt: str, out: Path, skipped: int) -> str:
    solutions, groups = con.sql(
        "SELECT count(*), count(DISTINCT (problem_id, language)) FROM solutions"
    ).fetchall()[0]
    why = [f"{solutions:,} solutions in {groups:,} groups"]
    if skipped:
        why.append(f"{skipped:,} left out because their problem has no statement")
    if fmt == "dpo":
        why.append("dpo needs a group with a correct and an incorrect solution")
    return f"0 {fmt} rows to write ({'; '.join(why)}); {out} was not written"


def _register_prompts(con: duckdb.DuckDBPyConnection, template: str, separator: str) -> int:
    """Registers table `prompts(problem_id, language, dialect, prompt)`, rendered in Python by
    the one render_prompt (one row per group: few, even on full CodeNet) and ended with
    `separator`. Returns how many solutions have no statement to render."""
    groups = con.sql(
        """
        SELECT g.problem_id, g.language, g.dialect, p.prompt AS statement, g.n_solutions
        FROM (SELECT problem_id, language, dialect, count(*) AS n_solutions
              FROM solutions GROUP BY ALL) g
        LEFT JOIN problems p USING (problem_id)
        ORDER BY g.problem_id, g.language, g.dialect
        """
    ).fetchall()
    kept = [g for g in groups if g[3]]
    skipped = sum(g[4] for g in groups if not g[3])
    con.register(
        "prompts",
        pa.table(
            {
                "problem_id": pa.array([g[0] for g in kept], pa.string()),
                "language": pa.array([g[1] for g in kept], pa.string()),
                "dialect": pa.array([g[2] for g in kept], pa.string()),
                "prompt": pa.array(
                    [render_prompt(template, s, lang, d) + separator for _, lang, d, s, _ in kept],
                    pa.string(),
                ),
            }
        ),
    )
    return skipped


# A solution's prompt: its group's (dialect NULL for languages without dialects).
_JOIN_PROMPTS = """JOIN prompts p ON p.problem_id = s.problem_id AND p.language = s.language
        AND p.dialect IS NOT DISTINCT FROM s.dialect"""


def _message(role: str, content: str) -> str:
    return f"[{{'role': '{role}', 'content': {content}}}]"


def dpo_sql(max_pairs_per_group: int, seed: int, chat: bool = False) -> str:
    """Pairs within a group; `side` numbers each side's solutions in a seeded order from 0."""
    cap, seed = int(max_pairs_per_group), int(seed)
    if chat:
        texts = (
            f"{_message('user', 'c.prompt')} AS prompt, {_message('assistant', 'c.code')} AS "
            f"chosen, {_message('assistant', 'i.code')} AS rejected"
        )
    else:
        texts = "c.prompt, c.code AS chosen, i.code AS rejected"
    # a group is (problem_id, language, dialect): `g` numbers them, so no join meets a NULL
    return f"""
    WITH side AS (
        SELECT s.problem_id, s.language, s.dialect, s.split, s.submission_id, s.code,
               s.outcome, s.reward, s.is_correct, p.prompt,
               dense_rank() OVER (ORDER BY s.problem_id, s.language, s.dialect) AS g,
               row_number() OVER (
                   PARTITION BY s.problem_id, s.language, s.dialect, s.is_correct
                   ORDER BY md5('{seed}:' || s.submission_id), s.submission_id
               ) - 1 AS r
        FROM solutions s {_JOIN_PROMPTS}
    ),
    sizes AS (
        SELECT g, any_value(problem_id) AS problem_id, any_value(language) AS language,
               any_value(dialect) AS dialect, any_value(split) AS split,
               count(*) FILTER (WHERE is_correct) AS n_correct,
               count(*) FILTER (WHERE NOT is_correct) AS n_incorrect
        FROM side GROUP BY g
        HAVING n_correct > 0 AND n_incorrect > 0
    ),
    pair_index AS (
        SELECT g, problem_id, language, dialect, split, n_correct, n_incorrect,
               unnest(range(least({cap}, n_correct * n_incorrect))) AS k
        FROM sizes
    )
    SELECT {texts},
           k.problem_id, k.language, k.dialect, k.split,
           c.submission_id AS chosen_submission_id, i.submission_id AS rejected_submission_id,
           c.reward AS chosen_reward, i.reward AS rejected_reward,
           i.outcome AS rejected_outcome
    FROM pair_index k
    JOIN side c ON c.g = k.g AND c.is_correct AND c.r = k.k % k.n_correct
    JOIN side i ON i.g = k.g AND NOT i.is_correct
         AND i.r = (k.k % k.n_correct + k.k // k.n_correct) % k.n_incorrect
    ORDER BY k.problem_id, k.language, k.dialect NULLS FIRST, k.k
    """


def kto_sql(chat: bool = False) -> str:
    if chat:
        texts = f"{_message('user', 'p.prompt')} AS prompt, {_message('assistant', 's.code')} AS completion"
    else:
        texts = "p.prompt, s.code AS completion"
    return f"""
    SELECT {texts}, s.is_correct AS label,
           s.problem_id, s.language, s.dialect, s.split, s.submission_id, s.outcome, s.reward
    FROM solutions s {_JOIN_PROMPTS}
    ORDER BY s.problem_id, s.language, s.submission_id
    """


def _register_problem_tests(
    con: duckdb.DuckDBPyConnection, problem_tests: Mapping[str, Mapping[str, Any]], recipe: Recipe
) -> None:
    """Table `problem_tests(problem_id, spec)`: each problem's tests (and the verdict rewards)
    as one JSON object, merged into the verl ground truth."""
    rewards = {
        status: recipe.rewards[outcome]
        for status in CODENET_STATUSES
        if (outcome := recipe.statuses.get(status)) in recipe.rewards
    }
    ids = sorted(problem_tests)
    specs = [json.dumps({**problem_tests[p], "rewards": rewards}, sort_keys=True) for p in ids]
    con.register(
        "problem_tests",
        pa.table({"problem_id": pa.array(ids, pa.string()), "spec": pa.array(specs, pa.string())}),
    )


def verl_sql(data_source: str) -> str:
    source = data_source.replace("'", "''")
    return f"""
    SELECT '{source}' AS data_source,
           [{{'role': 'user', 'content': p.prompt}}] AS prompt,
           'code' AS ability,
           {{'style': 'rule',
             'ground_truth': json_merge_patch(
                 to_json({{'outcome': s.outcome, 'reward': s.reward,
                          'is_correct': s.is_correct}}),
                 coalesce(pt.spec, '{{}}'))::VARCHAR}} AS reward_model,
           {{'split': s.split,
             'index': (row_number() OVER (ORDER BY s.problem_id, s.language, s.submission_id)) - 1,
             'problem_id': s.problem_id, 'language': s.language, 'dialect': s.dialect,
             'submission_id': s.submission_id, 'outcome': s.outcome, 'reward': s.reward,
             'is_correct': s.is_correct, 'response': s.code}} AS extra_info
    FROM solutions s {_JOIN_PROMPTS}
    LEFT JOIN problem_tests pt ON pt.problem_id = s.problem_id
    ORDER BY s.problem_id, s.language, s.submission_id
    """


def _write_atomically(reader: pa.RecordBatchReader, out: Path) -> int:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    rows = 0
    marked = reader.schema.with_metadata({**(reader.schema.metadata or {}), **output_metadata()})
    try:
        with pq.ParquetWriter(tmp, marked, compression="zstd") as writer:
            for batch in reader:
                writer.write_batch(batch)
                rows += batch.num_rows
        if rows == 0:
            raise EmptyResultError(f"0 rows to write to {out}")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return rows
