"""SQL text helpers: paths and values that end up inside DuckDB statements."""

from __future__ import annotations

from pathlib import Path


def literal(value: str | Path) -> str:
    """`value` as a SQL string literal, quotes doubled (file names may contain them)."""
    return "'" + str(value).replace("'", "''") + "'"
