"""`codelog export`: a dataset as the Parquet tables other trainers read.

- `dpo` (TRL DPOTrainer, standard format): prompt, chosen, rejected — a correct and an
  incorrect solution of the same group (problem and language). Per group at most
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
  (`problem_tests`, as `codelog export` does), the ground truth also carries them with the
  limits and the recipe's reward per verdict, and `codelog.execution.verl_reward.compute_score`
  runs a rollout's response against them in the sandbox.

Prompts are problems.prompt through the dataset's recipe template (codelog.prompting), the
same text `codelog train` conditions on. Solutions of a problem without a statement are left
out and counted. Every export carries problem_id and submission ids, so a row can be traced
back to `solutions`. Files appear only when complete (temporary file, then rename).
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

from codelog.dataset import open_dataset, read_manifest
from codelog.errors import CodelogError
from codelog.outcomes import CODENET_STATUSES
from codelog.prompting import render_prompt
from codelog.recipe import Recipe
from codelog.sql_text import literal

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
    problem_tests: Mapping[str, Mapping[str, Any]] | None = None,
) -> ExportReport:
    """Writes the `fmt` view of the dataset to the Parquet file `out`.

    verl: `problem_tests` maps problem_id -> what a reward function needs to run a response
    (tests, limits, ...; `codelog.execution.verl_reward.problem_spec` makes it); it is merged
    into each row's ground truth with `rewards`, the recipe's reward of every CodeNet verdict.
    The CLI passes it; without it the ground truth is the logged verdict alone."""
    if fmt not in EXPORT_FORMATS:
        raise CodelogError(f"unknown export format {fmt!r}; one of {', '.join(EXPORT_FORMATS)}")
    if max_pairs_per_group < 1:
        raise CodelogError("--max-pairs-per-problem must be at least 1")
    root = Path(dataset).resolve()
    manifest = read_manifest(root)
    recipe = Recipe.from_dict(manifest["recipe"], where=f"{root}/manifest.json recipe")
    out = Path(out).resolve()
    if out.is_dir():
        raise CodelogError(f"{out}: is a directory; --out names the Parquet file to write")

    con = open_dataset(root)
    try:
        skipped = _register_prompts(con, recipe.prompt.template)
        if fmt == "dpo":
            query = dpo_sql(max_pairs_per_group, seed)
        elif fmt == "kto":
            query = KTO_SQL
        else:
            _register_problem_tests(con, problem_tests or {}, recipe)
            query = verl_sql(f"codelog/{manifest['source']}")
        rows = _write_atomically(con.sql(query).to_arrow_reader(BATCH_ROWS), out)
        # Counted from the written file: cheaper than running the export query twice.
        where = "extra_info." if fmt == "verl" else ""
        groups = con.sql(
            f"SELECT count(DISTINCT ({where}problem_id, {where}language)) "
            f"FROM read_parquet({literal(out)})"
        ).fetchall()[0][0]
    finally:
        con.close()
    return ExportReport(out=out, format=fmt, rows=rows, groups=groups, skipped_no_statement=skipped)


def _register_prompts(con: duckdb.DuckDBPyConnection, template: str) -> int:
    """Registers table `prompts(problem_id, language, prompt)`, rendered in Python by the one
    render_prompt (one row per group: few, even on full CodeNet). Returns how many solutions
    have no statement to render."""
    groups = con.sql(
        """
        SELECT g.problem_id, g.language, p.prompt AS statement, g.n_solutions
        FROM (SELECT problem_id, language, count(*) AS n_solutions
              FROM solutions GROUP BY ALL) g
        LEFT JOIN problems p USING (problem_id)
        ORDER BY g.problem_id, g.language
        """
    ).fetchall()
    kept = [(pid, lang, statement) for pid, lang, statement, _ in groups if statement]
    skipped = sum(n for _, _, statement, n in groups if not statement)
    con.register(
        "prompts",
        pa.table(
            {
                "problem_id": pa.array([p for p, _, _ in kept], pa.string()),
                "language": pa.array([lang for _, lang, _ in kept], pa.string()),
                "prompt": pa.array(
                    [render_prompt(template, s, lang) for _, lang, s in kept], pa.string()
                ),
            }
        ),
    )
    return skipped


def dpo_sql(max_pairs_per_group: int, seed: int) -> str:
    """Pairs within a group; `side` numbers each side's solutions in a seeded order from 0."""
    cap, seed = int(max_pairs_per_group), int(seed)
    return f"""
    WITH side AS (
        SELECT s.problem_id, s.language, s.submission_id, s.code, s.outcome, s.reward,
               s.is_correct, p.prompt,
               row_number() OVER (
                   PARTITION BY s.problem_id, s.language, s.is_correct
                   ORDER BY md5('{seed}:' || s.submission_id), s.submission_id
               ) - 1 AS r
        FROM solutions s JOIN prompts p USING (problem_id, language)
    ),
    sizes AS (
        SELECT problem_id, language,
               count(*) FILTER (WHERE is_correct) AS n_correct,
               count(*) FILTER (WHERE NOT is_correct) AS n_incorrect
        FROM side GROUP BY problem_id, language
        HAVING n_correct > 0 AND n_incorrect > 0
    ),
    pair_index AS (
        SELECT problem_id, language, n_correct, n_incorrect,
               unnest(range(least({cap}, n_correct * n_incorrect))) AS k
        FROM sizes
    )
    SELECT c.prompt, c.code AS chosen, i.code AS rejected,
           k.problem_id, k.language,
           c.submission_id AS chosen_submission_id, i.submission_id AS rejected_submission_id,
           c.reward AS chosen_reward, i.reward AS rejected_reward,
           i.outcome AS rejected_outcome
    FROM pair_index k
    JOIN side c ON c.problem_id = k.problem_id AND c.language = k.language AND c.is_correct
         AND c.r = k.k % k.n_correct
    JOIN side i ON i.problem_id = k.problem_id AND i.language = k.language AND NOT i.is_correct
         AND i.r = (k.k % k.n_correct + k.k // k.n_correct) % k.n_incorrect
    ORDER BY k.problem_id, k.language, k.k
    """


KTO_SQL = """
    SELECT p.prompt, s.code AS completion, s.is_correct AS label,
           s.problem_id, s.language, s.submission_id, s.outcome, s.reward
    FROM solutions s JOIN prompts p USING (problem_id, language)
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
                 coalesce(t.spec, '{{}}'))::VARCHAR}} AS reward_model,
           {{'split': 'train',
             'index': (row_number() OVER (ORDER BY s.problem_id, s.language, s.submission_id)) - 1,
             'problem_id': s.problem_id, 'language': s.language,
             'submission_id': s.submission_id, 'outcome': s.outcome, 'reward': s.reward,
             'is_correct': s.is_correct, 'response': s.code}} AS extra_info
    FROM solutions s JOIN prompts p USING (problem_id, language)
    LEFT JOIN problem_tests t USING (problem_id)
    ORDER BY s.problem_id, s.language, s.submission_id
    """


def _write_atomically(reader: pa.RecordBatchReader, out: Path) -> int:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    rows = 0
    try:
        with pq.ParquetWriter(tmp, reader.schema, compression="zstd") as writer:
            for batch in reader:
                writer.write_batch(batch)
                rows += batch.num_rows
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return rows
