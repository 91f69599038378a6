"""Files on disk that every stage shares: digests, JSON Lines, fsync, temporary directories of
dead processes, and the rules for where codelog may write (local paths only, never over an input,
never over a file it did not create, one writer per output)."""

from __future__ import annotations

import contextlib
import errno
import functools
import glob
import gzip
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from codelog.errors import BusyError, CodelogError, InputError, OutputError


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def file_digest(path: Path) -> str:
    """sha256 of an input file, or "absent"; cached, since the staging key and the manifest
    of one build both need it."""
    try:
        st = path.stat()
    except OSError:
        return "absent"
    return _sha256_of(str(path), st.st_size, st.st_mtime_ns) if path.is_file() else "absent"


@functools.lru_cache(maxsize=16384)
def _sha256_of(path: str, size: int, mtime_ns: int) -> str:  # size, mtime: the cache key
    return sha256_file(Path(path))


# The longest line json_lines reads: a real row is far shorter (the largest CodeContests and
# LiveCodeBench rows are tens of MB); a file that is one endless line stops here rather than
# filling memory.
MAX_LINE_CHARS = 1 << 30


def json_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, Any]]:
    """(line number, value) of each non-blank line of a JSON Lines file (gzipped when it ends in
    .gz), read a line at a time; an unreadable file, a line that is not JSON or one longer than
    MAX_LINE_CHARS is an InputError naming it."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    n = 0
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            while line := f.readline(MAX_LINE_CHARS + 1):
                n += 1
                if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
                    raise InputError(
                        path, f"a line longer than {MAX_LINE_CHARS:,} characters", line=n
                    )
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(path, f"not JSON: {exc.msg}", line=n) from None
                except RecursionError:  # nested past what the parser recurses
                    raise InputError(
                        path, "nests deeper than the JSON parser recurses", line=n
                    ) from None
                yield n, value
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        # the decoder reads ahead, so a bad byte lies past line n, not necessarily on n + 1
        where = f" (after line {n})" if n else ""
        raise InputError(path, f"cannot read{where}: {exc}") from None


def stale_temp_dirs(parent: Path, prefix: str) -> list[tuple[str, Path]]:
    """`{prefix}.tmp-PID` / `{prefix}.old-PID` directories left by a process that is gone.

    A build killed outright (SIGKILL, power loss) cannot clean up; the next one does. A
    directory whose process still runs (a concurrent build) is left alone.
    """
    found = []
    for path in sorted(parent.glob(f"{glob.escape(prefix)}.*-*")):
        kind, _, pid = path.name[len(prefix) + 1 :].rpartition("-")
        if kind in ("tmp", "old") and pid.isdigit() and not process_exists(int(pid)):
            found.append((kind, path))
    return found


def process_exists(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def fsync_tree(root: Path) -> None:
    for path in root.iterdir():
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    fsync_dir(root)


@contextlib.contextmanager
def replacing(path: Path, *, durable: bool = False) -> Iterator[Path]:
    """A temporary path beside `path` (`.NAME.tmp-PID`) to write in full: it then replaces
    `path` in one rename, so a reader, or a kill, sees the old file or the new one, never half
    of one; a failure removes it, leaving `path` as it was. `durable`: the file is flushed to
    disk before the rename, and the rename after it."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        yield tmp
        if durable:
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        os.replace(tmp, path)
        if durable:
            fsync_dir(path.parent)
    finally:
        tmp.unlink(missing_ok=True)


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- where codelog may write -------------------------------------------------------------------

# `s3://bucket/key`, `hf://datasets/...`, `https://...`; two letters at least, so a Windows
# drive (`C://`) is not taken for a scheme.
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")


def local_path(value: str | os.PathLike[str], option: str = "path") -> Path:
    """`value` as a local Path. A URL is refused: as a Path `s3://b/k` would silently become
    the local directory `s3:/b/k`."""
    text = os.fspath(value)
    if _URL.match(text):
        raise OutputError(
            f"{option} {text}: a URL; codelog reads and writes local paths only (copy remote "
            "data down first; upload results with your storage's own tool, e.g. `aws s3 cp`, "
            "`huggingface-cli upload`)"
        )
    return Path(text)


def relation(path: Path, other: Path) -> str | None:
    """How `path` stands to `other` on disk: "is", "contains", "lies inside", or None."""
    a, b = path.resolve(), other.resolve()
    if a == b:
        return "is"
    if b.is_relative_to(a):
        return "contains"
    if a.is_relative_to(b):
        return "lies inside"
    return None


def refuse_inputs(
    out: Path, inputs: Iterable[Path], *, around: Iterable[Path] = (), option: str = "--out"
) -> None:
    """Refuse an output that is, contains or lies inside one of `inputs`, or that is or
    contains one of `around` (directories an output may sit inside, e.g. a CI export root)."""
    for inp, inside_ok in [*((p, False) for p in inputs), *((p, True) for p in around)]:
        rel = relation(out, inp)
        if rel is None or (inside_ok and rel == "lies inside"):
            continue
        raise OutputError(
            f"{option} {out} {rel} the input {inp.resolve()}: codelog never writes over or "
            f"into its inputs; choose another {option}"
        )


def is_empty_dir(path: Path) -> bool:
    with os.scandir(path) as entries:
        return next(entries, None) is None


def check_output_dir(
    out: Path, is_ours: Callable[[Path], bool], kind: str, marker: str, option: str = "--out"
) -> None:
    """Refuse to replace `out` unless it is absent, an empty directory, or a `kind` codelog
    wrote (`is_ours`). There is no --force for this: a directory of someone's files is never
    deleted, whatever the flags."""
    if not out.exists():
        return
    if not out.is_dir():
        raise OutputError(f"{option} {out}: exists and is not a directory; it is left alone")
    # Hidden entries alone (a fresh git clone: .git, .gitattributes) are kept by the writer.
    if is_ours(out) or not [n for n in foreign_entries(out, ()) if not n.startswith(".")]:
        return
    raise OutputError(
        f"{option} {out}: exists, is not empty and is not a {kind} (no {marker}); codelog "
        f"replaces only a {kind} it wrote, so it is left alone: choose another {option}"
    )


# Parquet key-value metadata that marks a file codelog wrote (exports, `sql -o`): such a file
# may be replaced by the next run; any other existing file needs --force.
OUTPUT_KEY = b"codelog"


def output_metadata() -> dict[bytes, bytes]:
    from codelog.version import __version__

    return {OUTPUT_KEY: json.dumps({"codelog_version": __version__}).encode()}


def written_by_codelog(path: Path) -> bool:
    """Whether codelog wrote `path` and nobody changed it since: a Parquet file carrying
    codelog's mark, or a file (JSON Lines, CSV, JSON) recorded by `mark_written` whose inode,
    size and modification time are still the recorded ones."""
    try:
        recorded = json.loads(_record_of(path).read_text(encoding="utf-8"))
        if recorded == _fingerprint(path):
            return True
    except (OSError, ValueError):
        pass
    try:
        import pyarrow.parquet as pq

        metadata = pq.read_schema(path).metadata or {}
    except Exception:  # not Parquet, unreadable, a directory: not ours
        return False
    return OUTPUT_KEY in metadata


def _written_records() -> Path:
    """Where codelog records the text files it wrote (a file has no room for a mark)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(cache) / "codelog" / "written"


def _record_of(path: Path) -> Path:
    key = hashlib.sha256(os.fsencode(os.path.abspath(path))).hexdigest()[:32]
    return _written_records() / f"{key}.json"


def _fingerprint(path: Path) -> dict[str, Any]:
    st = os.stat(path)
    return {
        "path": os.path.abspath(path),
        "dev": st.st_dev,
        "ino": st.st_ino,
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
    }


def mark_written(path: Path) -> None:
    """Record that codelog just wrote `path` (call it after the final rename), so the next run
    may replace it without --force. Best effort: a record that cannot be written only means
    the next run asks for --force."""
    with contextlib.suppress(OSError):
        record = _record_of(path)
        record.parent.mkdir(parents=True, exist_ok=True)
        tmp = record.with_name(f".{record.name}.tmp-{os.getpid()}")
        tmp.write_text(json.dumps(_fingerprint(path)), encoding="utf-8")
        os.replace(tmp, record)


def check_output_file(
    out: Path,
    *,
    force: bool,
    inputs: Iterable[Path] = (),
    option: str = "--out",
    others: Iterable[tuple[str, Path | None]] = (),
) -> None:
    """THE rule for a file codelog writes, whatever the command: never an input or a file
    inside an input (even with --force), never a directory, never the same file as another
    output of the same run (`others`: (option, path) pairs); an existing file only if codelog
    wrote it (`written_by_codelog`) or with --force."""
    refuse_inputs(out, inputs, option=option)
    for other_option, other in others:
        if other is not None and relation(out, other) == "is":
            raise OutputError(
                f"{option} {out} is also {other_option}: each output needs a file of its own"
            )
    if out.is_dir():
        raise OutputError(f"{option} {out}: is a directory; {option} names the file to write")
    if (out.exists() or out.is_symlink()) and not force and not written_by_codelog(out):
        raise OutputError(
            f"{option} {out}: exists and codelog did not write it; pass --force to replace it"
        )


def foreign_entries(directory: Path, ours: Iterable[str]) -> list[str]:
    """Names in `directory` that codelog did not write (`ours`: the names it did), `.git`
    included, sorted."""
    owned = set(ours)
    with os.scandir(directory) as entries:
        return sorted(e.name for e in entries if e.name not in owned)


def keep_foreign(
    old: Path, new: Path, ours: Iterable[str], *, move: bool = True, option: str = "--out"
) -> list[str]:
    """When `new` replaces the directory `old`: move every entry of `old` codelog did not write
    (`ours`: the names it did; a git clone's `.git`, `.gitattributes`, a user's notes) into
    `new`, so the user keeps them. A foreign entry whose name `new` holds too is an OutputError
    before anything moves (`move=False`: only that check, before the swap)."""
    foreign = foreign_entries(old, ours)
    clash = [name for name in foreign if os.path.lexists(new / name)]
    if clash:
        raise OutputError(
            f"{option} {old}: holds {', '.join(clash)}, which codelog did not write and would "
            f"replace; move it away or choose another {option}"
        )
    if move:
        for name in foreign:
            os.replace(old / name, new / name)
    return foreign


def lock_path(out: Path) -> Path:
    """The lock of a run writing `out` (build, judge, eval): beside it, so that it outlives an
    output replaced whole, and one name per output whoever takes it."""
    return out.parent / f".{out.name}.lock"


@contextlib.contextmanager
def exclusive_lock(
    path: Path,
    what: str,
    *,
    wait: bool = False,
    on_wait: Callable[[str], Any] | None = None,
    activity: str = "build",
    wait_option: str | None = "--wait",
) -> Iterator[None]:
    """Hold an exclusive flock on `path` (created if absent, left in place: removing a lock
    file races with the next process opening it) for the block. Held by another process:
    BusyError naming its pid, or with `wait`, block until it is released. The kernel drops the
    lock when the holder exits, however it exits, so a killed build never leaves it stuck."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock to take (codelog is tested on Linux)
        yield
        return

    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)  # not inherited by the pool's workers
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _lock_holder(fd)
            message = f"another {activity} of {what} is running (pid {holder})"
            if not wait:
                hint = f"wait for it, or pass {wait_option}" if wait_option else "wait for it"
                raise BusyError(f"{message}; {hint}") from None
            if on_wait is not None:
                on_wait(f"{message}; waiting for it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _lock_holder(fd: int) -> str:
    text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    return text if text.isdigit() else "unknown"


# --- failures of the disk rather than of codelog ----------------------------------------------

STORAGE_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM)
_STORAGE_MESSAGES = tuple(os.strerror(e) for e in STORAGE_ERRNOS)


def storage_error(exc: BaseException) -> str | None:
    """What went wrong, when `exc` is the disk refusing a write (full, over quota, read-only,
    no permission): an OSError with that errno, or a pyarrow/DuckDB error quoting its message."""
    if isinstance(exc, OSError) and exc.errno in STORAGE_ERRNOS:
        return os.strerror(exc.errno)
    text = str(exc)
    return next((m for m in _STORAGE_MESSAGES if m in text), None)


def storage_error_path(exc: BaseException, fallback: Path) -> str:
    """The path a storage error names, else `fallback`."""
    name = getattr(exc, "filename", None)
    return os.fsdecode(name) if name else str(fallback)


@contextlib.contextmanager
def writing(target: Path, context: str | None = None) -> Iterator[None]:
    """Turn the disk refusing a write (full, read-only, no permission) while writing `target`
    into one OutputError naming the path, instead of a library's traceback. `context` says
    what was being done and what is left (default: nothing was published at `target`)."""
    if context is None:
        context = (
            f"writing {target}; nothing was published there, what was there before is unchanged"
        )
    try:
        yield
    except CodelogError:
        raise
    except Exception as exc:
        cause = storage_error(exc)
        if cause is None:
            raise
        raise OutputError(f"{storage_error_path(exc, target)}: {cause} ({context})") from None
