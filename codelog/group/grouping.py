"""The dedup and grouping rules, as SQL over the staged rows.

Each rule is one named CTE, in the order the paper applies them:
`normalized` (status -> outcome -> reward), `conflicts` (programs whose copies the judge gave
different outcomes), `ranked`/`deduped` (one solution per canonical program, the earliest
submission kept; the recipe's `on_conflict` says what a conflict keeps), `capped` (at most N
correct per problem, chosen by seed), `eligible` (problems with at least one correct and one
incorrect solution). Everything not kept becomes a reject with its reason.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from codelog.outcomes import UNSCORABLE
from codelog.recipe import Recipe
from codelog.sql import literal

_DEDUP_KEY = {"ast": "ast_hash", "exact": "code_hash", "none": "submission_id"}
# What one kept copy stands for: the program, or under per_outcome the program and its outcome.
_COPIES = {
    "earliest": "problem_id, language, dialect, dedup_key",
    "per_outcome": "problem_id, language, dialect, dedup_key, outcome",
    "drop": "problem_id, language, dialect, dedup_key",
}


def register_recipe_tables(con: duckdb.DuckDBPyConnection, recipe: Recipe) -> None:
    statuses = pa.table(
        {"status": list(recipe.statuses), "outcome": list(recipe.statuses.values())}
    )
    rewards = pa.table({"outcome": list(recipe.rewards), "reward": list(recipe.rewards.values())})
    con.register("status_map", statuses)
    con.register("reward_map", rewards)


def classify_sql(staged: str, recipe: Recipe, seed: int) -> str:
    """A query giving every staged row its fate: `reason` NULL means kept as a solution.

    Columns: seq, submission_id, problem_id, language, dialect, outcome, reward, is_correct,
    reason, detail, dup_count, conflict_copies. Narrow on purpose: code joins back in only
    when writing. A group is (problem_id, language, dialect): dedup, conflicts, caps and
    contrast never cross dialects. `conflict_copies` is set on one row (the first staged) of
    each program whose copies carry different outcomes, to its number of copies: the build
    counts it.
    """
    g = recipe.grouping
    key = _DEDUP_KEY[g.dedup]
    copies = _COPIES[g.on_conflict]
    drop = "true" if g.on_conflict == "drop" else "false"
    return f"""
    WITH staged AS (
        SELECT seq, submission_id, problem_id, language, dialect, original_language, status,
               date, {key} AS dedup_key, reject_reason, reject_detail, origin
        FROM {staged}
    ),
    normalized AS (
        SELECT s.*, m.outcome, r.reward, m.outcome = 'accepted' AS is_correct,
            CASE
                WHEN s.reject_reason IS NOT NULL THEN s.reject_reason
                WHEN m.outcome IS NULL THEN 'unknown_status'
                WHEN m.outcome = '{UNSCORABLE}' THEN 'unscorable'
                WHEN row_number() OVER ids > 1
                    THEN 'duplicate_submission_id'
                -- after the row-level checks: an unknown status is named whatever the dialect
                WHEN {_dialect_excluded(recipe)} THEN 'dialect'
            END AS reason,
            CASE
                WHEN s.reject_reason IS NOT NULL THEN s.reject_detail
                WHEN m.outcome IS NULL THEN 'status ' || coalesce('''' || s.status || '''', 'NULL')
                    || ' is not in the recipe'
                WHEN m.outcome = '{UNSCORABLE}' THEN 'judge-side status ''' || s.status || ''''
                WHEN row_number() OVER ids > 1
                    THEN 'submission id first seen at ' || coalesce(first_value(s.origin) OVER ids, '?')
                WHEN {_dialect_excluded(recipe)} THEN {_dialect_detail(recipe)}
            END AS detail
        FROM staged s
        LEFT JOIN status_map m USING (status)
        LEFT JOIN reward_map r ON r.outcome = m.outcome
        WINDOW ids AS (PARTITION BY s.submission_id ORDER BY s.seq)
    ),
    conflicts AS (
        SELECT problem_id, language, dialect, dedup_key, count(*) AS copies,
               min(seq) AS first_seq, string_agg(DISTINCT outcome, ', ' ORDER BY outcome) AS outcomes
        FROM normalized
        WHERE reason IS NULL
        GROUP BY problem_id, language, dialect, dedup_key
        HAVING count(DISTINCT outcome) > 1
    ),
    scorable AS (
        SELECT n.*, c.copies IS NOT NULL AS conflicted, c.outcomes AS conflict_outcomes,
               CASE WHEN n.seq = c.first_seq THEN c.copies END AS conflict_copies
        FROM normalized n LEFT JOIN conflicts c
          ON c.problem_id = n.problem_id AND c.language = n.language
         AND c.dialect IS NOT DISTINCT FROM n.dialect AND c.dedup_key = n.dedup_key
        WHERE n.reason IS NULL
    ),
    ranked AS (
        SELECT *,
            row_number() OVER copies AS copy_rank,
            count(*) OVER (PARTITION BY {copies}) AS dup_count,
            first_value(submission_id) OVER copies AS kept_id
        FROM scorable
        WHERE NOT (conflicted AND {drop})
        WINDOW copies AS (PARTITION BY {copies} ORDER BY date NULLS LAST, submission_id, seq)
    ),
    deduped AS (
        SELECT * FROM ranked WHERE copy_rank = 1
    ),
    capped AS (
        SELECT *,
            is_correct AND row_number() OVER (
                PARTITION BY problem_id, language, dialect, is_correct
                ORDER BY md5('{int(seed)}:' || submission_id), submission_id
            ) > {int(g.max_correct_per_problem)} AS over_cap
        FROM deduped
    ),
    eligible AS (
        SELECT problem_id, language, dialect
        FROM capped
        WHERE NOT over_cap
        GROUP BY problem_id, language, dialect
        HAVING count(*) FILTER (WHERE is_correct) >= {int(g.min_correct)}
           AND count(*) FILTER (WHERE NOT is_correct) >= {int(g.min_incorrect)}
    )
    SELECT seq, submission_id, problem_id, language, dialect, outcome, reward, is_correct,
           reason, detail, NULL::BIGINT AS dup_count, NULL::BIGINT AS conflict_copies
    FROM normalized WHERE reason IS NOT NULL
    UNION ALL
    SELECT seq, submission_id, problem_id, language, dialect, outcome, reward, is_correct,
           'verdict_conflict', 'copies of this program have outcomes ' || conflict_outcomes,
           NULL, conflict_copies
    FROM scorable WHERE conflicted AND {drop}
    UNION ALL
    SELECT seq, submission_id, problem_id, language, dialect, outcome, reward, is_correct,
           'duplicate', 'duplicate of ' || kept_id, NULL, conflict_copies
    FROM ranked WHERE copy_rank > 1
    UNION ALL
    SELECT c.seq, c.submission_id, c.problem_id, c.language, c.dialect, c.outcome, c.reward,
           c.is_correct,
           CASE WHEN c.over_cap THEN 'correct_cap' WHEN e.problem_id IS NULL THEN 'no_contrast' END,
           CASE
               WHEN c.over_cap THEN 'over the cap of {int(g.max_correct_per_problem)} correct per problem'
               WHEN e.problem_id IS NULL THEN 'problem has no ' || CASE WHEN c.is_correct THEN 'incorrect'
                   ELSE 'correct' END || ' solution to contrast with'
           END,
           c.dup_count, c.conflict_copies
    FROM capped c LEFT JOIN eligible e
      ON e.problem_id = c.problem_id AND e.language = c.language
     AND e.dialect IS NOT DISTINCT FROM c.dialect  -- null: a language without dialects
    """


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


def placed_sql(fate: str) -> str:
    """`fate`'s rows plus `pos`: each row's 0-based position in the table it is published in.

    Solutions are ordered by problem_id, language, submission_id, seq; rejects by reason,
    problem_id, submission_id, seq. Computed here, on narrow rows, so that the rows with their
    code never need sorting in DuckDB (see codelog.publish.spillsort). Partitioning by `reason IS NULL`
    makes one window serve both orders: within solutions `reason` is constant, within rejects
    the `language` term is.
    """
    return f"""
    SELECT *, row_number() OVER (
        PARTITION BY reason IS NULL
        ORDER BY reason, problem_id, CASE WHEN reason IS NULL THEN language END,
                 submission_id, seq
    ) - 1 AS pos
    FROM ({fate})
    """
