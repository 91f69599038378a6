"""Writing a dataset: Parquet in fixed row groups (deterministic bytes), published atomically.

A directory without manifest.json is not a dataset: the manifest is written last, inside a
temporary directory that is renamed into place only when everything else is on disk.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from codelog.errors import OutputError
from codelog.files import (
    check_output_dir,
    foreign_entries,
    fsync_dir,
    fsync_tree,
    keep_foreign,
    refuse_inputs,
    stale_temp_dirs,
)
from codelog.publish.manifest import CARD, MANIFEST, is_dataset

ROW_GROUP_ROWS = 16_384


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


def check_dataset_out(
    out: Path, inputs: Iterable[Path] = (), around: Iterable[Path] = (), option: str = "--out"
) -> None:
    """Refuse a dataset output that is, contains or lies inside an input (or is or contains a
    directory of `around`), and any existing `out` but an empty directory or a codelog dataset."""
    refuse_inputs(out, inputs, around=around, option=option)
    check_output_dir(out, is_dataset, "codelog dataset", MANIFEST, option=option)


def _written_names(dataset: Path) -> set[str]:
    """The entries of a dataset directory codelog wrote: its manifest's files and itself."""
    names = {MANIFEST, CARD}
    with contextlib.suppress(OSError, ValueError, AttributeError):
        names |= set(json.loads((dataset / MANIFEST).read_text(encoding="utf-8"))["files"])
    return names if is_dataset(dataset) else set()


@contextlib.contextmanager
def publishing(out: Path) -> Iterator[Path]:
    """A temporary directory beside `out`, renamed to `out` when the block succeeds.

    On any error the temporary directory is removed and `out` keeps its previous content.
    `out` is replaced only when it is absent, empty or a codelog dataset (OutputError before
    anything is written otherwise), whoever calls this.
    """
    out = out.resolve()
    check_output_dir(out, is_dataset, "codelog dataset", MANIFEST)
    out.parent.mkdir(parents=True, exist_ok=True)
    for kind, stale in stale_temp_dirs(out.parent, f".{out.name}"):
        if kind == "old" and not out.exists():  # died between its two renames: put it back
            os.replace(stale, out)
        else:
            if kind == "old":  # died after them: what the user kept there moves on first
                with contextlib.suppress(OSError, OutputError):
                    keep_foreign(stale, out, _written_names(stale))
            shutil.rmtree(stale, ignore_errors=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    ours: set[str] = set()
    try:
        yield tmp
        fsync_tree(tmp)
        if out.exists():
            # again: the directory may have gained files while the build ran
            check_output_dir(out, is_dataset, "codelog dataset", MANIFEST)
            ours = _written_names(out)
            keep_foreign(out, tmp, ours, move=False)  # a clash refuses before the swap
            os.replace(out, old)
        os.replace(tmp, out)
        fsync_dir(out.parent)
        if old.exists():
            # what the user keeps there (a git clone's .git) moves into the new dataset
            keep_foreign(old, out, ours)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:  # Ctrl-C too, which can land between the two renames
        shutil.rmtree(tmp, ignore_errors=True)
        if old.exists():
            if out.exists():
                with contextlib.suppress(OSError, OutputError):
                    keep_foreign(old, out, ours)
                if not foreign_entries(old, ours):
                    shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(old, out)
        raise


def teed_by_split(
    batches: Iterable[pa.RecordBatch],
    sinks: dict[str, ParquetSink],
    extend: Callable[[pa.RecordBatch], pa.RecordBatch] | None = None,
) -> Iterator[pa.RecordBatch]:
    """`batches` unchanged, each also written, row by row, to the sink of its `split`
    (`extend`ed first: the split files may carry columns the whole table does not)."""
    for batch in batches:
        split = batch.column("split")
        teed = extend(batch) if extend is not None else batch
        for name, sink in sinks.items():
            sink.write(teed.filter(pc.equal(split, name)))
        yield batch
