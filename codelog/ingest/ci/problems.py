"""The --problems file of a CI export: problem statements (HTML or text) to plain-text prompts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pyarrow as pa

from codelog import schema
from codelog.ci_format import PROBLEM_FIELDS
from codelog.errors import InputError
from codelog.ingest.ci.formats import duckdb_message, file_label
from codelog.ingest.ci.validate import open_table, row_error
from codelog.prompts import html_to_text

_HTML_HINT = re.compile(r"</[A-Za-z][A-Za-z0-9]*\s*>|<(?:br|hr|p|img)\b[^<>]*>", re.IGNORECASE)


def description_to_prompt(description: str | None) -> str | None:
    """A problem description as a plain-text prompt; HTML (a closing tag, <br>, <p>) is stripped."""
    if description is None or not description.strip():
        return None
    if _HTML_HINT.search(description):
        return html_to_text(description)
    return description.strip() + "\n"


def read_problems(
    con: duckdb.DuckDBPyConnection, path: Path, root: Path | None, wanted: Sequence[str]
) -> pa.Table:
    """The problems file as codelog.schema.PROBLEM rows for `wanted` (missing ones: no prompt).

    Problems are few and curated, so any bad row is an InputError whatever `on_error` says.
    """
    if not path.is_file():
        raise InputError(path, "no such file")
    label = file_label(path, root)
    table = open_table(con, 0, path, label, PROBLEM_FIELDS, ("problem_id",), submissions=False)
    try:
        rows = con.execute(
            f"""
            SELECT row_no, bad_column, bad_raw, * EXCLUDE (file_no, row_no, bad_column, bad_raw)
            FROM ({table.sql}) ORDER BY row_no
            """
        ).fetchall()
    except duckdb.Error as exc:
        raise InputError(label, f"cannot read: {duckdb_message(exc)}") from None
    names = list(PROBLEM_FIELDS)
    found: dict[str, dict] = {}
    first_row: dict[str, int] = {}
    for row_no, bad_column, bad_raw, *values in rows:
        record = dict(zip(names, values, strict=True))
        problem: tuple[str, str] | None = None  # (message, column)
        if bad_column is not None:
            kind = "an integer" if PROBLEM_FIELDS[bad_column] == "integer" else "a string"
            problem = (f"not {kind}: {bad_raw}", bad_column)
        elif record["problem_id"] is None:
            problem = ("required column is empty", "problem_id")
        elif record["problem_id"] in found:
            first = first_row[record["problem_id"]]
            problem = (
                f"problem {record['problem_id']!r} again (first at row {first})",
                "problem_id",
            )
        if problem is not None:
            raise row_error(label, table.fmt, path, "row", row_no, *problem)
        found[record["problem_id"]] = record
        first_row[record["problem_id"]] = row_no
    out: dict[str, list] = {name: [] for name in schema.PROBLEM.names}
    for pid in wanted:
        rec = found.get(pid, {})
        out["problem_id"].append(pid)
        for name in schema.PROBLEM.names:
            if name not in ("problem_id", "prompt"):  # the id is the key; prompt is derived
                out[name].append(rec.get(name))
        out["prompt"].append(description_to_prompt(rec.get("description")))
    return pa.Table.from_pydict(out, schema=schema.PROBLEM)


def bare_problems(wanted: Sequence[str]) -> pa.Table:
    out: dict[str, list] = {name: [None] * len(wanted) for name in schema.PROBLEM.names}
    out["problem_id"] = list(wanted)
    return pa.Table.from_pydict(out, schema=schema.PROBLEM)
