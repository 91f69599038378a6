"""The CI export format, shared by its reader (codelog.ingest.ci) and its writers (the judge,
`codelog convert`, the CodeNet -> CI round trip): the columns of a submissions file and of a
problems file, the file formats by name, and writing rows in it.

A leaf: the judge (codelog.execution, which imports only leaves) writes what it judged as an
ordinary CI export, which re-enters the flow at the top (`codelog build --source ci`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

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
    """Write rows (CI schema columns) as CSV, JSON Lines or Parquet, by `out`'s suffix.

    JSON Lines leaves out null values; CSV writes them as empty fields (read back as absent).
    """
    fmt = input_format(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(rows, tmp, compression="zstd")
        elif fmt == "csv":
            import pyarrow.csv as pcsv

            with tmp.open("wb") as f:
                pcsv.write_csv(rows, f, pcsv.WriteOptions(quoting_style="needed"))
        else:
            with tmp.open("w", encoding="utf-8") as f:
                if fmt == "json":
                    f.write("[\n")
                for i, record in enumerate(rows.to_pylist()):
                    line = json.dumps({k: v for k, v in record.items() if v is not None})
                    sep = ",\n" if fmt == "json" and i else ""
                    f.write(sep + line if fmt == "json" else line + "\n")
                if fmt == "json":
                    f.write("\n]\n")
        os.replace(tmp, out)
        mark_written(out)
    finally:  # a failed write (a full disk) leaves no temporary file
        tmp.unlink(missing_ok=True)
