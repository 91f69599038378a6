"""A TRL reward function: run each completion against its problem's tests in the sandbox and
return the recipe's reward for the verdict.

TRL's GRPOTrainer (and RLOOTrainer, OnlineDPOTrainer, ...) calls every function in
`reward_funcs` once per batch of rollouts as

    reward_func(prompts=[...], completions=[...], completion_ids=[...], **columns)

where `columns` are the dataset's other columns, one value per rollout. `CodeReward` reads
`problem_id` (the column `codelog export --format grpo` writes; a verl file's `extra_info`
works too), judges the whole batch over the judge's process pool, and returns
one float per completion: the recipe's reward for the verdict (accepted +1.0, wrong answer
-0.1, time limit -0.5, ... in the default recipe). Every program runs in the sandbox with the
problem's time limit and a wall timeout, so a completion that hangs, floods its output or
exhausts memory gets the reward of its verdict (time limit, output limit, ...) and the step
goes on. A completion in a fenced block is scored by the block's code (as `codelog eval`).

    from datasets import load_dataset
    from trl import GRPOConfig, GRPOTrainer
    from codelog.execution.trl_reward import CodeReward

    train = load_dataset("parquet", data_files="grpo/train.parquet", split="train")
    reward = CodeReward.from_dataset("datasets/codenet-python")  # tests: the sample I/O
    GRPOTrainer(model=..., reward_funcs=reward, train_dataset=train, args=GRPOConfig(...))

An infrastructure failure (the sandbox cannot start a program) raises: it says nothing about
the completion, and a made-up reward would train on it.

The pool (and each worker's warm interpreter, codelog.execution.zygote) is started by the
first batch and kept for the next ones, as a trainer calls the reward every step; `close()`
(or a `with` block, or garbage collection) stops it. A `CodeReward` pickles without its pool
(TRL's AsyncGRPOTrainer, verl's Ray workers and multiprocessing send the reward function to
another process): the copy opens its own in the process where it scores, and gives the same
rewards.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError
from codelog.execution.completions import clean_completion
from codelog.execution.judge import JudgeOptions, Program, Skipped, judge_stream, local_executor
from codelog.execution.testcases import Problem, dataset_manifest, load_problems
from codelog.executors import PoolExecutor
from codelog.recipe import Recipe, load_recipe, verdict_rewards


class CodeReward:
    """A `reward_funcs` callable: `(prompts, completions, **columns) -> list[float]`."""

    __name__ = "codelog_code_reward"  # what TRL logs the reward under (rewards/<name>/mean)

    def __init__(
        self,
        problems: Mapping[str, Problem],
        rewards: Mapping[str, float],
        *,
        isolation: str = "auto",
        workers: int | None = None,
        time_scale: float = 1.0,
    ) -> None:
        """`problems`: problem_id -> its tests; `rewards`: CodeNet verdict -> reward (every
        verdict the judge gives needs one); `workers`: judging processes (all cores)."""
        self.problems = dict(problems)
        self.rewards = dict(rewards)
        self.options = JudgeOptions(isolation=isolation, time_scale=time_scale)  # type: ignore[arg-type]
        self.workers = workers
        self._pool: PoolExecutor | None = None  # opened by the first batch (`_executor`)
        self._pool_pid = 0  # the process that opened it

    def _executor(self) -> PoolExecutor:
        """The judging pool of this process: opened on first use, and again in a process that
        did not open it (a fork of one that had; an unpickled copy has none)."""
        if self._pool is None or self._pool_pid != os.getpid():
            self._pool = local_executor(self.workers or os.cpu_count() or 1)
            self._pool_pid = os.getpid()
            # the workers die with this object, whoever forgets to close it
            weakref.finalize(self, _close_in, self._pool, self._pool_pid)
        return self._pool

    def close(self) -> None:
        """Stop the judging processes (a later call starts them again)."""
        if self._pool is not None and self._pool_pid == os.getpid():
            self._pool.close()

    def __getstate__(self) -> dict[str, Any]:
        """What a copy in another process needs: the problems, rewards and options, not the
        pool (TRL's AsyncGRPOTrainer, verl's Ray workers and multiprocessing pickle a reward
        function; each copy opens its own pool where it scores)."""
        state = self.__dict__.copy()
        state.update(_pool=None, _pool_pid=0)
        return state

    def __enter__(self) -> CodeReward:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @classmethod
    def from_dataset(
        cls, dataset: str | Path, *, tests: str | None = None, **options: Any
    ) -> CodeReward:
        """The tests of a built dataset's problems (the sample I/O of their statements, or
        `tests`: codenet:DIR, a problems .jsonl) and the rewards of the dataset's recipe."""
        root = Path(dataset)
        manifest = dataset_manifest(root)
        recipe = Recipe.from_dict(manifest["recipe"], where=f"{root}/manifest.json recipe")
        problems = load_problems(tests or f"codenet:{root}")
        return cls(problems, verdict_rewards(recipe), **options)

    @classmethod
    def from_problems(
        cls, problems: str, *, recipe: str | Path | Recipe | None = None, **options: Any
    ) -> CodeReward:
        """The problems `codelog eval --benchmark` takes (a problems .jsonl, codenet:DIR,
        humaneval) and the rewards of `recipe` (default: the default recipe)."""
        loaded = recipe if isinstance(recipe, Recipe) else load_recipe(recipe)
        return cls(load_problems(problems), verdict_rewards(loaded), **options)

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] = (),
        problem_id: Sequence[str] | None = None,
        extra_info: Sequence[Mapping[str, Any]] | None = None,
        **columns: Any,
    ) -> list[float]:
        ids = _problem_ids(len(completions), problem_id, extra_info)
        programs = []
        for i, (pid, completion) in enumerate(zip(ids, completions, strict=True)):
            problem = self.problems.get(pid)
            if problem is None:
                raise CodelogError(
                    f"problem {pid!r}: this reward function has no tests for it (build it from "
                    "the dataset or problems file the prompts came from)"
                )
            code = clean_completion(problem, completion_text(completion))
            programs.append(Program(f"rollout-{i}", pid, code, language=problem.language))
        judged = judge_stream(
            programs, self.problems, self.options, self._executor(), total=len(programs)
        )
        scores = []
        for _, verdict in judged:
            if isinstance(verdict, Skipped):
                raise CodelogError(
                    f"{verdict.problem_id}: a completion was not judged: {verdict.reason}"
                )
            if verdict.status not in self.rewards:
                raise CodelogError(f"no reward for verdict {verdict.status!r} in the recipe")
            scores.append(float(self.rewards[verdict.status]))
        return scores


def _close_in(pool: PoolExecutor, pid: int) -> None:
    """Close `pool` in the process that opened it; a fork's copy is its parent's to close."""
    if os.getpid() == pid:
        pool.close()


def completion_text(completion: Any) -> str:
    """A completion as TRL passes it: a string, or (conversational) a list of messages whose
    last assistant message is the answer."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], Mapping):
        return str(completion[-1].get("content") or "")
    raise CodelogError(f"a completion is a string or a list of messages, not {type(completion)}")


def _problem_ids(
    n: int, problem_id: Sequence[str] | None, extra_info: Sequence[Mapping[str, Any]] | None
) -> list[str]:
    if problem_id is not None:
        ids = [str(p) for p in problem_id]
    elif extra_info is not None:
        ids = [str(info["problem_id"]) for info in extra_info]
    else:
        raise CodelogError(
            "the dataset has no problem_id column (export it with `codelog export --format grpo`)"
        )
    if len(ids) != n:
        raise CodelogError(f"{len(ids)} problem ids for {n} completions")
    return ids
