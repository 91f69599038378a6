"""Bare benchmark names load the Hub repositories as they are published today: `datasets`
and `huggingface_hub` answer from tests/fixtures/hub/ (copies laid out as the repositories are:
file names, revisions, configs; scripts/make_hub_fixtures.py), and offline each name fails at
once with the `NAME:PATH` line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

import codelog
import codelog.benchmarks as benchmarks
from codelog.errors import CodelogError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HUB = FIXTURES / "hub"
APPS_ROWS = FIXTURES / "benchmarks" / "apps" / "apps-hub-rows.jsonl"
LCB_ROWS = FIXTURES / "benchmarks" / "livecodebench" / "test-3.jsonl"
MBPP_ROWS = FIXTURES / "benchmarks" / "mbpp" / "mbpp-sample.jsonl"
CC_ROWS = FIXTURES / "benchmarks" / "codecontests" / "code_contests-hub-rows.jsonl"
HEP, MBPP_PLUS = "evalplus/humanevalplus", "evalplus/mbppplus"


def _repo(repo: str, revision: str | None) -> Path:
    return HUB / repo.replace("/", "--") / quote(revision or "main", safe="")


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple]:
    """The Hub, answered from tests/fixtures/hub/: what was asked of it, in order."""
    import datasets
    import huggingface_hub

    asked: list[tuple] = []
    load = datasets.load_dataset

    def hf_hub_download(repo_id, filename, *, repo_type=None, revision=None, **_):
        asked.append(("file", repo_id, revision, filename))
        path = _repo(repo_id, revision) / filename
        if repo_type != "dataset" or not path.is_file():
            raise FileNotFoundError(f"{repo_type} {repo_id}@{revision} has no {filename}")
        return str(path)

    def load_dataset(path, name=None, *, split, revision=None, data_dir=None, **_):
        asked.append(("parquet", path, name, revision, data_dir, split))
        # the real reader over the copy: its configs (README.md), folders and file names
        return load(
            str(_repo(path, revision)),
            name,
            split=split,
            data_dir=data_dir,
            cache_dir=str(tmp_path / "datasets"),
        )

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", hf_hub_download)
    monkeypatch.setattr(datasets, "load_dataset", load_dataset)
    return asked


def evaluate(spec: str, rows: list[tuple[object, str]], out: Path) -> dict[str, float]:
    """pass@k of `rows` (task_id, completion) on `spec`, judged as `codelog eval` judges."""
    samples = out.with_suffix(".jsonl")
    samples.write_text("".join(json.dumps({"task_id": t, "completion": c}) + "\n" for t, c in rows))
    return codelog.evaluate(spec, samples_file=samples, out=out, quiet=True).overall


def evalplus_rows(repo: str) -> list[dict]:
    import pyarrow.parquet as pq

    return pq.read_table(next((_repo(repo, None) / "data").iterdir())).to_pylist()


def test_apps_loads_the_parquet_conversion_folder_all(hub: list[tuple]) -> None:
    from_hub = benchmarks.load("apps", "train")
    assert hub == [("parquet", "codeparrot/apps", None, "refs/convert/parquet", "all", "train")]
    from_file = benchmarks.load(f"apps:{APPS_ROWS}", "train")
    assert set(from_hub.tasks) == set(from_file.tasks) == {"1", "2404"}
    for tid, task in from_hub.tasks.items():
        assert task.problem == from_file.tasks[tid].problem


@pytest.mark.parametrize(
    ("spec", "files", "problems"),
    [
        ("livecodebench@release_v6", ["", "2", "3", "4", "5", "6"], {"abc301_a", "2727", "1873_A"}),
        ("livecodebench@v5", ["5"], {"2727"}),
        ("livecodebench@v4_v6", ["4", "5", "6"], {"2727", "1873_A"}),
        ("livecodebench@release_v1", [""], {"abc301_a"}),
        ("livecodebench", ["", "2", "3", "4", "5", "6"], {"abc301_a", "2727", "1873_A"}),
    ],
)
def test_livecodebench_downloads_the_files_of_the_release(
    hub: list[tuple], spec: str, files: list[str], problems: set[str]
) -> None:
    suite = benchmarks.load(spec)
    repo = "livecodebench/code_generation_lite"
    assert hub == [("file", repo, None, f"test{n}.jsonl") for n in files]
    assert set(suite.tasks) == problems
    local = benchmarks.load(f"livecodebench:{LCB_ROWS}")
    for tid, task in suite.tasks.items():  # the private tests decoded as from a local file
        assert task.problem == local.tasks[tid].problem


def test_a_release_that_is_not_there_names_the_versions() -> None:
    with pytest.raises(CodelogError, match="holds releases 1 to 6"):
        benchmarks.load("livecodebench@v7")
    with pytest.raises(CodelogError, match="apps has no versions"):
        benchmarks.load("apps@release_v1")
    with pytest.raises(CodelogError, match="@VERSION picks a release on the Hub"):
        benchmarks.load(f"livecodebench@v5:{LCB_ROWS}")


def test_humaneval_plus_judges_evalplus_checks(hub: list[tuple], tmp_path: Path) -> None:
    canonical = [(r["task_id"], r["canonical_solution"]) for r in evalplus_rows(HEP)]
    # HumanEval/2's 1.33 -> 0.33000000000000007 passes only by EvalPlus's float tolerance
    assert evaluate("humaneval+", canonical, tmp_path / "good") == {"pass@1": 1.0}
    assert hub[0] == ("parquet", HEP, None, None, None, "test")
    wrong = [
        ("HumanEval/2", "    return number % 1.0 + 1e-3\n"),  # outside the tolerance
        ("HumanEval/53", "    return x + y if x < 5 else x\n"),
    ]
    assert evaluate("humaneval+", wrong, tmp_path / "bad") == {"pass@1": 0.0}
    local = benchmarks.load(f"humaneval+:{_repo(HEP, None) / 'data'}")  # a copy of the Parquet
    assert local.problems == benchmarks.load("humaneval+").problems
    add = next(r for r in benchmarks.references("humaneval+") if r.task_id == "HumanEval/53")
    assert add.solutions == (add.statement + dict(canonical)["HumanEval/53"],)


def test_mbpp_plus_judges_evalplus_script(hub: list[tuple], tmp_path: Path) -> None:
    canonical = [(r["task_id"], r["code"]) for r in evalplus_rows(MBPP_PLUS)]
    assert evaluate("mbpp+", canonical, tmp_path / "good") == {"pass@1": 1.0}
    assert hub[0] == ("parquet", MBPP_PLUS, None, None, None, "test")
    prompt = benchmarks.load("mbpp+").tasks["2"].prompt
    assert "assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)" in prompt
    # EvalPlus compares exactly: a list where a tuple is expected fails
    wrong = [(2, "def similar_elements(a, b):\n    return sorted(set(a) & set(b))\n")]
    assert evaluate("mbpp+", wrong, tmp_path / "bad") == {"pass@1": 0.0}
    refs = {r.task_id: r for r in benchmarks.references("mbpp+")}
    assert refs["2"].solutions == (dict(canonical)[2],) and refs["2"].benchmark == "mbpp+"


def test_mbpp_loads_the_full_and_sanitized_configs(hub: list[tuple]) -> None:
    repo = "google-research-datasets/mbpp"
    full = benchmarks.load("mbpp", "train")  # the copy has no test split: see its README
    assert hub == [("parquet", repo, "full", None, None, "train")]
    local = benchmarks.load(f"mbpp:{MBPP_ROWS}", "train")
    assert full.tasks.keys() == local.tasks.keys() and len(full.tasks) == 5
    assert all(t.problem == local.tasks[tid].problem for tid, t in full.tasks.items())
    del hub[:]
    sanitized = benchmarks.load("mbpp:sanitized", "prompt")
    assert hub == [("parquet", repo, "sanitized", None, None, "prompt")]
    assert set(sanitized.tasks) == {"2", "3"}


def test_codecontests_loads_its_parquet_shards(hub: list[tuple]) -> None:
    suite = benchmarks.load("codecontests")
    assert hub == [("parquet", "deepmind/code_contests", None, None, None, "test")]
    local = benchmarks.load(f"codecontests:{CC_ROWS}")
    assert suite.tasks.keys() == local.tasks.keys() and len(suite.tasks) == 3
    for tid, task in suite.tasks.items():
        assert task.problem == local.tasks[tid].problem
        assert task.difficulty == local.tasks[tid].difficulty


def test_offline_each_hub_name_fails_at_once_naming_the_local_form(tmp_path: Path) -> None:
    # 4-8 s: one fresh interpreter (offline is read when huggingface_hub is imported) that
    # imports datasets and tries the four names in turn
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf"),
    }
    code = (
        "import codelog.benchmarks as b\n"
        "from codelog.errors import CodelogError\n"
        "for spec, split in [('apps', 'test'), ('livecodebench@release_v6', 'test'),"
        " ('humaneval+', 'test'), ('mbpp+', 'test')]:\n"
        "    try:\n"
        "        list(b.tasks(spec, split))\n"
        "    except CodelogError as exc:\n"
        "        print(exc)\n"
    )
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert time.monotonic() - start < 60
    lines = proc.stdout.splitlines()
    assert len(lines) == 4, proc.stdout + proc.stderr
    for line, (name, repo) in zip(
        lines,
        [
            ("apps", "codeparrot/apps"),
            ("livecodebench", "livecodebench/code_generation_lite/test.jsonl"),
            ("humaneval+", "evalplus/humanevalplus"),
            ("mbpp+", "evalplus/mbppplus"),
        ],
        strict=True,
    ):
        assert f"--benchmark {name}:PATH" in line and repo in line, line


def test_apps_reads_and_judges_integers_longer_than_str_converts(tmp_path: Path) -> None:
    # APPS's tests hold integers of up to 9,131 digits; Python converts 4,300 by default
    digits = "7" * 9131
    rows = {json.loads(line)["problem_id"]: json.loads(line) for line in APPS_ROWS.open()}
    call, stdio = rows[2404], rows[1]
    io = json.loads(call["input_output"])  # findKthPositive([1], k) is k + 1
    io["inputs"].append([[1], "BIG"])
    io["outputs"].append("BIG+1")
    big_test = f"test {len(io['inputs'])}"
    call["input_output"] = json.dumps(io).replace('"BIG"', digits)
    call["input_output"] = call["input_output"].replace('"BIG+1"', digits[:-1] + "8")
    io = json.loads(stdio["input_output"])
    io["outputs"][0] = "BIG"
    stdio["input_output"] = json.dumps(io).replace('"BIG"', f"-{digits}")
    path = tmp_path / "apps.jsonl"
    path.write_text(json.dumps(call) + "\n" + json.dumps(stdio) + "\n")
    limit = sys.get_int_max_str_digits()
    suite = benchmarks.load(f"apps:{path}", "train")
    assert sys.get_int_max_str_digits() == limit  # left as it was
    assert suite.tasks["1"].problem.tests[0].output == f"-{digits}"
    # the checker reads it exactly and it crosses to the program and back (in hex)
    from codelog.execution.judge import JudgeOptions, Program, judge_program

    solution = (
        "class Solution:\n    def findKthPositive(self, arr, k):\n        for a in arr:\n"
        "            if a <= k:\n                k += 1\n        return k\n"
    )
    problem = suite.tasks["2404"].problem
    good = judge_program(Program("good", "2404", solution), problem, JudgeOptions(warm=False))
    assert good.accepted, good.detail
    off = solution.replace("return k", "return k if k < 10**9 else k - 1")
    bad = judge_program(Program("bad", "2404", off), problem, JudgeOptions(warm=False))
    assert bad.status == "Wrong Answer" and big_test in (bad.detail or ""), bad.detail


def test_evalplus_integer_literals_longer_than_python_compiles(tmp_path: Path) -> None:
    # EvalPlus wrote its expected outputs with the digit limit raised; HumanEval/53 (add) here
    # with one such input and output, as a copy of the Hub's rows (.jsonl)
    row = next(r for r in evalplus_rows(HEP) if r["task_id"] == "HumanEval/53")
    big = "9" * 5000
    test = row["test"].replace("inputs = [", f"inputs = [[{big}, 1], ", 1)
    row["test"] = f"NOTE = '{big}'\n" + test.replace(
        "results = [", f"results = [1{'0' * 5000}, ", 1
    )
    path = tmp_path / "test.jsonl"
    path.write_text(json.dumps(row) + "\n")
    limit = sys.get_int_max_str_digits()
    (task,) = benchmarks.load(f"humaneval+:{path}").tasks.values()
    assert sys.get_int_max_str_digits() == limit
    assert f"NOTE = '{big}'" in task.problem.test_code  # a string's digits stay as they are
    wrong = "    return x + y if x < 10**4000 else x\n"
    rows = [("HumanEval/53", row["canonical_solution"]), ("HumanEval/53", wrong)]
    assert evaluate(f"humaneval+:{path}", rows, tmp_path / "o") == {"pass@1": 0.5}
