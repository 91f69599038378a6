"""CI runs, test logs and judge exports: rows already in the submission schema.

An export is one or many CSV, JSON Lines or Parquet files (globs allowed) whose rows follow
`codelog/schemas/submission.schema.json`: CodeNet's metadata columns plus the code, inline
(`code`) or as a path relative to the export root (`code_path`). `--source junit` reads JUnit
XML reports instead and turns each test case into such a row (codelog.sources.junit).

Checks come in two kinds, as in the CodeNet source:
- file level (unreadable file, missing required or unknown column, a Parquet column of the
  wrong type): always an InputError naming the file and column;
- row level (a value of the wrong type, an empty required value, no code or both kinds of
  code, a code_path leaving the export root, a duplicate submission_id): with
  `[limits] on_error = "fail"` the first one in input order stops the build before any work,
  naming file, line (row for Parquet) and column; with "reject" the row flows on with
  `reject_reason` set so the manifest still accounts for it. Duplicates are then left to the
  grouping SQL (`duplicate_submission_id`, the first in input order is kept), and a symlink out
  of the root is caught by staging's realpath check (`path_escape`).

DuckDB reads every file (one scan per file, so `WITH ORDINALITY` numbers its rows) and the
row checks are SQL over a typed view of it.
"""

from __future__ import annotations

import csv
import glob
import gzip
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa

from codelog import schema
from codelog.errors import InputError
from codelog.prompts import html_to_text
from codelog.sources import SourceScan
from codelog.sql_text import literal

if TYPE_CHECKING:
    from codelog.build import BuildOptions
    from codelog.recipe import Recipe

# The input schema: CodeNet's metadata columns, then the code. Types follow codelog.schema.
SUBMISSION_FIELDS: dict[str, str] = {
    name: "integer" if schema.SUBMISSION.field(name).type == pa.int64() else "string"
    for name in (*schema.CODENET_COLUMNS, "code", "code_path")
}
REQUIRED = ("submission_id", "problem_id", "status", "language")
PROBLEM_FIELDS: dict[str, str] = {
    "problem_id": "string",
    "name": "string",
    "description": "string",  # HTML or plain text; becomes the plain-text `prompt`
    "time_limit": "integer",  # ms
    "memory_limit": "integer",  # KB
    "dataset": "string",
    "rating": "string",
    "tags": "string",
    "complexity": "string",
}

FORMATS = {
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".parquet": "parquet",
    ".pq": "parquet",
}

_INTEGER_TYPES = {
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "UHUGEINT",
}
_NULL_TYPE = '"NULL"'  # DuckDB's name for an Arrow/Parquet column of type null

# A code_path that is absolute or has a `..` component could name a file outside the export.
_ESCAPE_SQL = r"(starts_with(code_path, '/') OR regexp_matches(code_path, '(^|/)\.\.(/|$)'))"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# -- inputs -----------------------------------------------------------------------------------


def expand_inputs(patterns: Sequence[str | Path]) -> list[Path]:
    """Files named by paths or globs, in the order given (each file once)."""
    files: list[Path] = []
    seen: set[Path] = set()
    for pattern in patterns:
        text = str(pattern)
        if glob.has_magic(text):
            matches = sorted(glob.glob(text, recursive=True))
            if not matches:
                raise InputError(text, "no file matches this pattern")
            found = [Path(m) for m in matches if Path(m).is_file()]
        else:
            path = Path(text)
            if not path.exists():
                raise InputError(text, "no such file")
            if not path.is_file():
                raise InputError(text, "not a file")
            found = [path]
        for path in found:
            if path.resolve() not in seen:  # the same file twice would duplicate every row
                seen.add(path.resolve())
                files.append(path)
    if not files:
        raise InputError(", ".join(map(str, patterns)) or "--input", "no input files")
    return files


def input_format(path: Path, label: str | None = None) -> str:
    """csv, jsonl, json or parquet, from the file name (a `.gz` suffix is looked through)."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
        if suffixes and FORMATS.get(suffixes[-1]) == "parquet":
            suffixes = []  # Parquet compresses inside the file
    fmt = FORMATS.get(suffixes[-1]) if suffixes else None
    if fmt is None:
        raise InputError(
            label or path,
            "unknown format: name the file .csv, .jsonl (or .ndjson, .json) or .parquet",
        )
    return fmt


def _label(path: Path, root: Path | None) -> str:
    """How messages and `origin` name a file: relative to the export root when inside it."""
    resolved = path.resolve()
    if root is not None and resolved.is_relative_to(root):
        return str(resolved.relative_to(root))
    return str(path)


@dataclass(frozen=True)
class _Table:
    """One input file, checked at the file level, readable as typed rows."""

    path: Path
    label: str
    fmt: str  # csv, jsonl, json, parquet or arrow (an in-memory table, e.g. from JUnit)
    unit: str  # what a row number counts: "row" or "testcase"
    sql: str  # SELECT file_no, row_no, <fields typed>, bad_column, bad_raw


def _csv_header(path: Path, label: str) -> list[str]:
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8-sig", newline="") as f:
            header = next(csv.reader(f), None)
    except UnicodeDecodeError:
        raise InputError(label, "not UTF-8 text", line=1) from None
    except (OSError, csv.Error) as exc:
        raise InputError(label, f"cannot read: {exc}") from None
    if not header:
        raise InputError(label, "empty file: no header line")
    return [name.strip() for name in header]


def _duckdb_message(exc: Exception) -> str:
    """DuckDB's error without its list of reader options: the first lines say what and where."""
    lines = [line for line in str(exc).splitlines() if line.strip()]
    kept = []
    for line in lines:
        if line.startswith("Possible fixes") or line.strip().startswith("file ="):
            break
        kept.append(line.strip())
    return " ".join(kept[:3])


def _reader(fmt: str, path: Path, columns: Sequence[str] = ()) -> str:
    p = literal(str(path))
    if fmt == "csv":
        cols = ", ".join(f"{literal(c)}: 'VARCHAR'" for c in columns)
        return (
            f"read_csv({p}, header=true, columns={{{cols}}}, auto_detect=false, delim=',', "
            "quote='\"', escape='\"', strict_mode=true, null_padding=false) WITH ORDINALITY"
        )
    if fmt in ("jsonl", "json"):
        # With `columns`, each record is one JSON value per named key (parsed once, here);
        # without, the whole record as one JSON value `j` (to list its keys).
        layout = "newline_delimited" if fmt == "jsonl" else "auto"
        if columns:
            cols = ", ".join(f"{literal(c)}: 'JSON'" for c in columns)
            shape = f"records=true, columns={{{cols}}}"
        else:
            shape = "records=false, columns={'j': 'JSON'}"
        return (
            f"read_json({p}, format='{layout}', {shape}, maximum_object_size=1073741824) "
            "WITH ORDINALITY"
        )
    if fmt == "parquet":
        return f"read_parquet({p}, file_row_number=true)"
    raise AssertionError(fmt)


def _check_columns(
    label: str,
    present: Sequence[str],
    fields: dict[str, str],
    required: Sequence[str],
    line: int | None,
) -> None:
    seen: set[str] = set()
    for name in present:
        if name in seen:
            raise InputError(label, "column appears twice", line=line, column=name)
        seen.add(name)
        if name not in fields:
            raise InputError(
                label,
                f"unknown column; the schema has {', '.join(fields)}",
                line=line,
                column=name,
            )
    for name in required:
        if name not in seen:
            raise InputError(label, "required column is missing", line=line, column=name)


def _open_table(
    con: duckdb.DuckDBPyConnection,
    file_no: int,
    path: Path,
    label: str,
    fields: dict[str, str],
    required: Sequence[str],
    submissions: bool,
) -> _Table:
    """Check one file at the file level; return the SQL that reads it as typed rows."""
    fmt = input_format(path, label)
    if not os.access(path, os.R_OK):
        raise InputError(label, "cannot read: permission denied")
    types: dict[str, str] = {}  # present column -> DuckDB type of its raw value
    if fmt == "csv":
        header = _csv_header(path, label)
        _check_columns(label, header, fields, required, line=1)
        types = dict.fromkeys(header, "VARCHAR")
        reader = _reader(fmt, path, header)
        row_expr = "ordinality"
    elif fmt in ("jsonl", "json"):
        reader = _reader(fmt, path)
        try:
            keys = con.execute(
                f"""
                SELECT key, min(n) FROM (
                    SELECT CASE WHEN json_type(j) = 'OBJECT' THEN json_keys(j)
                                ELSE [NULL] END AS ks, ordinality AS n
                    FROM {reader}
                ), unnest(ks) AS t(key)
                GROUP BY key ORDER BY min(n), key
                """
            ).fetchall()
        except duckdb.Error as exc:
            raise InputError(label, f"cannot read as JSON: {_duckdb_message(exc)}") from None
        first_row = dict(keys)
        if None in first_row:  # JSON keys are never NULL: the marker of a non-object line
            raise _row_error(label, fmt, path, "row", first_row[None], "not a JSON object")
        if keys:  # an empty file has no columns to check
            unknown = [k for k in first_row if k not in fields]
            if unknown:
                raise _row_error(
                    label,
                    fmt,
                    path,
                    "row",
                    first_row[unknown[0]],
                    f"unknown column; the schema has {', '.join(fields)}",
                    column=unknown[0],
                )
            _check_columns(label, list(first_row), fields, required, line=None)
        types = dict.fromkeys(first_row, "JSON")
        reader = _reader(fmt, path, list(first_row))
        row_expr = "ordinality"
    else:
        reader = _reader(fmt, path)
        try:
            described = con.execute(f"DESCRIBE SELECT * FROM read_parquet({literal(str(path))})")
            types = {r[0]: r[1] for r in described.fetchall()}
        except duckdb.Error as exc:
            raise InputError(label, f"cannot read as Parquet: {_duckdb_message(exc)}") from None
        _check_columns(label, list(types), fields, required, line=None)
        _check_parquet_types(con, path, label, types, fields)
        row_expr = "file_row_number + 1"
    if submissions and types and "code" not in types and "code_path" not in types:
        raise InputError(label, "needs a 'code' or a 'code_path' column", column="code_path")
    return _Table(
        path, label, fmt, "row", _typed_sql(file_no, reader, row_expr, fmt, types, fields)
    )


def _check_parquet_types(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    label: str,
    types: dict[str, str],
    fields: dict[str, str],
) -> None:
    for name, kind in list(types.items()):
        if kind == _NULL_TYPE:
            continue
        if fields[name] == "string":
            ok = kind == "VARCHAR"
        else:
            ok = kind in _INTEGER_TYPES or kind in ("FLOAT", "DOUBLE") or kind.startswith("DECIMAL")
        if ok:
            continue
        # A column with no values at all carries no type information worth failing over.
        nonnull = con.execute(
            f"SELECT count({_ident(name)}) FROM read_parquet({literal(str(path))})"
        ).fetchall()[0][0]
        if nonnull:
            expected = "a string (VARCHAR)" if fields[name] == "string" else "an integer"
            raise InputError(label, f"has type {kind}; expected {expected}", column=name)
        types[name] = _NULL_TYPE


def _typed_sql(
    file_no: int,
    reader: str,
    row_expr: str,
    fmt: str,
    types: dict[str, str],
    fields: dict[str, str],
) -> str:
    """Every field as its schema type (NULL when absent, empty or bad) + the first bad one."""
    values, bad, raw = [], [], []
    for name, kind in fields.items():
        value, is_bad, shown = _field_sql(name, kind, types.get(name), fmt)
        values.append(f"{value} AS {_ident(name)}")
        if is_bad != "false":
            bad.append(f"WHEN {is_bad} THEN {literal(name)}")
            raw.append(f"WHEN {is_bad} THEN left({shown}, 80)")
    bad_column = f"CASE {' '.join(bad)} END" if bad else "NULL::VARCHAR"
    bad_raw = f"CASE {' '.join(raw)} END" if raw else "NULL::VARCHAR"
    return (
        f"SELECT {file_no} AS file_no, ({row_expr})::BIGINT AS row_no, {', '.join(values)}, "
        f"{bad_column} AS bad_column, {bad_raw} AS bad_raw FROM {reader}"
    )


def _field_sql(name: str, kind: str, raw_type: str | None, fmt: str) -> tuple[str, str, str]:
    """(typed value, is-bad condition, value as shown in messages) for one field."""
    target = "BIGINT" if kind == "integer" else "VARCHAR"
    if raw_type is None or raw_type == _NULL_TYPE:
        return f"NULL::{target}", "false", "NULL"
    col = _ident(name)
    if raw_type == "JSON":
        jt = f"json_type({col})"
        text = f"({col}->>'$')"
        shown = f"{col}::VARCHAR"
        if kind == "string":
            return (
                f"CASE WHEN {jt} = 'VARCHAR' THEN nullif({text}, '') END",
                (f"coalesce({jt} NOT IN ('VARCHAR', 'NULL'), false)"),
                shown,
            )
        # JSON Schema's "integer" admits 3.0; it does not admit "3".
        value = (
            f"CASE {jt} WHEN 'BIGINT' THEN try_cast({text} AS BIGINT) "
            f"WHEN 'UBIGINT' THEN try_cast({text} AS BIGINT) "
            f"WHEN 'DOUBLE' THEN CASE WHEN isfinite(try_cast({text} AS DOUBLE)) "
            f"AND try_cast({text} AS DOUBLE) = floor(try_cast({text} AS DOUBLE)) "
            f"THEN try_cast(try_cast({text} AS DOUBLE) AS BIGINT) END END"
        )
        return value, f"(coalesce({jt}, 'NULL') <> 'NULL' AND {value} IS NULL)", shown
    if fmt == "csv":  # every CSV value is text: an integer must be written as one
        if kind == "string":
            return f"nullif({col}, '')", "false", col
        text = f"nullif(trim({col}), '')"
        value = f"CASE WHEN regexp_full_match({text}, '[+-]?[0-9]+') THEN try_cast({text} AS BIGINT) END"
        return value, f"({text} IS NOT NULL AND {value} IS NULL)", col
    # Parquet / Arrow: the column's type was checked at the file level
    if kind == "string":
        return f"nullif({col}, '')", "false", col
    if raw_type in _INTEGER_TYPES:
        value = f"try_cast({col} AS BIGINT)"
    else:  # FLOAT, DOUBLE, DECIMAL: whole numbers only (pandas writes int columns with nulls so)
        as_double = f"try_cast({col} AS DOUBLE)"
        value = (
            f"CASE WHEN isfinite({as_double}) AND {as_double} = floor({as_double}) "
            f"THEN try_cast({as_double} AS BIGINT) END"
        )
    return value, f"({col} IS NOT NULL AND {value} IS NULL)", f"{col}::VARCHAR"


# -- row checks -------------------------------------------------------------------------------


def _checked_sql(table: _Table, language: str, root: Path) -> str:
    """The typed rows of one file with their verdict: `reason` NULL means usable."""
    lang = literal(language)
    return f"""
    WITH typed AS ({table.sql}),
    judged AS (
        SELECT *,
            CASE
                WHEN bad_column IS NOT NULL THEN 'bad_value'
                WHEN submission_id IS NULL OR problem_id IS NULL OR language IS NULL
                    THEN 'missing_value'
                WHEN status IS NULL THEN 'missing_status'
                WHEN code IS NULL AND code_path IS NULL THEN 'missing_code'
                WHEN code IS NOT NULL AND code_path IS NOT NULL THEN 'ambiguous_code'
                WHEN {_ESCAPE_SQL} THEN 'path_escape'
                -- last: a row that breaks the schema is bad input whatever its language
                WHEN lower(language) <> lower({lang}) THEN 'other_language'
            END AS reason
        FROM typed
    )
    SELECT *,
        CASE
            WHEN reason = 'bad_value' THEN bad_column
            WHEN reason = 'missing_value' THEN CASE WHEN submission_id IS NULL THEN 'submission_id'
                WHEN problem_id IS NULL THEN 'problem_id' ELSE 'language' END
            WHEN reason = 'missing_status' THEN 'status'
            WHEN reason = 'other_language' THEN 'language'
            WHEN reason IS NOT NULL THEN 'code_path'
        END AS err_column,
        CASE reason
            WHEN 'bad_value' THEN 'column ''' || bad_column || ''': not '
                || CASE WHEN bad_column IN ({", ".join(literal(n) for n, k in SUBMISSION_FIELDS.items() if k == "integer")})
                        THEN 'an integer' ELSE 'a string' END
                || ': ' || coalesce(bad_raw, 'NULL')
            WHEN 'missing_value' THEN 'required column ''' || CASE WHEN submission_id IS NULL
                THEN 'submission_id' WHEN problem_id IS NULL THEN 'problem_id' ELSE 'language' END
                || ''' is empty'
            WHEN 'missing_status' THEN 'column ''status'' is empty'
            WHEN 'other_language' THEN 'language ''' || language || ''' (building '
                || {lang} || ')'
            WHEN 'missing_code' THEN 'row has neither code nor code_path'
            WHEN 'ambiguous_code' THEN 'row has both code and code_path; give one'
            WHEN 'path_escape' THEN 'code_path ''' || code_path || ''' leaves the export root '
                || {literal(str(root))} || ' (absolute or with ..)'
        END AS detail,
        {literal(table.label + " " + table.unit + " ")} || row_no AS origin
    FROM judged
    """


def _batch_sql(table: _Table, language: str, root: Path) -> str:
    lang = literal(language)
    return f"""
    SELECT submission_id, problem_id, user_id, date,
        CASE WHEN lower(language) = lower({lang}) THEN {lang} ELSE language END AS language,
        original_language, filename_ext, status,
        CASE WHEN cpu_time >= 0 THEN cpu_time END AS cpu_time,  -- negative: a judge's "none"
        CASE WHEN memory >= 0 THEN memory END AS memory,
        code_size, accuracy, code,
        CASE WHEN code_path IS NOT NULL THEN {literal(str(root))} || '/' || code_path END
            AS code_path,
        origin, reason AS reject_reason, detail AS reject_detail
    FROM ({_checked_sql(table, language, root)})
    """


def _row_error(
    label: str, fmt: str, path: Path, unit: str, row: int, message: str, column: str | None = None
) -> InputError:
    """An InputError about one row, at its physical line when the format has lines."""
    line = _physical_line(path, fmt, row)
    if line is None:
        return InputError(f"{label} {unit} {row}", message, column=column)
    return InputError(label, message, line=line, column=column)


def _physical_line(path: Path, fmt: str, row: int) -> int | None:
    """Line where the `row`-th record starts (blank lines skipped, as DuckDB does)."""
    if fmt not in ("csv", "jsonl"):
        return None
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8-sig", newline="" if fmt == "csv" else None) as f:
            if fmt == "jsonl":
                count = 0
                for number, text in enumerate(f, 1):
                    if text.strip():
                        count += 1
                        if count == row:
                            return number
                return None
            reader = csv.reader(f)
            next(reader, None)
            count, end_of_previous = 0, reader.line_num
            for record in reader:
                if record:
                    count += 1
                    if count == row:
                        return end_of_previous + 1
                end_of_previous = reader.line_num
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    return None


def _first_error(con: duckdb.DuckDBPyConnection, tables: list[_Table]) -> InputError | None:
    """The first row (input order) with a row-level problem, as the error to stop with."""
    found = con.execute(
        """
        WITH errors AS (
            SELECT file_no, row_no, err_column, detail, submission_id,
                NULL::INTEGER AS first_file, NULL::BIGINT AS first_row
            FROM keys
            WHERE reason IS NOT NULL AND reason <> 'other_language'  -- out of scope, not wrong
        ),
        repeats AS (
            SELECT file_no, row_no, 'submission_id', NULL, submission_id, first_file, first_row
            FROM (
                SELECT *, row_number() OVER w AS copy,
                    first_value(file_no) OVER w AS first_file, first_value(row_no) OVER w AS first_row
                FROM keys WHERE submission_id IS NOT NULL
                WINDOW w AS (PARTITION BY submission_id ORDER BY file_no, row_no)
            ) WHERE copy > 1
        )
        SELECT * FROM (SELECT * FROM errors UNION ALL SELECT * FROM repeats)
        ORDER BY file_no, row_no LIMIT 1
        """
    ).fetchall()
    if not found:
        return None
    file_no, row_no, column, detail, submission_id, first_file, first_row = found[0]
    if first_file is not None:
        first = tables[first_file]
        detail = (
            f"duplicate submission_id {submission_id!r}; first at {first.label} "
            f"{first.unit} {first_row}"
        )
    else:
        detail = detail.removeprefix(f"column '{column}': ")  # the error names the column
        if submission_id is not None:
            detail = f"{detail} (submission {submission_id})"
    table = tables[file_no]
    return _row_error(table.label, table.fmt, table.path, table.unit, row_no, detail, column)


# -- problems ---------------------------------------------------------------------------------

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
    label = _label(path, root)
    table = _open_table(con, 0, path, label, PROBLEM_FIELDS, ("problem_id",), submissions=False)
    try:
        rows = con.execute(
            f"""
            SELECT row_no, bad_column, bad_raw, * EXCLUDE (file_no, row_no, bad_column, bad_raw)
            FROM ({table.sql}) ORDER BY row_no
            """
        ).fetchall()
    except duckdb.Error as exc:
        raise InputError(label, f"cannot read: {_duckdb_message(exc)}") from None
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
            raise _row_error(label, table.fmt, path, "row", row_no, *problem)
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


def _bare_problems(wanted: Sequence[str]) -> pa.Table:
    out: dict[str, list] = {name: [None] * len(wanted) for name in schema.PROBLEM.names}
    out["problem_id"] = list(wanted)
    return pa.Table.from_pydict(out, schema=schema.PROBLEM)


# -- the source -------------------------------------------------------------------------------


def scan_ci(options: BuildOptions) -> tuple[SourceScan, Path]:
    """Scan a CI export (`--source ci`) or JUnit reports (`--source junit`) for one language.

    Returns the scan and the export root, the directory every code_path must stay inside.
    """
    if not options.inputs:
        raise InputError("--input", f"--source {options.source} needs at least one --input file")
    files = expand_inputs(options.inputs)
    root_given = options.root if options.root is not None else files[0].parent
    if not root_given.is_dir():
        raise InputError(root_given, "export root is not a directory")
    root = root_given.resolve()
    return _scan(
        files,
        root,
        options.language,
        options.recipe,
        problems_file=options.problems_file,
        junit=options.source == "junit",
    )


def _scan(
    files: list[Path],
    root: Path,
    language: str,
    recipe: Recipe,
    *,
    problems_file: Path | None = None,
    junit: bool = False,
) -> tuple[SourceScan, Path]:
    from codelog.sources.junit import junit_table

    con = duckdb.connect()
    tables: list[_Table] = []
    for file_no, path in enumerate(files):
        label = _label(path, root)
        if junit:
            arrow = junit_table(path, language=language, code_root=root)
            name = f"junit_{file_no}"
            con.register(name, arrow)
            types = {
                f.name: ("BIGINT" if f.type == pa.int64() else "VARCHAR")
                for f in arrow.schema
                if f.name in SUBMISSION_FIELDS
            }
            sql = _typed_sql(file_no, name, "testcase_no", "arrow", types, SUBMISSION_FIELDS)
            tables.append(_Table(path, label, "arrow", "testcase", sql))
        else:
            tables.append(
                _open_table(
                    con, file_no, path, label, SUBMISSION_FIELDS, REQUIRED, submissions=True
                )
            )

    # One narrow pass over each file: counts, problems, code directories, the row verdicts.
    con.execute(
        "CREATE TEMP TABLE keys (file_no INTEGER, row_no BIGINT, submission_id VARCHAR, "
        "problem_id VARCHAR, language VARCHAR, reason VARCHAR, err_column VARCHAR, "
        "detail VARCHAR, code_path VARCHAR)"
    )
    for table in tables:
        try:
            con.execute(
                "INSERT INTO keys SELECT file_no, row_no, submission_id, problem_id, language, "
                "reason, err_column, detail, CASE WHEN reason IS NULL THEN code_path END "
                f"FROM ({_checked_sql(table, language, root)})"
            )
        except duckdb.Error as exc:
            raise InputError(table.label, f"cannot read: {_duckdb_message(exc)}") from None
    spelled = con.execute(
        "SELECT language FROM keys WHERE lower(language) = lower(?) GROUP BY language "
        "ORDER BY count(*) DESC, language LIMIT 1",
        [language],
    ).fetchall()
    lang = spelled[0][0] if spelled else language
    rows_total = con.execute("SELECT count(*) FROM keys").fetchall()[0][0]
    if recipe.limits.on_error == "fail":
        error = _first_error(con, tables)
        if error is not None:
            raise error
    problem_ids = [
        r[0]
        for r in con.execute(
            "SELECT DISTINCT problem_id FROM keys WHERE problem_id IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
    code_dirs = [
        root / r[0] if r[0] else root
        for r in con.execute(
            "SELECT DISTINCT regexp_replace(code_path, '/?[^/]*$', '') FROM keys "
            "WHERE code_path IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
    con.execute("DROP TABLE keys")
    if problems_file is not None:
        problems = read_problems(con, problems_file, root, problem_ids)
    else:
        problems = _bare_problems(problem_ids)

    def batches(batch_size: int) -> Iterator[pa.RecordBatch]:
        for table in tables:  # one file at a time: each scan keeps its rows in file order
            reader = con.sql(_batch_sql(table, lang, root)).to_arrow_reader(batch_size)
            for batch in reader:
                yield batch.cast(schema.SUBMISSION) if batch.schema != schema.SUBMISSION else batch

    return (
        SourceScan(
            language=lang,
            problems=problems,
            rows_total=rows_total,
            batches=batches,
            root=root,
            input_files=[*files, *([problems_file] if problems_file is not None else [])],
            source_dirs=code_dirs,
        ),
        root,
    )
