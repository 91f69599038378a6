"""Staging: every source row read, parsed and hashed in a process pool, into Parquet parts.

Staged parse results are kept beside the dataset (`.NAME.staging/`) under a key of everything
staging reads or decides with, and reused when the key is unchanged, so a recipe change
re-runs only the SQL. A finished stage is swapped into place whole (tmp dir + rename).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import multiprocessing
import os
import shutil
import signal
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow as pa

from codelog import schema
from codelog.errors import CodelogError
from codelog.executors import LOCAL, ExecutorSpec, PoolExecutor, open_executor
from codelog.files import file_digest, stale_temp_dirs
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.progress import rate_progress
from codelog.stage.ast_hash import hash_identity
from codelog.stage.worker import StageTask, stage_batch
from codelog.version import __version__

STAGE_BATCH_ROWS = 1024
STAGE_FILE = "stage.json"


def staging_key(scan: SourceScan, options: BuildOptions) -> str:
    """Changes whenever anything that staging reads or decides with changes."""
    digest = hashlib.sha256()
    limits = options.recipe.limits
    head = [
        __version__,
        options.source,
        scan.language,
        limits.max_source_bytes,
        limits.on_error,
        hash_identity(scan.language),
        schema.STAGED.names,  # parts staged under another schema cannot be reused
    ]
    digest.update(json.dumps(head).encode())
    for path in scan.input_files:
        digest.update(str(path).encode())
        digest.update(file_digest(path).encode())
    for directory in scan.source_dirs:
        digest.update(str(directory).encode())
        try:
            lines = _entry_lines(directory)
        except FileNotFoundError:
            continue
        digest.update(lines.encode())
    return digest.hexdigest()


# Where the OS allows it (Linux, macOS), a directory is listed through its descriptor and each
# entry stat'ed relative to it (fstatat), so the path is not walked again for every file: about
# a tenth of the key's CPU at a million files. The same stat either way, so the same key.
_BY_FD = os.scandir in os.supports_fd and hasattr(os, "O_DIRECTORY")


def _entry_lines(directory: Path) -> str:
    """One line per entry of `directory`, by name: name, size, mtime and inode (not followed)."""
    if not _BY_FD:
        return "".join(map(_entry_line, sorted(os.scandir(directory), key=_name)))
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return "".join(map(_entry_line, sorted(os.scandir(fd), key=_name)))
    finally:
        os.close(fd)


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _entry_line(entry: os.DirEntry[str]) -> str:
    st = entry.stat(follow_symlinks=False)
    return f"{entry.name}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n"


def stage_is_current(stage_dir: Path, key: Future[str]) -> bool:
    """Whether `stage_dir` holds a finished stage made under `key` (waited for only when a
    stage exists: with nothing staged, the key is computed while the workers parse)."""
    if not (stage_dir / STAGE_FILE).exists():
        return False
    try:
        stage = json.loads((stage_dir / STAGE_FILE).read_text())
    except (OSError, ValueError):
        return False
    return stage.get("key") == key.result() and "code_digest" in stage


def _rebatch(batches: Iterator[pa.RecordBatch], rows: int) -> Iterator[pa.RecordBatch]:
    pending: list[pa.RecordBatch] = []
    count = 0
    for batch in batches:
        pending.append(batch)
        count += batch.num_rows
        while count >= rows:
            table = pa.Table.from_batches(pending, schema=schema.SUBMISSION)
            yield table.slice(0, rows).combine_chunks().to_batches()[0]
            rest = table.slice(rows)
            pending, count = rest.to_batches(), rest.num_rows
    if count:
        yield (
            pa.Table.from_batches(pending, schema=schema.SUBMISSION)
            .combine_chunks()
            .to_batches()[0]
        )


def _tasks(
    scan: SourceScan, options: BuildOptions, parts: Path, code_root: Path | None
) -> Iterator[StageTask]:
    seq = 0
    for index, batch in enumerate(_rebatch(scan.batches(STAGE_BATCH_ROWS), STAGE_BATCH_ROWS)):
        yield StageTask(
            index=index,
            first_seq=seq,
            batch=batch,
            language=scan.language,
            out_dir=str(parts),
            max_source_bytes=options.recipe.limits.max_source_bytes,
            on_error=options.recipe.limits.on_error,
            code_root=str(code_root) if code_root else None,
            origin_root=str(scan.root) if scan.root else None,
        )
        seq += batch.num_rows


def stage(
    scan: SourceScan,
    options: BuildOptions,
    stage_dir: Path,
    key: Future[str],
    code_root: Path | None,
) -> None:
    """Stage every row into Parquet parts, then swap the finished stage into place."""
    tmp = stage_dir.parent / f"{stage_dir.name}.tmp-{os.getpid()}"
    for _kind, stale in stale_temp_dirs(stage_dir.parent, stage_dir.name):  # killed builds'
        shutil.rmtree(stale, ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)
    parts = tmp / "parts"
    parts.mkdir(parents=True)
    workers = options.workers or os.cpu_count() or 1
    try:
        with rate_progress(disable=not options.show_progress) as progress:
            task = progress.add_task("parse", total=scan.rows_total)
            staged = 0
            digests: dict[int, str] = {}  # parts arrive in any order; the digest is in input order
            tasks = _tasks(scan, options, parts, code_root)
            for result in _run_stage_tasks(tasks, workers, options.executor):
                staged += result.rows
                digests[result.index] = result.digest
                progress.advance(task, result.rows)
        if staged != scan.rows_total:
            raise CodelogError(
                f"internal: staged {staged} rows, source announced {scan.rows_total}"
            )
        code_digest = hashlib.sha256()
        for index in sorted(digests):
            code_digest.update(digests[index].encode())
        stage = {"key": key.result(), "rows": staged, "code_digest": code_digest.hexdigest()}
        (tmp / STAGE_FILE).write_text(json.dumps(stage) + "\n")
        shutil.rmtree(stage_dir, ignore_errors=True)
        os.replace(tmp, stage_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _run_stage_tasks(
    tasks: Iterator[StageTask], workers: int, executor: ExecutorSpec = LOCAL
) -> Iterator[Any]:
    """Results as they complete, with a bounded number of tasks in flight (flat memory), on a
    local pool of `workers` or as Ray tasks.

    Completion order, not task order: a batch of a few huge files must not leave the other
    workers idle behind it. When batches fail, the error raised is the earliest batch's, as
    a serial run would raise it (codelog.executors).
    """
    if workers <= 1 and executor.kind == "local":
        yield from map(stage_batch, tasks)
        return
    with open_executor(executor, workers=workers, local=lambda: _local_executor(workers)) as ex:
        yield from ex.map(stage_batch, tasks, ordered=False)


def _local_executor(workers: int) -> PoolExecutor:
    """Spawned workers (the parent holds DuckDB threads: no fork). On an error they are killed
    before the caller removes the directory they write into: a batch finishing after the
    removal would leave a half-deleted staging directory behind."""
    context = multiprocessing.get_context("spawn")
    return PoolExecutor(lambda: _start_pool(workers, context), workers, abort=_kill_workers)


SIGNALS = {signal.SIGINT, signal.SIGTERM}  # what stops a build (130, 143)


def _start_pool(workers: int, context: Any) -> ProcessPoolExecutor:
    """A pool whose workers ignore Ctrl-C and SIGTERM and die with the parent.

    The parent alone reacts to a signal, stops the workers, cleans up and reports once. The
    workers are spawned with SIGINT and SIGTERM blocked, a mask they inherit through exec, so
    even a worker still importing cannot print a KeyboardInterrupt traceback; their
    initializer (`_worker_start`) then ignores both. The parent's own signal is held meanwhile,
    not ignored (an ignored one is lost: one sweep under load lost 5 of 7 SIGTERMs, and the
    build published and exited 0), and raised again once the pool is up, its workers killed
    first: a build ends with 143 or 130 whenever the signal lands. If the parent dies without
    cleaning up (SIGKILL, OOM killer), the kernel kills each worker (PR_SET_PDEATHSIG), and
    multiprocessing's resource tracker, whose pipe the workers held open too, then sees
    end-of-file and exits: nothing is left running.
    """
    from multiprocessing import resource_tracker

    # the tracker's own start unblocks SIGINT and SIGTERM in this thread: started first, the
    # block below holds for every worker's spawn
    resource_tracker.ensure_running()
    held: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        if previous[signum] != signal.SIG_IGN:  # ignored before the pool, ignored still
            held.append(signum)

    previous = {sig: signal.getsignal(sig) for sig in SIGNALS}
    for sig in SIGNALS:
        signal.signal(sig, hold)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    pool = None
    try:
        with _main_left_out():
            pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=context,
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
            for _ in range(workers):  # each submit spawns a worker while none is idle
                pool.submit(int)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one held meanwhile reaches `held`
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if held and pool is not None:
            _kill_workers(pool)
            pool.shutdown(wait=False, cancel_futures=True)
    if held:
        signal.raise_signal(held[0])  # its own handler now: Terminated (143), Ctrl-C (130)
    assert pool is not None
    return pool


@contextlib.contextmanager
def _main_left_out() -> Iterator[None]:
    """While workers spawn, hide the user's `__main__` from multiprocessing.

    A spawned worker re-imports the parent's main module (as `__mp_main__`) unless it has no
    `__spec__` name and no `__file__`: an unguarded script calling `codelog.build` would run
    again in every worker (and a `python - <<EOF` script cannot be re-imported at all). The
    workers need nothing from it: their function lives in codelog.stage.worker.
    """
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved = {name: vars(main)[name] for name in ("__spec__", "__file__") if name in vars(main)}
    main.__spec__ = None
    vars(main).pop("__file__", None)
    try:
        yield
    finally:
        vars(main).pop("__spec__", None)
        vars(main).update(saved)


def _worker_start(parent: int) -> None:
    """A worker's first step: deaf to Ctrl-C and SIGTERM (spawned with them blocked, a pending
    one is dropped here), and dying with its parent."""
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
    die_with_parent(parent)


def die_with_parent(parent: int) -> None:
    """In a worker: have the kernel SIGKILL this process when its parent dies (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the pool's own EOF check is all there is
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    # ProcessPoolExecutor has no public way to stop a worker mid-task before Python 3.14
    # (terminate_workers); its _processes map is the same since 3.3.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.kill()
    for process in processes:
        process.join(timeout=10)


def staged_code_digest(stage_dir: Path) -> str:
    """The fingerprint of the code a finished stage read (the manifest records it)."""
    return json.loads((stage_dir / STAGE_FILE).read_text())["code_digest"]
