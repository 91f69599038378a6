"""The build's [decontaminate] step: which of the build's problems are benchmark problems.

The statement check (codelog.contamination.index) runs over the problems' statements; the
solution check is a join of the staged rows' canonical AST hashes with the benchmarks'
reference solutions' (the winnowed fingerprints compare pairs one by one, too slow for millions
of rows: `codelog contamination` runs them on a built dataset). The result is two tables on the
build's connection, which the grouping and the manifest read:
- `contamination_matches` (problem_id, benchmark, task_id, score, level, span): every accepted
  match, best first;
- `contamination_benchmarks` (spec, benchmark, digest, problems): what was checked against.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import duckdb
import pyarrow as pa

from codelog import benchmarks
from codelog.benchmarks.base import Reference
from codelog.contamination.index import StatementRule, statement_matches
from codelog.ingest.scan import SourceScan
from codelog.recipe import Decontaminate
from codelog.stage.ast_hash import GRAMMARS, parse_code

MATCH_COLUMNS = ("problem_id", "benchmark", "task_id", "score", "level", "span")


def benchmark_digest(refs: Sequence[Reference]) -> str:
    """sha256 over every problem's id, statement and reference solutions, in the source's
    order: the manifest's record of exactly which benchmark rows were checked."""
    h = hashlib.sha256()
    for r in refs:
        for part in (r.benchmark, r.task_id, r.statement, *r.solutions):
            h.update(part.encode("utf-8", "surrogateescape") + b"\0")
        h.update(b"\1")
    return h.hexdigest()


def load_references(specs: Sequence[str]) -> list[tuple[str, list[Reference]]]:
    """Each spec's references (an unknown benchmark or an unreadable path is a CodelogError)."""
    return [(spec, list(benchmarks.references(spec))) for spec in specs]


def rule_of(d: Decontaminate) -> StatementRule:
    return StatementRule(
        ngram=d.ngram, threshold=float(d.threshold), max_df=d.max_df, min_shared=d.min_shared
    )


def find_contamination(
    con: duckdb.DuckDBPyConnection, scan: SourceScan, d: Decontaminate, staged: str = "staged"
) -> None:
    """Tables `contamination_matches` and `contamination_benchmarks` (module docstring)."""
    loaded = load_references(d.benchmarks)
    refs = [r for _, rs in loaded for r in rs]
    problems = scan.problems.select(["problem_id", "prompt"]).to_pylist()
    sources = [(p["problem_id"], p["prompt"]) for p in problems if p["prompt"]]
    rows: list[dict] = [
        {
            "problem_id": m.source_id,
            "benchmark": m.benchmark,
            "task_id": m.task_id,
            "score": m.score,
            "level": "statement",
            "span": m.span,
        }
        for m in statement_matches(sources, refs, rule_of(d))
    ]
    if d.solutions:
        rows += reference_hash_matches(con, scan, refs, staged)
    rows.sort(
        key=lambda r: (r["problem_id"], -r["score"], r["benchmark"], r["task_id"], r["level"])
    )
    con.register(
        "contamination_rows",
        pa.table(
            {c: [r[c] for r in rows] for c in MATCH_COLUMNS},
            schema=pa.schema(
                [(c, pa.float64() if c == "score" else pa.string()) for c in MATCH_COLUMNS]
            ),
        ),
    )
    con.execute("CREATE OR REPLACE TABLE contamination_matches AS SELECT * FROM contamination_rows")
    con.unregister("contamination_rows")
    summary = pa.table(
        {
            "spec": [spec for spec, _ in loaded],
            "benchmark": [spec.partition(":")[0] for spec, _ in loaded],
            "digest": [benchmark_digest(rs) for _, rs in loaded],
            "problems": pa.array([len(rs) for _, rs in loaded], pa.int64()),
        }
    )
    con.register("contamination_summary", summary)
    con.execute(
        "CREATE OR REPLACE TABLE contamination_benchmarks AS SELECT * FROM contamination_summary"
    )
    con.unregister("contamination_summary")


def reference_hash_matches(
    con: duckdb.DuckDBPyConnection, scan: SourceScan, refs: Sequence[Reference], staged: str
) -> list[dict]:
    """Problems with a staged row whose AST hash is a reference solution's: one join."""
    language = scan.language.lower()
    if language not in GRAMMARS:
        return []
    hashes = [
        (parse_code(code, language).ast_hash, r.benchmark, r.task_id)
        for r in refs
        if r.language.lower() == language
        for code in r.solutions
    ]
    if not hashes:
        return []
    con.register(
        "reference_hashes",
        pa.table(
            {
                "ast_hash": [h for h, _, _ in hashes],
                "benchmark": [b for _, b, _ in hashes],
                "task_id": [t for _, _, t in hashes],
            }
        ),
    )
    found = con.sql(
        f"""SELECT DISTINCT s.problem_id, r.benchmark, r.task_id
            FROM {staged} s JOIN reference_hashes r USING (ast_hash)
            WHERE s.syntax_ok AND s.problem_id IS NOT NULL ORDER BY ALL"""
    ).fetchall()
    con.unregister("reference_hashes")
    return [
        {
            "problem_id": pid,
            "benchmark": bench,
            "task_id": task,
            "score": 1.0,
            "level": "solution",
            "span": "",
        }
        for pid, bench, task in found
    ]
