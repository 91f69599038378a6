"""EvalSpec: one value for an eval, refused when it is made, run the same from the CLI, the API's
keywords and a spec given whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import codelog
from codelog.errors import CodelogError
from codelog.evaluation.spec import EvalSpec, Sampling
from codelog.execution.judge import JudgeOptions

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "benchmarks"
MBPP = f"mbpp:{FIXTURES / 'mbpp' / 'mbpp-sample.jsonl'}"


def samples(path: Path) -> Path:
    """MBPP's canonical code, then a wrong program, for each fixture problem."""
    rows = [json.loads(line) for line in Path(MBPP[5:]).read_text().splitlines()]
    with path.open("w") as f:
        for r in rows:
            for code in (r["code"], "def nothing():\n    return None\n"):
                f.write(json.dumps({"task_id": r["task_id"], "completion": code}) + "\n")
    return path


def test_keywords_build_the_spec_the_cli_builds() -> None:
    spec = EvalSpec.from_options(
        benchmark=MBPP,
        model="m",
        n=4,
        ks="2,1,2",
        temperature=0.2,
        seed=3,
        isolation="process",
        warm=False,
        per_test=True,
        challenge_tests=True,
        out="o",
    )
    assert spec == EvalSpec(
        benchmark=MBPP,
        model="m",
        ks=(1, 2),
        sampling=Sampling(n=4, temperature=0.2, seed=3),
        judging=JudgeOptions(isolation="process", warm=False, stop_at_first_failure=False),
        challenge_tests=True,
        out=Path("o"),
    )
    assert spec.per_test and spec.directory == Path("o")
    # from Python as given: a path as a string, k in any order, test sets as a list
    loose = EvalSpec("codecontests", samples_file="s.jsonl", ks=[2, 1, 2], test_sets=["public"])
    assert (loose.samples_file, loose.ks, loose.test_sets) == (Path("s.jsonl"), (1, 2), ("public",))
    assert EvalSpec(benchmark="mbpp:x y").directory == Path("runs/eval-mbpp-x-y")
    with pytest.raises(TypeError, match=r"unknown eval option.*n_samples"):
        EvalSpec.from_options(benchmark=MBPP, n_samples=2)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"model": "m", "samples_file": "s.jsonl"}, "exactly one of --model"),
        ({"model": "m", "n": 2, "ks": "1,5"}, "pass@5 needs -n 5 or more"),
        ({"ks": "0,1"}, "positive integers"),
        ({"ks": "one"}, "comma list of integers"),
        ({"test_sets": ["public"]}, "--test-sets chooses CodeContests"),
        ({"challenge_tests": True, "benchmark": "apps"}, "--challenge-tests runs MBPP"),
    ],
)
def test_a_bad_spec_is_refused_when_it_is_made(options: dict, message: str) -> None:
    with pytest.raises(CodelogError, match=message):
        EvalSpec.from_options(**{"benchmark": MBPP, **options})


def test_a_spec_the_api_keywords_and_the_cli_write_the_same_bytes(tmp_path: Path) -> None:
    given = samples(tmp_path / "s.jsonl")
    spec = EvalSpec(benchmark=MBPP, samples_file=given, split="all", limit=2,
                    out=tmp_path / "spec", ks=(1, 2), workers=1, quiet=True)  # fmt: skip
    whole = codelog.evaluate(spec)
    keywords = codelog.evaluate(MBPP, samples_file=given, split="all", limit=2, ks="1,2",
                                out=tmp_path / "keywords", workers=1, quiet=True)  # fmt: skip
    cli = [sys.executable, "-m", "codelog.cli", "eval", "--benchmark", MBPP, "--split", "all",
           "--samples", str(given), "--limit", "2", "-k", "1,2", "--workers", "1", "--quiet",
           "--out", str(tmp_path / "cli")]  # fmt: skip
    subprocess.run(cli, check=True, capture_output=True)
    assert whole.overall == keywords.overall == {"pass@1": 0.5, "pass@2": 1.0}
    for name in ("samples.jsonl", "summary.json"):
        first = (tmp_path / "spec" / name).read_bytes()
        assert first == (tmp_path / "keywords" / name).read_bytes()
        assert first == (tmp_path / "cli" / name).read_bytes()
    with pytest.raises(TypeError, match="takes no options: workers"):
        codelog.evaluate(spec, workers=2)


def test_a_run_without_a_source_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    with pytest.raises(CodelogError, match="exactly one of --model"):
        codelog.evaluate("no-such-benchmark.jsonl", out=tmp_path / "o")
    assert not (tmp_path / "o").exists()
