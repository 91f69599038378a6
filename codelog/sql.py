"""SQL helpers: paths and values that end up inside DuckDB statements, and the connection
codelog's own work runs on."""

from __future__ import annotations

import contextlib
from pathlib import Path

import duckdb


def connect() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB for codelog's own queries: no DuckDB progress bar (codelog draws
    its own progress; DuckDB's would redraw hundreds of lines into a piped log)."""
    con = duckdb.connect()
    # In Jupyter the bar is a widget, and unsetting it needs ipywidgets: harmless to leave.
    with contextlib.suppress(duckdb.InvalidInputException):
        con.execute("SET enable_progress_bar = false")
    return con


def literal(value: str | Path) -> str:
    """`value` as a SQL string literal, quotes doubled (file names may contain them)."""
    return "'" + str(value).replace("'", "''") + "'"
