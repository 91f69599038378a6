"""pass@k while training (`codelog train --eval-samples`): which problems, what is scored, what
is logged, and that evaluating leaves the training itself unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import torch
from click.testing import CliRunner

from codelog.cli import cli
from codelog.errors import CodelogError
from codelog.evaluation.problems import heldout_problems
from codelog.evaluation.training_eval import pass_at_k_evaluator
from codelog.training.data import open_dataset
from codelog.training.evaluation import EvalContext
from codelog.training.models import build_tiny, load_tokenizer
from tests.train.synthetic import records, weights


def test_heldout_problems_are_the_test_split_with_sample_tests(sample_dataset: Path) -> None:
    split = pq.read_table(sample_dataset / "problems.parquet").to_pylist()
    test = {row["problem_id"] for row in split if row["split"] == "test"}
    problems = heldout_problems(sample_dataset)
    assert test and set(problems) == test
    assert all(p.tests and p.statement for p in problems.values())


class Replay(torch.nn.Module):
    """A 'policy' whose every sample is one fixed program: what the evaluator must score."""

    def __init__(self, tokenizer, program: str) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.zeros(1))
        self.ids = tokenizer(program, add_special_tokens=False)["input_ids"]

    def generate(self, input_ids, num_return_sequences, **_):
        prompts = input_ids.repeat_interleave(num_return_sequences, dim=0)
        tail = torch.tensor([self.ids] * len(prompts), dtype=prompts.dtype)
        return torch.cat([prompts, tail], dim=1)


@pytest.mark.parametrize("outcome, expected", [("accepted", 1.0), ("wrong_answer", 0.0)])
def test_the_evaluator_judges_what_the_policy_writes(
    sample_dataset: Path, tmp_path: Path, outcome: str, expected: float
) -> None:
    evaluator = pass_at_k_evaluator(sample_dataset, n=2, ks=(1, 2), workers=1)
    (problem,) = evaluator.problems  # the sample's one test-split problem
    solutions = pq.read_table(sample_dataset / "solutions.parquet").to_pylist()
    program = next(
        s["code"] for s in solutions if s["problem_id"] == problem and s["outcome"] == outcome
    )
    tokenizer = load_tokenizer(str(build_tiny(open_dataset(sample_dataset), tmp_path, 512, 0)))
    assert tokenizer.decode(tokenizer(program, add_special_tokens=False)["input_ids"]) == program
    context = EvalContext(
        Replay(tokenizer, program), tokenizer, 0, torch.device("cpu"), 0, 1, False
    )
    figures = evaluator(context)
    assert figures["pass@1"] == figures["pass@2"] == expected
    assert (figures["problems"], figures["samples"]) == (1, 2)
    assert figures["accepted"] == 2 * expected and figures["skipped"] == 0
    other_rank = EvalContext(context.model, tokenizer, 0, torch.device("cpu"), 1, 2, False)
    assert evaluator(other_rank) == {}  # rank 0 alone samples and judges


def test_nothing_to_evaluate_is_an_error_before_training(sample_dataset: Path) -> None:
    with pytest.raises(CodelogError, match="1 <= k <= samples"):
        pass_at_k_evaluator(sample_dataset, n=1, ks=(1, 10))
    with pytest.raises(CodelogError, match="not a codelog dataset"):
        pass_at_k_evaluator(sample_dataset.parent, n=1)


def test_train_logs_pass_at_k_and_trains_the_same_weights_as_without(
    sample_dataset: Path, tmp_path: Path
) -> None:
    common = [str(sample_dataset), "--steps", "4", "--eval-every", "2", "--max-length", "512"]
    common += ["--quiet", "--no-progress"]
    evaluated = CliRunner().invoke(
        cli,
        [
            "train",
            *common,
            "--out",
            str(tmp_path / "with"),
            "--eval-samples",
            "2",
            "--eval-k",
            "1,2",
            "--eval-max-new-tokens",
            "16",
        ],
    )
    assert evaluated.exit_code == 0, evaluated.output
    plain = CliRunner().invoke(cli, ["train", *common, "--out", str(tmp_path / "without")])
    assert plain.exit_code == 0, plain.output

    logged = [r for r in records(tmp_path / "with", "eval") if r["name"] == "pass@k"]
    assert [r["step"] for r in logged] == [0, 2, 4]
    for r in logged:
        assert 0.0 <= r["pass@1"] <= r["pass@2"] <= 1.0
        assert (r["problems"], r["samples"]) == (1, 2)
    assert not [r for r in records(tmp_path / "without", "eval") if r["name"] == "pass@k"]
    # evaluating (eval mode, no_grad, generate, the judge's forked workers) leaves the training
    # untouched: the same losses and weights as a run without it
    a, b = (weights(tmp_path / run / "checkpoints" / "step-000004") for run in ("with", "without"))
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    steps = [json.dumps(r["loss"]) for r in records(tmp_path / "with")]
    assert steps == [json.dumps(r["loss"]) for r in records(tmp_path / "without")]
