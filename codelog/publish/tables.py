"""group+write: the grouping SQL over the staged rows, then the published dataset.

DuckDB classifies every staged row on narrow columns (`codelog.group.grouping`) and gives it a
position in the table it is published in; the rows with their code then stream once from the
staged parts into position-sorted runs (`codelog.publish.spillsort`) and are merged into Parquet. The
manifest and dataset card are written last, inside `codelog.dataset.publishing`.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from codelog import schema
from codelog.errors import CodelogError
from codelog.group.engine import connect
from codelog.group.split import SplitResult
from codelog.group.stage import group_solutions
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.prompts import SEPARATOR, render_prompt
from codelog.publish.manifest import build_manifest, dataset_card, file_entries, write_manifest
from codelog.publish.spillsort import POS, RunWriter, merge_runs
from codelog.publish.writer import (
    ParquetSink,
    publishing,
    teed_by_split,
    write_table,
)
from codelog.stage.lint import lint_fields

ROWS_PER_FETCH = 8192
SPILL_THREADS = 2

# What the published tables take from the grouping's `fate`; every other column comes from
# the staged row (the two agree on problem_id, language and submission_id).
_FATE_COLUMNS = (
    "seq",
    "outcome",
    "reward",
    "is_correct",
    "reason",
    "detail",
    "dup_count",
    "split",
    POS,
)
_DESTINATIONS = {"solutions": schema.SOLUTION, "rejects": schema.REJECT}
SPLIT_FILES = {"train": "solutions-train.parquet", "test": "solutions-test.parquet"}


@dataclass(frozen=True)
class _Layout:
    """The published tables' schemas and the columns they take from `fate`: the defaults
    above, plus the lint columns when the recipe asks for them (codelog.stage.lint)."""

    destinations: dict[str, pa.Schema]
    fate_columns: tuple[str, ...]


def _layout(options: BuildOptions) -> _Layout:
    extra = lint_fields(options.recipe)
    solutions = pa.schema([*schema.SOLUTION, *extra])
    return _Layout(
        {"solutions": solutions, "rejects": schema.REJECT},
        (*_FATE_COLUMNS, *(f.name for f in extra)),
    )


def group_and_publish(
    scan: SourceScan, options: BuildOptions, stage_dir: Path, out: Path, code_digest: str
) -> dict[str, Any]:
    """Group the staged rows (codelog.group.stage), then write the dataset to `out` atomically.

    `code_digest` fingerprints the code the staging read; the manifest records it.
    """
    recipe = options.recipe
    scratch = stage_dir / "scratch"  # DuckDB's spill files and our sort runs; a killed build's too
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    con = connect(options.memory_bytes, scratch)
    try:
        split = group_solutions(con, scan, options, stage_dir)
        parts = stage_dir / "parts"
        layout = _layout(options)
        runs = _spill_runs(con, parts, scratch, layout)
        # 🤗 datasets maps splits to files, not rows: with a test split, the solutions are also
        # written once per split, so that load_dataset(DIR, split="test") works; those copies
        # carry each solution's `prompt` too, so a trainer needs no join.
        split_files = SPLIT_FILES if len(set(split.splits.values())) > 1 else {}
        prompts = SplitPrompts(recipe.prompt.template, scan.problems)
        with publishing(out) as tmp, ThreadPoolExecutor(max_workers=len(runs)) as pool:
            # One thread per table: the merges are Arrow and Parquet work that releases the GIL.
            merged = [
                pool.submit(
                    _write_merged,
                    tmp / f"{name}.parquet",
                    table_schema,
                    runs[name],
                    {s: tmp / f for s, f in split_files.items()} if name == "solutions" else {},
                    prompts,
                )
                for name, table_schema in layout.destinations.items()
            ]
            con.register("source_problems", scan.problems)
            problems = con.sql(
                "SELECT p.* REPLACE (s.split AS split) FROM source_problems p "
                "JOIN splits s ON s.problem_id = p.problem_id ORDER BY p.problem_id"
            ).to_arrow_reader(ROWS_PER_FETCH)
            write_table(tmp / "problems.parquet", schema.PROBLEM, problems)
            tests = ["tests.parquet"] if scan.tests else []
            if scan.tests:
                write_table(tmp / "tests.parquet", schema.TEST, _published_tests(scan, split))
            manifest = build_manifest(con, scan, options, code_digest, split)
            manifest["split"]["files"] = dict(sorted(split_files.items()))
            for job in merged:
                job.result()
            (tmp / "README.md").write_text(dataset_card(manifest), encoding="utf-8")
            manifest["files"] = file_entries(
                tmp,
                [
                    *(f"{t}.parquet" for t in ("solutions", "rejects", "problems")),
                    *tests,
                    *split_files.values(),
                    "README.md",
                ],
            )
            write_manifest(tmp, manifest)
    finally:
        con.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return manifest


def _published_tests(scan: SourceScan, split: SplitResult) -> Iterator[pa.RecordBatch]:
    """The source's tests of the published problems (those with a split), streamed."""
    published = pa.array(sorted(split.splits), pa.string())
    for batch in scan.tests() if scan.tests else ():
        yield batch.filter(pc.is_in(batch.column("problem_id"), value_set=published))


def _spill_runs(
    con: duckdb.DuckDBPyConnection, parts: Path, scratch: Path, layout: _Layout
) -> dict[str, list[RunWriter]]:
    """Every staged row, with its fate, into `pos`-sorted runs of the table it is published in.

    The rows with their code stream past once, in seq order; only the narrow fate is sorted
    (by seq, to pair it with them) in DuckDB. Contiguous slices of the parts go to threads of
    their own (Arrow's reads, sorts and writes release the GIL); runs need no global order.
    """
    paths = sorted(parts.glob("*.parquet"))
    starts = [0]  # first seq of each part: seqs are dense, in part order
    for path in paths:
        starts.append(starts[-1] + pq.ParquetFile(path).metadata.num_rows)
    slices = _slices(len(paths), SPILL_THREADS)
    with ThreadPoolExecutor(max_workers=len(slices) or 1) as pool:
        jobs = [
            pool.submit(
                _spill_slice,
                con.cursor(),
                paths[a:b],
                (starts[a], starts[b]),
                scratch,
                f"{k}",
                layout,
            )
            for k, (a, b) in enumerate(slices)
        ]
        done = [job.result() for job in jobs]
    return {name: [writers[name] for writers in done] for name in layout.destinations}


def _slices(n: int, k: int) -> list[tuple[int, int]]:
    """`n` items cut into at most `k` contiguous (start, end) slices of near-equal size."""
    bounds = [n * i // k for i in range(k + 1)]
    return [(a, b) for a, b in itertools.pairwise(bounds) if b > a]


def _spill_slice(
    cursor: duckdb.DuckDBPyConnection,
    paths: list[Path],
    seqs: tuple[int, int],
    scratch: Path,
    tag: str,
    layout: _Layout,
) -> dict[str, RunWriter]:
    writers = {
        name: RunWriter(scratch, f"{name}-{tag}", s) for name, s in layout.destinations.items()
    }
    fates = cursor.sql(
        f"SELECT {', '.join(layout.fate_columns)} FROM fate WHERE seq >= {int(seqs[0])} "
        f"AND seq < {int(seqs[1])} ORDER BY seq"
    ).to_arrow_reader(ROWS_PER_FETCH)
    for rows, fate in _paired(_staged_tables(paths, layout), fates):
        kept = pc.is_null(fate.column("reason"))
        for name, mask in (("solutions", kept), ("rejects", pc.invert(kept))):
            writer = writers[name]
            writer.write(_published_rows(writer.schema, rows, fate, mask, layout))
    for writer in writers.values():
        writer.close()
    cursor.close()
    return writers


class SplitPrompts:
    """The `prompt` column of the per-split solution files: each solution's group prompt
    (codelog.prompts.render_prompt with the recipe's template, ended with SEPARATOR as the
    plain-string exports end it: prompt + code is the sequence codelog's trainer trains on);
    null for a problem without a statement."""

    def __init__(self, template: str, problems: pa.Table) -> None:
        ids, texts = problems["problem_id"].to_pylist(), problems["prompt"].to_pylist()
        self.template = template
        self.statements = {p: t for p, t in zip(ids, texts, strict=True) if t}
        self.rendered: dict[tuple, str | None] = {}

    def column(self, batch: pa.RecordBatch) -> pa.Array:
        keys = zip(
            batch.column("problem_id").to_pylist(),
            batch.column("language").to_pylist(),
            batch.column("dialect").to_pylist(),
            strict=True,
        )
        return pa.array([self._prompt(key) for key in keys], pa.string())

    def with_prompt(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return batch.append_column("prompt", self.column(batch))

    def _prompt(self, key: tuple) -> str | None:
        if key not in self.rendered:
            statement = self.statements.get(key[0])
            self.rendered[key] = (
                render_prompt(self.template, statement, key[1], key[2]) + SEPARATOR
                if statement
                else None
            )
        return self.rendered[key]


def _write_merged(
    path: Path,
    table_schema: pa.Schema,
    writers: list[RunWriter],
    split_paths: dict[str, Path],
    prompts: SplitPrompts,
) -> None:
    runs = [run for writer in writers for run in writer.runs]
    rows = sum(writer.rows for writer in writers)
    batches = merge_runs(runs, rows)
    if not split_paths:
        write_table(path, table_schema, batches)
        return
    split_schema = table_schema.append(pa.field("prompt", pa.string()))
    sinks = {name: ParquetSink(p, split_schema) for name, p in split_paths.items()}
    try:
        write_table(path, table_schema, teed_by_split(batches, sinks, prompts.with_prompt))
    finally:
        for sink in sinks.values():
            sink.close()


def _staged_tables(paths: list[Path], layout: _Layout) -> Iterator[pa.Table]:
    """The columns the published tables take from staged parts, part by part."""
    published = {n for s in layout.destinations.values() for n in s.names}
    columns = ["seq", *sorted(published - set(layout.fate_columns))]
    for path in paths:
        yield pq.read_table(path, columns=columns)


def _paired(staged: Iterator[pa.Table], fates: pa.RecordBatchReader) -> Iterator[tuple]:
    """Each staged table with the fate rows of the same seqs; both streams come in seq order."""
    pending: list[pa.RecordBatch] = []
    have = 0
    batches = iter(fates)
    for rows in staged:
        while have < rows.num_rows:
            batch = next(batches, None)
            if batch is None:
                raise CodelogError("internal: staged rows without a fate")
            pending.append(batch)
            have += batch.num_rows
        table = pa.Table.from_batches(pending, schema=fates.schema)
        fate, rest = table.slice(0, rows.num_rows), table.slice(rows.num_rows)
        pending, have = rest.to_batches(), rest.num_rows
        if not fate.column("seq").equals(rows.column("seq")):
            raise CodelogError("internal: staged rows and their fates are out of step")
        yield rows, fate
    if have or next(batches, None) is not None:
        raise CodelogError("internal: fates without a staged row")


def _published_rows(
    target: pa.Schema, rows: pa.Table, fate: pa.Table, mask: pa.ChunkedArray, layout: _Layout
) -> pa.Table:
    columns = [
        (fate if name in layout.fate_columns else rows).column(name).filter(mask).cast(field.type)
        for name, field in zip(target.names, target, strict=True)
    ]
    return pa.Table.from_arrays(columns, schema=target)
