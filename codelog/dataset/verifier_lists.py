"""`codelog export --format verifier-lists`: Aletheia-style candidate lists for code verifiers.

A list is one problem (in one language) with 2-5 candidate programs whose pass rates are all
different and exactly one of which is fully correct, so the ranking a verifier should produce
is never ambiguous. The truth is the judge's:

- pass rate: 1.0 for an accepted solution; otherwise `accuracy` ("passed/total"), which
  CodeNet logs for AIZU problems and a judged dataset (built from `codelog judge`'s CI-schema
  rows, `--source ci`) carries for every row. A rejected solution without a test count has no
  known pass rate and is not a candidate; one that passed every test yet was not accepted
  (e.g. a presentation error) is left out too, since it would be a second "fully correct" one.
- Easy bucket: every incorrect candidate passes at most `easy_max_pass_rate` (0.5) of the
  tests (Aletheia's Easy: PR in [0, 0.5]).
- Hard bucket: every incorrect candidate passes at least `hard_min_pass_rate` (0.7) of the
  tests (Aletheia's Hard: PR in [0.7, 0.9]) and its code is near-identical to the correct
  candidate's: token similarity >= `hard_similarity` (0.6), where token similarity is
  difflib's ratio 2*M/T over the two programs' lexical tokens (identifiers, numbers, string
  literals, operators; comments dropped): the share of tokens that line up. On the bundled
  sample the closest accepted program to a 70-80% one scores 0.47-0.67: the same algorithm
  with a bug, written with another input-reading style or wrapper.

Per problem and bucket, up to `lists_per_problem` distinct lists are drawn with a seeded RNG:
a size from `list_size` (among the sizes the problem can fill), a correct candidate, that
many - 1 distinct pass rates and a candidate for each, then the candidates shuffled. The same
dataset, options and seed give the same file.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from codelog import kinds
from codelog.dataset.open import open_dataset, read_manifest
from codelog.errors import CodelogError
from codelog.files import replacing
from codelog.prompts import render_prompt
from codelog.recipe import Recipe
from codelog.sql import literal

EASY_MAX_PASS_RATE = 0.5
HARD_MIN_PASS_RATE = 0.7
HARD_SIMILARITY = 0.6
LISTS_PER_PROBLEM = 8
DEFAULT_LIST_SIZE = "2-5"
_TRIES = 20  # draws per wanted list before a (problem, bucket) is taken as exhausted

CANDIDATE = pa.struct(
    [
        ("submission_id", pa.string()),
        ("outcome", pa.string()),
        ("accuracy", pa.string()),
        ("pass_rate", pa.float64()),
        ("code", pa.string()),
    ]
)
LIST = pa.schema(
    [
        ("list_id", pa.string()),  # problem/language/bucket/k
        ("problem_id", pa.string()),
        ("language", pa.string()),
        ("bucket", pa.string()),  # easy or hard
        ("prompt", pa.string()),  # the problem's prompt (codelog.prompts.render_prompt)
        ("candidates", pa.list_(CANDIDATE)),  # in the order shown to the verifier
        ("pass_rates", pa.list_(pa.float64())),  # of the candidates, in that order
        ("correct_index", pa.int64()),  # 0-based position of the fully correct candidate
        ("min_similarity", pa.float64()),  # least token similarity of a candidate to it
    ]
)

_TOKEN = re.compile(r"""[A-Za-z_]\w*|\d+(?:\.\d+)?|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\S""")
_COMMENT = {
    "python": re.compile(r"#[^\n]*"),
    "ruby": re.compile(r"#[^\n]*"),
}
_C_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def tokens(code: str, language: str) -> list[str]:
    """Lexical tokens of a program, comments dropped (what token similarity compares)."""
    comment = _COMMENT.get(language.lower(), _C_COMMENT)
    return _TOKEN.findall(comment.sub(" ", code))


def similarity(a: list[str], b: list[str]) -> float:
    """difflib's ratio 2*M/T of two token lists: 1.0 when identical, 0.0 when disjoint."""
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def pass_rate(outcome: str, accuracy: str | None) -> float | None:
    """The share of tests passed, or None when the judge logged no test count."""
    if outcome == "accepted":
        return 1.0
    passed, _, total = (accuracy or "").partition("/")
    if passed.isdigit() and total.isdigit() and 0 <= int(passed) <= int(total) and int(total):
        return int(passed) / int(total)
    return None


def parse_list_size(text: str) -> tuple[int, int]:
    """ "3" -> (3, 3); "2-5" -> (2, 5); sizes within 2..5."""
    low, _, high = str(text).partition("-")
    try:
        sizes = (int(low), int(high or low))
    except ValueError:
        raise CodelogError(f"--list-size {text!r}: a size (3) or a range (2-5)") from None
    if not 2 <= sizes[0] <= sizes[1] <= 5:
        raise CodelogError(f"--list-size {text!r}: sizes must lie within 2..5")
    return sizes


@dataclass(frozen=True)
class ListsReport:
    out: Path
    lists: int
    by_bucket: dict[str, int]
    by_size: dict[int, int]
    problems: int
    candidates_unscored: int  # solutions without a known pass rate (not candidates)


@dataclass(frozen=True)
class _Candidate:
    submission_id: str
    outcome: str
    accuracy: str | None
    pass_rate: float
    code: str
    tokens: list[str]


def export_list_splits(
    dataset: str | Path,
    out: str | Path,
    *,
    split: str | None = None,
    force: bool = False,
    list_size: str = DEFAULT_LIST_SIZE,
    seed: int = 0,
    lists_per_problem: int = LISTS_PER_PROBLEM,
    hard_similarity: float = HARD_SIMILARITY,
) -> list[tuple[str, ListsReport]]:
    """`codelog export --format verifier-lists`: the lists of a solutions dataset, a file per
    split as every export writes them (codelog.dataset.export.split_targets); (split, report)
    for each file. Outputs follow codelog.files.check_output_file, all checked first."""
    from codelog.dataset.export import split_targets
    from codelog.dataset.open import check_dataset
    from codelog.files import check_output_file, writing

    root = Path(dataset).resolve()
    check_dataset(root)
    targets = split_targets(Path(out).resolve(), split)
    for _, target in targets:
        check_output_file(target, force=force, inputs=[root])
    written = []
    for name, target in targets:
        with writing(target):
            lists = export_verifier_lists(
                root,
                target,
                list_size=list_size,
                seed=seed,
                lists_per_problem=lists_per_problem,
                hard_similarity=hard_similarity,
                split=name,
            )
        written.append((name, lists))
    return written


def export_verifier_lists(
    dataset: str | Path,
    out: str | Path,
    *,
    list_size: str = DEFAULT_LIST_SIZE,
    seed: int = 0,
    lists_per_problem: int = LISTS_PER_PROBLEM,
    easy_max_pass_rate: float = EASY_MAX_PASS_RATE,
    hard_min_pass_rate: float = HARD_MIN_PASS_RATE,
    hard_similarity: float = HARD_SIMILARITY,
    split: str = "all",
) -> ListsReport:
    """Write the verifier lists of a solutions dataset's `split` (train, test or all) to the
    Parquet file `out`; its metadata names the split (`codelog.export`)."""
    sizes = parse_list_size(list_size)
    if lists_per_problem < 1:
        raise CodelogError("--lists-per-problem must be at least 1")
    root = Path(dataset).resolve()
    manifest = read_manifest(root)
    kinds.VERIFIER_LISTS.expect(manifest, root, "verifier lists are drawn from a solutions dataset")
    recipe = Recipe.from_dict(manifest["recipe"], where=f"{root}/manifest.json recipe")
    out = Path(out).resolve()
    if out.is_dir():
        raise CodelogError(f"{out}: is a directory; --out names the Parquet file to write")

    con = open_dataset(root)
    try:
        statements = dict(con.sql("SELECT problem_id, prompt FROM problems").fetchall())
        groups: dict[tuple[str, str], list[_Candidate]] = defaultdict(list)
        unscored = 0
        for pid, lang, sid, outcome, accuracy, code in con.sql(
            "SELECT problem_id, language, submission_id, outcome, accuracy, code FROM solutions "
            + ("" if split == "all" else f"WHERE split = {literal(split)} ")
            + "ORDER BY problem_id, language, submission_id"
        ).fetchall():
            rate = pass_rate(outcome, accuracy)
            if rate is None or (rate == 1.0 and outcome != "accepted"):
                unscored += rate is None
                continue
            groups[(pid, lang)].append(
                _Candidate(sid, outcome, accuracy, rate, code or "", tokens(code or "", lang))
            )
    finally:
        con.close()

    records: list[dict[str, Any]] = []
    for (pid, lang), candidates in sorted(groups.items()):
        if not statements.get(pid):
            continue
        prompt = render_prompt(recipe.prompt.template, statements[pid], lang)
        correct = [c for c in candidates if c.pass_rate == 1.0]
        wrong = [c for c in candidates if c.pass_rate < 1.0]
        buckets = {
            "easy": [c for c in wrong if c.pass_rate <= easy_max_pass_rate],
            "hard": [c for c in wrong if c.pass_rate >= hard_min_pass_rate],
        }
        for bucket, pool in buckets.items():
            similar = 0.0 if bucket == "easy" else hard_similarity
            drawn = _draw(
                correct, pool, sizes, lists_per_problem, similar, (seed, pid, lang, bucket)
            )
            for k, (chosen, sims) in enumerate(drawn):
                records.append(
                    {
                        "list_id": f"{pid}/{lang}/{bucket}/{k}",
                        "problem_id": pid,
                        "language": lang,
                        "bucket": bucket,
                        "prompt": prompt,
                        "candidates": [{f: getattr(c, f) for f in CANDIDATE.names} for c in chosen],
                        "pass_rates": [c.pass_rate for c in chosen],
                        "correct_index": next(
                            i for i, c in enumerate(chosen) if c.pass_rate == 1.0
                        ),
                        "min_similarity": min(sims),
                    }
                )
    held = {b"codelog.export": json.dumps({"format": "verifier-lists", "split": split}).encode()}
    table = pa.Table.from_pylist(
        records, schema=LIST.with_metadata({**(LIST.metadata or {}), **held})
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    with replacing(out) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    by_bucket: dict[str, int] = defaultdict(int)
    by_size: dict[int, int] = defaultdict(int)
    for r in records:
        by_bucket[r["bucket"]] += 1
        by_size[len(r["candidates"])] += 1
    return ListsReport(
        out=out,
        lists=len(records),
        by_bucket=dict(sorted(by_bucket.items())),
        by_size=dict(sorted(by_size.items())),
        problems=len({r["problem_id"] for r in records}),
        candidates_unscored=unscored,
    )


def _rng(key: tuple) -> np.random.Generator:
    digest = hashlib.sha256("\0".join(map(str, key)).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _draw(
    correct: list[_Candidate],
    pool: list[_Candidate],
    sizes: tuple[int, int],
    wanted: int,
    min_similarity: float,
    key: tuple,
) -> list[tuple[list[_Candidate], list[float]]]:
    """Up to `wanted` distinct lists: one correct candidate and size-1 incorrect ones with
    distinct pass rates, each at least `min_similarity` to the correct one."""
    rng = _rng(key)
    lists, seen = [], set()
    eligible: dict[str, dict[float, list[_Candidate]]] = {}  # per anchor: pass rate -> pool
    for _ in range(wanted * _TRIES):
        if len(lists) == wanted or not correct:
            break
        anchor = correct[rng.integers(len(correct))]
        if anchor.submission_id not in eligible:
            by_rate: dict[float, list[_Candidate]] = defaultdict(list)
            for c in pool:  # similarity only where it decides (the hard bucket)
                if min_similarity <= 0 or similarity(anchor.tokens, c.tokens) >= min_similarity:
                    by_rate[c.pass_rate].append(c)
            eligible[anchor.submission_id] = by_rate
        by_rate = eligible[anchor.submission_id]
        feasible = [n for n in range(sizes[0], sizes[1] + 1) if n - 1 <= len(by_rate)]
        if not feasible:
            continue
        size = feasible[rng.integers(len(feasible))]
        rates = sorted(by_rate)
        picked = [rates[i] for i in sorted(rng.choice(len(rates), size - 1, replace=False))]
        chosen = [anchor, *(by_rate[r][rng.integers(len(by_rate[r]))] for r in picked)]
        chosen = [chosen[i] for i in rng.permutation(len(chosen))]
        ids = frozenset(c.submission_id for c in chosen)
        if ids in seen:
            continue
        seen.add(ids)
        sims = [similarity(anchor.tokens, c.tokens) for c in chosen if c is not anchor]
        lists.append((chosen, sims))
    return lists
