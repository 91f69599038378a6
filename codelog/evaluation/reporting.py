"""What an eval says: summary.json, the tables on the terminal, the comparison with an earlier
run (`--compare`), and `codelog experiment`'s table as markdown and a plot.

Every file is written whole or not at all (a temporary file renamed into place), and only where
codelog may write: an output that is an input, or that codelog did not write, is refused
(`check_outputs`). summary.json holds no timings: the same verdicts give the same bytes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError
from codelog.evaluation.judging import Judged
from codelog.evaluation.problems import HELDOUT, Benchmarked
from codelog.evaluation.scoring import (
    ALL,
    EvalResult,
    difficulty_key,
    paired_pass_at_k,
)
from codelog.evaluation.spec import EvalSpec
from codelog.files import check_output_file, mark_written, replacing
from codelog.recipe import Experiment
from codelog.uncertainty import plus_minus

SHOWN_IDS = 10  # problems named in the printed comparison (summary.json names them all)
# An experiment's rows: the untrained model, then a method each; each row is paired with these.
BASE = "base"
SFT = "sft"
COMPARED_WITH = (BASE, SFT)  # the paper's comparisons


# How the failure mix names verdicts in the printed table (the summary keeps the verdicts).
SHORT = {
    "Wrong Answer": "WA",
    "WA: Presentation Error": "PE",
    "Runtime Error": "RE",
    "Time Limit Exceeded": "TLE",
    "Memory Limit Exceeded": "MLE",
    "Output Limit Exceeded": "OLE",
    "Compile Error": "CE",
}


# ----------------------------------------------------------------------------- an eval run


def check_outputs(out: Path, inputs: Sequence[Path], *, force: bool) -> None:
    """`out` is a directory (other files in it are left alone) whose samples.jsonl and
    summary.json follow codelog.files.check_output_file: never an input, an existing file only
    if codelog wrote it or with `force`."""
    if out.exists() and not out.is_dir():
        raise CodelogError(f"--out {out}: exists and is not a directory; it is left alone")
    for name in ("samples.jsonl", "summary.json"):
        check_output_file(out / name, force=force, inputs=inputs, option="--out")


def run_meta(spec: EvalSpec, bench: Benchmarked, source_meta: Mapping[str, Any]) -> dict[str, Any]:
    """What summary.json says of the run besides its figures: the benchmark, the split and
    filters it was given, and where its samples came from."""
    meta: dict[str, Any] = {"benchmark": spec.benchmark}
    if bench.split is not None:
        meta["split"] = bench.split
    for key, value in (
        ("after", spec.after),
        ("before", spec.before),
        ("test_sets", list(spec.test_sets) if spec.test_sets else None),
        ("challenge_tests", spec.challenge_tests or None),
        ("per_test", spec.per_test or None),
    ):
        if value is not None:
            meta[key] = value
    return {**meta, **source_meta}


def write_outputs(result: EvalResult, out: Path, meta: Mapping[str, Any]) -> tuple[Path, Path]:
    """samples.jsonl (every sample with its verdict) and summary.json in `out`, atomically,
    from a result held in memory."""
    out.mkdir(parents=True, exist_ok=True)
    samples_path = out / "samples.jsonl"
    with replacing(samples_path) as tmp, tmp.open("w", encoding="utf-8") as f:
        for record in result.records:
            f.write(json.dumps(record) + "\n")
    mark_written(samples_path)
    return samples_path, write_summary(result, out, meta)


def write_summary(result: EvalResult, out: Path, meta: Mapping[str, Any]) -> Path:
    summary_path = out / "summary.json"
    with replacing(summary_path) as tmp:
        tmp.write_text(json.dumps({**meta, **result.summary()}, indent=2) + "\n", encoding="utf-8")
    mark_written(summary_path)
    return summary_path


def print_done(
    spec: EvalSpec, bench: Benchmarked, result: EvalResult, judged: Judged, summary_path: Path
) -> None:
    """The run's line on stderr: pass@k, what was judged and how fast, what was written."""
    figures = ", ".join(f"{k} = {v:.4f}" for k, v in result.overall.items()) or "no pass@k"
    skipped = sum(result.skipped.values())
    of_split = f" of split {bench.split}" if bench.split is not None else ""
    rate = judged.judged / judged.seconds if judged.seconds else 0.0
    print(
        f"{figures} over {len(result.per_problem)} problems{of_split}, "
        f"{result.samples} samples"
        + (f" ({skipped} skipped: {', '.join(result.skipped)})" if skipped else "")
        + (f" ({judged.resumed} read back from the interrupted run)" if judged.resumed else "")
        + f"; judged {judged.judged} in {judged.seconds:.1f}s ({rate:,.1f}/s)"
        + f"; wrote {judged.samples_path} and {summary_path}",
        file=sys.stderr,
    )


# --------------------------------------------------------------------- against an earlier run


def load_summary(run: Path) -> dict[str, Any]:
    """An earlier run's summary.json (`run` is its directory or the file)."""
    path = run / "summary.json" if run.is_dir() else run
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CodelogError(f"--compare {run}: no readable summary.json ({exc})") from None
    if not isinstance(summary, dict) or "ks" not in summary:
        raise CodelogError(f"--compare {run}: {path} is not a codelog eval summary")
    if not isinstance(summary.get("per_problem"), dict):
        raise CodelogError(
            f"--compare {run}: {path} has no per_problem figures to pair this run's with; "
            "score that run again with this codelog (codelog eval --samples its samples.jsonl)"
        )
    return summary


def compare_summaries(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """This run against an earlier one, paired per problem (codelog.uncertainty).

    For each pass@k both runs report, overall and per difficulty: `before` and `after` (the
    means over the problems both runs scored) and their paired difference with its standard
    error, 95% interval, number of problems and word (better, worse, within noise). Problems
    only one run scored are named in `only_before` / `only_after` and left out of every
    figure: mixed in, they would compare different problems, not the two runs."""
    old, new = before["per_problem"], after["per_problem"]
    ks = sorted(set(before["ks"]) & set(after["ks"]))
    levels = paired_pass_at_k(old, new, ks)
    comparison: dict[str, Any] = {"overall": levels.pop(ALL)}
    if levels:
        comparison["by_difficulty"] = levels
    comparison["only_before"] = sorted(set(old) - set(new))
    comparison["only_after"] = sorted(set(new) - set(old))
    if before.get("benchmark") != after.get("benchmark") or before.get("split") != after.get(
        "split"
    ):
        comparison["note"] = (
            f"different benchmarks or splits: {before.get('benchmark')} "
            f"({before.get('split')}) vs {after.get('benchmark')} ({after.get('split')})"
        )
    return comparison


# ------------------------------------------------------------------------------ the terminal


def print_tables(summary: Mapping[str, Any], comparison: Mapping[str, Any] | None) -> None:
    """The run as a paper's table takes it: pass@k and failure mix per difficulty."""
    from rich.table import Table

    from codelog.progress import console

    ks = summary["ks"]
    table = Table(title=f"{summary.get('benchmark')}: pass@k")
    table.add_column("difficulty")
    table.add_column("problems", justify="right")
    table.add_column("samples", justify="right")
    for k in ks:
        table.add_column(f"pass@{k}", justify="right")
    table.add_column("failures")
    levels = dict(summary.get("by_difficulty") or {})
    rows = [*levels.items(), (ALL, {**summary, "failures": summary.get("failures", {})})]
    for level, row in rows:
        mix = ", ".join(f"{SHORT.get(s, s)} {n}" for s, n in row.get("failures", {}).items())
        table.add_row(
            level,
            str(row.get("problems", "")),
            str(row.get("samples", "")),
            *(f"{row[f'pass@{k}']:.4f}" if f"pass@{k}" in row else "-" for k in ks),
            mix or "-",
        )
    console.print(table)
    if comparison:
        print_comparison(comparison)


def print_comparison(comparison: Mapping[str, Any]) -> None:
    """The paired differences as a table; the problems left out, named, beneath it."""
    from rich.table import Table

    from codelog.progress import console

    diff = Table(title="compared with the earlier run (paired per problem)", caption_justify="left")
    columns = ("difficulty", "metric", "problems", "before", "after", "difference", "95%", "")
    for column in columns:
        diff.add_column(
            column, justify="left" if column in ("difficulty", "metric", "") else "right"
        )
    rows = [(ALL, comparison["overall"]), *(comparison.get("by_difficulty") or {}).items()]
    for level, metrics in rows:
        for key, v in metrics.items():
            interval = v["interval95"]
            diff.add_row(
                level,
                key,
                str(v["n"]),
                f"{v['before']:.4f}",
                f"{v['after']:.4f}",
                plus_minus(v["difference"], v["stderr"]),
                f"{interval[0]:+.4f} to {interval[1]:+.4f}" if interval else "-",
                v["word"],
            )
    notes = [
        f"{len(pids)} problem{'s' if len(pids) != 1 else ''} only {which} scored, left out: "
        + ", ".join(pids[:SHOWN_IDS])
        + (f" and {len(pids) - SHOWN_IDS} more" if len(pids) > SHOWN_IDS else "")
        for which, pids in (
            ("the earlier run", comparison["only_before"]),
            ("this run", comparison["only_after"]),
        )
        if pids
    ]
    if "note" in comparison:
        notes.append(comparison["note"])
    diff.caption = "\n".join(
        [
            "difference: after - before ± its standard error; 95%: Student's t interval; "
            "better or worse only when the interval leaves out 0",
            *notes,
        ]
    )
    console.print(diff)


# ------------------------------------------------------------------- the experiment's table


def against(
    cell: Mapping[str, Any], cells: Sequence[Mapping[str, Any]], ks: Sequence[int]
) -> dict[str, dict[str, Any]]:
    """The paper's comparisons: this row minus the base model's and minus SFT's, paired per
    problem both scored (codelog.evaluation.scoring.paired_pass_at_k), per benchmark and
    difficulty: {"base": {benchmark: {level: {"pass@k": ...}}}, "sft": ...}. The base row has
    none (SFT's row against it says base against SFT); a cell finished before per-problem
    figures were kept has none to pair, and is left out."""
    rows = {c["algo"]: c for c in cells}
    out: dict[str, dict[str, Any]] = {}
    if cell["algo"] == BASE:
        return out
    for reference in COMPARED_WITH:
        other = rows.get(reference)
        if other is None or reference == cell["algo"]:
            continue
        out[reference] = {}
        for benchmark, result in cell["results"].items():
            mine, theirs = result.get("per_problem"), other["results"][benchmark].get("per_problem")
            if mine is not None and theirs is not None:
                out[reference][benchmark] = paired_pass_at_k(theirs, mine, ks)
    return out


def columns_of(cells: Sequence[Mapping[str, Any]], e: Experiment) -> list[tuple[str, str, int]]:
    """benchmark x difficulty x k, in the paper's order: benchmarks as given, difficulties
    easiest first, k ascending."""
    columns = []
    for benchmark in e.benchmarks:
        levels = {d for c in cells for d in c["results"][benchmark]["by_difficulty"]}
        for level in sorted(levels, key=difficulty_key):
            columns.extend((benchmark, level, k) for k in e.k)
    return columns


def results_markdown(results: Mapping[str, Any]) -> str:
    """The paper's layout: a row per method, a column per benchmark x difficulty x k, each
    figure pass@k in percent ± its standard error; then the paired differences."""
    columns = [(c["benchmark"], c["difficulty"], c["k"]) for c in results["columns"]]
    head = [f"{_benchmark_name(b)}{'' if d == 'all' else ' ' + d} pass@{k}" for b, d, k in columns]
    lines = [
        f"# {results['recipe']}: {results['model']}, {results['steps']} steps, seed "
        f"{results['seed']}",
        "",
        "| " + " | ".join(["method", *head]) + " |",
        "|" + "---|" + "---:|" * len(columns),
    ]
    for row in results["rows"]:
        cells = []
        for benchmark, level, k in columns:
            figures = row["results"][benchmark]["by_difficulty"].get(level, {})
            cells.append(_percent(figures.get(f"pass@{k}"), figures.get(f"stderr@{k}")))
        lines.append(f"| {row['algo']} | " + " | ".join(cells) + " |")
    problems = "; ".join(
        f"{_benchmark_name(b)}: {results['rows'][0]['results'][b]['problems']} problems"
        for b in results["benchmarks"]
    )
    lines += [
        "",
        f"pass@k in percent ± its standard error; n = {results['n']} samples per problem "
        f"(temperature {results['temperature']}, at most {results['max_new_tokens']} new "
        f"tokens, seed {results['seed']}); {problems}.",
        f"Estimator: {results['estimator']}.",
        "",
    ]
    return "\n".join([*lines, *_differences_markdown(results, columns, head)])


def _differences_markdown(
    results: Mapping[str, Any], columns: Sequence[tuple[str, str, int]], head: Sequence[str]
) -> list[str]:
    """Each row minus the base model's and minus SFT's, paired (none when no row has them)."""
    differences = [
        (row["algo"], reference, row.get("against", {}).get(reference, {}))
        for reference in COMPARED_WITH
        for row in results["rows"]
        if reference in row.get("against", {})
    ]
    if not differences:
        return []
    lines = [
        "## Paired differences",
        "",
        "| difference | " + " | ".join(head) + " |",
        "|" + "---|" + "---:|" * len(columns),
    ]
    for algo, reference, figures in differences:
        cells = []
        for benchmark, level, k in columns:
            v = figures.get(benchmark, {}).get(level, {}).get(f"pass@{k}")
            cells.append(
                "-"
                if v is None
                else f"{plus_minus(100 * v['difference'], _scaled(v['stderr']), 2)} {v['word']}"
            )
        lines.append(f"| {algo} - {reference} | " + " | ".join(cells) + " |")
    return [
        *lines,
        "",
        "Each method minus the base model and minus SFT on the same problems: the mean of "
        "the per-problem differences in pass@k, in percentage points, ± its standard error "
        "(ddof 1, over the problems both scored). better or worse when its 95% interval "
        "(Student's t over those problems) leaves out 0; otherwise within noise. Paired, "
        "because a problem hard for one method is hard for the other: the per-problem "
        "difference removes that, where comparing the two standard errors above does not.",
        "",
    ]


def _scaled(stderr: float | None) -> float | None:
    return None if stderr is None else 100 * stderr


def _benchmark_name(benchmark: str) -> str:
    """A column's heading: the benchmark and the last part of its path (results.json keeps
    the whole spec)."""
    if benchmark == HELDOUT:
        return "held-out"
    name, _, where = benchmark.partition(":")
    if where and name.isidentifier():
        return f"{name} ({Path(where).name or where})"
    return Path(benchmark).name or benchmark


def _percent(value: float | None, stderr: float | None) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.2f}" + (f" ± {100 * stderr:.2f}" if stderr is not None else "")


def write_plot(results: Mapping[str, Any], path: Path, say: Callable[[str], Any]) -> Path | None:
    """A grouped bar chart (a group per column, a bar per method, standard errors as error
    bars), or one line saying why not when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        say(
            "no plot: matplotlib is not installed (pip install 'codelog[plot]'); skipped results.png"
        )
        return None
    matplotlib.use("Agg")  # files only: never needs a display
    import matplotlib.pyplot as plt

    columns = [(c["benchmark"], c["difficulty"], c["k"]) for c in results["columns"]]
    rows = results["rows"]
    width = 0.8 / max(len(rows), 1)
    figure, axes = plt.subplots(figsize=(max(6.0, 1.2 * len(columns) + 2), 4))
    top = 1.0  # percent: an all-zero table still has a readable axis
    for i, row in enumerate(rows):
        heights, errors = [], []
        for benchmark, level, k in columns:
            figures = row["results"][benchmark]["by_difficulty"].get(level, {})
            heights.append(100 * (figures.get(f"pass@{k}") or 0.0))
            errors.append(100 * (figures.get(f"stderr@{k}") or 0.0))
        top = max([top, *(h + e for h, e in zip(heights, errors, strict=True))])
        axes.bar(
            [c + i * width for c in range(len(columns))],
            heights,
            width,
            yerr=errors,
            capsize=2,
            label=row["algo"],
        )
    axes.set_xticks([c + width * (len(rows) - 1) / 2 for c in range(len(columns))])
    axes.set_xticklabels([f"{_benchmark_name(b)}\n{d} pass@{k}" for b, d, k in columns], fontsize=8)
    axes.set_ylim(0, min(100.0, top * 1.15))
    axes.set_ylabel("pass@k (%)")
    axes.set_title(f"{results['model']}, {results['steps']} steps, n = {results['n']}")
    axes.legend(fontsize=8)
    figure.tight_layout()
    with replacing(path) as tmp:
        figure.savefig(tmp, dpi=120, format="png")
    plt.close(figure)
    return path


def figures_line(cell: Mapping[str, Any]) -> str:
    parts = []
    for benchmark, result in cell["results"].items():
        overall = result["by_difficulty"]["all"]
        for key, value in overall.items():
            if key.startswith("pass@") and value is not None:
                stderr = overall.get("stderr@" + key[5:])
                shown = f"{value:.3f}" + (f" ± {stderr:.3f}" if stderr is not None else "")
                parts.append(f"{_benchmark_name(benchmark)} {key} {shown}")
    return ", ".join(parts) or "no pass@k"
