"""One problem, two ids: the same statement under two problem ids shares a split, and the
programs submitted to both dedup together."""

from __future__ import annotations

import csv
import shutil

import duckdb
import pytest

from codelog.ingest.codenet import BUNDLED_ROOT
from tests.conftest import build_sample

TWIN = "p09400"  # not a CodeNet id: p02400's statement posted again


@pytest.fixture(scope="module")
def twin_tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("twins")
    for pid in ("p02400", "p02407"):
        shutil.copytree(BUNDLED_ROOT / "data" / pid / "Python", root / "data" / pid / "Python")
        (root / "metadata").mkdir(exist_ok=True)
        shutil.copy(BUNDLED_ROOT / "metadata" / f"{pid}.csv", root / "metadata")
        (root / "problem_descriptions").mkdir(exist_ok=True)
        shutil.copy(
            BUNDLED_ROOT / "problem_descriptions" / f"{pid}.html", root / "problem_descriptions"
        )
    shutil.copy(
        BUNDLED_ROOT / "problem_descriptions" / "p02400.html",
        root / "problem_descriptions" / f"{TWIN}.html",
    )
    with open(root / "metadata" / "p02400.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["original_language"] == "Python3"]
    copies = [r for r in rows if r["status"] == "Accepted"][:5]
    copies += [r for r in rows if r["status"] == "Wrong Answer"][:5]
    (root / "data" / TWIN / "Python").mkdir(parents=True)
    with open(root / "metadata" / f"{TWIN}.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        for i, r in enumerate(copies):
            new_id = f"s9{i:08d}"
            shutil.copy(
                root / "data" / "p02400" / "Python" / f"{r['submission_id']}.py",
                root / "data" / TWIN / "Python" / f"{new_id}.py",
            )
            # submitted later than every original, so the original is the copy kept
            writer.writerow(
                {**r, "submission_id": new_id, "problem_id": TWIN, "date": "1900000000"}
            )
    return root, [r["submission_id"] for r in copies]


def test_the_same_statement_under_two_ids_is_one_problem(twin_tree, tmp_path):
    root, originals = twin_tree
    report = build_sample(tmp_path / "ds", root=root)
    out = report.out
    split = dict(duckdb.sql(f"SELECT problem_id, split FROM '{out}/problems.parquet'").fetchall())
    assert split.get(TWIN, split["p02400"]) == split["p02400"]
    twins = duckdb.sql(
        f"SELECT reason, detail FROM '{out}/rejects.parquet' WHERE problem_id = '{TWIN}'"
    ).fetchall()
    assert len(twins) == len(originals)
    assert {reason for reason, _ in twins} == {"duplicate"}
    kept_for = {detail.removeprefix("duplicate of ") for _, detail in twins}
    kept = {
        r[0] for r in duckdb.sql(f"SELECT submission_id FROM '{out}/solutions.parquet'").fetchall()
    }
    assert kept_for <= kept and not kept_for & {f"s9{i:08d}" for i in range(10)}
    counts = report.manifest["counts"]
    assert counts["rows_in"] == counts["solutions"] + counts["rejects"]
