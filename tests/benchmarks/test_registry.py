"""The benchmarks registry: names, references as published, sources by NAME or NAME:PATH."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import codelog.benchmarks as benchmarks
from codelog.benchmarks import decoding
from codelog.errors import CodelogError, InputError
from codelog.execution.testcases import humaneval_problems

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "benchmarks"
MBPP = FIXTURES / "mbpp" / "mbpp-sample.jsonl"


def test_registry_names_every_benchmark_module():
    assert {"humaneval", "codenet", "mbpp"} <= set(benchmarks.names())


def test_mbpp_references_are_the_published_rows():
    refs = {r.task_id: r for r in benchmarks.references(f"mbpp:{MBPP}", "all")}
    assert len(refs) == 10
    two = refs["2"]
    assert two.benchmark == "mbpp" and two.language == "python"
    assert (
        two.statement
        == "Write a function to find the similar elements from the given two tuple lists."
    )
    assert two.solutions[0].startswith("def similar_elements(test_tup1, test_tup2):\r\n")


def test_mbpp_split_is_a_task_id_range():
    train = {r.task_id for r in benchmarks.references(f"mbpp:{MBPP}", "train")}
    assert train == {"601", "653", "700", "902", "927"}
    with pytest.raises(CodelogError, match="no problems in split 'test'"):
        benchmarks.load(f"mbpp:{MBPP}")  # the default split, 11-510, is not in the sample


def test_humaneval_references_carry_the_canonical_solution():
    refs = list(benchmarks.references("humaneval"))
    assert len(refs) == 164
    assert refs[0].task_id == "HumanEval/0"
    assert refs[0].solutions[0].startswith(refs[0].statement)


def test_unknown_benchmark_names_the_known_ones():
    with pytest.raises(CodelogError, match="one of humaneval, codenet, mbpp"):
        benchmarks.parse("mbbp:x.jsonl")


def test_hub_source_offline_fails_at_once_naming_the_local_form(tmp_path):
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf"),
    }
    code = "import codelog.benchmarks as b; list(b.references('mbpp'))"
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode != 0
    assert time.monotonic() - start < 60
    last = proc.stderr.strip().splitlines()[-1]
    assert "--benchmark mbpp:PATH" in last and "google-research-datasets/mbpp" in last


def test_a_humaneval_file_that_is_not_gzip_is_one_error_naming_it(tmp_path, monkeypatch, capsys):
    from tests.dataset.test_sql import run_main

    bundled = {t.problem.problem_id: t.problem for t in benchmarks.tasks("humaneval")}
    assert bundled == humaneval_problems()  # read here as execution/ reads it
    plain = tmp_path / "HumanEval.jsonl"
    plain.write_text('{"task_id": "HumanEval/0"}\n')
    for read in (benchmarks.references, benchmarks.tasks):
        with pytest.raises(InputError, match=f"^{plain}: not a gzip file"):
            list(read(f"humaneval:{plain}"))
    code, _, err = run_main(
        monkeypatch, capsys, "contamination", f"mbpp:{MBPP}", "--against", f"humaneval:{plain}"
    )
    assert (
        code == 1
        and err == f"error: {plain}: not a gzip file (humaneval:PATH reads HumanEval.jsonl.gz)\n"
    )


def test_a_gzip_bomb_stops_at_the_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(decoding, "MAX_DECODED_BYTES", 1 << 20)
    bomb = tmp_path / "HumanEval.jsonl.gz"
    bomb.write_bytes(gzip.compress(b"0" * (5 << 20)))
    with pytest.raises(InputError, match=f"^{bomb}: inflates to more than 1 MiB"):
        list(benchmarks.references(f"humaneval:{bomb}"))


def test_a_file_that_is_one_endless_line_stops_at_the_bound(tmp_path, monkeypatch):
    from codelog import files

    monkeypatch.setattr(files, "MAX_LINE_CHARS", 1 << 16)
    rows = MBPP.read_text(encoding="utf-8").splitlines()
    endless = tmp_path / "mbpp.jsonl"  # two real rows, then one without an end
    endless.write_text("\n".join(rows[:2]) + "\n" + "[" * (1 << 17), encoding="utf-8")
    with pytest.raises(InputError, match=f"^{endless} line 3: a line longer than 65,536"):
        list(benchmarks.references(f"mbpp:{endless}"))
    exact = tmp_path / "exact.jsonl"  # a row of exactly the bound, then its newline: read
    row = rows[0] + " " * ((1 << 16) - len(rows[0]))
    exact.write_text(row + "\n" + rows[1] + "\n", encoding="utf-8")
    assert [n for n, _ in files.json_lines(exact)] == [1, 2]
