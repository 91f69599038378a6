"""Ruff findings as columns of `solutions`, and the lint-shaped reward ([lint], [lint_reward])."""

from __future__ import annotations

import dataclasses
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from codelog import schema
from codelog.dataset.stats import compute_stats
from codelog.dataset.verify import verify_dataset
from codelog.errors import CodelogError, RecipeError
from codelog.publish.manifest import MANIFEST, file_entries
from codelog.recipe import Recipe, load_recipe
from codelog.stage import lint as lint_module
from tests.codenet_tree import CodenetTree
from tests.conftest import build_sample

# Four findings with [lint] select = E, W, F, B (Ruff 0.6+, no preview rules):
#   F401 `os` imported but unused        -> prefix F   -> warning
#   E741 ambiguous variable name `l`     -> prefix E   -> style
#   F841 `l` assigned but never used     -> prefix F   -> warning
#   F821 undefined name `undefined`      -> prefix F82 -> error
KNOWN = b"import os\n\n\ndef f(x):\n    l = 1\n    return undefined\n\n\nprint(f(2))\n"
CLEAN = b"n = int(input())\nprint(n * 2)\n"


def lint_recipe(shaping: bool = True) -> Recipe:
    base = load_recipe()
    return dataclasses.replace(
        base,
        lint=dataclasses.replace(base.lint, enabled=True),
        lint_reward=dataclasses.replace(base.lint_reward, enabled=shaping),
    )


@pytest.fixture(scope="module")
def linted(tmp_path_factory):
    root = tmp_path_factory.mktemp("lint")
    tree = CodenetTree(root / "tree")
    tree.add("s000000001", "p00001", "Accepted", KNOWN)
    tree.add("s000000002", "p00001", "Accepted", CLEAN)
    tree.add("s000000003", "p00001", "Wrong Answer", b"print 'py2'\n")
    tree.write()
    calls = []
    real = lint_module.run_ruff

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lint_module, "run_ruff", counted)
        report = build_sample(root / "ds", root=tree.root, workers=1, recipe=lint_recipe())
    rows = {
        r["submission_id"]: r for r in pq.read_table(report.out / "solutions.parquet").to_pylist()
    }
    return report, rows, calls


def test_ruff_runs_once_per_build(linted):
    _, rows, calls = linted
    assert len(calls) == 1 and len(rows) == 3


def test_a_known_programs_findings_and_lint_shaped_reward(linted):
    _, rows, _ = linted
    known = rows["s000000001"]
    assert known["lint_codes"] == ["E741", "F401", "F821", "F841"]
    assert (
        known["lint_findings"],
        known["lint_error"],
        known["lint_warning"],
        known["lint_style"],
    ) == (
        4,
        1,
        2,
        1,
    )
    # reward_lint = reward - min(cap, weight * n) = 1.0 - min(0.5, 0.05 * 4)
    assert known["lint_penalty"] == pytest.approx(0.2)
    assert known["reward_lint"] == pytest.approx(0.8)
    clean = rows["s000000002"]
    assert (clean["lint_findings"], clean["lint_codes"], clean["reward_lint"]) == (0, [], 1.0)


def test_a_program_ruff_cannot_parse_is_one_syntax_error(linted):
    _, rows, _ = linted
    py2 = rows["s000000003"]
    assert "invalid-syntax" in py2["lint_codes"] and py2["lint_error"] >= 1
    assert py2["reward_lint"] == pytest.approx(-0.1 - 0.05 * py2["lint_findings"])


def test_the_penalty_is_capped(tmp_path):
    many = b"import os, sys, re, math, json, time, random, string, heapq, bisect, itertools\n"
    tree = CodenetTree(tmp_path / "tree")
    tree.add("s000000001", "p00001", "Accepted", many + b"print(1)\n")
    tree.add("s000000002", "p00001", "Wrong Answer", CLEAN)
    tree.write()
    report = build_sample(tmp_path / "ds", root=tree.root, workers=1, recipe=lint_recipe())
    row = pq.read_table(report.out / "solutions.parquet").to_pylist()[0]
    assert row["lint_findings"] >= 11  # E401 and an F401 per module
    assert row["lint_penalty"] == 0.5 and row["reward_lint"] == 0.5


def test_a_linted_dataset_verifies_and_its_stats_profile_lint_by_outcome(linted):
    report, _, _ = linted
    assert verify_dataset(report.out).ok
    profiles = {p.outcome: p for p in compute_stats(report.out).by_outcome}
    accepted = profiles["accepted"]
    assert accepted.findings_mean == pytest.approx(2.0)  # 4 and 0
    assert accepted.clean_share == pytest.approx(0.5)
    assert accepted.top_codes[0] == ("E741", 1)


def test_the_default_build_has_no_lint_columns(sample_dataset):
    assert pq.read_schema(sample_dataset / "solutions.parquet").names == schema.SOLUTION.names
    profiles = compute_stats(sample_dataset).by_outcome
    assert profiles and all(p.findings_mean is None for p in profiles)
    assert sum(p.solutions for p in profiles) == 749


def test_lint_needs_python(tmp_path):
    with pytest.raises(CodelogError, match="Python"):
        lint_module.lint_solutions(None, lint_recipe(), tmp_path, "C++")


def test_shaping_without_lint_is_refused():
    data = load_recipe().to_dict()
    with pytest.raises(RecipeError, match=r"\[lint_reward\] needs \[lint\]"):
        Recipe.from_dict({**data, "lint_reward": {"enabled": True}})


def test_ruff_over_several_chunks_finds_the_same(tmp_path, monkeypatch, linted):
    _, rows, _ = linted
    tree = CodenetTree(tmp_path / "tree")
    tree.add("s000000001", "p00001", "Accepted", KNOWN)
    tree.add("s000000002", "p00001", "Accepted", CLEAN)
    tree.add("s000000003", "p00001", "Wrong Answer", b"print 'py2'\n")
    tree.write()
    calls = []
    real = lint_module.run_ruff

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(lint_module, "CHUNK_BYTES", 1)  # every file its own chunk
    monkeypatch.setattr(lint_module, "run_ruff", counted)
    report = build_sample(tmp_path / "ds", root=tree.root, workers=1, recipe=lint_recipe())
    chunked = pq.read_table(report.out / "solutions.parquet").to_pylist()
    assert len(calls) == 3
    assert {r["submission_id"]: r for r in chunked} == rows


def test_verify_catches_a_reward_lint_off_the_formula(linted, tmp_path):
    report, _, _ = linted
    ds = shutil.copytree(report.out, tmp_path / "ds")
    table = pq.read_table(ds / "solutions.parquet")
    rows = table.to_pylist()
    rows[0]["reward_lint"] = rows[0]["reward"]  # as if unpenalised
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), ds / "solutions.parquet")
    manifest = json.loads((ds / MANIFEST).read_text())
    manifest["files"] = file_entries(ds, manifest["files"])
    (ds / MANIFEST).write_text(json.dumps(manifest))
    found = verify_dataset(ds).mismatches
    assert any("reward_lint" in m and rows[0]["submission_id"] in m for m in found), found


def test_training_takes_the_lint_shaped_reward_when_told(linted, sample_dataset):
    from codelog.errors import DatasetError
    from codelog.train import data
    from codelog.train.options import resolve_recipe

    report, rows, _ = linted
    dataset = data.open_dataset(report.out)
    ids = [r.as_py() for r in pq.read_table(dataset.solutions)["submission_id"]]
    shaped = data.read_index(dataset, "reward_lint")
    plain = data.read_index(dataset)
    assert shaped.rewards.tolist() == [rows[i]["reward_lint"] for i in ids]
    assert plain.rewards.tolist() == [rows[i]["reward"] for i in ids]
    assert shaped.rewards[ids.index("s000000001")] < plain.rewards[ids.index("s000000001")]

    told = resolve_recipe(load_recipe(), {"reward": "reward_lint"})
    with pytest.raises(DatasetError, match=r"no column 'reward_lint'.*\[lint_reward\] enabled"):
        data.training_groups(data.open_dataset(sample_dataset), told, 0.1, 0)
    with pytest.raises(RecipeError, match="--reward lint: must be reward or reward_lint"):
        resolve_recipe(load_recipe(), {"reward": "lint"})
