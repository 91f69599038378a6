"""The floor for `codelog build`: read every source file and parse it with tree-sitter, nothing else.

    python bench/floor.py --root /tmp/codelog-bench/codenet-100000 [--workers 2] [--json] [--walk]

Any build has to do at least this much work per row, so codelog's throughput is judged as a
fraction of this one's, measured on the same files in the same run. The source files are
listed from `data/<problem>/<language>/` (no CSV is read), handed out in chunks to a process
pool with one tree-sitter parser per process; each file is read with one open/read/close.

`--walk`: each file goes through codelog's own parse and canonical walk
(`codelog.stage._canon`) instead of py-tree-sitter's parse: the least a build that hashes ASTs
does per row, so the build against it shows what the rest of the build costs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from pathlib import Path

CHUNK = 1000

_has_error = None  # bytes -> whether the tree has an error, set per worker


def _init_worker(language: str, walk: bool = False) -> None:
    global _has_error
    if language.lower() != "python":
        raise SystemExit(f"floor: only Python is wired up, not {language!r}")
    if walk:
        from codelog.stage import ast_hash

        if not ast_hash.ACCELERATED:
            raise SystemExit("floor --walk: codelog.stage._canon is not built here")
        canonical = ast_hash._canonicalizer("python").canonical

        def _has_error(data: bytes) -> bool:
            return canonical(data)[0]

        return
    import tree_sitter_python
    from tree_sitter import Language, Parser

    parse = Parser(Language(tree_sitter_python.language())).parse

    def _has_error(data: bytes) -> bool:
        return parse(data).root_node.has_error


def read_file(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        data = os.read(fd, 1 << 17)
        if len(data) == 1 << 17:  # rare large file: read the rest
            parts = [data]
            while chunk := os.read(fd, 1 << 20):
                parts.append(chunk)
            data = b"".join(parts)
    finally:
        os.close(fd)
    return data


def parse_chunk(task: tuple[str, list[str]]) -> tuple[int, int, int]:
    """(files, bytes, files whose tree has an error) for one directory's slice of names."""
    directory, names = task
    has_error = _has_error
    n_bytes = errors = 0
    for name in names:
        data = read_file(f"{directory}/{name}")
        n_bytes += len(data)
        if has_error(data):
            errors += 1
    return len(names), n_bytes, errors


def list_chunks(root: Path, language: str, chunk: int = CHUNK) -> list[tuple[str, list[str]]]:
    tasks = []
    data = root / "data"
    for problem in sorted(os.listdir(data)):
        directory = f"{data}/{problem}/{language}"
        try:
            names = os.listdir(directory)
        except FileNotFoundError:
            continue
        names.sort()
        tasks += [(directory, names[i : i + chunk]) for i in range(0, len(names), chunk)]
    return tasks


def measure_floor(
    root: Path, language: str = "Python", workers: int | None = None, walk: bool = False
) -> dict:
    workers = workers or os.cpu_count() or 1
    started = time.perf_counter()
    tasks = list_chunks(root, language)
    listed = time.perf_counter()
    files = n_bytes = errors = 0
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, _init_worker, (language, walk)) as pool:
        for f, b, e in pool.imap_unordered(parse_chunk, tasks, chunksize=1):
            files += f
            n_bytes += b
            errors += e
    seconds = time.perf_counter() - started
    return {
        "files": files,
        "bytes": n_bytes,
        "parse_errors": errors,
        "workers": workers,
        "walk": walk,
        "list_seconds": round(listed - started, 3),
        "seconds": round(seconds, 3),
        "rows_per_s": round(files / seconds, 1) if seconds else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, required=True, help="CodeNet-layout tree")
    ap.add_argument(
        "--language", default="Python", help="data/<problem>/<LANGUAGE>/ directory name"
    )
    ap.add_argument("--workers", type=int, default=None, help="default: all cores")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument(
        "--walk", action="store_true", help="codelog's parse and canonical walk, not a bare parse"
    )
    args = ap.parse_args(argv)
    result = measure_floor(args.root, args.language, args.workers, args.walk)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"floor{' (parse + walk)' if args.walk else ''}: {result['files']:,} files, {result['bytes'] / 1e6:,.1f} MB in "
            f"{result['seconds']:.2f} s (listing {result['list_seconds']:.2f} s) = "
            f"{result['rows_per_s']:,.0f} rows/s on {result['workers']} workers; "
            f"{result['parse_errors']:,} files parse with errors"
        )


if __name__ == "__main__":
    main()
