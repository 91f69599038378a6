"""Fuzzing the CodeNet reader and the source checks: random bytes and broken rows, bounded time.

Whatever the input, reading it either works — every row the source announces comes out, as a
row or a reject with a reason — or stops with a documented error (a CodelogError). A few
iterations also run the whole build and `verify` the dataset.

CODELOG_FUZZ_SECONDS (default 10) sets the budget, CODELOG_FUZZ_SEED the first seed; a failure
names the seed and keeps the input tree under pytest's tmp_path.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codelog.builder import open_source, run_build
from codelog.dataset.verify import verify_dataset
from codelog.errors import CodelogError
from codelog.ingest.codenet import scan_codenet
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.recipe import Recipe, load_recipe
from codelog.stage.worker import RowRejected, StageTask, decode_code, stage_batch

from .codenet_tree import CodenetTree

FUZZ_SECONDS = float(os.environ.get("CODELOG_FUZZ_SECONDS", "10"))  # CodeNet; CI gets a third
FIRST_SEED = int(os.environ.get("CODELOG_FUZZ_SEED", "0"))
NASTY = [b",", b'"', b'""', b"\n", b"\r", b"\r\n", b"\0", b"\xff", b"\xef\xbb\xbf", b"\xc3", b" "]
NASTY += [b"Python", b"p00001", b"s000000001", b"Accepted", b"..", b"/", b"\\", b"\t", b"'"]


def random_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random edit: insert, delete, duplicate, swap, truncate or replace a piece."""
    lines = data.split(b"\n")
    edit = rng.randrange(8)
    at = rng.randrange(len(data) + 1)
    if edit == 0:
        return data[:at] + rng.choice(NASTY) + data[at:]
    if edit == 1:
        return data[:at] + random_bytes(rng, rng.randint(1, 8)) + data[at:]
    if edit == 2:
        return data[:at] + data[at + rng.randint(1, 30) :]
    if edit == 3 and len(lines) > 1:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[rng.randrange(len(lines))])
        return b"\n".join(lines)
    if edit == 4 and len(lines) > 2:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if edit == 5:
        return data[:at]
    if edit == 6 and len(lines) > 1:
        fields = lines[rng.randrange(1, len(lines))].split(b",")
        fields[rng.randrange(len(fields))] = rng.choice(NASTY) * rng.randint(0, 3)
        lines[rng.randrange(1, len(lines))] = b",".join(fields)
        return b"\n".join(lines)
    return data + b"\n" + random_bytes(rng, rng.randint(0, 40))


def fuzzed_tree(root: Path, rng: random.Random) -> CodenetTree:
    tree = CodenetTree.standard(root, problems=("p00001", "p00002", "p00003"))
    tree.write()
    # Mostly small damage (the interesting case: one bad row among good ones), now and then a lot.
    for _ in range(rng.choice([1, 1, 2, 3, 8])):
        target = rng.random()
        if target < 0.6:
            path = tree.csv_path(rng.choice(tree.problem_ids()))
        elif target < 0.8:
            path = tree.source_path(rng.choice(tree.submissions))
        elif target < 0.9:
            path = tree.root / "metadata" / "problem_list.csv"
        else:
            path = tree.root / "problem_descriptions" / f"{rng.choice(tree.problem_ids())}.html"
        if path.exists():
            path.write_bytes(mutate(path.read_bytes(), rng))
    if rng.random() < 0.1:  # a source file that is not there or not a file
        path = tree.source_path(rng.choice(tree.submissions))
        path.unlink(missing_ok=True)
        if rng.random() < 0.5:
            path.mkdir()
    return tree


def fuzz_recipe(on_error: str) -> Recipe:
    base = load_recipe()
    limits = dataclasses.replace(base.limits, on_error=on_error, max_source_bytes=200)
    return dataclasses.replace(base, limits=limits)


def scan_and_stage(tree: CodenetTree, on_error: str, out_dir: Path) -> None:
    """The reading half of a build, in-process: every announced row must come out staged."""
    recipe = fuzz_recipe(on_error)
    scan = scan_codenet(tree.root, "python", recipe)
    drain(scan, recipe, tree.root / "data", out_dir)


def drain(scan: SourceScan, recipe: Recipe, code_root: Path | None, out_dir: Path) -> None:
    on_error = recipe.limits.on_error
    out_dir.mkdir()
    staged = 0
    seq = 0
    for index, batch in enumerate(scan.batches(5)):
        task = StageTask(
            index=index,
            first_seq=seq,
            batch=batch,
            language=scan.language,
            out_dir=str(out_dir),
            max_source_bytes=recipe.limits.max_source_bytes,
            on_error=on_error,
            code_root=str(code_root) if code_root else None,
            origin_root=str(scan.root) if scan.root else None,
        )
        staged += stage_batch(task).rows
        seq += batch.num_rows
    assert staged == scan.rows_total, "the source announced rows it did not yield"


def full_build(tree: CodenetTree, on_error: str, out: Path) -> None:
    options = BuildOptions(
        source="codenet",
        language="python",
        out=out,
        recipe=fuzz_recipe(on_error),
        root=tree.root,
        workers=1,
        show_progress=False,
    )
    report = run_build(options)
    check = verify_dataset(out)
    assert check.ok, check.mismatches
    assert report.manifest["counts"]["rows_in"] == check.rows_checked


def test_fuzz_codenet_reader(tmp_path):
    deadline = time.monotonic() + FUZZ_SECONDS
    seed = FIRST_SEED
    outcomes = {"ok": 0, "error": 0}
    while time.monotonic() < deadline or seed - FIRST_SEED < 5:
        rng = random.Random(seed)
        where = tmp_path / f"seed-{seed}"
        tree = fuzzed_tree(where / "tree", rng)
        on_error = rng.choice(["reject", "fail"])
        try:
            if seed % 5 == 0:
                full_build(tree, on_error, where / "out")
            else:
                scan_and_stage(tree, on_error, where / "staged")
            outcomes["ok"] += 1
        except CodelogError as exc:
            assert str(exc), "an error must say what is wrong"
            outcomes["error"] += 1
        except Exception as exc:  # pragma: no cover - the failure report
            pytest.fail(
                f"seed {seed} (on_error={on_error}): {type(exc).__name__}: {exc}\n"
                f"input kept in {where}; rerun with CODELOG_FUZZ_SEED={seed}"
            )
        seed += 1
    # Random damage must leave plenty of readable inputs, or the fuzzer tests only errors.
    assert outcomes["ok"] > outcomes["error"] / 4, outcomes


CI_ROWS = [
    {"submission_id": "r1", "problem_id": "gcd", "status": "passed", "language": "Python"},
    {"submission_id": "r2", "problem_id": "gcd", "status": "failed", "language": "Python"},
    {"submission_id": "r3", "problem_id": "lcm", "status": "error", "language": "Python"},
]


def ci_export(path: Path, rng: random.Random) -> Path:
    """A small CI export (CSV or JSON Lines, inline code) with random damage."""
    rows = [{**r, "code": f"print({i} + int(input()))\n"} for i, r in enumerate(CI_ROWS)]
    if rng.random() < 0.5:
        path = path.with_suffix(".jsonl")
        data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    else:
        path = path.with_suffix(".csv")
        text = io.StringIO()
        writer = csv.DictWriter(text, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        data = text.getvalue().encode()
    for _ in range(rng.choice([1, 1, 2, 4])):
        data = mutate(data, rng)
    path.write_bytes(data)
    return path


def test_fuzz_ci_reader(tmp_path):
    deadline = time.monotonic() + FUZZ_SECONDS / 3
    seed = FIRST_SEED
    while time.monotonic() < deadline or seed - FIRST_SEED < 5:
        rng = random.Random(seed)
        where = tmp_path / f"seed-{seed}"
        where.mkdir()
        export = ci_export(where / "export", rng)
        recipe = fuzz_recipe(rng.choice(["reject", "fail"]))
        options = BuildOptions(
            source="ci", language="python", out=where / "out", recipe=recipe, inputs=(str(export),)
        )
        try:
            scan, code_root = open_source(options)
            drain(scan, recipe, code_root, where / "staged")
        except CodelogError as exc:
            assert str(exc)
        except Exception as exc:  # pragma: no cover - the failure report
            pytest.fail(
                f"seed {seed}: {type(exc).__name__}: {exc}\n"
                f"input kept in {export}; rerun with CODELOG_FUZZ_SEED={seed}"
            )
        seed += 1


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=100).map(lambda t: t.encode("utf-8")))
def test_decoding_any_bytes_gives_text_or_a_reason(data):
    try:
        text = decode_code(data, 200, "fuzz")
    except RowRejected as rejected:
        assert rejected.reason in {"too_large", "binary_source", "not_utf8"}
        if rejected.reason == "too_large":
            assert len(data) > 200
        elif rejected.reason == "binary_source":
            assert b"\0" in data
        else:
            with pytest.raises(UnicodeDecodeError):
                data.decode("utf-8")
    else:
        assert text.encode("utf-8") == data
