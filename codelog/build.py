"""`codelog build`: source -> staged parse results -> grouping SQL -> published dataset.

The orchestrator owns progress and accounting; the steps (sources, staging, grouping,
dataset) know nothing of the CLI. Staged parse results are kept beside the dataset and
reused when the inputs have not changed, so a recipe change re-runs only the SQL.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import multiprocessing
import os
import shutil
import signal
import time
from collections.abc import Iterator
from concurrent.futures import (
    ALL_COMPLETED,
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from codelog import __version__, schema
from codelog.ast_hash import ACCELERATED, GRAMMARS, hash_identity
from codelog.dataset import (
    FORMAT_VERSION,
    ROW_GROUP_ROWS,
    file_entries,
    publishing,
    sha256_file,
    stale_temp_dirs,
    write_manifest,
    write_table,
)
from codelog.errors import CodelogError
from codelog.grouping import classify_sql, placed_sql, register_recipe_tables
from codelog.progress import console, rate_progress
from codelog.recipe import Recipe
from codelog.sources import SourceScan
from codelog.spillsort import POS, RunWriter, merge_runs
from codelog.sql_text import literal
from codelog.staging import StageTask, stage_batch

STAGE_BATCH_ROWS = 1024
STAGE_FILE = "stage.json"
ROWS_PER_FETCH = 8192
SPILL_THREADS = 2


@dataclass(frozen=True)
class BuildOptions:
    source: str
    language: str
    out: Path
    recipe: Recipe
    root: Path | None = None
    inputs: tuple[str, ...] = ()
    problems_file: Path | None = None
    seed: int = 0
    workers: int | None = None
    show_progress: bool = True
    # DuckDB's budget for the grouping SQL, which sees only narrow rows (the code is put in
    # order by codelog.spillsort); beyond it DuckDB spills to the staging directory, so peak
    # memory stays flat however large the input. 64MB still works at 1M rows.
    memory_limit: str = "256MB"


@dataclass
class BuildReport:
    out: Path
    manifest: dict[str, Any]
    staged_reused: bool
    seconds: dict[str, float] = field(default_factory=dict)


def open_source(options: BuildOptions) -> tuple[SourceScan, Path | None]:
    """The source's scan, and the directory code paths must stay inside (None: no check)."""
    if options.source == "codenet":
        from codelog.sources.codenet import BUNDLED_ROOT, scan_codenet

        root = (options.root or BUNDLED_ROOT).resolve()
        return scan_codenet(root, options.language, options.recipe), root / "data"
    if options.source in ("ci", "junit"):
        from codelog.sources.cilog import scan_ci

        return scan_ci(options)
    raise CodelogError(f"unknown source {options.source!r}")


def run_build(options: BuildOptions) -> BuildReport:
    started = time.perf_counter()
    if options.recipe.grouping.dedup == "ast" and options.language.lower() not in GRAMMARS:
        raise CodelogError(
            f"no tree-sitter grammar for {options.language!r}; supported: "
            f'{", ".join(sorted(GRAMMARS))} (or set [grouping] dedup = "exact" in the recipe)'
        )
    scan, code_root = open_source(options)
    out = options.out.resolve()
    stage_dir = out.parent / f".{out.name}.staging"
    with ThreadPoolExecutor(max_workers=1) as background:
        # The key stats every source file (seconds at a million rows): with nothing staged
        # to compare it with, it is computed while the workers parse instead of before.
        key = background.submit(_staging_key, scan, options)
        reused = (stage_dir / STAGE_FILE).exists() and _stage_is_current(stage_dir, key.result())
        timings: dict[str, float] = {"scan": time.perf_counter() - started}
        if not reused:
            t0 = time.perf_counter()
            _stage(scan, options, stage_dir, key, code_root)
            timings["stage"] = time.perf_counter() - t0
        elif options.show_progress:
            console.print(f"[dim]reusing staged parse results in {stage_dir} (inputs unchanged)[/]")

    t0 = time.perf_counter()
    manifest = _group_and_publish(scan, options, stage_dir, out)
    timings["group_and_write"] = time.perf_counter() - t0
    timings["total"] = time.perf_counter() - started
    report = BuildReport(out=out, manifest=manifest, staged_reused=reused, seconds=timings)
    if options.show_progress:
        print_summary(report)
    return report


# -- staging ----------------------------------------------------------------------------------


def _staging_key(scan: SourceScan, options: BuildOptions) -> str:
    """Changes whenever anything that staging reads or decides with changes."""
    digest = hashlib.sha256()
    limits = options.recipe.limits
    head = [__version__, options.source, scan.language, limits.max_source_bytes, limits.on_error]
    if scan.language.lower() in GRAMMARS:
        head.append(hash_identity(scan.language))
    digest.update(json.dumps(head).encode())
    for path in scan.input_files:
        digest.update(str(path).encode())
        digest.update(_file_digest(path).encode())
    for directory in scan.source_dirs:
        digest.update(str(directory).encode())
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except FileNotFoundError:
            continue
        for entry in entries:
            st = entry.stat(follow_symlinks=False)
            digest.update(f"{entry.name}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode())
    return digest.hexdigest()


def _file_digest(path: Path) -> str:
    """sha256 of an input file; the staging key and the manifest both need it, hash once."""
    try:
        st = path.stat()
    except OSError:
        return "absent"
    return _sha256_of(str(path), st.st_size, st.st_mtime_ns) if path.is_file() else "absent"


@functools.lru_cache(maxsize=16384)
def _sha256_of(path: str, size: int, mtime_ns: int) -> str:  # size, mtime: the cache key
    return sha256_file(Path(path))


def _stage_is_current(stage_dir: Path, key: str) -> bool:
    try:
        stage = json.loads((stage_dir / STAGE_FILE).read_text())
    except (OSError, ValueError):
        return False
    return stage.get("key") == key and "code_digest" in stage


def _rebatch(batches: Iterator[pa.RecordBatch], rows: int) -> Iterator[pa.RecordBatch]:
    pending: list[pa.RecordBatch] = []
    count = 0
    for batch in batches:
        pending.append(batch)
        count += batch.num_rows
        while count >= rows:
            table = pa.Table.from_batches(pending, schema=schema.SUBMISSION)
            yield table.slice(0, rows).combine_chunks().to_batches()[0]
            rest = table.slice(rows)
            pending, count = rest.to_batches(), rest.num_rows
    if count:
        yield (
            pa.Table.from_batches(pending, schema=schema.SUBMISSION)
            .combine_chunks()
            .to_batches()[0]
        )


def _tasks(
    scan: SourceScan, options: BuildOptions, parts: Path, code_root: Path | None
) -> Iterator[StageTask]:
    seq = 0
    for index, batch in enumerate(_rebatch(scan.batches(STAGE_BATCH_ROWS), STAGE_BATCH_ROWS)):
        yield StageTask(
            index=index,
            first_seq=seq,
            batch=batch,
            language=scan.language,
            out_dir=str(parts),
            max_source_bytes=options.recipe.limits.max_source_bytes,
            on_error=options.recipe.limits.on_error,
            code_root=str(code_root) if code_root else None,
            origin_root=str(scan.root) if scan.root else None,
        )
        seq += batch.num_rows


def _stage(
    scan: SourceScan,
    options: BuildOptions,
    stage_dir: Path,
    key: Future[str],
    code_root: Path | None,
) -> None:
    """Stage every row into Parquet parts, then swap the finished stage into place."""
    tmp = stage_dir.parent / f"{stage_dir.name}.tmp-{os.getpid()}"
    for _kind, stale in stale_temp_dirs(stage_dir.parent, stage_dir.name):  # killed builds'
        shutil.rmtree(stale, ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)
    parts = tmp / "parts"
    parts.mkdir(parents=True)
    workers = options.workers or os.cpu_count() or 1
    try:
        with rate_progress(disable=not options.show_progress) as progress:
            task = progress.add_task("parse", total=scan.rows_total)
            staged = 0
            digests: dict[int, str] = {}  # parts arrive in any order; the digest is in input order
            for result in _run_stage_tasks(_tasks(scan, options, parts, code_root), workers):
                staged += result.rows
                digests[result.index] = result.digest
                progress.advance(task, result.rows)
        if staged != scan.rows_total:
            raise CodelogError(
                f"internal: staged {staged} rows, source announced {scan.rows_total}"
            )
        code_digest = hashlib.sha256()
        for index in sorted(digests):
            code_digest.update(digests[index].encode())
        stage = {"key": key.result(), "rows": staged, "code_digest": code_digest.hexdigest()}
        (tmp / STAGE_FILE).write_text(json.dumps(stage) + "\n")
        shutil.rmtree(stage_dir, ignore_errors=True)
        os.replace(tmp, stage_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _run_stage_tasks(tasks: Iterator[StageTask], workers: int) -> Iterator[Any]:
    """Results as they complete, with a bounded number of tasks in flight (flat memory).

    Completion order, not task order: a batch of a few huge files must not leave the other
    workers idle behind it. When batches fail, the error raised is the earliest batch's, as
    a serial run would raise it.
    """
    if workers <= 1:
        yield from map(stage_batch, tasks)
        return
    context = multiprocessing.get_context("spawn")  # the parent holds DuckDB threads: no fork
    pool = _start_pool(workers, context)
    index_of: dict[Future, int] = {}
    try:
        for task in tasks:
            index_of[pool.submit(stage_batch, task)] = task.index
            if len(index_of) >= 4 * workers:
                yield from _collect(index_of, FIRST_COMPLETED)
        yield from _collect(index_of, ALL_COMPLETED)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown(wait=True)


def _collect(index_of: dict[Future, int], until: str) -> Iterator[Any]:
    done, _ = wait(index_of, return_when=until)
    failed = [f for f in done if f.exception() is not None]
    if failed:  # let the batches still running finish: an earlier one may fail too
        done, _ = wait(index_of, return_when=ALL_COMPLETED)
        failed = [f for f in done if f.exception() is not None]
        raise min(failed, key=index_of.__getitem__).exception()
    for future in done:
        del index_of[future]
        yield future.result()


def _start_pool(workers: int, context: Any) -> ProcessPoolExecutor:
    """A pool whose workers ignore Ctrl-C: the parent alone reacts, stops them, reports once.

    The workers are spawned while SIGINT is ignored, a disposition they inherit through exec,
    so even a worker still importing cannot print a KeyboardInterrupt traceback.
    """
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        for _ in range(workers):  # each submit spawns a worker while none is idle
            pool.submit(int)
    finally:
        signal.signal(signal.SIGINT, previous)
    return pool


# -- grouping and publishing ------------------------------------------------------------------

# What the published tables take from the grouping's `fate`; every other column comes from
# the staged row (the two agree on problem_id, language and submission_id).
_FATE_COLUMNS = ("seq", "outcome", "reward", "is_correct", "reason", "detail", "dup_count", POS)
_DESTINATIONS = {"solutions": schema.SOLUTION, "rejects": schema.REJECT}


def _group_and_publish(
    scan: SourceScan, options: BuildOptions, stage_dir: Path, out: Path
) -> dict[str, Any]:
    recipe = options.recipe
    scratch = stage_dir / "scratch"  # DuckDB's spill files and our sort runs; a killed build's too
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    con = _connect(options, scratch)
    try:
        register_recipe_tables(con, recipe)
        parts = stage_dir / "parts"
        con.execute(
            f"CREATE VIEW staged AS SELECT * FROM read_parquet({literal(parts / '*.parquet')})"
        )
        fate = placed_sql(classify_sql("staged", recipe, options.seed))
        # Not TEMP: the spill threads read it through cursors (connections of their own).
        con.execute(f"CREATE TABLE fate AS {fate}")
        runs = _spill_runs(con, parts, scratch)
        with publishing(out) as tmp, ThreadPoolExecutor(max_workers=len(runs)) as pool:
            # One thread per table: the merges are Arrow and Parquet work that releases the GIL.
            merged = [
                pool.submit(_write_merged, tmp / f"{name}.parquet", table_schema, runs[name])
                for name, table_schema in _DESTINATIONS.items()
            ]
            con.register("source_problems", scan.problems)
            problems = con.sql(
                "SELECT * FROM source_problems WHERE problem_id IN "
                "(SELECT DISTINCT problem_id FROM fate WHERE reason IS NULL) ORDER BY problem_id"
            ).to_arrow_reader(ROWS_PER_FETCH)
            write_table(tmp / "problems.parquet", schema.PROBLEM, problems)
            manifest = _manifest(con, scan, options, stage_dir)
            for job in merged:
                job.result()
            (tmp / "README.md").write_text(dataset_card(manifest), encoding="utf-8")
            manifest["files"] = file_entries(
                tmp, [*(f"{t}.parquet" for t in ("solutions", "rejects", "problems")), "README.md"]
            )
            write_manifest(tmp, manifest)
    finally:
        con.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return manifest


def _connect(options: BuildOptions, scratch: Path) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(f"SET memory_limit = '{options.memory_limit}'")
    con.execute(f"SET temp_directory = {literal(scratch)}")
    # every query whose order matters says ORDER BY; the rest need not pay for keeping it
    con.execute("SET preserve_insertion_order = false")
    return con


def _spill_runs(
    con: duckdb.DuckDBPyConnection, parts: Path, scratch: Path
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
                _spill_slice, con.cursor(), paths[a:b], (starts[a], starts[b]), scratch, f"{k}"
            )
            for k, (a, b) in enumerate(slices)
        ]
        done = [job.result() for job in jobs]
    return {name: [writers[name] for writers in done] for name in _DESTINATIONS}


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
) -> dict[str, RunWriter]:
    writers = {name: RunWriter(scratch, f"{name}-{tag}", s) for name, s in _DESTINATIONS.items()}
    fates = cursor.sql(
        f"SELECT {', '.join(_FATE_COLUMNS)} FROM fate WHERE seq >= {int(seqs[0])} "
        f"AND seq < {int(seqs[1])} ORDER BY seq"
    ).to_arrow_reader(ROWS_PER_FETCH)
    for rows, fate in _paired(_staged_tables(paths), fates):
        kept = pc.is_null(fate.column("reason"))
        for name, mask in (("solutions", kept), ("rejects", pc.invert(kept))):
            writer = writers[name]
            writer.write(_published_rows(writer.schema, rows, fate, mask))
    for writer in writers.values():
        writer.close()
    cursor.close()
    return writers


def _write_merged(path: Path, table_schema: pa.Schema, writers: list[RunWriter]) -> None:
    runs = [run for writer in writers for run in writer.runs]
    rows = sum(writer.rows for writer in writers)
    write_table(path, table_schema, merge_runs(runs, rows, ROW_GROUP_ROWS))


def _staged_tables(paths: list[Path]) -> Iterator[pa.Table]:
    """The columns the published tables take from staged parts, part by part."""
    published = {n for s in _DESTINATIONS.values() for n in s.names}
    columns = ["seq", *sorted(published - set(_FATE_COLUMNS))]
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
    target: pa.Schema, rows: pa.Table, fate: pa.Table, mask: pa.ChunkedArray
) -> pa.Table:
    columns = [
        (fate if name in _FATE_COLUMNS else rows).column(name).filter(mask).cast(field.type)
        for name, field in zip(target.names, target, strict=True)
    ]
    return pa.Table.from_arrays(columns, schema=target)


def _manifest(
    con: duckdb.DuckDBPyConnection, scan: SourceScan, options: BuildOptions, stage_dir: Path
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
        "SELECT count(*) FROM (SELECT DISTINCT problem_id, language FROM fate WHERE reason IS NULL)"
    )[0][0]
    statuses = dict(rows("SELECT status, count(*) FROM staged GROUP BY 1 ORDER BY 2 DESC, 1"))
    unknown = sorted(
        r[0]
        for r in rows(
            "SELECT DISTINCT s.status FROM fate f JOIN staged s USING (seq) WHERE f.reason = 'unknown_status'"
        )
        if r[0] is not None
    )
    code_digest = json.loads((stage_dir / STAGE_FILE).read_text())["code_digest"]
    fingerprint = hashlib.sha256()
    for path in scan.input_files:
        name = (
            path.relative_to(scan.root)
            if scan.root and path.is_relative_to(scan.root)
            else path.name
        )
        fingerprint.update(f"{name}\0{_file_digest(path)}\n".encode())
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
        "ast_hash": hash_identity(scan.language) if scan.language.lower() in GRAMMARS else None,
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
    }


_LICENCE = {"codenet": "Project CodeNet data is licensed CDLA-Permissive-2.0 (IBM).\n"}


def dataset_card(manifest: dict[str, Any]) -> str:
    counts = manifest["counts"]
    reasons = (
        "\n".join(f"| {r} | {n:,} |" for r, n in counts["rejects_by_reason"].items())
        or "| (none) | 0 |"
    )
    outcomes = "\n".join(f"| {o} | {n:,} |" for o, n in counts["outcomes"].items())
    return f"""---
configs:
- config_name: solutions
  data_files: solutions.parquet
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
- `problems`: {counts["groups"]:,} problems with their plain-text `prompt`.

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


def print_summary(report: BuildReport) -> None:
    from rich.table import Table

    counts = report.manifest["counts"]
    table = Table(title=f"codelog build → {report.out}", show_header=True, header_style="bold")
    table.add_column("what")
    table.add_column("rows", justify="right")
    table.add_row("rows in", f"{counts['rows_in']:,}")
    table.add_row("solutions kept", f"{counts['solutions']:,}")
    table.add_row("groups (problems)", f"{counts['groups']:,}")
    for reason, n in counts["rejects_by_reason"].items():
        table.add_row(f"rejected: {reason}", f"{n:,}")
    for outcome, n in counts["outcomes"].items():
        table.add_row(f"outcome: {outcome}", f"{n:,}")
    console.print(table)
    if counts["unknown_statuses"]:
        console.print(
            f"[yellow]unknown statuses (rejected, add them to the recipe's [statuses] to keep them): "
            f"{', '.join(repr(s) for s in counts['unknown_statuses'])}[/]"
        )
    seconds = report.seconds
    total = seconds.get("total", 0.0)
    steps = ", ".join(
        f"{name} {seconds[name]:.1f}s"
        for name in ("scan", "stage", "group_and_write")
        if name in seconds
    )
    if not ACCELERATED and "stage" in seconds:
        console.print(
            "[yellow]codelog._canon (C) is not built: the Python AST walk made this build about "
            "2x slower; reinstall codelog where a C compiler is available[/]"
        )
    console.print(
        f"done in {total:.1f}s ({counts['rows_in'] / total:,.0f} rows/s; {steps})"
        + (" — staged parse results reused" if report.staged_reused else "")
    )
