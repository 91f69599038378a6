"""The CI export format, shared by its reader (codelog.ingest.ci) and its writers (the judge,
`codelog convert`, the CodeNet -> CI round trip): the columns of a submissions file and of a
problems file, the file formats by name, and writing rows in it.

A leaf: the judge (codelog.execution, which imports only leaves) writes what it judged as an
ordinary CI export, which re-enters the flow at the top (`codelog build --source ci`).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa

from codelog import schema
from codelog.errors import InputError
from codelog.files import mark_written

# The input schema: CodeNet's metadata columns, the optional dialect (derived from
# original_language when absent), then the code. Types follow codelog.schema.
SUBMISSION_FIELDS: dict[str, str] = {
    name: "integer" if schema.SUBMISSION.field(name).type == pa.int64() else "string"
    for name in (*schema.CODENET_COLUMNS, "dialect", "code", "code_path")
}
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


def write_rows(rows: pa.Table, out: Path) -> None:
    """Write rows (CI schema columns) as CSV, JSON Lines or Parquet, by `out`'s suffix,
    atomically (a Parquet file of one row group).

    JSON Lines leaves out null values; CSV writes them as empty fields (read back as absent).
    """
    with RowsWriter(out, rows.schema) as writer:
        writer.write(rows)


class RowsWriter:
    """Rows in the CI format by `out`'s suffix, written a table at a time as they come.

    They go to a temporary file beside `out`, which `close` renames into place and records as
    codelog's (files.mark_written); leaving the `with` block by an exception leaves `out` as
    it was and no temporary file. Each `write` is one Parquet row group: the caller decides how
    rows are cut. CSV and JSON come out the same bytes however the rows are cut, and a single
    write is the bytes of one `pq.write_table` / `write_csv` of the same table.
    """

    def __init__(self, out: Path, schema: pa.Schema) -> None:
        self.out, self.schema, self.rows = Path(out), schema, 0
        self.format = input_format(self.out)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self._tmp = self.out.with_name(f".{self.out.name}.tmp")
        # codelog's own temporary name: a link left there is removed, never written through
        if self._tmp.is_symlink():
            self._tmp.unlink()
        self._wrote = False
        self._parquet: Any = None
        self._csv: Any = None
        self._file: Any = None
        try:
            if self.format == "parquet":
                import pyarrow.parquet as pq

                self._parquet = pq.ParquetWriter(self._tmp, schema, compression="zstd")
            elif self.format == "csv":
                import pyarrow.csv as pcsv

                self._file = self._tmp.open("wb")
                options = pcsv.WriteOptions(quoting_style="needed")
                self._csv = pcsv.CSVWriter(self._file, schema, write_options=options)
            else:
                self._file = self._tmp.open("w", encoding="utf-8")
                if self.format == "json":
                    self._file.write("[\n")
        except BaseException:
            self.abort()
            raise

    def write(self, rows: pa.Table) -> None:
        """Append `rows` (this writer's schema)."""
        if rows.num_rows == 0:
            return  # an empty write would add an empty Parquet row group
        self._wrote = True
        if self._parquet is not None:
            self._parquet.write_table(rows, row_group_size=rows.num_rows)
        elif self._csv is not None:
            self._csv.write_table(rows)
        else:
            i = self.rows
            for batch in rows.to_batches(max_chunksize=256):  # Python objects of 256 rows at most
                for record in batch.to_pylist():
                    line = json.dumps({k: v for k, v in record.items() if v is not None})
                    if self.format == "json":
                        self._file.write(",\n" + line if i else line)
                    else:
                        self._file.write(line + "\n")
                    i += 1
        self.rows += rows.num_rows

    def close(self) -> None:
        """Finish the file and put it at `out`."""
        try:
            if self._parquet is not None:
                if not self._wrote:  # as pq.write_table of no rows: one empty row group
                    self._parquet.write_table(self.schema.empty_table())
                self._parquet.close()
            elif self._csv is not None:
                self._csv.close()
                self._file.close()
            else:
                if self.format == "json":
                    self._file.write("\n]\n")
                self._file.close()
            os.replace(self._tmp, self.out)
            mark_written(self.out)
        finally:  # a failed write (a full disk) leaves no temporary file
            self.abort()

    def abort(self) -> None:
        """Drop what was written; `out` stays as it was."""
        for handle in (self._parquet, self._csv, self._file):
            if handle is not None:
                with contextlib.suppress(Exception):
                    handle.close()
        self._parquet = self._csv = self._file = None
        self._tmp.unlink(missing_ok=True)

    def __enter__(self) -> RowsWriter:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()
