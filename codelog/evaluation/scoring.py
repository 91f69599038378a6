"""pass@k from verdicts: the unbiased estimator, its standard error, the tally of a run per
problem and per difficulty, the failures' verdict mix, and two runs paired per problem.

pass@k is the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language Models
Trained on Code", eq. 1): with n samples of which c pass, pass@k = 1 - C(n-c, k) / C(n, k),
computed as a product for numerical stability; it is defined for k <= n only. The overall
figure is the mean over problems; pass@k of a difficulty is the mean over its problems (APPS
reports its levels this way). A run is tallied one judged sample at a time (`Tally`), so a
million samples never sit in memory. Failures are counted by verdict (Wrong Answer, Runtime
Error, Time Limit Exceeded, Compile Error, ...); skipped samples count in neither.

The standard error of a mean over problems (`by_difficulty`) is the sample standard deviation
(ddof 1) of the per-problem estimates over the square root of the number of problems (None
with one problem): it covers which problems were drawn and each one's sampling noise, treating
the problems as independent draws. Two runs are compared paired per problem both scored
(`paired_pass_at_k`, codelog.uncertainty), not from their two standard errors.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from codelog.uncertainty import mean_and_stderr, paired

ALL = "all"
# The paper's APPS+ difficulties, easiest first; other difficulty names follow, sorted.
DIFFICULTY_ORDER = ("all", "introductory", "interview", "competition")


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass@k from n samples, c of them correct (needs k <= n):
    1 - C(n-c, k) / C(n, k) (Chen et al. 2021, eq. 1), as a product for numerical stability."""
    if not 0 <= c <= n or k < 1 or k > n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


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


@dataclass
class EvalResult:
    ks: tuple[int, ...]
    overall: dict[str, float]  # "pass@k" -> mean over problems
    per_problem: dict[str, dict[str, Any]]  # problem -> n, correct, pass@k, difficulty ...
    # one per sample (problem, index, completion, verdict ...) when held in memory
    # (score_samples); a `codelog eval` run streams them to samples.jsonl instead
    records: list[dict[str, Any]]
    isolation: str = ""
    seconds: float = 0.0
    skipped: dict[str, int] = field(default_factory=dict)
    samples: int = 0
    by_difficulty: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)  # verdict -> failed samples
    test_pass_rate: float | None = None  # with per-test rates (every test run)
    not_judged: dict[str, str] = field(default_factory=dict)  # problem -> why (no tests)
    comparison: dict[str, Any] | None = None  # against an earlier run (--compare)

    def summary(self) -> dict[str, Any]:
        """summary.json's figures: the same bytes for the same verdicts (no timings)."""
        out: dict[str, Any] = {
            "problems": len(self.per_problem),
            "samples": self.samples or len(self.records),
            "ks": list(self.ks),
            **self.overall,
        }
        if self.by_difficulty:
            out["by_difficulty"] = self.by_difficulty
        out["failures"] = self.failures
        if self.test_pass_rate is not None:
            out["test_pass_rate"] = self.test_pass_rate
        out["per_problem"] = self.per_problem
        out["skipped"] = self.skipped
        if self.not_judged:
            out["not_judged"] = self.not_judged
        out["isolation"] = self.isolation
        if self.comparison is not None:
            out["compared_with"] = self.comparison
        return out


def result_from_tally(
    tally: Tally,
    ks: Sequence[int],
    records: list[dict[str, Any]],
    seconds: float,
    per_test: bool = False,
) -> EvalResult:
    """The run's figures from its tally (`records`: the judged samples, when held)."""
    report = tally.report(ks, per_test)
    return EvalResult(
        ks=tuple(ks),
        overall=report["overall"],
        per_problem=report["per_problem"],
        records=records,
        isolation=tally.isolation,
        seconds=seconds,
        skipped=dict(sorted(tally.skipped.items())),
        samples=tally.samples,
        by_difficulty=report.get("by_difficulty", {}),
        failures=report["failures"],
        test_pass_rate=report.get("test_pass_rate"),
    )


def score_records(records: list[dict[str, Any]], ks: Sequence[int], seconds: float) -> EvalResult:
    """pass@k of judged samples held in memory (codelog.evaluation.judging.sample_record)."""
    tally = Tally()
    for record in records:
        tally.add(record)
    return result_from_tally(tally, ks, records, seconds)


def by_difficulty(
    per_problem: Mapping[str, Mapping[str, Any]], ks: Sequence[int]
) -> dict[str, dict[str, Any]]:
    """pass@k and its standard error over all problems ("all") and over each difficulty a
    problem's entry names (`difficulty`, as benchmarks with levels record it)."""
    groups: dict[str, list[Mapping[str, Any]]] = {"all": list(per_problem.values())}
    for entry in per_problem.values():
        level = entry.get("difficulty")
        if level:
            groups.setdefault(str(level), []).append(entry)
    figures: dict[str, dict[str, Any]] = {}
    for level in sorted(groups, key=difficulty_key):
        entries = groups[level]
        row: dict[str, Any] = {"problems": len(entries), "samples": sum(p["n"] for p in entries)}
        for k in ks:
            values = [p[f"pass@{k}"] for p in entries if f"pass@{k}" in p]
            mean, stderr = mean_and_stderr(values) if len(values) == len(entries) else (None, None)
            row[f"pass@{k}"], row[f"stderr@{k}"] = mean, stderr
        figures[level] = row
    return figures


def difficulty_key(level: str) -> tuple[int, str]:
    return (DIFFICULTY_ORDER.index(level), "") if level in DIFFICULTY_ORDER else (99, level)


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
