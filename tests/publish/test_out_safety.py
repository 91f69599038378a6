"""Where a build may write: only over a codelog dataset (or nothing), never over or into an input.

A refused build leaves every file as it was and writes nothing beside the output either; there
is no flag that lets a build delete a directory codelog did not make.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import codelog
from codelog.cli import cli
from codelog.errors import OutputError
from codelog.publish.writer import publishing
from tests.codenet_tree import write_standard_tree


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return write_standard_tree(tmp_path / "tree")


def write_export(path: Path, rows: list[tuple[str, str]]) -> Path:
    """A CI export of one problem: (status, code) per row."""
    lines = [
        json.dumps(
            {"submission_id": f"s{i}", "problem_id": "p1", "language": "Python", "status": status}
            | {"code": code}
        )
        for i, (status, code) in enumerate(rows)
    ]
    path.write_text("".join(line + "\n" for line in lines))
    return path


def build(tree: Path, out: Path, **kwargs):
    return codelog.build(out, root=tree, workers=1, **kwargs)


def test_a_directory_of_user_files_is_refused_and_left_intact(tree, tmp_path):
    out = tmp_path / "mine"
    (out / "sub").mkdir(parents=True)
    (out / "thesis.tex").write_text("years of work")
    (out / "sub" / "data.csv").write_text("a,b\n1,2\n")
    before = snapshot(out)
    with pytest.raises(OutputError, match=r"is not a codelog dataset \(no manifest.json\)"):
        build(tree, out)
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "tree"], "nothing beside it"


def test_out_dot_is_refused(tree, tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("mine")
    monkeypatch.chdir(work)
    result = CliRunner().invoke(cli, ["build", "--root", str(tree), "--out", ".", "--workers", "1"])
    assert isinstance(result.exception, OutputError)
    assert (work / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("where", ["is", "contains", "lies inside"])
def test_an_out_overlapping_the_codenet_root_is_refused(tree, where):
    out = {"is": tree, "contains": tree.parent, "lies inside": tree / "data" / "ds"}[where]
    before = snapshot(tree)
    with pytest.raises(OutputError, match=f"--out {out} {where} the input {tree}"):
        build(tree, out)
    assert snapshot(tree) == before
    assert not (tree / "data" / "ds").exists()


def test_a_ci_build_refuses_an_out_holding_its_input_file(tmp_path):
    export = tmp_path / "exports" / "runs.jsonl"
    export.parent.mkdir()
    export.write_text('{"submission_id": "s1"}\n')
    with pytest.raises(OutputError, match="contains the input"):
        codelog.build(tmp_path / "exports", source="ci", inputs=[export])
    assert export.exists()


def test_a_ci_build_may_write_inside_its_export_root(tmp_path):
    # The export root is where code paths point, often the project a dataset is built in.
    export = tmp_path / "export.jsonl"
    write_export(export, [("passed", "print(1)\n"), ("failed", "print(2)\n")])
    report = codelog.build(tmp_path / "datasets" / "ci", source="ci", inputs=[export], workers=1)
    assert report.manifest["counts"]["groups"] == 1


def test_an_existing_dataset_is_replaced(tree, tmp_path):
    out = tmp_path / "ds"
    build(tree, out)
    (out / "solutions.parquet").write_bytes(b"stale")  # still a dataset: it has a manifest
    report = build(tree, out, seed=1)
    assert report.manifest["seed"] == 1
    assert codelog.verify(out).ok


def test_an_empty_directory_is_used(tree, tmp_path):
    out = tmp_path / "ds"
    out.mkdir()
    build(tree, out)
    assert codelog.verify(out).ok


def test_a_file_in_the_way_is_refused(tree, tmp_path):
    out = tmp_path / "ds"
    out.write_text("a file")
    with pytest.raises(OutputError, match="exists and is not a directory"):
        build(tree, out)
    assert out.read_text() == "a file"


def test_a_staging_directory_codelog_did_not_make_is_refused(tree, tmp_path):
    staging = tmp_path / ".ds.staging"
    staging.mkdir()
    (staging / "keep.txt").write_text("mine")
    with pytest.raises(OutputError, match=r"staging directory .* not a codelog staging directory"):
        build(tree, tmp_path / "ds")
    assert (staging / "keep.txt").read_text() == "mine"


def test_publishing_itself_refuses_a_non_dataset(tmp_path):
    # The last line of defence: whoever calls the publisher, it never renames user files away.
    out = tmp_path / "mine"
    out.mkdir()
    (out / "file.txt").write_text("mine")
    with pytest.raises(OutputError), publishing(out) as tmp:
        (tmp / "manifest.json").write_text("{}")
    assert (out / "file.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_files_gained_during_the_build_stop_the_swap(tmp_path):
    out = tmp_path / "ds"
    out.mkdir()
    with pytest.raises(OutputError), publishing(out) as tmp:
        (tmp / "manifest.json").write_text("{}")
        (out / "arrived.txt").write_text("written by someone else meanwhile")
    assert (out / "arrived.txt").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["ds"]


def test_a_symlinked_out_is_followed_not_replaced_by_a_directory(tree, tmp_path):
    target = tmp_path / "real"
    target.mkdir()
    link = tmp_path / "link"
    link.symlink_to(target)
    build(tree, link)
    assert link.is_symlink() and codelog.verify(target).ok
    assert os.readlink(link) == str(target)
