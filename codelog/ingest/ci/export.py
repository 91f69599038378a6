"""Writing CI exports: rows in the CI schema as CSV, JSON Lines or Parquet.

`convert` (JUnit -> export) and the CodeNet -> CI round trip both write through `write_rows`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa

from codelog import schema
from codelog.ci_format import PROBLEM_FIELDS, SUBMISSION_FIELDS, write_rows


def export_codenet_as_ci(
    out: Path,
    *,
    root: Path | None = None,
    language: str = "python",
    inline_code: bool = False,
    problems_out: Path | None = None,
) -> tuple[int, Path]:
    """Write a CodeNet tree's rows for `language` as a CI export; returns (rows, export root).

    `code_path` is relative to the tree's data/ directory (the export root to build with), or,
    with `inline_code`, the code itself when it is a UTF-8 file inside that directory. Rows the
    CodeNet source already rejects (bad ids, malformed CSV rows) are left out. With
    `problems_out`, the problems are written too, each statement as its original HTML.
    """
    from codelog.ingest.codenet import BUNDLED_ROOT, scan_codenet
    from codelog.recipe import load_recipe

    root = (root or BUNDLED_ROOT).resolve()
    scan = scan_codenet(root, language, load_recipe())
    data_root = root / "data"
    columns = list(SUBMISSION_FIELDS)
    kept: list[pa.RecordBatch] = []
    for batch in scan.batches(4096):
        rows = batch.to_pylist()
        out_rows = []
        for rec in rows:
            if rec["reject_reason"] is not None:
                continue
            path = rec["code_path"]
            rec["code_path"] = os.path.relpath(path, data_root)
            if inline_code:
                code = _inline(path, data_root)
                if code is not None:
                    rec["code"], rec["code_path"] = code, None
            out_rows.append({c: rec[c] for c in columns})
        if out_rows:
            kept.append(
                pa.RecordBatch.from_pylist(
                    out_rows, schema=pa.schema([schema.SUBMISSION.field(c) for c in columns])
                )
            )
    table = pa.Table.from_batches(
        kept, schema=pa.schema([schema.SUBMISSION.field(c) for c in columns])
    )
    write_rows(table, out)
    if problems_out is not None:
        statements = root / "problem_descriptions"
        problems = scan.problems.to_pylist()
        for rec in problems:
            html = statements / f"{rec['problem_id']}.html"
            rec["description"] = (
                html.read_text(encoding="utf-8", errors="replace") if html.exists() else None
            )
        fields = pa.schema(
            [
                (name, pa.int64() if kind == "integer" else pa.string())
                for name, kind in PROBLEM_FIELDS.items()
            ]
        )
        write_rows(
            pa.Table.from_pylist(
                [{k: rec.get(k) for k in PROBLEM_FIELDS} for rec in problems], schema=fields
            ),
            problems_out,
        )
    return table.num_rows, data_root


def _inline(path: str, data_root: Path) -> str | None:
    """The file's text when CodeNet staging could read it as is; else None (keep the path)."""
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(data_root) or not real.is_file():
        return None
    data = real.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
