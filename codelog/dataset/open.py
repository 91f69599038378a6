"""Opening a dataset: DuckDB views over its Parquet files, checked against its manifest."""

from __future__ import annotations

from pathlib import Path

import duckdb

from codelog.errors import DatasetError
from codelog.publish.manifest import MANIFEST, TABLES, read_manifest
from codelog.sql import literal

__all__ = ["MANIFEST", "TABLES", "open_dataset", "read_manifest", "view_statements"]

# One row per group: the unit the trainer samples from and `codelog sql` users ask about first.
GROUPS_VIEW = """
CREATE OR REPLACE VIEW groups AS
SELECT
    problem_id,
    language,
    dialect,  -- a group is one dialect of a language (codelog.dialects)
    any_value(split) AS split,  -- one per problem
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
GROUP BY problem_id, language, dialect
"""


def view_statements(path: str | Path) -> list[str]:
    """The SQL defining views `solutions`, `rejects`, `problems` and `groups` (absolute paths)."""
    root = Path(path).resolve()
    read_manifest(root)
    statements = []
    for table in TABLES:
        file = root / f"{table}.parquet"
        if not file.exists():
            raise DatasetError(f"{root}: missing {file.name}")
        statements.append(
            f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM read_parquet({literal(file)})"
        )
    statements.append(GROUPS_VIEW.strip())
    return statements


def open_dataset(
    path: str | Path, con: duckdb.DuckDBPyConnection | None = None
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with views `solutions`, `rejects`, `problems` and `groups`."""
    statements = view_statements(path)
    con = con or duckdb.connect()
    for statement in statements:
        con.execute(statement)
    return con
