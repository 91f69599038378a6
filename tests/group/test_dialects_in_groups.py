"""The dialect filter and dialect groups, end to end on CodeNet trees and CI exports."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from codelog.builder import run_build
from codelog.dataset.open import open_dataset
from codelog.dataset.verify import verify_dataset
from codelog.errors import InputError, RecipeError
from codelog.options import BuildOptions
from codelog.recipe import Dialects, Limits, Recipe, load_recipe
from tests.codenet_tree import CodenetTree
from tests.conftest import build_sample

PY2, PY3 = "Python (2.7.6)", "Python (3.8.2)"
DOUBLE = "n = int(input())\nprint(n * 2)\n"
OFF_BY_TWO = "n = int(input())\nprint(n + 2)\n"
PY2_DOUBLE = "n = int(raw_input())\nprint n * 2\n"  # accepted by Python 2, fails under Python 3
PY2_WRONG = "n = int(raw_input())\nprint n + 2\n"


def tree_with_both_dialects(root: Path) -> CodenetTree:
    tree = CodenetTree(root)
    tree.add("s001", "p00001", "Accepted", DOUBLE.encode(), PY3)
    tree.add("s002", "p00001", "Wrong Answer", OFF_BY_TWO.encode(), PY3)
    tree.add("s003", "p00001", "Accepted", PY2_DOUBLE.encode(), PY2, date=1_500_000_000)
    tree.add("s004", "p00001", "Runtime Error", PY2_DOUBLE.encode(), PY3)  # the same code
    tree.add("s005", "p00001", "Wrong Answer", PY2_WRONG.encode(), "PyPy2 (5.6.0)")
    tree.write()
    return tree


def add_contrasting_problem(tree: CodenetTree) -> None:
    """A Python 3 group with contrast in another problem, so that the build has something to
    publish (a build that keeps nothing is an error) while the rows under test are rejected."""
    tree.add("s901", "p00002", "Accepted", DOUBLE.encode(), PY3)
    tree.add("s902", "p00002", "Wrong Answer", OFF_BY_TWO.encode(), PY3)


def build(tree: CodenetTree, out: Path, **dialects) -> dict:
    recipe = load_recipe()
    if dialects:
        recipe = dataclasses.replace(recipe, dialects=Dialects(**dialects))
    return build_sample(out, root=tree.root, workers=1, recipe=recipe).manifest


def rows(out: Path, table: str) -> dict[str, dict]:
    return {r["submission_id"]: r for r in pq.read_table(out / f"{table}.parquet").to_pylist()}


def test_python_keeps_python3_only_by_default_and_names_the_reason(tmp_path):
    tree = tree_with_both_dialects(tmp_path / "tree")
    manifest = build(tree, tmp_path / "ds")
    solutions, rejects = rows(tmp_path / "ds", "solutions"), rows(tmp_path / "ds", "rejects")
    assert set(solutions) == {"s001", "s002", "s004"}
    assert {s["dialect"] for s in solutions.values()} == {"python3"}
    assert {sid: r["reason"] for sid, r in rejects.items()} == {
        "s003": "dialect",
        "s005": "dialect",
    }
    assert rejects["s003"]["dialect"] == "python2"
    assert "original_language 'Python (2.7.6)'" in rejects["s003"]["detail"]
    assert "keeps python = python3" in rejects["s003"]["detail"]
    assert manifest["counts"]["rejects_by_reason"] == {"dialect": 2}
    assert manifest["dialects"]["filter"] == {"python": ["python3"], "unknown": "keep"}
    assert manifest["dialects"]["rows_in"] == {"python3": 3, "python2": 2}
    assert manifest["dialects"]["solutions"] == {"python3": 3}


def test_groups_never_mix_dialects(tmp_path):
    tree = tree_with_both_dialects(tmp_path / "tree")
    manifest = build(tree, tmp_path / "ds", python=["python2", "python3"])
    solutions = rows(tmp_path / "ds", "solutions")
    # the same program under both interpreters: one solution per dialect, not a duplicate
    assert solutions["s003"]["ast_hash"] == solutions["s004"]["ast_hash"]
    assert solutions["s003"]["dialect"] == "python2" and solutions["s004"]["dialect"] == "python3"
    assert solutions["s003"]["dup_count"] == solutions["s004"]["dup_count"] == 1
    con = open_dataset(tmp_path / "ds")
    groups = con.sql(
        "SELECT dialect, n_correct, n_incorrect FROM groups ORDER BY dialect"
    ).fetchall()
    assert groups == [("python2", 1, 1), ("python3", 1, 2)]
    assert manifest["counts"]["groups"] == 2
    assert verify_dataset(tmp_path / "ds").ok


def test_a_dialect_alone_has_no_contrast_even_when_the_other_has(tmp_path):
    tree = CodenetTree(tmp_path / "tree")
    tree.add("s001", "p00001", "Accepted", PY2_DOUBLE.encode(), PY2)
    tree.add("s002", "p00001", "Runtime Error", PY2_DOUBLE.encode(), PY3)
    add_contrasting_problem(tree)
    tree.write()
    build(tree, tmp_path / "ds", python=["python2", "python3"])
    rejects = rows(tmp_path / "ds", "rejects")
    # the showcase pair of the sample: it would teach the interpreter version, not a fix
    assert {sid: r["reason"] for sid, r in rejects.items() if r["problem_id"] == "p00001"} == {
        "s001": "no_contrast",
        "s002": "no_contrast",
    }


@pytest.mark.parametrize(("unknown", "kept"), [("keep", True), ("reject", False)])
def test_rows_whose_original_language_tells_no_dialect(tmp_path, unknown, kept):
    tree = CodenetTree(tmp_path / "tree")
    tree.add("s001", "p00001", "Accepted", DOUBLE.encode(), "PyPy (7.3.0)")
    tree.add("s002", "p00001", "Wrong Answer", OFF_BY_TWO.encode(), "PyPy (7.3.0)")
    add_contrasting_problem(tree)
    tree.write()
    manifest = build(tree, tmp_path / "ds", unknown=unknown)
    solutions, rejects = (
        {sid: r for sid, r in rows(tmp_path / "ds", table).items() if r["problem_id"] == "p00001"}
        for table in ("solutions", "rejects")
    )
    assert manifest["dialects"]["unknown_original_languages"] == ["PyPy (7.3.0)"]
    if kept:
        assert {s["dialect"] for s in solutions.values()} == {None}
        assert len(solutions) == 2
    else:
        assert {r["reason"] for r in rejects.values()} == {"dialect"}
        assert rejects["s001"]["detail"].startswith("dialect unknown (original_language 'PyPy")


def test_the_sample_keeps_python3_only(sample_build):
    # 177 of the sample's 1,609 Python rows are Python 2 ("Python", "Python (2.7.6)", "PyPy2")
    dialects = sample_build.manifest["dialects"]
    assert dialects["rows_in"] == {"python3": 1432, "python2": 177}
    assert sample_build.manifest["counts"]["rejects_by_reason"]["dialect"] == 177
    assert set(dialects["solutions"]) == {"python3"}


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"python": ["python4"]}, "not dialects of python"),
        ({"python": []}, "keeps no dialect"),
        ({"python": "python3"}, "must be a list"),
        ({"unknown": "guess"}, "unknown must be 'keep' or 'reject'"),
        ({"perl": ["perl5"]}, "unknown key"),
    ],
)
def test_bad_dialect_sections_are_refused(section, message):
    data = load_recipe().to_dict() | {"dialects": section}
    with pytest.raises(RecipeError, match=message):
        Recipe.from_dict(data)


# -- CI exports: an explicit dialect column, or original_language ----------------------------


def ci_build(tmp_path: Path, export: list[dict], **overrides) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in export), encoding="utf-8")
    options = BuildOptions(
        source="ci",
        language="python",
        out=tmp_path / "ds",
        recipe=overrides.pop("recipe", load_recipe()),
        inputs=(str(path),),
        workers=1,
        show_progress=False,
    )
    run_build(options)
    return tmp_path / "ds"


def ci_row(sid: str, status: str, code: str, **fields) -> dict:
    return {
        "submission_id": sid,
        "problem_id": "p",
        "language": "Python",
        "status": status,
        "code": code,
    } | fields


def test_ci_rows_take_the_dialect_column_or_original_language(tmp_path):
    out = ci_build(
        tmp_path,
        [
            ci_row("a", "passed", DOUBLE, dialect="python3"),
            ci_row("b", "failed", OFF_BY_TWO, original_language="Python 3.11.4"),
            ci_row("c", "passed", PY2_DOUBLE, original_language="python 2.7.18"),
            ci_row("d", "failed", PY2_WRONG, original_language="Python 3.11", dialect="python2"),
            ci_row("e", "passed", DOUBLE + "#\n"),  # nothing says: unknown, kept apart
        ],
    )
    solutions, rejects = rows(out, "solutions"), rows(out, "rejects")
    assert {sid: s["dialect"] for sid, s in solutions.items()} == {"a": "python3", "b": "python3"}
    assert {sid: (r["dialect"], r["reason"]) for sid, r in rejects.items()} == {
        "c": ("python2", "dialect"),
        "d": ("python2", "dialect"),  # the explicit column wins over original_language
        "e": (None, "no_contrast"),
    }


def test_a_ci_dialect_that_is_not_one_is_a_bad_value(tmp_path):
    export = [
        ci_row("a", "passed", DOUBLE, dialect="python4"),
        ci_row("b", "failed", OFF_BY_TWO, dialect="python3"),
        ci_row("c", "passed", DOUBLE, dialect="python3"),  # b's contrast: the build keeps a group
    ]
    out = ci_build(tmp_path / "reject", export)
    bad = rows(out, "rejects")["a"]
    assert bad["reason"] == "bad_value"
    assert "column 'dialect': python4 is not a dialect of Python" in bad["detail"]
    strict = dataclasses.replace(load_recipe(), limits=Limits(on_error="fail"))
    with pytest.raises(InputError, match=r"line 1.*dialect.*python4 is not a dialect"):
        ci_build(tmp_path / "fail", export, recipe=strict)
