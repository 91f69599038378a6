"""Speed of the contamination checks (issue 35), against the issue's two goals.

    .venv/bin/python bench/contamination.py ../shared/data/codenet-problem-descriptions.tar.gz

1. Statements: CodeNet's ~4,000 statements (the tarball) against a benchmark of `--problems`
   (default 10,000) problems, "in seconds". The benchmark is made from the same statements,
   each re-typed (plain text, sentences rotated, a task number added) so its n-grams are as
   many and as varied as a real one's; every 40th is a plain copy, which the check must find.
   Timed: normalizing + n-grams, and the whole check (codelog.contamination.index).
2. Solutions: `--hashes` (default 3.3M) staged AST hashes joined with the reference solutions'
   hashes (codelog.group.decontaminate.reference_hash_matches, the build's own step): a join,
   not all pairs; 1,000 planted hashes must come back.
"""

from __future__ import annotations

import argparse
import re
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from codelog.contamination.index import StatementRule, statement_matches
from codelog.contamination.normalize import statement_text
from codelog.sql import connect


@dataclass(frozen=True)
class Ref:
    benchmark: str
    task_id: str
    statement: str
    solutions: tuple[str, ...] = ()
    language: str = "python"


def statements(tarball: Path) -> list[tuple[str, str]]:
    out = []
    with tarfile.open(tarball) as tar:
        for m in tar.getmembers():
            if m.isfile() and m.name.endswith(".html"):
                out.append(
                    (Path(m.name).stem, tar.extractfile(m).read().decode("utf-8", "replace"))
                )  # type: ignore[union-attr]
    return sorted(out)


def synthetic_benchmark(source: list[tuple[str, str]], n: int) -> tuple[list[Ref], set[str]]:
    refs, planted = [], set()
    for i in range(n):
        pid, html = source[i % len(source)]
        if i % 40 == 0:
            refs.append(Ref("synthetic", f"t{i}", html))
            planted.add(pid)
            continue
        sentences = re.split(r"(?<=[.?!])\s+", statement_text(html))
        k = (i * 7) % max(len(sentences), 1)
        refs.append(
            Ref("synthetic", f"t{i}", f"task {i} " + " ".join(sentences[k:] + sentences[:k]))
        )
    return refs, planted


def bench_statements(tarball: Path, problems: int) -> None:
    source = statements(tarball)
    refs, planted = synthetic_benchmark(source, problems)
    t0, c0 = time.perf_counter(), time.process_time()
    found = statement_matches(source, refs, StatementRule())
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    hit = {m.source_id for m in found if m.task_id.startswith("t") and int(m.task_id[1:]) % 40 == 0}
    print(
        f"statements: {len(source):,} CodeNet statements vs {len(refs):,} benchmark problems: "
        f"{seconds:.1f} s wall, {cpu:.1f} s CPU ({len(found):,} matches; planted copies found: "
        f"{len(hit & planted):,} of {len(planted):,}) [goal: seconds]"
    )


def bench_solutions(n: int) -> None:
    from codelog.group.decontaminate import reference_hash_matches
    from codelog.stage.ast_hash import parse_code

    # 1,000 reference programs whose hashes are planted among the staged rows, every n/1000th
    programs = [f"x = {i}\nprint(x * {i})\n" for i in range(1000)]
    con = connect()
    con.register(
        "planted",
        pa.table(
            {
                "i": [k * (n // 1000) for k in range(1000)],
                "h": [parse_code(p, "python").ast_hash for p in programs],
            }
        ),
    )
    con.execute(
        f"""CREATE TABLE staged AS
            SELECT coalesce(p.h, md5('row' || t.i::VARCHAR)) AS ast_hash,
                   'p' || lpad((t.i % 4000)::VARCHAR, 5, '0') AS problem_id, true AS syntax_ok
            FROM range({n}) t(i) LEFT JOIN planted p ON p.i = t.i"""
    )
    refs = [Ref("synthetic", f"t{i}", "", (p,)) for i, p in enumerate(programs)]
    scan = SimpleNamespace(language="Python")
    t0, c0 = time.perf_counter(), time.process_time()
    found = reference_hash_matches(con, scan, refs, "staged")  # type: ignore[arg-type]
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"solutions: {n:,} staged AST hashes joined with {len(refs):,} reference solutions: "
        f"{seconds:.2f} s wall, {cpu:.2f} s CPU, {len(found):,} (problem, task) matches "
        "(planted 1,000) "
        "[goal: a join]"
    )


def main() -> None:
    import os

    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tarball", type=Path)
    parser.add_argument("--problems", type=int, default=10_000)
    parser.add_argument("--hashes", type=int, default=3_300_000)
    args = parser.parse_args()
    bench_statements(args.tarball, args.problems)
    bench_solutions(args.hashes)


if __name__ == "__main__":
    main()
