"""What an eval is, in one value: `EvalSpec`. The CLI builds it from its flags, the API from its
keywords (`EvalSpec.from_options`), `codelog experiment` for each cell and column, and pass@k
while training for the held-out problems; every later stage reads it and none re-checks it.

A spec names the benchmark and which of its problems (split, contest dates, a limit), where the
samples come from (a model to sample, or a file of completions), how they are sampled
(`Sampling`), how they are judged (`JudgeOptions`, workers, executor), which pass@k to report,
where the run writes, and an earlier run to compare with. Its flag-level refusals happen when it
is made (`__post_init__`); what needs the benchmark's files (a split the benchmark lacks, a date
filter it cannot apply) is refused when the problems load (codelog.evaluation.problems).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError
from codelog.execution.judge import DEFAULT_OPTIONS, JudgeOptions
from codelog.executors import LOCAL, ExecutorSpec


@dataclass(frozen=True)
class Sampling:
    """How a model is sampled: n programs per problem, and the decoding settings."""

    n: int = 1
    temperature: float = 0.8  # 0: greedy (then n > 1 repeats the same program)
    top_p: float = 0.95
    max_new_tokens: int = 512
    batch_size: int = 8  # prompts per generate call (each with n sequences)
    seed: int = 0


DEFAULT_SAMPLING = Sampling()


@dataclass(frozen=True)
class EvalSpec:
    """One eval: benchmark and problems, samples source, sampling, judging, k, output."""

    benchmark: str  # NAME[:PATH] or NAME@VERSION (codelog.benchmarks), codenet[:DIR], FILE.jsonl
    model: str | None = None  # sample from it (a path or a hub name), or
    samples_file: Path | None = None  # score these completions
    ks: tuple[int, ...] = (1,)
    sampling: Sampling = DEFAULT_SAMPLING
    out: Path | None = None  # None: runs/eval-<benchmark> (`directory`)
    # which problems
    split: str | None = None  # the benchmark's split; a built dataset's train, test or all
    after: str | None = None  # contest dates, ISO (LiveCodeBench)
    before: str | None = None
    test_sets: tuple[str, ...] = ()  # CodeContests' (default: private + generated)
    challenge_tests: bool = False  # MBPP's challenge_test_list too
    limit: int | None = None  # the first `limit` problems by id
    recipe: Path | None = None  # its [prompt] template (default: a built dataset's own)
    # how samples are judged
    judging: JudgeOptions = DEFAULT_OPTIONS
    workers: int | None = None
    executor: ExecutorSpec = LOCAL
    # reporting
    compare: Path | None = None  # an earlier run's directory (or summary.json)
    force: bool = False  # overwrite outputs codelog did not write
    quiet: bool = False
    progress: bool | None = None  # None: a bar when stderr is a terminal and not quiet

    def __post_init__(self) -> None:
        # as given from Python: paths as strings, k in any order, test sets as a list
        for name in ("samples_file", "out", "recipe", "compare"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Path):
                object.__setattr__(self, name, Path(value))
        object.__setattr__(self, "ks", tuple(sorted(set(self.ks))))
        object.__setattr__(self, "test_sets", tuple(self.test_sets))
        if self.model is not None and self.samples_file is not None:
            raise CodelogError(NEEDS_ONE_SOURCE)
        if not self.ks or min(self.ks) < 1:
            raise CodelogError(f"-k values must be positive integers, not {self.ks!r}")
        top = max(self.ks)
        if self.model is not None and self.sampling.n < top:
            raise CodelogError(f"pass@{top} needs -n {top} or more")
        name = self.benchmark.partition(":")[0]
        if self.test_sets and name != "codecontests":
            raise CodelogError("--test-sets chooses CodeContests' test sets (codecontests[:PATH])")
        if self.challenge_tests and name != "mbpp":
            raise CodelogError("--challenge-tests runs MBPP's challenge_test_list (mbpp[:PATH])")

    @property
    def directory(self) -> Path:
        """Where the run writes samples.jsonl and summary.json."""
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", self.benchmark)
        return self.out or Path("runs") / f"eval-{slug}"

    @property
    def picked(self) -> bool:
        """Whether the spec picks some of the benchmark's problems (then a samples file may
        hold samples of others, which are left out rather than refused)."""
        return any(v is not None for v in (self.limit, self.split, self.after, self.before))

    @classmethod
    def from_options(cls, **options: Any) -> EvalSpec:
        """A spec from `codelog eval`'s flags by their Python names (what `codelog.evaluate`
        takes): benchmark, model, samples_file, n, ks ("1,10"), out, temperature, top_p,
        max_new_tokens, batch_size, seed, limit, recipe, workers, isolation, warm, per_test,
        split, after, before, test_sets, challenge_tests, compare, executor, force, quiet,
        progress. Flags left out take `codelog eval`'s defaults."""
        given = dict(options)
        sampling = Sampling(
            **{key: given.pop(key) for key in SAMPLING_KEYS if key in given},
        )
        ks = given.pop("ks", "1")
        judging = JudgeOptions(
            isolation=given.pop("isolation", "auto"),
            warm=given.pop("warm", True),
            stop_at_first_failure=not given.pop("per_test", False),
        )
        test_sets = tuple(given.pop("test_sets", None) or ())
        unknown = sorted(set(given) - OTHER_KEYS)
        if unknown:
            raise TypeError(f"unknown eval option(s): {', '.join(unknown)}")
        return cls(
            ks=parse_ks(ks) if isinstance(ks, str) else tuple(ks),
            sampling=sampling,
            judging=judging,
            test_sets=test_sets,
            **given,
        )

    @property
    def per_test(self) -> bool:
        """Every test of a sample runs (per-test pass rates), not only up to its first failure."""
        return not self.judging.stop_at_first_failure


NEEDS_ONE_SOURCE = "give exactly one of --model (sample from it) or --samples FILE"
SAMPLING_KEYS = ("n", "temperature", "top_p", "max_new_tokens", "batch_size", "seed")
OTHER_KEYS = {
    "benchmark", "model", "samples_file", "out", "split", "after", "before", "challenge_tests",
    "limit", "recipe", "workers", "executor", "compare", "force", "quiet", "progress",
}  # fmt: skip


def parse_ks(ks: str) -> tuple[int, ...]:
    """`-k 1,10` as (1, 10): sorted, each once."""
    try:
        values = tuple(sorted({int(k) for k in ks.split(",") if k.strip()}))
    except ValueError:
        raise CodelogError(f"-k takes a comma list of integers, not {ks!r}") from None
    if not values or values[0] < 1:
        raise CodelogError(f"-k values must be positive integers, not {ks!r}")
    return values
