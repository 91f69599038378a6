"""`codelog verify`: every corruption of a dataset is reported, and a good dataset passes."""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from codelog import schema
from codelog.cli import cli
from codelog.dataset.verify import verify_dataset
from codelog.errors import DatasetError
from codelog.publish.manifest import MANIFEST, file_entries
from tests.codenet_tree import CodenetTree
from tests.conftest import build_sample

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = {"solutions": schema.SOLUTION, "rejects": schema.REJECT, "problems": schema.PROBLEM}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two groups, one duplicate and one missing source: every table has rows."""
    root = tmp_path_factory.mktemp("verify")
    tree = CodenetTree.standard(root / "tree")
    tree.add("s000000009", "p00001", "Wrong Answer", b"n = int(input())\nprint(n + 2)\n")
    tree.add("s000000010", "p00002", "Accepted", None)
    tree.write()
    report = build_sample(root / "ds", root=tree.root, workers=1)
    assert report.manifest["counts"]["rejects_by_reason"] == {"duplicate": 1, "missing_source": 1}
    return root / "ds"


@pytest.fixture
def ds(built: Path, tmp_path: Path) -> Path:
    """A private copy to corrupt."""
    return Path(shutil.copytree(built, tmp_path / "ds"))


def rewrite(ds: Path, table: str, edit: Callable[[list[dict]], list[dict]]) -> None:
    rows = edit(pq.read_table(ds / f"{table}.parquet").to_pylist())
    pq.write_table(pa.Table.from_pylist(rows, schema=SCHEMAS[table]), ds / f"{table}.parquet")


def edit_manifest(ds: Path, edit: Callable[[dict], None]) -> None:
    manifest = json.loads((ds / MANIFEST).read_text())
    edit(manifest)
    (ds / MANIFEST).write_text(json.dumps(manifest, indent=2))


def reseal(ds: Path) -> None:
    """Recompute the manifest's file entries: a tampering that hashes alone cannot see."""

    def refresh(manifest: dict) -> None:
        manifest["files"] = file_entries(ds, manifest["files"])

    edit_manifest(ds, refresh)


def mismatches(ds: Path) -> str:
    report = verify_dataset(ds)
    assert not report.ok
    return "\n".join(report.mismatches)


def test_a_fresh_build_verifies(built):
    report = verify_dataset(built)
    assert report.ok, report.mismatches
    # solutions, rejects, problems, the two per-split copies of solutions, the card
    assert report.files_checked == 6
    assert report.rows_checked == 10


def test_a_flipped_byte_is_caught(ds):
    path = ds / "solutions.parquet"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    assert "solutions.parquet: sha256" in mismatches(ds)


def test_a_deleted_row_is_caught(ds):
    rewrite(ds, "solutions", lambda rows: rows[1:])
    found = mismatches(ds)
    assert "solutions.parquet: sha256" in found
    assert "solutions.parquet: 7 rows, manifest says 8" in found
    assert "counts: manifest rows_in is 10, tables give 9" in found
    assert "counts: manifest solutions is 8, tables give 7" in found


def test_a_deleted_row_is_caught_even_with_a_resealed_manifest(ds):
    # Both incorrect solutions of p00002 gone: the group has nothing to contrast.
    rewrite(
        ds,
        "solutions",
        lambda rows: [r for r in rows if r["problem_id"] != "p00002" or r["is_correct"]],
    )
    reseal(ds)
    found = mismatches(ds)
    assert "sha256" not in found
    assert "counts: manifest rows_in is 10, tables give 8" in found
    assert (
        "every group has >= 1 correct and >= 1 incorrect solutions' broken: p00002/Python" in found
    )


def test_reject_counts_must_match_the_rejects_table(ds):
    rewrite(
        ds,
        "rejects",
        lambda rows: [
            {**r, "reason": "too_large"} if r["reason"] == "duplicate" else r for r in rows
        ],
    )
    reseal(ds)
    found = mismatches(ds)
    assert "counts: manifest rejects_by_reason[duplicate] is 1, tables give 0" in found
    assert "counts: manifest rejects_by_reason[too_large] is 0, tables give 1" in found


def test_a_submission_in_two_places_is_caught(ds):
    solutions = pq.read_table(ds / "solutions.parquet").to_pylist()
    first = solutions[0]

    def add_copy(rows: list[dict]) -> list[dict]:
        copy = {name: first.get(name) for name in schema.REJECT.names}
        return [*rows, {**copy, "reason": "too_large", "origin": "metadata/x.csv"}]

    rewrite(ds, "rejects", add_copy)

    def count_the_copy(manifest: dict) -> None:
        counts = manifest["counts"]
        counts.update(
            rows_in=11,
            rejects=3,
            rejects_by_reason={"duplicate": 1, "missing_source": 1, "too_large": 1},
        )
        counts["statuses_in"][first["status"]] += 1

    edit_manifest(ds, count_the_copy)
    reseal(ds)
    found = mismatches(ds)
    assert (
        f"'no submission id in two places' broken: {first['submission_id']} appears 2 times"
        in found
    )
    assert "counts" not in found


def test_duplicate_ast_hashes_in_a_problem_are_caught(ds):
    def same_hash(rows: list[dict]) -> list[dict]:
        p1 = [r for r in rows if r["problem_id"] == "p00001"]
        return [
            {**r, "ast_hash": p1[0]["ast_hash"]} if r["problem_id"] == "p00001" else r for r in rows
        ]

    rewrite(ds, "solutions", same_hash)
    reseal(ds)
    assert "solutions share a ast_hash" in mismatches(ds)


def test_the_correct_cap_of_the_manifests_recipe_is_checked(ds):
    edit_manifest(ds, lambda m: m["recipe"]["grouping"].update(max_correct_per_problem=1))
    found = mismatches(ds)
    assert "'at most 1 correct solutions per problem' broken: p00001/Python: 2 correct" in found


def test_rewards_must_be_the_recipes(ds):
    rewrite(
        ds,
        "solutions",
        lambda rows: [{**r, "reward": 0.5} if r["outcome"] == "accepted" else r for r in rows],
    )
    reseal(ds)
    assert "reward 0.5 for accepted, recipe says 1.0" in mismatches(ds)


def test_missing_and_unlisted_files_are_all_reported(ds):
    (ds / "problems.parquet").unlink()
    (ds / "notes.txt").write_text("not part of the dataset")
    found = mismatches(ds)
    assert "problems.parquet: listed in the manifest but missing" in found
    assert "notes.txt: not listed in the manifest" in found
    assert "invariants not checked: cannot read problems" in found


def test_an_edited_card_is_reported_as_edited_not_failed(ds):
    card = ds / "README.md"
    # what `datasets-cli test --save_info` does: more YAML in the card's header
    card.write_text(card.read_text().replace("---\n", "---\ndataset_info:\n  splits: []\n", 1))
    (ds / ".gitattributes").write_text("*.parquet filter=lfs\n")  # a hub upload's
    report = verify_dataset(ds)
    assert report.ok, report.mismatches
    assert report.card == "edited"
    assert any("README.md: edited" in note for note in report.notes)
    assert any(".gitattributes" in note for note in report.notes)


def test_a_missing_card_is_noted_not_failed(ds):
    (ds / "README.md").unlink()
    report = verify_dataset(ds)
    assert report.ok, report.mismatches
    assert report.card == "missing"


def test_statuses_in_must_match_the_tables(ds):
    edit_manifest(ds, lambda m: m["counts"]["statuses_in"].update({"Accepted": 99}))
    found = mismatches(ds)
    assert "counts: manifest statuses_in[Accepted] is 99, tables give" in found


def test_code_that_does_not_hash_to_its_ast_hash_is_caught(ds):
    # A consistent rewrite: the code changed, the manifest resealed, every count still right.
    def new_code(rows: list[dict]) -> list[dict]:
        return [
            {**r, "code": r["code"] + "\nprint('tampered')\n"} if i == 0 else r
            for i, r in enumerate(rows)
        ]

    rewrite(ds, "solutions", new_code)
    reseal(ds)
    first = pq.read_table(ds / "solutions.parquet")["submission_id"][0].as_py()
    found = mismatches(ds)
    assert f"code hash: {first}: ast_hash" in found
    assert found.count("code hash:") == 1


def test_code_hashes_are_not_compared_across_grammar_versions(ds):
    edit_manifest(ds, lambda m: m["ast_hash"].update(grammar="tree-sitter-python 0.0.1"))
    report = verify_dataset(ds)
    assert report.ok, report.mismatches
    assert report.code_hashes_checked == 0
    assert any("not recomputed: built with" in note for note in report.notes)


def test_nan_rewards_fail_verify(tmp_path):
    from codelog.recipe import load_recipe

    base = load_recipe()
    # A recipe that bypassed validation (as one written by an older codelog could have).
    nan_recipe = dataclasses.replace(base, rewards={**base.rewards, "wrong_answer": math.nan})
    tree = CodenetTree.standard(tmp_path / "tree").write()
    build_sample(tmp_path / "ds", root=tree, workers=1, recipe=nan_recipe)
    found = mismatches(tmp_path / "ds")
    assert "recipe: reward of wrong_answer is nan, not a finite number" in found
    assert "invariant 'every reward is finite' broken" in found


def test_a_truncated_parquet_file_is_reported_not_raised(ds):
    path = ds / "rejects.parquet"
    path.write_bytes(path.read_bytes()[:100])
    found = mismatches(ds)
    assert "rejects.parquet: not a readable Parquet file" in found


def test_without_a_manifest_it_is_not_a_dataset(ds):
    (ds / MANIFEST).unlink()
    with pytest.raises(DatasetError, match=r"no manifest\.json"):
        verify_dataset(ds)


def test_cli_exit_status_and_report(ds):
    def verify() -> subprocess.CompletedProcess:
        cmd = [sys.executable, "-m", "codelog.cli", "verify", str(ds)]
        return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)

    good = verify()
    assert good.returncode == 0, good.stderr
    assert "ok (6 files, 10 rows" in good.stdout
    rewrite(ds, "solutions", lambda rows: rows[1:])
    bad = verify()
    assert bad.returncode == 1
    assert "solutions.parquet: 7 rows, manifest says 8" in bad.stdout, "the report is the result"
    assert bad.stderr.startswith("error: ") and "mismatch(es) found" in bad.stderr
    assert len(bad.stderr.splitlines()) == 1


def test_cli_json_report(ds):
    result = CliRunner().invoke(cli, ["verify", str(ds), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["rows_checked"] == 10
    assert report["code_hashes_checked"] == 8 and report["card"] == "as built"
