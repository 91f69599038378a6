"""LiveCodeBench (Jain et al. 2024), `code_generation_lite`: problems from LeetCode, AtCoder
and Codeforces contests, each with its contest date, so a model is scored only on problems
published after its training data (`--after DATE` / `--before DATE`).

Sources: `livecodebench:FILE` (the release's `test.jsonl` ... `test6.jsonl`) or a directory of
them; a bare `livecodebench` downloads every file of `livecodebench/code_generation_lite`
(release_latest, its loading script's default), `livecodebench@VERSION` the files of one
release as that script chose them: `release_vN` files 1..N, `vN` file N alone, `vX_vY` files X..Y
(file 1 is `test.jsonl`, file N `testN.jsonl`). Rows: `question_title,
question_content, platform, question_id, contest_id, contest_date, starter_code, difficulty,
public_test_cases, private_test_cases, metadata`. `private_test_cases` is base64, then zlib,
then a pickle, then JSON (or plain JSON in older rows); the pickle is read by an unpickler that
accepts plain data only (codelog.benchmarks.plain_pickle), so decoding never runs code.

Judging, as LiveCodeBench's harness: every public and private test must pass. A functional
(LeetCode) problem calls `Solution().<func_name>` with each test's arguments (one JSON value a
line) and compares with the JSON output (a tuple as a list); a stdin problem compares output
token by token. Both get an import header before the program, as LiveCodeBench's does, and 6 s
per test. Results group by difficulty (easy, medium, hard).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import codelog.benchmarks.decoding as decoding
import codelog.benchmarks.plain_pickle as plain_pickle
from codelog.benchmarks.base import (
    Benchmark,
    Reference,
    Skip,
    Source,
    Task,
    local_rows,
)
from codelog.benchmarks.hub import hub_file
from codelog.errors import CodelogError, InputError
from codelog.execution.testcases import Problem, TestCase

HUB_ID = "livecodebench/code_generation_lite"
FILES = 6  # test.jsonl ... test6.jsonl on the repository's main branch today
VERSIONS = "release_vN, release_latest, vN or vX_vY (N, X <= Y in 1..6)"
LCB_TIME_LIMIT_MS = 6000  # its harness's per-test timeout
# The modules LiveCodeBench imports before a program (lcb_runner's import_string), as names a
# program may use without importing them.
HEADER = (
    "from string import *\nfrom re import *\nfrom datetime import *\n"
    "from collections import *\nfrom heapq import *\nfrom bisect import *\nfrom copy import *\n"
    "from math import *\nfrom random import *\nfrom statistics import *\n"
    "from itertools import *\nfrom functools import *\nfrom operator import *\nfrom io import *\n"
    "from sys import *\nfrom json import *\nfrom builtins import *\nfrom typing import *\n"
    "import string\nimport re\nimport datetime\nimport collections\nimport heapq\nimport bisect\n"
    "import copy\nimport math\nimport random\nimport statistics\nimport itertools\n"
    "import functools\nimport operator\nimport io\nimport sys\nimport json\n"
    "sys.setrecursionlimit(50000)\n"
)
CALL_CHECK = """
import json as _json

TESTS = _json.loads({tests!r})


def check(candidate):
    for i, (lines, expected) in enumerate(TESTS):
        args = [_json.loads(line) for line in lines.split("\\n")]
        got = candidate(*args)
        if isinstance(got, tuple):
            got = list(got)
        assert got == _json.loads(expected), "test %d" % (i + 1)
"""


def _cases(value: Any, where: str, line: int | None, column: str) -> list[dict[str, Any]]:
    """A test-case column: JSON text, or LiveCodeBench's compressed pickle of it, within the
    bounds of codelog.benchmarks.decoding."""
    try:
        if isinstance(value, list):
            decoding.check_plain(value, "test cases")
            cases = value
        elif isinstance(value, str):
            if not value.strip():
                return []
            try:
                cases = decoding.json_value(value)
            except decoding.TooLarge:
                raise
            except decoding.Refused:  # not JSON: the compressed pickle
                decoded = plain_pickle.decode_compressed(value)
                cases = decoding.json_value(decoded) if isinstance(decoded, str) else decoded
        else:
            raise InputError(where, "needs a list of test cases", line=line, column=column)
    except decoding.Refused as exc:
        raise InputError(where, f"refused: {exc}", line=line, column=column) from None
    if not isinstance(cases, list) or not all(
        isinstance(c, dict) and isinstance(c.get("input"), str) and isinstance(c.get("output"), str)
        for c in cases
    ):
        raise InputError(
            where, "test cases are {input, output, testtype} objects", line=line, column=column
        )
    return cases


def _check_calls(
    cases: list[dict[str, Any]], qid: str, where: str, line: int | None, column: str
) -> None:
    """A functional problem's tests as CALL_CHECK reads them: each line of an input one JSON
    value (an argument), the output one JSON value. Anything else would make the checks, not
    the program, fail every sample: the problem is refused here, naming the test."""
    for i, case in enumerate(cases, 1):
        parts = [("input", text) for text in case["input"].split("\n")]
        for part, text in [*parts, ("output", case["output"])]:
            try:
                json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise InputError(
                    where,
                    f"question {qid}: a functional test's {part} is JSON, one argument a line; "
                    f"test {i} has {text[:40]!r} ({exc})",
                    line=line,
                    column=column,
                ) from None


def task(row: Mapping[str, Any], where: str, line: int | None) -> Task | Skip:
    qid = row.get("question_id")
    if qid in (None, ""):
        raise InputError(where, "needs a question_id", line=line, column="question_id")
    qid = str(qid)
    content = row.get("question_content")
    if not isinstance(content, str):
        raise InputError(where, "needs question_content", line=line, column="question_content")
    public = _cases(row.get("public_test_cases"), where, line, "public_test_cases")
    private = _cases(row.get("private_test_cases"), where, line, "private_test_cases")
    cases = public + private
    if not cases:
        return Skip(qid, "no test cases")
    metadata = row.get("metadata") or {}
    if isinstance(metadata, str):
        try:
            metadata = decoding.json_value(metadata) if metadata.strip() else {}
        except decoding.Refused as exc:
            raise InputError(where, f"refused: {exc}", line=line, column="metadata") from None
    starter = row.get("starter_code") or ""
    func = metadata.get("func_name") if isinstance(metadata, dict) else None
    functional = any(c.get("testtype") == "functional" for c in cases) or bool(func)
    if functional:
        if not func:
            raise InputError(where, "a functional problem needs metadata.func_name", line=line)
        _check_calls(public, qid, where, line, "public_test_cases")
        _check_calls(private, qid, where, line, "private_test_cases")
        entry = f"Solution.{func}" if "class Solution" in starter else str(func)
        tests = json.dumps([[c["input"], c["output"]] for c in cases])
        problem = Problem(
            problem_id=qid,
            # one test a call, each with its own time limit (harness.run_limits)
            tests=tuple(TestCase(f"call {i + 1}") for i in range(len(cases))),
            time_limit_ms=LCB_TIME_LIMIT_MS,
            statement=content,
            name=row.get("question_title"),
            code_prompt=HEADER,
            test_code=CALL_CHECK.format(tests=tests),
            entry_point=entry,
        )
    else:
        problem = Problem(
            problem_id=qid,
            tests=tuple(
                TestCase(f"test {i + 1}", c["input"], c["output"]) for i, c in enumerate(cases)
            ),
            time_limit_ms=LCB_TIME_LIMIT_MS,
            statement=content,
            name=row.get("question_title"),
            code_prompt=HEADER,
            origin="AtCoder",  # token by token, layout free
        )
    from codelog.prompts import lcb_prompt

    return Task(
        problem,
        lcb_prompt(content, starter),
        str(row.get("difficulty") or "") or None,
        contest_date=_contest_date(row.get("contest_date"), where, line),
    )


def release_files(version: str | None) -> list[str]:
    """The files of a release (`release_v6`, `v5`, `v4_v6`; None: release_latest), in the
    order its loading script read them."""
    version = version or "release_latest"
    match = re.fullmatch(r"release_v(\d+)|v(\d+)(?:_v(\d+))?", version)
    if version == "release_latest":
        first, last = 1, FILES
    elif match is None:
        raise CodelogError(f"--benchmark livecodebench@{version}: the versions are {VERSIONS}")
    elif match[1]:
        first, last = 1, int(match[1])
    else:
        first, last = int(match[2]), int(match[3] or match[2])
    if not 1 <= first <= last <= FILES:
        raise CodelogError(
            f"--benchmark livecodebench@{version}: {HUB_ID} holds releases 1 to {FILES} "
            f"({VERSIONS})"
        )
    return ["test.jsonl" if n == 1 else f"test{n}.jsonl" for n in range(first, last + 1)]


def _contest_date(value: Any, where: str, line: int | None) -> str | None:
    """The row's contest date in UTC, ISO (`--after` / `--before` compare its day), parsed
    rather than taken as text: "21/09/2019" would sort after "2019-09-22"."""
    if value is None or value == "":
        return None
    try:
        return decoding.iso_date(value)
    except decoding.Refused as exc:
        raise InputError(where, str(exc), line=line, column="contest_date") from None


def rows(source: Source, split: str) -> Iterator[tuple[str, int | None, Mapping[str, Any]]]:
    if split != "test":
        raise CodelogError(f"livecodebench has one split, test; not {split!r} (--split)")
    if source.path is None:
        # each file is fetched before any is read: offline, the first fails at once
        for path in [hub_file("livecodebench", HUB_ID, f) for f in release_files(source.version)]:
            yield from local_rows(path, (".jsonl",), "LiveCodeBench")
        return
    yield from local_rows(source.path, (".jsonl",), "LiveCodeBench")


def tasks(source: Source, split: str, options: Mapping[str, Any]) -> Iterator[Task | Skip]:
    for where, line, row in rows(source, split):
        yield task(row, where, line)


def references(source: Source, split: str) -> Iterator[Reference]:
    for where, line, row in rows(source, split):
        for key in ("question_id", "question_content"):  # another schema is not read
            if not isinstance(row.get(key), str):
                raise InputError(
                    where, f"needs a {key} (code_generation_lite's schema)", line=line, column=key
                )
        platform, qid = str(row.get("platform") or ""), row["question_id"]
        yield Reference(
            "livecodebench",
            qid,
            row["question_content"],
            (),
            url=_url(platform, qid, row),
        )


def _url(platform: str, qid: str, row: Mapping[str, Any]) -> str | None:
    if platform == "atcoder" and "_" in qid:
        return f"https://atcoder.jp/contests/{qid.rpartition('_')[0]}/tasks/{qid}"
    if platform == "codeforces" and "_" in qid:
        contest, _, index = qid.partition("_")
        return f"https://codeforces.com/contest/{contest}/problem/{index}"
    return None  # LeetCode's URLs are by slug, which the rows do not carry


BENCHMARK = Benchmark(
    name="livecodebench",
    description="LiveCodeBench code_generation_lite: its test*.jsonl files, or the Hub",
    default_split="test",
    splits=("test",),
    judging="every public + private test; functional calls or stdin tokens; 6 s per test",
    tasks=tasks,
    references=references,
    hub_id=HUB_ID,
    versions=VERSIONS,
)
