"""Label audit of a CodeNet tree: re-judge its programs on sample I/O, compare with the logs.

    python scripts/label_audit.py tests/fixtures/codenet-mini-c            # print the tables
    python scripts/label_audit.py tests/fixtures/codenet-mini-c --readme docs/running-code.md
    python scripts/label_audit.py --written --readme docs/running-code.md  # the tests' programs

Reads `metadata/problem_list.csv` (limits, and the `dataset` column: the origin whose rules
judge), `metadata/pNNNNN.csv` (logged statuses) and the sources that exist under
`data/pNNNNN/LANG/` (a tree may hold only some languages). Prints two Markdown tables — per
language and per origin — of how many logged-Accepted programs re-judge Accepted, and how many
of every logged status re-judge to the same outcome. `--readme FILE` rewrites the block between
`<!-- label-audit:begin -->` and `<!-- label-audit:end -->` in FILE with them, so the published
figures are this script's output, never copied by hand.

`--written` judges instead the programs written to exercise each rule and each language
(tests/execution/written_programs.py) under AIZU's and AtCoder's rules, and compares each verdict
with the one that origin gives (block `label-audit-written`).
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from codelog.execution.judge import Program, Verdict, judge_many
from codelog.execution.testcases import codenet_problems

BEGIN, END = "<!-- label-audit:begin -->", "<!-- label-audit:end -->"
REPO = Path(__file__).resolve().parents[1]


def codenet_programs(root: Path, *, status: str | None = None) -> list[Program]:
    """Every program of the tree whose source file exists (optionally only one logged status)."""
    programs = []
    for meta in sorted((root / "metadata").glob("p[0-9]*.csv")):
        with meta.open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                if status is not None and row["status"] != status:
                    continue
                path = (
                    root
                    / "data"
                    / row["problem_id"]
                    / row["language"]
                    / f"{row['submission_id']}.{row['filename_ext']}"
                )
                if not path.is_file():
                    continue
                programs.append(
                    Program(
                        submission_id=row["submission_id"],
                        problem_id=row["problem_id"],
                        code=path.read_text(encoding="utf-8", errors="replace"),
                        language=row["language"],
                        original_language=row["original_language"],
                        logged_status=row["status"],
                    )
                )
    return programs


def _same(logged: str, judged: str) -> bool:
    return logged == judged


def tables(
    programs: list[Program], results: list, origins: dict[str, str]
) -> tuple[str, dict[str, tuple[int, int]]]:
    """The Markdown tables, and (accepted agreeing, accepted judged) per language and origin."""
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    agree: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses: dict[str, Counter[str]] = defaultdict(Counter)
    for program, result in zip(programs, results, strict=True):
        judged = result.status if isinstance(result, Verdict) else "skipped"
        keys = (
            f"language {program.language}",
            f"origin {origins.get(program.problem_id, '?')}",
            "all",
        )
        for key in keys:
            agree[key][1] += 1
            agree[key][0] += _same(program.logged_status or "", judged)
            if program.logged_status == "Accepted":
                acc[key][1] += 1
                acc[key][0] += judged == "Accepted"
                if judged != "Accepted":
                    misses[key][judged] += 1
    lines = [
        "| programs | Accepted re-judged Accepted | all statuses re-judged the same | "
        "Accepted judged otherwise |",
        "| --- | --- | --- | --- |",
    ]
    for key in sorted(agree, key=lambda k: (k == "all", k)):
        a, n = acc[key]
        s, m = agree[key]
        other = ", ".join(f"{v} {k}" for k, v in misses[key].most_common()) or "—"
        share = f"{100 * a / n:.1f}%" if n else "—"
        lines.append(f"| {key} | {a}/{n} = {share} | {s}/{m} = {100 * s / m:.1f}% | {other} |")
    return "\n".join(lines) + "\n", {k: (v[0], v[1]) for k, v in acc.items()}


def origins_of(root: Path) -> dict[str, str]:
    listing = root / "metadata" / "problem_list.csv"
    with listing.open(newline="", encoding="utf-8") as f:
        return {r["id"]: r.get("dataset") or "" for r in csv.DictReader(f)}


def written_table() -> str:
    """The written programs, each judged under both origins' rules, against what each gives."""
    sys.path.insert(0, str(REPO))
    from codelog.execution import languages
    from codelog.execution.compare import Tolerance
    from codelog.execution.judge import judge_program
    from codelog.execution.testcases import Problem, TestCase
    from tests.execution.written_programs import (
        MEMORY_LIMIT_KB,
        PROGRAMS,
        RULE_PROGRAMS,
        TIME_LIMIT_MS,
    )

    origins = ("AIZU", "AtCoder")
    lines = [
        "| program | language | " + " | ".join(f"{o}: expected → judged" for o in origins) + " |",
        "| --- | --- | " + " | ".join("---" for _ in origins) + " |",
    ]
    agree = total = 0

    def cell(expected: str, judged: str) -> str:
        nonlocal agree, total
        total += 1
        agree += expected == judged
        return f"{expected} → {judged}" + ("" if expected == judged else " **differs**")

    for rule in RULE_PROGRAMS:
        cells = []
        for origin in origins:
            tolerance = rule.float_tolerance
            problem = Problem(
                "rule",
                (TestCase("sample 1", rule.input, rule.expected_output),),
                time_limit_ms=TIME_LIMIT_MS[origin],
                memory_limit_kb=MEMORY_LIMIT_KB[origin],
                tolerance=Tolerance(tolerance, tolerance) if tolerance else None,
                origin=origin,
            )
            verdict = judge_program(Program("w", "rule", rule.code, "C"), problem)
            cells.append(cell(rule.verdicts[origin], verdict.status))
        lines.append(f"| {rule.name} | C | " + " | ".join(cells) + " |")
    for language in sorted(PROGRAMS):
        missing = languages.available(language)
        accepted, wrong, crash, syntax, syntax_verdict = PROGRAMS[language]
        for name, code, expected in (
            ("accepted", accepted, "Accepted"),
            ("wrong answer", wrong, "Wrong Answer"),
            ("runtime error", crash, "Runtime Error"),
            ("syntax error", syntax, syntax_verdict),
        ):
            if missing is not None:
                lines.append(f"| {name} | {language} | skipped: {missing} | |")
                continue
            cells = []
            for origin in origins:
                problem = Problem(
                    "add",
                    (TestCase("sample 1", "1 2\n", "3\n"), TestCase("sample 2", "40 2\n", "42\n")),
                    time_limit_ms=TIME_LIMIT_MS[origin],
                    memory_limit_kb=MEMORY_LIMIT_KB[origin],
                    origin=origin,
                )
                verdict = judge_program(Program("w", "add", code, language), problem)
                cells.append(cell(expected, verdict.status))
            lines.append(f"| {name} | {language} | " + " | ".join(cells) + " |")
    lines.append(f"| **all** | | {agree}/{total} verdicts as the origin gives | |")
    return "\n".join(lines) + "\n"


def _replace_block(readme: Path, begin: str, end: str, block: str) -> int:
    text = readme.read_text(encoding="utf-8")
    if begin not in text:
        print(f"{readme}: no {begin} marker", file=sys.stderr)
        return 1
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    readme.write_text(text, encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, nargs="?")
    parser.add_argument("--written", action="store_true", help="the written programs instead")
    parser.add_argument("--readme", type=Path)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--accepted-only", action="store_true")
    parser.add_argument("--show", action="store_true", help="print every disagreement")
    args = parser.parse_args(argv)
    if args.written:
        begin, end = BEGIN.replace("audit", "audit-written"), END.replace("audit", "audit-written")
        block = f"{begin}\n`python scripts/label_audit.py --written`:\n\n{written_table()}{end}"
        print(block)
        return _replace_block(args.readme, begin, end, block) if args.readme else 0
    if args.root is None:
        parser.error("a CodeNet tree, or --written")
    root: Path = args.root
    programs = codenet_programs(root, status="Accepted" if args.accepted_only else None)
    problems = codenet_problems(root, {p.problem_id for p in programs})
    start = time.monotonic()
    results = judge_many(programs, problems, workers=args.workers)
    seconds = time.monotonic() - start
    table, _ = tables(programs, results, origins_of(root))
    if args.show:
        for program, result in zip(programs, results, strict=True):
            judged = result.status if isinstance(result, Verdict) else result.reason
            if judged != program.logged_status:
                detail = result.detail if isinstance(result, Verdict) else ""
                print(
                    f"{program.problem_id}/{program.submission_id} logged "
                    f"{program.logged_status!r} judged {judged!r}: {detail[:160]}"
                )
    command = f"python scripts/label_audit.py {root.name}" + (
        " --accepted-only" if args.accepted_only else ""
    )
    block = (
        f"{BEGIN}\n`{command}` ({len(programs)} programs on sample I/O, {seconds:.0f} s):\n\n"
        f"{table}{END}"
    )
    print(block)
    return _replace_block(args.readme, BEGIN, END, block) if args.readme else 0


if __name__ == "__main__":
    raise SystemExit(main())
