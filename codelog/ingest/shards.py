"""The Parquet shards a Hub-published source reads: files, directories, globs or a Hub name.

`--input` of `--source codecontests` / `--source codeforces` takes any mix of
- a Parquet file;
- a directory (every *.parquet below it, by path: a local copy of the repository);
- a glob (`data/train-*.parquet`);
- a bare Hub name (`deepmind/code_contests`, optionally `NAME@REVISION`): the repository's
  Parquet files through huggingface_hub's cache (downloaded once; offline, one error line
  naming the local form).

Rows are read batch by batch (pyarrow's iter_batches with the columns asked for), so memory
stays flat whatever the shards hold.
"""

from __future__ import annotations

import glob
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from codelog.errors import CodelogError, InputError

_HUB_NAME = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+(@[\w./-]+)?$")


def parquet_files(specs: Sequence[str | Path], source: str) -> list[Path]:
    """The Parquet files `specs` name, in the order given (each once; a directory's by path)."""
    files: list[Path] = []
    for spec in specs:
        text = str(spec)
        path = Path(text)
        if glob.has_magic(text):
            found = [Path(m) for m in sorted(glob.glob(text, recursive=True)) if Path(m).is_file()]
            if not found:
                raise InputError(text, "no file matches this pattern")
        elif path.is_dir():
            found = sorted(path.rglob("*.parquet"))
            if not found:
                raise InputError(text, "no .parquet files in this directory")
        elif path.is_file():
            found = [path]
        elif _HUB_NAME.match(text):
            found = hub_files(text, source)
        else:
            raise InputError(text, "no such file or directory")
        for file in found:
            if file.resolve() not in {f.resolve() for f in files}:
                files.append(file)
    if not files:
        raise InputError("--input", f"--source {source} needs at least one --input")
    return files


def hub_files(name: str, source: str) -> list[Path]:
    """The Parquet files of the Hub dataset `name` (`owner/repo[@revision]`), downloaded into
    huggingface_hub's cache."""
    repo, _, revision = name.partition("@")
    try:
        from huggingface_hub import snapshot_download

        folder = snapshot_download(
            repo, repo_type="dataset", revision=revision or None, allow_patterns=["*.parquet"]
        )
    except ImportError:
        raise CodelogError(
            f"--source {source} --input {name}: loading from the Hub needs huggingface_hub; "
            "or give a local copy of its Parquet files: --input DIR"
        ) from None
    except Exception as exc:  # offline, unknown repository, gated: many kinds
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
        raise CodelogError(
            f"--source {source} --input {name}: cannot load it from the Hugging Face Hub "
            f"({reason}); give a local copy of its Parquet files: --input DIR"
        ) from None
    files = sorted(Path(folder).rglob("*.parquet"))
    if not files:
        raise InputError(name, "the Hub repository holds no .parquet files")
    return files


def open_shard(path: Path, needed: Sequence[str], source: str) -> pq.ParquetFile:
    """`path` as a Parquet file that has the top-level columns `needed`; an InputError naming
    the file and the missing column otherwise."""
    try:
        shard = pq.ParquetFile(path)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(path, f"not a readable Parquet file: {exc}") from None
    names = set(shard.schema_arrow.names)
    for column in needed:
        if column.partition(".")[0] not in names:
            raise InputError(
                path,
                f"no column {column.partition('.')[0]!r}: not the {source} schema "
                f"(is --source {source} right?)",
            )
    return shard


def shard_batches(
    path: Path, columns: Sequence[str], batch_size: int, source: str
) -> Iterator[tuple[int, pa.RecordBatch]]:
    """(index of the batch's first row in the file, batch) of `columns` (nested ones as
    "struct.field"), streamed."""
    shard = open_shard(path, columns, source)
    first = 0
    try:
        for batch in shard.iter_batches(batch_size=batch_size, columns=list(columns)):
            yield first, batch
            first += batch.num_rows
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(path, f"cannot read row {first + 1} on: {exc}") from None
