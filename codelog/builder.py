"""`codelog build`: source -> staged parse results -> grouping SQL -> published dataset.

The orchestrator owns progress and accounting, and drives the staging (a process pool, `codelog.stage.staging`); the steps (sources, staging, publish) know nothing of the CLI. Staged
parse results are kept beside the dataset and reused when the inputs have not changed, so a
recipe change re-runs only the SQL.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.progress import console
from codelog.publish.tables import group_and_publish
from codelog.stage.ast_hash import ACCELERATED, GRAMMARS
from codelog.stage.staging import stage, stage_is_current, staged_code_digest, staging_key


@dataclass
class BuildReport:
    out: Path
    manifest: dict[str, Any]
    staged_reused: bool
    seconds: dict[str, float] = field(default_factory=dict)


def open_source(options: BuildOptions) -> tuple[SourceScan, Path | None]:
    """The source's scan, and the directory code paths must stay inside (None: no check)."""
    if options.source == "codenet":
        from codelog.ingest.codenet import BUNDLED_ROOT, scan_codenet

        root = (options.root or BUNDLED_ROOT).resolve()
        return scan_codenet(root, options.language, options.recipe), root / "data"
    if options.source in ("ci", "junit"):
        from codelog.ingest.ci.scan import scan_ci

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
        key = background.submit(staging_key, scan, options)
        reused = stage_is_current(stage_dir, key)
        timings: dict[str, float] = {"scan": time.perf_counter() - started}
        if not reused:
            t0 = time.perf_counter()
            stage(scan, options, stage_dir, key, code_root)
            timings["stage"] = time.perf_counter() - t0
        elif options.show_progress:
            console.print(f"[dim]reusing staged parse results in {stage_dir} (inputs unchanged)[/]")

    t0 = time.perf_counter()
    code_digest = staged_code_digest(stage_dir)
    manifest = group_and_publish(scan, options, stage_dir, out, code_digest)
    timings["group_and_write"] = time.perf_counter() - t0
    timings["total"] = time.perf_counter() - started
    report = BuildReport(out=out, manifest=manifest, staged_reused=reused, seconds=timings)
    if options.show_progress:
        print_summary(report)
    return report


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
    split = report.manifest.get("split") or {}
    if split:
        table.add_row(
            "split: train / test problems",
            f"{split['problems']['train']:,} / {split['problems']['test']:,}",
        )
    console.print(table)
    unknown_dialect = (report.manifest.get("dialects") or {}).get("unknown_original_languages")
    if unknown_dialect:
        console.print(
            f"[yellow]original_language names no dialect (rows kept apart with dialect null, or "
            f'rejected with [dialects] unknown = "reject"): '
            f"{', '.join(repr(s) if s else '(none)' for s in unknown_dialect[:10])}[/]"
        )
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
