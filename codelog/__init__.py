"""codelog: judged-code archives (CodeNet, CI logs) to offline-RL training data, plus a trainer.

The Python API, what the `codelog` command itself calls:

    import codelog

    report = codelog.build("datasets/codenet-python")             # the bundled sample
    con = codelog.open_dataset("datasets/codenet-python")          # DuckDB, views defined
    con.sql("SELECT * FROM groups ORDER BY reward_std DESC").show()
    codelog.export("datasets/codenet-python", "dpo", "dpo")  # dpo/train.parquet, dpo/test.parquet
    assert codelog.verify("datasets/codenet-python").ok
    print(codelog.stats("datasets/codenet-python").groups)

Every function takes local paths (str or os.PathLike; a URL such as `s3://...` is refused),
raises a `codelog.errors.CodelogError` subclass for anything a user can act on, and never
deletes or overwrites what codelog did not create. Heavy imports happen inside the functions,
so `import codelog` stays instant. `codelog.train` and `codelog.evaluate` train a model on a
dataset and score one (or a file of completions) with pass@k, as `codelog train` and `codelog
eval` do; `codelog.experiment` runs both as the paper's table (`codelog experiment`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from codelog.version import __version__

if TYPE_CHECKING:
    import duckdb

    from codelog.builder import BuildReport
    from codelog.contamination.report import ContaminationReport
    from codelog.dataset.export import ExportReport
    from codelog.dataset.repair_stats import RepairStats
    from codelog.dataset.stats import Stats
    from codelog.dataset.verifier_lists import ListsReport
    from codelog.dataset.verify import VerifyReport
    from codelog.evaluation.experiment import ExperimentResult
    from codelog.evaluation.scoring import EvalResult
    from codelog.evaluation.spec import EvalSpec
    from codelog.execution.judge import JudgeOptions
    from codelog.execution.judge_run import JudgeReport
    from codelog.executors import ExecutorSpec
    from codelog.recipe import Recipe
    from codelog.training.report import RunResult

__all__ = [
    "__version__",
    "build",
    "check_contamination",
    "evaluate",
    "experiment",
    "export",
    "export_verifier_lists",
    "judge",
    "open_dataset",
    "stats",
    "train",
    "verify",
]

PathLike = str | os.PathLike[str]


def build(
    out: PathLike | None = None,
    *,
    source: str = "codenet",
    language: str = "python",
    root: PathLike | None = None,
    inputs: Sequence[PathLike] = (),
    problems: PathLike | None = None,
    tests: PathLike | None = None,
    recipe: Recipe | PathLike | None = None,
    seed: int = 0,
    workers: int | None = None,
    kind: str = "solutions",
    license: str | None = None,
    wait: bool = False,
    memory: int | str | None = None,
    progress: bool = False,
    executor: ExecutorSpec | None = None,
    decontaminate: Sequence[str] | None = None,
) -> BuildReport:
    """Build a deduplicated, grouped dataset from judged submissions; publish it atomically.

    Args:
        out: dataset directory (default `datasets/<source>-<language>`). It may be absent, an
            empty directory, or a codelog dataset (replaced whole); anything else is refused
            (OutputError), as is an `out` that is, contains or lies inside an input.
        source: "codenet" (a CodeNet tree), "ci" (CSV/JSONL/Parquet exports), "junit",
            "codecontests" or "codeforces" (the Hub's Parquet shards, or a Hub name); several
            joined by "+" ("codenet+codecontests") are one build, a problem two of them hold
            (by statement) one problem.
        language: CodeNet language name, case-insensitive (python, c++, java, ...).
        root: the CodeNet root (default: the bundled sample); for ci/junit, the directory
            code paths are relative to (default: the first input's directory).
        inputs: ci/junit export files or globs; codecontests/codeforces Parquet files,
            directories, globs or Hub names.
        problems: ci problems file (problem_id, name, description, ...); codeforces:
            open-r1/codeforces' Parquet (statements, limits, official tests).
        tests: ci: the problems' tests, Parquet with problem_id, name, input, output (a
            dataset's tests.parquet), so a dataset rebuilt from `judge`'s rows keeps them.
        recipe: a Recipe or a recipe TOML path (default: recipes/offline-rl-paper.toml).
        seed: picks the capped correct solutions, deterministically.
        workers: parse processes, at least 1 (default: all cores).
        kind: what a row is: "solutions", or "repair" (a user's earlier attempts with their
            verdicts -> the next attempt; recipe [repairs]). Default out gains "-repair".
        license: the card's license for ci/junit data (CodeNet is cdla-permissive-2.0).
        wait: when another build of `out` is running, wait for it instead of BusyError.
        memory: DuckDB's budget for the grouping stage, bytes or a size such as "2GB"
            (default: $CODELOG_MEMORY, else a quarter of the available memory within
            256-512 MiB); beyond it the grouping spills to disk. At least 128 MiB.
        progress: draw progress bars on stderr.
        executor: where the stage step (read, parse, hash) runs: None, the local pool of
            `workers`; `ExecutorSpec("ray", address)`, Ray tasks (docs/scale.md).
        decontaminate: benchmarks (registry names or NAME:PATH) to check the problems against,
            replacing the recipe's [decontaminate] benchmarks (docs/contamination.md).

    Returns:
        a BuildReport: `out`, the `manifest` (counts, recipe, files) and step `seconds`.

    Raises EmptyResultError, with the reject reasons, when nothing usable came out (0 rows
    in, or 0 groups kept); nothing is published then.
    """
    from pathlib import Path

    from codelog import kinds
    from codelog.builder import run_build
    from codelog.executors import LOCAL
    from codelog.files import local_path
    from codelog.options import BuildOptions, memory_from_env, parse_memory
    from codelog.recipe import Recipe, load_recipe

    if not isinstance(recipe, Recipe):
        recipe = load_recipe(local_path(recipe, "recipe") if recipe is not None else None)
    if decontaminate is not None:
        import dataclasses

        recipe = dataclasses.replace(
            recipe,
            decontaminate=dataclasses.replace(
                recipe.decontaminate, benchmarks=tuple(str(b) for b in decontaminate)
            ),
        )
    for value in inputs:
        local_path(value, "input")
    suffix = kinds.to_build(kind).out_suffix
    default_out = Path("datasets") / f"{source}-{language.lower()}{suffix}"
    options = BuildOptions(
        source=source,
        language=language,
        out=local_path(out if out is not None else default_out, "out"),
        recipe=recipe,
        root=local_path(root, "root") if root is not None else None,
        inputs=tuple(os.fspath(i) for i in inputs),
        problems_file=local_path(problems, "problems") if problems is not None else None,
        tests_file=local_path(tests, "tests") if tests is not None else None,
        seed=seed,
        workers=workers,
        show_progress=progress,
        wait=wait,
        license=license,
        kind=kind,
        memory=parse_memory(str(memory)) if memory is not None else memory_from_env(),
        executor=executor or LOCAL,
    )
    return run_build(options)


def check_contamination(
    source: PathLike | str,
    against: Sequence[str],
    out: PathLike | None = None,
    *,
    min_score: float | None = None,
    recipe: Recipe | PathLike | None = None,
    solutions: bool = True,
    force: bool = False,
) -> ContaminationReport:
    """Which of SOURCE's problems are benchmark problems (`codelog contamination`;
    docs/contamination.md). Not named `contamination`: importing the codelog.contamination
    package would replace a function of that name on this module.

    Args:
        source: a built dataset, a CodeNet tree (its `problem_descriptions/` are enough) or a
            benchmark (NAME or NAME:PATH, as `against`).
        against: benchmarks to check against: registry names or NAME:PATH.
        out: the report, `.jsonl` or `.parquet`, written atomically; an existing file only if
            codelog wrote it, or with `force`. None: no file.
        min_score: also report pairs from this score up, below the rule's threshold (near
            misses; their `accepted` is false).
        recipe: whose [decontaminate] rule (ngram, threshold, max_df, min_shared) to use.
        solutions: also compare the source's solutions with the reference solutions (AST hash
            and winnowed fingerprints).

    Returns a ContaminationReport: `rows` best first, each with `accepted`.
    """
    from pathlib import Path

    from codelog.contamination.report import REPORT_SUFFIXES, check, write_report
    from codelog.errors import OutputError
    from codelog.files import check_output_file, local_path, writing
    from codelog.group.decontaminate import rule_of
    from codelog.recipe import Recipe, load_recipe

    if not isinstance(recipe, Recipe):
        recipe = load_recipe(local_path(recipe, "recipe") if recipe is not None else None)
    target = None
    if out is not None:
        target = local_path(out, "out")
        if target.suffix not in REPORT_SUFFIXES:
            raise OutputError(f"--out {target}: the report is .jsonl or .parquet")
        inputs = [Path(s.partition(":")[2]) for s in against if ":" in s]
        if Path(os.fspath(source)).exists():
            inputs.append(Path(os.fspath(source)))
        check_output_file(target, force=force, inputs=inputs)
    report = check(
        os.fspath(source),
        list(against),
        rule=rule_of(recipe.decontaminate),
        min_score=min_score,
        solutions=solutions,
    )
    if target is not None:
        with writing(target):
            write_report(report.rows, target)
        report.out = target
    return report


def open_dataset(dataset: PathLike, *, verify: bool = False) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the dataset's views: solutions, rejects, problems, groups.

    The data files are checked against the manifest first: sizes, Parquet footers and row
    counts (milliseconds); `verify=True` also recomputes every file's sha256. A mismatch is a
    DatasetError naming the files.
    """
    from codelog.dataset.open import check_dataset
    from codelog.dataset.open import open_dataset as _open
    from codelog.files import local_path

    path = local_path(dataset, "dataset")
    if verify:
        check_dataset(path, full=True)
    return _open(path)


def export(
    dataset: PathLike,
    format: str,
    out: PathLike,
    *,
    split: str | None = None,
    max_pairs_per_problem: int = 32,
    seed: int = 0,
    chat: bool = False,
    tests: str | None = None,
    problem_tests: Mapping[str, Mapping[str, Any]] | None = None,
    force: bool = False,
    verify: bool = False,
) -> ExportReport:
    """Write the dataset as Parquet for another trainer, one file per split.

    Args:
        format: "dpo" (TRL prompt/chosen/rejected), "kto" (prompt/completion/label), "sft"
            (prompt/completion, or messages with `chat`), "grpo" (prompt-only, one row per
            problem, for `codelog.execution.trl_reward.CodeReward`), "verl" (one row per
            problem, its tests the ground truth) or "verl-solutions" (one row per solution).
        out: a directory, which gets `train.parquet` and `test.parquet` (or `<split>.parquet`
            with `split`), or a `.parquet` file, which holds the one `split` named. Never
            inside the dataset; an existing file is replaced only if codelog wrote it, or with
            `force`.
        split: "train", "test" or "all" (both in one file, by name only). Default: train and
            test, a file each.
        max_pairs_per_problem: dpo pairs per group, at most. seed: which dpo pairs.
        chat: TRL's conversational format (lists of messages) for instruct models;
            plain-string prompts end with the trainer's separator so TRL's concatenation
            tokenizes as codelog's trainer does.
        tests: grpo/verl/verl-solutions: where each problem's tests come from (codenet, codenet:DIR, a
            problems .jsonl; default: the sample I/O of the dataset's own statements), unless
            `problem_tests` gives them: problem_id -> tests and limits
            (`codelog.execution.verl_reward.problem_spec`).
        verify: recompute the dataset's sha256s first (the cheap check always runs).

    Returns an ExportReport: `files`, one per split written (split, out, rows, groups,
    problems, skipped_no_statement, skipped_no_tests), and `empty_splits`. A split named
    with 0 rows is an EmptyResultError saying why, and leaves its file as it was.
    """
    from codelog import kinds
    from codelog.dataset.export import NEEDS_TESTS, export_dataset
    from codelog.dataset.open import check_dataset, read_manifest
    from codelog.files import local_path, writing

    path, target = local_path(dataset, "dataset"), local_path(out, "out")
    if verify:
        check_dataset(path, full=True)
    wants_tests = format in (*NEEDS_TESTS, "verl-solutions")
    if (
        problem_tests is None
        and wants_tests
        and kinds.of_manifest(read_manifest(path)).exports_tests
    ):
        # rollouts are scored by running them (codelog.execution): the rows carry the tests
        from codelog.execution.testcases import load_problems
        from codelog.execution.verl_reward import problem_spec

        problems = load_problems(tests or f"codenet:{path}")
        problem_tests = {pid: problem_spec(p) for pid, p in problems.items()}
    with writing(target):
        return export_dataset(
            path,
            format,  # type: ignore[arg-type]
            target,
            split=split,  # type: ignore[arg-type]
            max_pairs_per_group=max_pairs_per_problem,
            seed=seed,
            force=force,
            chat=chat,
            problem_tests=problem_tests,
        )


def export_verifier_lists(
    dataset: PathLike,
    out: PathLike,
    *,
    split: str | None = None,
    list_size: str = "2-5",
    seed: int = 0,
    lists_per_problem: int = 8,
    hard_similarity: float = 0.6,
    force: bool = False,
    verify: bool = False,
) -> list[tuple[str, ListsReport]]:
    """Write candidate lists for code verifiers (Aletheia-style: 2-5 programs of one problem
    with distinct pass rates, exactly one correct), drawn from a solutions dataset, one file
    per split as `export` writes them.

    Args:
        list_size: candidates per list, a number or a range ("2-5").
        seed: which lists. lists_per_problem: per problem and bucket (easy, hard), at most.
        hard_similarity: token similarity of a hard list's candidates to the correct one.

    Returns (split, ListsReport) per file written: lists by bucket and size, problems, and
    incorrect solutions left out for want of a test count.
    """
    from codelog import kinds
    from codelog.dataset.open import check_dataset
    from codelog.files import local_path

    path, target = local_path(dataset, "dataset"), local_path(out, "out")
    if verify:
        check_dataset(path, full=True)
    return kinds.VERIFIER_LISTS.part("dataset.export")(
        path,
        target,
        split=split,
        force=force,
        list_size=list_size,
        seed=seed,
        lists_per_problem=lists_per_problem,
        hard_similarity=hard_similarity,
    )


def judge(
    source: PathLike,
    out: PathLike,
    *,
    tests: str | None = None,
    options: JudgeOptions | None = None,
    workers: int | None = None,
    problems_out: PathLike | None = None,
    details: PathLike | None = None,
    limit: int | None = None,
    force: bool = False,
    progress: bool = False,
    executor: ExecutorSpec | None = None,
) -> JudgeReport:
    """Re-run programs in the sandbox and write CI rows with their verdicts (`codelog build
    --source ci` reads them back).

    Args:
        source: a JSONL of programs (problem_id + code per line: model samples), or a dataset
            directory, whose own solutions are re-judged (a label audit: `report.audit`).
        out: the CI export to write (.jsonl, .csv or .parquet); replaced only if codelog wrote
            it, or with `force`; never an input.
        tests: where the tests come from: a benchmark of codelog.benchmarks (humaneval,
            mbpp[:PATH], apps[:PATH], codecontests[:PATH], livecodebench[:PATH],
            humaneval+[:PATH], mbpp+[:PATH]; every split
            of MBPP, the default split of the others), codenet, codenet:DIR or a problems
            .jsonl (default for a dataset: its own problems' sample I/O).
        options: the sandbox (`codelog.execution.judge.JudgeOptions`: isolation, python,
            time_scale). workers: judging processes (default: all cores).
        problems_out: also write the judged problems as a `--problems` file.
        details: also write every verdict with its per-test results (JSONL).
        limit: judge only the first N programs.
        executor: where the programs are judged: None, the local pool of `workers`
            processes, or `codelog.executors.ExecutorSpec("ray", address)`; the verdicts are
            the same either way, in the same order.

    Returns a JudgeReport: verdict counts, skips by reason, the audit, isolation, seconds.
    The verdicts themselves are in `out` and `details` (read a line back with
    `codelog.execution.judge.result_from_record`), not in the report: the run streams, so its
    memory does not grow with the number of programs.
    """
    from codelog import benchmarks
    from codelog.dataset.open import check_dataset
    from codelog.execution.judge import DEFAULT_OPTIONS
    from codelog.execution.judge_run import run_judge
    from codelog.executors import LOCAL
    from codelog.files import local_path

    resolved = None
    if tests is not None and benchmarks.is_benchmark(tests) and not tests.startswith("codenet"):
        bench, where = benchmarks.parse(tests)
        split = "all" if "all" in bench.splits else None  # samples may be of any MBPP task
        suite = benchmarks.load(tests, split)
        resolved = (suite.problems, [where.path] if where.path is not None else [])
    source = local_path(source, "source")
    if source.is_dir() and (source / "manifest.json").is_file():
        check_dataset(source)  # a tampered dataset is refused, as stats, sql and train do
    return run_judge(
        source,
        local_path(out, "out"),
        tests=tests,
        options=options or DEFAULT_OPTIONS,
        workers=workers,
        show_progress=progress,
        problems_out=local_path(problems_out, "problems_out") if problems_out else None,
        details_out=local_path(details, "details") if details else None,
        limit=limit,
        force=force,
        executor=executor or LOCAL,
        benchmark=resolved,
    )


def verify(dataset: PathLike, *, progress: bool = False) -> VerifyReport:
    """Check a dataset against its manifest and its invariants, reporting every mismatch.

    Files (sha256, sizes, rows), counts (rows in, rejects by reason, outcomes, statuses),
    invariants (contrast in every group, the correct cap, dedup keys, finite recipe rewards)
    and every solution's AST hash recomputed from its code. `report.ok` is True when nothing
    is wrong; an edited card (README.md) is noted in `report.card`, not failed.
    """
    from codelog.dataset.verify import verify_dataset
    from codelog.files import local_path

    return verify_dataset(local_path(dataset, "dataset"), progress=progress)


def stats(dataset: PathLike, *, verify: bool = False) -> Stats | RepairStats:
    """The dataset's figures, by its kind. Solutions (a Stats): outcome mix, group sizes,
    rejects by reason, dedup ratio and code-length percentiles. Repairs (a RepairStats):
    trajectories, their lengths, and which verdict follows which.

    `codelog.dataset.stats.stats_data(result)` gives the same as plain data (what
    `codelog stats --json` prints); `verify` recomputes the sha256s first.
    """
    from codelog import kinds
    from codelog.dataset.open import check_dataset
    from codelog.files import local_path

    path = local_path(dataset, "dataset")
    manifest = check_dataset(path, full=verify)
    return kinds.of_manifest(manifest).part("dataset.stats")(path)


def train(
    dataset: PathLike,
    out: PathLike,
    overrides: Mapping[str, Any] | None = None,
    **options: Any,
) -> RunResult:
    """Train a causal LM offline on a dataset built by `codelog build` (`codelog train`).

    Args:
        dataset: the dataset directory (solutions or repair kind).
        out: the run directory (checkpoints, metrics.jsonl); a directory holding another run
            is refused unless `resume=True` continues it.
        overrides: the recipe's [train] fields to change, by name (`{"algo": "grpo",
            "steps": 200, "model": "Qwen/Qwen2.5-Coder-0.5B"}`), as the command's flags do.
        options: how to run (`codelog.training.options.TrainOptions`): recipe, resume,
            progress, gradient_checkpointing, reference, report_to, evaluators, task.

    Returns a RunResult: the run directory, last checkpoint, margins before and after.
    """
    from codelog.files import local_path
    from codelog.training.loop import train as run_train

    options.setdefault("progress", False)
    return run_train(
        local_path(dataset, "dataset"), local_path(out, "out"), dict(overrides or {}), **options
    )


def evaluate(benchmark: str | EvalSpec, **options: Any) -> EvalResult:
    """pass@k of a model, or of a file of completions, on a benchmark, every sample judged in
    the sandbox (`codelog eval`).

    Args:
        benchmark: an `EvalSpec` (codelog.evaluation.spec: the whole eval in one value, as
            `codelog eval` builds it; then no options), or a registered benchmark, NAME (the Hub, or the bundled copy), NAME:PATH
            (a local copy in its published form) or livecodebench@RELEASE: humaneval, mbpp,
            apps, codecontests, livecodebench, humaneval+, mbpp+ (docs/benchmarks.md);
            codenet, codenet:DIR (a CodeNet tree or a built dataset); or a problems .jsonl.
        options: `codelog eval`'s flags by their Python names (`EvalSpec.from_options`):
            model or samples_file, n, ks ("1,10"), out, split, after / before (ISO dates),
            test_sets (CodeContests), challenge_tests (MBPP), per_test, compare (an earlier
            run's directory), temperature, max_new_tokens, seed, limit, recipe, workers,
            executor, warm, quiet, force, ...

    Returns an EvalResult: pass@k per k, overall, per difficulty and per problem; the
    failures' verdict mix; the comparison with `compare`. The run's samples with their
    verdicts are in `out`/samples.jsonl (streamed, not held in the result).
    """
    from codelog.evaluation.run import run_eval
    from codelog.evaluation.spec import EvalSpec

    if isinstance(benchmark, EvalSpec):
        if options:
            raise TypeError(f"evaluate(spec) takes no options: {', '.join(sorted(options))}")
        return run_eval(benchmark)
    return run_eval(EvalSpec.from_options(benchmark=benchmark, **({"progress": False} | options)))


def experiment(
    dataset: PathLike,
    out: PathLike,
    *,
    algos: Sequence[str] | None = None,
    model: str | None = None,
    steps: int | None = None,
    seed: int | None = None,
    benchmarks: Sequence[str] | None = None,
    n: int | None = None,
    k: Sequence[int] | None = None,
    temperature: float | None = None,
    max_new_tokens: int | None = None,
    limit: int | None = None,
    recipe: PathLike | None = None,
    workers: int | None = None,
    progress: bool = False,
    quiet: bool = True,
) -> ExperimentResult:
    """The paper's table: train each method, evaluate the base model and every checkpoint, and
    write `out`/results.json, results.md and results.png (`codelog experiment`).

    Args:
        dataset: a solutions dataset built by `codelog build`.
        out: the experiment directory: absent, empty or an experiment; a cell (a row) finished
            there before is kept, one that never finished is continued.
        algos: rows: "base" (the untrained model) and advantage estimators (sft, rloo, grpo,
            exp). model, steps, seed: [train]'s, as `codelog train` takes them.
        benchmarks: columns: "heldout" (the dataset's test split), humaneval, codenet:DIR or a
            problems .jsonl. n: samples per problem; k: pass@k for these k (each <= n).
        temperature, max_new_tokens: sampling. limit: problems per benchmark at most (the
            first by id; 0 = all), for a quick look. recipe: a recipe TOML whose [experiment] and
            [train] sections hold the defaults (default: the dataset's recipe).
        workers: judging processes (default: all cores). progress: the training and sampling
            bars. quiet: False prints a line per cell on stderr (its count, figures and an
            ETA) and training's notes, as the command does.

    Returns an ExperimentResult: `results` (what results.json holds: a row per method, pass@k
    and its standard error per benchmark and difficulty), the cells `ran` and `kept`, `plot`.
    """
    from codelog.evaluation.experiment import plan_experiment, run_experiment
    from codelog.files import local_path
    from codelog.progress import say

    plan = plan_experiment(
        local_path(dataset, "dataset"),
        local_path(out, "out"),
        recipe=local_path(recipe, "recipe") if recipe is not None else None,
        flags={
            "algos": algos,
            "model": model,
            "steps": steps,
            "seed": seed,
            "benchmarks": benchmarks,
            "n": n,
            "k": k,
            "temperature": temperature,
            "max_new_tokens": max_new_tokens,
            "limit": limit,
        },
    )
    return run_experiment(
        plan, progress=progress, quiet=quiet, say=None if quiet else say, workers=workers
    )
