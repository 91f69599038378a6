"""`codelog sql`: DuckDB over a dataset's views, printed as a table or written as CSV/JSON/Parquet.

The views are the ones `codelog.dataset.open_dataset` defines (solutions, rejects, problems,
groups). The user's SQL runs on a locked-down connection (`connect`): it may read the dataset's
files and the files the user names (`read`), nothing else; it cannot write a file, attach a
database, install or load an extension, or change a setting. Its result is written by
codelog, not by the user's SQL: streamed as Arrow batches into a second, private connection
whose COPY writes the file, so nested columns (groups.outcome_mix is a MAP) are written the
way DuckDB writes them and nothing is materialised in Python; the file appears only when
complete (temporary file, then rename).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

import duckdb
import pyarrow as pa

from codelog import kinds
from codelog.dataset.open import open_dataset, read_manifest, view_statements
from codelog.errors import CodelogError
from codelog.files import check_output_file, mark_written, output_metadata, writing
from codelog.sql import connect as private_connection
from codelog.sql import literal

Format = Literal["csv", "json", "parquet"]
FORMATS: tuple[Format, ...] = ("csv", "json", "parquet")
# COPY options per format: a CSV header, JSON as one object per line (what jq, pandas,
# polars and `datasets` read), Parquet compressed like the dataset itself.
_COPY_OPTIONS = {
    "csv": "FORMAT csv, HEADER true",
    "json": "FORMAT json",
    "parquet": "FORMAT parquet, COMPRESSION zstd, KV_METADATA {"
    + ", ".join(f"{k.decode()}: {literal(v.decode())}" for k, v in output_metadata().items())
    + "}",
}
# The user's result is registered under this name to be COPYed; unlikely to shadow theirs.
_RESULT_VIEW = "codelog_sql_result"
_MAX_CELL_CHARS = 1000


class QueryError(CodelogError):
    """A query DuckDB refused or failed to run; the message is DuckDB's own."""


@dataclass(frozen=True)
class Preview:
    """The first rows of a result, for display, and how many rows it has in all."""

    columns: list[str]
    types: list[str]  # DuckDB type names
    numeric: list[bool]  # right-aligned in a table
    rows: list[tuple[Any, ...]]
    total_rows: int


# Statements that write files, reach other databases or bring in code: refused before DuckDB
# sees them. The locked configuration refuses most of them too, but not a write to a file the
# query may read (the dataset's own, allowed so that its views work): this check is what keeps
# those whole. PREPARE (and EXECUTE) would run a statement this check never sees; EXPLAIN
# ANALYZE runs the statement it explains, so an EXPLAIN is checked as what it explains.
_REFUSED = {
    duckdb.StatementType.COPY: "COPY writes files: write a result with -o FILE",
    duckdb.StatementType.COPY_DATABASE: "COPY FROM DATABASE writes a database",
    duckdb.StatementType.EXPORT: "EXPORT DATABASE writes files: write a result with -o FILE",
    duckdb.StatementType.ATTACH: "ATTACH opens other databases",
    duckdb.StatementType.DETACH: "DETACH changes the attached databases",
    duckdb.StatementType.LOAD: "INSTALL and LOAD bring in extensions",
    duckdb.StatementType.EXTENSION: "extension statements bring in code",
    duckdb.StatementType.PREPARE: "a prepared statement is not checked: write it out",
    duckdb.StatementType.EXECUTE: "a prepared statement is not checked: write it out",
}
# EXPLAIN [ANALYZE | (options)] before the statement it explains
_EXPLAIN = re.compile(r"^\s*EXPLAIN\s+(?:ANALY[SZ]E\s+|\([^)]*\)\s*)?", re.IGNORECASE)


def connect(dataset: str | Path, *, read: Sequence[str | Path] = ()) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the dataset's views, locked down for a user's SQL.

    After the views are made: file access is limited to the dataset's data files and the
    files and directories in `read`; extensions are neither installed nor loaded, not even
    automatically; the configuration is locked, so no statement can undo any of it."""
    root = Path(dataset).resolve()
    con = open_dataset(root)
    kind = kinds.of_manifest(read_manifest(root))
    files = [str(root / f"{table}.parquet") for table in kind.tables]
    named = [Path(p).resolve() for p in read]
    files += [str(p) for p in named if not p.is_dir()]
    # a directory ends with a separator: DuckDB allows what lies under it, not its siblings
    directories = [os.path.join(p, "") for p in named if p.is_dir()]
    for statement in (
        f"SET allowed_paths = [{', '.join(map(literal, files))}]",
        f"SET allowed_directories = [{', '.join(map(literal, directories))}]",
        "SET enable_external_access = false",
        "SET autoinstall_known_extensions = false",
        "SET autoload_known_extensions = false",
        "SET allow_community_extensions = false",
        "SET lock_configuration = true",
    ):
        con.execute(statement)
    return con


def check_statements(con: duckdb.DuckDBPyConnection, query: str) -> None:
    """QueryError for a statement that would write a file, attach a database or bring in an
    extension (see `_REFUSED`): `codelog sql` reads; it writes only its result, through -o."""
    with _duckdb_errors():
        statements = con.extract_statements(query)
    for statement in statements:
        reason = _refusal(con, statement)
        if reason:
            words = " ".join(statement.query.split()[:2]).rstrip(";")
            raise QueryError(
                f"refused: {words} ... ({reason}); codelog sql reads the dataset and the "
                "files named with --read, and writes only its result (-o FILE)"
            )


def _refusal(con: duckdb.DuckDBPyConnection, statement: Any) -> str | None:
    if statement.type != duckdb.StatementType.EXPLAIN:
        return _REFUSED.get(statement.type)
    explained = _EXPLAIN.sub("", statement.query, count=1)
    try:
        inner = con.extract_statements(explained)
    except duckdb.Error:
        return "an EXPLAIN of a statement codelog cannot check"
    if len(inner) != 1 or inner[0].type == duckdb.StatementType.EXPLAIN:
        return "an EXPLAIN of a statement codelog cannot check"
    return _refusal(con, inner[0])


@contextlib.contextmanager
def _duckdb_errors() -> Iterator[None]:
    try:
        yield
    except duckdb.Error as exc:
        raise QueryError(str(exc)) from None


def preview(con: duckdb.DuckDBPyConnection, query: str, max_rows: int) -> Preview:
    """Runs `query`; keeps its first `max_rows` rows and counts the rest without keeping them."""
    check_statements(con, query)
    with _duckdb_errors():
        relation = con.sql(query)
        if relation is None:  # a statement without a result (SET, CREATE ...)
            return Preview(columns=[], types=[], numeric=[], rows=[], total_rows=0)
        reader = relation.to_arrow_reader(max(1, min(max_rows, 8192)))
        kept: list[pa.RecordBatch] = []
        total = 0
        for batch in reader:
            if total < max_rows:
                kept.append(batch.slice(0, max_rows - total))
            total += batch.num_rows
    schema = reader.schema
    table = pa.Table.from_batches(kept, schema=schema)
    rows = list(
        zip(*(_column_values(table.column(i)) for i in range(table.num_columns)), strict=True)
    )
    return Preview(
        columns=schema.names,
        types=[str(t) for t in relation.types],
        numeric=[
            pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)
            for t in schema.types
        ],
        rows=rows,
        total_rows=total,
    )


def _column_values(column: pa.ChunkedArray) -> list[Any]:
    values = column.to_pylist()
    if pa.types.is_map(column.type):
        # Arrow gives a MAP as a list of (key, value) pairs; a dict reads like DuckDB shows it.
        return [dict(v) if v is not None else None for v in values]
    return values


def format_cell(value: Any) -> str:
    """A value as one table cell: NULL spelled out, floats to 6 significant digits, long text cut."""
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, dict):
        text = "{" + ", ".join(f"{k}: {format_cell(v)}" for k, v in value.items()) + "}"
    elif isinstance(value, list):
        text = "[" + ", ".join(format_cell(v) for v in value) + "]"
    else:
        text = str(value)
    if len(text) > _MAX_CELL_CHARS:
        text = text[:_MAX_CELL_CHARS] + f"… ({len(text):,} chars)"
    return text


def write_result(
    con: duckdb.DuckDBPyConnection,
    query: str,
    fmt: Format,
    out: Path | None,
    stdout: IO[bytes],
    *,
    force: bool = False,
    inputs: Sequence[Path] = (),
) -> None:
    """Writes the query's result as `fmt` to the file `out`, or to `stdout` when `out` is None.

    `out` follows codelog.files.check_output_file: never one of `inputs` (the dataset) or a
    file inside it; an existing file only when codelog wrote it (its Parquet mark, or its
    record of a CSV or JSON it wrote, `mark_written`), or with `force`."""
    if fmt not in FORMATS:
        raise CodelogError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    if out is None and fmt == "parquet":
        raise CodelogError("parquet output needs a file: pass --output FILE")
    if out is not None:
        out = out.resolve()
        check_output_file(out, force=force, inputs=inputs, option="--output")
    check_statements(con, query)
    with _duckdb_errors():
        relation = con.sql(query)
        if relation is None:
            raise QueryError("the statement returns no rows to write (SET, CREATE, ...)")
    if out is not None:
        tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
        try:
            with writing(out):
                out.parent.mkdir(parents=True, exist_ok=True)
                _copy(relation, fmt, tmp)
                os.replace(tmp, out)
            # CSV and JSON have no room for codelog's mark: a record lets the next -o replace it
            mark_written(out)
        finally:
            tmp.unlink(missing_ok=True)
        return
    # DuckDB writes files, not Python streams: COPY to a temporary file, then stream it out.
    with tempfile.TemporaryDirectory(prefix="codelog-sql-") as tmpdir:
        path = Path(tmpdir) / f"result.{fmt}"
        _copy(relation, fmt, path)
        with path.open("rb") as f:
            shutil.copyfileobj(f, stdout)
        stdout.flush()


def _copy(relation: duckdb.DuckDBPyRelation, fmt: Format, path: Path) -> None:
    """Writes the result with a private connection's COPY: the user's connection has no file
    access. The rows arrive as Arrow batches, pulled as the COPY writes them."""
    writer = private_connection()
    try:
        # Registered, not made a view: a PIVOT whose columns come from the data cannot be a
        # view (DuckDB computes its columns first), and the registered stream takes any query.
        writer.register(_RESULT_VIEW, relation.to_arrow_reader(8192))
        writer.execute(f"COPY {_RESULT_VIEW} TO {literal(path)} ({_COPY_OPTIONS[fmt]})")
    except duckdb.Error as exc:
        # Errors raised while running the query point at our COPY statement, not the user's
        # SQL: keep DuckDB's message, drop the misleading "LINE 1: COPY ..." excerpt.
        raise QueryError(str(exc).split("\n\nLINE ")[0]) from None
    finally:
        writer.close()


def attach_statements(dataset: str | Path) -> str:
    """The SQL that defines the dataset's views in any DuckDB session (e.g. the `duckdb` CLI).

    The same views as `codelog.dataset.open_dataset`, with absolute paths, so the statements
    work from any directory.
    """
    return "".join(statement + ";\n" for statement in view_statements(dataset))


def duckdb_cli() -> str | None:
    """Path of the `duckdb` command-line binary, if one is on PATH."""
    return shutil.which("duckdb")


def interactive(dataset: str | Path, binary: str) -> int:
    """Opens the `duckdb` CLI with the views defined; returns its exit status.

    `-cmd` runs the statements before the prompt; with stdin not a terminal the CLI reads SQL
    from it, so `echo "SELECT ..." | codelog sql DATASET` works too.
    """
    statements = attach_statements(dataset)
    process = subprocess.Popen([binary, "-cmd", statements])
    # Ctrl-C belongs to the CLI (it cancels the running query); here it would kill the session.
    # Ignored only once the child runs, so the child keeps the default handler.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return process.wait()
    finally:
        signal.signal(signal.SIGINT, previous)


def preview_table(result: Preview) -> Any:
    """A rich Table of a preview, column types under the names.

    Cells are Text, never markup: code full of brackets must print as it is.
    """
    from rich.table import Table
    from rich.text import Text

    table = Table(header_style="bold")
    for name, type_, numeric in zip(result.columns, result.types, result.numeric, strict=True):
        header = Text(name, style="bold") + Text("\n" + type_, style="dim")
        table.add_column(header, justify="right" if numeric else "left")
    for row in result.rows:
        table.add_row(
            *(Text(format_cell(v)) if v is not None else Text("NULL", style="dim") for v in row)
        )
    return table


def preview_note(result: Preview) -> str:
    """How many rows the result has, and how to get those a table does not show."""
    shown = len(result.rows)
    if shown < result.total_rows:
        return (
            f"first {shown:,} of {result.total_rows:,} rows shown "
            "(all of them: --format csv|json|parquet; more here: --max-rows)"
        )
    return f"{result.total_rows:,} row{'s' if result.total_rows != 1 else ''}"


def format_for(output: Path | None, fmt: str | None) -> str:
    """The output format: as given, else from --output's suffix, else a table."""
    if fmt is not None:
        return fmt
    if output is None:
        return "table"
    by_suffix = {
        ".csv": "csv",
        ".json": "json",
        ".jsonl": "json",
        ".ndjson": "json",
        ".parquet": "parquet",
    }
    try:
        return by_suffix[output.suffix.lower()]
    except KeyError:
        raise CodelogError(
            f"{output}: cannot tell the format from the suffix; pass --format csv|json|parquet"
        ) from None
