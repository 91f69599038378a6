"""End-to-end: `codelog build` on the bundled sample, and the dataset's invariants."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from codelog import schema
from codelog.cli import cli
from codelog.dataset.open import open_dataset
from codelog.files import sha256_file
from codelog.recipe import Recipe, load_recipe

from .conftest import build_sample


def table(path: Path, name: str):
    return pq.read_table(path / f"{name}.parquet")


def test_rows_in_equals_solutions_plus_rejects(sample_build):
    counts = sample_build.manifest["counts"]
    out = sample_build.out
    solutions, rejects = table(out, "solutions"), table(out, "rejects")
    # every Python row of the sample's metadata CSVs
    con = duckdb.connect()
    csvs = str(Path(__file__).parents[1] / "codelog/data/codenet-mini/metadata/p*.csv")
    python_rows = con.sql(
        f"SELECT count(*) FROM read_csv('{csvs}', all_varchar=true, union_by_name=true) "
        "WHERE language = 'Python'"
    ).fetchall()[0][0]
    assert counts["rows_in"] == python_rows
    assert solutions.num_rows + rejects.num_rows == python_rows
    assert counts["solutions"] == solutions.num_rows
    assert sum(counts["rejects_by_reason"].values()) == rejects.num_rows
    ids = (
        solutions.column("submission_id").to_pylist() + rejects.column("submission_id").to_pylist()
    )
    assert len(ids) == len(set(ids)), "a row ended up in two places"


def test_every_group_has_a_correct_and_an_incorrect_solution(sample_dataset):
    con = open_dataset(sample_dataset)
    bad = con.sql("SELECT * FROM groups WHERE n_correct < 1 OR n_incorrect < 1").fetchall()
    assert bad == []
    assert con.sql("SELECT count(*) FROM groups").fetchall()[0][0] >= 6


def test_correct_solutions_are_capped_per_problem(sample_dataset):
    con = open_dataset(sample_dataset)
    cap = load_recipe().grouping.max_correct_per_problem
    assert con.sql("SELECT max(n_correct) FROM groups").fetchall()[0][0] <= cap
    # the sample has problems with more distinct correct programs than the cap
    assert con.sql("SELECT count(*) FROM rejects WHERE reason = 'correct_cap'").fetchall()[0][0] > 0


def test_no_two_solutions_of_a_problem_share_an_ast_hash(sample_dataset):
    con = open_dataset(sample_dataset)
    dup = con.sql(
        "SELECT problem_id, ast_hash, count(*) FROM solutions GROUP BY 1, 2 HAVING count(*) > 1"
    ).fetchall()
    assert dup == []


def test_dedup_keeps_the_earliest_and_counts_copies(sample_dataset):
    con = open_dataset(sample_dataset)
    n_dups = con.sql("SELECT count(*) FROM rejects WHERE reason = 'duplicate'").fetchall()[0][0]
    assert n_dups > 100, "the sample has many surface-level copies"
    later_than_kept = con.sql(
        """
        SELECT count(*) FROM rejects r JOIN solutions s
          ON s.problem_id = r.problem_id AND s.ast_hash = r.ast_hash
        WHERE r.reason = 'duplicate' AND r.detail <> 'duplicate of ' || s.submission_id
        """
    ).fetchall()[0][0]
    assert later_than_kept == 0
    # dup_count of kept solutions accounts for every duplicate of a kept solution
    kept_copies = con.sql(
        """
        SELECT sum(s.dup_count - 1) FROM solutions s
        """
    ).fetchall()[0][0]
    dups_of_kept = con.sql(
        """
        SELECT count(*) FROM rejects r JOIN solutions s
          ON s.problem_id = r.problem_id AND s.ast_hash = r.ast_hash WHERE r.reason = 'duplicate'
        """
    ).fetchall()[0][0]
    assert kept_copies == dups_of_kept


def test_every_outcome_of_the_sample_occurs(sample_build):
    statuses = sample_build.manifest["counts"]["statuses_in"]
    for status in (
        "Accepted",
        "Wrong Answer",
        "Runtime Error",
        "Time Limit Exceeded",
        "WA: Presentation Error",
        "Memory Limit Exceeded",
        "Compile Error",
    ):
        assert statuses.get(status, 0) > 0, status


def test_schemas_match_the_contract(sample_dataset):
    assert pq.read_schema(sample_dataset / "solutions.parquet").remove_metadata() == schema.SOLUTION
    assert pq.read_schema(sample_dataset / "rejects.parquet").remove_metadata() == schema.REJECT
    assert pq.read_schema(sample_dataset / "problems.parquet").remove_metadata() == schema.PROBLEM


def test_rewards_follow_the_recipe(sample_dataset):
    con = open_dataset(sample_dataset)
    rewards = load_recipe().rewards
    for outcome, reward in con.sql("SELECT DISTINCT outcome, reward FROM solutions").fetchall():
        assert rewards[outcome] == reward


def test_prompts_are_plain_text_with_sample_io(sample_dataset):
    problems = table(sample_dataset, "problems").to_pylist()
    assert problems
    for p in problems:
        assert "<" not in p["prompt"].replace("<=", "").replace("< ", ""), p["problem_id"]
    p02971 = next(p for p in problems if p["problem_id"] == "p02971")
    assert "Sample Input 1" in p02971["prompt"] and "3\n1\n4\n3" in p02971["prompt"]


def test_manifest_hashes_every_file(sample_dataset):
    manifest = json.loads((sample_dataset / "manifest.json").read_text())
    for name, entry in manifest["files"].items():
        assert sha256_file(sample_dataset / name) == entry["sha256"]


def test_rebuild_is_byte_identical_and_seed_changes_the_cap(sample_build, tmp_path):
    again = build_sample(tmp_path / "again")
    other_seed = build_sample(tmp_path / "seed7", seed=7)
    parquet = [name for name in sample_build.manifest["files"] if name.endswith(".parquet")]
    assert len(parquet) == 5  # solutions, rejects, problems and the two per-split copies
    for name in parquet:
        assert sha256_file(again.out / name) == sha256_file(sample_build.out / name), name
    assert again.manifest["input_fingerprint"] == sample_build.manifest["input_fingerprint"]
    assert sha256_file(other_seed.out / "solutions.parquet") != sha256_file(
        sample_build.out / "solutions.parquet"
    )
    # the split has its own seed ([split] seed): --seed moves no problem between train and test
    assert table(other_seed.out, "problems").select(["problem_id", "split"]) == table(
        sample_build.out, "problems"
    ).select(["problem_id", "split"])


def test_recipe_change_reuses_staged_parse_results(tmp_path):
    first = build_sample(tmp_path / "ds")
    data = load_recipe().to_dict()
    data["grouping"]["max_correct_per_problem"] = 5
    data["rewards"]["wrong_answer"] = -0.2
    second = build_sample(tmp_path / "ds", recipe=Recipe.from_dict(data))
    assert not first.staged_reused and second.staged_reused
    con = open_dataset(second.out)
    assert con.sql("SELECT max(n_correct) FROM groups").fetchall()[0][0] <= 5
    assert {
        r[0]
        for r in con.sql("SELECT reward FROM solutions WHERE outcome = 'wrong_answer'").fetchall()
    } == {-0.2}


def test_unknown_status_is_rejected_and_named(tmp_path):
    data = load_recipe().to_dict()
    del data["statuses"]["Runtime Error"]
    report = build_sample(tmp_path / "ds", recipe=Recipe.from_dict(data))
    counts = report.manifest["counts"]
    assert counts["unknown_statuses"] == ["Runtime Error"]
    assert counts["rejects_by_reason"]["unknown_status"] == counts["statuses_in"]["Runtime Error"]


def test_cli_build_and_summary(tmp_path):
    result = CliRunner().invoke(
        cli,
        [
            "build",
            "--source",
            "codenet",
            "--lang",
            "PYTHON",
            "--out",
            str(tmp_path / "ds"),
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "ds" / "manifest.json").exists()
    assert not list(tmp_path.glob(".ds.tmp-*"))


def test_unsupported_language_fails_clearly(tmp_path):
    result = CliRunner().invoke(cli, ["build", "--lang", "cobol", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0
    assert "grammar" in str(result.exception) or "grammar" in result.output


@pytest.mark.parametrize("loader", ["card", "parquet"])
def test_loadable_by_hf_datasets(sample_dataset, loader, tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    solutions = pq.read_table(sample_dataset / "solutions.parquet", columns=["split"])
    if loader == "card":  # the card's configs map each split to its file
        for split in ("train", "test"):
            ds = datasets.load_dataset(str(sample_dataset), split=split)
            assert ds.num_rows == solutions["split"].to_pylist().count(split) > 0
            assert set(ds["split"]) == {split}
    else:
        ds = datasets.load_dataset(
            "parquet", data_files=str(sample_dataset / "solutions.parquet"), split="train"
        )
        assert ds.num_rows == solutions.num_rows
    assert {"code", "reward", "is_correct", "problem_id", "split"} <= set(ds.column_names)


def test_the_summary_names_a_long_out_path_whole_when_piped(tmp_path):
    import subprocess
    import sys

    out = tmp_path / ("a-long-directory-name-" * 4) / "codenet-python"
    done = subprocess.run(
        [sys.executable, "-m", "codelog.cli", "build", "--out", str(out), "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"codelog build → {out}\n" in done.stderr
