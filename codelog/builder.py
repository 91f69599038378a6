"""`codelog build`: source -> staged parse results -> grouping SQL -> published dataset.

The orchestrator owns progress and accounting, and drives the staging (a process pool, `codelog.stage.staging`); the steps (sources, staging, publish) know nothing of the CLI. Staged
parse results are kept beside the dataset and reused when the inputs have not changed, so a
recipe change re-runs only the SQL.
"""

from __future__ import annotations

import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from codelog import kinds
from codelog.errors import CodelogError, EmptyResultError, InputError
from codelog.files import check_output_dir, exclusive_lock, lock_path, writing
from codelog.group.engine import GroupingMemoryError
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.progress import console, say, warn
from codelog.publish.manifest import data_license
from codelog.publish.writer import check_dataset_out
from codelog.stage.ast_hash import ACCELERATED, GRAMMARS
from codelog.stage.staging import (
    STAGE_FILE,
    stage,
    stage_is_current,
    staged_code_digest,
    staging_key,
)


@dataclass
class BuildReport:
    out: Path
    manifest: dict[str, Any]
    staged_reused: bool
    seconds: dict[str, float] = field(default_factory=dict)


# Sources read from the Hub's Parquet shards (codelog.ingest.shards); their code is inline.
SHARD_SOURCES = ("codecontests", "codeforces")


def open_source(options: BuildOptions) -> tuple[SourceScan, Path | None]:
    """The source's scan, and the directory code paths must stay inside (None: no check).
    Sources joined by "+" (`--source codenet --source codecontests`) are one scan: a problem
    two of them hold (by statement) is one problem."""
    if options.tests_file is not None and "ci" not in options.source.split("+"):
        raise CodelogError(
            f"--tests is for --source ci (the problems' tests of a CI export, such as a "
            f"dataset's tests.parquet); --source {options.source} carries its own"
        )
    if "+" in options.source:
        from dataclasses import replace

        from codelog.group.split import same_problems
        from codelog.ingest.scan import combine

        opened = [open_source(replace(options, source=s)) for s in options.source.split("+")]
        scans = [scan for scan, _ in opened]
        same: dict[str, str] = {}
        for i, scan in enumerate(scans[1:], start=1):
            for earlier in scans[:i]:
                same |= {
                    k: v
                    for k, v in same_problems(earlier.problems, scan.problems).items()
                    if k not in same
                }
        roots = [root for _, root in opened if root is not None]
        if len(roots) > 1:  # code paths are checked against one directory
            raise CodelogError(
                f"--source {options.source}: at most one source with code files (codenet, "
                "ci, junit) in a build; codecontests and codeforces carry their code inline"
            )
        return combine(scans, same), roots[0] if roots else None
    if options.source == "codenet":
        from codelog.ingest.codenet import BUNDLED_ROOT, scan_codenet

        root = (options.root or BUNDLED_ROOT).resolve()
        return scan_codenet(root, options.language, options.recipe), root / "data"
    if options.source == "codecontests":
        from codelog.ingest.codecontests import scan_codecontests

        return scan_codecontests(options), None
    if options.source == "codeforces":
        from codelog.ingest.codeforces import scan_codeforces

        return scan_codeforces(options), None
    if options.source in ("ci", "junit"):
        from codelog.ingest.ci.scan import scan_ci

        return scan_ci(options)
    raise CodelogError(f"unknown source {options.source!r}")


def declared_inputs(options: BuildOptions) -> tuple[list[Path], list[Path]]:
    """What the build reads, known before reading it: (inputs an output must keep clear of,
    directories an output may sit inside but never be or contain)."""
    if "+" in options.source:
        from dataclasses import replace

        parts = [declared_inputs(replace(options, source=s)) for s in options.source.split("+")]
        return [p for inputs, _ in parts for p in inputs], [
            p for _, around in parts for p in around
        ]
    if options.source == "codenet":
        from codelog.ingest.codenet import BUNDLED_ROOT

        return [options.root or BUNDLED_ROOT], []
    if options.source in SHARD_SOURCES:
        from codelog.ingest.shards import parquet_files

        files = parquet_files(options.inputs, options.source)
        return [*files, *([options.problems_file] if options.problems_file else [])], []
    from codelog.ingest.ci.formats import expand_inputs

    files = expand_inputs(options.inputs) if options.inputs else []
    if options.problems_file is not None:
        files.append(options.problems_file)
    if options.tests_file is not None:
        files.append(options.tests_file)
    # The CI export root is where relative code paths point, often the project directory a
    # dataset is built in: an output inside it is fine, replacing it is not.
    around = [options.root if options.root is not None else files[0].parent] if files else []
    return files, around


def run_build(options: BuildOptions) -> BuildReport:
    """Build the dataset `options` describe into `options.out`, atomically, under a lock.

    Refuses (before reading or writing anything) an `out` that is, contains or lies inside an
    input, and an existing `out` that is neither empty nor a codelog dataset. A second build
    of the same `out` fails at once (BusyError naming the running build's pid) or, with
    `options.wait`, waits for it. A build that would keep nothing raises EmptyResultError
    with the reasons and publishes nothing.
    """
    started = time.perf_counter()
    kinds.to_build(options.kind)  # an unknown kind fails now, naming the kinds there are
    if options.workers is not None and options.workers < 1:
        raise CodelogError(f"workers must be at least 1, not {options.workers}")
    if options.recipe.grouping.dedup == "ast" and options.language.lower() not in GRAMMARS:
        raise CodelogError(
            f"no tree-sitter grammar for {options.language!r}; supported: "
            f'{", ".join(sorted(GRAMMARS))} (or set [grouping] dedup = "exact" in the recipe)'
        )
    data_license(options)  # a bad --license fails now, not after the parse
    if options.recipe.decontaminate.benchmarks:
        from codelog import benchmarks

        for spec in options.recipe.decontaminate.benchmarks:
            # an unknown benchmark, or a local copy that is not there, fails now, not after
            # the parse (the references are read when the groups are made)
            _, source = benchmarks.parse(spec)
            if source.path is not None and not source.path.exists():
                raise InputError(
                    source.path,
                    f"no such file or directory (benchmark {spec!r} of --decontaminate, or "
                    "of the recipe's [decontaminate] benchmarks)",
                )
    if options.recipe.lint.enabled:
        from codelog.stage.lint import ruff_binary

        ruff_binary()  # [lint] without Ruff installed fails now, not after the parse
    out = options.out.resolve()
    stage_dir = out.parent / f".{out.name}.staging"
    inputs, around = declared_inputs(options)
    check_dataset_out(out, inputs, around)  # before the lock file is created beside it
    with exclusive_lock(lock_path(out), str(out), wait=options.wait, on_wait=warn):
        check_dataset_out(out, inputs, around)  # again: the build we waited for published
        check_output_dir(
            stage_dir, _is_stage, "codelog staging directory", STAGE_FILE, "staging directory"
        )
        try:
            with writing(out):
                return _build(options, out, stage_dir, started)
        except EmptyResultError:
            # a build that keeps nothing leaves nothing behind
            shutil.rmtree(stage_dir, ignore_errors=True)
            raise


def _build(options: BuildOptions, out: Path, stage_dir: Path, started: float) -> BuildReport:
    scan, code_root = open_source(options)
    if scan.rows_total == 0:
        raise EmptyResultError(_no_rows(options, scan))
    with ThreadPoolExecutor(max_workers=1) as background:
        # The key stats every source file (seconds at a million rows): with nothing staged
        # to compare it with, it is computed while the workers parse instead of before.
        key = background.submit(staging_key, scan, options)
        reused = stage_is_current(stage_dir, key)
        timings: dict[str, float] = {"scan": time.perf_counter() - started}
        if not reused:
            t0 = time.perf_counter()
            stage(scan, options, stage_dir, key, code_root)
            timings["stage"] = time.perf_counter() - t0
        elif options.show_progress:
            say(f"reusing staged parse results in {stage_dir} (inputs unchanged)", style="dim")

    t0 = time.perf_counter()
    code_digest = staged_code_digest(stage_dir)
    try:
        publish = kinds.to_build(options.kind).part("publish.build")
        manifest = publish(scan, options, stage_dir, out, code_digest)
    except duckdb.OutOfMemoryException as exc:
        budget = options.memory_bytes / (1 << 20)
        raise GroupingMemoryError(
            f"the grouping stage ran out of memory: DuckDB's budget was {budget:,.0f} MiB "
            f"and it could not spill further ({str(exc).splitlines()[0]}). Nothing was "
            f"published; the staged parse in {stage_dir} is kept, and a re-run with a larger "
            "--memory (or CODELOG_MEMORY), e.g. --memory 2GB, reuses it"
        ) from None
    timings["group_and_write"] = time.perf_counter() - t0
    timings["total"] = time.perf_counter() - started
    return BuildReport(out=out, manifest=manifest, staged_reused=reused, seconds=timings)


def _is_stage(path: Path) -> bool:
    return (path / STAGE_FILE).is_file()


def _no_rows(options: BuildOptions, scan: SourceScan) -> str:
    if options.source == "codenet":
        where = f"{scan.root}/metadata" if scan.root else "the CodeNet metadata"
        return (
            f"0 rows in: {where} lists no {options.language!r} submissions; nothing to build "
            "(is --lang right? it matches CodeNet's language names: python, c++, java, ...)"
        )
    names = ", ".join(str(p) for p in scan.input_files) or "the input"
    return (
        f"0 rows in: {names} holds no {options.language!r} rows; nothing to build "
        "(an empty or header-only file, or rows of another --lang?)"
    )


def summary_data(report: BuildReport) -> dict[str, Any]:
    """The build summary as plain data (`codelog build --json`)."""
    return {
        "out": str(report.out),
        "counts": report.manifest["counts"],
        "staged_reused": report.staged_reused,
        "seconds": {k: round(v, 3) for k, v in report.seconds.items()},
        "accelerated": ACCELERATED,
    }


_CONFLICT_POLICY = {
    "drop": "rejected them all (reason verdict_conflict)",
    "earliest": "kept each program's earliest copy",
    "per_outcome": "kept each program's earliest copy per outcome",
}


def print_summary(report: BuildReport) -> None:
    """The summary on stderr (silenced by --quiet); `summary_data` is the same as data."""
    from rich.table import Table
    from rich.text import Text

    counts = report.manifest["counts"]
    # The path on a line of its own, never wrapped: a table title is cut to the table's width.
    console.print(Text(f"codelog build → {report.out}"), soft_wrap=True)  # Text: brackets
    table = Table(show_header=True, header_style="bold")
    table.add_column("what")
    table.add_column("rows", justify="right")
    table.add_row("rows in", f"{counts['rows_in']:,}")
    for label, key in kinds.of_manifest(report.manifest).summary:
        table.add_row(label, f"{counts[key]:,}")
    for reason, n in counts["rejects_by_reason"].items():
        table.add_row(f"rejected: {reason}", f"{n:,}")
    for outcome, n in counts["outcomes"].items():
        table.add_row(f"outcome: {outcome}", f"{n:,}")
    split = report.manifest.get("split") or {}
    if split:
        table.add_row(
            "split: train / test problems",
            f"{split['problems']['train']:,} / {split['problems']['test']:,}",
        )
    console.print(table)
    if counts.get("verdict_conflicts"):
        policy = report.manifest["recipe"]["grouping"]["on_conflict"]
        warn(
            f"verdict conflicts: {counts['verdict_conflicts']:,} programs were judged "
            f"differently across their {counts['verdict_conflict_submissions']:,} copies; "
            f'[grouping] on_conflict = "{policy}" {_CONFLICT_POLICY[policy]}'
        )
    unknown_dialect = (report.manifest.get("dialects") or {}).get("unknown_original_languages")
    if unknown_dialect:
        warn(
            "original_language names no dialect (rows kept apart with dialect null, or "
            'rejected with [dialects] unknown = "reject"): '
            + ", ".join(repr(s) if s else "(none)" for s in unknown_dialect[:10])
        )
    if counts["unknown_statuses"]:
        warn(
            "unknown statuses (rejected, add them to the recipe's [statuses] to keep them): "
            + ", ".join(repr(s) for s in counts["unknown_statuses"])
        )
    seconds = report.seconds
    total = seconds.get("total", 0.0)
    steps = ", ".join(
        f"{name} {seconds[name]:.1f}s"
        for name in ("scan", "stage", "group_and_write")
        if name in seconds
    )
    if not ACCELERATED and "stage" in seconds:
        warn(
            "codelog.stage._canon (C) is not built: the Python AST walk made this build about "
            "2x slower; reinstall codelog where a C compiler is available"
        )
    say(
        f"done in {total:.1f}s ({counts['rows_in'] / total:,.0f} rows/s; {steps})"
        + (" — staged parse results reused" if report.staged_reused else "")
    )
