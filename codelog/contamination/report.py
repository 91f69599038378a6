"""`codelog contamination SOURCE --against BENCH ... --out REPORT`: what to compare, and the report.

SOURCE is a built dataset (its problems' statements and its solutions), a CodeNet tree (its
`problem_descriptions/*.html` alone are enough) or a benchmark (NAME or NAME:PATH, through the
registry). The report holds the matches the rule accepts, or every pair from `min_score` up:
one row per (source problem, benchmark task, level), best first, as JSONL or Parquet by the
file's suffix, written atomically.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from codelog.contamination.index import (
    FingerprintRule,
    ReferenceLike,
    StatementRule,
    solution_matches,
    statement_matches,
)
from codelog.errors import CodelogError, InputError
from codelog.files import mark_written, replacing

REPORT = pa.schema(
    [
        ("source_problem", pa.string()),
        ("benchmark", pa.string()),
        ("task_id", pa.string()),
        ("score", pa.float64()),
        ("level", pa.string()),  # statement | solution
        ("how", pa.string()),  # statement: "ngrams"; solution: "ast_hash" | "fingerprint"
        ("span", pa.string()),  # statement: the longest shared run, normalized
        ("source_solution", pa.string()),  # solution: the submission id
    ]
)


@dataclass
class Source:
    """What a SOURCE holds: statements (problem id, raw text) and solutions (submission id,
    problem id, code, language)."""

    kind: str  # dataset | codenet | benchmark
    statements: list[tuple[str, str]]
    solutions: list[tuple[str, str, str, str]] = field(default_factory=list)


@dataclass
class ContaminationReport:
    out: Path | None
    source: str
    kind: str
    benchmarks: dict[str, int]  # spec -> problems checked
    rows: list[dict[str, Any]]  # REPORT rows, best first
    rule: dict[str, Any]

    def accepted(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if r["accepted"]]


def read_source(spec: str) -> Source:
    """A dataset directory, a CodeNet tree, or a benchmark spec (see the module docstring)."""
    path = Path(spec)
    if (path / "manifest.json").is_file():
        return _dataset_source(path)
    if (path / "problem_descriptions").is_dir():
        return Source("codenet", _codenet_statements(path / "problem_descriptions"))
    if path.is_dir() and any(path.glob("p*.html")):
        return Source("codenet", _codenet_statements(path))
    from codelog import benchmarks

    if benchmarks.is_benchmark(spec):
        refs = list(benchmarks.references(spec))
        return Source(
            "benchmark",
            [(r.task_id, r.statement) for r in refs],
            [
                (f"{r.task_id}#{i}", r.task_id, c, r.language)
                for r in refs
                for i, c in enumerate(r.solutions)
            ],
        )
    raise InputError(
        spec,
        "not a codelog dataset (manifest.json), a CodeNet tree (problem_descriptions/) nor a "
        f"benchmark (NAME or NAME:PATH; one of {', '.join(benchmarks.names())})",
    )


def _codenet_statements(folder: Path) -> list[tuple[str, str]]:
    out = []
    for html in sorted(folder.glob("*.html")):
        try:
            out.append((html.stem, html.read_text(encoding="utf-8", errors="replace")))
        except OSError as exc:
            raise InputError(html, f"cannot read: {exc.strerror or exc}") from None
    if not out:
        raise InputError(folder, "no problem statements (pNNNNN.html) here")
    return out


def _dataset_source(path: Path) -> Source:
    """A built dataset's statements (problems.prompt) and kept solutions, read from Parquet."""
    import duckdb

    problems = path / "problems.parquet"
    solutions = path / "solutions.parquet"
    try:
        statements = duckdb.sql(
            f"SELECT problem_id, prompt FROM read_parquet('{_quoted(problems)}') "
            "WHERE prompt IS NOT NULL ORDER BY problem_id"
        ).fetchall()
        code = (
            duckdb.sql(
                f"SELECT submission_id, problem_id, code, language FROM read_parquet("
                f"'{_quoted(solutions)}') WHERE code IS NOT NULL ORDER BY problem_id, submission_id"
            ).fetchall()
            if solutions.is_file()
            else []
        )
    except duckdb.Error as exc:
        raise InputError(path, f"cannot read the dataset: {str(exc).splitlines()[0]}") from None
    return Source("dataset", [tuple(r) for r in statements], [tuple(r) for r in code])


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


_STATEMENT_RULE, _FINGERPRINT_RULE = StatementRule(), FingerprintRule()


def check(
    source: str,
    against: Sequence[str],
    *,
    rule: StatementRule = _STATEMENT_RULE,
    fingerprint: FingerprintRule = _FINGERPRINT_RULE,
    min_score: float | None = None,
    solutions: bool = True,
) -> ContaminationReport:
    """Compare SOURCE with each benchmark of `against` (the module docstring)."""
    from codelog import benchmarks

    if not against:
        raise CodelogError("name at least one benchmark to check against (--against BENCH)")
    for spec in against:
        benchmarks.parse(spec)  # an unknown name fails before any reading
    src = read_source(source)
    refs: list[ReferenceLike] = []
    counts = {}
    for spec in against:
        got = list(benchmarks.references(spec))
        counts[spec] = len(got)
        refs.extend(got)
    # --min-score shows what the rule does not accept too (near misses); `accepted` tells them apart
    floor = rule.threshold if min_score is None else min_score
    rows = [
        _row(
            m.source_id,
            m.benchmark,
            m.task_id,
            m.score,
            "statement",
            "ngrams",
            m.span,
            None,
            m.score >= rule.threshold and m.shared >= rule.min_shared,
        )
        for m in statement_matches(src.statements, refs, rule, min_score=floor)
    ]
    if solutions and src.solutions:
        sol_floor = fingerprint.threshold if min_score is None else min_score
        best: dict[tuple[str, str, str], dict[str, Any]] = {}
        for m in solution_matches(src.solutions, refs, fingerprint, min_score=sol_floor):
            key = (m.problem_id, m.benchmark, m.task_id)
            if key not in best or m.score > best[key]["score"]:
                best[key] = _row(
                    m.problem_id,
                    m.benchmark,
                    m.task_id,
                    m.score,
                    "solution",
                    m.how,
                    None,
                    m.source_id,
                    m.score >= fingerprint.threshold,
                )
        rows += best.values()
    rows.sort(
        key=lambda r: (-r["score"], r["source_problem"], r["benchmark"], r["task_id"], r["level"])
    )
    return ContaminationReport(
        out=None,
        source=source,
        kind=src.kind,
        benchmarks=counts,
        rows=rows,
        rule={"statement": asdict(rule), "fingerprint": asdict(fingerprint)},
    )


def _row(problem, bench, task, score, level, how, span, solution, accepted) -> dict[str, Any]:
    return {
        "source_problem": problem,
        "benchmark": bench,
        "task_id": task,
        "score": float(score),
        "level": level,
        "how": how,
        "span": span,
        "source_solution": solution,
        "accepted": bool(accepted),
    }


def write_report(rows: Iterable[dict[str, Any]], out: Path) -> None:
    """The rows as JSONL (`.jsonl`) or Parquet (`.parquet`), written to a temporary file and
    renamed over `out`: a reader never sees half a report."""
    table = pa.Table.from_pylist(
        [{k: r[k] for k in REPORT.names} | {"accepted": r["accepted"]} for r in rows],
        schema=REPORT.append(pa.field("accepted", pa.bool_())),
    )
    with replacing(out) as tmp:
        if out.suffix == ".parquet":
            pq.write_table(table, tmp)
        else:
            with open(tmp, "w", encoding="utf-8") as f:
                for row in table.to_pylist():
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")
    mark_written(out)


REPORT_SUFFIXES = (".jsonl", ".parquet")
