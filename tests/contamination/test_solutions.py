"""The solution check: a benchmark's reference solution, renamed and reformatted, is found."""

from __future__ import annotations

from dataclasses import dataclass

from codelog.contamination.index import fingerprints, solution_matches
from codelog.stage.ast_hash import parse_code


@dataclass(frozen=True)
class Ref:  # the shape of codelog.benchmarks.base.Reference
    benchmark: str
    task_id: str
    statement: str
    solutions: tuple[str, ...]
    language: str = "python"


# MBPP task 1's canonical `code`, as published (CRLF line ends, tabs)
MBPP_1 = (
    "R = 3\r\nC = 3\r\ndef min_cost(cost, m, n): \r\n\ttc = [[0 for x in range(C)] for x in range(R)]"
    " \r\n\ttc[0][0] = cost[0][0] \r\n\tfor i in range(1, m+1): \r\n\t\ttc[i][0] = tc[i-1][0] + "
    "cost[i][0] \r\n\tfor j in range(1, n+1): \r\n\t\ttc[0][j] = tc[0][j-1] + cost[0][j] \r\n\tfor"
    " i in range(1, m+1): \r\n\t\tfor j in range(1, n+1): \r\n\t\t\ttc[i][j] = min(tc[i-1][j-1], "
    "tc[i-1][j], tc[i][j-1]) + cost[i][j] \r\n\treturn tc[m][n]"
)
# The same program renamed throughout, re-indented, commented, and read from stdin by a
# driver: its AST hash differs, its shape does not.
RENAMED = """ROWS = 3
COLS = 3


def cheapest(grid, a, b):
    # dynamic programming over the grid
    best = [[0 for _ in range(COLS)] for _ in range(ROWS)]
    best[0][0] = grid[0][0]
    for r in range(1, a + 1):
        best[r][0] = best[r - 1][0] + grid[r][0]
    for c in range(1, b + 1):
        best[0][c] = best[0][c - 1] + grid[0][c]
    for r in range(1, a + 1):
        for c in range(1, b + 1):
            best[r][c] = min(best[r - 1][c - 1], best[r - 1][c], best[r][c - 1]) + grid[r][c]
    return best[a][b]


print(cheapest([list(map(int, input().split())) for _ in range(3)], 2, 2))
"""
# MBPP task 3's canonical code: another problem's solution
MBPP_3 = (
    "import math\r\ndef is_not_prime(n):\r\n    result = False\r\n    for i in range(2,int(math."
    "sqrt(n)) + 1):\r\n        if n % i == 0:\r\n            result = True\r\n    return result"
)
REFS = [Ref("mbpp", "1", "", (MBPP_1,)), Ref("mbpp", "3", "", (MBPP_3,))]


def test_a_renamed_benchmark_solution_is_found_at_solution_level():
    assert parse_code(RENAMED, "python").ast_hash != parse_code(MBPP_1, "python").ast_hash
    found = list(solution_matches([("s1", "p1", RENAMED, "Python")], REFS))
    assert [(m.source_id, m.task_id, m.how) for m in found] == [("s1", "1", "fingerprint")]
    assert found[0].score >= 0.8


def test_a_consistent_rename_alone_is_an_ast_hash_join():
    renamed = MBPP_3.replace("result", "flag").replace("is_not_prime", "composite")
    found = list(solution_matches([("s2", "p2", renamed, "python")], REFS))
    assert [(m.task_id, m.how, m.score) for m in found] == [("3", "ast_hash", 1.0)]


def test_another_problems_solution_is_not_matched():
    other = "n = int(input())\nprint(sum(int(d) for d in str(n)) % 9 == 0 and 'Yes' or 'No')\n"
    assert list(solution_matches([("s3", "p3", other, "python")], REFS)) == []
    shared = fingerprints(MBPP_3, "python") & fingerprints(RENAMED, "python")
    assert len(shared) < len(fingerprints(MBPP_3, "python")) // 2
