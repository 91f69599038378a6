"""Opening a dataset: DuckDB views over its Parquet files, checked against its manifest."""

from __future__ import annotations

from pathlib import Path

import duckdb

from codelog.errors import DatasetError
from codelog.publish.manifest import MANIFEST, TABLES, read_manifest, tables_of
from codelog.sql import literal

__all__ = ["MANIFEST", "TABLES", "open_dataset", "read_manifest", "view_statements"]

# One row per group: the unit the trainer samples from and `codelog sql` users ask about first.
GROUPS_VIEW = """
CREATE OR REPLACE VIEW groups AS
SELECT
    problem_id,
    language,
    count(*) AS n_solutions,
    count(*) FILTER (WHERE is_correct) AS n_correct,
    count(*) FILTER (WHERE NOT is_correct) AS n_incorrect,
    avg(reward) AS reward_mean,
    coalesce(stddev_samp(reward), 0) AS reward_std,
    min(reward) AS reward_min,
    max(reward) AS reward_max,
    sum(dup_count)::BIGINT AS n_submissions,  -- sum() of BIGINT is HUGEINT: a decimal in Arrow
    histogram(outcome) AS outcome_mix
FROM solutions
GROUP BY problem_id, language
"""


# One row per trajectory of a repair dataset (a user's attempts at a problem).
TRAJECTORIES_VIEW = """
CREATE OR REPLACE VIEW trajectories AS
SELECT
    problem_id,
    language,
    user_id,
    max(step) + 1 AS attempts,
    count(*) FILTER (WHERE NOT perturbed) AS repair_rows,
    count(*) FILTER (WHERE perturbed) AS perturbed_rows,
    arg_max(outcome, step) AS final_outcome,
    bool_or(is_correct) AS solved,
    avg(reward) FILTER (WHERE NOT perturbed) AS reward_mean,
    max(reward_improve) AS reward_improve_max
FROM repairs
GROUP BY problem_id, language, user_id
"""


def view_statements(path: str | Path) -> list[str]:
    """The SQL defining the dataset's views (absolute paths): `solutions`, `rejects`,
    `problems` and `groups`; a repair dataset has `repairs` and `trajectories` instead of
    `solutions` and `groups`."""
    root = Path(path).resolve()
    tables = tables_of(read_manifest(root))
    statements = []
    for table in tables:
        file = root / f"{table}.parquet"
        if not file.exists():
            raise DatasetError(f"{root}: missing {file.name}")
        statements.append(
            f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM read_parquet({literal(file)})"
        )
    if "solutions" in tables:
        statements.append(GROUPS_VIEW.strip())
    if "repairs" in tables:
        statements.append(TRAJECTORIES_VIEW.strip())
    return statements


def open_dataset(
    path: str | Path, con: duckdb.DuckDBPyConnection | None = None
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the dataset's views (see `view_statements`)."""
    statements = view_statements(path)
    con = con or duckdb.connect()
    for statement in statements:
        con.execute(statement)
    return con
