"""A dataset directory: written atomically, opened as DuckDB views, described by its manifest.

Layout:  solutions.parquet  rejects.parquet  problems.parquet  manifest.json  README.md
A directory without manifest.json is not a dataset: the manifest is written last, inside a
temporary directory that is renamed into place only when everything else is on disk.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from codelog.errors import DatasetError
from codelog.sql_text import literal

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
TABLES = ("solutions", "rejects", "problems")
ROW_GROUP_ROWS = 16_384

# One row per group: the unit the trainer samples from and `codelog sql` users ask about first.
GROUPS_VIEW = """
CREATE OR REPLACE VIEW groups AS
SELECT
    problem_id,
    language,
    count(*) AS n_solutions,
    count(*) FILTER (WHERE is_correct) AS n_correct,
    count(*) FILTER (WHERE NOT is_correct) AS n_incorrect,
    avg(reward) AS reward_mean,
    coalesce(stddev_samp(reward), 0) AS reward_std,
    min(reward) AS reward_min,
    max(reward) AS reward_max,
    sum(dup_count)::BIGINT AS n_submissions,  -- sum() of BIGINT is HUGEINT: a decimal in Arrow
    histogram(outcome) AS outcome_mix
FROM solutions
GROUP BY problem_id, language
"""


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def file_digest(path: Path) -> str:
    """sha256 of an input file, or "absent"; cached, since the staging key and the manifest
    of one build both need it."""
    try:
        st = path.stat()
    except OSError:
        return "absent"
    return _sha256_of(str(path), st.st_size, st.st_mtime_ns) if path.is_file() else "absent"


@functools.lru_cache(maxsize=16384)
def _sha256_of(path: str, size: int, mtime_ns: int) -> str:  # size, mtime: the cache key
    return sha256_file(Path(path))


class ParquetSink:
    """Writes batches to one Parquet file in fixed-size row groups.

    Row groups are cut at exact row counts whatever batch sizes arrive, so the bytes depend
    only on the rows and their order: the same build gives byte-identical files.
    """

    def __init__(self, path: Path, schema: pa.Schema, row_group_rows: int = ROW_GROUP_ROWS):
        self.path, self.schema, self.row_group_rows = path, schema, row_group_rows
        self.rows = 0
        self._pending: list[pa.RecordBatch] = []
        self._pending_rows = 0
        self._writer = pq.ParquetWriter(
            path, schema, compression="zstd", write_statistics=True, use_dictionary=True
        )

    def write(self, batch: pa.RecordBatch) -> None:
        if batch.num_rows == 0:
            return
        if batch.schema != self.schema:
            batch = pa.RecordBatch.from_arrays(
                [batch.column(n).cast(self.schema.field(n).type) for n in self.schema.names],
                schema=self.schema,
            )
        self._pending.append(batch)
        self._pending_rows += batch.num_rows
        while self._pending_rows >= self.row_group_rows:
            self._flush(self.row_group_rows)

    def _flush(self, rows: int) -> None:
        table = pa.Table.from_batches(self._pending, schema=self.schema)
        head, tail = table.slice(0, rows), table.slice(rows)
        # one chunk per row group: the writer cuts pages (and falls back from a dictionary that
        # grew too big) at chunk boundaries, which would make the bytes depend on batch sizes
        self._writer.write_table(head.combine_chunks(), row_group_size=rows)
        self.rows += head.num_rows
        self._pending = tail.to_batches()
        self._pending_rows = tail.num_rows

    def close(self) -> None:
        if self._pending_rows:
            self._flush(self._pending_rows)
        self._writer.close()


def write_table(path: Path, schema: pa.Schema, batches: Iterable[pa.RecordBatch]) -> int:
    sink = ParquetSink(path, schema)
    try:
        for batch in batches:
            sink.write(batch)
    finally:
        sink.close()
    return sink.rows


@contextlib.contextmanager
def publishing(out: Path) -> Iterator[Path]:
    """A temporary directory beside `out`, renamed to `out` when the block succeeds.

    On any error the temporary directory is removed and `out` keeps its previous content.
    """
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    for kind, stale in stale_temp_dirs(out.parent, f".{out.name}"):
        if kind == "old" and not out.exists():  # died between its two renames: put it back
            os.replace(stale, out)
        else:
            shutil.rmtree(stale, ignore_errors=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
        _fsync_tree(tmp)
        if out.exists():
            os.replace(out, old)
        os.replace(tmp, out)
        _fsync_dir(out.parent)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:  # Ctrl-C too, which can land between the two renames
        shutil.rmtree(tmp, ignore_errors=True)
        if old.exists():
            if out.exists():
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(old, out)
        raise


def stale_temp_dirs(parent: Path, prefix: str) -> list[tuple[str, Path]]:
    """`{prefix}.tmp-PID` / `{prefix}.old-PID` directories left by a process that is gone.

    A build killed outright (SIGKILL, power loss) cannot clean up; the next one does. A
    directory whose process still runs (a concurrent build) is left alone.
    """
    found = []
    for path in sorted(parent.glob(f"{glob.escape(prefix)}.*-*")):
        kind, _, pid = path.name[len(prefix) + 1 :].rpartition("-")
        if kind in ("tmp", "old") and pid.isdigit() and not _process_exists(int(pid)):
            found.append((kind, path))
    return found


def _process_exists(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _fsync_tree(root: Path) -> None:
    for path in root.iterdir():
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    _fsync_dir(root)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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


def view_statements(path: str | Path) -> list[str]:
    """The SQL defining views `solutions`, `rejects`, `problems` and `groups` (absolute paths)."""
    root = Path(path).resolve()
    read_manifest(root)
    statements = []
    for table in TABLES:
        file = root / f"{table}.parquet"
        if not file.exists():
            raise DatasetError(f"{root}: missing {file.name}")
        statements.append(
            f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM read_parquet({literal(file)})"
        )
    statements.append(GROUPS_VIEW.strip())
    return statements


def open_dataset(
    path: str | Path, con: duckdb.DuckDBPyConnection | None = None
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with views `solutions`, `rejects`, `problems` and `groups`."""
    statements = view_statements(path)
    con = con or duckdb.connect()
    for statement in statements:
        con.execute(statement)
    return con
