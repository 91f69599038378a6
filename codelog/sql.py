"""SQL helpers: paths and values that end up inside DuckDB statements, and the connection
codelog's own work runs on."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb


def connect() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB for codelog's own queries: no DuckDB progress bar (codelog draws
    its own progress; DuckDB's would redraw hundreds of lines into a piped log)."""
    # Imported here, not at the top: the recipe reads `literal` through codelog.dialects, and
    # the trainer's GPU machine (bench/gpu.py) has no DuckDB.
    import duckdb

    con = duckdb.connect()
    # In Jupyter the bar is a widget, and unsetting it needs ipywidgets: harmless to leave.
    with contextlib.suppress(duckdb.InvalidInputException):
        con.execute("SET enable_progress_bar = false")
    return con


def literal(value: str | Path) -> str:
    """`value` as a SQL string literal, quotes doubled (file names may contain them)."""
    return "'" + str(value).replace("'", "''") + "'"
