"""CI rows written a table at a time (codelog.ci_format.RowsWriter) are the bytes of one write:
the judge streams its rows out and its files stay what they were when it wrote them whole."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from codelog.ci_format import RowsWriter, write_rows

SCHEMA = pa.schema([("submission_id", pa.string()), ("date", pa.int64()), ("code", pa.string())])
ROWS = pa.Table.from_pylist(
    [
        {"submission_id": "s1", "date": 1, "code": "print(1)\n"},
        {"submission_id": "s2", "date": None, "code": 'print("a, b")\n'},
        {"submission_id": "s3", "date": 3, "code": "# é ünïcode\n"},
        {"submission_id": "s4", "date": 4, "code": None},
        {"submission_id": "s5", "date": 5, "code": "x = 1\n"},
    ],
    schema=SCHEMA,
)


def in_parts(out: Path, cuts: list[int]) -> None:
    with RowsWriter(out, SCHEMA) as writer:
        start = 0
        for end in [*cuts, ROWS.num_rows]:
            writer.write(ROWS.slice(start, end - start))
            start = end


@pytest.mark.parametrize("suffix", [".jsonl", ".json", ".csv"])
def test_text_rows_written_in_parts_are_the_bytes_of_one_write(tmp_path: Path, suffix: str) -> None:
    whole, parts = tmp_path / f"whole{suffix}", tmp_path / f"parts{suffix}"
    write_rows(ROWS, whole)
    in_parts(parts, [0, 2, 3])
    assert parts.read_bytes() == whole.read_bytes()


def test_one_parquet_write_is_the_bytes_of_write_table_and_each_write_a_row_group(
    tmp_path: Path,
) -> None:
    reference = tmp_path / "reference.parquet"
    pq.write_table(ROWS, reference, compression="zstd")
    write_rows(ROWS, tmp_path / "one.parquet")
    assert (tmp_path / "one.parquet").read_bytes() == reference.read_bytes()
    in_parts(tmp_path / "parts.parquet", [0, 2, 3])
    parts = pq.ParquetFile(tmp_path / "parts.parquet")
    assert [parts.metadata.row_group(i).num_rows for i in range(parts.num_row_groups)] == [2, 1, 2]
    assert parts.read().equals(ROWS)


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl", ".json", ".csv"])
def test_no_rows_are_the_bytes_of_writing_an_empty_table(tmp_path: Path, suffix: str) -> None:
    write_rows(SCHEMA.empty_table(), tmp_path / f"whole{suffix}")
    with RowsWriter(tmp_path / f"none{suffix}", SCHEMA):
        pass
    assert (tmp_path / f"none{suffix}").read_bytes() == (tmp_path / f"whole{suffix}").read_bytes()


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    out.write_text("before\n")
    with pytest.raises(RuntimeError), RowsWriter(out, SCHEMA) as writer:
        writer.write(ROWS)
        raise RuntimeError("the judge was interrupted")
    assert out.read_text() == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.jsonl"]
