"""What an eval run reports, built one judged sample at a time (so a million samples never sit
in memory): pass@k overall and per difficulty, the outcome mix of the failures, per-test pass
rates when every test ran, and the comparison with an earlier run (paired per problem).

pass@k of a difficulty is the mean over its problems, as the overall figure is over all of
them (APPS reports its levels this way). Failures are counted by verdict (Wrong Answer,
Runtime Error, Time Limit Exceeded, Compile Error, ...); skipped samples count in neither.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError
from codelog.uncertainty import paired, plus_minus

ALL = "all"
SHOWN_IDS = 10  # problems named in the printed comparison (summary.json names them all)


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass@k from n samples, c of them correct (needs k <= n):
    1 - C(n-c, k) / C(n, k) (Chen et al. 2021, eq. 1), as a product for numerical stability."""
    if not 0 <= c <= n or k < 1 or k > n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


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


@dataclass
class Tally:
    """Counts of a run, fed one record (a judged sample) at a time."""

    difficulty: Mapping[str, str | None] = field(default_factory=dict)  # problem -> level
    counts: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    failures: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    # problem -> [sum of the samples' shares of tests passed, samples] (every test run)
    test_rates: dict[str, list[float]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    skipped: Counter = field(default_factory=Counter)
    samples: int = 0
    isolation: str = ""

    def add(self, record: Mapping[str, Any]) -> None:
        self.samples += 1
        pid = record["problem_id"]
        if record["status"] == "skipped":
            # a sample that cannot be judged cannot count as a failure of the model
            self.skipped[record["detail"]] += 1
            return
        self.isolation = self.isolation or record.get("isolation", "")
        count = self.counts[pid]
        count[0] += 1
        count[1] += bool(record["passed"])
        if not record["passed"]:
            self.failures[self.level(pid)][record["status"]] += 1
        if record.get("tests_run") == record.get("tests_total") and record.get("tests_total"):
            rate = self.test_rates[pid]
            rate[0] += record["tests_passed"] / record["tests_total"]
            rate[1] += 1

    @property
    def graded(self) -> bool:
        """Whether the benchmark names difficulties (MBPP and HumanEval do not)."""
        return any(self.difficulty.values())

    def level(self, pid: str) -> str:
        return self.difficulty.get(pid) or "unknown"

    def per_problem(self, ks: Sequence[int]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for pid in sorted(self.counts):
            n, c = self.counts[pid]
            row: dict[str, Any] = {"n": n, "correct": c}
            if self.graded:
                row["difficulty"] = self.level(pid)
            for k in ks:
                if k <= n:
                    row[f"pass@{k}"] = pass_at_k(n, c, k)
            out[pid] = row
        return out

    def report(self, ks: Sequence[int], per_test: bool) -> dict[str, Any]:
        """overall pass@k, by_difficulty, failures, per_problem (and test_pass_rate)."""
        per_problem = self.per_problem(ks)
        levels: dict[str, list[str]] = defaultdict(list)
        for pid in per_problem:
            levels[self.level(pid)].append(pid)
        report: dict[str, Any] = {"overall": _means(per_problem, per_problem, ks)}
        if self.graded:
            report["by_difficulty"] = {
                level: {
                    "problems": len(pids),
                    "samples": sum(per_problem[p]["n"] for p in pids),
                    **_means(per_problem, pids, ks),
                    "failures": dict(sorted(self.failures[level].items())),
                }
                for level, pids in sorted(levels.items())
            }
        total: Counter = Counter()
        for mix in self.failures.values():
            total.update(mix)
        report["failures"] = dict(sorted(total.items()))
        if per_test:
            total = sum(self.test_rates[p][0] for p in sorted(self.test_rates))
            count = sum(self.test_rates[p][1] for p in self.test_rates)
            report["test_pass_rate"] = total / count if count else None
            for pid, row in per_problem.items():
                if pid in self.test_rates:
                    row["test_pass_rate"] = self.test_rates[pid][0] / self.test_rates[pid][1]
        report["per_problem"] = per_problem
        return report


def _means(
    per_problem: Mapping[str, Mapping[str, Any]], pids: Any, ks: Sequence[int]
) -> dict[str, float]:
    out = {}
    pids = list(pids)
    for k in ks:
        values = [per_problem[p][f"pass@{k}"] for p in pids if f"pass@{k}" in per_problem[p]]
        if values and len(values) == len(pids):
            out[f"pass@{k}"] = sum(values) / len(values)
    return out


# --------------------------------------------------------------------------- comparing runs


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


def paired_pass_at_k(
    old: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]], ks: Sequence[int]
) -> dict[str, dict[str, dict[str, Any]]]:
    """pass@k of two runs paired per problem, over all problems both scored (ALL) and over each
    difficulty a problem's entry names: level -> "pass@k" -> before and after (means over the
    paired problems) and the paired difference (codelog.uncertainty's figures and word). A
    pass@k either run could not estimate for a problem (k above its samples) leaves it out."""
    both = sorted(set(old) & set(new))
    levels: dict[str, list[str]] = {ALL: both}
    for pid in both:
        level = new[pid].get("difficulty") or old[pid].get("difficulty")
        if level:
            levels.setdefault(str(level), []).append(pid)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for level in [ALL, *sorted(set(levels) - {ALL})]:
        pids, out[level] = levels[level], {}
        for key in (f"pass@{k}" for k in ks):
            scored = [p for p in pids if key in old[p] and key in new[p]]
            if scored:
                first, second = [old[p][key] for p in scored], [new[p][key] for p in scored]
                out[level][key] = {
                    "before": math.fsum(first) / len(scored),
                    "after": math.fsum(second) / len(scored),
                    **paired(first, second).to_dict(),
                }
    return out


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
