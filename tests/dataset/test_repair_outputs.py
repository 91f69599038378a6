"""A repair dataset's prompt, exports, views and stats."""

from __future__ import annotations

import itertools
import json

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.dataset.export import export_dataset
from codelog.dataset.open import open_dataset
from codelog.dataset.repair_stats import compute_repair_stats
from codelog.errors import CodelogError
from codelog.prompts import render_repair_prompt, verdict_text
from tests.conftest import build_sample


@pytest.fixture(scope="module")
def repairs(tmp_path_factory):
    return build_sample(tmp_path_factory.mktemp("ro") / "repair", kind="repair").out


def test_a_repair_prompt_shows_each_attempt_with_its_verdict():
    attempts = [
        {"code": "print(1)\n", "outcome": "wrong_answer", "accuracy": "3/5"},
        {"code": "print(2)", "outcome": "runtime_error", "accuracy": None},
    ]
    text = render_repair_prompt(
        "{statement}\n\nUse {language}.", "Add.\n", "Python", attempts, "Fix it in {language}."
    )
    assert text == (
        "Add.\n\nUse Python.\n\n"
        "Your earlier attempts, oldest first, with the judge's verdict on each:\n\n"
        "Attempt 1:\n```python\nprint(1)\n```\nVerdict: wrong answer (3 of 5 tests passed)\n\n"
        "Attempt 2:\n```python\nprint(2)\n```\nVerdict: runtime error\n\n"
        "Fix it in Python."
    )


def test_a_verdict_without_a_test_count_is_the_outcome_alone():
    assert verdict_text("time_limit", None) == "time limit exceeded"
    assert verdict_text("accepted", "5/5") == "accepted (5 of 5 tests passed)"


def _ids(row: dict) -> tuple:
    """What tells a repairs row apart (a perturbed copy shares its target's submission)."""
    return row["user_id"], row["step"], row["submission_id"], row["perturbed"]


def test_kto_export_has_a_row_per_repair_with_its_prompt(repairs, tmp_path):
    report = export_dataset(repairs, "kto", tmp_path / "kto.parquet", split="all")
    rows = pq.read_table(report.out).to_pylist()
    table = pq.read_table(repairs / "repairs.parquet").to_pylist()
    assert report.rows == len(rows) == len(table)
    first = rows[0]  # rows come shuffled (export.spread_sql): its repair by its ids
    [source] = [t for t in table if _ids(t) == _ids(first)]
    assert first["completion"] == source["code"]
    assert first["label"] == source["is_correct"]
    assert "Attempt 1:" in first["prompt"] and first["prompt"].endswith(
        "Write a corrected Python program."
    )


def test_verl_export_carries_the_reward_and_the_context_ids(repairs, tmp_path):
    report = export_dataset(repairs, "verl", tmp_path / "verl.parquet", split="all")
    row = pq.read_table(report.out).to_pylist()[0]
    [table] = [
        t
        for t in pq.read_table(repairs / "repairs.parquet").to_pylist()
        if _ids(t) == _ids(row["extra_info"])
    ]
    truth = json.loads(row["reward_model"]["ground_truth"])
    assert truth["reward"] == table["reward"] and truth["reward_improve"] == table["reward_improve"]
    assert row["extra_info"]["context_ids"] == [a["submission_id"] for a in table["context"]]
    assert row["prompt"][0]["role"] == "user"


def test_dpo_export_of_repairs_is_refused(repairs, tmp_path):
    with pytest.raises(CodelogError, match="kto, sft, verl"):
        export_dataset(repairs, "dpo", tmp_path / "dpo.parquet", split="all")
    assert not (tmp_path / "dpo.parquet").exists()


def test_stats_count_what_followed_a_wrong_answer(repairs):
    stats = compute_repair_stats(repairs)
    con = open_dataset(repairs)
    expected = con.sql(
        """SELECT count(*), count(*) FILTER (WHERE outcome = 'accepted') FROM repairs
           WHERE NOT perturbed AND context[len(context)].outcome = 'wrong_answer'"""
    ).fetchall()[0]
    wa = next(t for t in stats.transitions if t.before == "wrong_answer")
    assert (wa.rows, wa.followed_by_accepted) == expected
    assert stats.trajectories == con.sql("SELECT count(*) FROM trajectories").fetchall()[0][0]
    assert sum(n * k for n, k in stats.lengths.items()) == stats.targets + stats.trajectories


def test_sql_and_stats_commands_know_a_repair_dataset(repairs):
    runner = CliRunner()
    result = runner.invoke(
        cli, ["sql", str(repairs), "SELECT count(*) AS n FROM trajectories", "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["stats", str(repairs)])
    assert result.exit_code == 0, result.output
    assert "trajectory length" in result.output and "wrong_answer" in result.output


def test_pointwise_repair_rows_come_in_the_seeds_shuffle(repairs, tmp_path):
    """As the solutions' exports (codelog.dataset.export.spread_sql): neighbouring rows of
    different problems, for KTO's KL pairs; the same seed, the same bytes."""
    first = export_dataset(repairs, "kto", tmp_path / "a.parquet", split="train")
    again = export_dataset(repairs, "kto", tmp_path / "b.parquet", split="train", seed=0)
    assert first.out.read_bytes() == again.out.read_bytes()
    ids = pq.read_table(first.out, columns=["problem_id"]).column("problem_id").to_pylist()
    same = sum(a == b for a, b in itertools.pairwise(ids))
    assert len(set(ids)) > 1 and same <= len(ids) // 20, f"{same} of {len(ids)} neighbours"
