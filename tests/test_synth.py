"""bench/synth_codenet.py writes CodeNet-shaped trees, the same for the same seed."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import sys
import tarfile
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MINI = REPO / "codelog" / "data" / "codenet-mini"

_spec = importlib.util.spec_from_file_location("synth_codenet", REPO / "bench" / "synth_codenet.py")
synth = importlib.util.module_from_spec(_spec)
sys.modules["synth_codenet"] = synth
_spec.loader.exec_module(synth)

# CodeNet's published totals (shared/data/codenet-statistics.json), the parts the generator reads
STATISTICS = {
    "submissions_total": 13916868,
    "status_counts": {
        "Accepted": 7460588,
        "Wrong Answer": 4140436,
        "Runtime Error": 895154,
        "Time Limit Exceeded": 767196,
        "Compile Error": 556259,
        "WA: Presentation Error": 73336,
        "Memory Limit Exceeded": 22420,
        "Output Limit Exceeded": 1067,
        "Judge Not Available": 144,
        "Internal error": 113,
        "Query Limit Exceeded": 105,
        "Judge System Error": 50,
    },
    "language_counts": {
        "C++": [4353049, 3655478],
        "Python": [1796563, 1489751],
        "Java": [354982, 357171],
        "C": [313360, 440698],
        "Ruby": [138937, 111466],
        "C#": [125580, 109527],
        "Rust": [80262, 46948],
        "Go": [58404, 40721],
    },
}
SUBMISSIONS = 2000


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The statistics file and a statements tar.gz made from the bundled sample's statements,
    plus the two problems of a 2,000-row tree (p00000, p02026)."""
    d = tmp_path_factory.mktemp("synth-inputs")
    stats = d / "codenet-statistics.json"
    stats.write_text(json.dumps(STATISTICS))
    tar_path = d / "statements.tar.gz"
    with tarfile.open(tar_path, "w:gz") as tar:
        pages = {
            p.name: p.read_bytes() for p in sorted((MINI / "problem_descriptions").glob("*.html"))
        }
        pages["p00000.html"] = b"<H1>A + B</H1>\n<p>Print the sum.</p>\n"
        pages["p02026.html"] = b"<H1>Reverse</H1>\n<p>Print the string reversed.</p>\n"
        for name, data in pages.items():
            info = tarfile.TarInfo(f"problem_descriptions/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return {"statistics": stats, "statements_tar": tar_path}


def make(root: Path, inputs: dict, seed: int, workers: int = 1) -> Path:
    synth.synthesise(SUBMISSIONS, root, seed=seed, workers=workers, quiet=True, **inputs)
    return root


def contents(root: Path) -> dict[str, bytes]:
    """Every file of the tree but the generator's own summary (it holds timings)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != synth.MARKER
    }


def python_rows(root: Path) -> list[dict]:
    rows = []
    for path in sorted((root / "metadata").glob("p0*.csv")):
        with open(path, newline="") as f:
            rows += [r for r in csv.DictReader(f) if r["language"] == "Python"]
    return rows


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory, inputs: dict) -> Path:
    return make(tmp_path_factory.mktemp("synth") / "tree", inputs, seed=7)


def test_same_seed_gives_identical_trees(tree: Path, tmp_path: Path, inputs: dict) -> None:
    again = make(tmp_path / "again", inputs, seed=7, workers=2)  # worker count does not matter
    assert contents(again) == contents(tree)


def test_different_seed_gives_a_different_tree(tree: Path, tmp_path: Path, inputs: dict) -> None:
    other = contents(make(tmp_path / "other", inputs, seed=8))
    mine = contents(tree)
    assert other != mine
    sources = [k for k in mine if k.startswith("data/")]
    assert sum(mine[k] == other.get(k) for k in sources) < len(sources) / 10


def test_layout_and_headers_are_codenets(tree: Path) -> None:
    real_header = (MINI / "metadata" / "p00002.csv").read_text().splitlines()[0]
    real_list_header = (MINI / "metadata" / "problem_list.csv").read_text().splitlines()[0]
    assert (tree / "metadata" / "problem_list.csv").read_text().splitlines()[0] == real_list_header
    problems = [
        line.split(",")[0]
        for line in (tree / "metadata" / "problem_list.csv").read_text().splitlines()[1:]
    ]
    assert problems == ["p00000", "p02026"]
    for pid in problems:
        assert (tree / "metadata" / f"{pid}.csv").read_bytes().decode().splitlines()[
            0
        ] == real_header
        assert (tree / "problem_descriptions" / f"{pid}.html").exists()
    rows = python_rows(tree)
    assert len(rows) == SUBMISSIONS
    assert len({r["submission_id"] for r in rows}) == SUBMISSIONS
    for r in rows:
        source = (
            tree / "data" / r["problem_id"] / "Python" / f"{r['submission_id']}.{r['filename_ext']}"
        )
        assert source.stat().st_size == int(r["code_size"])
        assert r["date"].isdigit()
        assert r["accuracy"] == "" or r["accuracy"].count("/") == 1
    files = {p.stem for p in (tree / "data").glob("*/Python/*.py")}
    assert files == {r["submission_id"] for r in rows}


def test_other_languages_are_metadata_only(tree: Path) -> None:
    languages = Counter()
    for path in (tree / "metadata").glob("p0*.csv"):
        with open(path, newline="") as f:
            languages.update(r["language"] for r in csv.DictReader(f))
    assert languages["C++"] > languages["Python"]  # CodeNet's mix: C++ is 2.4x Python
    assert {p.name for p in (tree / "data" / "p00000").iterdir()} == {"Python"}


def test_status_mix_follows_the_statistics(tree: Path) -> None:
    expected = synth.python_status_weights(STATISTICS)
    assert expected["Accepted"] == pytest.approx(1796563 / (1796563 + 1489751))
    seen = Counter(r["status"] for r in python_rows(tree))
    for status in (
        "Accepted",
        "Wrong Answer",
        "Runtime Error",
        "Time Limit Exceeded",
        "Compile Error",
    ):
        assert seen[status] / SUBMISSIONS == pytest.approx(expected[status], abs=0.04), status
    assert set(seen) <= set(STATISTICS["status_counts"])


def test_programs_parse_except_compile_errors(tree: Path) -> None:
    import tree_sitter_python
    from tree_sitter import Language, Parser

    parser = Parser(Language(tree_sitter_python.language()))
    broken = Counter()
    total = Counter()
    for r in python_rows(tree):
        kind = "compile_error" if r["status"] == "Compile Error" else "other"
        data = (
            tree / "data" / r["problem_id"] / "Python" / f"{r['submission_id']}.py"
        ).read_bytes()
        total[kind] += 1
        broken[kind] += parser.parse(data).root_node.has_error
    assert broken["other"] <= total["other"] * 0.01
    assert broken["compile_error"] >= total["compile_error"] * 0.9


def test_copies_and_distinct_programs_both_occur(tree: Path) -> None:
    texts = Counter(p.read_bytes() for p in (tree / "data").glob("*/Python/*.py"))
    assert 0.5 * SUBMISSIONS < len(texts) < 0.98 * SUBMISSIONS  # exact copies exist, most differ
    sizes = sorted(len(t) for t in texts.elements())
    assert 150 < sizes[len(sizes) // 2] < 800
