"""The solutions kind's dedup and grouping rules, as SQL steps over `normalized`.

Each rule is one named table, in the order the paper applies them, after the shared
`normalized` step (codelog.group.normalize: status -> outcome -> reward, dialect, id rules):
`outcome_copies`/`conflicts` (programs whose copies the judge gave different outcomes),
`ranked` (one solution per canonical program, the earliest submission kept; the recipe's
`on_conflict` says what a conflict keeps), `capped` (at most N correct per problem, chosen by
seed), `eligible` (problems with at least one correct and one incorrect solution), and
`classified`: every row's fate. Everything not kept becomes a reject with its reason.
"""

from __future__ import annotations

from codelog.group.normalize import normalize_steps
from codelog.outcomes import OUTCOME_NAMES
from codelog.recipe import Recipe

# What one kept copy stands for: the program, or under per_outcome the program and its outcome.
# `unit`: the problem, or the set of ids one problem goes by (identical statements; CodeNet's
# identical-problem clusters): a program submitted to both is one program.
_COPIES = {
    "earliest": "unit, language, dialect, dedup_key",
    "per_outcome": "unit, language, dialect, dedup_key, outcome",
    "drop": "unit, language, dialect, dedup_key",
}
_PROGRAM = "unit, language, dialect, dedup_key"


def classify_steps(
    staged: str, recipe: Recipe, seed: int, units: str | None = None
) -> list[tuple[str, str]]:
    """Steps (codelog.group.engine.run_steps) ending in `classified`: every staged row's
    fate, `reason` NULL meaning kept as a solution.

    `classified` columns: seq, submission_id, problem_id, language, dialect, outcome, reward,
    is_correct, reason, detail, dup_count, conflict_copies. Narrow on purpose: code joins back
    in only when writing. A group is (problem_id, language, dialect): dedup, conflicts, caps
    and contrast never cross dialects. `conflict_copies` is set on one row (the first staged)
    of each program whose copies carry different outcomes, to its number of copies: the build
    counts it. `units`: a table (problem_id, unit) naming the problems that are one problem
    under several ids; dedup and conflicts then work across those ids.
    """
    g = recipe.grouping
    copies = _COPIES[g.on_conflict]
    drop = "true" if g.on_conflict == "drop" else "false"
    cap = int(g.max_correct_per_problem)
    return [
        *normalize_steps(staged, recipe, g.dedup, units or ""),
        (  # plain aggregates in two steps: a DISTINCT aggregate would not spill
            "outcome_copies",
            f"""
            SELECT {_PROGRAM}, outcome, count(*) AS copies, min(seq) AS first_seq
            FROM normalized WHERE reason IS NULL GROUP BY ALL
            """,
        ),
        (  # the outcomes' names listed by plain aggregates: an ordered one would not spill
            "conflicts",
            f"""
            SELECT {_PROGRAM}, sum(copies) AS copies, min(first_seq) AS first_seq,
                   concat_ws(', ', {_outcome_names("outcome")}) AS outcomes
            FROM outcome_copies GROUP BY ALL
            -- `incorrect` (a failure of unknown kind) agrees with any failure, not with accepted
            HAVING count(*) FILTER (WHERE outcome <> 'incorrect') > 1
                OR (bool_or(outcome = 'incorrect') AND bool_or(outcome = 'accepted'))
            """,
        ),
        (
            "ranked",
            f"""
            SELECT n.seq, n.submission_id, n.problem_id, n.language, n.dialect, n.outcome,
                n.reward, n.is_correct, c.outcomes AS conflict_outcomes,
                c.copies IS NOT NULL AND {drop} AS conflict_dropped,
                CASE WHEN n.seq = c.first_seq THEN c.copies END AS conflict_copies,
                row_number() OVER copies AS copy_rank,
                count(*) OVER (PARTITION BY c.copies IS NOT NULL AND {drop}, {_columns("n", copies)})
                    AS dup_count,
                first_value(n.submission_id) OVER copies AS kept_id
            FROM normalized n LEFT JOIN conflicts c
              ON c.unit = n.unit AND c.language = n.language
             AND c.dialect IS NOT DISTINCT FROM n.dialect AND c.dedup_key = n.dedup_key
            WHERE n.reason IS NULL
            -- a dropped conflict's copies are their own partition: they never rank others
            WINDOW copies AS (PARTITION BY c.copies IS NOT NULL AND {drop}, {_columns("n", copies)}
                              ORDER BY n.date NULLS LAST, n.submission_id, n.seq)
            """,
        ),
        (
            "capped",
            f"""
            SELECT *,
                is_correct AND row_number() OVER (
                    PARTITION BY problem_id, language, dialect, is_correct
                    ORDER BY md5('{int(seed)}:' || submission_id), submission_id
                ) > {cap} AS over_cap
            FROM ranked WHERE copy_rank = 1 AND NOT conflict_dropped
            """,
        ),
        (
            "eligible",
            f"""
            SELECT problem_id, language, dialect
            FROM capped
            WHERE NOT over_cap
            GROUP BY problem_id, language, dialect
            HAVING count(*) FILTER (WHERE is_correct) >= {int(g.min_correct)}
               AND count(*) FILTER (WHERE NOT is_correct) >= {int(g.min_incorrect)}
            """,
        ),
        (
            "classified",
            f"""
            SELECT seq, submission_id, problem_id, language, dialect, outcome, reward,
                   is_correct, reason, detail, NULL::BIGINT AS dup_count,
                   NULL::BIGINT AS conflict_copies
            FROM normalized WHERE reason IS NOT NULL
            UNION ALL
            SELECT seq, submission_id, problem_id, language, dialect, outcome, reward,
                   is_correct, 'verdict_conflict',
                   'copies of this program have outcomes ' || conflict_outcomes, NULL,
                   conflict_copies
            FROM ranked WHERE conflict_dropped
            UNION ALL
            SELECT seq, submission_id, problem_id, language, dialect, outcome, reward,
                   is_correct, 'duplicate', 'duplicate of ' || kept_id, NULL, conflict_copies
            FROM ranked WHERE copy_rank > 1 AND NOT conflict_dropped
            UNION ALL
            SELECT c.seq, c.submission_id, c.problem_id, c.language, c.dialect, c.outcome,
                   c.reward, c.is_correct,
                   CASE WHEN c.over_cap THEN 'correct_cap'
                        WHEN e.problem_id IS NULL THEN 'no_contrast' END,
                   CASE
                       WHEN c.over_cap THEN 'over the cap of {cap} correct per problem'
                       WHEN e.problem_id IS NULL THEN 'problem has no '
                           || CASE WHEN c.is_correct THEN 'incorrect' ELSE 'correct' END
                           || ' solution to contrast with'
                   END,
                   c.dup_count, c.conflict_copies
            FROM capped c LEFT JOIN eligible e
              ON e.problem_id = c.problem_id AND e.language = c.language
             AND e.dialect IS NOT DISTINCT FROM c.dialect  -- null: a language without dialects
            """,
        ),
    ]


def _columns(alias: str, names: str) -> str:
    """ "a, b" -> "t.a, t.b" for alias "t"."""
    return ", ".join(f"{alias}.{name.strip()}" for name in names.split(","))


def _outcome_names(column: str) -> str:
    """SQL aggregate terms naming, in alphabetical order, the outcomes `column` takes."""
    return ", ".join(
        f"CASE WHEN bool_or({column} = '{name}') THEN '{name}' END"
        for name in sorted(OUTCOME_NAMES)
    )


def placed_sql(fate: str) -> str:
    """The rows of table `fate` plus `pos`: each row's 0-based position in the table it is published in.

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
    FROM {fate}
    """
