"""Which rows a CodeNet scan takes for `--lang`: every spelling of the language, matched without
regard to case, under the spelling most of its rows use (codelog.ingest.codenet)."""

from __future__ import annotations

from dataclasses import replace

from codelog.ingest.codenet import scan_codenet
from codelog.recipe import load_recipe
from tests.codenet_tree import CodenetTree


def _tree(tmp_path, spellings: dict[str, int]) -> CodenetTree:
    """Problem p00001 with `n` accepted rows per language spelling, and one C row."""
    tree = CodenetTree(tmp_path / "tree")
    n = 0
    for language, count in spellings.items():
        for _ in range(count):
            n += 1
            tree.add(f"s{n:09d}", "p00001", "Accepted", b"print(1)\n")
            tree.submissions[-1] = replace(tree.submissions[-1], language=language)
    tree.add("s000000999", "p00002", "Accepted", b"int main(){}\n")
    tree.submissions[-1] = replace(tree.submissions[-1], language="C", ext="c")
    tree.write()
    return tree


def test_every_spelling_is_counted_under_the_most_used_one(tmp_path):
    tree = _tree(tmp_path, {"Python": 3, "python": 2, "PYTHON": 1})
    for asked in ("python", "Python", "pYTHON"):
        scan = scan_codenet(tree.root, asked, load_recipe())
        assert scan.language == "Python"
        assert scan.rows_total == 6  # all three spellings, not the C row
        assert [d.name for d in scan.source_dirs] == ["Python"]
        assert [d.parent.name for d in scan.source_dirs] == ["p00001"]
        assert sum(b.num_rows for b in scan.batches(4)) == 6


def test_a_tie_between_spellings_resolves_the_same_way_every_time(tmp_path):
    tree = _tree(tmp_path, {"python": 2, "Python": 2})
    names = {scan_codenet(tree.root, "PYTHON", load_recipe()).language for _ in range(3)}
    assert names == {"Python"}  # the smaller name in byte order ("P" < "p")


def test_a_language_with_no_rows_keeps_the_name_as_given(tmp_path):
    tree = _tree(tmp_path, {"Python": 2})
    scan = scan_codenet(tree.root, "Rust", load_recipe())
    assert (scan.language, scan.rows_total, scan.source_dirs) == ("Rust", 0, [])
