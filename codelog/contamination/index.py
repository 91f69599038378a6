"""Which source problems are benchmark problems: statements by weighted n-grams, solutions by
canonical AST hash and winnowed token fingerprints.

Statements. Each statement becomes the set of its n-grams of tokens (codelog.contamination.
normalize). An n-gram's weight is its inverse document frequency over every statement the check
sees (the source's and the benchmark's together): AtCoder's "input is given from standard input
in the following format" sits in a third of CodeNet and weighs next to nothing, a sentence
of one problem weighs the most. N-grams in more than `max_df` statements are boilerplate and
weigh nothing at all. A pair's score is the weight of the n-grams both share over the weight of
the smaller statement's n-grams: the share of the shorter text that the other covers. The rule
accepts a pair whose score reaches `threshold` and that shares at least `min_shared` n-grams
(a one-line statement is not "covered" by one common phrase). Candidate pairs come from an
inverted index, so the cost grows with the n-grams shared, never with sources x problems.

Solutions. A reference solution matches a source solution when their canonical AST hashes
(codelog.stage.ast_hash, the identity dedup uses) are equal, a join; or, for the pairs the
check compares one by one, when the share of the reference's winnowed fingerprints found in
the source solution reaches `fingerprint_threshold`. The fingerprint (Schleimer et al. 2003, as
MOSS and Dolos do) hashes k-grams of tokens with every identifier and literal text replaced by
its kind, and keeps the smallest hash of each window of `window` k-grams: renaming variables,
reformatting and editing comments leave it unchanged.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import pyarrow as pa

from codelog.contamination.normalize import statement_tokens
from codelog.sql import connect as sql_connect


class ReferenceLike(Protocol):
    """The shape of codelog.benchmarks.base.Reference this module reads."""

    benchmark: str
    task_id: str
    statement: str
    solutions: tuple[str, ...]
    language: str


@dataclass(frozen=True)
class StatementRule:
    """The statement-level rule (the recipe's [decontaminate] keys of the same names)."""

    ngram: int = 8
    threshold: float = 0.5
    max_df: int = 50
    min_shared: int = 3


@dataclass(frozen=True)
class StatementMatch:
    source_id: str
    benchmark: str
    task_id: str
    score: float  # shared weight / the smaller statement's weight, in [0, 1]
    shared: int  # n-grams both statements hold that weigh something
    span: str  # the longest run of shared tokens, in normalized form


@dataclass(frozen=True)
class _Doc:
    tokens: tuple[int, ...]
    grams: np.ndarray  # one key per n-gram, in text order (repeats kept), int64


_BASE = np.uint64(1_000_003)


class _Vocabulary:
    """Tokens as small ints, and an n-gram as a polynomial hash of its tokens' ints (numpy,
    wrapping at 2**64): keys that do not depend on PYTHONHASHSEED, so two runs agree."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.words: list[str] = []

    def doc(self, raw: str, n: int) -> _Doc:
        ids = []
        for word in statement_tokens(raw):
            i = self.ids.get(word)
            if i is None:
                i = self.ids[word] = len(self.words)
                self.words.append(word)
            ids.append(i)
        arr = np.asarray(ids, dtype=np.uint64) + np.uint64(1)
        count = max(len(ids) - n + 1, 0)
        keys = np.zeros(count, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for j in range(n if count else 0):
                keys = keys * _BASE + arr[j : j + count]
        return _Doc(tuple(ids), keys.view(np.int64))


def statement_matches(
    sources: Iterable[tuple[str, str]],
    references: Iterable[ReferenceLike],
    rule: StatementRule = StatementRule(),
    *,
    min_score: float | None = None,
    background: Iterable[str] = (),
) -> list[StatementMatch]:
    """Pairs (source statement, benchmark problem) scoring at least `min_score` (default: the
    rule's threshold), best first. `sources` are (source id, raw statement); `background`,
    further statements that count only towards document frequencies (a small check's corpus
    alone cannot tell boilerplate from a shared sentence).

    The pairs are a join in DuckDB over (statement, n-gram) rows: the work grows with the
    n-grams statements share, never with sources x problems."""
    floor = rule.threshold if min_score is None else min_score
    vocab = _Vocabulary()
    refs = [(r.benchmark, r.task_id, vocab.doc(r.statement, rule.ngram)) for r in references]
    srcs = [(sid, vocab.doc(text, rule.ngram)) for sid, text in sources]
    extra = [vocab.doc(text, rule.ngram) for text in background]
    if not refs or not srcs:
        return []
    con = sql_connect()
    con.register("ref_grams", _gram_rows([d for _, _, d in refs]))
    con.register("src_grams", _gram_rows([d for _, d in srcs]))
    con.register("extra_grams", _gram_rows(extra))
    total_docs = len(refs) + len(srcs) + len(extra)
    con.execute(
        f"""
        CREATE TEMP TABLE weights AS  -- inverse document frequency; boilerplate left out
        SELECT gram, ln(1 + {total_docs} / count(*)) AS w
        FROM (SELECT gram FROM ref_grams UNION ALL SELECT gram FROM src_grams
              UNION ALL SELECT gram FROM extra_grams)
        GROUP BY gram HAVING count(*) <= {int(rule.max_df)}
        """
    )
    rows = con.execute(
        f"""
        WITH ref_mass AS (
            SELECT doc, sum(w) AS mass FROM ref_grams JOIN weights USING (gram) GROUP BY doc
        ),
        src_mass AS (
            SELECT doc, sum(w) AS mass FROM src_grams JOIN weights USING (gram) GROUP BY doc
        ),
        shared AS (
            SELECT s.doc AS src, r.doc AS ref, sum(w.w) AS weight, count(*) AS n
            FROM src_grams s JOIN ref_grams r USING (gram) JOIN weights w USING (gram)
            GROUP BY ALL
        )
        SELECT src, ref, least(1.0, weight / least(sm.mass, rm.mass)) AS score, n
        FROM shared JOIN src_mass sm ON sm.doc = src JOIN ref_mass rm ON rm.doc = ref
        WHERE n >= {int(rule.min_shared)} AND weight / least(sm.mass, rm.mass) >= {float(floor)}
        """
    ).fetchall()
    found = []
    # the n-grams that weigh something, once (a set: each pair's span looks its n-grams up)
    weighted = (
        set(con.sql("SELECT gram FROM weights").fetchnumpy()["gram"].tolist()) if rows else set()
    )
    for src, ref, score, n in rows:
        sid, doc = srcs[src]
        bench, task, ref_doc = refs[ref]
        shared = set(doc.grams.tolist()) & set(ref_doc.grams.tolist()) & weighted
        span = _longest_span(ref_doc, shared, rule.ngram, vocab.words)
        found.append(StatementMatch(sid, bench, task, round(float(score), 4), int(n), span))
    found.sort(key=lambda m: (-m.score, m.source_id, m.benchmark, m.task_id))
    return found


def _gram_rows(docs: Sequence[_Doc]) -> pa.Table:
    """(doc, gram) rows: each distinct n-gram of a statement once."""
    uniques = [np.unique(d.grams) for d in docs]
    return pa.table(
        {
            "doc": pa.array(
                np.repeat(np.arange(len(docs), dtype=np.int64), [len(u) for u in uniques])
            ),
            "gram": pa.array(np.concatenate(uniques) if uniques else np.zeros(0, np.int64)),
        }
    )


def _longest_span(ref: _Doc, shared: set[int], n: int, words: Sequence[str]) -> str:
    """The longest run of the reference's text made of `shared` n-grams, as normalized tokens."""
    best = (0, 0)
    start = None
    for i, g in enumerate([*ref.grams.tolist(), None]):
        hit = g is not None and g in shared
        if hit and start is None:
            start = i
        elif not hit and start is not None:
            if i - start > best[1] - best[0]:
                best = (start, i)
            start = None
    if best == (0, 0):
        return ""
    return " ".join(words[t] for t in ref.tokens[best[0] : best[1] - 1 + n])


# --- solutions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FingerprintRule:
    k: int = 12  # tokens per k-gram
    window: int = 6  # k-grams per winnowing window
    threshold: float = 0.8  # share of the reference's fingerprints the source holds


def code_tokens(code: str, language: str) -> list[str]:
    """The program's tokens as tree-sitter reads them, comments dropped, each identifier as
    `ID` and each literal as its kind: what a rename or a reformat cannot change."""
    from codelog.stage.ast_hash import grammar_for, parser_for

    grammar = grammar_for(language)
    tree = parser_for(language).parse(code.encode("utf-8", "surrogateescape"))
    out: list[str] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in grammar.comments:
            continue
        if kind in grammar.identifiers:
            out.append("ID")
        elif node.child_count == 0 or kind in _LITERALS:
            out.append(kind if node.is_named else node.type)
        else:
            stack.extend(reversed(node.children))
    return out


# Literal kinds taken whole (a string's inner parts are not tokens of the program's shape).
_LITERALS = frozenset(
    {
        "string",
        "integer",
        "float",
        "number_literal",
        "string_literal",
        "char_literal",
        "concatenated_string",
        "raw_string_literal",
        "true",
        "false",
        "none",
    }
)


def fingerprints(
    code: str, language: str, rule: FingerprintRule = FingerprintRule()
) -> frozenset[int]:
    """Winnowed fingerprints of the program's token k-grams (robust winnowing: the rightmost
    smallest hash of each window). A program shorter than one k-gram has one fingerprint."""
    tokens = code_tokens(code, language)
    if not tokens:
        return frozenset()
    k = min(rule.k, len(tokens))
    hashes = [_stable_hash(" ".join(tokens[i : i + k])) for i in range(len(tokens) - k + 1)]
    w = min(rule.window, len(hashes))
    picked = set()
    for i in range(len(hashes) - w + 1):
        window = hashes[i : i + w]
        smallest = min(window)
        picked.add(smallest)
    return frozenset(picked)


def _stable_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class SolutionMatch:
    source_id: str  # the source solution (submission id)
    problem_id: str  # its problem
    benchmark: str
    task_id: str
    score: float  # 1.0 for an equal AST hash; else the share of fingerprints held
    how: str  # "ast_hash" or "fingerprint"


def solution_matches(
    solutions: Iterable[tuple[str, str, str, str]],
    references: Iterable[ReferenceLike],
    rule: FingerprintRule = FingerprintRule(),
    *,
    min_score: float | None = None,
) -> Iterator[SolutionMatch]:
    """Source solutions (submission id, problem id, code, language) that are a benchmark's
    reference solution: the same canonical AST hash, or enough of its fingerprints. Candidates
    come from an inverted index of fingerprints, never from all pairs."""
    from codelog.stage.ast_hash import GRAMMARS, parse_code

    floor = rule.threshold if min_score is None else min_score
    by_hash: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    postings: dict[tuple[str, int], list[int]] = defaultdict(list)
    sizes: list[int] = []
    owners: list[tuple[str, str]] = []
    for ref in references:
        lang = ref.language.lower()
        if lang not in GRAMMARS:
            continue
        for code in ref.solutions:
            by_hash[(lang, parse_code(code, lang).ast_hash)].append((ref.benchmark, ref.task_id))
            prints = fingerprints(code, lang, rule)
            for f in prints:
                postings[(lang, f)].append(len(sizes))
            sizes.append(len(prints))
            owners.append((ref.benchmark, ref.task_id))
    for sid, pid, code, language in solutions:
        lang = language.lower()
        if lang not in GRAMMARS:
            continue
        seen: set[tuple[str, str]] = set()
        for bench, task in by_hash.get((lang, parse_code(code, lang).ast_hash), ()):
            if (bench, task) not in seen:
                seen.add((bench, task))
                yield SolutionMatch(sid, pid, bench, task, 1.0, "ast_hash")
        held: Counter[int] = Counter()
        for f in fingerprints(code, lang, rule):
            held.update(postings.get((lang, f), ()))
        best: dict[tuple[str, str], float] = {}
        for index, count in held.items():
            score = count / sizes[index] if sizes[index] else 0.0
            owner = owners[index]
            if score >= floor and owner not in seen:
                best[owner] = max(best.get(owner, 0.0), score)
        for (bench, task), score in sorted(best.items()):
            yield SolutionMatch(sid, pid, bench, task, round(score, 4), "fingerprint")
