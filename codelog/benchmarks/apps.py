"""APPS (Hendrycks et al. 2021): 10,000 problems from Codeforces, AtCoder, Kattis, LeetCode,
Codewars and others, in three levels: introductory, interview, competition.

Sources: `apps:DIR` reads the original release's directories (`DIR/train/NNNN/`,
`DIR/test/NNNN/`, or DIR itself holding `NNNN/`): `question.txt`, `input_output.json`
(`inputs`, `outputs`, `fn_name` for a call-based problem), `solutions.json`, `metadata.json`
(`difficulty`, `url`), `starter_code.py`. `apps:FILE` (.jsonl, .json, .parquet) reads rows of
the Hub's schema (`problem_id, question, solutions, input_output, difficulty, url,
starter_code`, the JSON fields as strings or as values), which is also APPS+'s where its file
has those fields. A bare `apps` loads the Hub's Parquet conversion of `codeparrot/apps`
(revision `refs/convert/parquet`, folder `all/`: its `main` holds a loading script, which
`datasets` no longer runs). Integers of more digits than Python converts by default
(`sys.get_int_max_str_digits()`; APPS's tests hold one of 9,131) are read exactly, without
changing that limit.

Judging follows APPS's own harness (its `testing_util.py`): a standard-input problem's
output is compared by APPS's chain of rules (codelog.execution.compare, origin "APPS"); a
call-based one calls `fn_name` (a method of a fresh `Solution()` for LeetCode's form) with
each test's arguments and compares as APPS does (a tuple as a list; a one-element expected
list also matches its element). Both get APPS's import header before the program, without
its `import numpy as np`, and APPS's 4 s per test. The default split is test.
"""

from __future__ import annotations

import decimal
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import codelog.benchmarks.decoding as decoding
from codelog.benchmarks.base import (
    Benchmark,
    Reference,
    Skip,
    Source,
    Task,
    json_rows,
    not_a_file,
)
from codelog.benchmarks.hub import hub_rows
from codelog.errors import CodelogError, InputError
from codelog.execution.testcases import Problem, TestCase

HUB_ID = "codeparrot/apps"
HUB_REVISION = "refs/convert/parquet"  # the Hub's Parquet conversion: {all,<level>}/{train,test}
HUB_DATA_DIR = "all"
SPLITS = ("train", "test")
LEVELS = ("introductory", "interview", "competition")
APPS_TIME_LIMIT_MS = 4000  # testing_util.py's `timeout = 4`, per test
# APPS puts this before every program it runs (testing_util.py), and `import numpy as np`.
# codelog leaves numpy out: its import would cost each run ~0.1 s of a 4 s limit; a program
# that uses numpy imports it.
HEADER = (
    "import sys\nimport time\nimport itertools\n"
    "from itertools import accumulate, product, permutations, combinations\n"
    "import collections\n"
    "from collections import Counter, OrderedDict, deque, defaultdict, ChainMap\n"
    "from functools import lru_cache\nimport math\n"
    "from math import sqrt, sin, cos, tan, ceil, fabs, floor, gcd, exp, log, log2\n"
    "import fractions\nfrom typing import List, Tuple\nimport random\nimport heapq\n"
    "from heapq import *\n"
)
# APPS's call-based comparison (testing_util.py, CODE_TYPE.call_based), run by the checker.
CALL_CHECK = """
import json as _json


def _int(d):  # an integer longer than str() converts, written in hex (apps._crossing)
    return int(d[{big!r}], 16) if list(d) == [{big!r}] else d


TESTS = _json.loads({tests!r}, object_hook=_int)


def check(candidate):
    for i, (args, expected) in enumerate(TESTS):
        got = candidate(*args)
        if isinstance(got, tuple):
            got = list(got)
        ok = got == expected
        if isinstance(expected, list) and expected:
            ok = ok or got == expected[0]
        try:
            if isinstance(got[0], tuple):
                ok = ok or [list(x) for x in got] == expected[0]
        except (TypeError, IndexError, KeyError):
            pass
        assert ok, "test %d" % (i + 1)
"""


BIG = "__codelog_int__"  # CALL_CHECK's tag of a long integer: {BIG: hex digits}


class _Digits(int):
    """An integer longer than `str()` converts by default (sys.get_int_max_str_digits), read
    exactly through Decimal, which has no such limit; it keeps the digits it was read from, so a
    stdin test's text is those digits."""

    digits: str

    def __str__(self) -> str:
        return self.digits

    __repr__ = __str__


def _int(text: str) -> int:
    """json's parse_int: the process-wide limit is left as it is."""
    limit = sys.get_int_max_str_digits()
    if not limit or len(text) - text.startswith("-") <= limit:
        return int(text)
    value = _Digits(decimal.Decimal(text))
    value.digits = text
    return value


def _crossing(value: Any) -> Any:
    """A call-based test's values as JSON can write them: an integer longer than `str()`
    converts as {BIG: its hex digits}, which no limit applies to (CALL_CHECK reads it back)."""
    if isinstance(value, list | tuple):
        return [_crossing(v) for v in value]
    if isinstance(value, dict):
        return {k: _crossing(v) for k, v in value.items()}
    if isinstance(value, _Digits):
        return {BIG: hex(value)}
    return value


def _json_field(row: dict[str, Any], key: str, where: str, line: int | None) -> Any:
    """A field the Hub stores as JSON text (a release directory's file), or its value, within
    the bounds of codelog.benchmarks.decoding."""
    value = row.get(key)
    try:
        if isinstance(value, str):
            return decoding.json_value(value, parse_int=_int) if value.strip() else None
        decoding.check_plain(value, key)
    except decoding.Refused as exc:
        raise InputError(where, f"refused: {exc}", line=line, column=key) from None
    return value


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _text(value: Any) -> str:
    return "\n".join(map(str, value)) if isinstance(value, list) else str(value)


def task(
    task_id: str,
    row: dict[str, Any],
    where: str,
    line: int | None = None,
) -> Task | Skip:
    """One APPS problem (a Hub row, or a release directory read into one)."""
    question = row.get("question")
    if not isinstance(question, str):
        raise InputError(where, "needs the question text", line=line, column="question")
    io = _json_field(row, "input_output", where, line)
    if not io:
        return Skip(task_id, "no input_output: nothing to judge against")
    if not isinstance(io, dict) or not isinstance(io.get("inputs"), list):
        raise InputError(where, "input_output needs inputs and outputs", line=line)
    inputs, outputs = io["inputs"], io.get("outputs")
    if not isinstance(outputs, list) or len(outputs) != len(inputs) or not inputs:
        raise InputError(where, "input_output: as many outputs as inputs, at least one", line=line)
    starter = row.get("starter_code") or ""
    fn_name = io.get("fn_name")
    difficulty = row.get("difficulty")
    if fn_name:
        # APPS calls fn_name(*args): arguments that are not a list would make its harness, not
        # the program, fail every test
        for i, args in enumerate(inputs):
            if not isinstance(args, list):
                raise InputError(
                    where,
                    f"problem {task_id}: a call-based test's inputs are a list of arguments; "
                    f"test {i + 1} has {type(args).__name__} {_short(args)}",
                    line=line,
                    column="input_output",
                )
        entry = f"Solution.{fn_name}" if "class Solution" in starter else str(fn_name)
        problem = Problem(
            problem_id=task_id,
            # one test a call, each with its own time limit (harness.run_limits)
            tests=tuple(TestCase(f"call {i + 1}") for i in range(len(inputs))),
            time_limit_ms=APPS_TIME_LIMIT_MS,
            statement=question,
            code_prompt=HEADER,
            test_code=CALL_CHECK.format(
                tests=json.dumps(_crossing(list(zip(inputs, outputs, strict=True)))), big=BIG
            ),
            entry_point=entry,
        )
    else:
        problem = Problem(
            problem_id=task_id,
            tests=tuple(
                TestCase(f"test {i + 1}", _text(a), _text(b))
                for i, (a, b) in enumerate(zip(inputs, outputs, strict=True))
            ),
            time_limit_ms=APPS_TIME_LIMIT_MS,
            statement=question,
            origin="APPS",
            code_prompt=HEADER,
        )
    from codelog.prompts import apps_prompt

    prompt = apps_prompt(question, starter, bool(fn_name))
    return Task(problem, prompt, str(difficulty) if difficulty else None)


def _directory_row(folder: Path) -> dict[str, Any]:
    """A release directory read into a Hub-schema row; a file that is not UTF-8 text, or a
    metadata.json that is not a JSON object, is an InputError naming it."""

    def read(name: str) -> str | None:
        path = folder / name
        if not path.is_file():
            return None
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None

    text = read("metadata.json")
    try:
        meta = decoding.json_value(text) if text and text.strip() else {}
    except decoding.Refused as exc:
        raise InputError(folder / "metadata.json", f"refused: {exc}") from None
    if not isinstance(meta, dict):
        raise InputError(folder / "metadata.json", "needs a JSON object (difficulty, url)")
    return {
        "problem_id": folder.name,
        "question": read("question.txt"),
        "input_output": read("input_output.json"),
        "solutions": read("solutions.json"),
        "starter_code": read("starter_code.py"),
        "difficulty": meta.get("difficulty"),
        "url": meta.get("url"),
    }


def rows(source: Source, split: str) -> Iterator[tuple[str, str, int | None, dict[str, Any]]]:
    """(task_id, where, line, row) of the chosen split."""
    if split not in SPLITS:
        raise CodelogError(f"apps splits: {', '.join(SPLITS)}; not {split!r} (--split)")
    if source.path is None:
        hub = hub_rows("apps", HUB_ID, split, revision=HUB_REVISION, data_dir=HUB_DATA_DIR)
        for where, i, row in hub:
            yield str(row["problem_id"]), where, i, row
        return
    path = source.path
    if path.is_dir():
        root = path / split if (path / split).is_dir() else path
        folders = sorted(p for p in root.iterdir() if p.is_dir() and (p / "question.txt").is_file())
        if not folders:
            raise InputError(root, "no APPS problem directories (NNNN/question.txt) here")
        for folder in folders:
            yield folder.name, str(folder), None, _directory_row(folder)
        return
    if not path.is_file():
        raise not_a_file(path, "apps:PATH reads the release's directory or a file of Hub rows")
    for n, row in json_rows(path):
        if row.get("problem_id") is None:
            raise InputError(path, "needs a problem_id", line=n, column="problem_id")
        yield str(row["problem_id"]), str(path), n, row


def tasks(source: Source, split: str, options: Mapping[str, Any]) -> Iterator[Task | Skip]:
    for task_id, where, line, row in rows(source, split):
        yield task(task_id, row, where, line)


def references(source: Source, split: str) -> Iterator[Reference]:
    for task_id, where, line, row in rows(source, split):
        solutions = _json_field(row, "solutions", where, line) or []
        if not isinstance(solutions, list):
            raise InputError(
                where, "solutions must be a list of programs", line=line, column="solutions"
            )
        yield Reference(
            "apps",
            task_id,
            str(row.get("question") or ""),
            tuple(s for s in solutions if isinstance(s, str)),
            url=row.get("url") or None,
        )


BENCHMARK = Benchmark(
    name="apps",
    description="APPS: the release's train/ test/ directories, Hub-schema rows, or APPS+",
    default_split="test",
    splits=SPLITS,
    judging="stdin/stdout with APPS's comparison, or fn_name calls; 4 s per test",
    tasks=tasks,
    references=references,
    hub_id=HUB_ID,
)
