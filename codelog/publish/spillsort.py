"""Putting wide rows (with their code) into an order computed elsewhere, in bounded memory.

The grouping SQL decides, on narrow columns, where every row goes: a destination table and a
dense position `pos` (0, 1, 2, ...) in it. Sorting the wide rows themselves in DuckDB keeps all
their code in memory (its sort does not spill long strings well: peak memory grew with the
input). Instead the rows stream past once in input order and are cut into runs of bounded size,
each sorted by `pos` and spilled to disk; a merge then emits positions start..start+n block by
block. Because positions are dense, each block takes a contiguous prefix from every run: no
per-row heap, and memory is one run while spilling, one batch per run plus a block while merging.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from codelog.errors import CodelogError

POS = "pos"
RUN_BYTES = 16 << 20  # Arrow bytes buffered per destination before a run is spilled
RUN_BATCH_ROWS = 128  # the merge holds one such batch per run: runs grow with the input
# Rows the merge puts in order at a time. The Parquet writer cuts row groups at exact counts
# whatever the batch sizes, so a block need not be a row group; a smaller one holds less code
# (at a million rows, 4,096 instead of 16,384 took the publisher's Arrow peak from 355 to
# 260 MiB, in the same time).
BLOCK_ROWS = 4096
_IPC = pa.ipc.IpcWriteOptions(compression="lz4")


def with_pos(schema: pa.Schema) -> pa.Schema:
    return schema.append(pa.field(POS, pa.int64(), nullable=False))


class RunWriter:
    """Buffers rows of one destination and spills them as `pos`-sorted run files."""

    def __init__(self, directory: Path, name: str, schema: pa.Schema, run_bytes: int | None = None):
        self.directory, self.name, self.schema = directory, name, with_pos(schema)
        self.run_bytes = RUN_BYTES if run_bytes is None else run_bytes
        self.runs: list[Path] = []
        self.rows = 0
        self._pending: list[pa.Table] = []
        self._pending_bytes = 0

    def write(self, rows: pa.Table) -> None:
        """Rows with this writer's `schema` (`pos` last), in any order."""
        if rows.num_rows == 0:
            return
        self._pending.append(rows)
        self._pending_bytes += rows.nbytes
        self.rows += rows.num_rows
        if self._pending_bytes >= self.run_bytes:
            self._spill()

    def close(self) -> list[Path]:
        if self._pending:
            self._spill()
        return self.runs

    def _spill(self) -> None:
        table = pa.concat_tables(self._pending)
        self._pending, self._pending_bytes = [], 0
        table = table.take(pc.sort_indices(table.column(POS)))
        path = self.directory / f"{self.name}-{len(self.runs):06d}.arrow"
        with (
            pa.OSFile(str(path), "wb") as sink,
            pa.ipc.new_file(sink, self.schema, options=_IPC) as w,
        ):
            w.write_table(table, max_chunksize=RUN_BATCH_ROWS)
        self.runs.append(path)


class _Run:
    """A spilled run read front to back; `take_below` hands out its rows with pos < limit."""

    def __init__(self, path: Path):
        self._file = pa.OSFile(str(path), "rb")
        self._reader = pa.ipc.open_file(self._file)
        self._next = 0
        self._head = self._reader.schema.empty_table()

    def take_below(self, limit: int) -> pa.Table:
        while self._next < self._reader.num_record_batches and (
            self._head.num_rows == 0 or self._last_pos() < limit
        ):
            batch = self._reader.get_batch(self._next)
            self._next += 1
            self._head = pa.concat_tables([self._head, pa.Table.from_batches([batch])])
        positions = self._head.column(POS).to_numpy()
        cut = int(np.searchsorted(positions, limit))
        taken, self._head = self._head.slice(0, cut), self._head.slice(cut)
        return taken

    def _last_pos(self) -> int:
        return self._head.column(POS)[-1].as_py()

    def close(self) -> None:
        self._file.close()


def merge_runs(
    runs: Iterable[Path], rows: int, block_rows: int = BLOCK_ROWS
) -> Iterator[pa.RecordBatch]:
    """The rows of `runs` in `pos` order, without `pos`; checks positions are 0..rows-1."""
    opened = [_Run(path) for path in runs]
    try:
        for start in range(0, rows, block_rows):
            limit = min(start + block_rows, rows)
            pieces = [t for run in opened if (t := run.take_below(limit)).num_rows]
            if not pieces:
                raise CodelogError(f"internal: no rows at positions {start}..{limit - 1}")
            block = pa.concat_tables(pieces)
            block = block.take(pc.sort_indices(block.column(POS)))
            expected = np.arange(start, limit, dtype=np.int64)
            if block.num_rows != limit - start or not np.array_equal(
                block.column(POS).to_numpy(), expected
            ):
                raise CodelogError(f"internal: positions {start}..{limit - 1} are not dense")
            yield from block.drop_columns([POS]).combine_chunks().to_batches()
        if any(run.take_below(np.iinfo(np.int64).max).num_rows for run in opened):
            raise CodelogError(f"internal: rows beyond the {rows} announced")
    finally:
        for run in opened:
            run.close()
