"""The DuckDB connection the grouping runs on, and its steps.

The grouping runs as a chain of tables, each one step (`run_steps`), rather than one query:
DuckDB spills a table, a join, an aggregate or a window to disk under its memory limit, but a
query holding all of them at once (and DISTINCT or ordered aggregates, which cannot spill) ran
out of memory at a million rows under a budget of 128 MB.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from codelog.errors import CodelogError
from codelog.sql import connect as sql_connect
from codelog.sql import literal


class GroupingMemoryError(CodelogError):
    """DuckDB ran out of its memory budget in the grouping stage."""


def connect(memory_bytes: int, scratch: Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB that spills to `scratch` beyond `memory_bytes`."""
    con = sql_connect()
    con.execute(f"SET memory_limit = '{int(memory_bytes) // (1 << 20)}MiB'")
    con.execute(f"SET temp_directory = {literal(scratch)}")
    # every query whose order matters says ORDER BY; the rest need not pay for keeping it
    con.execute("SET preserve_insertion_order = false")
    return con


def run_steps(con: duckdb.DuckDBPyConnection, steps: Sequence[tuple[str, str]]) -> None:
    """CREATE TABLE name AS query, for each step in order (a step reads the ones before it)."""
    for name, query in steps:
        con.execute(f"CREATE OR REPLACE TABLE {name} AS {query}")
