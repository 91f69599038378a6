"""Issue 7: group+write sorts only narrow rows; the rows with code go through codelog.spillsort.

The published order must stay what a plain DuckDB `ORDER BY` over the joined rows gives (the
way build used to write them), whatever the size of the sort runs.
"""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from codelog import schema
from codelog.errors import CodelogError
from codelog.files import sha256_file
from codelog.publish import spillsort
from codelog.publish.spillsort import RunWriter, merge_runs
from codelog.publish.writer import write_table

from .conftest import build_sample

# The pre-spillsort queries of build: the reference for row order and content.
_SOLUTION_COLUMNS = ", ".join(
    f"f.{c}"
    if c in ("outcome", "reward", "is_correct", "dup_count")
    else "p.split"  # the problem's, as published in problems.parquet
    if c == "split"
    else f"s.{c}"
    for c in schema.SOLUTION.names
)
REFERENCE = {
    "solutions": f"SELECT {_SOLUTION_COLUMNS} FROM fate f JOIN staged s USING (seq) "
    "JOIN splits p ON p.problem_id = f.problem_id "
    "WHERE f.reason IS NULL ORDER BY s.problem_id, s.language, s.submission_id, s.seq",
    "rejects": "SELECT f.problem_id, f.language, f.dialect, f.submission_id, s.status, f.outcome, "
    "f.reason, "
    "f.detail, s.origin, s.ast_hash, s.code FROM fate f JOIN staged s USING (seq) "
    "WHERE f.reason IS NOT NULL ORDER BY f.reason, f.problem_id, f.submission_id, f.seq",
}


def reference_files(dataset: Path, seed: int, tmp: Path) -> dict[str, Path]:
    from codelog.group.engine import run_steps
    from codelog.group.grouping import classify_steps
    from codelog.group.normalize import register_recipe_tables
    from codelog.recipe import load_recipe

    recipe = load_recipe()
    con = duckdb.connect()
    register_recipe_tables(con, recipe)
    parts = dataset.parent / f".{dataset.name}.staging" / "parts" / "*.parquet"
    con.execute(f"CREATE VIEW staged AS SELECT * FROM read_parquet('{parts}')")
    run_steps(con, classify_steps("staged", recipe, seed))
    con.execute("CREATE TABLE fate AS SELECT * FROM classified")
    problems = dataset / "problems.parquet"
    con.execute(f"CREATE TABLE splits AS SELECT problem_id, split FROM read_parquet('{problems}')")
    files = {}
    for name, target in (("solutions", schema.SOLUTION), ("rejects", schema.REJECT)):
        files[name] = tmp / f"{name}.parquet"
        write_table(files[name], target, con.sql(REFERENCE[name]).to_arrow_reader(1000))
    return files


@pytest.mark.parametrize("run_bytes", [None, 20_000])
def test_published_rows_match_a_plain_order_by(tmp_path, monkeypatch, run_bytes):
    if run_bytes:  # many small runs, batches smaller than a row group: every merge path
        monkeypatch.setattr(spillsort, "RUN_BYTES", run_bytes)
        monkeypatch.setattr(spillsort, "RUN_BATCH_ROWS", 7)
    report = build_sample(tmp_path / "ds", seed=3)
    reference = reference_files(report.out, 3, tmp_path)
    for name, path in reference.items():
        assert sha256_file(report.out / f"{name}.parquet") == sha256_file(path), name
    assert not (report.out.parent / ".ds.staging" / "scratch").exists(), "runs left behind"


SCHEMA = pa.schema([("key", pa.string()), ("code", pa.string())])


def shuffled_rows(n: int, seed: int) -> list[tuple[int, str]]:
    positions = list(range(n))
    random.Random(seed).shuffle(positions)
    return [(p, f"row {p} " + "x" * (p % 50)) for p in positions]


def spill(tmp_path: Path, rows: list[tuple[int, str]], run_bytes: int) -> RunWriter:
    writer = RunWriter(tmp_path, "t", SCHEMA, run_bytes=run_bytes)
    for start in range(0, len(rows), 37):
        chunk = rows[start : start + 37]
        writer.write(
            pa.Table.from_pydict(
                {
                    "key": [f"k{p}" for p, _ in chunk],
                    "code": [c for _, c in chunk],
                    "pos": [p for p, _ in chunk],
                },
                schema=writer.schema,
            )
        )
    writer.close()
    return writer


@pytest.mark.parametrize("run_bytes", [1, 2_000, 1 << 30])
@pytest.mark.parametrize("block_rows", [1, 100, 5000])
def test_merge_emits_every_position_once_in_order(tmp_path, run_bytes, block_rows):
    rows = shuffled_rows(3000, seed=run_bytes + block_rows)
    writer = spill(tmp_path, rows, run_bytes)
    merged = pa.Table.from_batches(list(merge_runs(writer.runs, writer.rows, block_rows)))
    assert merged.schema == SCHEMA
    assert merged.column("key").to_pylist() == [f"k{p}" for p in range(3000)]
    assert merged.column("code").to_pylist() == [c for _, c in sorted(rows)]


def test_merge_of_nothing_is_empty(tmp_path):
    writer = spill(tmp_path, [], 100)
    assert writer.runs == [] and list(merge_runs(writer.runs, 0, 10)) == []


@pytest.mark.parametrize("broken", ["gap", "repeat", "extra"])
def test_merge_refuses_positions_that_are_not_dense(tmp_path, broken):
    rows = shuffled_rows(300, seed=1)
    announced = 300
    if broken == "gap":
        rows = [r for r in rows if r[0] != 123]
    elif broken == "repeat":
        rows = [(124 if p == 123 else p, c) for p, c in rows]
    else:
        announced = 299
    writer = spill(tmp_path, rows, 1_000)
    with pytest.raises(CodelogError, match="internal"):
        list(merge_runs(writer.runs, announced, 50))


def test_sink_bytes_do_not_depend_on_batch_sizes(tmp_path):
    # distinct strings beyond the 1 MiB dictionary page: the writer falls back to plain
    # encoding at a chunk boundary, so uneven batches used to change the file's bytes
    from codelog.publish.writer import ParquetSink

    rng = random.Random(0)
    codes = [
        f"{i} " + "".join(rng.choices("abcdef", k=rng.randrange(300, 1500))) for i in range(9000)
    ]
    table = pa.table({"key": [str(i) for i in range(9000)], "code": codes}, schema=SCHEMA)
    digests = set()
    for sizes in ([9000], [1000] * 9, [7, 993, 2500, 11, 5489]):
        path = tmp_path / f"{len(sizes)}.parquet"
        sink = ParquetSink(path, SCHEMA, row_group_rows=4096)
        start = 0
        for n in sizes:
            sink.write(table.slice(start, n).combine_chunks().to_batches()[0])
            start += n
        sink.close()
        digests.add(sha256_file(path))
    assert len(digests) == 1
