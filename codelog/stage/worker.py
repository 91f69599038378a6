"""Stage one batch: read each row's code, check it, parse it, write a Parquet part.

This runs in worker processes (the CPU hot spot is the tree-sitter parse), and each worker
writes its own part so code text never travels back to the parent process.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import itertools
import os
import stat
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from codelog import schema
from codelog.errors import InputError
from codelog.ingest.scan import locate_lines
from codelog.stage.ast_hash import ParseResult, exact_hash, parse_code


@dataclass(frozen=True)
class StageTask:
    index: int  # part number; parts are read back in this order
    first_seq: int
    batch: pa.RecordBatch  # codelog.schema.SUBMISSION rows
    language: str
    out_dir: str
    max_source_bytes: int
    on_error: str  # "reject" or "fail"
    code_root: str | None  # code_path must resolve inside this directory
    origin_root: str | None = None  # rows' `origin` files are relative to this (error messages)


@dataclass(frozen=True)
class StageResult:
    index: int
    rows: int
    path: str
    digest: str  # of the part's (submission_id, code hash) pairs: the input's code fingerprint


# Source reject reasons that are not bad input (a CI export's rows of another language than
# the build's): on_error = "fail" does not stop on them.
OUT_OF_SCOPE = frozenset({"other_language"})


class RowRejected(Exception):
    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason, self.detail = reason, detail


def read_code(path: str, max_bytes: int, code_root: str | None) -> str:
    """A source file's text, or RowRejected with the reason it cannot be used.

    Containment is checked on the directory's real path (cached: a problem's files share it)
    and, only when the file itself is a symlink, on the file's: two syscalls fewer per file
    than a realpath of every path, which matters at millions of files.
    """
    if code_root is not None and not _inside(_real_dir(os.path.dirname(path)), code_root):
        raise RowRejected("path_escape", f"{path} resolves outside {code_root}")
    try:
        try:
            # O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then rejects it)
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            real = os.path.realpath(path)  # the file is a symlink: follow it, then check
            if code_root is not None and not _inside(real, code_root):
                raise RowRejected("path_escape", f"{path} resolves outside {code_root}") from None
            fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK)
        try:
            data = _read_regular(fd, path, max_bytes)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise RowRejected("missing_source", f"{path}: no such file") from None
    except OSError as exc:
        raise RowRejected("unreadable_source", f"{path}: {exc.strerror or exc}") from None
    return decode_code(data, max_bytes, path)


def _read_regular(fd: int, path: str, max_bytes: int) -> bytes:
    """The file's bytes in one read() sized by fstat: no buffered file object per file."""
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end
        what = "is a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise RowRejected("unreadable_source", f"{path}: {what}")
    if st.st_size > max_bytes:
        raise RowRejected("too_large", f"{path}: over the {max_bytes}-byte limit")
    want = st.st_size + 1  # one byte over: a file that grew since fstat shows it
    data = os.read(fd, want)
    if len(data) < want:  # a short read of a regular file ends it: no second syscall
        return data
    chunks, total = [data], len(data)
    while total <= max_bytes and (chunk := os.read(fd, max_bytes + 1 - total)):
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


@functools.lru_cache(maxsize=65536)
def _real_dir(directory: str) -> str:
    return os.path.realpath(directory)


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def decode_code(data: bytes, max_bytes: int, where: str) -> str:
    if len(data) > max_bytes:
        raise RowRejected("too_large", f"{where}: over the {max_bytes}-byte limit")
    if b"\0" in data:
        raise RowRejected("binary_source", f"{where}: contains NUL bytes (not text)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RowRejected("not_utf8", f"{where}: byte {exc.start} is not UTF-8") from None


# Byte-identical resubmissions are common in judge archives: parse each text once per worker.
_PARSED: dict[tuple[str, str], ParseResult] = {}
_PARSED_MAX = 20_000  # per worker: copies are mostly resubmissions to the same problem


def _parse_cached(code: str, code_hash: str, language: str) -> ParseResult:
    key = (code_hash, language)
    parsed = _PARSED.get(key)
    if parsed is None:
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        parsed = _PARSED[key] = parse_code(code, language)
    return parsed


def _reads(path: str | None, code: str | None, reason: str | None) -> bool:
    """Whether stage_batch reads this row's file (in row order, as _read_ahead returns them)."""
    return reason is None and code is None and path is not None


_READERS: ThreadPoolExecutor | None = None
READ_AHEAD_THREADS = 4
READ_CHUNK = 16


def _read_ahead(
    paths: list[str], max_bytes: int, code_root: str | None
) -> Iterator[str | RowRejected]:
    """The files' texts (or why not), in order, read by threads while the caller parses.

    A file not in the page cache costs a disk round trip; with reads in flight while the
    parse runs (it releases the GIL), the cores stay busy instead of waiting on the disk.
    """
    global _READERS
    if _READERS is None:  # one pool per worker process, made on first use
        _READERS = ThreadPoolExecutor(READ_AHEAD_THREADS, thread_name_prefix="codelog-read")
    # A future per chunk, not per file: a future costs about as much as reading a cached file.
    chunks = [paths[i : i + READ_CHUNK] for i in range(0, len(paths), READ_CHUNK)]
    read = functools.partial(_read_chunk, max_bytes, code_root)
    return itertools.chain.from_iterable(_READERS.map(read, chunks))


def _read_chunk(max_bytes: int, code_root: str | None, paths: list[str]) -> list[str | RowRejected]:
    texts: list[str | RowRejected] = []
    for path in paths:
        try:
            texts.append(read_code(path, max_bytes, code_root))
        except RowRejected as rejected:
            texts.append(rejected)
    return texts


def _row_error(task: StageTask, i: int, reason: str, detail: str) -> InputError:
    """The InputError of a bad row under on_error = "fail", naming its file and line."""
    submission_id = task.batch.column("submission_id")[i].as_py()
    message = f"submission {submission_id}: {reason}: {detail}"
    origin = task.batch.column("origin")[i].as_py() or "input"
    path, _, line = origin.rpartition(":")
    if path and line.isdigit():  # the source knew the line ("metadata/p02971.csv:118")
        return InputError(path, message, line=int(line))
    full = Path(task.origin_root or "") / origin
    found = locate_lines(full, submission_id) if submission_id and full.is_file() else []
    return InputError(origin, message, line=found[0] if found else None)


def stage_batch(task: StageTask) -> StageResult:
    """Read, check and parse every row of `task.batch`; write the staged part."""
    batch = task.batch
    n = batch.num_rows
    # Only the columns this step reads or rewrites become Python lists; the rest pass through.
    paths: list[str | None] = batch.column("code_path").to_pylist()
    codes: list[str | None] = batch.column("code").to_pylist()
    reasons: list[str | None] = batch.column("reject_reason").to_pylist()
    details: list[str | None] = batch.column("reject_detail").to_pylist()
    syntax_ok: list[bool | None] = [None] * n
    ast_hashes: list[str | None] = [None] * n
    code_hashes: list[str | None] = [None] * n
    files = _read_ahead(
        [p for p, c, r in zip(paths, codes, reasons, strict=True) if _reads(p, c, r)],
        task.max_source_bytes,
        task.code_root,
    )
    for i in range(n):
        if reasons[i] is not None:
            if task.on_error == "fail" and reasons[i] not in OUT_OF_SCOPE:
                raise _row_error(task, i, reasons[i], details[i] or "rejected by the source")
            continue
        try:
            code = codes[i]
            if code is None:
                if paths[i] is None:
                    raise RowRejected("missing_source", "row names no code and no code_path")
                code = next(files)
                if isinstance(code, RowRejected):
                    raise code
            else:
                code = decode_code(
                    code.encode("utf-8", "surrogatepass"),
                    task.max_source_bytes,
                    batch.column("origin")[i].as_py() or "inline code",
                )
        except RowRejected as rejected:
            if task.on_error == "fail":
                raise _row_error(task, i, rejected.reason, rejected.detail) from None
            reasons[i], details[i] = rejected.reason, rejected.detail
            continue
        code_hash = exact_hash(code)
        parsed = _parse_cached(code, code_hash, task.language)
        codes[i] = code
        syntax_ok[i] = parsed.syntax_ok
        ast_hashes[i] = parsed.ast_hash
        code_hashes[i] = code_hash

    learned = {
        "seq": pa.array(range(task.first_seq, task.first_seq + n), pa.int64()),
        "code": codes,
        "reject_reason": reasons,
        "reject_detail": details,
        "syntax_ok": syntax_ok,
        "ast_hash": ast_hashes,
        "code_hash": code_hashes,
    }
    table = pa.Table.from_arrays(
        [learned[f.name] if f.name in learned else batch.column(f.name) for f in schema.STAGED],
        schema=schema.STAGED,
    )
    path = Path(task.out_dir) / f"part-{task.index:06d}.parquet"
    tmp = path.with_suffix(".parquet.tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)
    ids = batch.column("submission_id").to_pylist()
    pairs = "".join(f"{i}\0{h or '-'}\n" for i, h in zip(ids, code_hashes, strict=True))
    digest = hashlib.sha256(pairs.encode("utf-8", "surrogateescape")).hexdigest()
    return StageResult(index=task.index, rows=n, path=str(path), digest=digest)
