"""Write synthetic CodeContests or Codeforces-submissions Parquet shards of any size, for
benchmarking `codelog build --source codecontests|codeforces`.

    python bench/synth_sources.py --source codecontests --rows 1000000 --out /tmp/cc-1000000
    python bench/synth_sources.py --source codeforces --rows 1000000 --out /tmp/cf-1000000

The shards have the Hub's schemas (scripts/make_source_fixtures.py holds them, from the
dataset cards): `train-NNNNN-of-MMMMM.parquet`, one per block of problems, written by a
process pool. `--rows` counts the rows a Python build reads: Python 3 and Python 2 programs
and those of no known language; C++ and Java programs come on top (CodeContests: ~25% more),
as a build of one language skips them.

Programs are bench/synth_codenet.py's (its snippet catalogue, grammar, styles and
mutations): structurally distinct, with copies (renamed, reformatted) and one-token edits, so
dedup has real work. Per problem: ~100 Python programs (log-normal), half correct; incorrect
ones are mutations or syntax errors; 10% Python 2; 0.1% UNKNOWN_LANGUAGE (CodeContests) or an
unknown language name (Codeforces). CodeContests problems carry 1 public, 2 private and 2
generated tests; Codeforces verdicts follow a plausible mix, suffixes ("on test N") and
rejected verdicts (CHALLENGED, SKIPPED) included.

Deterministic by `--seed`, whatever `--workers`: each problem draws from its own generator.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import synth_codenet as synth
from make_source_fixtures import CODE_CONTESTS, SUBMISSIONS, submission_row

PROBLEMS_PER_SHARD = 500
PYTHON2, CPP, PYTHON3, JAVA, UNKNOWN = 1, 2, 3, 4, 0
CPP_CODE = '#include <cstdio>\nint main() {{ int n; std::scanf("%d", &n); return {k}; }}\n'
JAVA_CODE = "class Main {{ public static void main(String[] a) {{ System.exit({k}); }} }}\n"
VERDICTS = (
    ("OK", 0.45),
    ("WRONG_ANSWER", 0.28),
    ("TIME_LIMIT_EXCEEDED", 0.1),
    ("RUNTIME_ERROR", 0.08),
    ("MEMORY_LIMIT_EXCEEDED", 0.02),
    ("COMPILATION_ERROR", 0.03),
    ("IDLENESS_LIMIT_EXCEEDED", 0.005),
    ("CHALLENGED", 0.01),
    ("SKIPPED", 0.015),
    ("PARTIAL", 0.01),
)
PY3_NAMES = ("Python 3", "PyPy 3", "PyPy 3-64")
_G: dict = {}


def _programs(r: random.Random, n: int) -> list[tuple[str, bool, bool]]:
    """n programs of one problem: (code, correct, python2)."""
    new_program = synth.make_problem_programs(r, "AtCoder")
    styles, pool = _G["styles"], _G["pool"]
    made: list[synth.Program] = []
    out = []
    for _ in range(n):
        correct = r.random() < 0.5
        if not made or r.random() < 0.6:
            made.append(new_program())
            prog = made[-1]
        else:
            prog = made[r.randrange(len(made))]
        if not correct and r.random() < 0.7:
            prog = synth.mutate(prog, r, pool)
        py2 = r.random() < 0.1
        if py2:
            prog = synth.to_python2(prog)
        broken = not correct and r.random() < 0.05
        code = synth.render(prog, styles[r.randrange(len(styles))], r, broken)
        out.append((code.decode("utf-8", "replace"), correct, py2))
    return out


def _count(r: random.Random) -> int:
    return max(4, min(2000, int(r.lognormvariate(math.log(80), 0.7))))


def codecontests_shard(task: dict) -> int:
    rows = []
    for p, n in task["problems"]:
        r = random.Random(f"{_G['seed']}/codecontests/{p}")
        solutions: list[tuple[int, str]] = []
        incorrect: list[tuple[int, str]] = []
        for code, correct, py2 in _programs(r, n):
            lang = UNKNOWN if r.random() < 0.001 else PYTHON2 if py2 else PYTHON3
            (solutions if correct else incorrect).append((lang, code))
        for k in range(n // 4):  # C++ and Java programs a Python build skips
            (solutions if k % 2 else incorrect).append(
                (CPP, CPP_CODE.format(k=k)) if k % 3 else (JAVA, JAVA_CODE.format(k=k))
            )
        tests = [(f"{p} {k}\n", f"{p + k}\n") for k in range(5)]
        rows.append(
            {
                "name": f"{1000 + p // 6}_{'ABCDEF'[p % 6]}. Synthetic problem {p}",
                "description": f"Problem {p}. Read n and print n plus {p}. "
                + " ".join(
                    r.choice(("read", "the", "array", "sum", "of", "queries")) for _ in range(60)
                ),
                "public_tests": _tests(tests[:1]),
                "private_tests": _tests(tests[1:3]),
                "generated_tests": _tests(tests[3:]),
                "source": 2,
                "difficulty": 7 + p % 6,
                "solutions": _programs_struct(solutions),
                "incorrect_solutions": _programs_struct(incorrect),
                "cf_contest_id": 1000 + p // 6,
                "cf_index": "ABCDEF"[p % 6],
                "cf_points": 500.0,
                "cf_rating": 800 + 100 * (p % 20),
                "cf_tags": ["implementation"],
                "is_description_translated": False,
                "untranslated_description": "",
                "time_limit": {"seconds": 2, "nanos": 0},
                "memory_limit_bytes": 256 << 20,
                "input_file": "",
                "output_file": "",
            }
        )
    pq.write_table(pa.Table.from_pylist(rows, schema=CODE_CONTESTS), task["path"])
    return sum(n for _, n in task["problems"])


def codeforces_shard(task: dict) -> int:
    names = [v for v, _ in VERDICTS]
    weights = [w for _, w in VERDICTS]
    rows = []
    for p, n in task["problems"]:
        r = random.Random(f"{_G['seed']}/codeforces/{p}")
        contest, index = str(1000 + p // 6), "ABCDEF"[p % 6]
        for k, (code, correct, py2) in enumerate(_programs(r, n)):
            verdict = "OK" if correct else r.choices(names[1:], weights[1:])[0]
            if verdict == "WRONG_ANSWER":
                verdict += f" on test {r.randint(1, 40)}"
            language = (
                "Q#" if r.random() < 0.001
                else r.choice(("Python 2", "PyPy 2")) if py2
                else r.choice(PY3_NAMES)
            )  # fmt: skip
            rows.append(_submission(p, k, contest, index, language, verdict, code, r))
        for k in range(n // 4):  # C++ submissions a Python build skips
            rows.append(
                _submission(p, n + k, contest, index, "GNU C++17", "OK", CPP_CODE.format(k=k), r)
            )
    pq.write_table(pa.Table.from_pylist(rows, schema=SUBMISSIONS), task["path"])
    return sum(n for _, n in task["problems"])


def _submission(p, k, contest, index, language, verdict, code, r) -> dict:
    return submission_row(
        str(100_000_000 + p * 10_000 + k), code, contest, index, language, verdict,
        passed=r.randint(0, 40), millis=r.randint(15, 2000), memory=r.randint(1, 256) << 20,
        created=1_500_000_000 + p * 1000 + k,
    )  # fmt: skip


def _tests(pairs: list[tuple[str, str]]) -> dict:
    return {"input": [a for a, _ in pairs], "output": [b for _, b in pairs]}


def _programs_struct(items: list[tuple[int, str]]) -> dict:
    return {"language": [lang for lang, _ in items], "solution": [c for _, c in items]}


def _init(seed: int) -> None:
    style_rng = random.Random(f"styles/{seed}")
    _G.update(
        seed=seed,
        pool=synth.build_pool(seed),
        styles=[synth.Style(style_rng) for _ in range(64)],
    )
    synth._G["pool"] = _G["pool"]  # make_problem_programs reads the pool from there


def synthesise(source: str, rows: int, out: Path, seed: int = 0, workers: int = 2) -> dict:
    started = time.perf_counter()
    r = random.Random(f"plan/{seed}")
    problems: list[tuple[int, int]] = []
    total = 0
    while total < rows:
        n = min(_count(r), rows - total)
        problems.append((len(problems), n))
        total += n
    out.mkdir(parents=True, exist_ok=True)
    blocks = [
        problems[i : i + PROBLEMS_PER_SHARD] for i in range(0, len(problems), PROBLEMS_PER_SHARD)
    ]
    tasks = [
        {"problems": block, "path": out / f"train-{i:05d}-of-{len(blocks):05d}.parquet"}
        for i, block in enumerate(blocks)
    ]
    shard = codecontests_shard if source == "codecontests" else codeforces_shard
    with multiprocessing.get_context("fork").Pool(workers, _init, (seed,)) as pool:
        written = sum(pool.imap(shard, tasks))
    return {
        "rows": written,
        "problems": len(problems),
        "shards": len(tasks),
        "bytes": sum(t["path"].stat().st_size for t in tasks),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", choices=("codecontests", "codeforces"), required=True)
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        raise SystemExit(f"synth_sources: {args.out} is not empty")
    print(synthesise(args.source, args.rows, args.out, args.seed, args.workers))


if __name__ == "__main__":
    main()
