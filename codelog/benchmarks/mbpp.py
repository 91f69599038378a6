"""MBPP (Austin et al. 2021): 974 crowd-sourced Python problems, each a task text, a reference
solution and three asserts.

Sources: `mbpp:PATH` reads the original `mbpp.jsonl` (`task_id, text, code, test_list,
test_setup_code, challenge_test_list`) or the sanitized release's `sanitized-mbpp.json`
(`prompt`, `test_imports` in place of `text`, `test_setup_code`); a bare `mbpp` loads the Hub's
`full` config and `mbpp:sanitized` its `sanitized` one.

Splits are task_id ranges, as the paper defines them: prompt 1-10 (the few-shot examples),
test 11-510 (the default: where MBPP scores are reported), validation 511-600, train 601-974;
`all` for every row. A sample is a whole program; it passes when `test_setup_code` and every
assert of `test_list` pass (`challenge_test_list` too when asked), run by the checker box
against the program's functions (codelog.execution.harness), within MBPP_TIME_LIMIT_MS.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from codelog.benchmarks.base import Benchmark, Reference, Source, Task, json_rows, not_a_file
from codelog.benchmarks.hub import hub_rows
from codelog.errors import CodelogError, InputError
from codelog.execution.testcases import Problem, TestCase, check_compiles

HUB_ID = "google-research-datasets/mbpp"
HUB_CONFIGS = ("full", "sanitized")
SPLITS = {"prompt": (1, 10), "test": (11, 510), "validation": (511, 600), "train": (601, 974)}
# CPU time for loading the program and answering every assert. Reference harnesses give 3-10
# s; a correct solution in the train split needs 2.4 s of CPU on a loaded machine, so the
# upper end, lest a correct program fail.
MBPP_TIME_LIMIT_MS = 10_000


def _split_of(task_id: int) -> str | None:
    return next((s for s, (lo, hi) in SPLITS.items() if lo <= task_id <= hi), None)


def _check_split(split: str) -> None:
    if split != "all" and split not in SPLITS:
        raise CodelogError(f"mbpp splits: {', '.join(SPLITS)}, all; not {split!r} (--split)")


def rows(source: Source, split: str) -> Iterator[tuple[str, int | None, dict[str, Any]]]:
    """(where, line, row) of the chosen split, in the source's order."""
    _check_split(split)
    local = source.path is not None and not (
        str(source.path) in HUB_CONFIGS and not source.path.exists()
    )
    if local:
        path = Path(source.path)  # type: ignore[arg-type]
        if not path.is_file():
            raise not_a_file(path, "mbpp:PATH reads the file mbpp.jsonl or sanitized-mbpp.json")
        for n, row in json_rows(path):
            task_id = row.get("task_id")
            if not isinstance(task_id, int) or isinstance(task_id, bool):
                raise InputError(path, "needs an integer task_id", line=n, column="task_id")
            if split == "all" or _split_of(task_id) == split:
                yield str(path), n, row
        return
    config = str(source.path) if source.path is not None else "full"
    for s in SPLITS if split == "all" else (split,):
        yield from hub_rows("mbpp", HUB_ID, s, config)


def _tests(row: dict[str, Any], where: str, line: int | None, key: str) -> list[str]:
    value = row.get(key) or []
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise InputError(where, f"{key} must be a list of strings", line=line, column=key)
    return value


def task(row: dict[str, Any], where: str, line: int | None, *, challenge: bool = False) -> Task:
    task_id = str(row["task_id"])
    text = row.get("text", row.get("prompt"))
    if not isinstance(text, str):
        raise InputError(where, "needs the task text ('text' or 'prompt')", line=line)
    asserts = _tests(row, where, line, "test_list")
    if not asserts:
        raise InputError(
            where, "test_list is empty: nothing to pass", line=line, column="test_list"
        )
    setup = row.get("test_setup_code") or ""
    imports = _tests(row, where, line, "test_imports")  # the sanitized release's
    checks = [*imports, *asserts]
    if challenge:
        checks += _tests(row, where, line, "challenge_test_list")
    check_compiles("\n".join(checks), where, line, "test_list")
    check_compiles(setup, where, line, "test_setup_code")
    problem = Problem(
        problem_id=task_id,
        tests=(TestCase("asserts"),),
        time_limit_ms=MBPP_TIME_LIMIT_MS,
        statement=text,
        test_code="\n".join(c.replace("\r\n", "\n") for c in checks) + "\n",
        # MBPP runs it after the program, in its namespace: it builds inputs from the
        # program's classes (task 927's trees), so it runs in the program's box
        setup_code=setup.replace("\r\n", "\n") if setup.strip() else None,
    )
    from codelog.prompts import mbpp_prompt

    return Task(problem, mbpp_prompt(text, asserts))


def tasks(source: Source, split: str, options: Mapping[str, Any]) -> Iterator[Task]:
    challenge = bool(options.get("challenge_tests"))
    for where, line, row in rows(source, split):
        yield task(row, where, line, challenge=challenge)


def references(source: Source, split: str) -> Iterator[Reference]:
    for _, _, row in rows(source, split):
        code = row.get("code")
        yield Reference(
            "mbpp",
            str(row["task_id"]),
            str(row.get("text", row.get("prompt")) or ""),
            (code,) if isinstance(code, str) and code else (),
        )


BENCHMARK = Benchmark(
    name="mbpp",
    description="MBPP: mbpp.jsonl / sanitized-mbpp.json, or the Hub's full / sanitized config",
    default_split="test",
    splits=(*SPLITS, "all"),
    judging="whole program; test_setup_code + every test_list assert pass; 10 s CPU",
    tasks=tasks,
    references=references,
    hub_id=HUB_ID,
)
