"""`codelog verify` on a repair dataset: the invariants of codelog.group.repairs, recomputed
from the tables (the file checks are codelog.dataset.verify's, shared by every kind).

- accounting: rows in = targets + rejects, per reason and per outcome as the manifest says;
  repairs = targets + perturbed copies; no submission id is a target twice or also a reject;
- trajectories: every context attempt is the same user's, earlier, and itself a target of the
  trajectory or its first attempt; contexts hold 1..horizon-1 attempts; no two consecutive
  attempts share a program (dedup); no accepted attempt in a context (end_at_accepted); every
  trajectory reaches an accepted attempt (require_correct); at most the cap per problem;
- rewards: reward_improve and reward are the recipe's formula of the row's own columns; a
  perturbed copy carries its twin's rewards and differs only in the last verdict shown.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from codelog.dataset.open import open_dataset

if TYPE_CHECKING:
    from codelog.dataset.verify import VerifyReport

_TOLERANCE = 1e-9


def _invariants(recipe: dict[str, Any]) -> list[tuple[str, str]]:
    r = recipe.get("repairs") or {}
    horizon = int(r.get("horizon", 3))
    cap = int(r.get("max_trajectories_per_problem", 4))
    improve = (
        f"greatest({float(r.get('improve_min', 0.0))}, least({float(r.get('improve_max', 1.0))}, "
        "pass_rate - best_pass_rate_before))"
    )
    reward = (
        f"greatest({float(r.get('reward_min', -1.0))}, least({float(r.get('reward_max', 1.0))}, "
        f"{float(r.get('outcome_weight', 1.0))} * reward_outcome "
        f"+ {float(r.get('pass_rate_weight', 0.0))} * pass_rate "
        f"+ {float(r.get('improve_weight', 1.0))} * reward_improve "
        f"- {float(r.get('format_penalty', 0.0))} * CASE WHEN syntax_ok THEN 0 ELSE 1 END))"
    )
    queries = [
        (
            "a target is in one place",
            """SELECT submission_id || ' appears ' || count(*) || ' times (' ||
                      string_agg(place, ', ' ORDER BY place) || ')'
               FROM (SELECT submission_id, 'repairs' AS place FROM repairs WHERE NOT perturbed
                     UNION ALL
                     SELECT submission_id, 'rejects:' || reason FROM rejects
                     WHERE reason NOT IN ('duplicate_submission_id', 'malformed_row'))
               WHERE submission_id IS NOT NULL
               GROUP BY submission_id HAVING count(*) > 1""",
        ),
        (
            f"a context holds 1 to {horizon - 1} attempts, all before the target",
            f"""SELECT submission_id || ': ' || len(context) || ' attempts in context at step ' || step
               FROM repairs
               WHERE len(context) NOT BETWEEN 1 AND {horizon - 1} OR step < len(context)
                  OR list_bool_or(list_transform(context, lambda a: a.date > date))""",
        ),
        (
            "every context attempt is a target of the trajectory or its first attempt",
            """WITH shown AS (SELECT problem_id, user_id, submission_id AS target,
                                    unnest(context).submission_id AS attempt FROM repairs)
               SELECT DISTINCT s.target || ': context attempt ' || s.attempt || ' is neither'
               FROM shown s
               WHERE NOT EXISTS (SELECT 1 FROM repairs t WHERE t.problem_id = s.problem_id
                                 AND t.user_id = s.user_id AND t.submission_id = s.attempt)
                 AND NOT EXISTS (SELECT 1 FROM rejects j WHERE j.problem_id = s.problem_id
                                 AND j.submission_id = s.attempt AND j.reason = 'first_attempt')""",
        ),
        (
            "is_correct is outcome = accepted, and accepted passes everything",
            """SELECT submission_id || ': outcome ' || outcome || ', is_correct ' || is_correct
                      || ', pass_rate ' || pass_rate
               FROM repairs WHERE is_correct IS DISTINCT FROM (outcome = 'accepted')
                  OR (is_correct AND pass_rate <> 1)""",
        ),
        (
            "reward_outcome is the recipe's reward of the outcome",
            """SELECT r.submission_id || ': reward_outcome ' || r.reward_outcome || ' for '
                      || r.outcome || ', recipe says ' || coalesce(w.reward::VARCHAR, 'nothing')
               FROM repairs r LEFT JOIN recipe_rewards w USING (outcome)
               WHERE r.reward_outcome IS DISTINCT FROM w.reward""",
        ),
        (
            "best_pass_rate_before, reward_improve and reward follow the [repairs] formula",
            f"""SELECT submission_id || ': best ' || best_pass_rate_before || ', improve '
                      || reward_improve || ', reward ' || reward || ' (formula: '
                      || list_max(list_transform(context, lambda a: a.pass_rate)) || ', '
                      || {improve} || ', ' || {reward} || ')'
               FROM repairs
               WHERE abs(best_pass_rate_before
                         - list_max(list_transform(context, lambda a: a.pass_rate))) > {_TOLERANCE}
                  OR abs(reward_improve - {improve}) > {_TOLERANCE}
                  OR abs(reward - {reward}) > {_TOLERANCE}""",
        ),
        (
            "a perturbed copy has a twin with the same rewards and one other verdict, the last",
            """SELECT p.submission_id || ': perturbed copy without a matching twin'
               FROM repairs p LEFT JOIN repairs t
                 ON t.submission_id = p.submission_id AND NOT t.perturbed
                AND t.reward = p.reward AND t.reward_improve = p.reward_improve
                AND len(t.context) = len(p.context)
                AND list_slice(t.context, 1, len(t.context) - 1)
                    IS NOT DISTINCT FROM list_slice(p.context, 1, len(p.context) - 1)
                AND t.context[len(t.context)].outcome <> p.context[len(p.context)].outcome
               WHERE p.perturbed AND t.submission_id IS NULL""",
        ),
        (
            "every problem with repairs is in the problems table",
            """SELECT DISTINCT problem_id || ' has repairs but no problems row'
               FROM repairs WHERE problem_id NOT IN (SELECT problem_id FROM problems)""",
        ),
    ]
    if r.get("dedup", "ast") == "ast":
        queries.append(
            (
                "no two consecutive attempts share a program (dedup = ast)",
                """SELECT submission_id || ': consecutive attempts share an ast_hash'
                   FROM repairs
                   WHERE context[len(context)].ast_hash = ast_hash
                      OR list_bool_or(list_transform(range(1, len(context)),
                             lambda i: context[i].ast_hash = context[i + 1].ast_hash))""",
            )
        )
    if r.get("end_at_accepted", True):
        queries.append(
            (
                "no context attempt is accepted (a trajectory ends at its first accepted one)",
                """SELECT submission_id || ': an accepted attempt in its context'
                   FROM repairs WHERE NOT perturbed
                     AND list_bool_or(list_transform(context, lambda a: a.outcome = 'accepted'))""",
            )
        )
    if r.get("require_correct", True):
        queries.append(
            (
                "every trajectory reaches an accepted attempt",
                """SELECT problem_id || '/' || user_id || ': no accepted attempt'
                   FROM trajectories WHERE NOT solved""",
            )
        )
    if cap:
        queries.append(
            (
                f"at most {cap} trajectories per problem",
                f"""SELECT problem_id || '/' || language || ': ' || count(*) || ' trajectories'
                   FROM trajectories GROUP BY problem_id, language HAVING count(*) > {cap}""",
            )
        )
    return queries


def check_repairs(
    root: Path, manifest: dict[str, Any], report: VerifyReport, progress: bool = False
) -> None:
    """The repair kind's checks (its files are checked already), into `report`."""
    report.rows_checked, found = repair_mismatches(root, manifest)
    report.mismatches += found


def repair_mismatches(root: Path, manifest: dict[str, Any]) -> tuple[int, list[str]]:
    """(rows checked, every mismatch found) for the repair dataset at `root`."""
    found: list[str] = []
    con = open_dataset(root)
    recipe = manifest.get("recipe") or {}
    con.execute("CREATE TABLE recipe_rewards (outcome VARCHAR, reward DOUBLE)")
    if recipe.get("rewards"):
        con.executemany("INSERT INTO recipe_rewards VALUES (?, ?)", list(recipe["rewards"].items()))
    counts = manifest.get("counts") or {}
    targets, perturbed, trajectories = con.sql(
        "SELECT count(*) FILTER (WHERE NOT perturbed), count(*) FILTER (WHERE perturbed), "
        "count(DISTINCT (problem_id, language, user_id)) FROM repairs"
    ).fetchall()[0]
    rejects = con.sql("SELECT count(*) FROM rejects").fetchall()[0][0]
    for name, actual in (
        ("rows_in", targets + rejects),
        ("targets", targets),
        ("rejects", rejects),
        ("repairs", targets + perturbed),
        ("perturbed", perturbed),
        ("trajectories", trajectories),
    ):
        if counts.get(name) != actual:
            found.append(f"counts: manifest {name} is {counts.get(name)}, tables give {actual}")
    for name, query in (
        ("rejects_by_reason", "SELECT reason, count(*) FROM rejects GROUP BY 1"),
        ("outcomes", "SELECT outcome, count(*) FROM repairs WHERE NOT perturbed GROUP BY 1"),
    ):
        actual = dict(con.sql(query).fetchall())
        claimed = counts.get(name) or {}
        for key in sorted(set(claimed) | set(actual), key=str):
            if claimed.get(key, 0) != actual.get(key, 0):
                found.append(
                    f"counts: manifest {name}[{key}] is {claimed.get(key, 0)}, "
                    f"tables give {actual.get(key, 0)}"
                )
    for rule, query in _invariants(recipe):
        offenders = [row[0] for row in con.sql(query).fetchall()]
        found += [f"invariant '{rule}' broken: {o}" for o in offenders[:20]]
        if len(offenders) > 20:
            found.append(f"invariant '{rule}' broken by {len(offenders) - 20} more")
    con.close()
    return targets + perturbed + rejects, found
