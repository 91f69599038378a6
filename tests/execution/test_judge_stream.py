"""`codelog judge` streams: the driver holds a row group of code, not the input; a resumed run
writes the bytes of a run that was never interrupted, its rows in input order.

The judge itself is replaced by a fake that decides a verdict from the submission id, so these
tests run no sandbox and take a second; what they check is the run around it (judge_run.py).
"""

from __future__ import annotations

import json
import shutil
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from codelog.errors import CodelogError, InputError
from codelog.execution import judge, judge_run
from codelog.execution.journal import journal_path
from codelog.execution.judge import VERDICTS, Program, Verdict
from codelog.execution.judge_run import dataset_source, run_judge
from codelog.execution.testcases import Problem

PROBLEMS = {"p1": "a + b", "p2": "a * b"}


class Interrupted(Exception):
    """Stands for Ctrl-C or a lost driver: raised by the fake judge at a chosen program."""


def fake_judge(monkeypatch: pytest.MonkeyPatch, *, stop_at: int | None = None) -> list[str]:
    """Judge by the submission id's checksum (no sandbox); returns the ids judged, in order."""
    judged: list[str] = []

    def judge_program(program: Program, problem: Problem, options: object = None) -> Verdict:
        if stop_at is not None and len(judged) == stop_at:
            raise Interrupted(program.submission_id)
        judged.append(program.submission_id)
        h = zlib.crc32(program.submission_id.encode())
        status = VERDICTS[h % len(VERDICTS)]
        test = judge.TestResult("t1", status, h % 97, h % 89, h % 1000, "")
        return Verdict(
            program.submission_id, program.problem_id, status, 1, 1, 1,
            h % 97, h % 1000, h % 89, "", "fake", (test,),
        )  # fmt: skip

    monkeypatch.setattr(judge, "judge_program", judge_program)
    return judged


def write_inputs(tmp_path: Path, n: int, pad: int = 0) -> tuple[Path, Path]:
    """n samples over two problems and one without tests (skipped), code padded by `pad`
    bytes of comment; and their problems file."""
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        "".join(
            json.dumps({"problem_id": pid, "tests": [{"input": "1 2\n", "output": "3\n"}]}) + "\n"
            for pid in PROBLEMS
        )
    )
    samples = tmp_path / "samples.jsonl"
    with samples.open("w") as f:
        for i in range(n):
            pid = ["p1", "p2", "no-tests"][i % 3]
            code = f"print({i})\n" + ("#" * 99 + "\n") * (pad // 100)
            f.write(json.dumps({"submission_id": f"s{i:04d}", "problem_id": pid, "code": code}))
            f.write("\n")
    return samples, problems


def judge_into(
    samples: Path, problems: Path, outs: Path, **kwargs: object
) -> judge_run.JudgeReport:
    outs.mkdir(exist_ok=True)
    return run_judge(
        samples,
        outs / "rows.parquet",
        tests=str(problems),
        workers=1,
        details_out=outs / "details.jsonl",
        problems_out=outs / "problems.jsonl",
        **kwargs,
    )


def files(directory: Path) -> dict[str, bytes]:
    """The files of `directory` but the run's lock (left in place, as `codelog build`'s is)."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.suffix != ".lock"}


def test_a_resumed_run_writes_the_bytes_of_a_run_never_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(judge_run, "ROW_GROUP_ROWS", 7)  # several row groups, cut mid-resume
    samples, problems = write_inputs(tmp_path, 60)
    fake_judge(monkeypatch)
    fresh = judge_into(samples, problems, tmp_path / "fresh")

    fake_judge(monkeypatch, stop_at=25)
    with pytest.raises(Interrupted) as stopped:
        judge_into(samples, problems, tmp_path / "resumed")
    at = int(stopped.value.args[0][1:])  # the program it stopped at; skipped ones count too
    journal = journal_path(tmp_path / "resumed" / "rows.parquet")
    assert list(files(tmp_path / "resumed")) == [journal.name]  # no output, no temporary file
    judged = fake_judge(monkeypatch)
    resumed = judge_into(samples, problems, tmp_path / "resumed")

    assert judged == [f"s{i:04d}" for i in range(at, 60) if i % 3 != 2]  # the rest, once each
    assert resumed.resumed == at == 37 and fresh.resumed == 0
    assert files(tmp_path / "resumed") == files(tmp_path / "fresh")
    rows = pq.read_table(tmp_path / "fresh" / "rows.parquet")
    assert rows["submission_id"].to_pylist() == [f"s{i:04d}" for i in range(60) if i % 3 != 2]
    assert pq.ParquetFile(tmp_path / "fresh" / "rows.parquet").num_row_groups == 6
    details = (tmp_path / "fresh" / "details.jsonl").read_text().splitlines()
    assert [json.loads(line)["submission_id"] for line in details] == [
        f"s{i:04d}" for i in range(60)
    ]
    for report in (fresh, resumed):
        assert report.rows_written == 40 and report.skipped_reasons == {
            "no tests for this problem": 20
        }
        assert sum(report.statuses.values()) == 40


def test_a_journal_of_other_programs_is_not_taken_for_this_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    samples, problems = write_inputs(tmp_path, 12)
    fake_judge(monkeypatch, stop_at=4)
    with pytest.raises(Interrupted):
        judge_into(samples, problems, tmp_path / "out")
    lines = samples.read_text().splitlines()
    samples.write_text("\n".join([lines[1], lines[0], *lines[2:]]) + "\n")  # the input changed
    fake_judge(monkeypatch)
    with pytest.raises(CodelogError, match=r"judging line 2: holds the verdict of 's0000'.*"
                       r"program 1 of .*samples.jsonl is 's0001'"):  # fmt: skip
        judge_into(samples, problems, tmp_path / "out")


def test_a_bad_line_stops_the_run_before_anything_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    samples, problems = write_inputs(tmp_path, 30)
    judged = fake_judge(monkeypatch)
    lines = samples.read_text().splitlines()
    samples.write_text("\n".join([*lines[:20], '{"problem_id": "p1"}', *lines[20:]]) + "\n")
    with pytest.raises(InputError, match=r"samples\.jsonl line 21: column 'code': needs code"):
        judge_into(samples, problems, tmp_path / "out")
    samples.write_text("\n".join([*lines, lines[3]]) + "\n")
    with pytest.raises(InputError, match=r"samples\.jsonl line 31.*'s0003' repeats line 4"):
        judge_into(samples, problems, tmp_path / "out")
    assert judged == []
    # --limit reads the first programs only: the repeat past them is never read
    report = judge_into(samples, problems, tmp_path / "out", limit=5)
    assert judged == ["s0000", "s0001", "s0003", "s0004"]
    assert report.rows_written == 4


def traced_peak(run: Callable[..., object]) -> int:
    """Peak bytes Python allocated in run(); a first run(limit=1), not traced, does the imports
    and the caches (modules' code would be counted otherwise)."""
    run(limit=1)
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_judging_a_samples_file_holds_a_row_group_of_code_not_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 240 programs of 64 KB: 15 MB of code. Reading them all (read_samples), or keeping every
    # row until the end, holds at least that much in Python strings.
    monkeypatch.setattr(judge_run, "ROW_GROUP_CODE_BYTES", 1 << 20)
    samples, problems = write_inputs(tmp_path, 240, pad=64_000)
    code = 240 * 64_000
    fake_judge(monkeypatch)
    peak = traced_peak(lambda **kw: judge_into(samples, problems, tmp_path / "out", **kw))
    assert peak < code / 5, f"peak {peak / 2**20:.1f} MiB for {code / 2**20:.1f} MiB of code"
    assert pq.ParquetFile(tmp_path / "out" / "rows.parquet").num_row_groups >= 9


def test_judging_a_dataset_holds_a_batch_of_code_not_the_dataset(
    sample_dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the sample's 749 solutions, each padded with a 32 KB comment: 23 MB of code
    padded = tmp_path / "padded"
    padded.mkdir()
    for name in ("manifest.json", "problems.parquet"):
        shutil.copy(sample_dataset / name, padded / name)
    solutions = pq.read_table(sample_dataset / "solutions.parquet")
    pad = ("#" * 99 + "\n") * 320
    code = pa.array([c + pad for c in solutions["code"].to_pylist()])
    solutions = solutions.set_column(solutions.schema.get_field_index("code"), "code", code)
    pq.write_table(solutions, padded / "solutions.parquet", row_group_size=16_384)
    total = sum(len(c) for c in code.to_pylist())
    del code, solutions

    monkeypatch.setattr(judge_run, "ROW_GROUP_CODE_BYTES", 1 << 20)
    fake_judge(monkeypatch)
    out = tmp_path / "rows.jsonl"
    peak = traced_peak(lambda **kw: run_judge(padded, out, workers=1, **kw))
    assert peak < total / 5, f"peak {peak / 2**20:.1f} MiB for {total / 2**20:.1f} MiB of code"
    assert dataset_source(padded).count == 749 == len(out.read_text().splitlines())


def test_a_function_problems_programs_are_judged_grouped_and_handed_out_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from codelog.execution import judge as judge_module
    from codelog.execution.judge import Program, _grouped, _in_input_order
    from codelog.execution.testcases import Problem, TestCase

    function = Problem("f", (TestCase("check"),), test_code="assert f(1) == 1\n")
    stdio = Problem("s", (TestCase("t", "", "1\n"),))
    problems = {"fa": function, "fb": function, "s": stdio}
    order = ["fb", "fa", "s", "fb", "fa", "s", "fb"]
    programs = [Program(f"p{i}", pid, "x = 1\n") for i, pid in enumerate(order)]
    grouped = list(_grouped(programs, problems))
    # the stdio programs at once, the function problems' held and handed on by problem
    assert [p.submission_id for _, p in grouped] == ["p2", "p5", "p1", "p4", "p0", "p3", "p6"]
    assert sorted(i for i, _ in grouped) == list(range(7))
    assert list(_in_input_order(grouped)) == programs
    # at most GROUP_WINDOW held back
    monkeypatch.setattr(judge_module, "GROUP_WINDOW", 2)
    assert [i for i, _ in _grouped(programs, problems)] == [1, 0, 2, 4, 3, 5, 6]
