"""The manifest (what a dataset holds, how it was built, its files' digests) and the card.

Layout of a dataset:  solutions.parquet  rejects.parquet  problems.parquet  manifest.json  README.md
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq

from codelog.dialects import DIALECTS, UNKNOWN
from codelog.errors import DatasetError
from codelog.files import file_digest, sha256_file
from codelog.group.split import SplitResult
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.stage.ast_hash import hash_identity
from codelog.version import __version__

FORMAT_VERSION = 2  # 2: dialect and split columns, per-split solution files
MANIFEST = "manifest.json"
TABLES = ("solutions", "rejects", "problems")


def file_entries(root: Path, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    entries = {}
    for name in sorted(names):
        path = root / name
        entry: dict[str, Any] = {"sha256": sha256_file(path), "bytes": path.stat().st_size}
        if name.endswith(".parquet"):
            entry["rows"] = pq.ParquetFile(path).metadata.num_rows
        entries[name] = entry
    return entries


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    path = root / MANIFEST
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def read_manifest(path: str | Path) -> dict[str, Any]:
    """The manifest of a dataset directory, with clear errors for what is not a usable dataset."""
    root = Path(path)
    if not root.is_dir():
        raise DatasetError(f"{root}: no such dataset directory")
    manifest_path = root / MANIFEST
    if not manifest_path.exists():
        raise DatasetError(
            f"{root}: not a complete dataset (no {MANIFEST}; was the build interrupted?)"
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{manifest_path}: unreadable manifest: {exc}") from None
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise DatasetError(
            f"{root}: dataset format_version {version!r} (codelog {manifest.get('codelog_version')}) "
            f"is not the format this codelog reads ({FORMAT_VERSION}); rebuild it with `codelog build`"
        )
    return manifest


def build_manifest(
    con: duckdb.DuckDBPyConnection,
    scan: SourceScan,
    options: BuildOptions,
    code_digest: str,
    split: SplitResult,
) -> dict[str, Any]:
    def rows(query: str) -> list[tuple]:
        return con.sql(query).fetchall()

    rows_in = rows("SELECT count(*) FROM fate")[0][0]
    kept = rows("SELECT count(*) FROM fate WHERE reason IS NULL")[0][0]
    by_reason = dict(
        rows(
            "SELECT reason, count(*) FROM fate WHERE reason IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1"
        )
    )
    outcomes = dict(
        rows(
            "SELECT outcome, count(*) FROM fate WHERE reason IS NULL GROUP BY 1 ORDER BY 2 DESC, 1"
        )
    )
    groups = rows(
        "SELECT count(*) FROM (SELECT DISTINCT problem_id, language, dialect FROM fate "
        "WHERE reason IS NULL)"
    )[0][0]
    statuses = dict(rows("SELECT status, count(*) FROM staged GROUP BY 1 ORDER BY 2 DESC, 1"))
    unknown = sorted(
        r[0]
        for r in rows(
            "SELECT DISTINCT s.status FROM fate f JOIN staged s USING (seq) WHERE f.reason = 'unknown_status'"
        )
        if r[0] is not None
    )
    fingerprint = hashlib.sha256()
    for path in scan.input_files:
        name = (
            path.relative_to(scan.root)
            if scan.root and path.is_relative_to(scan.root)
            else path.name
        )
        fingerprint.update(f"{name}\0{file_digest(path)}\n".encode())
    fingerprint.update(code_digest.encode())
    return {
        "codelog_version": __version__,
        "format_version": FORMAT_VERSION,
        "source": options.source,
        "language": scan.language,
        "seed": options.seed,
        "recipe": options.recipe.to_dict(),
        "input_fingerprint": fingerprint.hexdigest(),
        # ast_hash values depend on these as much as on the code
        "ast_hash": hash_identity(scan.language),
        "counts": {
            "rows_in": rows_in,
            "solutions": kept,
            "rejects": rows_in - kept,
            "rejects_by_reason": by_reason,
            "groups": groups,
            "outcomes": outcomes,
            "statuses_in": statuses,
            "unknown_statuses": unknown,
        },
        "dialects": _dialect_summary(rows, scan, options),
        "split": _split_summary(rows, scan, options, split),
    }


def _dialect_summary(rows: Any, scan: SourceScan, options: BuildOptions) -> dict[str, Any]:
    """The dialect filter and what it did: rows in and kept per dialect, and the
    original_language spellings that told no dialect (rows with dialect null)."""
    dialects = options.recipe.dialects

    def by_dialect(query: str) -> dict[str, int]:
        return {d or UNKNOWN: n for d, n in rows(query)}

    has_dialects = scan.language.lower() in DIALECTS
    return {
        "filter": {
            **(
                {scan.language.lower(): list(dialects.kept()[scan.language.lower()])}
                if has_dialects
                else {}
            ),
            "unknown": dialects.unknown,
        },
        "rows_in": by_dialect("SELECT dialect, count(*) FROM fate GROUP BY 1 ORDER BY 2 DESC, 1")
        if has_dialects
        else {},
        "solutions": by_dialect(
            "SELECT dialect, count(*) FROM fate WHERE reason IS NULL GROUP BY 1 ORDER BY 2 DESC, 1"
        )
        if has_dialects
        else {},
        "unknown_original_languages": sorted(
            r[0]
            for r in rows(
                "SELECT DISTINCT coalesce(s.original_language, '') FROM fate f "
                "JOIN staged s USING (seq) WHERE f.dialect IS NULL"
            )
        )
        if has_dialects
        else [],
    }


def _split_summary(
    rows: Any, scan: SourceScan, options: BuildOptions, split: SplitResult
) -> dict[str, Any]:
    spec = options.recipe.split
    clusters = scan.clusters_file
    if clusters is not None and scan.root is not None and clusters.is_relative_to(scan.root):
        clusters = clusters.relative_to(scan.root)
    problems = {"train": 0, "test": 0}
    for name in split.splits.values():
        problems[name] += 1
    solutions = {"train": 0, "test": 0}
    solutions.update(
        dict(rows("SELECT split, count(*) FROM fate WHERE reason IS NULL GROUP BY 1 ORDER BY 1"))
    )
    return {
        "seed": spec.seed,
        "test_fraction": spec.test_fraction,
        "unit": "problem (identical problems together)",
        "identical_problem_clusters": str(clusters) if clusters is not None else None,
        "units": split.units,
        # a guarantee (>= 1 test and >= 1 train problem) overrode the hash for one unit
        "forced": split.forced,
        "problems": problems,
        "solutions": solutions,
    }


_LICENCE = {"codenet": "Project CodeNet data is licensed CDLA-Permissive-2.0 (IBM).\n"}


def dataset_card(manifest: dict[str, Any]) -> str:
    counts = manifest["counts"]
    reasons = (
        "\n".join(f"| {r} | {n:,} |" for r, n in counts["rejects_by_reason"].items())
        or "| (none) | 0 |"
    )
    outcomes = "\n".join(f"| {o} | {n:,} |" for o, n in counts["outcomes"].items())
    split = manifest["split"]
    files = split.get("files") or {}
    if files:  # each split its own file: datasets maps splits to files, not to rows
        solutions_files = "".join(
            f"\n  - split: {name}\n    path: {files[name]}" for name in ("train", "test")
        )
    else:
        solutions_files = " solutions.parquet"
    held_out = (
        f"Split by problem (seed {split['seed']}, test_fraction {split['test_fraction']}): "
        f"{split['problems']['train']:,} train and {split['problems']['test']:,} test problems, "
        f"{split['solutions']['train']:,} and {split['solutions']['test']:,} solutions; "
        "problems CodeNet marks identical share a split. "
        + (
            '`load_dataset(DIR, split="test")` loads the held-out problems\' solutions.'
            if files
            else "There is no test split."
        )
    )
    return f"""---
configs:
- config_name: solutions
  data_files:{solutions_files}
  default: true
- config_name: rejects
  data_files: rejects.parquet
- config_name: problems
  data_files: problems.parquet
tags:
- code
- offline-rl
---
# {manifest["source"]}-{manifest["language"]} (built by codelog {manifest["codelog_version"]})

Judged {manifest["language"]} submissions, deduplicated by canonical tree-sitter AST and grouped
per problem: every problem here has at least one correct and one incorrect solution, so a
trainer can contrast them. Recipe `{manifest["recipe"]["name"]}`, seed {manifest["seed"]}.

- `solutions`: {counts["solutions"]:,} kept submissions with `outcome`, `reward`, `is_correct`,
  `syntax_ok`, `ast_hash`, `dup_count` and `code`.
- `rejects`: {counts["rejects"]:,} rows not kept, each with its `reason`.
- `problems`: {sum(split["problems"].values()):,} problems with their plain-text `prompt`, in
  {counts["groups"]:,} groups (problem, language, dialect).

{held_out}
Column `split` (train/test) is on `solutions` and `problems`; column `dialect` (python2/python3)
names the language version, and groups never mix dialects.

Rows in: {counts["rows_in"]:,} = solutions + rejects. Input fingerprint `{manifest["input_fingerprint"][:16]}…`.

| outcome | solutions |
| --- | --- |
{outcomes}

| reject reason | rows |
| --- | --- |
{reasons}

Load with `datasets.load_dataset("path/to/this/dir")` (the `solutions` config by default) or
query with `codelog sql path/to/this/dir "SELECT ..."`.
{_LICENCE.get(manifest["source"], "")}"""
