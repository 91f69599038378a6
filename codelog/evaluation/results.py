"""What an eval run reports, built one judged sample at a time (so a million samples never sit
in memory): pass@k overall and per difficulty, the outcome mix of the failures, per-test pass
rates when every test ran, and the comparison with an earlier run.

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

ALL = "all"


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
    return summary


def compare_summaries(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """Each pass@k both runs report, overall and per difficulty: before, after, delta."""
    rows: dict[str, Any] = {}

    def put(level: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
        for key in sorted(set(old) & set(new)):
            if key.startswith("pass@"):
                rows.setdefault(level, {})[key] = {
                    "before": old[key],
                    "after": new[key],
                    "delta": new[key] - old[key],
                }

    put(ALL, before, after)
    old_levels, new_levels = before.get("by_difficulty") or {}, after.get("by_difficulty") or {}
    for level in sorted(set(old_levels) & set(new_levels)):
        put(level, old_levels[level], new_levels[level])
    if before.get("benchmark") != after.get("benchmark") or before.get("split") != after.get(
        "split"
    ):
        rows["note"] = (
            f"different benchmarks or splits: {before.get('benchmark')} "
            f"({before.get('split')}) vs {after.get('benchmark')} ({after.get('split')})"
        )
    return rows


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
        diff = Table(title="compared with the earlier run")
        for column in ("difficulty", "metric", "before", "after", "delta"):
            diff.add_column(
                column, justify="left" if column in ("difficulty", "metric") else "right"
            )
        for level, metrics in comparison.items():
            if level == "note":
                continue
            for key, v in metrics.items():
                diff.add_row(
                    level, key, f"{v['before']:.4f}", f"{v['after']:.4f}", f"{v['delta']:+.4f}"
                )
        if "note" in comparison:
            diff.caption = comparison["note"]
        console.print(diff)
