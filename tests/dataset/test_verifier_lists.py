"""Verifier lists (Aletheia-style) and `codelog eval-verifier`: list accuracy and Kendall's tau-b."""

from __future__ import annotations

import json
import math
import random

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from scipy.stats import kendalltau

from codelog.cli import cli
from codelog.dataset.eval_verifier import evaluate_verifier, kendall_tau_b
from codelog.dataset.verifier_lists import (
    export_verifier_lists,
    parse_list_size,
    pass_rate,
    similarity,
    tokens,
)
from codelog.errors import CodelogError, InputError

# --- Kendall's tau-b ----------------------------------------------------------------------------


def test_tau_b_of_a_prediction_with_ties_worked_out_by_hand():
    predicted = [3, 1, 1, 2, 5]  # candidates 1 and 2 tie
    truth = [0.2, 0.0, 0.1, 0.7, 1.0]
    # 10 pairs: 8 concordant, 1 discordant (0 vs 3), 1 tied in the prediction only
    expected = (8 - 1) / math.sqrt((10 - 1) * (10 - 0))
    assert kendall_tau_b(predicted, truth) == pytest.approx(expected)
    assert expected == pytest.approx(0.7378647873726218)
    assert kendall_tau_b(predicted, truth) == pytest.approx(kendalltau(predicted, truth).statistic)


def test_tau_b_agrees_with_scipy_on_random_rankings_with_ties():
    rng = random.Random(14)
    for _ in range(200):
        n = rng.randint(2, 6)
        x = [rng.randint(0, 3) for _ in range(n)]  # many ties
        y = [rng.randint(0, 4) for _ in range(n)]
        expected = kendalltau(x, y).statistic  # tau-b is scipy's default variant
        if math.isnan(expected):  # a constant side: scipy's nan, our documented 0
            assert kendall_tau_b(x, y) == 0.0
        else:
            assert kendall_tau_b(x, y) == pytest.approx(expected)


def test_tau_b_is_one_for_the_true_order_and_minus_one_reversed():
    truth = [0.0, 0.3, 1.0, 0.1]
    assert kendall_tau_b(truth, truth) == pytest.approx(1.0)
    assert kendall_tau_b([-v for v in truth], truth) == pytest.approx(-1.0)


# --- building lists -----------------------------------------------------------------------------


def test_pass_rate_is_the_judges_test_count_or_unknown():
    assert pass_rate("accepted", None) == 1.0
    assert pass_rate("wrong_answer", "3/10") == pytest.approx(0.3)
    assert pass_rate("wrong_answer", None) is None  # AtCoder logs no test count
    assert pass_rate("wrong_answer", "11/10") is None
    assert pass_rate("wrong_answer", "0/0") is None


def test_token_similarity_ignores_comments_and_sees_a_one_token_bug():
    a = tokens("a, b = map(int, input().split())  # read\nprint(a - b)\n", "Python")
    b = tokens("a, b = map(int, input().split())\nprint(a + b)\n", "Python")
    assert "#" not in "".join(a)
    assert 0.9 < similarity(a, b) < 1.0
    assert similarity(a, a) == 1.0


def test_list_size_is_a_size_or_a_range_within_two_to_five():
    assert parse_list_size("3") == (3, 3)
    assert parse_list_size("2-5") == (2, 5)
    for bad in ("1", "2-6", "5-3", "x"):
        with pytest.raises(CodelogError, match="list-size"):
            parse_list_size(bad)


@pytest.fixture(scope="module")
def lists(sample_dataset, tmp_path_factory):
    out = tmp_path_factory.mktemp("lists") / "lists.parquet"
    report = export_verifier_lists(sample_dataset, out, seed=0)
    return report, pq.read_table(out).to_pylist()


def test_every_list_has_distinct_pass_rates_and_exactly_one_correct(lists):
    report, rows = lists
    assert report.lists == len(rows) > 0
    for row in rows:
        rates = row["pass_rates"]
        assert 2 <= len(rates) <= 5
        assert len(set(rates)) == len(rates)
        assert rates.count(1.0) == 1 and rates[row["correct_index"]] == 1.0
        assert [c["pass_rate"] for c in row["candidates"]] == rates
        assert row["candidates"][row["correct_index"]]["outcome"] == "accepted"


def test_buckets_follow_aletheias_pass_rate_ranges(lists):
    _, rows = lists
    buckets = {row["bucket"] for row in rows}
    assert buckets == {"easy", "hard"}  # the sample's p02256 has 70% and 80% programs
    for row in rows:
        wrong = [r for r in row["pass_rates"] if r < 1.0]
        if row["bucket"] == "easy":
            assert max(wrong) <= 0.5
        else:
            assert min(wrong) >= 0.7 and row["min_similarity"] >= 0.6


def test_lists_are_the_same_for_a_seed_and_differ_across_seeds(sample_dataset, tmp_path, lists):
    _, rows = lists
    again = tmp_path / "again.parquet"
    export_verifier_lists(sample_dataset, again, seed=0)
    assert pq.read_table(again).to_pylist() == rows
    export_verifier_lists(sample_dataset, tmp_path / "other.parquet", seed=1)
    assert pq.read_table(tmp_path / "other.parquet").to_pylist() != rows


def test_a_fixed_list_size_gives_only_lists_of_that_size(sample_dataset, tmp_path):
    report = export_verifier_lists(sample_dataset, tmp_path / "l3.parquet", list_size="3")
    assert set(report.by_size) == {3}


# --- scoring predictions ------------------------------------------------------------------------


def write_jsonl(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_the_true_pass_rates_score_perfectly_and_their_reverse_scores_minus_one(lists, tmp_path):
    report, rows = lists
    truth = write_jsonl(
        tmp_path / "truth.jsonl",
        [{"list_id": r["list_id"], "scores": r["pass_rates"]} for r in rows],
    )
    score = evaluate_verifier(truth, report.out).overall
    assert (score.list_accuracy, score.tau_b, score.parse_rate) == (1.0, pytest.approx(1.0), 1.0)
    worst = write_jsonl(
        tmp_path / "worst.jsonl",
        [
            {
                "list_id": r["list_id"],
                "ranking": sorted(range(len(r["pass_rates"])), key=lambda i: r["pass_rates"][i]),
            }
            for r in rows
        ],
    )
    score = evaluate_verifier(worst, report.out).overall
    assert score.list_accuracy == 0.0 and score.tau_b == pytest.approx(-1.0)


def test_ties_at_the_top_missing_and_unparsed_predictions_are_wrong(lists, tmp_path):
    report, rows = lists
    first, second, third = rows[0], rows[1], rows[2]
    n = len(first["pass_rates"])
    preds = write_jsonl(
        tmp_path / "p.jsonl",
        [
            {"list_id": first["list_id"], "scores": [1.0] * n},  # no pick; tau-b 0 by convention
            {"list_id": second["list_id"], "scores": "best is 1"},  # unparsed
            {"list_id": third["list_id"], "choice": third["correct_index"]},  # pick only
            {"list_id": "no/such/list/0", "choice": 0},
        ],
    )
    result = evaluate_verifier(preds, report.out)
    score = result.overall
    assert score.lists == len(rows)
    assert score.correct == 1  # only the choice
    assert score.parsed == 2 and score.ranked == 1 and score.tau_b == 0.0
    assert result.missing == len(rows) - 3 and result.unknown == 1


def test_a_bad_prediction_line_is_named(lists, tmp_path):
    report, _ = lists
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"list_id": "a", "choice": 0}\n{not json}\n')
    with pytest.raises(InputError, match="line 2"):
        evaluate_verifier(bad, report.out)


def test_export_and_eval_verifier_from_the_command_line(sample_dataset, tmp_path):
    runner = CliRunner()
    out = tmp_path / "lists.parquet"
    result = runner.invoke(
        cli,
        [
            "export",
            str(sample_dataset),
            "--format",
            "verifier-lists",
            "--out",
            str(out),
            "--seed",
            "3",
            "--split",
            "all",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "verifier lists of split all" in result.output
    rows = pq.read_table(out).to_pylist()
    preds = write_jsonl(
        tmp_path / "p.jsonl",
        [{"list_id": r["list_id"], "choice": r["correct_index"]} for r in rows],
    )
    result = runner.invoke(cli, ["eval-verifier", str(preds), "--lists", str(out), "--json"])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.output)
    assert metrics["overall"]["list_accuracy"] == 1.0 and metrics["overall"]["tau_b"] is None
