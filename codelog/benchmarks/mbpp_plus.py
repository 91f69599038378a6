"""MBPP+ (EvalPlus, Liu et al. 2023): 378 of sanitized MBPP's problems (v0.2.0) with about 35
times their tests.

Sources: a bare `mbpp+` loads `evalplus/mbppplus` (Parquet, split test); `mbpp+:FILE` reads a
copy in that schema (.jsonl or .parquet): rows `task_id, code, prompt, source_file,
test_imports, test_list, test`, where `test` is a script that calls the program's function on
EvalPlus's base and plus inputs and compares with their expected outputs.

A sample is a whole program, as MBPP's; it passes when `test_imports` and `test` run without a
failed assertion after it, by the checker box against the program's functions (EvalPlus's
float comparison through codelog.benchmarks.evalplus), within MBPP's 10 s. The prompt is MBPP's
with `test_list`, MBPP's own three asserts, as EvalPlus shows them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import codelog.benchmarks.evalplus as evalplus
from codelog.benchmarks.base import Benchmark, Reference, Skip, Source, Task
from codelog.benchmarks.mbpp import MBPP_TIME_LIMIT_MS
from codelog.errors import InputError
from codelog.execution.testcases import Problem, TestCase, check_problem

HUB_ID = "evalplus/mbppplus"


def rows(source: Source, split: str) -> Iterator[tuple[str, int | None, dict[str, Any]]]:
    return evalplus.rows("mbpp+", HUB_ID, source, split)


def _strings(row: Mapping[str, Any], key: str, where: str, line: int | None) -> list[str]:
    value = row.get(key)
    value = [] if value is None else value
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InputError(where, f"{key} must be a list of strings", line=line, column=key)
    return value


def task(row: Mapping[str, Any], where: str, line: int | None) -> Task | Skip:
    task_id = row.get("task_id")
    if task_id is None or task_id == "":
        raise InputError(where, "needs a task_id", line=line, column="task_id")
    text = row.get("prompt")
    if not isinstance(text, str):
        raise InputError(where, "needs the task text (prompt)", line=line, column="prompt")
    test = row.get("test")
    if not isinstance(test, str) or not test.strip():
        raise InputError(where, "needs EvalPlus's test script (test)", line=line, column="test")
    code, beyond = evalplus.checks(test)
    if beyond:
        return Skip(str(task_id), f"its checks use numpy's {', '.join(beyond)}")
    imports = _strings(row, "test_imports", where, line)
    problem = Problem(
        problem_id=str(task_id),
        tests=(TestCase("EvalPlus tests"),),
        time_limit_ms=MBPP_TIME_LIMIT_MS,
        statement=text,
        test_code="\n".join([*imports, code]) + "\n",
    )
    from codelog.prompts import mbpp_prompt

    asserts = _strings(row, "test_list", where, line)
    return Task(check_problem(problem, where, line), mbpp_prompt(text, asserts))


def tasks(source: Source, split: str, options: Mapping[str, Any]) -> Iterator[Task | Skip]:
    for where, line, row in rows(source, split):
        yield task(row, where, line)


def references(source: Source, split: str) -> Iterator[Reference]:
    for _, _, row in rows(source, split):
        code = row.get("code")
        yield Reference(
            "mbpp+",
            str(row.get("task_id")),
            str(row.get("prompt") or ""),
            (code,) if isinstance(code, str) and code else (),
        )


BENCHMARK = Benchmark(
    name="mbpp+",
    description="MBPP+ (EvalPlus): evalplus/mbppplus on the Hub, or a copy of it",
    default_split="test",
    splits=("test",),
    judging="whole program; EvalPlus's test script (base + plus inputs) passes; 10 s CPU",
    tasks=tasks,
    references=references,
    hub_id=HUB_ID,
)
