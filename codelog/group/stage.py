"""The grouping stage of a build: staged rows in, every row's fate out, in DuckDB tables.

Both kinds run here and publish/ only writes what they decided. After `group_solutions` or
`group_repairs`, the connection holds `staged` (a view of the staged parts), `splits`
(problem_id, split) and `fate`: one row per staged row, `reason` NULL for a kept one, with
`pos` (its place in the table it is published in) and `split`; `fate` is a view of a Parquet
file in the scratch directory, in seq order (`_fate_to_disk`). The repair kind also leaves
`attempts` and `plan` (codelog.group.repairs).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

import duckdb
import pyarrow as pa

from codelog.errors import EmptyResultError
from codelog.group.engine import run_steps
from codelog.group.grouping import classify_steps, placed_sql
from codelog.group.normalize import register_recipe_tables
from codelog.group.repairs import plan_sql, repairs_steps
from codelog.group.split import SplitResult, assign_splits, cluster_keys, force_test
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.sql import literal
from codelog.stage.lint import lint_solutions


def group_solutions(
    con: duckdb.DuckDBPyConnection, scan: SourceScan, options: BuildOptions, stage_dir: Path
) -> SplitResult:
    """The solutions kind: dedup, conflicts, caps, contrast, split, and (recipe [lint]) Ruff's
    findings as columns of `fate`. EmptyResultError, with the reasons, when nothing is kept."""
    recipe = options.recipe
    _stage_view(con, options, stage_dir)
    clusters = _problem_units(con, scan)
    steps = classify_steps("staged", recipe, options.seed, "problem_units")
    run_steps(con, steps)
    to_test = _decontaminate(con, scan, options)
    run_steps(con, [("placed", placed_sql("classified"))])
    split = _split_table(con, scan, options, "classified", to_test, clusters)
    # Not TEMP: the publisher's threads read it through cursors (connections of their own).
    con.execute(
        "CREATE TABLE fate AS SELECT c.*, CASE WHEN c.reason IS NULL THEN s.split END AS split "
        "FROM placed c LEFT JOIN splits s USING (problem_id)"
    )
    for name in [*(name for name, _ in steps), "placed"]:
        con.execute(f"DROP TABLE {name}")
    _refuse_empty(con, "groups")
    if recipe.lint.enabled:  # off by default: a default build never runs Ruff
        lint_solutions(con, recipe, stage_dir / "scratch", scan.language)
    _fate_to_disk(con, stage_dir / "scratch")
    return split


def group_repairs(
    con: duckdb.DuckDBPyConnection, scan: SourceScan, options: BuildOptions, stage_dir: Path
) -> SplitResult:
    """The repair kind: trajectories, their cut, rewards and down-sampling, the split, and
    `plan` (the repair rows to publish, in order)."""
    _stage_view(con, options, stage_dir)
    run_steps(con, repairs_steps("staged", options.recipe, options.seed))
    split = _split_table(con, scan, options, "attempts")
    con.execute(
        """CREATE TABLE fate AS SELECT a.*, CASE WHEN a.reason IS NOT NULL THEN row_number()
               OVER (PARTITION BY a.reason IS NULL
                     ORDER BY a.reason, a.problem_id, a.submission_id, a.seq) - 1 END AS pos,
               CASE WHEN a.reason IS NULL THEN s.split END AS split
           FROM attempts a LEFT JOIN splits s USING (problem_id)"""
    )
    _refuse_empty(con, "repair rows")
    con.execute(f"CREATE TABLE plan AS {plan_sql('attempts')}")
    _fate_to_disk(con, stage_dir / "scratch")
    return split


def identical_statements(scan: SourceScan) -> list[tuple[str, ...]]:
    """Problems of the scan whose statements are the same text once normalized
    (codelog.contamination.normalize): one problem under several ids, in one source or across
    sources."""
    from codelog.contamination.normalize import statement_key

    by_key: dict[str, list[str]] = {}
    for row in scan.problems.select(["problem_id", "prompt"]).to_pylist():
        if row["prompt"] and row["problem_id"]:
            by_key.setdefault(statement_key(row["prompt"]), []).append(row["problem_id"])
    return sorted(tuple(sorted(ids)) for ids in by_key.values() if len(ids) > 1)


def _problem_units(con: duckdb.DuckDBPyConnection, scan: SourceScan) -> list[tuple[str, ...]]:
    """Table `problem_units` (problem_id, unit): each problem of a cluster (CodeNet's identical
    problems, and identical statements) with its cluster's smallest id. Returns the clusters."""
    clusters = [*scan.problem_clusters, *identical_statements(scan)]
    keys = cluster_keys(clusters)
    con.register(
        "unit_rows",
        pa.table(
            {
                "problem_id": pa.array(list(keys), pa.string()),
                "unit": pa.array(list(keys.values()), pa.string()),
            }
        ),
    )
    con.execute("CREATE OR REPLACE TABLE problem_units AS SELECT * FROM unit_rows")
    con.unregister("unit_rows")
    return clusters


def _decontaminate(
    con: duckdb.DuckDBPyConnection, scan: SourceScan, options: BuildOptions
) -> set[str]:
    """The recipe's [decontaminate] step (codelog.group.decontaminate), before rows are placed:
    under action "drop" a contaminated problem's kept rows become rejects (`contaminated`,
    naming the benchmark and task of its best match); under "test" the problems to force into
    the test split are returned. Off (nothing happens, no table is made) with no benchmarks."""
    d = options.recipe.decontaminate
    if not d.benchmarks:
        return set()
    from codelog.group.decontaminate import find_contamination

    find_contamination(con, scan, d)
    con.execute(
        """CREATE OR REPLACE TABLE contaminated AS
           SELECT problem_id, arg_min(benchmark || ' ' || task_id || ' (' || level || ', score '
                  || round(score, 3) || ')', (-score, benchmark, task_id, level)) AS what
           FROM contamination_matches GROUP BY problem_id"""
    )
    if d.action == "drop":
        con.execute(
            """UPDATE classified SET reason = 'contaminated',
                   detail = 'benchmark problem: ' || c.what
               FROM contaminated c
               WHERE classified.problem_id = c.problem_id AND classified.reason IS NULL"""
        )
        return set()
    return {row[0] for row in con.sql("SELECT problem_id FROM contaminated").fetchall()}


def _fate_to_disk(con: duckdb.DuckDBPyConnection, scratch: Path) -> None:
    """Move `fate` out of memory into a Parquet file in `scratch`, in seq order, and leave a
    view of it in its place. The publisher streams the wide rows (their code) while it reads
    the fates: at a million rows `fate` is about 190 MiB that would otherwise sit in DuckDB's
    memory all the while."""
    path = literal(scratch / "fate.parquet")
    con.execute(f"COPY (SELECT * FROM fate ORDER BY seq) TO {path} (FORMAT parquet)")
    con.execute("DROP TABLE fate")
    con.execute(f"CREATE VIEW fate AS SELECT * FROM read_parquet({path})")


def _stage_view(con: duckdb.DuckDBPyConnection, options: BuildOptions, stage_dir: Path) -> None:
    register_recipe_tables(con, options.recipe)
    parts = stage_dir / "parts" / "*.parquet"
    con.execute(f"CREATE VIEW staged AS SELECT * FROM read_parquet({literal(parts)})")


def _split_table(
    con: duckdb.DuckDBPyConnection,
    scan: SourceScan,
    options: BuildOptions,
    table: str,
    to_test: Collection[str] = (),
    clusters: Sequence[Sequence[str]] | None = None,
) -> SplitResult:
    """Table `splits` (problem_id, split) for the problems `table` keeps a row of: the same
    rule, and so the same split, in every kind (codelog.group.split). `to_test`: problems
    the [decontaminate] step moves to the test split, whatever their hash says."""
    kept = [
        row[0]
        for row in con.sql(
            f"SELECT DISTINCT problem_id FROM {table} WHERE reason IS NULL ORDER BY 1"
        ).fetchall()
    ]
    spec = options.recipe.split
    if clusters is None:
        clusters = scan.problem_clusters
    result = assign_splits(kept, clusters, spec.test_fraction, spec.seed)
    if to_test:
        result = force_test(result, to_test, clusters)
    rows = pa.table(
        {
            "problem_id": pa.array(list(result.splits), pa.string()),
            "split": pa.array(list(result.splits.values()), pa.string()),
        }
    )
    con.register("split_rows", rows)
    con.execute("CREATE TABLE splits AS SELECT * FROM split_rows")
    con.unregister("split_rows")
    return result


# What to check first when everything went one way, by the reason most rows were rejected for.
_HINTS = {
    "missing_source": "is --root right?",
    "unreadable_source": "can this user read the sources?",
    "path_escape": "do the code paths lie inside --root?",
    "unknown_status": "the recipe's [statuses] names none of the statuses seen",
    "unscorable": "every verdict is a judge-side failure",
    "no_contrast": "no problem has both a correct and an incorrect solution "
    "(see the recipe's [grouping] min_correct / min_incorrect)",
    "too_large": "see the recipe's [limits] max_source_bytes",
}


def _refuse_empty(con: duckdb.DuckDBPyConnection, what: str) -> None:
    """Before anything is written (the previous dataset, if any, stays): EmptyResultError when
    `fate` kept no row, counted by reason, with a hint and one example row, e.g. "0 groups:
    1,600 rows rejected as missing_source — is --root right? (e.g. s1: no such file ...)"."""
    if con.sql("SELECT count(*) FROM fate WHERE reason IS NULL").fetchall()[0][0]:
        return
    reasons = con.sql("SELECT reason, count(*) FROM fate GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()
    parts = [f"{n:,} rows rejected as {reason}" for reason, n in reasons[:1]]
    parts += [f"{n:,} as {reason}" for reason, n in reasons[1:]]
    message = f"0 {what}: " + ", ".join(parts)
    top = reasons[0][0] if reasons else None
    if top in _HINTS:
        message += f" — {_HINTS[top]}"
    example = con.execute(
        "SELECT submission_id, detail FROM fate WHERE reason = ? AND detail IS NOT NULL "
        "ORDER BY seq LIMIT 1",
        [top],
    ).fetchall()
    if example:
        message += f" (e.g. {example[0][0]}: {example[0][1]})"
    raise EmptyResultError(message + "; nothing was published")
