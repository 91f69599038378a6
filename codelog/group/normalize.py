"""The shared first step of every kind: staged rows -> `normalized`, one row per staged row.

Every kind (solutions, repairs) starts from this table, so the row-level rules are written once:
status -> outcome -> reward (the recipe's maps), and the rejects that do not depend on what a
row becomes: the staging's own (`missing_source`, `too_large`, ...), `unknown_status`,
`unscorable`, `duplicate_submission_id` and `dialect`. `reason` NULL means the row goes on to
the kind's rules.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from codelog.outcomes import UNSCORABLE
from codelog.recipe import Recipe
from codelog.sql import literal

DEDUP_KEYS = {"ast": "ast_hash", "exact": "code_hash", "none": "submission_id"}


def register_recipe_tables(con: duckdb.DuckDBPyConnection, recipe: Recipe) -> None:
    """Tables `status_map` (status, outcome) and `reward_map` (outcome, reward)."""
    statuses = pa.table(
        {"status": list(recipe.statuses), "outcome": list(recipe.statuses.values())}
    )
    rewards = pa.table({"outcome": list(recipe.rewards), "reward": list(recipe.rewards.values())})
    con.register("status_map", statuses)
    con.register("reward_map", rewards)


def normalize_steps(
    staged: str, recipe: Recipe, dedup: str, units: str | None = None
) -> list[tuple[str, str]]:
    """Steps making `normalized` from the staged rows (a table or view named `staged`).

    Columns: seq, submission_id, problem_id, language, dialect, user_id, status, date,
    accuracy, syntax_ok, dedup_key (the column `dedup` names: "ast", "exact" or "none"),
    outcome, reward, is_correct, reason, detail; and `unit` when `units` is given: the
    problem's unit from table `units` (problem_id, unit), or its id ("": no such table).
    """
    # the solutions kind's dedup needs `unit`; the repair kind's steps take every column
    unit = ""
    if units is not None:
        unit = ",\n                " + (
            "coalesce(u.unit, s.problem_id) AS unit" if units else "s.problem_id AS unit"
        )
    join = f"LEFT JOIN {units} u ON u.problem_id = s.problem_id" if units else ""
    key = DEDUP_KEYS[dedup]
    return [
        (  # ids seen more than once: every copy after the first is rejected (an aggregate, not
            # a window over all rows: it spills)
            "repeated_ids",
            f"""
            SELECT submission_id, min(seq) AS first_seq, arg_min(origin, seq) AS first_origin
            FROM {staged} GROUP BY submission_id HAVING count(*) > 1
            """,
        ),
        (
            "normalized",
            f"""
            SELECT s.seq, s.submission_id, s.problem_id, s.language, s.dialect, s.user_id,
                s.status, s.date, s.accuracy, s.syntax_ok, s.{key} AS dedup_key,
                m.outcome, {_reward(recipe)} AS reward, m.outcome = 'accepted' AS is_correct,
                CASE
                    WHEN s.reject_reason IS NOT NULL THEN s.reject_reason
                    WHEN m.outcome IS NULL THEN 'unknown_status'
                    WHEN m.outcome = '{UNSCORABLE}' THEN 'unscorable'
                    WHEN s.seq > i.first_seq THEN 'duplicate_submission_id'
                    -- after the row-level checks: an unknown status is named whatever the dialect
                    WHEN {_dialect_excluded(recipe)} THEN 'dialect'
                END AS reason,
                CASE
                    WHEN s.reject_reason IS NOT NULL THEN s.reject_detail
                    WHEN m.outcome IS NULL THEN 'status '
                        || coalesce('''' || s.status || '''', 'NULL') || ' is not in the recipe'
                    WHEN m.outcome = '{UNSCORABLE}' THEN 'judge-side status ''' || s.status || ''''
                    WHEN s.seq > i.first_seq
                        THEN 'submission id first seen at ' || coalesce(i.first_origin, '?')
                    WHEN {_dialect_excluded(recipe)} THEN {_dialect_detail(recipe)}
                END AS detail{unit}
            FROM {staged} s
            LEFT JOIN status_map m USING (status)
            LEFT JOIN reward_map r ON r.outcome = m.outcome
            LEFT JOIN repeated_ids i USING (submission_id)
            {join}
            """,
        ),
    ]


def pass_rate_sql(accuracy: str) -> str:
    """SQL: the share of tests passed, from an `accuracy` "passed/total" column expression;
    NULL when it logs none (or an impossible one)."""
    passed, total = f"split_part({accuracy}, '/', 1)", f"split_part({accuracy}, '/', 2)"
    return f"""(CASE WHEN regexp_full_match(coalesce({accuracy}, ''), '[0-9]+/[0-9]+')
                     AND {total}::BIGINT > 0 AND {passed}::BIGINT <= {total}::BIGINT
                    THEN {passed}::BIGINT / {total}::BIGINT END)"""


def _reward(recipe: Recipe) -> str:
    """SQL: the outcome's reward, plus [partial_credit] for a failure's tests passed."""
    weight = float(recipe.partial_credit.weight)
    if not weight:
        return "r.reward"
    return (
        f"r.reward + CASE WHEN m.outcome <> 'accepted' "
        f"THEN {weight} * coalesce({pass_rate_sql('s.accuracy')}, 0) ELSE 0 END"
    )


def _dialect_excluded(recipe: Recipe) -> str:
    """SQL: true for a row the recipe's [dialects] filter leaves out."""
    d = recipe.dialects
    terms = []
    for lang, kept in d.kept().items():
        allowed = ", ".join(literal(x) for x in kept)
        unknown = "s.dialect IS NULL" if d.unknown == "reject" else "false"
        terms.append(
            f"(lower(s.language) = {literal(lang)} AND ({unknown} OR s.dialect NOT IN ({allowed})))"
        )
    return "(" + " OR ".join(terms) + ")" if terms else "false"


def _dialect_detail(recipe: Recipe) -> str:
    """SQL: why a row was left out by the dialect filter (which dialect, from what)."""
    keeps = "; ".join(
        f"{lang} = {', '.join(kept)}" for lang, kept in recipe.dialects.kept().items()
    )
    if recipe.dialects.unknown == "reject":
        keeps += "; unknown = reject"
    quoted = "chr(39) || s.original_language || chr(39)"
    return (
        f"coalesce(s.dialect, 'dialect unknown') || ' (original_language ' || "
        f"coalesce({quoted}, 'NULL') || '): the recipe''s [dialects] keeps ' || {literal(keeps)}"
    )
