"""HumanEval+ (EvalPlus, Liu et al. 2023): HumanEval's 164 problems with about 80 times its
tests, which catch solutions HumanEval's few asserts let through.

Sources: a bare `humaneval+` loads `evalplus/humanevalplus` (Parquet, split test);
`humaneval+:FILE` reads a copy in that schema (its `test.jsonl`, or the Parquet file): rows
`task_id, prompt, canonical_solution, entry_point, test`, where `test` defines
`check(candidate)` over EvalPlus's base and plus inputs and their expected outputs.

A sample is the completion of the prompt, as HumanEval's; it passes when `check(entry_point)`
passes, in the checker box (EvalPlus's float comparison through codelog.benchmarks.evalplus),
within HUMANEVAL_PLUS_TIME_LIMIT_MS for all its calls.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import codelog.benchmarks.evalplus as evalplus
from codelog.benchmarks.base import Benchmark, Reference, Skip, Source, Task
from codelog.execution.testcases import problem_from_record

HUB_ID = "evalplus/humanevalplus"
# CPU for loading the program and answering every call: HumanEval's 3 s is for a handful of
# asserts; here up to about a thousand calls per problem, so MBPP's limit
HUMANEVAL_PLUS_TIME_LIMIT_MS = 10_000


def rows(source: Source, split: str) -> Iterator[tuple[str, int | None, dict[str, Any]]]:
    return evalplus.rows("humaneval+", HUB_ID, source, split)


def tasks(source: Source, split: str, options: Mapping[str, Any]) -> Iterator[Task | Skip]:
    for where, line, row in rows(source, split):
        test = row.get("test")
        code, beyond = evalplus.checks(test) if isinstance(test, str) else (test, ())
        record = {**row, "test": code, "time_limit_ms": HUMANEVAL_PLUS_TIME_LIMIT_MS}
        problem = problem_from_record(record, where, line or 0)
        if beyond:
            yield Skip(problem.problem_id, f"its checks use numpy's {', '.join(beyond)}")
            continue
        yield Task(problem, problem.code_prompt or "", whole_program=False)


def references(source: Source, split: str) -> Iterator[Reference]:
    for _, _, row in rows(source, split):
        prompt = str(row.get("prompt") or "")
        solution = row.get("canonical_solution")
        yield Reference(
            "humaneval+",
            str(row.get("task_id")),
            prompt,
            (prompt + solution,) if isinstance(solution, str) and solution else (),
        )


BENCHMARK = Benchmark(
    name="humaneval+",
    description="HumanEval+ (EvalPlus): evalplus/humanevalplus on the Hub, or a copy of it",
    default_split="test",
    splits=("test",),
    judging="the prompt + completion against EvalPlus's check(entry_point); 10 s",
    tasks=tasks,
    references=references,
    hub_id=HUB_ID,
)
