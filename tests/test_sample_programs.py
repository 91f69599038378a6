"""The bundled sample's Python sources behave as their metadata rows say.

The sources under codelog/data/codenet-mini/data/ are written by scripts/make_sample_sources.py
(IBM does not publish them). These tests run a stratified sample of them on the problems'
sample inputs with codelog's judge (via scripts/sample_judge.py) and check the verdict against the
row's status; the cheap properties (every row has its file, the IBM rows are unchanged, copies
and distinct programs exist) are checked on all rows.
"""

from __future__ import annotations

import builtins
import csv
import hashlib
import io
import keyword
import random
import re
import sys
import tokenize
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import make_sample_sources  # noqa: E402
import sample_judge  # noqa: E402

from tests.execution.memory_fact import REFUSED_ALLOCATION  # noqa: E402

SAMPLE = REPO / "codelog" / "data" / "codenet-mini"
PYTHON2_LANGUAGES = {"Python", "Python (2.7.6)", "PyPy2 (5.6.0)"}  # AIZU's bare "Python" is 2.x
ADDED_PREFIX = "s9990000"

# sha256 of IBM's Mini Project CodeNet metadata files as published; our rows come after them.
IBM_CSV_SHA256 = {
    "p00002": "a95e7f2b164640778700698b0c49b9ab9326839296530d54f2ee61947e2a9638",
    "p02256": "95a49c6d4ad0ccda09a74baebfe87889cfc9deeb6197f84781b5080129c007e4",
    "p02400": "b4bc5b12d80cc92ea8216b7d0cdc762527918db219ff686b3030e28c60dfdc92",
    "p02407": "60f9ea38b2fc0e8bf2a193bc3c961817f38c9da6a7886a330f237c9fe5fd573c",
    "p02971": "182e42451f9755bdf523f240e09f46a259f2a37a04e4deabed886d26884b32ae",
    "p03001": "2ddd97bab381f9d88d554e9a86a0275847515400d51fae1c6f14ac6c2ccc4b50",
    "p03242": "20eae637bc4caafa852bed6c7883fe05b0d10f0697e903329ec9360fba923626",
    "p04030": "24c8fa7ec500f6249a88a026cdb49c2e5742a3242580b75395e5d930279ba22a",
}


@dataclass(frozen=True)
class Row:
    submission_id: str
    problem_id: str
    date: int
    original_language: str
    status: str
    code_size: str

    @property
    def path(self) -> Path:
        return SAMPLE / "data" / self.problem_id / "Python" / f"{self.submission_id}.py"

    @property
    def python2(self) -> bool:
        return self.original_language in PYTHON2_LANGUAGES


def _python_rows() -> list[Row]:
    rows = []
    for path in sorted((SAMPLE / "metadata").glob("p0*.csv")):
        with open(path, newline="") as f:
            rows += [
                Row(
                    r["submission_id"],
                    r["problem_id"],
                    int(r["date"]),
                    r["original_language"],
                    r["status"],
                    r["code_size"],
                )
                for r in csv.DictReader(f)
                if r["language"] == "Python"
            ]
    return rows


ROWS = _python_rows()
PROBLEMS = {r.problem_id for r in ROWS}


def _limits() -> dict[str, tuple[int, int]]:
    with open(SAMPLE / "metadata" / "problem_list.csv", newline="") as f:
        return {r["id"]: (int(r["time_limit"]), int(r["memory_limit"])) for r in csv.DictReader(f)}


def _samples(problem_id: str) -> list[tuple[str, str]]:
    html = (SAMPLE / "problem_descriptions" / f"{problem_id}.html").read_text(encoding="utf-8")
    return sample_judge.parse_samples(html)


def _stratified(rows: list[Row]) -> list[Row]:
    """All rows of the rare statuses; one row per (problem, dialect) of the others."""
    counts = Counter(r.status for r in rows)
    strata: dict[tuple, list[Row]] = defaultdict(list)
    picked = []
    for row in rows:
        if counts[row.status] <= 20:
            picked.append(row)
        else:
            strata[(row.status, row.problem_id, row.python2)].append(row)
    rng = random.Random(20240611)
    picked += [
        rng.choice(sorted(strata[key], key=lambda r: r.submission_id)) for key in sorted(strata)
    ]
    return sorted(picked, key=lambda r: (r.status, r.problem_id, r.submission_id))


@pytest.fixture(scope="module")
def python2() -> str | None:
    return sample_judge.find_python2()


# --------------------------------------------------------------------------- the files


def test_every_python_row_has_its_source_file() -> None:
    missing = [r.path.relative_to(SAMPLE) for r in ROWS if not r.path.is_file()]
    assert missing == []


def test_every_source_file_has_its_row() -> None:
    expected = {r.path for r in ROWS}
    orphans = [p for p in (SAMPLE / "data").glob("*/*/*") if p not in expected]
    assert orphans == []


def test_sources_are_what_the_generator_writes() -> None:
    sources, metadata = make_sample_sources.render()
    differing = [
        s.row.submission_id
        for s in sources
        if make_sample_sources.source_path(s.row).read_bytes() != s.text.encode()
    ]
    assert differing == []
    assert all(path.read_bytes() == data for path, data in metadata.items())


# --------------------------------------------------------------------------- the metadata


def test_ibm_rows_are_unchanged_and_ours_come_after_them() -> None:
    for problem_id, digest in IBM_CSV_SHA256.items():
        lines = (SAMPLE / "metadata" / f"{problem_id}.csv").read_bytes().splitlines(keepends=True)
        first_added = next(
            (i for i, ln in enumerate(lines) if ln.startswith(ADDED_PREFIX.encode())), len(lines)
        )
        assert hashlib.sha256(b"".join(lines[:first_added])).hexdigest() == digest, problem_id
        assert all(ln.startswith(ADDED_PREFIX.encode()) for ln in lines[first_added:]), problem_id


def test_the_sample_holds_every_outcome() -> None:
    statuses = Counter(r.status for r in ROWS)
    assert statuses == {
        "Accepted": 973,
        "Wrong Answer": 289,
        "Runtime Error": 247,
        "Time Limit Exceeded": 69,
        "WA: Presentation Error": 18,
        "Memory Limit Exceeded": 4,
        "Compile Error": 6,
        "Output Limit Exceeded": 2,
        "Judge Not Available": 1,
    }
    added = [r for r in ROWS if r.submission_id.startswith(ADDED_PREFIX)]
    assert {r.status for r in added} == {
        "Compile Error",
        "Output Limit Exceeded",
        "Judge Not Available",
    }


def test_added_rows_give_the_size_of_their_source() -> None:
    for row in (r for r in ROWS if r.submission_id.startswith(ADDED_PREFIX)):
        assert int(row.code_size) == row.path.stat().st_size, row.submission_id


# --------------------------------------------------------------------------- parsing


def test_sample_io_is_read_from_the_statements() -> None:
    samples = {p: _samples(p) for p in sorted(PROBLEMS)}
    assert {p: len(s) for p, s in samples.items()} == {
        p: 1 if p == "p00002" else 2 for p in PROBLEMS
    }
    assert samples["p00002"] == [("5 7\n1 99\n1000 999\n", "2\n3\n4\n")]
    assert samples["p02400"][1] == ("3\n", "28.274334 18.849556\n")


def test_python3_sources_compile_except_compile_errors() -> None:
    for row in (r for r in ROWS if not r.python2):
        source = row.path.read_bytes()
        if row.status == "Compile Error":
            with pytest.raises(SyntaxError):
                compile(source, str(row.path), "exec")
        else:
            compile(source, str(row.path), "exec")


def test_python2_sources_parse_and_most_are_not_python3() -> None:
    tree_sitter = pytest.importorskip("tree_sitter")
    tree_sitter_python = pytest.importorskip("tree_sitter_python")
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
    rows = [r for r in ROWS if r.python2]
    broken = [
        r.submission_id for r in rows if parser.parse(r.path.read_bytes()).root_node.has_error
    ]
    assert broken == []
    not_python3 = 0
    for row in rows:
        try:
            compile(row.path.read_bytes(), str(row.path), "exec")
        except SyntaxError:
            not_python3 += 1
    assert not_python3 > len(rows) / 2


# --------------------------------------------------------------------------- variety

_KEPT_NAMES = set(dir(builtins)) | set(keyword.kwlist) | {"print", "exec", "raw_input", "xrange"}


def surface_form(source: str) -> tuple[str, ...]:
    """The tokens without comments, blank lines and spacing, identifiers renamed by first use."""
    out: list[str] = []
    names: dict[str, str] = {}
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL):
            continue
        text = tok.string
        if tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            text = tokenize.tok_name[tok.type]
        elif tok.type == tokenize.NAME and text not in _KEPT_NAMES and prev != ".":
            text = names.setdefault(text, f"v{len(names)}")
        out.append(text)
        prev = tok.string
    return tuple(out)


def test_rename_and_whitespace_do_not_change_the_surface_form() -> None:
    a = "def gcd(a, b):\n    while b:\n        a, b = b, a % b\n    return a\nprint(gcd(6, 4))\n"
    b = "# gcd\ndef f(x,y):\n\twhile y:  # loop\n\n\t\tx, y=y, x%y\n\treturn x\nprint(f(6, 4))\n"
    assert surface_form(a) == surface_form(b)
    assert surface_form(a) != surface_form(a.replace("a % b", "a - b"))


def test_about_a_third_are_surface_copies_and_many_programs_are_distinct() -> None:
    seen: dict[tuple[str, str], set] = defaultdict(set)
    distinct: dict[str, set] = defaultdict(set)
    copies = total = 0
    for row in sorted(ROWS, key=lambda r: (r.date, r.submission_id)):
        if row.status == "Compile Error":
            continue
        form = surface_form(row.path.read_text(encoding="utf-8"))
        copies += form in seen[(row.problem_id, row.status)]
        seen[(row.problem_id, row.status)].add(form)
        distinct[row.problem_id].add(form)
        total += 1
    assert 0.25 <= copies / total <= 0.45
    assert min(len(forms) for forms in distinct.values()) >= 80


# --------------------------------------------------------------------------- behaviour

SELECTED = _stratified(ROWS)


@pytest.mark.parametrize(
    "row", SELECTED, ids=[f"{r.problem_id}-{r.submission_id}-{r.status}" for r in SELECTED]
)
def test_program_behaves_as_its_status(row: Row, python2: str | None) -> None:
    if row.status == "Compile Error":
        with pytest.raises(SyntaxError):
            compile(row.path.read_bytes(), str(row.path), "exec")
    if row.python2 and python2 is None:
        pytest.skip("no Python 2 interpreter (python2 on PATH or ~/.pyenv/versions/2.7*)")
    time_limit, memory_limit = _limits()[row.problem_id]
    verdict = sample_judge.judge(
        row.path,
        _samples(row.problem_id),
        time_limit,
        memory_limit,
        dialect="2" if row.python2 else "3",
    )
    # The Judge Not Available row is a correct program that the judge failed to run.
    expected = "Accepted" if row.status == "Judge Not Available" else row.status
    if row.status == "Memory Limit Exceeded":  # all four: an allocation RLIMIT_AS refuses
        expected = REFUSED_ALLOCATION
    assert verdict.status == expected, verdict.detail
    if verdict.status == "Runtime Error":
        assert re.search(r"\w+(Error|Exception)\b", verdict.detail), verdict.detail
    if verdict.status == "Memory Limit Exceeded":
        assert f"the limit {memory_limit} KB" in verdict.detail, verdict.detail
