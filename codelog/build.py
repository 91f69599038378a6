"""`codelog build`: source -> staged parse results -> grouping SQL -> published dataset.

The orchestrator owns progress and accounting, and drives the staging (a process pool over
`codelog.staging`); the steps (sources, staging, publish) know nothing of the CLI. Staged
parse results are kept beside the dataset and reused when the inputs have not changed, so a
recipe change re-runs only the SQL.
"""

from __future__ import annotations

import hashlib
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

import pyarrow as pa

from codelog import __version__, schema
from codelog.ast_hash import ACCELERATED, GRAMMARS, hash_identity
from codelog.dataset import file_digest, stale_temp_dirs
from codelog.errors import CodelogError
from codelog.progress import console, rate_progress
from codelog.publish import group_and_publish
from codelog.recipe import Recipe
from codelog.sources import SourceScan
from codelog.staging import StageTask, stage_batch

STAGE_BATCH_ROWS = 1024
STAGE_FILE = "stage.json"


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
    # memory stays flat however large the input. 128MB on 2 cores: 3.3M rows group in 54 s
    # (at 256MB: 59 s, and 0.14 GiB more); DuckDB needs some room per thread, hence the scaling.
    memory_limit: str = field(default_factory=lambda: f"{64 * max(2, os.cpu_count() or 2)}MB")


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
    code_digest = json.loads((stage_dir / STAGE_FILE).read_text())["code_digest"]
    manifest = group_and_publish(scan, options, stage_dir, out, code_digest)
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
    head = [
        __version__,
        options.source,
        scan.language,
        limits.max_source_bytes,
        limits.on_error,
        hash_identity(scan.language),
    ]
    digest.update(json.dumps(head).encode())
    for path in scan.input_files:
        digest.update(str(path).encode())
        digest.update(file_digest(path).encode())
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


_CONFLICT_POLICY = {
    "drop": "rejected them all (reason verdict_conflict)",
    "earliest": "kept each program's earliest copy",
    "per_outcome": "kept each program's earliest copy per outcome",
}


def print_summary(report: BuildReport) -> None:
    from rich.table import Table

    counts = report.manifest["counts"]
    table = Table(title=f"codelog build → {report.out}", show_header=True, header_style="bold")
    table.add_column("what")
    table.add_column("rows", justify="right")
    table.add_row("rows in", f"{counts['rows_in']:,}")
    table.add_row("solutions kept", f"{counts['solutions']:,}")
    table.add_row("groups (problems)", f"{counts['groups']:,}")
    table.add_row("verdict conflicts (programs)", f"{counts['verdict_conflicts']:,}")
    for reason, n in counts["rejects_by_reason"].items():
        table.add_row(f"rejected: {reason}", f"{n:,}")
    for outcome, n in counts["outcomes"].items():
        table.add_row(f"outcome: {outcome}", f"{n:,}")
    console.print(table)
    if counts["verdict_conflicts"]:
        policy = report.manifest["recipe"]["grouping"]["on_conflict"]
        console.print(
            f"[yellow]verdict conflicts: {counts['verdict_conflicts']:,} programs were judged "
            f"differently across their {counts['verdict_conflict_submissions']:,} copies; "
            f'\\[grouping] on_conflict = "{policy}" {_CONFLICT_POLICY[policy]}[/]'
        )
    if counts["unknown_statuses"]:
        console.print(
            f"[yellow]unknown statuses (rejected, add them to the recipe's \\[statuses] to keep them): "
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
