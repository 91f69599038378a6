"""The lines docs/exporting.md gives for loading an export, run as written: each split holds
its own problems only. A glob (`data_files="OUT/*.parquet"`) would be one split with the
test problems in it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.clients.conftest import datasets

REPO = Path(__file__).resolve().parents[2]


def documented_load_lines() -> str:
    page = (REPO / "docs" / "exporting.md").read_text(encoding="utf-8")
    found = [b for b in re.findall(r"```python\n(.*?)```", page, re.S) if "load_dataset" in b]
    assert len(found) == 1, "docs/exporting.md shows how to load an export's splits"
    return found[0]


def test_the_documented_load_lines_keep_the_splits_apart(export):
    out = export("kto")
    block = documented_load_lines()
    assert "*" not in block
    loaded: dict = {}
    exec(compile(block, "docs/exporting.md", "exec"), {"OUT": str(out)}, loaded)
    assert isinstance(loaded["ds"], datasets.DatasetDict)
    for split in ("train", "test"):
        assert set(loaded[split]["split"]) == {split}
        assert loaded[split].num_rows == loaded["ds"][split].num_rows > 0


def test_a_glob_would_have_merged_them(export):
    """Why the docs never show one: the test problems come back as `train`."""
    merged = datasets.load_dataset("parquet", data_files=f"{export('kto')}/*.parquet")
    assert list(merged) == ["train"] and set(merged["train"]["split"]) == {"train", "test"}
