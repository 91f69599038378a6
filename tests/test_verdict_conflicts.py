"""Copies of one program with different outcomes: counted by the build, handled as the recipe says.

Also the held-out CodeNet pattern the canonical form used to get wrong: a Compile Error copy
that lacks a `;` swallowed the later Wrong Answer program, and the dataset kept the -1.0 copy.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from codelog.builder import run_build
from codelog.cli import cli
from codelog.dataset.open import open_dataset
from codelog.dataset.stats import compute_stats, render_tables
from codelog.errors import RecipeError
from codelog.options import BuildOptions
from codelog.recipe import DEFAULT_RECIPE, Recipe, load_recipe
from tests.dataset.test_querying_doc import QUERIES, TITLES

from .codenet_tree import PROGRAMS, CodenetTree, Submission

FIXTURES = Path(__file__).parent / "fixtures" / "programs"

# One program three times (renamed, recommented): the judge said Accepted, then Runtime Error
# (another interpreter, a flaky judge), then Accepted again.
TWICE = "n = int(input())\nprint(n * n)\n"
COPIES = (
    ("s000000101", "Accepted", TWICE),
    ("s000000102", "Runtime Error", "k = int(input())\nprint(k * k)\n"),
    ("s000000103", "Accepted", "# square it\n" + TWICE),
)


def with_policy(on_conflict: str | None) -> Recipe:
    recipe = load_recipe()
    if on_conflict is None:
        return recipe
    return dataclasses.replace(
        recipe, grouping=dataclasses.replace(recipe.grouping, on_conflict=on_conflict)
    )


def build(root: Path, out: Path, *, language: str = "python", on_conflict: str | None = None):
    options = BuildOptions(
        source="codenet",
        language=language,
        out=out,
        recipe=with_policy(on_conflict),
        root=root,
        workers=1,
        show_progress=False,
    )
    return run_build(options)


@pytest.fixture(scope="module")
def conflict_tree(tmp_path_factory) -> Path:
    tree = CodenetTree.standard(tmp_path_factory.mktemp("conflict") / "root", ("p00001",))
    for n, (sid, status, code) in enumerate(COPIES):
        tree.submissions.append(
            Submission(sid, "p00001", status, code.encode(), date=1_700_000_000 + n)
        )
    return tree.write()


def fates(out: Path) -> dict[str, tuple]:
    """submission_id -> (reason or None, outcome, dup_count or None) for the three copies."""
    con = open_dataset(out)
    rows = con.sql(
        "SELECT submission_id, NULL, outcome, dup_count FROM solutions "
        "UNION ALL SELECT submission_id, reason, outcome, NULL FROM rejects"
    ).fetchall()
    return {sid: (reason, outcome, dups) for sid, reason, outcome, dups in rows if sid > "s0000001"}


def test_the_default_is_drop_and_the_recipe_file_says_why():
    assert load_recipe().grouping.on_conflict == "drop"
    text = DEFAULT_RECIPE.read_text(encoding="utf-8")
    assert 'on_conflict = "drop"' in text and "per_outcome" in text and "earliest" in text


def test_drop_rejects_every_copy_and_counts_add_up(conflict_tree, tmp_path):
    report = build(conflict_tree, tmp_path / "ds")
    counts = report.manifest["counts"]
    assert counts["verdict_conflicts"] == 1 and counts["verdict_conflict_submissions"] == 3
    assert counts["rejects_by_reason"]["verdict_conflict"] == 3
    assert counts["rows_in"] == counts["solutions"] + counts["rejects"] == len(PROGRAMS) + 3
    got = fates(report.out)
    assert {sid: fate[0] for sid, fate in got.items()} == dict.fromkeys(
        [sid for sid, _, _ in COPIES], "verdict_conflict"
    )
    detail = (
        open_dataset(report.out)
        .sql("SELECT DISTINCT detail FROM rejects WHERE reason = 'verdict_conflict'")
        .fetchall()
    )
    assert detail == [("copies of this program have outcomes accepted, runtime_error",)]


def test_earliest_keeps_the_first_copy_and_still_counts_the_conflict(conflict_tree, tmp_path):
    report = build(conflict_tree, tmp_path / "ds", on_conflict="earliest")
    assert report.manifest["counts"]["verdict_conflicts"] == 1
    assert fates(report.out) == {
        "s000000101": (None, "accepted", 3),
        "s000000102": ("duplicate", "runtime_error", None),
        "s000000103": ("duplicate", "accepted", None),
    }


def test_per_outcome_keeps_one_copy_per_outcome(conflict_tree, tmp_path):
    report = build(conflict_tree, tmp_path / "ds", on_conflict="per_outcome")
    assert report.manifest["counts"]["verdict_conflicts"] == 1
    assert fates(report.out) == {
        "s000000101": (None, "accepted", 2),
        "s000000102": (None, "runtime_error", 1),
        "s000000103": ("duplicate", "accepted", None),
    }


def test_stats_and_summary_show_the_conflicts(conflict_tree, tmp_path):
    out = tmp_path / "ds"
    result = CliRunner().invoke(
        cli,
        ["build", "--root", str(conflict_tree), "--out", str(out), "--workers", "1"],
        terminal_width=200,
    )
    assert result.exit_code == 0, result.output
    assert "verdict conflicts (programs)" in result.output
    assert "1 programs were judged differently across their 3 copies" in result.output
    assert '[grouping] on_conflict = "drop"' in result.output
    stats = compute_stats(out)
    assert stats.verdict_conflicts is not None
    assert (stats.verdict_conflicts.programs, stats.verdict_conflicts.submissions) == (1, 3)
    # three dropped copies of one program: one distinct program, not three
    assert stats.dedup.submissions == len(PROGRAMS) + 3
    assert stats.dedup.programs == len(PROGRAMS) + 1
    shown = CliRunner().invoke(cli, ["stats", str(out)], terminal_width=200)
    assert "verdict conflicts (programs)" in shown.output and "on_conflict drop" in shown.output
    assert render_tables(stats)


def test_a_conflict_build_is_byte_identical_when_repeated(conflict_tree, tmp_path):
    first = build(conflict_tree, tmp_path / "a")
    second = build(conflict_tree, tmp_path / "b")
    for name in ("solutions.parquet", "rejects.parquet"):
        assert (first.out / name).read_bytes() == (second.out / name).read_bytes(), name


def test_an_unknown_policy_is_refused_by_name():
    data = load_recipe().to_dict()
    data["grouping"]["on_conflict"] = "newest"
    with pytest.raises(RecipeError, match=r"\[grouping\] on_conflict must be 'drop'"):
        Recipe.from_dict(data)


def test_a_compile_error_one_semicolon_short_does_not_swallow_the_wrong_answer(tmp_path):
    # The held-out pattern: same program but for one `;`, the CE copy submitted first.
    wrong = (FIXTURES / "p00002.c").read_text().replace("digits++;", "digits += 2;")
    broken = wrong.replace("sum /= 10;", "sum /= 10", 1)
    assert broken != wrong
    tree = CodenetTree(tmp_path / "root")
    for n, (sid, status, code) in enumerate(
        [
            ("s000000001", "Compile Error", broken),
            ("s000000002", "Wrong Answer", wrong),
            ("s000000003", "Accepted", (FIXTURES / "p00002.c").read_text()),
        ]
    ):
        tree.submissions.append(
            Submission(sid, "p00002", status, code.encode(), language="C", ext="c", date=n)
        )
    report = build(tree.write(), tmp_path / "ds", language="c")
    con = open_dataset(report.out)
    kept = dict(con.sql("SELECT submission_id, outcome FROM solutions").fetchall())
    assert kept == {
        "s000000001": "compile_error",
        "s000000002": "wrong_answer",
        "s000000003": "accepted",
    }
    assert report.manifest["counts"]["verdict_conflicts"] == 0
    assert report.manifest["ast_hash"]["form_version"] >= 3


@pytest.mark.parametrize("on_conflict", ["drop", "earliest", "per_outcome"])
def test_the_readme_query_finds_the_conflict_under_every_policy(
    conflict_tree, tmp_path, on_conflict
):
    query = QUERIES[TITLES.index("Verdict conflicts")]
    out = build(conflict_tree, tmp_path / "ds", on_conflict=on_conflict).out
    rows = open_dataset(out).sql(query).fetchall()
    assert [row[3:] for row in rows] == [(1, 3, ["accepted", "runtime_error"])]
