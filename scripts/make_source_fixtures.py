"""Write the CodeContests and Codeforces fixtures (tests/fixtures/{codecontests,codeforces}/)
in the Hub's Parquet schemas, from real problems.

- codecontests/train-00000-of-00001.parquet: `deepmind/code_contests`' columns and types (the
  dataset card's: enums as int64, `{language: list<int64>, solution: list<string>}`, ...).
  Three Codeforces problems of ../shared/data/benchmarks/codecontests (statement, limits,
  tests: the first 2 public, the next 6 private, the next 4 generated), and one AtCoder
  problem of the bundled CodeNet sample (p02971: statement, samples as public tests,
  programs from codelog/data/codenet-mini), the kind CodeContests took from CodeNet.
  Programs: correct and incorrect solutions written for these problems, a renamed copy (an
  AST duplicate), Python 2, C++ and UNKNOWN_LANGUAGE (0) ones.
- codeforces/submissions.parquet: open-r1/codeforces-submissions' columns and types (strings,
  the counts as float64), rows for the same three Codeforces problems with every verdict kind.
- codeforces/problems.parquet: open-r1/codeforces' (config verifiable) columns the source
  reads, for those problems, official tests included.

Deterministic: run it again and the files are byte-identical.

    python scripts/make_source_fixtures.py [--benchmarks ../shared/data/benchmarks]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
CODENET = REPO / "codelog" / "data" / "codenet-mini"
PROBLEMS = ("1000_A. Codehorses T-shirts", "12_B. Correct Solution?", "1198_A. MP3")

# CodeContests' enums (contest_problem.proto): SOURCE, DIFFICULTY, LANGUAGE.
CODEFORCES, ATCODER = 2, 5
PYTHON2, CPP, PYTHON3, JAVA, UNKNOWN = 1, 2, 3, 4, 0

CORRECT = {
    "1000_A. Codehorses T-shirts": [
        "from collections import Counter\n"
        "n = int(input())\n"
        "old = Counter(input() for _ in range(n))\n"
        "changes = 0\n"
        "for _ in range(n):\n"
        "    size = input()\n"
        "    if old[size]:\n"
        "        old[size] -= 1\n"
        "    else:\n"
        "        changes += 1\n"
        "print(changes)\n",
    ],
    "12_B. Correct Solution?": [
        "n = input().strip()\n"
        "m = input().strip()\n"
        "digits = sorted(n)\n"
        "if digits[0] == '0' and len(digits) > 1:\n"
        "    first = next(i for i, d in enumerate(digits) if d != '0')\n"
        "    digits[0], digits[first] = digits[first], digits[0]\n"
        "print('OK' if ''.join(digits) == m else 'WRONG_ANSWER')\n",
    ],
    "1198_A. MP3": [
        "from collections import Counter\n"
        "n, I = map(int, input().split())\n"
        "counts = sorted(Counter(map(int, input().split())).items())\n"
        "k = min(8 * I // n, 30)\n"
        "K = 2 ** k\n"
        "sizes = [c for _, c in counts]\n"
        "window = sum(sizes[:K])\n"
        "best = window\n"
        "for i in range(K, len(sizes)):\n"
        "    window += sizes[i] - sizes[i - K]\n"
        "    best = max(best, window)\n"
        "print(n - best)\n",
    ],
}
# Wrong on the tests, each its own way: a wrong answer, a crash, a loop, a syntax error.
INCORRECT = {
    "1000_A. Codehorses T-shirts": [
        "n = int(input())\n"
        "old = [input() for _ in range(n)]\n"
        "new = [input() for _ in range(n)]\n"
        "print(len(set(new) - set(old)))\n",
        "n = int(input())\nprint(n // 0)\n",
    ],
    "12_B. Correct Solution?": [
        "n = input().strip()\n"
        "m = input().strip()\n"
        "print('OK' if ''.join(sorted(n)) == m else 'WRONG_ANSWER')\n",
        "n = input(\nprint('OK')\n",
    ],
    "1198_A. MP3": [
        "n, I = map(int, input().split())\nwhile True:\n    n += 1\n",
        "n, I = map(int, input().split())\nprint(n)\n",
    ],
}
CPP_CODE = (
    '#include <cstdio>\nint main() { int n; std::scanf("%d", &n); std::printf("%d\\n", n); }\n'
)
PY2 = "n = int(raw_input())\nprint n\n"
JAVA_CODE = "class Main { public static void main(String[] a) { System.out.println(0); } }\n"


def renamed(code: str) -> str:
    """The same program with other names and a comment: an AST duplicate of `code`."""
    return "# the same, renamed\n" + code.replace("changes", "moves").replace("digits", "ds")


def sandboxfusion_rows(benchmarks: Path) -> dict[str, dict]:
    path = benchmarks / "codecontests" / "sandboxfusion-code-contests-20.jsonl"
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        # SandboxFusion stores these as JSON text
        row["labels"], row["test"] = json.loads(row["labels"]), json.loads(row["test"])
        if row["labels"]["name"] in PROBLEMS:
            rows[row["labels"]["name"]] = row
    return rows


def tests(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    return {"input": [a for a, _ in pairs], "output": [b for _, b in pairs]}


def programs(items: list[tuple[int, str]]) -> dict[str, list]:
    return {"language": [lang for lang, _ in items], "solution": [code for _, code in items]}


CODE_CONTESTS = pa.schema(
    [
        ("name", pa.string()),
        ("description", pa.string()),
        ("public_tests", pa.struct([("input", pa.list_(pa.string())), ("output", pa.list_(pa.string()))])),
        ("private_tests", pa.struct([("input", pa.list_(pa.string())), ("output", pa.list_(pa.string()))])),
        ("generated_tests", pa.struct([("input", pa.list_(pa.string())), ("output", pa.list_(pa.string()))])),
        ("source", pa.int64()),
        ("difficulty", pa.int64()),
        ("solutions", pa.struct([("language", pa.list_(pa.int64())), ("solution", pa.list_(pa.string()))])),
        ("incorrect_solutions", pa.struct([("language", pa.list_(pa.int64())), ("solution", pa.list_(pa.string()))])),
        ("cf_contest_id", pa.int64()),
        ("cf_index", pa.string()),
        ("cf_points", pa.float64()),
        ("cf_rating", pa.int64()),
        ("cf_tags", pa.list_(pa.string())),
        ("is_description_translated", pa.bool_()),
        ("untranslated_description", pa.string()),
        ("time_limit", pa.struct([("seconds", pa.int64()), ("nanos", pa.int64())])),
        ("memory_limit_bytes", pa.int64()),
        ("input_file", pa.string()),
        ("output_file", pa.string()),
    ]
)  # fmt: skip
DIFFICULTY_LETTER = {letter: 7 + i for i, letter in enumerate("ABCDEFGHIJKLMNOPQRSTUV")}
RATINGS = {
    "1000_A. Codehorses T-shirts": 1200,
    "12_B. Correct Solution?": 1100,
    "1198_A. MP3": 1600,
}


def codeforces_row(name: str, row: dict) -> dict:
    pairs = [(t["input"]["stdin"], t["output"]["stdout"]) for t in row["test"]][:12]
    contest, _, rest = name.partition("_")
    index = rest.partition(".")[0]
    correct = CORRECT[name]
    solutions = [(PYTHON3, c) for c in correct] + [(PYTHON3, renamed(correct[0])), (CPP, CPP_CODE)]
    incorrect = [(PYTHON3, c) for c in INCORRECT[name]]
    if name == PROBLEMS[0]:
        solutions += [(PYTHON2, PY2), (JAVA, JAVA_CODE), (UNKNOWN, "print(1)\n")]
        incorrect += [(PYTHON2, PY2)]
    return {
        "name": name,
        "description": row["content"],
        "public_tests": tests(pairs[:2]),
        "private_tests": tests(pairs[2:8]),
        "generated_tests": tests(pairs[8:12]),
        "source": CODEFORCES,
        "difficulty": DIFFICULTY_LETTER[row["labels"]["difficulty"]],
        "solutions": programs(solutions),
        "incorrect_solutions": programs(incorrect),
        "cf_contest_id": int(contest),
        "cf_index": index,
        "cf_points": 500.0,
        "cf_rating": RATINGS[name],
        "cf_tags": ["implementation"],
        "is_description_translated": False,
        "untranslated_description": "",
        "time_limit": {"seconds": 2, "nanos": 0},
        "memory_limit_bytes": 256 * 1024 * 1024,
        "input_file": "",
        "output_file": "",
    }


def atcoder_row() -> dict:
    """p02971 of the bundled CodeNet sample as CodeContests holds an AtCoder problem."""
    from codelog.execution.testcases import codenet_problems

    problem = codenet_problems(CODENET, ["p02971"])["p02971"]
    meta = (CODENET / "metadata" / "p02971.csv").read_text(encoding="utf-8").splitlines()[1:]
    by_status: dict[str, list[str]] = {}
    for line in meta:
        sid, _, _, _, _, original, _, status = line.split(",")[:8]
        if original.startswith("Python (3"):
            by_status.setdefault(status, []).append(sid)
    code_dir = CODENET / "data" / "p02971" / "Python"
    read = lambda sid: (code_dir / f"{sid}.py").read_text(encoding="utf-8")  # noqa: E731
    solutions = [(PYTHON3, read(sid)) for sid in sorted(by_status["Accepted"])[:3]]
    incorrect = [(PYTHON3, read(sid)) for sid in sorted(by_status["Wrong Answer"])[:3]]
    pairs = [(t.input, t.output) for t in problem.tests]
    return {
        "name": "p02971 AtCoder Beginner Contest 134 - Exception Handling",
        "description": problem.statement,
        "public_tests": tests(pairs),
        "private_tests": tests([]),
        "generated_tests": tests([]),
        "source": ATCODER,
        "difficulty": 0,
        "solutions": programs(solutions),
        "incorrect_solutions": programs(incorrect),
        "cf_contest_id": 0,
        "cf_index": "",
        "cf_points": 0.0,
        "cf_rating": 0,
        "cf_tags": [],
        "is_description_translated": False,
        "untranslated_description": "",
        "time_limit": {"seconds": 2, "nanos": 0},
        "memory_limit_bytes": 1024 * 1024 * 1024,
        "input_file": "",
        "output_file": "",
    }


SUBMISSIONS = pa.schema(
    [
        ("submission_id", pa.string()),
        ("source", pa.string()),
        ("contestId", pa.string()),
        ("problem_index", pa.string()),
        ("programmingLanguage", pa.string()),
        ("verdict", pa.string()),
        ("testset", pa.string()),
        ("passedTestCount", pa.float64()),
        ("timeConsumedMillis", pa.float64()),
        ("memoryConsumedBytes", pa.float64()),
        ("creationTimeSeconds", pa.float64()),
        ("problem_id", pa.string()),
    ]
)


# (language, verdict, program) per problem: every verdict kind, with suffixes and rejects.
def submissions(name: str) -> list[tuple[str, str, str]]:
    right, wrong = CORRECT[name][0], INCORRECT[name]
    return [
        ("Python 3", "OK", right),
        ("PyPy 3-64", "OK", renamed(right)),
        ("Python 3", "WRONG_ANSWER", wrong[0]),
        ("Python 3", "WRONG_ANSWER on test 2", wrong[0] + "# again\n"),
        ("PyPy 3", "RUNTIME_ERROR", wrong[1]),
        ("Python 3", "TIME_LIMIT_EXCEEDED", "while True:\n    pass\n"),
        ("Python 3", "MEMORY_LIMIT_EXCEEDED", "x = [0] * 10 ** 10\n"),
        ("Python 3", "COMPILATION_ERROR", "print(\n"),
        ("Python 3", "CHALLENGED", right + "# hacked\n"),
        ("Python 3", "SKIPPED", "print(0)\n"),
        ("Python 2", "OK", PY2),
        ("GNU C++17", "OK", CPP_CODE),
        ("Kotlin 1.7", "WRONG_ANSWER", "fun main() { println(0) }\n"),
        ("Q#", "OK", "namespace Solution { }\n"),
    ]


def submission_row(
    submission_id: str,
    code: str,
    contest: str,
    index: str,
    language: str,
    verdict: str,
    *,
    passed: int,
    millis: int,
    memory: int,
    created: int,
) -> dict:
    """One open-r1/codeforces-submissions row (the judge's figures as float64, as published)."""
    return {
        "submission_id": submission_id,
        "source": code,
        "contestId": contest,
        "problem_index": index,
        "programmingLanguage": language,
        "verdict": verdict,
        "testset": "TESTS",
        "passedTestCount": float(passed),
        "timeConsumedMillis": float(millis),
        "memoryConsumedBytes": float(memory),
        "creationTimeSeconds": float(created),
        "problem_id": f"{contest}{index}",
    }


def codeforces_submissions() -> pa.Table:
    rows = []
    for p, name in enumerate(PROBLEMS):
        contest, _, rest = name.partition("_")
        index = rest.partition(".")[0]
        for k, (language, verdict, code) in enumerate(submissions(name)):
            rows.append(
                submission_row(
                    str(40_000_000 + 100 * p + k), code, contest, index, language, verdict,
                    passed=12 if verdict == "OK" else k % 4, millis=15 * k,
                    memory=1024 * 1024 * (k + 1), created=1_600_000_000 + 60 * (100 * p + k),
                )
            )  # fmt: skip
    return pa.Table.from_pylist(rows, schema=SUBMISSIONS)


CF_PROBLEMS = pa.schema(
    [
        ("id", pa.string()),
        ("contest_id", pa.int64()),
        ("index", pa.string()),
        ("title", pa.string()),
        ("description", pa.string()),
        ("input_format", pa.string()),
        ("output_format", pa.string()),
        ("time_limit", pa.float64()),
        ("memory_limit", pa.float64()),
        ("rating", pa.int64()),
        ("tags", pa.list_(pa.string())),
        ("official_tests", pa.list_(pa.struct([("input", pa.string()), ("output", pa.string())]))),
    ]
)


def codeforces_problems(rows: dict[str, dict]) -> pa.Table:
    out = []
    for name in PROBLEMS:
        contest, _, rest = name.partition("_")
        index, _, title = rest.partition(". ")
        pairs = [(t["input"]["stdin"], t["output"]["stdout"]) for t in rows[name]["test"]][:12]
        out.append(
            {
                "id": f"{contest}/{index}",
                "contest_id": int(contest),
                "index": index,
                "title": title.strip(),
                "description": rows[name]["content"],
                "input_format": None,
                "output_format": None,
                "time_limit": 2.0,
                "memory_limit": 256.0,
                "rating": RATINGS[name],
                "tags": ["implementation"],
                "official_tests": [{"input": a, "output": b} for a, b in pairs],
            }
        )
    return pa.Table.from_pylist(out, schema=CF_PROBLEMS)


def write(table: pa.Table, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, compression="zstd")
    print(f"wrote {table.num_rows} rows to {path.relative_to(REPO)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = next((p / "shared" for p in REPO.parents if (p / "shared" / "data").is_dir()), REPO)
    parser.add_argument("--benchmarks", type=Path, default=shared / "data" / "benchmarks")
    args = parser.parse_args()
    real = sandboxfusion_rows(args.benchmarks)
    rows = [codeforces_row(name, real[name]) for name in PROBLEMS] + [atcoder_row()]
    write(
        pa.Table.from_pylist(rows, schema=CODE_CONTESTS),
        FIXTURES / "codecontests" / "train-00000-of-00001.parquet",
    )
    write(codeforces_submissions(), FIXTURES / "codeforces" / "submissions.parquet")
    write(codeforces_problems(real), FIXTURES / "codeforces" / "problems.parquet")


if __name__ == "__main__":
    main()
