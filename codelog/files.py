"""Files on disk that every stage shares: digests, fsync, temporary directories of dead processes."""

from __future__ import annotations

import functools
import glob
import hashlib
import os
from pathlib import Path


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


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
