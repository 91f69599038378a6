"""`codelog export` (dpo, kto, verl) on the bundled sample, checked against solutions.parquet."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.dataset.export import export_dataset
from codelog.errors import CodelogError, RecipeError
from codelog.prompts import SEPARATOR, render_prompt
from codelog.publish.manifest import MANIFEST, file_entries
from codelog.recipe import Recipe


@pytest.fixture(scope="module")
def solutions(sample_dataset: Path) -> pl.DataFrame:
    return pl.read_parquet(sample_dataset / "solutions.parquet")


@pytest.fixture(scope="module")
def prompts(sample_dataset: Path, solutions: pl.DataFrame) -> dict[tuple[str, str], str]:
    """(problem_id, language) -> the prompt a trainer should see, rendered here independently
    (the sample keeps Python 3 only: one dialect per problem)."""
    manifest = json.loads((sample_dataset / "manifest.json").read_text())
    template = Recipe.from_dict(manifest["recipe"]).prompt.template
    statements = dict(
        pl.read_parquet(sample_dataset / "problems.parquet")
        .select("problem_id", "prompt")
        .iter_rows()
    )
    groups = solutions.select("problem_id", "language", "dialect").unique().iter_rows()
    return {(p, lang): render_prompt(template, statements[p], lang, d) for p, lang, d in groups}


def load(path: Path, tmp_path: Path):
    """The file through Hugging Face `datasets`, as a trainer would load it."""
    datasets = pytest.importorskip("datasets")
    return datasets.load_dataset(
        "parquet", data_files=str(path), split="train", cache_dir=str(tmp_path / "hf-cache")
    )


def test_render_prompt_fills_only_the_two_placeholders():
    template = '{statement}\nLanguage: {language}. Output as {"json": 1} {other}'
    prompt = render_prompt(template, "Add {language} numbers.", "Python")
    assert prompt == 'Add {language} numbers.\nLanguage: Python. Output as {"json": 1} {other}'


def test_render_prompt_needs_the_statement():
    with pytest.raises(RecipeError, match="statement"):
        render_prompt("Write {language} code.", "Add two numbers.", "Python")


def test_dpo_pairs_a_correct_and_an_incorrect_solution_of_the_same_problem(
    sample_dataset, solutions, prompts, tmp_path
):
    out = tmp_path / "dpo.parquet"
    report = export_dataset(sample_dataset, "dpo", out, max_pairs_per_group=32, seed=0, split="all")
    ds = load(out, tmp_path)
    assert ds.column_names[:3] == ["prompt", "chosen", "rejected"]
    assert report.rows == len(ds) > 0
    pairs = pl.DataFrame(ds.to_dict())
    by_id = solutions.select("submission_id", "problem_id", "language", "is_correct", "code")
    joined = pairs.join(by_id, left_on="chosen_submission_id", right_on="submission_id").join(
        by_id, left_on="rejected_submission_id", right_on="submission_id", suffix="_rejected"
    )
    assert joined.height == pairs.height
    assert joined["is_correct"].all(), "a chosen solution is not correct"
    assert not joined["is_correct_rejected"].any(), "a rejected solution is correct"
    assert (joined["problem_id"] == joined["problem_id_rejected"]).all()
    assert (joined["language"] == joined["language_rejected"]).all()
    assert (joined["chosen"] == joined["code"]).all() and (
        joined["rejected"] == joined["code_rejected"]
    ).all()
    for row in joined.select("problem_id", "language", "prompt").iter_rows():
        # TRL joins prompt + completion as they are: the prompt ends with the trainer's separator
        assert row[2] == prompts[(row[0], row[1])] + SEPARATOR
        assert "Write a Python 3 program" in row[2]
    # capped per group at min(cap, every possible pair), and no pair twice
    sides = solutions.group_by("problem_id", "language").agg(
        c=pl.col("is_correct").sum(), i=(~pl.col("is_correct")).sum()
    )
    per_group = pairs.group_by("problem_id", "language").len()
    expected = {(p, lang): min(32, c * i) for p, lang, c, i in sides.iter_rows()}
    assert {(p, lang): n for p, lang, n in per_group.iter_rows()} == expected
    assert pairs.select("chosen_submission_id", "rejected_submission_id").is_unique().all()
    assert report.groups == len(expected)


def test_dpo_without_a_cap_enumerates_every_pair_once(sample_dataset, solutions, tmp_path):
    out = tmp_path / "all.parquet"
    export_dataset(sample_dataset, "dpo", out, max_pairs_per_group=10**9, split="all")
    pairs = pl.read_parquet(out)
    sides = solutions.group_by("problem_id", "language").agg(
        c=pl.col("is_correct").sum(), i=(~pl.col("is_correct")).sum()
    )
    assert pairs.height == (sides["c"] * sides["i"]).sum()
    assert pairs.select("chosen_submission_id", "rejected_submission_id").is_unique().all()


def test_dpo_is_deterministic_by_seed(sample_dataset, tmp_path):
    a, b, c = (tmp_path / f"{n}.parquet" for n in "abc")
    export_dataset(sample_dataset, "dpo", a, max_pairs_per_group=8, seed=1, split="all")
    export_dataset(sample_dataset, "dpo", b, max_pairs_per_group=8, seed=1, split="all")
    export_dataset(sample_dataset, "dpo", c, max_pairs_per_group=8, seed=2, split="all")
    ta, tb, tc = (pq.read_table(p) for p in (a, b, c))
    assert ta.equals(tb)
    assert not ta.equals(tc)


def test_dpo_uses_every_correct_solution_before_reusing_one(sample_dataset, solutions, tmp_path):
    out = tmp_path / "dpo.parquet"
    export_dataset(sample_dataset, "dpo", out, max_pairs_per_group=8, split="all")
    used = (
        pl.read_parquet(out)
        .group_by("problem_id", "language")
        .agg(
            chosen=pl.col("chosen_submission_id").n_unique(),
            rejected=pl.col("rejected_submission_id").n_unique(),
        )
    )
    sides = solutions.group_by("problem_id", "language").agg(
        c=pl.col("is_correct").sum(), i=(~pl.col("is_correct")).sum()
    )
    for _, _, chosen, rejected, c, i in used.join(sides, on=["problem_id", "language"]).iter_rows():
        assert chosen == min(8, c)
        assert rejected == min(8, c, i)


def test_kto_labels_every_solution(sample_dataset, solutions, prompts, tmp_path):
    out = tmp_path / "kto.parquet"
    report = export_dataset(sample_dataset, "kto", out, split="all")
    ds = load(out, tmp_path)
    assert ds.column_names[:3] == ["prompt", "completion", "label"]
    rows = pl.DataFrame(ds.to_dict())
    assert report.rows == rows.height == solutions.height
    joined = rows.join(solutions, on="submission_id")
    assert (joined["label"] == joined["is_correct"]).all()
    assert (joined["completion"] == joined["code"]).all()
    assert rows["label"].any() and not rows["label"].all()
    for p, lang, prompt in rows.select("problem_id", "language", "prompt").iter_rows():
        assert prompt == prompts[(p, lang)] + SEPARATOR


def test_verl_solutions_rows_carry_the_logged_verdict(sample_dataset, solutions, prompts, tmp_path):
    out = tmp_path / "verl.parquet"
    export_dataset(sample_dataset, "verl-solutions", out, split="all")
    ds = load(out, tmp_path)
    assert set(ds.column_names) == {
        "data_source",
        "prompt",
        "ability",
        "reward_model",
        "extra_info",
    }
    assert len(ds) == solutions.height
    by_id = {r["submission_id"]: r for r in solutions.iter_rows(named=True)}
    for i, row in enumerate(ds):
        info = row["extra_info"]
        solution = by_id[info["submission_id"]]
        assert row["data_source"] == "codelog/codenet" and row["ability"] == "code"
        assert row["prompt"] == [
            {"role": "user", "content": prompts[(solution["problem_id"], solution["language"])]}
        ]
        assert row["reward_model"]["style"] == "rule"
        truth = json.loads(row["reward_model"]["ground_truth"])
        assert truth == {
            "outcome": solution["outcome"],
            "reward": solution["reward"],
            "is_correct": solution["is_correct"],
        }
        assert info["response"] == solution["code"] and info["index"] == i
        assert (info["split"], info["dialect"]) == (solution["split"], solution["dialect"])
        assert (info["problem_id"], info["outcome"], info["reward"]) == (
            solution["problem_id"],
            solution["outcome"],
            solution["reward"],
        )


def test_a_failed_export_keeps_the_previous_file(sample_dataset, tmp_path, monkeypatch):
    out = tmp_path / "kto.parquet"
    export_dataset(sample_dataset, "kto", out, split="all")
    before = out.read_bytes()

    def broken(self, batch, *args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(pq.ParquetWriter, "write_batch", broken)
    with pytest.raises(OSError, match="disk full"):
        export_dataset(sample_dataset, "dpo", out, split="all")
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["kto.parquet"]


def test_cli_export(sample_dataset, tmp_path):
    out = tmp_path / "pairs.parquet"
    result = CliRunner().invoke(
        cli,
        [
            "export",
            str(sample_dataset),
            "--format",
            "dpo",
            "--out",
            str(out),
            "--max-pairs-per-problem",
            "2",
            "--seed",
            "3",
            "--split",
            "all",
        ],
    )
    assert result.exit_code == 0, result.output
    pairs = pl.read_parquet(out)
    assert pairs.group_by("problem_id").len()["len"].max() == 2
    assert f"wrote {pairs.height} dpo rows of split all" in result.stderr, "chatter on stderr"
    assert result.stdout == "", "export has no result data for stdout"


def reseal(dataset: Path) -> None:
    """Recompute the manifest's file entries after editing a table on purpose."""
    manifest = json.loads((dataset / MANIFEST).read_text())
    manifest["files"] = file_entries(dataset, manifest["files"])
    (dataset / MANIFEST).write_text(json.dumps(manifest))


def test_problems_without_a_statement_are_left_out_and_counted(sample_dataset, solutions, tmp_path):
    copy = tmp_path / "ds"
    shutil.copytree(sample_dataset, copy)
    problems = pl.read_parquet(copy / "problems.parquet")
    first = problems["problem_id"][0]
    problems.with_columns(
        prompt=pl.when(pl.col("problem_id") == first).then(None).otherwise(pl.col("prompt"))
    ).write_parquet(copy / "problems.parquet")
    reseal(copy)
    report = export_dataset(copy, "kto", tmp_path / "kto.parquet", split="all")
    missing = solutions.filter(pl.col("problem_id") == first).height
    assert report.skipped_no_statement == missing > 0
    assert report.rows == solutions.height - missing
    assert first not in pl.read_parquet(tmp_path / "kto.parquet")["problem_id"].to_list()


def test_render_prompt_lets_the_template_decide_what_follows_the_statement():
    assert render_prompt("{statement}\n\nIn {language}.", "Add.\n", "Go") == "Add.\n\nIn Go."


def test_every_export_carries_split_and_dialect(sample_dataset, solutions, tmp_path):
    by_id = {r["submission_id"]: r for r in solutions.iter_rows(named=True)}
    for fmt, id_column in (("dpo", "chosen_submission_id"), ("kto", "submission_id")):
        out = tmp_path / f"{fmt}.parquet"
        export_dataset(sample_dataset, fmt, out, split="all")
        rows = pl.read_parquet(out).to_dicts()
        assert {r["split"] for r in rows} == {"train", "test"}
        for r in rows:
            assert (r["split"], r["dialect"]) == (
                by_id[r[id_column]]["split"],
                by_id[r[id_column]]["dialect"],
            )


@pytest.mark.parametrize("fmt", ["dpo", "kto"])
def test_chat_exports_are_trls_conversational_format(
    sample_dataset, solutions, prompts, tmp_path, fmt
):
    out = tmp_path / f"{fmt}-chat.parquet"
    plain = tmp_path / f"{fmt}.parquet"
    report = export_dataset(sample_dataset, fmt, out, chat=True, split="all")
    export_dataset(sample_dataset, fmt, plain, split="all")
    ds = load(out, tmp_path)
    trl = pytest.importorskip("trl")
    assert trl.data_utils.is_conversational(ds[0])
    code = {r["submission_id"]: r["code"] for r in solutions.iter_rows(named=True)}
    completions = ("chosen", "rejected") if fmt == "dpo" else ("completion",)
    ids = ("chosen_submission_id", "rejected_submission_id") if fmt == "dpo" else ("submission_id",)
    for row in ds:
        # the chat template, not a separator, joins the turns
        assert row["prompt"] == [
            {"role": "user", "content": prompts[(row["problem_id"], row["language"])]}
        ]
        for column, id_column in zip(completions, ids, strict=True):
            assert row[column] == [{"role": "assistant", "content": code[row[id_column]]}]
    same = pl.read_parquet(plain).drop("prompt", *completions)
    assert pl.read_parquet(out).drop("prompt", *completions).equals(same)  # same rows otherwise
    assert report.rows == len(ds)


def test_chat_is_refused_for_verl_whose_prompt_is_always_chat(sample_dataset, tmp_path):
    with pytest.raises(CodelogError, match="--chat is not for verl"):
        export_dataset(sample_dataset, "verl", tmp_path / "verl.parquet", chat=True, split="all")


def test_cli_export_chat(sample_dataset, tmp_path):
    out = tmp_path / "chat.parquet"
    result = CliRunner().invoke(
        cli,
        [
            "export",
            str(sample_dataset),
            "--format",
            "kto",
            "--out",
            str(out),
            "--chat",
            "--split",
            "all",
        ],
    )
    assert result.exit_code == 0, result.output
    assert pl.read_parquet(out)["prompt"][0][0]["role"] == "user"
