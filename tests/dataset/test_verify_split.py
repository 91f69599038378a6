"""`codelog verify` checks the split: per-split copies and the problems' splits agree."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from codelog import schema
from codelog.dataset.verify import verify_dataset
from codelog.publish.manifest import MANIFEST, file_entries


def copy_of(sample_dataset: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(sample_dataset, tmp_path / "ds"))


def rewrite(path: Path, edit) -> None:
    rows = edit(pq.read_table(path).to_pylist())
    pq.write_table(pa.Table.from_pylist(rows, schema=schema.SOLUTION), path)


def reseal(ds: Path) -> None:
    """Hashes and row counts recomputed: only the invariants can see the edit."""
    manifest = json.loads((ds / MANIFEST).read_text())
    manifest["files"] = file_entries(ds, manifest["files"])
    (ds / MANIFEST).write_text(json.dumps(manifest, indent=2))


def test_the_sample_verifies_with_its_split_files(sample_dataset):
    report = verify_dataset(sample_dataset)
    assert report.ok, report.mismatches
    assert report.files_checked == 6


def test_a_split_copy_that_lost_a_row_is_found(sample_dataset, tmp_path):
    ds = copy_of(sample_dataset, tmp_path)
    rewrite(ds / "solutions-test.parquet", lambda rows: rows[1:])
    reseal(ds)
    report = verify_dataset(ds)
    assert report.mismatches == [
        "solutions-test.parquet: 1 rows differ from the solutions of split 'test'"
    ]


def test_a_solution_moved_to_the_other_split_is_found(sample_dataset, tmp_path):
    ds = copy_of(sample_dataset, tmp_path)

    def move_first(rows: list[dict]) -> list[dict]:
        rows[0]["split"] = "test" if rows[0]["split"] == "train" else "train"
        return rows

    rewrite(ds / "solutions.parquet", move_first)
    reseal(ds)
    found = "\n".join(verify_dataset(ds).mismatches)
    assert "invariant 'a solution's split is its problem's split' broken" in found
    assert "rows differ from the solutions of split" in found  # both copies disagree now
