"""The one validator of CI rows, whatever the format: file-level checks (columns, Parquet
types) raise an InputError; row-level checks are SQL over a typed view, each bad row
getting a reason, file, line and column."""

from __future__ import annotations

import csv
import gzip
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb

from codelog.ci_format import SUBMISSION_FIELDS, input_format
from codelog.dialects import DIALECTS, dialect_sql, valid_dialect_sql
from codelog.errors import InputError
from codelog.ingest.ci.formats import csv_header, duckdb_message, reader_sql
from codelog.sql import literal

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


# What an explicit `dialect` may say, for the message about one that says something else.
_DIALECT_LIST = "; ".join(f"{lang}: {', '.join(names)}" for lang, names in DIALECTS.items()) + (
    "; other languages have none"
)


def ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class InputTable:
    """One input file, checked at the file level, readable as typed rows."""

    path: Path
    label: str
    fmt: str  # csv, jsonl, json, parquet or arrow (an in-memory table, e.g. from JUnit)
    unit: str  # what a row number counts: "row" or "testcase"
    sql: str  # SELECT file_no, row_no, <fields typed>, bad_column, bad_raw


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


def open_table(
    con: duckdb.DuckDBPyConnection,
    file_no: int,
    path: Path,
    label: str,
    fields: dict[str, str],
    required: Sequence[str],
    submissions: bool,
) -> InputTable:
    """Check one file at the file level; return the SQL that reads it as typed rows."""
    fmt = input_format(path, label)
    if not os.access(path, os.R_OK):
        raise InputError(label, "cannot read: permission denied")
    types: dict[str, str] = {}  # present column -> DuckDB type of its raw value
    if fmt == "csv":
        header = csv_header(path, label)
        _check_columns(label, header, fields, required, line=1)
        types = dict.fromkeys(header, "VARCHAR")
        reader = reader_sql(fmt, path, header)
        row_expr = "ordinality"
    elif fmt in ("jsonl", "json"):
        reader = reader_sql(fmt, path)
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
            raise InputError(label, f"cannot read as JSON: {duckdb_message(exc)}") from None
        first_row = dict(keys)
        if None in first_row:  # JSON keys are never NULL: the marker of a non-object line
            raise row_error(label, fmt, path, "row", first_row[None], "not a JSON object")
        if keys:  # an empty file has no columns to check
            unknown = [k for k in first_row if k not in fields]
            if unknown:
                raise row_error(
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
        reader = reader_sql(fmt, path, list(first_row))
        row_expr = "ordinality"
    else:
        reader = reader_sql(fmt, path)
        try:
            described = con.execute(f"DESCRIBE SELECT * FROM read_parquet({literal(str(path))})")
            types = {r[0]: r[1] for r in described.fetchall()}
        except duckdb.Error as exc:
            raise InputError(label, f"cannot read as Parquet: {duckdb_message(exc)}") from None
        _check_columns(label, list(types), fields, required, line=None)
        _check_parquet_types(con, path, label, types, fields)
        row_expr = "file_row_number + 1"
    if submissions and types and "code" not in types and "code_path" not in types:
        raise InputError(label, "needs a 'code' or a 'code_path' column", column="code_path")
    return InputTable(
        path, label, fmt, "row", typed_sql(file_no, reader, row_expr, fmt, types, fields)
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
            f"SELECT count({ident(name)}) FROM read_parquet({literal(str(path))})"
        ).fetchall()[0][0]
        if nonnull:
            expected = "a string (VARCHAR)" if fields[name] == "string" else "an integer"
            raise InputError(label, f"has type {kind}; expected {expected}", column=name)
        types[name] = _NULL_TYPE


def typed_sql(
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
        values.append(f"{value} AS {ident(name)}")
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
    col = ident(name)
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


def checked_sql(table: InputTable, language: str, root: Path) -> str:
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
                WHEN dialect IS NOT NULL AND NOT {valid_dialect_sql("language", "dialect")}
                    THEN 'bad_value'
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
            WHEN reason = 'bad_value' THEN coalesce(bad_column, 'dialect')
            WHEN reason = 'missing_value' THEN CASE WHEN submission_id IS NULL THEN 'submission_id'
                WHEN problem_id IS NULL THEN 'problem_id' ELSE 'language' END
            WHEN reason = 'missing_status' THEN 'status'
            WHEN reason = 'other_language' THEN 'language'
            WHEN reason IS NOT NULL THEN 'code_path'
        END AS err_column,
        CASE reason
            WHEN 'bad_value' THEN CASE WHEN bad_column IS NULL
                THEN 'column ''dialect'': ' || dialect || ' is not a dialect of ' || language
                    || ' (' || {literal(_DIALECT_LIST)} || ')' ELSE
                'column ''' || bad_column || ''': not '
                || CASE WHEN bad_column IN ({", ".join(literal(n) for n, k in SUBMISSION_FIELDS.items() if k == "integer")})
                        THEN 'an integer' ELSE 'a string' END
                || ': ' || coalesce(bad_raw, 'NULL') END
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


def batch_sql(table: InputTable, language: str, root: Path) -> str:
    lang = literal(language)
    return f"""
    SELECT submission_id, problem_id, user_id, date,
        CASE WHEN lower(language) = lower({lang}) THEN {lang} ELSE language END AS language,
        original_language,
        coalesce(dialect, {dialect_sql("language", "original_language", codenet=False)}) AS dialect,
        filename_ext, status,
        CASE WHEN cpu_time >= 0 THEN cpu_time END AS cpu_time,  -- negative: a judge's "none"
        CASE WHEN memory >= 0 THEN memory END AS memory,
        code_size, accuracy, code,
        CASE WHEN code_path IS NOT NULL THEN {literal(str(root))} || '/' || code_path END
            AS code_path,
        origin, reason AS reject_reason, detail AS reject_detail
    FROM ({checked_sql(table, language, root)})
    """


def row_error(
    label: str, fmt: str, path: Path, unit: str, row: int, message: str, column: str | None = None
) -> InputError:
    """An InputError about one row, at its physical line when the format has lines."""
    line = physical_line(path, fmt, row)
    if line is None:
        return InputError(f"{label} {unit} {row}", message, column=column)
    return InputError(label, message, line=line, column=column)


def physical_line(path: Path, fmt: str, row: int) -> int | None:
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


def first_error(con: duckdb.DuckDBPyConnection, tables: list[InputTable]) -> InputError | None:
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
    return row_error(table.label, table.fmt, table.path, table.unit, row_no, detail, column)
