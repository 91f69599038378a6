"""Codeforces submissions (`open-r1/codeforces-submissions`) as a source, with the problems
of `open-r1/codeforces` (config `verifiable`) when `--problems` names them.

A submission row (the Hub's columns: `submission_id, source, contestId, problem_index,
programmingLanguage, verdict, testset, passedTestCount, timeConsumedMillis,
memoryConsumedBytes, creationTimeSeconds, problem_id`; `source` is the program) is one input
row:
- `status` = the verdict's leading word: "WRONG_ANSWER on test 2" is WRONG_ANSWER. The
  recipe's [statuses] maps Codeforces' verdicts one to one, and rejects those that judged
  nothing final (CHALLENGED, SKIPPED, TESTING, ...) as `unscorable`;
- `language` and `dialect` from `programmingLanguage` ("GNU C++17" is C++, "PyPy 3-64" is
  Python 3, "Python 2" Python 2); a name matching no language is a reject
  (`unknown_language`, with the name) in a build of any language: it is never guessed;
- `accuracy` = "passedTestCount/total" when the problems give the total (their official
  tests): the repair kind's pass rate reads it;
- `cpu_time` (ms), `memory` (KB) and `date` from the judge's figures.

The problems table holds what `--problems` gives (title, statement with its input and output
sections, limits, rating, tags); without it, each problem is its id alone.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from codelog import schema
from codelog.errors import InputError
from codelog.ingest.scan import SourceScan
from codelog.ingest.shards import parquet_files, shard_batches
from codelog.options import BuildOptions

COLUMNS = (
    "submission_id",
    "source",
    "contestId",
    "problem_index",
    "programmingLanguage",
    "verdict",
    "passedTestCount",
    "timeConsumedMillis",
    "memoryConsumedBytes",
    "creationTimeSeconds",
    "problem_id",
)
# Codeforces' language names -> (CodeNet's language name, dialect, extension), first match
# wins (case-insensitive, from the start of the name): "GNU C++17 (64)", "MS C++ 2017",
# "Clang++20 Diagnostics", "PyPy 3-64", "Java 21 64bit", "Kotlin 1.9", "Go 1.22.2", ...
LANGUAGES: tuple[tuple[str, tuple[str, str | None, str]], ...] = (
    (r"(gnu |ms |clang)?(g|c)\+\+|clang\+\+", ("C++", None, "cpp")),
    (r"(gnu |ms )?c ?(11|99)?\b(?!#)", ("C", None, "c")),
    (r"(python|pypy) ?3", ("Python", "python3", "py")),
    (r"(python|pypy) ?2", ("Python", "python2", "py")),
    (r"java ?\d", ("Java", None, "java")),
    (r"kotlin", ("Kotlin", None, "kt")),
    (r"(mono |ms |\.net )?c#|\.net", ("C#", None, "cs")),
    (r"go\b", ("Go", None, "go")),
    (r"rust", ("Rust", None, "rs")),
    (r"ruby", ("Ruby", None, "rb")),
    (r"javascript|node\.?js", ("JavaScript", None, "js")),
    (r"haskell", ("Haskell", None, "hs")),
    (r"php", ("PHP", None, "php")),
    (r"scala", ("Scala", None, "scala")),
    (r"(free |delphi|pascal)", ("Pascal", None, "pas")),
    (r"perl", ("Perl", None, "pl")),
    (r"ocaml", ("OCaml", None, "ml")),
    (r"d\b", ("D", None, "d")),
)
_VERDICT = re.compile(r"[A-Z_]+")
_BATCH = 4096


@functools.lru_cache(maxsize=1024)
def language_of(name: str | None) -> tuple[str, str | None, str] | None:
    """(language, dialect, extension) of a Codeforces language name; None: not known."""
    text = (name or "").strip().lower()
    for pattern, found in LANGUAGES:
        if re.match(pattern, text):
            return found
    return None


def status_of(verdict: str | None) -> str | None:
    """A verdict's leading word ("WRONG_ANSWER on test 2" -> "WRONG_ANSWER"); None if empty."""
    found = _VERDICT.match((verdict or "").strip())
    return found.group(0) if found else None


def scan_codeforces(options: BuildOptions) -> SourceScan:
    """Scan Codeforces submission shards (`options.inputs`) for one language."""
    files = parquet_files(options.inputs, "codeforces")
    wanted = options.language.strip().lower()
    language = next(
        (lang for _, (lang, _, _) in LANGUAGES if lang.lower() == wanted), options.language
    )
    known = _read_problems(options.problems_file) if options.problems_file else {}
    rows_total = 0
    problem_ids: dict[str, tuple[str, str]] = {}
    for path in files:
        for _, batch in shard_batches(
            path,
            ["programmingLanguage", "contestId", "problem_index", "problem_id"],
            _BATCH,
            "codeforces",
        ):
            cols = batch.to_pydict()
            keys = ("programmingLanguage", "contestId", "problem_index", "problem_id")
            for lang, contest, index, pid in zip(*(cols[k] for k in keys), strict=True):
                if _mine(lang, wanted):
                    rows_total += 1
                    if pid:
                        problem_ids.setdefault(pid, (str(contest), str(index)))

    def batches(batch_size: int) -> Iterator[pa.RecordBatch]:
        for path in files:
            for first, batch in shard_batches(path, COLUMNS, batch_size, "codeforces"):
                cols: dict[str, list] = {name: [] for name in schema.SUBMISSION.names}
                for i, row in enumerate(batch.to_pylist()):
                    if _mine(row["programmingLanguage"], wanted):
                        where = f"{path.name}:{first + i + 1}"
                        total = known.get(_key(row["contestId"], row["problem_index"]), {})
                        for name, value in _submission(row, where, total.get("tests")).items():
                            cols[name].append(value)
                if cols["submission_id"]:
                    yield pa.RecordBatch.from_pydict(cols, schema=schema.SUBMISSION)

    def tests() -> Iterator[pa.RecordBatch]:
        if options.problems_file is not None:
            ids = {_key(*where): pid for pid, where in problem_ids.items()}
            yield from _official_tests(options.problems_file, ids)

    return SourceScan(
        language=language,
        problems=_problems_table(problem_ids, known),
        tests=tests if options.problems_file else None,
        rows_total=rows_total,
        batches=batches,
        input_files=[
            *files,
            *(
                parquet_files([options.problems_file], "codeforces")
                if options.problems_file
                else []
            ),
        ],
    )


def _mine(name: str | None, wanted: str) -> bool:
    """A submission in the build's language, or in none codelog knows (a reject in every
    build: the row names no language to belong to)."""
    found = language_of(name)
    return found is None or found[0].lower() == wanted


def _key(contest: Any, index: Any) -> str:
    return f"{contest}/{index}"


def _int(value: Any) -> int | None:
    """A judge's figure (float64 in the Hub's schema) as an integer; None when absent."""
    return int(value) if isinstance(value, int | float) and value == value and value >= 0 else None


def _submission(row: dict[str, Any], where: str, tests: int | None) -> dict[str, Any]:
    found = language_of(row["programmingLanguage"])
    language, dialect, ext = found or (None, None, None)
    code, status = row["source"], status_of(row["verdict"])
    reason = detail = None
    if not row["submission_id"] or not row["problem_id"]:
        reason, detail = "bad_id", "submission_id and problem_id must be set"
    elif found is None:
        reason = "unknown_language"
        detail = f"programmingLanguage {row['programmingLanguage']!r}"
    elif status is None:
        reason, detail = "missing_status", f"verdict {row['verdict']!r}"
    elif not isinstance(code, str):
        reason, detail = "bad_value", "source (the program) is null"
    memory, passed = _int(row["memoryConsumedBytes"]), _int(row["passedTestCount"])
    return {
        "submission_id": row["submission_id"] or None,
        "problem_id": row["problem_id"] or None,
        "user_id": None,
        "date": _int(row["creationTimeSeconds"]),
        "language": language,
        "original_language": row["programmingLanguage"],
        "dialect": dialect,
        "filename_ext": ext,
        "status": status,
        "cpu_time": _int(row["timeConsumedMillis"]),
        "memory": memory // 1024 if memory is not None else None,
        "code_size": len(code.encode("utf-8", "surrogatepass")) if isinstance(code, str) else None,
        "accuracy": f"{min(passed, tests)}/{tests}" if passed is not None and tests else None,
        "code": code if isinstance(code, str) else None,
        "code_path": None,
        "origin": where,
        "reject_reason": reason,
        "reject_detail": detail,
    }


_PROBLEM_COLUMNS = (
    "contest_id",
    "index",
    "title",
    "description",
    "input_format",
    "output_format",
    "time_limit",
    "memory_limit",
    "rating",
    "tags",
    "official_tests",
)


def _read_problems(path: Path) -> dict[str, dict[str, Any]]:
    """open-r1/codeforces problems by "contest/index": statement, limits, rating, tags and
    how many official tests they have."""
    problems: dict[str, dict[str, Any]] = {}
    for shard, first, batch in _problem_batches(path, _PROBLEM_COLUMNS, 256):
        for i, row in enumerate(batch.to_pylist()):
            if row["contest_id"] is None or not row["index"]:
                raise InputError(shard, "needs contest_id and index", line=first + i + 1)
            sections = [
                row["description"],
                *(f"Input\n\n{row['input_format']}" for _ in [0] if row["input_format"]),
                *(f"Output\n\n{row['output_format']}" for _ in [0] if row["output_format"]),
            ]
            problems[_key(row["contest_id"], row["index"])] = {
                "name": row["title"],
                "time_limit": round(row["time_limit"] * 1000) if row["time_limit"] else None,
                "memory_limit": round(row["memory_limit"] * 1024) if row["memory_limit"] else None,
                "rating": str(row["rating"]) if row["rating"] else None,
                "tags": ",".join(row["tags"] or []) or None,
                "prompt": "\n\n".join(s for s in sections if s) or None,
                "tests": len(row["official_tests"] or []) or None,
            }
    return problems


def _problem_batches(
    path: Path, columns: list[str] | tuple[str, ...], batch_size: int
) -> Iterator[tuple[Path, int, pa.RecordBatch]]:
    """(shard, first row, batch) of open-r1/codeforces' Parquet: a file or a directory."""
    for shard in parquet_files([path], "codeforces"):
        for first, batch in shard_batches(shard, columns, batch_size, "open-r1/codeforces"):
            yield shard, first, batch


def _official_tests(path: Path, ids: dict[str, str]) -> Iterator[pa.RecordBatch]:
    """The official tests of the problems `ids` names ("contest/index" -> problem_id)."""
    columns = ["contest_id", "index", "official_tests"]
    for _, _, batch in _problem_batches(path, columns, 8):  # a problem's tests: MBs at times
        cols: dict[str, list] = {name: [] for name in schema.TEST.names}
        for row in batch.to_pylist():
            pid = ids.get(_key(row["contest_id"], row["index"]))
            for k, test in enumerate((row["official_tests"] or []) if pid else []):
                cols["problem_id"].append(pid)
                cols["name"].append(f"official {k + 1}")
                cols["input"].append(test.get("input"))
                cols["output"].append(test.get("output"))
        yield pa.RecordBatch.from_pydict(cols, schema=schema.TEST)


def _problems_table(ids: dict[str, tuple[str, str]], known: dict[str, dict]) -> pa.Table:
    rows = []
    for pid in sorted(ids):
        found = known.get(_key(*ids[pid]), {})
        rows.append(
            {
                "problem_id": pid,
                "name": found.get("name"),
                "dataset": "Codeforces",
                "time_limit": found.get("time_limit"),
                "memory_limit": found.get("memory_limit"),
                "rating": found.get("rating"),
                "tags": found.get("tags"),
                "complexity": None,
                "prompt": found.get("prompt"),
                "split": None,
            }
        )
    return pa.Table.from_pylist(rows, schema=schema.PROBLEM)
