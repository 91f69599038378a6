"""`codelog stats`: what a built dataset holds, as plain data; tables and figures are views of it.

Everything is computed by DuckDB over the dataset's views, so it runs out-of-core on a full
CodeNet build. Definitions:
- outcome mix: kept solutions per outcome, and the submissions they stand for (sum of dup_count).
- group sizes: solutions per group (problem, language), in power-of-two buckets 2, 3-4, 5-8, ...
- dedup: submissions that reached the dedup step (kept, or rejected as duplicate / verdict
  conflict / over the correct cap / without contrast, all decided after normalisation) against
  the distinct programs among them. Rows rejected before dedup (missing source, unknown status,
  ...) do not count. Under `on_conflict = "per_outcome"` a program kept once per outcome counts
  once per outcome.
- verdict conflicts: programs whose copies the judge gave different outcomes, and their
  copies, as the build counted them (the manifest); None for a dataset built before they were.
- code length: UTF-8 bytes of each solution's code, percentiles interpolated linearly
  (DuckDB quantile_cont, numpy's default method).
- by outcome: per outcome, the median code length in bytes and lines, and when the dataset
  was built with `[lint] enabled` the Ruff profile (codelog.stage.lint): findings per
  solution, the share without any, findings per severity and the commonest rule codes. The
  RLVR + Ruff seed warns that lint-only rewards shorten code: this table shows where length
  and lint go together in the data a reward is built from.
- split: problems and solutions per split, and the near-duplicate check across it: solutions
  of test problems whose canonical form (ast_hash) is also a solution of a train problem. Such
  a program is in the training data under another problem's id, so a model can get it right on
  the test problem from memory (same program, another problem: usually a near-identical task).
- dialects: solutions per dialect (python2 / python3; "none" for languages without dialects).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from codelog.dataset.open import check_dataset, open_dataset
from codelog.errors import CodelogError

# Reject reasons decided at or after the dedup step (codelog.group.grouping): their rows were scorable
# submissions that took part in dedup, unlike rows rejected while reading or normalising.
DEDUP_STAGE_REASONS = ("duplicate", "verdict_conflict", "correct_cap", "no_contrast")
PERCENTILES = (5, 25, 50, 75, 95)


@dataclass(frozen=True)
class OutcomeCount:
    outcome: str
    reward: float
    solutions: int
    submissions: int  # sum of dup_count: the input rows these solutions stand for
    share: float  # of all solutions


@dataclass(frozen=True)
class SizeBucket:
    low: int  # group sizes low..high, inclusive
    high: int
    groups: int


@dataclass(frozen=True)
class RejectCount:
    reason: str
    rows: int
    share: float  # of all input rows


@dataclass(frozen=True)
class Dedup:
    mode: str  # recipe [grouping] dedup: ast, exact or none
    submissions: int  # rows that reached the dedup step
    programs: int  # distinct programs among them
    duplicates: int  # rows rejected as a duplicate of a kept program

    @property
    def ratio(self) -> float:
        """Submissions per distinct program (1.0: no duplicates)."""
        return self.submissions / self.programs if self.programs else 0.0

    @property
    def removed_share(self) -> float:
        return self.duplicates / self.submissions if self.submissions else 0.0


@dataclass(frozen=True)
class VerdictConflicts:
    programs: int  # programs whose copies carry different outcomes
    submissions: int  # their copies
    policy: str  # recipe [grouping] on_conflict: drop, earliest or per_outcome


@dataclass(frozen=True)
class LengthPercentiles:
    subset: str  # "all", "correct" or "incorrect"
    solutions: int
    percentiles: dict[int, float]  # percentile -> bytes
    max: int


@dataclass(frozen=True)
class OutcomeProfile:
    outcome: str
    solutions: int
    median_bytes: float
    median_lines: float
    # the Ruff profile; None when the dataset has no lint columns
    findings_mean: float | None = None
    clean_share: float | None = None  # solutions without a finding
    severity_mean: dict[str, float] | None = None  # error / warning / style, per solution
    top_codes: list[tuple[str, int]] | None = None  # commonest rule codes, with counts


@dataclass(frozen=True)
class LeakExample:
    test_problem: str
    test_submission: str
    outcome: str
    train_problem: str  # the first train problem (by id) with the same program
    train_submission: str


@dataclass(frozen=True)
class SplitStats:
    problems: dict[str, int]  # train / test -> problems
    solutions: dict[str, int]  # train / test -> solutions
    shared_programs: int  # test solutions whose ast_hash is also a train problem's solution
    examples: list[LeakExample]  # the first few, by test problem and submission

    @property
    def shared_share(self) -> float:
        """Of the test problems' solutions."""
        test = self.solutions.get("test", 0)
        return self.shared_programs / test if test else 0.0


LEAK_EXAMPLES = 5


@dataclass(frozen=True)
class Stats:
    dataset: Path
    rows_in: int
    solutions: int
    rejects: int
    groups: int
    outcome_mix: list[OutcomeCount]
    group_sizes: list[SizeBucket]
    group_size_median: float
    rejects_by_reason: list[RejectCount]
    dedup: Dedup
    verdict_conflicts: VerdictConflicts | None
    code_length: list[LengthPercentiles]
    by_outcome: list[OutcomeProfile] = field(default_factory=list)
    split: SplitStats | None = None  # None: a dataset from before splits
    dialects: dict[str, int] | None = None  # dialect ("none": no dialect) -> solutions
    # the build's [decontaminate] check as the manifest records it; None: never checked
    decontamination: dict[str, Any] | None = None


def size_bucket(n: int) -> tuple[int, int]:
    """The power-of-two bucket (low, high) holding group size n: 2, 3-4, 5-8, 9-16, ..."""
    if n <= 1:
        return (n, n)
    k = (n - 1).bit_length()  # smallest k with n <= 2**k
    return (2 ** (k - 1) + 1, 2**k)


def compute_stats(dataset: str | Path) -> Stats:
    root = Path(dataset).resolve()
    manifest = check_dataset(root)
    con = open_dataset(root)
    try:
        return _compute(con, root, manifest)
    finally:
        con.close()


def _one(con: duckdb.DuckDBPyConnection, query: str) -> tuple:
    return con.sql(query).fetchall()[0]


def _compute(con: duckdb.DuckDBPyConnection, root: Path, manifest: dict) -> Stats:
    grouping, counts = manifest["recipe"]["grouping"], manifest["counts"]
    conflicts = (
        VerdictConflicts(
            counts["verdict_conflicts"],
            counts["verdict_conflict_submissions"],
            grouping.get("on_conflict", "earliest"),
        )
        if "verdict_conflicts" in counts
        else None
    )
    n_solutions = _one(con, "SELECT count(*) FROM solutions")[0]
    n_rejects = _one(con, "SELECT count(*) FROM rejects")[0]
    rows_in = n_solutions + n_rejects

    outcome_mix = [
        OutcomeCount(outcome, reward, n, int(subs), n / n_solutions if n_solutions else 0.0)
        for outcome, reward, n, subs in con.sql(
            "SELECT outcome, any_value(reward), count(*), sum(dup_count)::BIGINT FROM solutions "
            "GROUP BY outcome ORDER BY count(*) DESC, outcome"
        ).fetchall()
    ]

    sizes = con.sql("SELECT n_solutions, count(*) FROM groups GROUP BY 1 ORDER BY 1").fetchall()
    n_groups = sum(count for _, count in sizes)
    group_sizes = _bucketed(sizes)
    median = _one(con, "SELECT coalesce(median(n_solutions), 0) FROM groups")[0]

    rejects_by_reason = [
        RejectCount(reason, n, n / rows_in if rows_in else 0.0)
        for reason, n in con.sql(
            "SELECT reason, count(*) FROM rejects GROUP BY 1 ORDER BY 2 DESC, 1"
        ).fetchall()
    ]
    by_reason = {r.reason: r.rows for r in rejects_by_reason}
    duplicates = by_reason.get("duplicate", 0)
    reached = n_solutions + sum(by_reason.get(r, 0) for r in DEDUP_STAGE_REASONS)
    # dropped conflicting copies stand for one program each, not one per copy
    dropped = by_reason.get("verdict_conflict", 0)
    folded = dropped - conflicts.programs if dropped and conflicts else 0
    dedup = Dedup(grouping["dedup"], reached, reached - duplicates - folded, duplicates)

    code_length = []
    quantiles = ", ".join(f"quantile_cont(strlen(code), {p / 100})" for p in PERCENTILES)
    for subset, where in (
        ("all", "true"),
        ("correct", "is_correct"),
        ("incorrect", "NOT is_correct"),
    ):
        n, longest, *values = _one(
            con,
            f"SELECT count(code), coalesce(max(strlen(code)), 0), {quantiles} "
            f"FROM solutions WHERE {where}",
        )
        code_length.append(
            LengthPercentiles(
                subset,
                n,
                {
                    p: float(v) if v is not None else 0.0
                    for p, v in zip(PERCENTILES, values, strict=True)
                },
                int(longest),
            )
        )

    columns = {r[0] for r in con.sql("DESCRIBE solutions").fetchall()}
    return Stats(
        decontamination=manifest.get("decontamination"),
        by_outcome=_by_outcome(con),
        split=_split_stats(con) if "split" in columns else None,
        dialects=dict(
            con.sql(
                "SELECT coalesce(dialect, 'none'), count(*) FROM solutions GROUP BY 1 ORDER BY 2 DESC, 1"
            ).fetchall()
        )
        if "dialect" in columns
        else None,
        dataset=root,
        rows_in=rows_in,
        solutions=n_solutions,
        rejects=n_rejects,
        groups=n_groups,
        outcome_mix=outcome_mix,
        group_sizes=group_sizes,
        group_size_median=float(median),
        rejects_by_reason=rejects_by_reason,
        dedup=dedup,
        verdict_conflicts=conflicts,
        code_length=code_length,
    )


def _by_outcome(con: duckdb.DuckDBPyConnection) -> list[OutcomeProfile]:
    columns = {row[0] for row in con.sql("DESCRIBE solutions").fetchall()}
    linted = "lint_codes" in columns
    lint = (
        ", avg(lint_findings), avg((lint_findings = 0)::INT), avg(lint_error), "
        "avg(lint_warning), avg(lint_style)"
        if linted
        else ""
    )
    profiles = []
    for outcome, n, nbytes, nlines, *values in con.sql(
        f"""SELECT outcome, count(*), median(strlen(code)),
                   median(len(string_split(rtrim(code, chr(10)), chr(10)))){lint}
            FROM solutions GROUP BY outcome ORDER BY count(*) DESC, outcome"""
    ).fetchall():
        profile = OutcomeProfile(outcome, n, float(nbytes or 0), float(nlines or 0))
        if linted:
            findings, clean, error, warning, style = (float(v or 0) for v in values)
            top = con.sql(
                "SELECT c, count(*) FROM (SELECT unnest(lint_codes) AS c FROM solutions "
                "WHERE outcome = $1) GROUP BY c ORDER BY count(*) DESC, c LIMIT 3",
                params=[outcome],
            ).fetchall()
            profile = OutcomeProfile(
                outcome,
                n,
                profile.median_bytes,
                profile.median_lines,
                findings,
                clean,
                {"error": error, "warning": warning, "style": style},
                [(c, int(k)) for c, k in top],
            )
        profiles.append(profile)
    return profiles


def _split_stats(con: duckdb.DuckDBPyConnection) -> SplitStats:
    problems = {"train": 0, "test": 0}
    problems.update(con.sql("SELECT split, count(*) FROM problems GROUP BY 1").fetchall())
    solutions = {"train": 0, "test": 0}
    solutions.update(con.sql("SELECT split, count(*) FROM solutions GROUP BY 1").fetchall())
    shared = """
        WITH train AS (
            SELECT ast_hash, language, min(problem_id) AS train_problem,
                   arg_min(submission_id, (problem_id, submission_id)) AS train_submission
            FROM solutions WHERE split = 'train' AND ast_hash IS NOT NULL
            GROUP BY ast_hash, language
        )
        SELECT t.problem_id, t.submission_id, t.outcome, r.train_problem, r.train_submission
        FROM solutions t JOIN train r USING (ast_hash, language)
        WHERE t.split = 'test'
        ORDER BY t.problem_id, t.submission_id
    """
    n = _one(con, f"SELECT count(*) FROM ({shared})")[0]
    examples = [LeakExample(*row) for row in con.sql(f"{shared} LIMIT {LEAK_EXAMPLES}").fetchall()]
    return SplitStats(problems, solutions, n, examples)


def _bucketed(sizes: list[tuple[int, int]]) -> list[SizeBucket]:
    """Every bucket from the smallest to the largest group size, empty ones included, so the
    histogram's shape is not hidden by missing bars."""
    if not sizes:
        return []
    counts: dict[tuple[int, int], int] = {}
    for n, groups in sizes:
        bucket = size_bucket(n)
        counts[bucket] = counts.get(bucket, 0) + groups
    buckets = []
    low, high = size_bucket(sizes[0][0])
    last = size_bucket(sizes[-1][0])
    while True:
        buckets.append(SizeBucket(low, high, counts.get((low, high), 0)))
        if (low, high) == last:
            return buckets
        low, high = size_bucket(high + 1)


# -- presentation ------------------------------------------------------------------------------


def table(title: str, *columns: str) -> Any:
    """A rich table of the stats' look: the title left, the first column left, the rest right
    (the solutions' and the repairs' stats)."""
    from rich.table import Table

    t = Table(title=title, title_justify="left", header_style="bold")
    for i, name in enumerate(columns):
        t.add_column(name, justify="left" if i == 0 else "right")
    return t


def render_tables(stats: Stats) -> list:
    """The stats as rich renderables (a heading, then tables), in reading order."""
    from rich.text import Text

    heading = Text(f"codelog stats — {stats.dataset}", style="bold")
    return [
        heading,
        _overview_table(stats),
        _outcomes_table(stats),
        _sizes_table(stats),
        _rejects_table(stats),
        _dedup_table(stats),
        _lengths_table(stats),
        _profile_table(stats),
        *_dialect_and_split_tables(stats),
        _decontamination_table(stats),
    ]


def _overview_table(stats: Stats) -> Any:
    overview = table("overview", "what", "rows")
    overview.add_row("rows in", f"{stats.rows_in:,}")
    overview.add_row("solutions", f"{stats.solutions:,}")
    overview.add_row("rejects", f"{stats.rejects:,}")
    overview.add_row("groups", f"{stats.groups:,}")
    return overview


def _outcomes_table(stats: Stats) -> Any:
    outcomes = table(
        "outcome mix (solutions)", "outcome", "reward", "solutions", "share", "submissions"
    )
    for o in stats.outcome_mix:
        outcomes.add_row(
            o.outcome,
            f"{o.reward:+.2f}",
            f"{o.solutions:,}",
            f"{o.share:.1%}",
            f"{o.submissions:,}",
        )
    return outcomes


def _sizes_table(stats: Stats) -> Any:
    sizes = table(
        f"group sizes (solutions per group; median {stats.group_size_median:g})",
        "size",
        "groups",
        "",
    )
    widest = max((b.groups for b in stats.group_sizes), default=0)
    for b in stats.group_sizes:
        label = str(b.low) if b.low == b.high else f"{b.low}-{b.high}"
        bar = "█" * round(30 * b.groups / widest) if widest else ""
        sizes.add_row(label, f"{b.groups:,}", bar)
    return sizes


def _rejects_table(stats: Stats) -> Any:
    rejects = table("rejects by reason", "reason", "rows", "share of rows in")
    for r in stats.rejects_by_reason:
        rejects.add_row(r.reason, f"{r.rows:,}", f"{r.share:.1%}")
    if not stats.rejects_by_reason:
        rejects.add_row("(none)", "0", "")
    return rejects


def _dedup_table(stats: Stats) -> Any:
    d = stats.dedup
    dedup = table(f"dedup ({d.mode})", "what", "value")
    dedup.add_row("submissions reaching dedup", f"{d.submissions:,}")
    dedup.add_row("distinct programs", f"{d.programs:,}")
    dedup.add_row("duplicates removed", f"{d.duplicates:,} ({d.removed_share:.1%})")
    dedup.add_row("submissions per program", f"{d.ratio:.2f}")
    v = stats.verdict_conflicts
    dedup.add_row(
        "verdict conflicts (programs)",
        "not recorded"
        if v is None
        else f"{v.programs:,} ({v.submissions:,} submissions; on_conflict {v.policy})",
    )
    return dedup


def _lengths_table(stats: Stats) -> Any:
    lengths = table(
        "code length (bytes)",
        "solutions",
        "n",
        *(f"p{p}" for p in PERCENTILES),
        "max",
    )
    for c in stats.code_length:
        lengths.add_row(
            c.subset,
            f"{c.solutions:,}",
            *(f"{c.percentiles[p]:,.0f}" for p in PERCENTILES),
            f"{c.max:,}",
        )
    return lengths


def _profile_table(stats: Stats) -> Any:
    """Code length by outcome, and the lint findings where the recipe linted."""
    linted = any(p.findings_mean is not None for p in stats.by_outcome)
    profile = table(
        "code length and lint by outcome" if linted else "code length by outcome",
        "outcome",
        "n",
        "median bytes",
        "median lines",
        *(("findings", "clean", "error/warn/style", "top rule codes") if linted else ()),
    )
    for p in stats.by_outcome:
        cells = [p.outcome, f"{p.solutions:,}", f"{p.median_bytes:,.0f}", f"{p.median_lines:,.0f}"]
        if linted and p.severity_mean is not None:
            sev = p.severity_mean
            cells += [
                f"{p.findings_mean:.2f}",
                f"{p.clean_share:.0%}",
                f"{sev['error']:.2f}/{sev['warning']:.2f}/{sev['style']:.2f}",
                ", ".join(f"{c} {k}" for c, k in p.top_codes or []),
            ]
        profile.add_row(*cells)
    return profile


def _dialect_and_split_tables(stats: Stats) -> list:
    """The dialects and the split, where the dataset has them; the first programs shared
    between a test and a train problem."""
    extra = []
    if stats.dialects is not None:
        dialects = table("dialects (solutions)", "dialect", "solutions")
        for dialect, n in stats.dialects.items():
            dialects.add_row(dialect, f"{n:,}")
        extra.append(dialects)
    if stats.split is not None:
        sp = stats.split
        split = table("split (by problem)", "split", "problems", "solutions")
        for name in ("train", "test"):
            split.add_row(name, f"{sp.problems.get(name, 0):,}", f"{sp.solutions.get(name, 0):,}")
        split.add_row(
            "test solutions sharing a program with train",
            "",
            f"{sp.shared_programs:,} ({sp.shared_share:.1%})",
        )
        extra.append(split)
        if sp.examples:
            shared = table(
                "same program under a test and a train problem (first "
                f"{len(sp.examples)} of {sp.shared_programs:,})",
                "test problem",
                "test submission",
                "outcome",
                "train problem",
                "train submission",
            )
            for e in sp.examples:
                shared.add_row(
                    e.test_problem,
                    e.test_submission,
                    e.outcome,
                    e.train_problem,
                    e.train_submission,
                )
            extra.append(shared)
    return extra


def _decontamination_table(stats: Stats) -> Any:
    """What the build checked against (codelog.group.decontaminate), or that it never did."""
    from rich.text import Text

    d = stats.decontamination
    if d is None:
        return Text(
            "decontamination: never checked against a benchmark (codelog build "
            "--decontaminate BENCH,...; docs/contamination.md)",
            style="yellow",
        )
    counts = d["counts"]
    out = table(
        f"decontamination (action {d['action']}; threshold {d['rule']['threshold']}, "
        f"{d['rule']['ngram']}-grams): {counts['problems']:,} problems, {counts['rows']:,} rows",
        "benchmark",
        "problems checked",
        "sha256",
        "contaminated problems",
    )
    for b in d["benchmarks"]:
        found = counts["problems_by_benchmark"].get(b["benchmark"], 0)
        out.add_row(b["spec"], f"{b['problems']:,}", b["sha256"][:16], f"{found:,}")
    return out


def stats_data(stats: Stats) -> dict[str, Any]:
    """The stats as plain data (`codelog stats --json`): the dataclasses, plus the dedup ratio."""
    data = dataclasses.asdict(stats)
    data["dataset"] = str(stats.dataset)
    data["dedup"].update(ratio=stats.dedup.ratio, removed_share=stats.dedup.removed_share)
    return data


def require_plotting() -> None:
    """A clear error, before any work, when the `plot` extra is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CodelogError(
            "--plot needs matplotlib, which is not installed: pip install 'codelog[plot]'"
        ) from None


def plot_stats(stats: Stats, path: str | Path) -> Path:
    """The same numbers as figures, one panel each, saved to `path` (PNG, SVG, PDF by suffix)."""
    require_plotting()
    import matplotlib

    matplotlib.use("Agg")  # files only: never needs a display
    import matplotlib.pyplot as plt

    path = Path(path)
    fig, axes = plt.subplots(2, 3, figsize=(15, 8.5), constrained_layout=True)
    fig.suptitle(
        f"{stats.dataset.name}: {stats.solutions:,} solutions in {stats.groups:,} groups, "
        f"{stats.rejects:,} rejects"
    )

    ax = axes[0, 0]
    bars = ax.bar(
        [o.outcome for o in stats.outcome_mix],
        [o.solutions for o in stats.outcome_mix],
        color=["tab:green" if o.outcome == "accepted" else "tab:red" for o in stats.outcome_mix],
    )
    ax.set_title("outcome mix")
    ax.bar_label(bars, fmt="{:,.0f}")  # counts on the bars: a 1-row bar stays readable
    ax.set_ylabel("solutions")
    ax.tick_params(axis="x", rotation=45)

    ax = axes[0, 1]
    labels = [str(b.low) if b.low == b.high else f"{b.low}-{b.high}" for b in stats.group_sizes]
    bars = ax.bar(labels, [b.groups for b in stats.group_sizes], color="tab:blue")
    ax.set_title(f"group sizes (median {stats.group_size_median:g})")
    ax.bar_label(bars, fmt="{:,.0f}")  # counts on the bars: a 1-row bar stays readable
    ax.set_xlabel("solutions per group")
    ax.set_ylabel("groups")

    ax = axes[0, 2]
    reasons = stats.rejects_by_reason[::-1]  # largest on top
    bars = ax.barh([r.reason for r in reasons], [r.rows for r in reasons], color="tab:gray")
    ax.set_title("rejects by reason")
    ax.margins(x=0.12)  # room for the count right of the longest bar
    ax.bar_label(bars, fmt="{:,.0f}")  # counts on the bars: a 1-row bar stays readable
    ax.set_xlabel("rows")

    ax = axes[1, 0]
    d = stats.dedup
    bars = ax.bar(
        ["submissions", "distinct programs"],
        [d.submissions, d.programs],
        color=["tab:gray", "tab:blue"],
    )
    ax.set_title(f"dedup ({d.mode}): {d.ratio:.2f} submissions per program")
    ax.bar_label(bars, fmt="{:,.0f}")  # counts on the bars: a 1-row bar stays readable

    ax = axes[1, 1]
    for c in stats.code_length:
        ax.plot(
            [f"p{p}" for p in PERCENTILES],
            [c.percentiles[p] for p in PERCENTILES],
            marker="o",
            label=f"{c.subset} (n={c.solutions:,})",
        )
    if all(v > 0 for c in stats.code_length for v in c.percentiles.values()):
        ax.set_yscale("log")  # lengths span orders of magnitude; log needs them positive
    ax.set_title("code length percentiles")
    ax.set_ylabel("bytes")
    ax.legend()

    ax = axes[1, 2]
    ax.axis("off")
    overview = (
        f"rows in     {stats.rows_in:>10,}\n"
        f"solutions   {stats.solutions:>10,}\n"
        f"rejects     {stats.rejects:>10,}\n"
        f"groups      {stats.groups:>10,}"
    )
    ax.text(0.05, 0.95, overview, family="monospace", va="top", fontsize=12)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
