"""`codelog verify`: check a dataset directory against its manifest and the dataset invariants.

Two kinds of check, and every failure is reported (not just the first):
- files: each file the manifest lists exists, has its size, sha256 and row count, and no
  unlisted file sits beside them;
- invariants, recomputed from the tables themselves: rows in = solutions + rejects and the
  per-reason counts match the rejects table; every group has enough correct and incorrect
  solutions and at most the recipe's cap of correct ones; no two solutions of a problem share
  a dedup key; no submission id is in two places; rewards are the recipe's.
A bit flip is caught by the hashes; a consistent rewrite (table and manifest edited together)
by the invariants.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from codelog.dataset.open import MANIFEST, TABLES, open_dataset, read_manifest
from codelog.files import sha256_file
from codelog.sql import literal


@dataclass
class VerifyReport:
    path: Path
    files_checked: int = 0
    rows_checked: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def verify_dataset(path: str | Path) -> VerifyReport:
    """Check every file and invariant of the dataset at `path` (DatasetError if no manifest)."""
    root = Path(path).resolve()
    manifest = read_manifest(root)
    report = VerifyReport(root)
    readable = _check_files(root, manifest, report)
    if all(t in readable for t in TABLES):
        _check_invariants(root, manifest, report)
    else:
        missing = ", ".join(t for t in TABLES if t not in readable)
        report.mismatches.append(f"invariants not checked: cannot read {missing}")
    return report


def _check_files(root: Path, manifest: dict[str, Any], report: VerifyReport) -> set[str]:
    """Hashes, sizes and row counts; returns the tables whose Parquet files can be read."""
    files: dict[str, dict[str, Any]] = manifest.get("files") or {}
    bad = report.mismatches.append
    if not files:
        bad(f"{MANIFEST}: lists no files")
    for table in TABLES:
        if f"{table}.parquet" not in files:
            bad(f"{MANIFEST}: does not list {table}.parquet")
    present = {p.name for p in root.iterdir()}
    for name in sorted(present - set(files) - {MANIFEST}):
        bad(f"{name}: not listed in the manifest")
    readable = set()
    for name, entry in files.items():
        file = root / name
        if not file.is_file():
            bad(f"{name}: listed in the manifest but missing")
            continue
        report.files_checked += 1
        size = file.stat().st_size
        if size != entry.get("bytes"):
            bad(f"{name}: {size} bytes, manifest says {entry.get('bytes')}")
        digest = sha256_file(file)
        if digest != entry.get("sha256"):
            bad(f"{name}: sha256 {digest[:16]}…, manifest says {str(entry.get('sha256'))[:16]}…")
        if not name.endswith(".parquet"):
            continue
        try:
            rows = pq.ParquetFile(file).metadata.num_rows
        except Exception as exc:  # pyarrow raises several types for a corrupt footer
            bad(f"{name}: not a readable Parquet file: {exc}")
            continue
        if rows != entry.get("rows"):
            bad(f"{name}: {rows} rows, manifest says {entry.get('rows')}")
        try:
            pq.read_table(file)  # decodes every page: a flipped byte in the data shows here
        except Exception as exc:
            bad(f"{name}: cannot be decoded: {exc}")
            continue
        readable.add(name.removesuffix(".parquet"))
    return readable


# Each invariant: (what it says, query returning offending rows as (description,) tuples).
def _invariant_queries(recipe: dict[str, Any]) -> list[tuple[str, str]]:
    grouping = recipe.get("grouping", {})
    min_correct = int(grouping.get("min_correct", 1))
    min_incorrect = int(grouping.get("min_incorrect", 1))
    cap = int(grouping.get("max_correct_per_problem", 50))
    dedup = grouping.get("dedup", "ast")
    queries = [
        (
            f"every group has >= {min_correct} correct and >= {min_incorrect} incorrect solutions",
            f"""SELECT problem_id || '/' || language || ': ' || n_correct || ' correct, '
                       || n_incorrect || ' incorrect'
                FROM groups
                WHERE n_correct < {min_correct} OR n_incorrect < {min_incorrect}""",
        ),
        (
            f"at most {cap} correct solutions per problem",
            f"""SELECT problem_id || '/' || language || ': ' || n_correct || ' correct'
                FROM groups WHERE n_correct > {cap}""",
        ),
        (
            "no submission id in two places",
            """SELECT submission_id || ' appears ' || count(*) || ' times (' ||
                      string_agg(place, ', ' ORDER BY place) || ')'
               FROM (SELECT submission_id, 'solutions' AS place FROM solutions
                     UNION ALL
                     SELECT submission_id, 'rejects:' || reason FROM rejects
                     -- a duplicate_submission_id reject repeats its id by definition, and a
                     -- malformed row's id is a best guess from a line that could not be read
                     WHERE reason NOT IN ('duplicate_submission_id', 'malformed_row'))
               WHERE submission_id IS NOT NULL
               GROUP BY submission_id HAVING count(*) > 1""",
        ),
        (
            "is_correct is outcome = accepted",
            """SELECT submission_id || ': outcome ' || coalesce(outcome, 'NULL')
                      || ', is_correct ' || coalesce(is_correct::VARCHAR, 'NULL')
               FROM solutions
               WHERE is_correct IS DISTINCT FROM (outcome = 'accepted')""",
        ),
        (
            "every solution's reward is the recipe's reward of its outcome",
            """SELECT s.submission_id || ': reward ' || coalesce(s.reward::VARCHAR, 'NULL')
                      || ' for ' || coalesce(s.outcome, 'NULL') || ', recipe says '
                      || coalesce(r.reward::VARCHAR, 'nothing')
               FROM solutions s LEFT JOIN recipe_rewards r USING (outcome)
               WHERE s.reward IS DISTINCT FROM r.reward""",
        ),
        (
            "a solution's split is its problem's split",
            """SELECT DISTINCT s.problem_id || ': solutions say ' || coalesce(s.split, 'NULL')
                      || ', problems says ' || coalesce(p.split, 'NULL')
               FROM solutions s LEFT JOIN problems p USING (problem_id)
               WHERE s.split IS DISTINCT FROM p.split""",
        ),
        (
            "every problem with solutions is in the problems table",
            """SELECT DISTINCT problem_id || ' has solutions but no problems row'
               FROM solutions WHERE problem_id NOT IN (SELECT problem_id FROM problems)""",
        ),
    ]
    key = {"ast": "ast_hash", "exact": "code"}.get(dedup)
    if key is not None:
        queries.append(
            (
                f"no two solutions of a problem share a {key} (dedup = {dedup})",
                f"""SELECT problem_id || '/' || language || ': ' || count(*)
                          || ' solutions share a {key} (' || string_agg(submission_id, ', '
                          ORDER BY submission_id) || ')'
                   FROM solutions GROUP BY problem_id, language, dialect, {key}
                   HAVING count(*) > 1""",
            )
        )
    return queries


def _check_invariants(root: Path, manifest: dict[str, Any], report: VerifyReport) -> None:
    bad = report.mismatches.append
    con = open_dataset(root)  # the same views users query
    recipe = manifest.get("recipe") or {}
    rewards = recipe.get("rewards") or {}
    con.execute("CREATE TABLE recipe_rewards (outcome VARCHAR, reward DOUBLE)")
    if rewards:
        con.executemany("INSERT INTO recipe_rewards VALUES (?, ?)", list(rewards.items()))

    def scalar(query: str) -> Any:
        return con.execute(query).fetchall()[0][0]

    counts = manifest.get("counts") or {}
    solutions = scalar("SELECT count(*) FROM solutions")
    rejects = scalar("SELECT count(*) FROM rejects")
    report.rows_checked = solutions + rejects
    by_reason = dict(con.execute("SELECT reason, count(*) FROM rejects GROUP BY 1").fetchall())
    outcomes = dict(con.execute("SELECT outcome, count(*) FROM solutions GROUP BY 1").fetchall())
    groups = scalar("SELECT count(*) FROM groups")
    expect: list[tuple[str, Any, Any]] = [
        ("rows_in = solutions + rejects", counts.get("rows_in"), solutions + rejects),
        ("solutions", counts.get("solutions"), solutions),
        ("rejects", counts.get("rejects"), rejects),
        ("groups", counts.get("groups"), groups),
    ]
    for what, claimed, actual in expect:
        if claimed != actual:
            bad(
                f"counts: manifest {what.split(' ')[0]} is {claimed}, tables give {actual} ({what})"
            )
    _compare_counts("rejects_by_reason", counts.get("rejects_by_reason"), by_reason, bad)
    _compare_counts("outcomes", counts.get("outcomes"), outcomes, bad)
    for split, name in sorted(((manifest.get("split") or {}).get("files") or {}).items()):
        copy = f"read_parquet({literal(root / name)})"
        table = f"(SELECT * FROM solutions WHERE split = {literal(split)})"
        differ = scalar(
            f"SELECT count(*) FROM ((FROM {table} EXCEPT ALL FROM {copy}) "
            f"UNION ALL (FROM {copy} EXCEPT ALL FROM {table}))"
        )
        if differ:
            bad(f"{name}: {differ} rows differ from the solutions of split {split!r}")
    for rule, query in _invariant_queries(recipe):
        offenders = [row[0] for row in con.execute(query).fetchall()]
        for offender in offenders[:20]:
            bad(f"invariant '{rule}' broken: {offender}")
        if len(offenders) > 20:
            bad(f"invariant '{rule}' broken by {len(offenders) - 20} more")
    con.close()


def _compare_counts(
    name: str, claimed: dict[str, int] | None, actual: dict[str, int], bad: Callable[[str], None]
) -> None:
    claimed = claimed or {}
    for key in sorted(set(claimed) | set(actual), key=str):
        if claimed.get(key, 0) != actual.get(key, 0):
            bad(
                f"counts: manifest {name}[{key}] is {claimed.get(key, 0)}, "
                f"tables give {actual.get(key, 0)}"
            )
