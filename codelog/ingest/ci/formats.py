"""Reading CI exports: the required columns, input files by path or glob, and one DuckDB
reader per format (CSV, JSON Lines, JSON, Parquet). The format itself (columns, file formats
by name, writing) is codelog.ci_format, shared with the judge that writes it."""

from __future__ import annotations

import csv
import glob
import gzip
from collections.abc import Sequence
from pathlib import Path

from codelog.errors import InputError
from codelog.sql import literal

REQUIRED = ("submission_id", "problem_id", "status", "language")


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


def file_label(path: Path, root: Path | None) -> str:
    """How messages and `origin` name a file: relative to the export root when inside it."""
    resolved = path.resolve()
    if root is not None and resolved.is_relative_to(root):
        return str(resolved.relative_to(root))
    return str(path)


def csv_header(path: Path, label: str) -> list[str]:
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


def duckdb_message(exc: Exception) -> str:
    """DuckDB's error without its list of reader options: the first lines say what and where."""
    lines = [line for line in str(exc).splitlines() if line.strip()]
    kept = []
    for line in lines:
        if line.startswith("Possible fixes") or line.strip().startswith("file ="):
            break
        kept.append(line.strip())
    return " ".join(kept[:3])


def reader_sql(fmt: str, path: Path, columns: Sequence[str] = ()) -> str:
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
