"""Opening a dataset: DuckDB views over its Parquet files, checked against its manifest.

Every reader (sql, stats, export, train) opens through `check_dataset`: a cheap check that each
data file the manifest lists is there with its size and a readable Parquet footer with its row
count (a stat and a footer read per file: milliseconds, whatever the size). It catches a
truncated, extended, replaced or half-copied file; a byte flipped in place keeps the size and
needs the sha256 check (`full=True`, `--verify`, `codelog verify`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow.parquet as pq

from codelog import kinds
from codelog.errors import DatasetError
from codelog.files import sha256_file
from codelog.publish.manifest import CARD, MANIFEST, TABLES, read_manifest
from codelog.sql import connect, literal

if TYPE_CHECKING:  # DuckDB loads with the connection (codelog.sql.connect): the trainer needs none
    import duckdb

__all__ = [
    "MANIFEST",
    "TABLES",
    "check_dataset",
    "open_dataset",
    "read_manifest",
    "view_statements",
]

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


def check_dataset(path: str | Path, *, full: bool = False) -> dict[str, Any]:
    """The dataset's manifest, once its data files match it; DatasetError naming every file
    that does not. Cheap by default (sizes, Parquet footers, row counts); `full` also
    recomputes each file's sha256. The card (README.md) is documentation, not data: users and
    `datasets-cli` edit it, so it is not checked."""
    root = Path(path)
    manifest = read_manifest(root)
    problems = [
        p for name, entry in _data_files(manifest) if (p := _file_problem(root, name, entry, full))
    ]
    if problems:
        raise DatasetError(
            f"{root}: does not match its manifest: {'; '.join(problems)} "
            "(`codelog verify` reports everything; rebuild it with `codelog build`)"
        )
    return manifest


def _data_files(manifest: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    files = manifest.get("files") or {}
    return [(name, entry) for name, entry in files.items() if name != CARD]


def _file_problem(root: Path, name: str, entry: dict[str, Any], full: bool) -> str | None:
    file = root / name
    if not file.is_file():
        return f"{name} is missing"
    size = file.stat().st_size
    if size != entry.get("bytes"):
        return f"{name} has {size:,} bytes, the manifest says {entry.get('bytes')}"
    if name.endswith(".parquet"):
        try:
            rows = pq.read_metadata(file).num_rows
        except Exception as exc:  # pyarrow raises several types for a bad footer
            return f"{name} is not a readable Parquet file ({exc})"
        if rows != entry.get("rows"):
            return f"{name} has {rows:,} rows, the manifest says {entry.get('rows')}"
    if full and sha256_file(file) != entry.get("sha256"):
        return f"{name}: sha256 differs from the manifest's (changed after the build)"
    return None


def view_statements(path: str | Path, *, check: bool = True) -> list[str]:
    """The SQL defining the dataset's views (absolute paths): `solutions`, `rejects`,
    `problems` and `groups`; a repair dataset has `repairs` and `trajectories` instead of
    `solutions` and `groups`.

    `check`: the dataset's files are checked against its manifest first (`check_dataset`);
    only `codelog verify`, which reports mismatches itself, opens without."""
    root = Path(path).resolve()
    manifest = check_dataset(root) if check else read_manifest(root)
    kind = kinds.of_manifest(manifest)
    statements = []
    for table in kind.tables:
        file = root / f"{table}.parquet"
        if not file.exists():
            raise DatasetError(f"{root}: missing {file.name}")
        statements.append(
            f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM read_parquet({literal(file)})"
        )
    if kind.has("dataset.views"):  # its rows seen whole: solutions' groups, repairs' trajectories
        statements.append(kind.part("dataset.views").strip())
    return statements


def open_dataset(
    path: str | Path, con: duckdb.DuckDBPyConnection | None = None, *, check: bool = True
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the dataset's views (see `view_statements`); without `con`, a new
    one without DuckDB's progress bar (stats, export, verify and sql run on it, often piped)."""
    statements = view_statements(path, check=check)
    con = con or connect()
    for statement in statements:
        con.execute(statement)
    return con
