"""Label audit of a CodeNet tree: re-judge its programs on sample I/O, compare with the logs.

    python scripts/label_audit.py ../shared/data/codenet-mini-c            # print the tables
    python scripts/label_audit.py ../shared/data/codenet-mini-c --readme README.md

Reads `metadata/problem_list.csv` (limits, and the `dataset` column: the origin whose rules
judge), `metadata/pNNNNN.csv` (logged statuses) and the sources that exist under
`data/pNNNNN/LANG/` (a tree may hold only some languages). Prints two Markdown tables — per
language and per origin — of how many logged-Accepted programs re-judge Accepted, and how many
of every logged status re-judge to the same outcome. `--readme FILE` rewrites the block between
`<!-- label-audit:begin -->` and `<!-- label-audit:end -->` in FILE with them, so the README's
figures are this script's output, never copied by hand.
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--readme", type=Path)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--accepted-only", action="store_true")
    parser.add_argument("--show", action="store_true", help="print every disagreement")
    args = parser.parse_args(argv)
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
    if args.readme:
        text = args.readme.read_text(encoding="utf-8")
        if BEGIN not in text:
            print(f"{args.readme}: no {BEGIN} marker", file=sys.stderr)
            return 1
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
        args.readme.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
