"""Repair trajectories (`codelog build --kind repair`): the rules of codelog.group.repairs on
small literal inputs, and a trajectory of the bundled sample worked out by hand."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from codelog import schema
from codelog.dataset.verify import verify_dataset
from codelog.errors import RecipeError
from codelog.group.engine import run_steps
from codelog.group.normalize import register_recipe_tables
from codelog.group.repairs import plan_sql, repairs_steps
from codelog.publish.manifest import MANIFEST, file_entries
from codelog.recipe import Recipe, load_recipe
from tests.conftest import build_sample


def recipe(**repairs) -> Recipe:
    base = load_recipe()
    return dataclasses.replace(base, repairs=dataclasses.replace(base.repairs, **repairs))


def attempt(sid, user, date, status, program, accuracy=None, problem="p1", syntax_ok=True):
    return {
        "submission_id": sid,
        "problem_id": problem,
        "language": "Python",
        "dialect": None,
        "original_language": None,
        "user_id": user,
        "status": status,
        "date": date,
        "syntax_ok": syntax_ok,
        "accuracy": accuracy,
        "ast_hash": program,
        "code_hash": program,
        "reject_reason": None,
        "reject_detail": None,
        "origin": f"metadata/{problem}.csv:{sid}",
    }


def fates(rows: list[dict], rcp: Recipe | None = None, seed: int = 0) -> dict[str, dict]:
    """Every row's fate under the repair rules, by submission id; plus the plan under '_plan'."""
    rcp = rcp or recipe()
    con = duckdb.connect()
    register_recipe_tables(con, rcp)
    table = pa.Table.from_pylist([{"seq": i, **row} for i, row in enumerate(rows)])
    con.register("staged_rows", table)
    run_steps(con, repairs_steps("staged_rows", rcp, seed))
    out = {
        r["submission_id"]: r
        for r in con.sql("SELECT * FROM attempts").to_arrow_table().to_pylist()
    }
    out["_plan"] = con.sql(f"{plan_sql('attempts')} ORDER BY pos").to_arrow_table().to_pylist()
    return out


# --- the rules, on literal attempts -------------------------------------------------------------


def test_each_attempt_after_the_first_is_a_target_with_its_context():
    got = fates(
        [
            attempt("s1", "u1", 10, "Wrong Answer", "A", "1/4"),
            attempt("s2", "u1", 20, "Wrong Answer", "B", "3/4"),
            attempt("s3", "u1", 30, "Accepted", "C", "4/4"),
        ]
    )
    assert got["s1"]["reason"] == "first_attempt"
    assert (got["s2"]["reason"], got["s2"]["step"], got["s2"]["context_len"]) == (None, 1, 1)
    assert got["s2"]["reward_improve"] == pytest.approx(0.5)  # 3/4 - 1/4
    assert got["s2"]["repair_reward"] == pytest.approx(-0.1 + 0.5)
    assert got["s3"]["best_pass_rate_before"] == pytest.approx(0.75)
    assert got["s3"]["reward_improve"] == pytest.approx(0.25)
    assert got["s3"]["repair_reward"] == 1.0  # 1 + 0.25, clipped at reward_max


def test_a_worse_attempt_gains_nothing_over_the_best_before():
    got = fates(
        [
            attempt("s1", "u1", 10, "Wrong Answer", "A", "3/4"),
            attempt("s2", "u1", 20, "Runtime Error", "B", "0/4"),
            attempt("s3", "u1", 30, "Accepted", "C", "4/4"),
        ]
    )
    assert got["s2"]["reward_improve"] == 0.0  # clipped at improve_min
    assert got["s3"]["best_pass_rate_before"] == pytest.approx(0.75)  # the best, not the last


def test_consecutive_identical_attempts_fold_into_the_first():
    got = fates(
        [
            attempt("s1", "u1", 10, "Wrong Answer", "A"),
            attempt("s2", "u1", 20, "Wrong Answer", "A"),  # resubmitted unchanged
            attempt("s3", "u1", 30, "Time Limit Exceeded", "A"),  # again (another verdict)
            attempt("s4", "u1", 40, "Accepted", "B"),
        ]
    )
    assert got["s2"]["reason"] == got["s3"]["reason"] == "repeated_attempt"
    assert "s1" in got["s3"]["detail"]
    assert (got["s4"]["step"], got["s4"]["attempt"]) == (1, 2)


def test_the_same_program_later_again_is_not_a_repeat():
    got = fates(
        [
            attempt("s1", "u1", 10, "Wrong Answer", "A"),
            attempt("s2", "u1", 20, "Wrong Answer", "B"),
            attempt("s3", "u1", 30, "Accepted", "A"),
        ]
    )
    assert got["s3"]["reason"] is None and got["s3"]["step"] == 2


def test_a_trajectory_ends_at_its_first_accepted_attempt():
    got = fates(
        [
            attempt("s1", "u1", 10, "Wrong Answer", "A"),
            attempt("s2", "u1", 20, "Accepted", "B"),
            attempt("s3", "u1", 30, "Accepted", "C"),  # tuning after the fix
        ]
    )
    assert got["s3"]["reason"] == "after_accepted"
    assert got["s2"]["reason"] is None


def test_the_horizon_truncates_long_trajectories():
    rows = [attempt(f"s{k}", "u1", 10 * k, "Wrong Answer", f"P{k}") for k in range(1, 6)]
    rows.append(attempt("s9", "u1", 99, "Accepted", "Q"))
    got = fates(rows, recipe(require_correct=False))
    assert [got[f"s{k}"]["reason"] for k in range(1, 6)] == [
        "first_attempt",
        None,
        None,
        "beyond_horizon",
        "beyond_horizon",
    ]
    assert got["s9"]["reason"] == "beyond_horizon"


def test_window_mode_keeps_every_target_with_the_last_attempts_as_context():
    rows = [attempt(f"s{k}", "u1", 10 * k, "Wrong Answer", f"P{k}", f"{k}/9") for k in range(1, 6)]
    got = fates(rows, recipe(long_trajectories="window", require_correct=False))
    assert [got[f"s{k}"]["context_len"] for k in range(2, 6)] == [1, 2, 2, 2]
    assert [got[f"s{k}"]["step"] for k in range(2, 6)] == [1, 2, 3, 4]
    # the best before s5 is over the context shown (s3, s4), not the whole history
    assert got["s5"]["best_pass_rate_before"] == pytest.approx(4 / 9)


def test_trajectories_without_an_accepted_attempt_are_dropped_when_required():
    rows = [
        attempt("s1", "u1", 10, "Wrong Answer", "A"),
        attempt("s2", "u1", 20, "Runtime Error", "B"),
    ]
    assert fates(rows)["s2"]["reason"] == "no_correct"
    assert fates(rows, recipe(require_correct=False))["s2"]["reason"] is None


def test_single_attempts_and_rows_without_a_user_are_rejected():
    rows = [
        attempt("s1", "u1", 10, "Accepted", "A"),
        attempt("s2", None, 20, "Wrong Answer", "B"),
    ]
    got = fates(rows)
    assert got["s1"]["reason"] == "single_attempt"
    assert got["s2"]["reason"] == "no_user"


def test_pass_rate_without_a_test_count_comes_from_the_verdict():
    got = fates(
        [
            attempt("s1", "u1", 10, "Wrong Answer", "A"),  # AtCoder: no accuracy
            attempt("s2", "u1", 20, "Accepted", "B"),
        ]
    )
    assert got["s1"]["pass_rate"] == 0.0 and got["s2"]["pass_rate"] == 1.0
    assert got["s2"]["reward_improve"] == 1.0


def test_max_variance_down_sampling_keeps_the_extremes():
    # five users; the step-1 target rewards are the recipe's: AC 1.0, WA -0.1 (improve 0 or
    # 0.5/0.25 by accuracy), TLE -0.5, RE -0.6, CE -1.0; a cap of 2 keeps the highest and lowest
    rows = []
    for user, status in (
        ("u1", "Accepted"),
        ("u2", "Wrong Answer"),
        ("u3", "Time Limit Exceeded"),
        ("u4", "Runtime Error"),
        ("u5", "Compile Error"),
    ):
        rows += [
            attempt(f"{user}a", user, 10, "Wrong Answer", f"{user}-A"),
            attempt(f"{user}b", user, 20, status, f"{user}-B"),
        ]
    got = fates(rows, recipe(require_correct=False, max_trajectories_per_problem=2))
    kept = {u for u in ("u1", "u2", "u3", "u4", "u5") if got[f"{u}b"]["reason"] is None}
    assert kept == {"u1", "u5"}
    assert got["u3b"]["reason"] == got["u3a"]["reason"] == "trajectory_cap"


def test_max_variance_subset_is_the_one_of_largest_variance():
    # scores 1.0, 0.9, 0.8, -1.0; the subsets of 3 tried and their variances:
    # {-1, .8, .9} 0.762, {-1, .8, 1} 0.809, {-1, .9, 1} 0.847, {.8, .9, 1} 0.007
    rows = []
    for user, status, acc in (
        ("u1", "Accepted", None),
        ("u2", "Wrong Answer", "10/10"),  # a WA passing all tests: -0.1 + 1.0 = 0.9
        ("u3", "Wrong Answer", "9/10"),  # -0.1 + 0.9 = 0.8
        ("u4", "Compile Error", None),
    ):
        rows += [
            attempt(f"{user}a", user, 10, "Wrong Answer", f"{user}-A", "0/10"),
            attempt(f"{user}b", user, 20, status, f"{user}-B", acc),
        ]
    got = fates(rows, recipe(require_correct=False, max_trajectories_per_problem=3))
    assert {u for u in ("u1", "u2", "u3", "u4") if got[f"{u}b"]["reason"] is None} == {
        "u1",
        "u2",
        "u4",
    }


def test_perturbed_copies_are_seeded_marked_and_keep_the_true_reward():
    rows = []
    for u in range(40):
        rows += [
            attempt(f"a{u}", f"u{u}", 10, "Wrong Answer", f"{u}A", "1/4"),
            attempt(f"b{u}", f"u{u}", 20, "Accepted", f"{u}B", "4/4"),
        ]
    rcp = recipe(perturb_fraction=0.5, max_trajectories_per_problem=0)
    plan = fates(rows, rcp)["_plan"]
    copies = [p for p in plan if p["perturbed"]]
    assert 10 <= len(copies) <= 30  # about half of the 40 targets
    assert plan == fates(rows, rcp)["_plan"]  # the same seed draws the same rows
    assert plan != fates(rows, rcp, seed=1)["_plan"]
    twins = {p["member_pos"]: p for p in plan if not p["perturbed"]}
    for copy in copies:
        twin = twins[copy["member_pos"]]
        assert copy["repair_reward"] == twin["repair_reward"]
        assert copy["shown_outcome"] != "wrong_answer"  # never the verdict it had
        assert copy["context_key"] != twin["context_key"]
        assert "(judged wrong_answer)" in copy["perturbation"]


def test_recipe_refuses_bad_repair_knobs():
    data = load_recipe().to_dict()
    for key, value in (
        ("horizon", 1),
        ("long_trajectories", "all"),
        ("perturb_fraction", 1.5),
        ("max_trajectories_per_problem", -1),
    ):
        with pytest.raises(RecipeError, match=r"\[repairs\]"):
            Recipe.from_dict({**data, "repairs": {key: value}})


# --- the bundled sample -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample_repairs(tmp_path_factory: pytest.TempPathFactory):
    return build_sample(tmp_path_factory.mktemp("repairs") / "repair", kind="repair")


def rows_of(path: Path, user: str) -> list[dict]:
    table = pq.read_table(path / "repairs.parquet")
    return sorted((r for r in table.to_pylist() if r["user_id"] == user), key=lambda r: r["step"])


def test_a_sample_trajectory_worked_out_by_hand(sample_repairs):
    # metadata/p00002.csv, user u120970792 (AIZU, 1 test), all Python 3:
    #   s390429649 Runtime Error 0/1 -> s755378658 Runtime Error 0/1 -> s301809292 Accepted 1/1
    step1, step2 = rows_of(sample_repairs.out, "u120970792")
    assert [a["submission_id"] for a in step1["context"]] == ["s390429649"]
    assert (step1["context"][0]["outcome"], step1["context"][0]["accuracy"]) == (
        "runtime_error",
        "0/1",
    )
    assert (step1["submission_id"], step1["outcome"], step1["step"]) == (
        "s755378658",
        "runtime_error",
        1,
    )
    assert step1["reward_improve"] == 0.0  # 0/1 again: no gain
    assert step1["reward"] == pytest.approx(-0.6)  # the runtime error's reward

    assert [a["submission_id"] for a in step2["context"]] == ["s390429649", "s755378658"]
    assert (step2["submission_id"], step2["outcome"], step2["pass_rate"]) == (
        "s301809292",
        "accepted",
        1.0,
    )
    assert step2["reward_improve"] == pytest.approx(1.0)  # 1/1 - 0/1
    assert step2["reward"] == 1.0  # 1.0 + 1.0, clipped at reward_max
    assert step2["context"][0]["code"] == step1["context"][0]["code"]
    assert step2["context"][1]["code"] == step1["code"]
    assert {r["dialect"] for r in (step1, step2)} == {"python3"}


def test_a_python2_attempt_is_never_context_for_python3(sample_repairs):
    # metadata/p02400.csv, user u682357930: two Python 2 attempts (raw_input, print "..."),
    # then an accepted Python 3 one. The default recipe keeps Python 3 only: the earlier
    # attempts are rejected as `dialect`, and the lone Python 3 attempt makes no repair row.
    assert rows_of(sample_repairs.out, "u682357930") == []
    rejects = pq.read_table(sample_repairs.out / "rejects.parquet").to_pylist()
    reasons = {r["submission_id"]: r["reason"] for r in rejects}
    assert reasons["s696469313"] == reasons["s630696572"] == "dialect"
    assert reasons["s617013490"] == "single_attempt"
    repairs = pq.read_table(sample_repairs.out / "repairs.parquet").to_pylist()
    assert {r["dialect"] for r in repairs} == {"python3"}
    assert {a["submission_id"] for r in repairs for a in r["context"]}.isdisjoint(
        r["submission_id"] for r in rejects if r["reason"] == "dialect"
    )


def test_a_trajectory_never_mixes_dialects(tmp_path):
    both = dataclasses.replace(
        load_recipe(),
        dialects=dataclasses.replace(load_recipe().dialects, python=("python2", "python3")),
        repairs=dataclasses.replace(load_recipe().repairs, require_correct=False),
    )
    report = build_sample(tmp_path / "both", kind="repair", recipe=both)
    repairs = pq.read_table(report.out / "repairs.parquet").to_pylist()
    assert {r["dialect"] for r in repairs} == {"python2", "python3"}
    # u682357930's Python 2 pair is one trajectory; its Python 3 attempt is not in it
    mine = rows_of(report.out, "u682357930")
    assert [(r["submission_id"], r["dialect"]) for r in mine] == [("s630696572", "python2")]
    assert [a["submission_id"] for a in mine[0]["context"]] == ["s696469313"]


def test_test_problems_trajectories_are_in_the_test_split(sample_repairs, sample_dataset):
    repairs = pq.read_table(sample_repairs.out / "repairs.parquet").to_pylist()
    problems = pq.read_table(sample_dataset / "problems.parquet").to_pylist()
    split_of = {p["problem_id"]: p["split"] for p in problems}
    assert {r["split"] for r in repairs} == {"train", "test"}
    # the same problem is held out in both kinds: a repair row never trains on a test problem
    assert all(
        r["split"] == split_of[r["problem_id"]] for r in repairs if r["problem_id"] in split_of
    )
    for split in ("train", "test"):
        part = pq.read_table(sample_repairs.out / f"repairs-{split}.parquet").to_pylist()
        assert [r["submission_id"] for r in part] == [
            r["submission_id"] for r in repairs if r["split"] == split
        ]


def test_every_sample_row_is_a_target_or_a_reject(sample_repairs):
    counts = sample_repairs.manifest["counts"]
    out = sample_repairs.out
    targets = pq.read_table(out / "repairs.parquet").to_pylist()
    rejects = pq.read_table(out / "rejects.parquet").to_pylist()
    assert counts["rows_in"] == 1609 == len(targets) + len(rejects)
    assert counts["targets"] == len(targets) and counts["perturbed"] == 0
    ids = [r["submission_id"] for r in targets] + [r["submission_id"] for r in rejects]
    assert len(ids) == len(set(ids))
    assert counts["trajectories"] == sum(counts["trajectory_lengths"].values())
    assert counts["rejects_by_reason"]["first_attempt"] == counts["trajectories"]
    assert max(int(n) for n in counts["trajectory_lengths"]) <= 3  # the horizon


def test_the_sample_repair_dataset_verifies_and_rebuilds_byte_identical(sample_repairs, tmp_path):
    assert verify_dataset(sample_repairs.out).ok
    again = build_sample(tmp_path / "again", kind="repair")
    for name in ("repairs.parquet", "rejects.parquet", "problems.parquet"):
        assert (
            again.manifest["files"][name]["sha256"]
            == sample_repairs.manifest["files"][name]["sha256"]
        )


def test_verify_catches_a_reward_that_does_not_follow_the_formula(sample_repairs, tmp_path):
    ds = Path(shutil.copytree(sample_repairs.out, tmp_path / "ds"))
    table = pq.read_table(ds / "repairs.parquet")
    rows = table.to_pylist()
    rows[0]["reward_improve"] += 0.25
    pq.write_table(pa.Table.from_pylist(rows, schema=schema.REPAIR), ds / "repairs.parquet")
    manifest = json.loads((ds / MANIFEST).read_text())
    manifest["files"] = file_entries(ds, manifest["files"])
    (ds / MANIFEST).write_text(json.dumps(manifest))
    report = verify_dataset(ds)
    assert not report.ok
    assert any("formula" in m and rows[0]["submission_id"] in m for m in report.mismatches)
