"""`codelog stats` of a repair dataset: trajectories, their lengths, and what follows what.

Definitions (DuckDB over the dataset's views; perturbed copies are left out of everything but
the overview, since their shown verdicts are not the judge's):
- trajectory length: the attempts of a kept trajectory, first attempt included (the
  `trajectories` view's `attempts`);
- transitions: for each repair row, the verdict of the last attempt in its context -> the
  verdict of its target (what the user's next attempt got); `followed_by_accepted` is the share
  of rows after a given verdict whose target is accepted (e.g. how often a WA was followed by AC).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codelog.dataset.open import open_dataset, read_manifest


@dataclass(frozen=True)
class Transition:
    before: str  # verdict of the last context attempt
    rows: int
    followed_by_accepted: int

    @property
    def share(self) -> float:
        return self.followed_by_accepted / self.rows if self.rows else 0.0


@dataclass(frozen=True)
class RepairStats:
    dataset: Path
    rows_in: int
    targets: int
    perturbed: int
    rejects: int
    trajectories: int
    problems: int
    lengths: dict[int, int]  # attempts per trajectory -> trajectories
    transitions: list[Transition]  # by the verdict before, most rows first
    reward_by_step: list[tuple[int, int, float, float]]  # step, rows, mean reward, share improved


def compute_repair_stats(dataset: str | Path) -> RepairStats:
    root = Path(dataset).resolve()
    read_manifest(root)
    con = open_dataset(root)
    try:

        def one(query: str) -> tuple:
            return con.sql(query).fetchall()[0]

        targets, perturbed, problems = one(
            "SELECT count(*) FILTER (WHERE NOT perturbed), count(*) FILTER (WHERE perturbed), "
            "count(DISTINCT problem_id) FROM repairs"
        )
        rejects = one("SELECT count(*) FROM rejects")[0]
        lengths = dict(
            con.sql("SELECT attempts, count(*) FROM trajectories GROUP BY 1 ORDER BY 1").fetchall()
        )
        transitions = [
            Transition(before, n, accepted)
            for before, n, accepted in con.sql(
                """SELECT context[len(context)].outcome AS before, count(*),
                          count(*) FILTER (WHERE is_correct)
                   FROM repairs WHERE NOT perturbed GROUP BY 1 ORDER BY 2 DESC, 1"""
            ).fetchall()
        ]
        by_step = con.sql(
            """SELECT step, count(*), avg(reward), avg((reward_improve > 0)::INT)
               FROM repairs WHERE NOT perturbed GROUP BY 1 ORDER BY 1"""
        ).fetchall()
    finally:
        con.close()
    return RepairStats(
        dataset=root,
        rows_in=targets + rejects,
        targets=targets,
        perturbed=perturbed,
        rejects=rejects,
        trajectories=sum(lengths.values()),
        problems=problems,
        lengths={int(k): int(v) for k, v in lengths.items()},
        transitions=transitions,
        reward_by_step=[(int(s), int(n), float(r), float(i)) for s, n, r, i in by_step],
    )


def render_repair_tables(stats: RepairStats) -> list:
    """The stats as rich renderables, in reading order."""
    from rich.text import Text

    from codelog.dataset.stats import table

    overview = table("overview", "what", "rows")
    for what, n in (
        ("rows in", stats.rows_in),
        ("repair targets", stats.targets),
        ("perturbed copies", stats.perturbed),
        ("rejects", stats.rejects),
        ("trajectories", stats.trajectories),
        ("problems", stats.problems),
    ):
        overview.add_row(what, f"{n:,}")

    lengths = table("trajectory length (attempts)", "attempts", "trajectories", "")
    widest = max(stats.lengths.values(), default=0)
    for n, count in sorted(stats.lengths.items()):
        lengths.add_row(str(n), f"{count:,}", "█" * round(30 * count / widest) if widest else "")

    follows = table(
        "what the next attempt got (last verdict in context -> target)",
        "verdict before",
        "rows",
        "next accepted",
        "share",
    )
    for t in stats.transitions:
        follows.add_row(t.before, f"{t.rows:,}", f"{t.followed_by_accepted:,}", f"{t.share:.1%}")

    steps = table("reward by step", "step", "rows", "mean reward", "improved")
    for step, n, reward, improved in stats.reward_by_step:
        steps.add_row(str(step), f"{n:,}", f"{reward:+.3f}", f"{improved:.1%}")
    heading = Text(f"codelog stats — {stats.dataset} (repairs)", style="bold")
    return [heading, overview, lengths, follows, steps]


def repair_stats_data(stats: RepairStats) -> dict[str, Any]:
    """The stats as plain data (`codelog stats --json`)."""
    return dataclasses.asdict(stats)
