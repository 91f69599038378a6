"""`codelog build --decontaminate`: no contaminated problem in train, counts that add up, and a
manifest that holds the check. The benchmark is a file of APPS Hub rows holding one of the
bundled sample's statements, re-typed, and one of its accepted programs as a reference."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import duckdb
import pytest

from codelog.ingest.codenet import BUNDLED_ROOT
from codelog.prompts import html_to_text
from codelog.recipe import load_recipe
from tests.conftest import build_sample

# an accepted Python 3 program of p02400 in the bundled sample (metadata/p02400.csv)
REFERENCE = BUNDLED_ROOT / "data" / "p02400" / "Python" / "s652615216.py"


@pytest.fixture(scope="module")
def bench_rows(tmp_path_factory) -> Path:
    text = html_to_text((BUNDLED_ROOT / "problem_descriptions" / "p03001.html").read_text())
    # as APPS writes it: section bars, TeX comparisons
    question = re.sub(r"^## (.+)$", r"-----\1-----", text, flags=re.M).replace("\\leq", "\\le")
    rows = [
        {"problem_id": 4000, "question": question, "solutions": "[]", "url": "x"},
        {
            "problem_id": 4001,
            "question": "Print the area and circumference of a circle of radius r.",
            "solutions": json.dumps([REFERENCE.read_text()]),
        },
    ]
    path = tmp_path_factory.mktemp("bench") / "apps-rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def build(out: Path, bench: Path, action: str):
    recipe = load_recipe()
    d = dataclasses.replace(recipe.decontaminate, benchmarks=(f"apps:{bench}",), action=action)
    return build_sample(out, recipe=dataclasses.replace(recipe, decontaminate=d))


@pytest.fixture(scope="module")
def built(tmp_path_factory, bench_rows):
    out = tmp_path_factory.mktemp("decon") / "ds"
    drop = build(out, bench_rows, "drop").manifest  # the second build reuses the staged parse
    test = build(out, bench_rows, "test")
    return drop, test


def rows(out: Path, query: str) -> list[tuple]:
    return duckdb.sql(query.replace("{out}", str(out))).fetchall()


def test_action_test_moves_the_contaminated_problems_to_test(built):
    _, report = built
    d = report.manifest["decontamination"]
    found = {(m["problem_id"], m["task_id"], m["level"]) for m in d["matches"]}
    assert found == {("p03001", "4000", "statement"), ("p02400", "4001", "solution")}
    assert d["counts"]["problems"] == 2 and d["counts"]["train_rows_of_contaminated_problems"] == 0
    split = dict(rows(report.out, "SELECT problem_id, split FROM '{out}/problems.parquet'"))
    assert split["p03001"] == split["p02400"] == "test"
    assert rows(
        report.out,
        "SELECT count(*) FROM '{out}/solutions-train.parquet' WHERE problem_id IN ('p03001', 'p02400')",
    ) == [(0,)]
    assert (
        d["counts"]["rows"]
        == rows(
            report.out,
            "SELECT count(*) FROM '{out}/solutions-test.parquet' WHERE problem_id IN ('p03001', 'p02400')",
        )[0][0]
        > 0
    )
    counts = report.manifest["counts"]
    assert counts["rows_in"] == counts["solutions"] + counts["rejects"]


def test_action_drop_rejects_their_rows_naming_benchmark_and_task(built):
    manifest, _ = built
    counts = manifest["counts"]
    dropped = counts["rejects_by_reason"]["contaminated"]
    assert dropped == manifest["decontamination"]["counts"]["rows"] > 0
    assert counts["rows_in"] == counts["solutions"] + counts["rejects"]
    assert manifest["decontamination"]["benchmarks"][0]["sha256"]
    assert manifest["recipe"]["decontaminate"]["action"] == "drop"


def test_the_manifest_records_benchmark_digest_and_rule(built):
    _, report = built
    d = report.manifest["decontamination"]
    [bench] = d["benchmarks"]
    assert bench["benchmark"] == "apps" and bench["problems"] == 2 and len(bench["sha256"]) == 64
    assert d["rule"]["threshold"] == load_recipe().decontaminate.threshold
    assert d["action"] == "test"


def test_off_by_default(sample_build):
    assert "decontamination" not in sample_build.manifest
    assert "decontaminate" not in sample_build.manifest["recipe"]


def test_card_and_stats_show_the_check(built, sample_build):
    from rich.console import Console

    from codelog.dataset.stats import compute_stats, render_tables

    _, report = built
    card = (report.out / "README.md").read_text()
    assert "Decontamination: checked against apps:" in card and "2 problems matched" in card
    assert "moved to the test split" in card
    stats = compute_stats(report.out)
    assert stats.decontamination["counts"]["problems"] == 2
    console = Console(record=True, width=200)
    for part in render_tables(stats):
        console.print(part)
    assert "decontamination (action test" in console.export_text()
    plain = compute_stats(sample_build.out)
    assert plain.decontamination is None
    assert "not checked against any benchmark" in (sample_build.out / "README.md").read_text()


def test_a_bad_decontaminate_section_fails_when_the_recipe_loads(tmp_path):
    from codelog.errors import RecipeError

    path = tmp_path / "r.toml"
    path.write_text('[decontaminate]\nbenchmarks = ["apps"]\naction = "hide"\n')
    with pytest.raises(RecipeError, match=r"\[decontaminate\] action must be 'test' or 'drop'"):
        load_recipe(path)
    path.write_text('[decontaminate]\nbenchmarks = "apps"\n')
    with pytest.raises(RecipeError, match=r"\[decontaminate\] benchmarks must be a list"):
        load_recipe(path)


def test_an_unknown_benchmark_fails_before_the_build_reads_anything(tmp_path):
    from codelog.errors import CodelogError

    recipe = load_recipe()
    d = dataclasses.replace(recipe.decontaminate, benchmarks=("nosuch",))
    with pytest.raises(CodelogError, match="unknown benchmark 'nosuch'"):
        build_sample(tmp_path / "ds", recipe=dataclasses.replace(recipe, decontaminate=d))
    assert not (tmp_path / "ds").exists()


def test_a_missing_local_benchmark_copy_fails_before_the_build_reads_anything(
    tmp_path, monkeypatch
):
    from codelog import builder
    from codelog.errors import InputError

    def staged(*args, **kwargs):
        raise AssertionError("the build went on to stage the sources")

    monkeypatch.setattr(builder, "_build", staged)
    recipe = load_recipe()
    missing = tmp_path / "no-apps.jsonl"
    d = dataclasses.replace(recipe.decontaminate, benchmarks=(f"apps:{missing}",))
    with pytest.raises(InputError, match=r"no such file or directory.*--decontaminate"):
        build_sample(tmp_path / "ds", recipe=dataclasses.replace(recipe, decontaminate=d))
    assert not (tmp_path / "ds").exists()
