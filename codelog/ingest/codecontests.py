"""DeepMind's CodeContests (`deepmind/code_contests`) as a source: every program of every
problem is an input row.

A problem row holds its programs as `solutions` and `incorrect_solutions`, each
`{language: list<int64>, solution: list<string>}` (the Hub's Parquet schema; the enum as
numbers or as names). Each program becomes one submission:
- `submission_id` = "<problem name>/<list>/<index in the list>" (stable across rebuilds);
- `status` = the list's name, "solutions" or "incorrect_solutions": the recipe's [statuses]
  maps them to `accepted` and `incorrect` (the dataset gives no verdict for an incorrect
  program; `codelog judge` on the problem's tests refines it);
- `language`, `dialect` from the enum: PYTHON is Python 2 (dialect python2), PYTHON3 Python 3,
  CPP C++, JAVA Java. UNKNOWN_LANGUAGE (0), or a number past the enum, is a reject
  (`unknown_language`) in a build of any language: the row names no language to belong to.

The problems table keeps each problem's name, statement, source judge, limits and rating
(CodeContests' `difficulty` where there is no Codeforces rating). The shard format (its
enums, limits, difficulty) is read by codelog.benchmarks.codecontests, which the benchmark
uses too: one reader of the format.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from codelog import schema
from codelog.benchmarks.codecontests import (
    DIFFICULTIES,
    LANGUAGES,
    SOURCES,
    TEST_SETS,
    enum_name,
    memory_limit_kb,
    test_cases,
    time_limit_ms,
)
from codelog.errors import InputError
from codelog.ingest.scan import SourceScan
from codelog.ingest.shards import parquet_files, shard_batches
from codelog.options import BuildOptions

LISTS = ("solutions", "incorrect_solutions")
# CodeContests' language enum -> (CodeNet's language name, dialect, file extension).
LANGUAGE_OF = {
    "PYTHON": ("Python", "python2", "py"),
    "PYTHON3": ("Python", "python3", "py"),
    "CPP": ("C++", None, "cpp"),
    "JAVA": ("Java", None, "java"),
}
# The judge each source's problems come from, as codelog.execution.compare names it (its
# comparison rules); others get codelog's own.
ORIGINS = {"ATCODER": "AtCoder", "AIZU": "AIZU", "CODEFORCES": "Codeforces"}
_PROBLEM_COLUMNS = (
    "name",
    "description",
    "source",
    "difficulty",
    "cf_rating",
    "cf_tags",
    "time_limit",
    "memory_limit_bytes",
)
_SCAN_BATCH = 256  # problem rows a batch: a row's statement and program list are kilobytes


def scan_codecontests(options: BuildOptions) -> SourceScan:
    """Scan CodeContests shards (`options.inputs`) for one language (`options.language`)."""
    files = parquet_files(options.inputs, "codecontests")
    wanted = options.language.strip().lower()
    language = next(
        (lang for lang, _, _ in LANGUAGE_OF.values() if lang.lower() == wanted), options.language
    )
    columns = [*_PROBLEM_COLUMNS, *(f"{lst}.language" for lst in LISTS)]
    rows_total = 0
    problems: dict[str, dict[str, Any]] = {}
    for path in files:
        for first, batch in shard_batches(path, columns, _SCAN_BATCH, "codecontests"):
            for i, row in enumerate(batch.to_pylist()):
                mine = sum(
                    _mine(code_lang, wanted)
                    for lst in LISTS
                    for code_lang in (row[lst] or {}).get("language") or ()
                )
                rows_total += mine
                if mine and isinstance(row["name"], str) and row["name"]:
                    problems.setdefault(row["name"], _problem(row, str(path), first + i + 1))

    def batches(batch_size: int) -> Iterator[pa.RecordBatch]:
        out = _Rows(batch_size)
        for path in files:
            for first, batch in shard_batches(path, ["name", *LISTS], _SCAN_BATCH, "codecontests"):
                for i, row in enumerate(batch.to_pylist()):
                    where = f"{path.name}:{first + i + 1}"
                    for lst in LISTS:
                        programs = row[lst] or {}
                        langs = programs.get("language") or []
                        codes = programs.get("solution") or []
                        if len(langs) != len(codes):
                            raise InputError(
                                path,
                                f"{len(langs)} languages but {len(codes)} programs",
                                line=first + i + 1,
                                column=lst,
                            )
                        for k, (code_lang, code) in enumerate(zip(langs, codes, strict=True)):
                            if _mine(code_lang, wanted):
                                yield from out.add(row["name"], lst, k, code_lang, code, where)
        yield from out.flush()

    def tests() -> Iterator[pa.RecordBatch]:
        # a problem's tests can be megabytes: a few problems a batch
        columns = ["name", *(f"{s}_tests" for s in TEST_SETS)]
        for path in files:
            for first, batch in shard_batches(path, columns, 8, "codecontests"):
                cols: dict[str, list] = {name: [] for name in schema.TEST.names}
                for i, row in enumerate(batch.to_pylist()):
                    if row["name"] not in problems:
                        continue
                    for test_set in TEST_SETS:
                        key = f"{test_set}_tests"
                        for test in test_cases(row, key, str(path), first + i + 1):
                            cols["problem_id"].append(row["name"])
                            cols["name"].append(test.name)
                            cols["input"].append(test.input)
                            cols["output"].append(test.output)
                yield pa.RecordBatch.from_pydict(cols, schema=schema.TEST)

    return SourceScan(
        language=language,
        problems=_problems_table(problems),
        rows_total=rows_total,
        batches=batches,
        input_files=files,
        tests=tests,
    )


def _mine(code_lang: Any, wanted: str) -> bool:
    """A program of the build's language, or of none (a reject in every build)."""
    found = LANGUAGE_OF.get(enum_name(code_lang, LANGUAGES))
    return found is None or found[0].lower() == wanted


class _Rows:
    """Submission rows gathered into batches of `size`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cols: dict[str, list] = {name: [] for name in schema.SUBMISSION.names}

    def add(
        self, problem: Any, lst: str, k: int, code_lang: Any, code: Any, where: str
    ) -> Iterator[pa.RecordBatch]:
        enum = enum_name(code_lang, LANGUAGES)
        language, dialect, ext = LANGUAGE_OF.get(enum, (None, None, None))
        reason = detail = None
        if not isinstance(problem, str) or not problem:
            reason, detail = "bad_id", f"the problem row has no name ({where})"
        elif language is None:
            reason = "unknown_language"
            detail = f"language {enum}" + (f" ({code_lang})" if enum != str(code_lang) else "")
        elif not isinstance(code, str):
            reason, detail = "bad_value", "the program is null"
        values = {
            "submission_id": f"{problem}/{lst}/{k}",
            "problem_id": problem if isinstance(problem, str) and problem else None,
            "language": language,
            "original_language": enum,
            "dialect": dialect,
            "filename_ext": ext,
            "status": lst,
            "code_size": len(code.encode("utf-8", "surrogatepass"))
            if isinstance(code, str)
            else None,
            "code": code if isinstance(code, str) else None,
            "origin": f"{where} {lst}[{k}]",
            "reject_reason": reason,
            "reject_detail": detail,
        }
        for name, column in self.cols.items():
            column.append(values.get(name))
        if len(self.cols["submission_id"]) >= self.size:
            yield from self.flush()

    def flush(self) -> Iterator[pa.RecordBatch]:
        if self.cols["submission_id"]:
            yield pa.RecordBatch.from_pydict(self.cols, schema=schema.SUBMISSION)
            self.cols = {name: [] for name in schema.SUBMISSION.names}


def _problem(row: dict[str, Any], where: str, line: int) -> dict[str, Any]:
    """A problem's row, its limits checked as the benchmark checks them (at most 60 s, 4 GiB)."""
    source = enum_name(row.get("source"), SOURCES)
    rating = row.get("cf_rating")
    return {
        "problem_id": row["name"],
        "name": row["name"],
        "dataset": ORIGINS.get(source, source),
        "time_limit": time_limit_ms(row.get("time_limit"), where, line),
        "memory_limit": memory_limit_kb(row.get("memory_limit_bytes"), where, line)
        if row.get("memory_limit_bytes")
        else None,
        "rating": str(rating)
        if isinstance(rating, int) and rating > 0
        else enum_name(row.get("difficulty"), DIFFICULTIES),
        "tags": ",".join(row.get("cf_tags") or []) or None,
        "complexity": None,
        "prompt": row.get("description") if isinstance(row.get("description"), str) else None,
        "split": None,  # assigned by the build
    }


def _problems_table(problems: dict[str, dict[str, Any]]) -> pa.Table:
    rows = [problems[name] for name in sorted(problems)]
    return pa.Table.from_pylist(rows, schema=schema.PROBLEM)


def declared_files(options: BuildOptions) -> list[Path]:
    """The files the build reads (for the output checks, before reading them)."""
    return parquet_files(options.inputs, "codecontests")
