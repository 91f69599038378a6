"""The repair kind's rules, as SQL over the staged rows: a user's attempts at a problem, in date
order, cut into COBALT-style partial trajectories (context = earlier attempts with their
verdicts, target = the next attempt).

Each rule is one named CTE, applied in this order:
`normalized` (the shared step, codelog.group.normalize: status -> outcome -> reward, dialect,
id rules), `users` (no user id: `no_user`),
`scored` (pass rate), `runs`/`numbered` (consecutive identical attempts fold into the first:
`repeated_attempt`), `cut` (after the first accepted attempt: `after_accepted`; past the horizon:
`beyond_horizon`), `rewarded` (each target's reward), `judged` (fewer than two attempts left:
`single_attempt`; no accepted attempt: `no_correct`), `ranked`/`splits`/`variances`/`best`
(max-variance down-sampling to at most N trajectories per problem: `trajectory_cap`), `members`
(the attempts of kept trajectories, numbered in publishing order). A kept trajectory's first
attempt is context only (`first_attempt`); every later one is the target of one repair row.
So every staged row ends in exactly one place: a repair row's target, or a reject.

Max-variance down-sampling (Xu et al. 2025, as COBALT uses it): among a problem's trajectories,
scored by their rows' mean reward, keep the N whose scores have the largest variance. Such a
subset is always the k highest and N - k lowest scores for some k, so the SQL tries every k.
Equal scores are ordered by md5(seed, user), so the seed decides between them.
"""

from __future__ import annotations

from codelog.group.normalize import normalize_steps, pass_rate_sql
from codelog.recipe import Recipe
from codelog.sql import literal

NO_CAP = 1 << 62
# A trajectory: one user's attempts at one problem in one language and dialect (a user moving
# from Python 2 to Python 3 starts a new one: the step between them teaches the interpreter).
_USER = "problem_id, language, dialect_key, user_id"
_TRAJECTORY = f"PARTITION BY {_USER}"
_BY_DATE = "ORDER BY date NULLS LAST, submission_id, seq"


def _uniform(seed: int, salt: str, column: str) -> str:
    """A number in [0, 1) from md5(seed, salt, column): the same on every run and machine."""
    return (
        f"(('0x' || substr(md5('{int(seed)}:{salt}:' || {column}), 1, 8))::UBIGINT / 4294967296.0)"
    )


def repairs_steps(staged: str, recipe: Recipe, seed: int) -> list[tuple[str, str]]:
    """Steps (codelog.group.engine.run_steps) ending in `attempts`: every staged row's
    fate under the repair rules, after the shared `normalized` step.

    `attempts` columns: seq, submission_id, problem_id, language, dialect, user_id, outcome,
    reward (the recipe's), is_correct, reason, detail (reason NULL: the target of a repair
    row), and for attempts of kept trajectories: attempt, member_pos (0-based, in publishing
    order), pass_rate; for targets also: step, context_len, best_pass_rate_before,
    reward_improve, repair_reward, context_key, perturb (a perturbed copy is also published),
    shown_outcome, last_context_id.
    """
    return [
        *normalize_steps(staged, recipe, recipe.repairs.dedup),
        ("attempts", _repairs_sql(recipe, seed)),
    ]


def _repairs_sql(recipe: Recipe, seed: int) -> str:
    r = recipe.repairs
    horizon, cap = int(r.horizon), int(r.max_trajectories_per_problem) or NO_CAP
    truncate = "TRUE" if r.long_trajectories == "truncate" else "FALSE"
    outcomes = "[" + ", ".join(literal(o) for o in sorted(recipe.rewards)) + "]"
    window = f"ROWS BETWEEN {horizon - 1} PRECEDING AND 1 PRECEDING"
    return f"""
    WITH users AS (  -- dialect_key: the dialect, '' for none, so that USING joins match
        SELECT * REPLACE (
                CASE WHEN reason IS NULL AND user_id IS NULL THEN 'no_user' ELSE reason END
                    AS reason,
                CASE WHEN reason IS NULL AND user_id IS NULL
                    THEN 'no user id: attempts cannot be put in a trajectory' ELSE detail END
                    AS detail),
            coalesce(dialect, '') AS dialect_key
        FROM normalized
    ),
    scored AS (  -- the judge's passed/total when logged, else 1 if accepted and 0 if not
        SELECT *, CASE
                WHEN is_correct THEN 1.0
                ELSE coalesce({pass_rate_sql("accuracy")}, 0.0)
            END AS pass_rate
        FROM users WHERE reason IS NULL
    ),
    runs AS (  -- a run: consecutive attempts of one user with the same program
        SELECT *, sum(CASE WHEN coalesce(prev_key = dedup_key, FALSE) THEN 0 ELSE 1 END)
                      OVER ({_TRAJECTORY} {_BY_DATE} ROWS UNBOUNDED PRECEDING) AS run
        FROM (SELECT *, lag(dedup_key) OVER ({_TRAJECTORY} {_BY_DATE}) AS prev_key FROM scored)
    ),
    numbered AS (
        SELECT *, row_number() OVER ({_TRAJECTORY}, run {_BY_DATE}) AS copy,
               first_value(submission_id) OVER ({_TRAJECTORY}, run {_BY_DATE}) AS run_first
        FROM runs
    ),
    cut AS (
        SELECT *,
            CASE WHEN {"TRUE" if r.end_at_accepted else "FALSE"} AND attempt > first_accepted
                     THEN 'after_accepted'
                 WHEN {truncate} AND attempt > {horizon} THEN 'beyond_horizon'
            END AS cut_reason
        FROM (
            SELECT *, min(attempt) FILTER (WHERE is_correct) OVER ({_TRAJECTORY}) AS first_accepted
            FROM (SELECT *, row_number() OVER ({_TRAJECTORY} {_BY_DATE}) AS attempt
                  FROM numbered WHERE copy = 1)
        )
    ),
    rewarded AS (  -- each target's reward: the [repairs] formula (codelog.recipe.Repairs)
        -- (greatest/least skip NULLs: a first attempt, with no context, is kept out by CASE)
        SELECT *, CASE WHEN attempt > 1 THEN greatest({float(r.reward_min)}, least(
                {float(r.reward_max)},
                {float(r.outcome_weight)} * reward + {float(r.pass_rate_weight)} * pass_rate
                + {float(r.improve_weight)} * reward_improve
                - {float(r.format_penalty)} * CASE WHEN syntax_ok THEN 0 ELSE 1 END)) END
                AS repair_reward
        FROM (
            SELECT *, CASE WHEN attempt > 1 THEN greatest({float(r.improve_min)}, least(
                    {float(r.improve_max)}, pass_rate - best_pass_rate_before)) END
                AS reward_improve
            FROM (
                SELECT *, least(attempt - 1, {horizon - 1}) AS context_len,
                    max(pass_rate) OVER context AS best_pass_rate_before,
                    md5(list(dedup_key || ':' || outcome) OVER context::VARCHAR) AS context_key,
                    lag(outcome) OVER ({_TRAJECTORY} ORDER BY attempt) AS last_context_outcome,
                    lag(submission_id) OVER ({_TRAJECTORY} ORDER BY attempt) AS last_context_id
                FROM cut WHERE cut_reason IS NULL
                WINDOW context AS ({_TRAJECTORY} ORDER BY attempt {window})
            )
        )
    ),
    judged AS (  -- each trajectory: what is left of a user's attempts at a problem
        SELECT problem_id, language, dialect_key, user_id, count(*) AS attempts,
            avg(repair_reward) AS score,  -- over its targets (a first attempt has none)
            CASE WHEN count(*) < 2 THEN 'single_attempt'
                 WHEN {"TRUE" if r.require_correct else "FALSE"} AND NOT bool_or(is_correct)
                     THEN 'no_correct'
            END AS trajectory_reason
        FROM rewarded GROUP BY problem_id, language, dialect_key, user_id
    ),
    ranked AS (
        SELECT *, row_number() OVER (PARTITION BY problem_id, language
                                     ORDER BY score, md5('{int(seed)}:' || user_id), user_id) AS lo,
               count(*) OVER (PARTITION BY problem_id, language) AS n_trajectories
        FROM judged WHERE trajectory_reason IS NULL
    ),
    splits AS (  -- candidate subsets: the `top` highest scores and {cap} - top lowest
        SELECT problem_id, language, n_trajectories, unnest(range({cap} + 1)) AS top
        FROM (SELECT DISTINCT problem_id, language, n_trajectories FROM ranked
              WHERE n_trajectories > {cap})
    ),
    variances AS (
        SELECT s.problem_id, s.language, s.top, round(var_pop(t.score), 12) AS variance
        FROM splits s JOIN ranked t USING (problem_id, language)
        WHERE t.lo <= {cap} - s.top OR t.lo > s.n_trajectories - s.top
        GROUP BY s.problem_id, s.language, s.top
    ),
    best AS (
        SELECT problem_id, language, top FROM variances
        QUALIFY row_number() OVER (PARTITION BY problem_id, language ORDER BY variance DESC, top) = 1
    ),
    selected AS (
        SELECT t.problem_id, t.language, t.dialect_key, t.user_id, t.attempts,
            t.n_trajectories <= {cap} OR t.lo <= {cap} - b.top
                OR t.lo > t.n_trajectories - b.top AS kept
        FROM ranked t LEFT JOIN best b USING (problem_id, language)
    ),
    members AS (  -- attempts of kept trajectories, in the order repair rows are published
        SELECT a.*, s.attempts,
            row_number() OVER (ORDER BY a.problem_id, a.language, a.dialect_key, a.user_id,
                               a.attempt) - 1
                AS member_pos
        FROM rewarded a JOIN selected s USING ({_USER})
        WHERE s.kept
    )
    SELECT seq, submission_id, problem_id, language, dialect, user_id, outcome, reward,
           is_correct, reason, detail
    FROM users WHERE reason IS NOT NULL
    UNION ALL BY NAME
    SELECT seq, submission_id, problem_id, language, dialect, user_id, outcome, reward, is_correct,
           'repeated_attempt' AS reason, 'same program as ' || run_first
               || ', the attempt just before it' AS detail
    FROM numbered WHERE copy > 1
    UNION ALL BY NAME
    SELECT seq, submission_id, problem_id, language, dialect, user_id, outcome, reward, is_correct,
           cut_reason AS reason,
           CASE cut_reason WHEN 'after_accepted'
               THEN 'attempt ' || attempt || ', after the accepted attempt ' || first_accepted
               ELSE 'attempt ' || attempt || ' of a trajectory cut at the horizon of {horizon}'
           END AS detail
    FROM cut WHERE cut_reason IS NOT NULL
    UNION ALL BY NAME
    SELECT a.seq, a.submission_id, a.problem_id, a.language, a.dialect, a.user_id, a.outcome,
           a.reward,           a.is_correct,
           coalesce(j.trajectory_reason, 'trajectory_cap') AS reason,
           CASE coalesce(j.trajectory_reason, 'trajectory_cap')
               WHEN 'single_attempt' THEN 'the user''s only attempt left at this problem'
               WHEN 'no_correct' THEN 'none of the user''s ' || j.attempts
                   || ' attempts is accepted'
               ELSE 'over the cap of {cap} trajectories per problem (max-variance down-sampling)'
           END AS detail
    FROM rewarded a JOIN judged j USING ({_USER})
    LEFT JOIN selected s USING ({_USER})
    WHERE j.trajectory_reason IS NOT NULL OR NOT s.kept
    UNION ALL BY NAME
    SELECT seq, submission_id, problem_id, language, dialect, user_id, outcome, reward, is_correct,
           CASE WHEN attempt = 1 THEN 'first_attempt' END AS reason,
           CASE WHEN attempt = 1 THEN 'context of the trajectory''s ' || (attempts - 1)
               || ' repair row(s), never a target' END AS detail,
           attempt, member_pos, pass_rate,
           CASE WHEN attempt > 1 THEN attempt - 1 END AS step,
           CASE WHEN attempt > 1 THEN context_len END AS context_len,
           best_pass_rate_before, reward_improve, repair_reward,
           CASE WHEN attempt > 1 THEN context_key END AS context_key,
           attempt > 1 AND {_uniform(seed, "perturb", "submission_id")}
               < {float(r.perturb_fraction)} AS perturb,
           CASE WHEN attempt > 1 THEN list_filter({outcomes}, lambda o: o <> last_context_outcome)[
               1 + (('0x' || substr(md5('{int(seed)}:shown:' || submission_id), 1, 8))::UBIGINT
                    % (len({outcomes}) - 1))::BIGINT]
           END AS shown_outcome,
           last_context_outcome, last_context_id
    FROM members
    """


def plan_sql(attempts: str) -> str:
    """The repair rows to publish, in order (`pos`), from `attempts` (a table of repairs_sql):
    each kept target once, and once more as a perturbed copy when it drew one. Members are
    the kept trajectories' attempts numbered by `member_pos`; a row's context is the
    `context_len` members before its target."""
    return f"""
    WITH targets AS (
        SELECT member_pos, step, context_len, context_key, reward_improve,
               best_pass_rate_before, repair_reward, FALSE AS perturbed,
               NULL::VARCHAR AS shown_outcome, NULL::VARCHAR AS perturbation
        FROM {attempts} WHERE reason IS NULL
        UNION ALL
        SELECT member_pos, step, context_len, md5(context_key || ':shown:' || shown_outcome),
               reward_improve, best_pass_rate_before, repair_reward, TRUE, shown_outcome,
               last_context_id || ' shown as ' || shown_outcome || ' (judged '
                   || last_context_outcome || ')'
        FROM {attempts} WHERE reason IS NULL AND perturb
    )
    SELECT *, row_number() OVER (ORDER BY member_pos, perturbed) - 1 AS pos
    FROM targets
    """
