"""`codelog verify`: check a dataset directory against its manifest and the dataset invariants.

Three kinds of check, and every failure is reported (not just the first):
- files: each data file the manifest lists exists, has its size, sha256 and row count, and no
  unlisted file sits beside them (hidden files, such as a hub upload's .gitattributes, are
  noted, not failed);
- invariants, recomputed from the tables themselves: rows in = solutions + rejects, the
  per-reason and per-status counts match the tables; every group has enough correct and
  incorrect solutions and at most the recipe's cap of correct ones; no two solutions of a
  problem share a dedup key; no submission id is in two places; rewards are the recipe's and
  finite;
- code: each solution's AST hash and syntax flag recomputed from its code (when this codelog
  hashes with the form and grammar version the manifest names).
A bit flip is caught by the hashes; a consistent rewrite (table and manifest edited together)
by the invariants and the code hashes. The card (README.md) is documentation that users and
`datasets-cli test --save_info` edit: it is reported as "edited", never failed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq

from codelog import kinds
from codelog.dataset.open import MANIFEST, TABLES, open_dataset, read_manifest
from codelog.files import sha256_file
from codelog.progress import rate_progress
from codelog.publish.manifest import CARD
from codelog.sql import literal
from codelog.stage.ast_hash import hash_identity, parse_code

CODE_BATCH_ROWS = 2048


@dataclass
class VerifyReport:
    path: Path
    files_checked: int = 0
    rows_checked: int = 0
    code_hashes_checked: int = 0
    card: str = "as built"  # "as built", "edited" or "missing": never a mismatch
    mismatches: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # worth knowing, not failures

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "path": str(self.path), "ok": self.ok}


def verify_dataset(path: str | Path, *, progress: bool = False) -> VerifyReport:
    """Check every file, invariant and code hash of the dataset at `path` (DatasetError if it
    has no manifest). `progress`: a bar while the code hashes are recomputed."""
    root = Path(path).resolve()
    manifest = read_manifest(root)
    report = VerifyReport(root)
    kind = kinds.of_manifest(manifest)
    tables = kind.tables
    readable = _check_files(root, manifest, report, tables)
    if not all(t in readable for t in tables):
        missing = ", ".join(t for t in tables if t not in readable)
        report.mismatches.append(
            f"invariants not checked: cannot read {missing} (or it lacks columns)"
        )
    else:
        try:
            kind.part("dataset.verify")(root, manifest, report, progress)
        except duckdb.Error as exc:  # what the checks above let through and DuckDB cannot bind
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            report.mismatches.append(f"invariants not checked: {first[:300]}")
    return report


def _check_files(
    root: Path, manifest: dict[str, Any], report: VerifyReport, tables: tuple[str, ...] = TABLES
) -> set[str]:
    """Hashes, sizes and row counts; returns the tables whose Parquet files can be read."""
    files: dict[str, dict[str, Any]] = manifest.get("files") or {}
    bad = report.mismatches.append
    if not files:
        bad(f"{MANIFEST}: lists no files")
    for table in tables:
        if f"{table}.parquet" not in files:
            bad(f"{MANIFEST}: does not list {table}.parquet")
    present = {p.name for p in root.iterdir()}
    for name in sorted(present - set(files) - {MANIFEST}):
        if name.startswith("."):  # .gitattributes of a hub upload, editor files: not data
            report.notes.append(f"{name}: not part of the dataset (hidden file, not checked)")
        else:
            bad(f"{name}: not listed in the manifest")
    readable = set()
    for name, entry in files.items():
        file = root / name
        if name == CARD:
            _check_card(file, entry, report)
            continue
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
        missing = _missing_columns(name, pq.ParquetFile(file).schema_arrow.names)
        for column in missing:
            bad(f"{name}: column {column!r} is missing (dropped or renamed)")
        if not missing:
            readable.add(name.removesuffix(".parquet"))
    return readable


def _missing_columns(name: str, columns: list[str]) -> list[str]:
    """The columns of codelog's layout a table file (solutions.parquet, a split's copy of it,
    rejects, problems, repairs) lacks."""
    from codelog import schema

    layouts = {
        "solutions": schema.SOLUTION,
        "rejects": schema.REJECT,
        "problems": schema.PROBLEM,
        "repairs": schema.REPAIR,
    }
    table = next(
        (t for t in layouts if name == f"{t}.parquet" or name.startswith((f"{t}-", f"{t}."))),
        None,
    )
    if table is None:
        return []
    present = set(columns)
    return [c for c in layouts[table].names if c not in present]


def _check_card(file: Path, entry: dict[str, Any], report: VerifyReport) -> None:
    if not file.is_file():
        report.card = "missing"
        report.notes.append(f"{CARD}: missing (the card is documentation, not data)")
        return
    report.files_checked += 1
    if file.stat().st_size != entry.get("bytes") or sha256_file(file) != entry.get("sha256"):
        report.card = "edited"
        report.notes.append(f"{CARD}: edited since the build (the card is documentation, not data)")


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
            "every reward is finite",
            """SELECT submission_id || ': reward ' || reward::VARCHAR
               FROM solutions WHERE NOT isfinite(reward)""",
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
    queries += _lint_invariant_queries(recipe)
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


def _lint_invariant_queries(recipe: dict[str, Any]) -> list[tuple[str, str]]:
    """The lint columns (codelog.stage.lint) add up, and reward_lint is the [lint_reward] formula."""
    if not (recipe.get("lint") or {}).get("enabled"):
        return []
    queries = [
        (
            "lint_findings counts lint_codes, and each finding has one severity",
            """SELECT submission_id || ': ' || lint_findings || ' findings, ' || len(lint_codes)
                      || ' codes, ' || (lint_error + lint_warning + lint_style) || ' by severity'
               FROM solutions WHERE lint_findings IS DISTINCT FROM len(lint_codes)
                  OR lint_findings IS DISTINCT FROM lint_error + lint_warning + lint_style""",
        )
    ]
    shaping = recipe.get("lint_reward") or {}
    if shaping.get("enabled"):
        wanted = " OR ".join(
            "starts_with(c, '" + str(p).replace("'", "''") + "')"
            for p in shaping.get("categories", [])
        )
        penalty = (
            f"least({float(shaping.get('cap', 0))}, {float(shaping.get('weight', 0))} * "
            f"len(list_filter(lint_codes, lambda c: {wanted or 'FALSE'})))"
        )
        queries.append(
            (
                "reward_lint = reward - min(cap, weight * findings in the categories)",
                f"""SELECT submission_id || ': reward_lint ' || reward_lint || ', formula '
                          || (reward - {penalty})
                   FROM solutions WHERE abs(lint_penalty - {penalty}) > 1e-9
                      OR abs(reward_lint - (reward - {penalty})) > 1e-9""",
            )
        )
    return queries


def check_solutions(
    root: Path, manifest: dict[str, Any], report: VerifyReport, progress: bool
) -> None:
    """The solutions kind's checks (its files are checked already): invariants and counts
    recomputed from the tables, then every solution's code hash."""
    _check_invariants(root, manifest, report)
    _check_code_hashes(root, manifest, report, progress)


def _check_invariants(root: Path, manifest: dict[str, Any], report: VerifyReport) -> None:
    bad = report.mismatches.append
    con = open_dataset(root, check=False)  # the same views users query; files checked above
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
    statuses = {
        "null" if status is None else status: n  # JSON spells a None key "null"
        for status, n in con.execute(
            "SELECT status, count(*) FROM (SELECT status FROM solutions "
            "UNION ALL SELECT status FROM rejects) GROUP BY 1"
        ).fetchall()
    }
    _compare_counts("statuses_in", counts.get("statuses_in"), statuses, bad)
    for outcome, reward in rewards.items():
        if not (isinstance(reward, int | float) and math.isfinite(reward)):
            bad(f"recipe: reward of {outcome} is {reward!r}, not a finite number")
    for split, name in sorted(((manifest.get("split") or {}).get("files") or {}).items()):
        # the copies also carry each solution's `prompt` (rendered; not a solutions column)
        copy = (
            f"(SELECT COLUMNS(lambda c: c <> 'prompt') FROM read_parquet({literal(root / name)}))"
        )
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


def _check_code_hashes(
    root: Path, manifest: dict[str, Any], report: VerifyReport, progress: bool
) -> None:
    """Recompute every solution's AST hash and syntax flag from its code."""
    language = manifest.get("language") or ""
    built_with, ours = manifest.get("ast_hash"), hash_identity(language)
    if built_with is None or ours is None:
        report.notes.append(f"code hashes not recomputed: no grammar for {language!r}")
        return
    if built_with != ours:
        report.notes.append(
            f"code hashes not recomputed: built with {built_with}, this codelog hashes with {ours}"
        )
        return
    wrong: list[str] = []
    file = pq.ParquetFile(root / "solutions.parquet")
    columns = ["submission_id", "code", "ast_hash", "syntax_ok"]
    with rate_progress("solutions", disable=not progress) as bar:
        task = bar.add_task("code hashes", total=file.metadata.num_rows)
        for batch in file.iter_batches(CODE_BATCH_ROWS, columns=columns):
            for sid, code, ast_hash, syntax_ok in zip(
                *(batch.column(c).to_pylist() for c in columns), strict=True
            ):
                parsed = parse_code(code or "", language)
                if (parsed.ast_hash, parsed.syntax_ok) != (ast_hash, syntax_ok):
                    wrong.append(
                        f"{sid}: ast_hash {str(ast_hash)[:12]}… syntax_ok {syntax_ok}, its code "
                        f"gives {parsed.ast_hash[:12]}… syntax_ok {parsed.syntax_ok}"
                    )
            report.code_hashes_checked += batch.num_rows
            bar.advance(task, batch.num_rows)
    for line in wrong[:20]:
        report.mismatches.append(f"code hash: {line}")
    if len(wrong) > 20:
        report.mismatches.append(f"code hash: {len(wrong) - 20} more solutions")
