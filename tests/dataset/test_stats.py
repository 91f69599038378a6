"""`codelog stats` on the bundled sample, each number recomputed independently with Polars/numpy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.dataset.stats import PERCENTILES, compute_stats, size_bucket


@pytest.fixture(scope="module")
def stats(sample_dataset: Path):
    return compute_stats(sample_dataset)


@pytest.fixture(scope="module")
def solutions(sample_dataset: Path) -> pl.DataFrame:
    return pl.read_parquet(sample_dataset / "solutions.parquet")


@pytest.fixture(scope="module")
def rejects(sample_dataset: Path) -> pl.DataFrame:
    return pl.read_parquet(sample_dataset / "rejects.parquet")


def test_totals_agree_with_the_manifest(stats, sample_dataset):
    counts = json.loads((sample_dataset / "manifest.json").read_text())["counts"]
    assert stats.rows_in == counts["rows_in"]
    assert stats.solutions == counts["solutions"]
    assert stats.rejects == counts["rejects"]
    assert stats.groups == counts["groups"]


def test_outcome_mix(stats, solutions):
    expected = solutions.group_by("outcome").agg(n=pl.len(), subs=pl.col("dup_count").sum())
    got = {o.outcome: (o.solutions, o.submissions) for o in stats.outcome_mix}
    assert got == {r["outcome"]: (r["n"], r["subs"]) for r in expected.iter_rows(named=True)}
    assert sum(o.share for o in stats.outcome_mix) == pytest.approx(1.0)
    accepted = next(o for o in stats.outcome_mix if o.outcome == "accepted")
    assert accepted.reward == 1.0


def test_rejects_by_reason(stats, rejects):
    expected = dict(rejects.group_by("reason").len().iter_rows())
    assert {r.reason: r.rows for r in stats.rejects_by_reason} == expected
    counts = [r.rows for r in stats.rejects_by_reason]
    assert counts == sorted(counts, reverse=True)


def test_group_size_histogram(stats, solutions):
    sizes = solutions.group_by("problem_id", "language").len()["len"]
    assert sum(b.groups for b in stats.group_sizes) == len(sizes) == stats.groups
    for b in stats.group_sizes:
        assert b.groups == ((sizes >= b.low) & (sizes <= b.high)).sum()
    # contiguous buckets, from the smallest group to the largest
    for a, b in zip(stats.group_sizes, stats.group_sizes[1:], strict=False):
        assert b.low == a.high + 1
    assert stats.group_sizes[0].low <= sizes.min() and stats.group_sizes[-1].high >= sizes.max()
    assert stats.group_size_median == pytest.approx(float(np.median(sizes.to_numpy())))


@pytest.mark.parametrize(
    ("n", "bucket"),
    [(2, (2, 2)), (3, (3, 4)), (4, (3, 4)), (5, (5, 8)), (64, (33, 64)), (65, (65, 128))],
)
def test_size_buckets_are_powers_of_two(n, bucket):
    assert size_bucket(n) == bucket


def test_dedup_counts_distinct_programs(stats, solutions, rejects, sample_dataset):
    # With AST dedup, the programs that reached dedup are the distinct (problem, language,
    # ast_hash) among the kept solutions and the rows rejected at or after dedup.
    assert stats.dedup.mode == "ast"
    after = rejects.filter(pl.col("reason").is_in(["duplicate", "correct_cap", "no_contrast"]))
    reached = pl.concat(
        [
            solutions.select("problem_id", "language", "ast_hash"),
            after.select("problem_id", "language", "ast_hash"),
        ]
    )
    assert stats.dedup.submissions == reached.height
    assert stats.dedup.programs == reached.unique().height
    assert stats.dedup.duplicates == (rejects["reason"] == "duplicate").sum() > 0
    assert stats.dedup.ratio == pytest.approx(reached.height / reached.unique().height)


def test_code_length_percentiles(stats, solutions):
    lengths = solutions.with_columns(n=pl.col("code").str.len_bytes())
    subsets = {
        "all": lengths,
        "correct": lengths.filter(pl.col("is_correct")),
        "incorrect": lengths.filter(~pl.col("is_correct")),
    }
    assert [c.subset for c in stats.code_length] == list(subsets)
    for c in stats.code_length:
        n = subsets[c.subset]["n"].to_numpy()
        assert c.solutions == len(n)
        assert c.max == n.max()
        expected = np.percentile(n, PERCENTILES)  # linear interpolation, like quantile_cont
        assert [c.percentiles[p] for p in PERCENTILES] == pytest.approx(expected.tolist())


def test_cli_prints_the_tables_and_plots(sample_dataset, stats, tmp_path):
    png = tmp_path / "stats.png"
    result = CliRunner().invoke(cli, ["stats", str(sample_dataset), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for title in ("outcome mix", "group sizes", "rejects by reason", "dedup", "code length"):
        assert title in out
    assert f"{stats.solutions:,}" in out and f"{stats.dedup.ratio:.2f}" in out
    for r in stats.rejects_by_reason:
        assert r.reason in out
    import matplotlib.image

    height, width, _ = matplotlib.image.imread(png).shape
    assert (width, height) == (1500, 850)


def test_plot_without_matplotlib_names_the_extra_before_any_work(
    sample_dataset, tmp_path, monkeypatch
):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    png = tmp_path / "stats.png"
    result = CliRunner().invoke(cli, ["stats", str(sample_dataset), "--plot", str(png)])
    assert result.exit_code == 1
    assert str(result.exception) == (
        "--plot needs matplotlib, which is not installed: pip install 'codelog[plot]'"
    )
    assert result.stdout == "", "no tables first: the error comes before any work"
    assert not png.exists()


def test_json_holds_the_same_numbers(sample_dataset, stats):
    result = CliRunner().invoke(cli, ["stats", str(sample_dataset), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["rows_in"], data["solutions"], data["groups"]) == (
        stats.rows_in,
        stats.solutions,
        stats.groups,
    )
    assert data["dedup"]["ratio"] == pytest.approx(stats.dedup.ratio)
    assert data["outcome_mix"][0]["outcome"] == stats.outcome_mix[0].outcome
    assert data["code_length"][0]["percentiles"]["50"] == stats.code_length[0].percentiles[50]
