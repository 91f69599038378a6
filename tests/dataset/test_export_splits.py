"""Exports keep the held-out problems out: one file per split, each saying which it holds;
verl and grpo rows are one per problem; sft is what TRL's SFTTrainer reads."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import codelog
from codelog.cli import cli
from codelog.dataset.export import EXPORT_KEY, export_dataset
from codelog.errors import CodelogError, EmptyResultError
from codelog.prompts import SEPARATOR


@pytest.fixture(scope="module")
def splits(sample_dataset: Path) -> dict[str, set[str]]:
    """split -> its problems, from problems.parquet (the split is the problem's)."""
    problems = pl.read_parquet(sample_dataset / "problems.parquet")
    found = {s: set(problems.filter(pl.col("split") == s)["problem_id"]) for s in ("train", "test")}
    assert found["train"] and found["test"], "the sample has both splits"
    return found


@pytest.fixture(scope="module")
def solutions(sample_dataset: Path) -> pl.DataFrame:
    return pl.read_parquet(sample_dataset / "solutions.parquet")


def held(path: Path) -> dict:
    return json.loads(pq.read_schema(path).metadata[EXPORT_KEY])


@pytest.mark.parametrize("fmt", ["dpo", "kto", "sft"])
def test_train_holds_no_test_problem_and_test_nothing_else(sample_dataset, splits, tmp_path, fmt):
    report = export_dataset(sample_dataset, fmt, tmp_path / fmt)
    assert [(f.split, f.out.name) for f in report.files] == [
        ("train", "train.parquet"),
        ("test", "test.parquet"),
    ]
    for split in ("train", "test"):
        rows = pl.read_parquet(report.file(split))
        assert set(rows["problem_id"]) == splits[split]
        assert set(rows["split"]) == {split}
        assert held(report.file(split)) == {"format": fmt, "split": split}
    # asked for one split by name: that split's file alone
    only = export_dataset(sample_dataset, fmt, tmp_path / f"{fmt}-test.parquet", split="test")
    assert set(pl.read_parquet(only.file("test"))["problem_id"]) == splits["test"]
    assert [f.split for f in only.files] == ["test"]


def test_the_split_files_together_are_the_whole_export(sample_dataset, tmp_path):
    both = export_dataset(sample_dataset, "kto", tmp_path / "kto")
    whole = export_dataset(sample_dataset, "kto", tmp_path / "all.parquet", split="all")
    assert both.rows == whole.rows
    assert held(whole.file("all")) == {"format": "kto", "split": "all"}
    ids = pl.concat([pl.read_parquet(f.out) for f in both.files])["submission_id"]
    assert sorted(ids) == sorted(pl.read_parquet(whole.file("all"))["submission_id"])


def test_one_file_never_mixes_splits_unless_asked_by_name(sample_dataset, tmp_path):
    with pytest.raises(CodelogError, match="one file holds one split: pass --split"):
        export_dataset(sample_dataset, "dpo", tmp_path / "dpo.parquet")
    assert not (tmp_path / "dpo.parquet").exists()


def test_a_split_asked_for_with_no_rows_is_an_error(sample_dataset, tmp_path):
    # a test split whose one problem has no tests: no grpo row to write
    with pytest.raises(EmptyResultError, match="0 grpo rows to write for split test"):
        export_dataset(
            sample_dataset, "grpo", tmp_path / "g.parquet", split="test", problem_tests={}
        )


def test_by_default_an_empty_split_is_skipped_and_said(sample_dataset, splits, tmp_path):
    tests = {p: {"tests": [{"name": "1", "input": "", "output": ""}]} for p in splits["train"]}
    report = export_dataset(sample_dataset, "grpo", tmp_path / "g", problem_tests=tests)
    assert [f.split for f in report.files] == ["train"] and report.empty_splits == ("test",)
    assert not (tmp_path / "g" / "test.parquet").exists()


def test_verl_has_one_row_per_problem_in_each_split_file(sample_dataset, splits, tmp_path):
    report = codelog.export(sample_dataset, "verl", tmp_path / "verl")  # tests from the statements
    for split in ("train", "test"):
        path = tmp_path / "verl" / f"{split}.parquet"
        rows = pq.read_table(path).to_pylist()
        ids = [r["extra_info"]["problem_id"] for r in rows]
        assert sorted(ids) == sorted(splits[split]), "exactly one row per problem"
        assert [r["extra_info"]["index"] for r in rows] == list(range(len(rows)))
        for row in rows:
            # the shape verl's own preprocessors write (examples/data_preprocess/*.py)
            assert set(row) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}
            assert row["ability"] == "code" and row["data_source"] == "codelog/codenet"
            assert [m["role"] for m in row["prompt"]] == ["user"]
            assert row["reward_model"]["style"] == "rule"
            truth = json.loads(row["reward_model"]["ground_truth"])
            assert truth["tests"] and truth["rewards"]["Accepted"] == 1.0
            assert truth["problem_id"] == row["extra_info"]["problem_id"]
            assert row["extra_info"]["split"] == split
    assert report.rows == len(splits["train"]) + len(splits["test"])


def test_a_verl_row_scores_a_logged_solution_as_the_judge_did(sample_dataset, solutions, tmp_path):
    from codelog.execution.verl_reward import compute_score

    codelog.export(sample_dataset, "verl", tmp_path / "verl")
    row = pq.read_table(tmp_path / "verl" / "test.parquet").to_pylist()[0]
    problem = row["extra_info"]["problem_id"]
    accepted = solutions.filter((pl.col("problem_id") == problem) & pl.col("is_correct"))
    code = accepted.sort("submission_id")["code"][0]
    truth = row["reward_model"]["ground_truth"]
    assert compute_score(row["data_source"], code, truth, row["extra_info"]) == 1.0
    assert compute_score(row["data_source"], "print(", truth, row["extra_info"]) == -1.0


def test_sft_is_the_accepted_solutions_as_prompt_and_completion(
    sample_dataset, solutions, tmp_path
):
    report = export_dataset(sample_dataset, "sft", tmp_path / "sft.parquet", split="all")
    rows = pl.read_parquet(report.file("all"))
    accepted = solutions.filter(pl.col("is_correct"))
    assert sorted(rows["submission_id"]) == sorted(accepted["submission_id"])
    code = dict(accepted.select("submission_id", "code").iter_rows())
    assert all(code[s] == c for s, c in rows.select("submission_id", "completion").iter_rows())
    assert all(p.endswith(SEPARATOR) and "Python 3" in p for p in rows["prompt"])


def test_sft_chat_is_prompt_and_completion_as_messages(sample_dataset, tmp_path):
    """TRL restricts the loss to the completion only for `prompt`/`completion` columns (plain or
    as messages); a lone `messages` column is trained on whole (tests/clients/test_sft.py)."""
    trl = pytest.importorskip("trl")
    plain = export_dataset(sample_dataset, "sft", tmp_path / "p.parquet", split="train")
    chat = export_dataset(sample_dataset, "sft", tmp_path / "c.parquet", split="train", chat=True)
    rows = pq.read_table(chat.file("train")).to_pylist()
    before = pq.read_table(plain.file("train")).to_pylist()
    assert "messages" not in rows[0]
    assert trl.data_utils.is_conversational(rows[0])
    for row, same in zip(rows, before, strict=True):
        assert row["prompt"] == [
            {"role": "user", "content": same["prompt"].removesuffix(SEPARATOR)}
        ]
        assert row["completion"] == [{"role": "assistant", "content": same["completion"]}]


def test_grpo_rows_are_one_prompt_per_problem(sample_dataset, splits, tmp_path):
    report = codelog.export(sample_dataset, "grpo", tmp_path / "grpo")
    for split in ("train", "test"):
        rows = pl.read_parquet(report.file(split))
        assert sorted(rows["problem_id"]) == sorted(splits[split])
        assert rows.columns == ["prompt", "problem_id", "language", "dialect", "split"]


def test_cli_export_writes_a_file_per_split_and_names_it(sample_dataset, tmp_path):
    out = tmp_path / "dpo"
    result = CliRunner().invoke(
        cli, ["export", str(sample_dataset), "--format", "dpo", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    train, test = (pq.read_metadata(out / f"{s}.parquet").num_rows for s in ("train", "test"))
    assert f"wrote {train} dpo rows of split train (train problems only" in result.stderr
    assert f"wrote {test} dpo rows of split test (test problems only" in result.stderr
    one = CliRunner().invoke(
        cli,
        [
            "export",
            str(sample_dataset),
            "--format",
            "sft",
            "--out",
            str(tmp_path / "s"),
            "--split",
            "train",
        ],
    )
    assert one.exit_code == 0, one.output
    assert [p.name for p in (tmp_path / "s").iterdir()] == ["train.parquet"]


def test_verifier_lists_keep_to_their_split(sample_dataset, splits, tmp_path):
    result = CliRunner().invoke(
        cli,
        ["export", str(sample_dataset), "--format", "verifier-lists", "--out", str(tmp_path / "v")],
    )
    assert result.exit_code == 0, result.output
    for split in ("train", "test"):
        path = tmp_path / "v" / f"{split}.parquet"
        assert set(pl.read_parquet(path)["problem_id"]) <= splits[split]
        assert held(path) == {"format": "verifier-lists", "split": split}


@pytest.fixture(scope="module")
def repairs(tmp_path_factory):
    from tests.conftest import build_sample

    return build_sample(tmp_path_factory.mktemp("rs") / "repair", kind="repair").out


def test_repair_exports_keep_to_their_split(repairs, tmp_path):
    # the sample's repairs have a held-out problem: both splits are written, each its own rows
    assert "split" in pq.read_schema(repairs / "repairs.parquet").names
    splits = dict(
        pl.read_parquet(repairs / "problems.parquet").select("problem_id", "split").iter_rows()
    )
    for fmt in ("kto", "sft", "verl"):
        report = export_dataset(repairs, fmt, tmp_path / fmt)
        assert {f.split for f in report.files} == {"train", "test"}
        for f in report.files:
            rows = pq.read_table(f.out).to_pylist()
            ids = [r.get("problem_id") or r["extra_info"]["problem_id"] for r in rows]
            assert {splits[p] for p in ids} == {f.split}


def test_repair_sft_is_the_correct_targets(repairs, tmp_path):
    report = export_dataset(repairs, "sft", tmp_path / "sft.parquet", split="all", chat=True)
    rows = pq.read_table(report.file("all")).to_pylist()
    table = pl.read_parquet(repairs / "repairs.parquet").filter(pl.col("is_correct"))
    assert sorted(r["submission_id"] for r in rows) == sorted(table["submission_id"])
    assert [m["role"] for m in rows[0]["prompt"] + rows[0]["completion"]] == ["user", "assistant"]


def test_the_hf_splits_carry_each_solutions_prompt(sample_dataset, tmp_path):
    datasets = pytest.importorskip("datasets")
    kto = export_dataset(sample_dataset, "kto", tmp_path / "kto")
    for split in ("train", "test"):
        loaded = datasets.load_dataset(
            str(sample_dataset), split=split, cache_dir=str(tmp_path / "hf-cache")
        )
        exported = dict(
            pl.read_parquet(kto.file(split)).select("submission_id", "prompt").iter_rows()
        )
        assert len(loaded) == len(exported)
        for row in loaded:
            # the prompt the exports and codelog's trainer use: prompt + code is the sequence
            assert row["prompt"] == exported[row["submission_id"]]
            assert row["prompt"].endswith(SEPARATOR) and row["split"] == split


def test_datasets_finds_both_splits_in_an_export_directory(sample_dataset, tmp_path):
    datasets = pytest.importorskip("datasets")
    report = export_dataset(sample_dataset, "dpo", tmp_path / "dpo")
    loaded = datasets.load_dataset(str(tmp_path / "dpo"), cache_dir=str(tmp_path / "hf-cache"))
    assert {name: len(rows) for name, rows in loaded.items()} == {
        f.split: f.rows for f in report.files
    }


def test_trls_sft_trainer_trains_on_the_sft_export(sample_dataset, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the tiny model is built, nothing downloaded
    datasets = pytest.importorskip("datasets")
    trl = pytest.importorskip("trl")
    from codelog.training import data, models

    export_dataset(sample_dataset, "sft", tmp_path / "sft")
    train = datasets.load_dataset(
        str(tmp_path / "sft"), split="train", cache_dir=str(tmp_path / "hf")
    )
    base = models.build_tiny(data.open_dataset(sample_dataset), tmp_path / "tiny", 4096, 0)
    args = trl.SFTConfig(
        output_dir=str(tmp_path / "out"),
        max_steps=1,
        per_device_train_batch_size=2,
        report_to=[],
        use_cpu=True,
        bf16=False,
        save_strategy="no",
        max_length=1024,
    )
    trainer = trl.SFTTrainer(
        model=str(base),
        args=args,
        train_dataset=train.select(range(4)),
        processing_class=models.load_tokenizer(str(base)),
    )
    trainer.train()
    assert trainer.state.global_step == 1
