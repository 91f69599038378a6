"""Bad CodeNet input, in both error modes: a reject with a reason, or an error naming file and line.

Every case starts from the same small valid tree (two problems, four submissions each, see
tests/codenet_tree.py) and breaks one thing. In "reject" mode the build completes, the bad row
is a reject with the expected reason, and the manifest's counts add up to the rows read; in
"fail" mode the build stops with an InputError naming the file and the line, and publishes
nothing.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from codelog.builder import run_build
from codelog.dataset.verify import verify_dataset
from codelog.errors import CodelogError, InputError
from codelog.files import replacing
from codelog.options import BuildOptions
from codelog.recipe import Recipe, load_recipe

from .codenet_tree import CodenetTree

REPO = Path(__file__).resolve().parents[1]
JUNIT_REPORT = REPO / "tests" / "fixtures" / "junit" / "pytest-report.xml"

MAX_SOURCE_BYTES = 4096  # small, so the too-large case needs no megabyte file


def recipe(on_error: str) -> Recipe:
    base = load_recipe()
    limits = dataclasses.replace(base.limits, on_error=on_error, max_source_bytes=MAX_SOURCE_BYTES)
    return dataclasses.replace(base, limits=limits)


def build(tree: CodenetTree, out: Path, on_error: str, workers: int = 1):
    options = BuildOptions(
        source="codenet",
        language="python",
        out=out,
        recipe=recipe(on_error),
        root=tree.root,
        workers=workers,
        show_progress=False,
    )
    return run_build(options)


def rows_read(tree: CodenetTree) -> int:
    """Non-blank lines after the header of every metadata CSV: what the build must account for."""
    total = 0
    for pid in tree.problem_ids():
        lines = tree.csv_path(pid).read_bytes().splitlines()[1:]
        total += sum(1 for line in lines if line.strip())
    return total


def edit_line(path: Path, line: int, edit: Callable[[bytes], bytes]) -> None:
    lines = path.read_bytes().split(b"\n")
    lines[line - 1] = edit(lines[line - 1])
    path.write_bytes(b"\n".join(lines))


def replace_in_line(path: Path, line: int, old: bytes, new: bytes) -> None:
    edit_line(path, line, lambda text: text.replace(old, new, 1))


# In the standard tree, p00001.csv line 3 is s000000002 (Wrong Answer), line 4 is s000000003.
@dataclass(frozen=True)
class Case:
    break_it: Callable[[CodenetTree], None]
    submission_id: str | None  # the row that goes bad
    reason: str | None  # its reject reason; None: the input is fine (BOM, CRLF)
    file: str  # the file the error names
    line: int | None
    message: str  # part of the error (and of the reject's detail, unless `detail` says otherwise)
    detail: str | None = ""  # part of the reject's detail when it differs; None: not checked


def _ragged(t: CodenetTree) -> None:
    edit_line(t.csv_path("p00001"), 3, lambda s: s + b",surplus")


def _short(t: CodenetTree) -> None:
    edit_line(t.csv_path("p00001"), 3, lambda s: b",".join(s.split(b",")[:5]))


def _non_utf8_byte(t: CodenetTree) -> None:
    replace_in_line(t.csv_path("p00001"), 4, b"u0001", b"u\xff01")


def _nul_byte(t: CodenetTree) -> None:
    replace_in_line(t.csv_path("p00001"), 4, b"u0001", b"u\x0001")


def _stray_quote(t: CodenetTree) -> None:
    replace_in_line(t.csv_path("p00001"), 3, b"u0001", b'"u0001')


def _bom(t: CodenetTree) -> None:
    path = t.csv_path("p00001")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())


def _crlf(t: CodenetTree) -> None:
    for pid in t.problem_ids():
        path = t.csv_path(pid)
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


def _missing_source(t: CodenetTree) -> None:
    t.source_path(t.submissions[1]).unlink()


def _unreadable_source(t: CodenetTree) -> None:
    # A directory where the file should be: unreadable even for root (chmod 000 is not).
    path = t.source_path(t.submissions[1])
    path.unlink()
    path.mkdir()


def _fifo_source(t: CodenetTree) -> None:
    # A named pipe with no writer: opening it for reading would wait forever (issue 33).
    path = t.source_path(t.submissions[1])
    path.unlink()
    os.mkfifo(path)


def _binary_source(t: CodenetTree) -> None:
    t.source_path(t.submissions[1]).write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00")


def _non_utf8_source(t: CodenetTree) -> None:
    t.source_path(t.submissions[1]).write_bytes(b"print('caf\xe9')\n")


def _huge_source(t: CodenetTree) -> None:
    t.source_path(t.submissions[1]).write_bytes(b"x = 1\n" * (MAX_SOURCE_BYTES // 6 + 1))


def _escaping_source(t: CodenetTree) -> None:
    outside = t.root.parent / "secret.py"
    outside.write_text("print('outside the tree')\n")
    path = t.source_path(t.submissions[1])
    path.unlink()
    path.symlink_to(outside)


def _problem_mismatch(t: CodenetTree) -> None:
    replace_in_line(t.csv_path("p00001"), 3, b",p00001,", b",p00002,")


def _duplicate_submission_id(t: CodenetTree) -> None:
    # p00002.csv line 2 reuses p00001's first id; its source file exists, so only the id is bad.
    replace_in_line(t.csv_path("p00002"), 2, b"s000000005", b"s000000001")
    sub = t.submissions[4]
    os.replace(t.source_path(sub), t.source_path(sub).with_name("s000000001.py"))


CASES = {
    "ragged_row": Case(_ragged, "s000000002", "malformed_row", "p00001.csv", 3, "Found: 13"),
    "short_row": Case(_short, "s000000002", "malformed_row", "p00001.csv", 3, "Found: 5"),
    "non_utf8_byte": Case(
        _non_utf8_byte, "s000000003", "malformed_row", "p00001.csv", 4, "not utf-8"
    ),
    "nul_byte": Case(_nul_byte, "s000000003", "malformed_row", "p00001.csv", 4, "NUL byte"),
    "stray_quote": Case(_stray_quote, "s000000002", "malformed_row", "p00001.csv", 3, "quote"),
    "bom": Case(_bom, None, None, "", None, ""),
    "crlf": Case(_crlf, None, None, "", None, ""),
    "missing_source": Case(
        _missing_source, "s000000002", "missing_source", "p00001.csv", 3, "no such file"
    ),
    "unreadable_source": Case(
        _unreadable_source, "s000000002", "unreadable_source", "p00001.csv", 3, "directory"
    ),
    "fifo_source": Case(
        _fifo_source, "s000000002", "unreadable_source", "p00001.csv", 3, "not a regular file"
    ),
    "binary_source": Case(
        _binary_source, "s000000002", "binary_source", "p00001.csv", 3, "NUL bytes"
    ),
    "non_utf8_source": Case(
        _non_utf8_source, "s000000002", "not_utf8", "p00001.csv", 3, "not UTF-8"
    ),
    "huge_source": Case(_huge_source, "s000000002", "too_large", "p00001.csv", 3, "4096-byte"),
    "escaping_source": Case(
        _escaping_source, "s000000002", "path_escape", "p00001.csv", 3, "outside"
    ),
    "problem_mismatch": Case(
        _problem_mismatch, "s000000002", "problem_mismatch", "p00001.csv", 3, "p00002"
    ),
    "duplicate_submission_id": Case(
        _duplicate_submission_id,
        "s000000001",
        "duplicate_submission_id",
        "p00002.csv",
        2,
        "first listed in p00001.csv line 2",
        detail=None,  # the origin column says where; grouping gives no detail
    ),
}


def broken_tree(tmp_path: Path, name: str) -> CodenetTree:
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    CASES[name].break_it(tree)
    return tree


def leftovers(parent: Path) -> list[str]:
    """Temporary directories a build left beside its output."""
    return sorted(p.name for p in parent.iterdir() if ".tmp-" in p.name or ".old-" in p.name)


@pytest.mark.parametrize("name", CASES)
def test_reject_mode_rejects_the_bad_row_and_counts_add_up(tmp_path, name):
    case = CASES[name]
    tree = broken_tree(tmp_path, name)
    report = build(tree, tmp_path / "out", "reject")
    counts = report.manifest["counts"]
    solutions = pq.read_table(tmp_path / "out" / "solutions.parquet")
    rejects = pq.read_table(tmp_path / "out" / "rejects.parquet").to_pylist()

    assert counts["rows_in"] == rows_read(tree) == solutions.num_rows + len(rejects)
    assert counts["solutions"] == solutions.num_rows
    assert counts["rejects_by_reason"] == ({case.reason: 1} if case.reason else {}), (
        "exactly the broken row is rejected"
    )
    if case.reason:
        (reject,) = rejects
        assert (reject["submission_id"], reject["reason"]) == (case.submission_id, case.reason)
        if case.detail is not None:
            assert (case.detail or case.message).lower() in (reject["detail"] or "").lower()
        assert reject["origin"].startswith(f"metadata/{case.file}")
    assert verify_dataset(tmp_path / "out").ok


@pytest.mark.parametrize("name", CASES)
def test_fail_mode_stops_naming_file_and_line(tmp_path, name):
    case = CASES[name]
    tree = broken_tree(tmp_path, name)
    out = tmp_path / "out"
    if case.reason is None:  # nothing wrong: fail mode builds the same dataset
        report = build(tree, out, "fail")
        assert report.manifest["counts"]["solutions"] == rows_read(tree) == 8
        return
    with pytest.raises(InputError) as info:
        build(tree, out, "fail")
    error = info.value
    assert Path(error.path).name == case.file
    assert error.line == case.line
    assert f"{case.file} line {case.line}" in str(error)
    assert case.message.lower() in str(error).lower()
    assert not out.exists(), "nothing is published when the build fails"
    assert leftovers(tmp_path) == []


def test_fail_mode_error_crosses_from_a_worker_process(tmp_path):
    # The default CLI build parses in worker processes; the error must survive pickling.
    tree = broken_tree(tmp_path, "missing_source")
    with pytest.raises(InputError, match=r"p00001\.csv line 3: submission s000000002"):
        build(tree, tmp_path / "out", "fail", workers=2)


def test_a_fifo_does_not_hang_a_pooled_build(tmp_path):
    # The pool's workers read the sources; a child process bounds the test if one blocks.
    tree = broken_tree(tmp_path, "fifo_source")
    out = tmp_path / "out"
    args = ["build", "--source", "codenet", "--root", str(tree.root), "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "codelog.cli", *args, "--lang", "Python", "--workers", "2", "-q"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    counts = json.loads((out / "manifest.json").read_text())["counts"]
    assert counts["rejects_by_reason"] == {"unreadable_source": 1}
    assert counts["rows_in"] == counts["solutions"] + 1 == rows_read(tree)


@pytest.mark.parametrize("on_error", ["reject", "fail"])
@pytest.mark.parametrize(
    ("break_it", "message"),
    [
        (
            lambda t: t.csv_path("p00001").write_text(
                t.csv_path("p00001").read_text().replace("status", "verdict", 1)
            ),
            "wrong header (missing ['status']; unexpected ['verdict'])",
        ),
        (lambda t: replace_in_line(t.csv_path("p00001"), 1, b"user_id", b"user_\xffid"), "UTF-8"),
        (lambda t: t.csv_path("p00001").write_bytes(b""), "wrong header"),
    ],
    ids=["wrong_header", "non_utf8_header", "empty_file"],
)
def test_a_bad_header_stops_the_build_in_both_modes(tmp_path, on_error, break_it, message):
    # No row of a file with a bad header can be read, so there is nothing to reject row by row.
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    break_it(tree)
    with pytest.raises(InputError) as info:
        build(tree, tmp_path / "out", on_error)
    assert str(info.value).startswith(f"{tree.csv_path('p00001')} line 1: ")
    assert message in str(info.value)
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_a_source_without_read_permission_is_unreadable(tmp_path):
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    tree.source_path(tree.submissions[1]).chmod(0)
    report = build(tree, tmp_path / "out", "reject")
    assert report.manifest["counts"]["rejects_by_reason"] == {"unreadable_source": 1}


def test_one_stray_quote_does_not_swallow_the_rest_of_the_file(tmp_path):
    # RFC quoting would read everything after an unmatched quote as one value.
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    replace_in_line(tree.csv_path("p00001"), 2, b"u0001", b'"u0001')
    report = build(tree, tmp_path / "out", "reject")
    counts = report.manifest["counts"]
    assert counts["rows_in"] == 8
    assert counts["rejects_by_reason"] == {"malformed_row": 1}


def test_quoted_fields_are_unquoted(tmp_path):
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    # still a spelling that names Python 3: a row of unknown dialect would be a group of its own
    replace_in_line(tree.csv_path("p00001"), 2, b"Python (3.8.2)", b'"Python3 ""3.8"""')
    build(tree, tmp_path / "out", "fail")
    solutions = pq.read_table(tmp_path / "out" / "solutions.parquet").to_pylist()
    by_id = {s["submission_id"]: s for s in solutions}
    assert by_id["s000000001"]["original_language"] == 'Python3 "3.8"'
    assert by_id["s000000001"]["dialect"] == "python3"


def test_a_ragged_row_of_another_language_is_not_this_builds_row(tmp_path):
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    path = tree.csv_path("p00001")
    path.write_bytes(
        path.read_bytes()
        + b"s000000099,p00001,u1,1600000000,C++,C++ (GCC 9),cpp,Accepted,1,2,3,,x\n"
    )
    report = build(tree, tmp_path / "out", "fail")  # fail mode: a Python build is not stopped
    assert report.manifest["counts"]["rows_in"] == 8


def test_an_unreadable_metadata_file_is_an_input_error(tmp_path):
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    tree.csv_path("p00003").mkdir()
    with pytest.raises(CodelogError, match=r"p00003\.csv: cannot read"):
        build(tree, tmp_path / "out", "reject")


@pytest.mark.parametrize("on_error", ["reject", "fail"])
@pytest.mark.parametrize(
    "break_it",
    [
        lambda t: replace_in_line(t.csv_path("p00001"), 4, b"Python,", b"Py\rthon,"),
        # one CRLF among LFs (DuckDB copes when the last field is empty, not otherwise)
        lambda t: edit_line(t.csv_path("p00001"), 4, lambda s: s + b"4/4\r"),
    ],
    ids=["stray_cr", "mixed_line_breaks"],
)
def test_line_breaks_the_csv_reader_cannot_split_stop_the_build_naming_the_line(
    tmp_path, on_error, break_it
):
    # DuckDB's reader stops on these rather than rejecting the row: an error in both modes.
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    break_it(tree)
    with pytest.raises(InputError) as info:
        build(tree, tmp_path / "out", on_error)
    assert str(info.value).startswith(f"{tree.csv_path('p00001')} line 4: ")
    assert "carriage return" in str(info.value)


def _ragged_problem_list(t: CodenetTree) -> None:
    edit_line(t.root / "metadata" / "problem_list.csv", 2, lambda s: s + b",surplus")


def test_a_ragged_problem_list_row_leaves_that_problem_unnamed(tmp_path):
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    _ragged_problem_list(tree)
    report = build(tree, tmp_path / "out", "reject")
    assert report.manifest["counts"]["rows_in"] == 8  # submissions are unaffected
    problems = pq.read_table(tmp_path / "out" / "problems.parquet").to_pylist()
    assert {p["problem_id"]: p["name"] for p in problems} == {
        "p00001": None,
        "p00002": "Problem p00002",
    }


def test_a_ragged_problem_list_row_fails_naming_the_line(tmp_path):
    tree = CodenetTree.standard(tmp_path / "tree")
    tree.write()
    _ragged_problem_list(tree)
    with pytest.raises(InputError, match=r"problem_list\.csv line 2: .*Found: 9"):
        build(tree, tmp_path / "out", "fail")


# --- the disk, not the input: one `error:` line naming the path, never a traceback -------------


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 1 MiB tmpfs (root only: mount needs it), unmounted afterwards whatever happens."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def fill(disk: Path, leave_kib: int) -> None:
    """Leave about `leave_kib` KiB free on `disk`."""
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    (disk / "filler").write_bytes(b"\0" * max(0, free - leave_kib * 1024))


def codelog_cli(*args: str | Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "codelog.cli", *map(str, args)]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)


def assert_one_error_line(result: subprocess.CompletedProcess, path: Path) -> None:
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    assert str(path) in result.stderr
    assert "No space left on device" in result.stderr


# The sample stages about 190 KiB and publishes about 170 KiB: with 64 KiB free the staging
# fails, with 260 KiB the staging fits and publishing does not.
@pytest.mark.parametrize("leave_kib", [64, 260], ids=["while-staging", "while-publishing"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_full_disk_is_one_error_line_naming_the_path(small_disk, leave_kib, workers):
    fill(small_disk, leave_kib)
    result = codelog_cli("build", "--out", small_disk / "ds", "--workers", workers)
    assert_one_error_line(result, small_disk)
    left = sorted(p.name for p in small_disk.iterdir())
    assert "ds" not in left and not [n for n in left if ".tmp-" in n or ".old-" in n], left


def test_a_full_disk_keeps_the_previous_dataset(small_disk):
    assert codelog_cli("build", "--out", small_disk / "ds", "--workers", "1").returncode == 0
    before = (small_disk / "ds" / "manifest.json").read_bytes()
    fill(small_disk, 32)
    # --no-progress: a piped build also notes that it reuses the staged parse (progress chatter)
    result = codelog_cli(
        "build", "--out", small_disk / "ds", "--seed", "1", "--workers", "1", "--no-progress"
    )
    assert_one_error_line(result, small_disk)
    assert (small_disk / "ds" / "manifest.json").read_bytes() == before


@pytest.mark.parametrize("command", ["export", "sql", "convert"])
def test_file_outputs_on_a_full_disk_are_one_error_line(small_disk, sample_dataset, command):
    tree = Path(shutil.copytree(JUNIT_REPORT.parent, small_disk / "tree"))  # code paths inside
    out = tree / ("x.jsonl" if command == "convert" else "x.parquet")
    fill(small_disk, 0)
    args = {
        "export": ["export", sample_dataset, "--format", "kto", "--out", out, "--split", "all"],
        "sql": ["sql", sample_dataset, "SELECT * FROM solutions", "-o", out],
        "convert": ["convert", "--from", "junit", tree / JUNIT_REPORT.name, "--out", out],
    }[command]
    if command == "convert":
        args += ["--code-root", tree]
    result = codelog_cli(*args)
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    assert "No space left on device" in result.stderr
    assert not out.exists()
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".")] == [], "no temp file"


@pytest.mark.parametrize("durable", [False, True])
def test_a_replacing_write_the_disk_refuses_leaves_the_old_file_and_no_temp(small_disk, durable):
    """files.replacing, which eval's samples.jsonl and summary.json, the experiment's files,
    the contamination report, verifier lists and a run's run.json are written through: the
    old file stays whole, and no `.NAME.tmp-PID` is left (eval's three and run.json left
    theirs)."""
    target = small_disk / "summary.json"
    target.write_text("before\n")
    fill(small_disk, 0)
    with pytest.raises(OSError, match="No space left"), replacing(target, durable=durable) as tmp:
        tmp.write_text("x" * (1 << 20))
    assert target.read_text() == "before\n"
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "summary.json"]
    (small_disk / "filler").unlink()
    with replacing(target, durable=durable) as tmp:
        tmp.write_text("after\n")
    assert target.read_text() == "after\n"
    assert sorted(p.name for p in small_disk.iterdir()) == ["summary.json"]


def test_a_missing_plot_directory_is_one_error_line(sample_dataset, tmp_path):
    result = codelog_cli("stats", sample_dataset, "--plot", tmp_path / "nowhere" / "s.png")
    assert result.returncode == 1
    assert result.stderr == f"error: {tmp_path / 'nowhere' / 's.png'}: No such file or directory\n"


def test_a_manifest_missing_its_recipe_is_a_dataset_error(sample_dataset, tmp_path):
    ds = Path(shutil.copytree(sample_dataset, tmp_path / "ds"))
    manifest = json.loads((ds / "manifest.json").read_text())
    del manifest["recipe"]
    (ds / "manifest.json").write_text(json.dumps(manifest))
    for args in (
        ["export", ds, "--format", "verl", "--out", tmp_path / "v.parquet"],
        ["stats", ds],
    ):
        result = codelog_cli(*args)
        assert result.stderr == f"error: {ds / 'manifest.json'}: missing or malformed recipe\n"
