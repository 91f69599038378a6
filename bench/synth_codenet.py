"""Write a synthetic Project CodeNet tree of any size, for benchmarking `codelog build`.

    python bench/synth_codenet.py --submissions 3300000 --out /tmp/codelog-bench/codenet-3300000

The tree has CodeNet's layout and quirks (see /work/shared/data/README.md):

    OUT/metadata/problem_list.csv        id,name,dataset,time_limit,memory_limit,rating,tags,complexity
    OUT/metadata/pNNNNN.csv              one row per submission, every language (CodeNet's header)
    OUT/data/pNNNNN/Python/sNNNNNNNNN.py one source file per row of the synthesised language
    OUT/problem_descriptions/pNNNNN.html real statements from codenet-problem-descriptions.tar.gz

What is realistic, and where the numbers come from:
- one problem per ~820 submissions (CodeNet Python: 3.29M submissions over ~4,000 problems);
  problem ids are spread over the real range p00000-p04052 (AIZU below p02534, AtCoder from it,
  AtCoder problems get ~3x the submissions), then go on past it; submissions per problem are
  log-normal (a long tail of popular problems);
- statuses drawn from codenet-statistics.json: Accepted at Python's own share (54.7%), the other
  statuses in CodeNet's overall proportions; a user's attempts on a problem end with their
  Accepted one; rows of the other languages (metadata only, no sources) at CodeNet's language mix,
  so the CSVs are as large as the real ones (`--other-languages none` leaves them out);
- quirks: Unix-second dates, empty cpu_time/memory for AtCoder compile errors, 0/0 and -10 on
  AIZU, accuracy "passed/total" on AIZU and empty on AtCoder, original_language mixing
  "Python", "Python3", "Python (2.7.6)", "PyPy3 (7.3.0)" ..., some CSVs with CRLF endings, some
  sources with CRLF or without a final newline, UTF-8 (Japanese) comments, Python 2 code
  (print statements, raw_input), the 54 problems that have no statement in CodeNet;
- code: programs are composed from a catalogue of hand-written competitive-programming snippets
  (input idioms, gcd, sieve, union-find, segment tree, Dijkstra, ...) and ~4,000 fragments drawn
  from a small statement/expression grammar, so that programs are structurally distinct;
  sizes are log-normal around ~400 bytes with a tail of template-heavy files up to ~60 KB.
  Users copy popular programs (a Chinese-restaurant process over each problem's programs) and
  resubmit edited versions, so the tree has exact duplicates, renamed / recommented / reformatted
  copies (identifier names, operator spacing, indentation, comments, line endings differ) and
  one-token edits. Compile Error rows get a syntax error; everything else parses.

Deterministic by `--seed`, whatever `--workers`: each problem draws from its own generator.
Fast: problems are spread over a process pool, and each file is written with one
open/write/close (relative to an open directory descriptor).
"""

from __future__ import annotations

import argparse
import bisect
import functools
import json
import math
import multiprocessing
import os
import random
import re
import shutil
import sys
import tarfile
import time
from collections import Counter
from pathlib import Path

# shared/ sits beside the repository (in CI too); /work/shared is where developers have it
_BESIDE = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SHARED_DATA = _BESIDE if _BESIDE.exists() else Path("/work/shared/data")
DEFAULT_STATISTICS = SHARED_DATA / "codenet-statistics.json"
DEFAULT_STATEMENTS = SHARED_DATA / "codenet-problem-descriptions.tar.gz"

CSV_HEADER = (
    "submission_id,problem_id,user_id,date,language,original_language,filename_ext,"
    "status,cpu_time,memory,code_size,accuracy"
)
PROBLEM_LIST_HEADER = "id,name,dataset,time_limit,memory_limit,rating,tags,complexity"
SUBMISSIONS_PER_PROBLEM = 820
REAL_PROBLEMS = 4053  # p00000 .. p04052
FIRST_ATCODER = 2534  # p02534 is the first AtCoder problem
ATCODER_WEIGHT = 3.0
MARKER = ".synth.json"  # written last: its presence means the tree is complete

# --------------------------------------------------------------------------------------------
# Code templates: a program is a list of lines; a line is a list of tokens. A str token is
# literal text; an int token indexes the per-submission table: >= 0 an identifier slot,
# < 0 a layout token (newline, indentation, operator with or without spaces), so renaming
# and reformatting a program is one list comprehension over its tokens.
# --------------------------------------------------------------------------------------------

SPACED_OPS = (
    "**",
    "//=",
    "+=",
    "-=",
    "*=",
    "%=",
    "==",
    "!=",
    "<=",
    ">=",
    "//",
    "=",
    "+",
    "-",
    "*",
    "%",
    "<",
    ">",
)
ASSIGN_OPS = frozenset(("=", "+=", "-=", "*=", "%=", "//="))
COMPARE_OPS = frozenset(("==", "!=", "<=", ">=", "<", ">"))
MAX_LEVEL = 24
NL = -1
COMMA = -2
_IND0 = -3  # indentation of level L is _IND0 - L
_OP0 = _IND0 - MAX_LEVEL  # the k-th of SPACED_OPS is _OP0 - k
OP_CODE = {op: _OP0 - k for k, op in enumerate(SPACED_OPS)}
N_LAYOUT = -(_OP0 - len(SPACED_OPS)) - 1

# slots shared by every fragment of a program: the input variables and the answer
SHARED = ("n", "m", "a", "s", "ans")

_TOKEN = re.compile(
    r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\#.*$)"""  # 1 string literal or comment
    r"|\$(\w+)"  # 2 identifier slot
    r"| (\*\*|//=|\+=|-=|\*=|%=|==|!=|<=|>=|//|=|\+|-|\*|%|<|>) "  # 3 operator between spaces
    r"|(, )"  # 4 comma
    r"""|([^$"'#, ]+| |,)"""  # 5 anything else
)


def compile_lines(text: str, names: dict[str, int]) -> list[list]:
    """Token lines of `text` (4-space indents, `$name` for identifiers); `names` maps slot
    names to slot numbers and is extended with the new ones."""
    lines = []
    for raw in text.strip("\n").split("\n"):
        body = raw.lstrip(" ")
        if not body:
            lines.append([NL])
            continue
        toks: list = [_IND0 - (len(raw) - len(body)) // 4]
        for m in _TOKEN.finditer(body):
            lit, slot, op, comma, other = m.groups()
            if slot is not None:
                if slot not in names:
                    names[slot] = len(names)
                toks.append(names[slot])
            elif op is not None:
                toks.append(OP_CODE[op])
            elif comma is not None:
                toks.append(COMMA)
            else:
                piece = lit if lit is not None else other
                if toks and toks[-1].__class__ is str:
                    toks[-1] += piece
                else:
                    toks.append(piece)
        toks.append(NL)
        lines.append(toks)
    return lines


def _has_local(line: list) -> bool:
    return any(t.__class__ is int and t >= len(SHARED) for t in line)


class Snippet:
    """A reusable piece of a program: imports, top-level definitions, and main-body lines;
    slots >= len(SHARED) are its own identifiers, renumbered when composed."""

    __slots__ = ("body", "body_local", "defs", "defs_local", "imports", "n_local", "size")

    def __init__(self, body: str, defs: str = "", imports: tuple[str, ...] = ()):
        names = {name: i for i, name in enumerate(SHARED)}
        self.defs = compile_lines(defs, names) if defs else []
        self.body = compile_lines(body, names) if body else []
        self.imports = imports
        self.n_local = len(names) - len(SHARED)
        self.defs_local = [_has_local(line) for line in self.defs]
        self.body_local = [_has_local(line) for line in self.body]
        self.size = len(defs) + len(body) + 1


class Program:
    __slots__ = ("lines", "n_slots", "py2")

    def __init__(self, lines: list[list], n_slots: int):
        self.lines = lines
        self.n_slots = n_slots
        self.py2: Program | None = None


# --------------------------------------------------------------------------------------------
# The catalogue: what competitive programmers actually paste.
# --------------------------------------------------------------------------------------------

INPUT_IDIOMS = [
    Snippet("$n = int(input())"),
    Snippet("$n, $m = map(int, input().split())"),
    Snippet("$a = list(map(int, input().split()))"),
    Snippet("$s = input()"),
    Snippet("$s = input().strip()"),
    Snippet("$n = int(input())\n$a = list(map(int, input().split()))"),
    Snippet("$n = int(input())\n$a = [int(input()) for _ in range($n)]"),
    Snippet(
        "$n, $m = map(int, input().split())\n$a = [list(map(int, input().split())) for _ in range($m)]"
    ),
    Snippet("$n, *$a = map(int, open(0).read().split())"),
    Snippet("$n, $m = [int(x) for x in input().split()]\n$s = input()"),
    Snippet("$a = [int(x) for x in input().split()]\n$n = len($a)"),
    Snippet("$s, $t = input().split()\n$n = len($s)"),
    Snippet("$n = int(input())", imports=("import sys", "input = sys.stdin.readline")),
    Snippet(
        "$n, $m = map(int, input().split())\n$a = list(map(int, input().split()))",
        imports=("import sys", "input = sys.stdin.readline"),
    ),
    Snippet(
        "$a = []\nfor $line in sys.stdin:\n    $a.append(list(map(int, $line.split())))\n$n = len($a)",
        imports=("import sys",),
    ),
    Snippet(
        "$a = []\nwhile True:\n    $n = int(input())\n    if $n == 0:\n        break\n    $a.append($n)"
    ),
    Snippet(
        "$a = []\nwhile True:\n    try:\n        $x, $y = map(int, input().split())\n    except EOFError:\n        break\n    $a.append($x + $y)\n$n = len($a)"
    ),
    Snippet("$n, $m = map(int, input().split())\n$s = [input() for _ in range($n)]"),
]

OUTPUTS = [
    Snippet("print($ans)"),
    Snippet("print($ans)"),
    Snippet("print($ans)"),
    Snippet("print(*$a)"),
    Snippet('print(" ".join(map(str, $a)))'),
    Snippet('print("Yes" if $ans else "No")'),
    Snippet('if $ans:\n    print("Yes")\nelse:\n    print("No")'),
    Snippet("print($ans % (10 ** 9 + 7))"),
    Snippet("for $v in $a:\n    print($v)"),
    Snippet('print("{}".format($ans))'),
    Snippet("print(max($ans, 0))"),
    Snippet('print("\\n".join(map(str, $a)))'),
    Snippet("print(len($a))"),
]

LIBRARY = [
    Snippet(
        "$ans = $gcd($n, $m)",
        defs="""
def $gcd($x, $y):
    while $y:
        $x, $y = $y, $x % $y
    return $x
""",
    ),
    Snippet("$ans = $n * $m // math.gcd($n, $m)", imports=("import math",)),
    Snippet(
        "$ans = sum(1 for $v in $a if $is_prime($v))",
        defs="""
def $is_prime($x):
    if $x < 2:
        return False
    $i = 2
    while $i * $i <= $x:
        if $x % $i == 0:
            return False
        $i += 1
    return True
""",
    ),
    Snippet(
        "$p = $sieve(10 ** 6)\n$ans = sum($p[:$n + 1])",
        defs="""
def $sieve($lim):
    $is_p = [True] * ($lim + 1)
    $is_p[0] = $is_p[1] = False
    for $i in range(2, int($lim ** 0.5) + 1):
        if $is_p[$i]:
            for $j in range($i * $i, $lim + 1, $i):
                $is_p[$j] = False
    return $is_p
""",
    ),
    Snippet(
        """
$uf = $UnionFind($n)
for $x, $y in $a:
    $uf.union($x - 1, $y - 1)
$ans = len(set($uf.find($i) for $i in range($n)))
""",
        defs="""
class $UnionFind:
    def __init__(self, $size):
        self.parent = list(range($size))
        self.rank = [0] * $size

    def find(self, $x):
        while self.parent[$x] != $x:
            self.parent[$x] = self.parent[self.parent[$x]]
            $x = self.parent[$x]
        return $x

    def union(self, $x, $y):
        $x = self.find($x)
        $y = self.find($y)
        if $x == $y:
            return False
        if self.rank[$x] < self.rank[$y]:
            $x, $y = $y, $x
        self.parent[$y] = $x
        if self.rank[$x] == self.rank[$y]:
            self.rank[$x] += 1
        return True

    def same(self, $x, $y):
        return self.find($x) == self.find($y)
""",
    ),
    Snippet(
        """
$st = $SegTree($a, min, 10 ** 18)
$ans = $st.query(0, $n)
""",
        defs="""
class $SegTree:
    def __init__(self, $init, $func, $ide):
        self.func = $func
        self.ide = $ide
        self.size = 1
        while self.size < len($init):
            self.size *= 2
        self.tree = [$ide] * (2 * self.size)
        for $i, $v in enumerate($init):
            self.tree[self.size + $i] = $v
        for $i in range(self.size - 1, 0, -1):
            self.tree[$i] = $func(self.tree[2 * $i], self.tree[2 * $i + 1])

    def update(self, $k, $x):
        $k += self.size
        self.tree[$k] = $x
        while $k > 1:
            $k //= 2
            self.tree[$k] = self.func(self.tree[2 * $k], self.tree[2 * $k + 1])

    def query(self, $l, $r):
        $res = self.ide
        $l += self.size
        $r += self.size
        while $l < $r:
            if $l & 1:
                $res = self.func($res, self.tree[$l])
                $l += 1
            if $r & 1:
                $r -= 1
                $res = self.func($res, self.tree[$r])
            $l >>= 1
            $r >>= 1
        return $res
""",
    ),
    Snippet(
        """
$bit = $BIT($n)
for $i, $v in enumerate($a):
    $ans += $i - $bit.sum($v)
    $bit.add($v, 1)
""",
        defs="""
class $BIT:
    def __init__(self, $size):
        self.n = $size
        self.data = [0] * ($size + 1)

    def add(self, $i, $x):
        $i += 1
        while $i <= self.n:
            self.data[$i] += $x
            $i += $i & -$i

    def sum(self, $i):
        $res = 0
        while $i > 0:
            $res += self.data[$i]
            $i -= $i & -$i
        return $res
""",
    ),
    Snippet(
        """
$g = [[] for _ in range($n)]
for $x, $y, $w in $a:
    $g[$x].append(($y, $w))
    $g[$y].append(($x, $w))
$d = $dijkstra($g, 0)
$ans = $d[$n - 1]
""",
        defs="""
def $dijkstra($graph, $start):
    $dist = [float("inf")] * len($graph)
    $dist[$start] = 0
    $hq = [(0, $start)]
    while $hq:
        $c, $u = heapq.heappop($hq)
        if $c > $dist[$u]:
            continue
        for $v, $w in $graph[$u]:
            if $dist[$u] + $w < $dist[$v]:
                $dist[$v] = $dist[$u] + $w
                heapq.heappush($hq, ($dist[$v], $v))
    return $dist
""",
        imports=("import heapq",),
    ),
    Snippet(
        """
$g = [[] for _ in range($n)]
for $x, $y in $a:
    $g[$x - 1].append($y - 1)
    $g[$y - 1].append($x - 1)
$dist = [-1] * $n
$dist[0] = 0
$q = deque([0])
while $q:
    $u = $q.popleft()
    for $v in $g[$u]:
        if $dist[$v] == -1:
            $dist[$v] = $dist[$u] + 1
            $q.append($v)
$ans = max($dist)
""",
        imports=("from collections import deque",),
    ),
    Snippet(
        """
$seen = [False] * $n
$ans = 0
for $i in range($n):
    if not $seen[$i]:
        $dfs($i)
        $ans += 1
""",
        defs="""
def $dfs($u):
    $seen[$u] = True
    for $v in $g[$u]:
        if not $seen[$v]:
            $dfs($v)
""",
        imports=("import sys", "sys.setrecursionlimit(10 ** 7)"),
    ),
    Snippet(
        """
$h = len($s)
$grid = [list(input()) for _ in range($h)]
$dist = [[-1] * $m for _ in range($h)]
$dist[0][0] = 0
$q = deque([(0, 0)])
while $q:
    $y, $x = $q.popleft()
    for $dy, $dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        $ny, $nx = $y + $dy, $x + $dx
        if 0 <= $ny < $h and 0 <= $nx < $m and $grid[$ny][$nx] != "#" and $dist[$ny][$nx] == -1:
            $dist[$ny][$nx] = $dist[$y][$x] + 1
            $q.append(($ny, $nx))
$ans = $dist[$h - 1][$m - 1]
""",
        imports=("from collections import deque",),
    ),
    Snippet(
        "$ans = $comb($n, $m)",
        defs="""
$MOD = 10 ** 9 + 7
$fact = [1] * (2 * 10 ** 5 + 1)
for $i in range(1, len($fact)):
    $fact[$i] = $fact[$i - 1] * $i % $MOD
$inv = [1] * len($fact)
$inv[-1] = pow($fact[-1], $MOD - 2, $MOD)
for $i in range(len($fact) - 1, 0, -1):
    $inv[$i - 1] = $inv[$i] * $i % $MOD


def $comb($x, $y):
    if $y < 0 or $y > $x:
        return 0
    return $fact[$x] * $inv[$y] % $MOD * $inv[$x - $y] % $MOD
""",
    ),
    Snippet(
        """
$lo, $hi = 0, 10 ** 18
while $hi - $lo > 1:
    $mid = ($lo + $hi) // 2
    if $check($mid):
        $hi = $mid
    else:
        $lo = $mid
$ans = $hi
""",
        defs="""
def $check($x):
    $cnt = 0
    for $v in $a:
        $cnt += ($v + $x - 1) // $x - 1
    return $cnt <= $m
""",
    ),
    Snippet("$a.sort()\n$ans = bisect_left($a, $m)", imports=("from bisect import bisect_left",)),
    Snippet(
        """
$dp = []
for $v in $a:
    $i = bisect.bisect_left($dp, $v)
    if $i == len($dp):
        $dp.append($v)
    else:
        $dp[$i] = $v
$ans = len($dp)
""",
        imports=("import bisect",),
    ),
    Snippet("""
$dp = [[0] * ($m + 1) for _ in range($n + 1)]
for $i in range($n):
    $w, $v = $a[$i]
    for $j in range($m + 1):
        $dp[$i + 1][$j] = $dp[$i][$j]
        if $j >= $w:
            $dp[$i + 1][$j] = max($dp[$i + 1][$j], $dp[$i][$j - $w] + $v)
$ans = $dp[$n][$m]
"""),
    Snippet("""
$t = input()
$dp = [[0] * (len($t) + 1) for _ in range(len($s) + 1)]
for $i in range(len($s)):
    for $j in range(len($t)):
        if $s[$i] == $t[$j]:
            $dp[$i + 1][$j + 1] = $dp[$i][$j] + 1
        else:
            $dp[$i + 1][$j + 1] = max($dp[$i][$j + 1], $dp[$i + 1][$j])
$ans = $dp[len($s)][len($t)]
"""),
    Snippet("""
$d = [[float("inf")] * $n for _ in range($n)]
for $i in range($n):
    $d[$i][$i] = 0
for $k in range($n):
    for $i in range($n):
        for $j in range($n):
            if $d[$i][$k] + $d[$k][$j] < $d[$i][$j]:
                $d[$i][$j] = $d[$i][$k] + $d[$k][$j]
$ans = max(max($row) for $row in $d)
"""),
    Snippet(
        "$cnt = Counter($a)\n$ans = max($cnt.values())",
        imports=("from collections import Counter",),
    ),
    Snippet(
        "$c = collections.Counter($s)\n$ans = sum($v // 2 for $v in $c.values())",
        imports=("import collections",),
    ),
    Snippet(
        "$acc = [0] + list(accumulate($a))\n$ans = max($acc[$i + $m] - $acc[$i] for $i in range($n - $m + 1))",
        imports=("from itertools import accumulate",),
    ),
    Snippet(
        """
$ans = 10 ** 18
for $p in permutations(range($n)):
    $cost = sum($a[$p[$i]] * ($i + 1) for $i in range($n))
    $ans = min($ans, $cost)
""",
        imports=("from itertools import permutations",),
    ),
    Snippet(
        "$ans = $factorize($n)",
        defs="""
def $factorize($x):
    $res = []
    $i = 2
    while $i * $i <= $x:
        while $x % $i == 0:
            $res.append($i)
            $x //= $i
        $i += 1
    if $x > 1:
        $res.append($x)
    return $res
""",
    ),
    Snippet(
        "$ans = len($divisors($n))",
        defs="""
def $divisors($x):
    $lower, $upper = [], []
    $i = 1
    while $i * $i <= $x:
        if $x % $i == 0:
            $lower.append($i)
            if $i != $x // $i:
                $upper.append($x // $i)
        $i += 1
    return $lower + $upper[::-1]
""",
    ),
    Snippet("$ans = pow($n, $m, 10 ** 9 + 7)"),
    Snippet(
        """
$indeg = [0] * $n
$g = [[] for _ in range($n)]
for $x, $y in $a:
    $g[$x].append($y)
    $indeg[$y] += 1
$order = []
$q = deque($i for $i in range($n) if $indeg[$i] == 0)
while $q:
    $u = $q.popleft()
    $order.append($u)
    for $v in $g[$u]:
        $indeg[$v] -= 1
        if $indeg[$v] == 0:
            $q.append($v)
$ans = len($order) == $n
""",
        imports=("from collections import deque",),
    ),
    Snippet("""
$r = 0
$total = 0
for $l in range($n):
    while $r < $n and $total + $a[$r] <= $m:
        $total += $a[$r]
        $r += 1
    $ans = max($ans, $r - $l)
    if $r == $l:
        $r += 1
    else:
        $total -= $a[$l]
"""),
    Snippet("""
$ans = 0
for $bits in range(1 << $n):
    $total = 0
    for $i in range($n):
        if $bits >> $i & 1:
            $total += $a[$i]
    if $total == $m:
        $ans += 1
"""),
    Snippet(
        "$ans = $memo($n)",
        defs="""
@lru_cache(maxsize=None)
def $memo($x):
    if $x <= 1:
        return $x
    return $memo($x - 1) + $memo($x - 2)
""",
        imports=("from functools import lru_cache",),
    ),
    Snippet("""
$words = $s.split()
$ans = 0
for $w in $words:
    if $w.lower() == $w[::-1].lower():
        $ans += 1
"""),
    Snippet("""
$mat = [[0] * $n for _ in range($n)]
for $i in range($n):
    for $j in range($n):
        $mat[$i][$j] = sum($a[$i][$k] * $a[$k][$j] for $k in range($n))
for $row in $mat:
    print(" ".join(map(str, $row)))
"""),
]

COMMENTS = [
    "# input",
    "# 入力",
    "# 出力",
    "# 答え",
    "# TODO",
    "# debug",
    "# solve",
    "# O(N log N)",
    "# O(N)",
    "#print(ans)",
    "# print(a)",
    "# greedy",
    "# 全探索",
    "# 二分探索",
    "# dp[i][j]",
    "# edge case",
    "# read",
    "# main",
    "# WA?",
    "# TLE対策",
    "# 0-indexed",
    "# -*- coding: utf-8 -*-",
    "# ここで計算",
    "# check",
    "# sort",
    "# sample: 3 4 -> 7",
    "#",
    "# 注意: オーバーフロー",
]

# --------------------------------------------------------------------------------------------
# The grammar: random statements over int, list and str variables.
# --------------------------------------------------------------------------------------------

_LITERALS = (
    "0",
    "1",
    "1",
    "2",
    "2",
    "3",
    "10",
    "100",
    "1000",
    "10 ** 9 + 7",
    "998244353",
    "-1",
    "26",
    "(1 << 20)",
    "5",
    "7",
)


class _Grammar:
    def __init__(self, r: random.Random):
        self.r = r
        self.k = 0
        self.ints = ["$n", "$m", "$ans"]
        self.lists = ["$a"]
        self.strs = ["$s"]
        self.funcs: list[tuple[str, int]] = []

    def fresh(self, kind: str = "v") -> str:
        self.k += 1
        return f"${kind}{self.k}"

    def leaf(self) -> str:
        c = self.r.random()
        if c < 0.5:
            return self.r.choice(self.ints)
        if c < 0.75:
            return self.r.choice(_LITERALS)
        if c < 0.85:
            return f"len({self.r.choice(self.lists + self.strs)})"
        return f"{self.r.choice(self.lists)}[{self.r.choice(self.ints)}]"

    def expr(self, depth: int = 0) -> str:
        r = self.r
        c = r.random()
        if depth >= 2 or c < 0.4:
            return self.leaf()
        if c < 0.72:
            return f"{self.expr(depth + 1)} {r.choice('+-*+-')} {self.expr(depth + 1)}"
        if c < 0.78:
            return f"{self.expr(depth + 1)} {r.choice(('//', '%'))} {r.choice(_LITERALS[3:8])}"
        if c < 0.86:
            return f"{r.choice(('max', 'min'))}({self.expr(depth + 1)}, {self.expr(depth + 1)})"
        if c < 0.9:
            return f"abs({self.expr(depth + 1)})"
        if c < 0.95 and self.funcs:
            name, arity = r.choice(self.funcs)
            return f"{name}({', '.join(self.expr(depth + 1) for _ in range(arity))})"
        return f"({self.expr(depth + 1)} {r.choice('+-*')} {self.expr(depth + 1)})"

    def cond(self) -> str:
        r = self.r
        c = r.random()
        if c < 0.1:
            return f"{self.leaf()} in {r.choice(self.lists)}"
        base = f"{self.expr(1)} {r.choice(('<', '<=', '>', '>=', '==', '!='))} {self.expr(1)}"
        if c < 0.25:
            return f"{base} {r.choice(('and', 'or'))} {self.leaf()} {r.choice(('<', '>', '=='))} {self.leaf()}"
        if c < 0.3:
            return f"not {base}"
        if c < 0.35:
            return f"{self.leaf()} % 2 == {r.choice('01')}"
        return base

    def block(self, level: int, depth: int, in_loop: bool, n: int) -> list[str]:
        out: list[str] = []
        for _ in range(n):
            out += self.stmt(level, depth, in_loop)
        return out

    def body(self, level: int, depth: int, in_loop: bool) -> list[str]:
        n = 1 if depth >= 3 else self.r.choice((1, 1, 2, 2, 3))
        return self.block(level + 1, depth + 1, in_loop, n)

    def stmt(self, level: int, depth: int, in_loop: bool) -> list[str]:
        r = self.r
        ind = "    " * level
        c = r.random()
        if depth >= 3:
            c = c * 0.4  # only simple statements at the bottom
        if c < 0.15:
            v = self.fresh()
            line = f"{ind}{v} = {self.expr()}"
            self.ints.append(v)
            return [line]
        if c < 0.28:
            return [
                f"{ind}{r.choice(self.ints)} {r.choice(('+=', '+=', '-=', '*=', '%=', '//='))} {self.expr(1)}"
            ]
        if c < 0.33:
            return [f"{ind}{r.choice(self.lists)}.append({self.expr(1)})"]
        if c < 0.36:
            if in_loop:
                return [f"{ind}{r.choice(('break', 'continue'))}"]
            return [f"{ind}print({self.expr(1)})"]
        if c < 0.4:
            return [f"{ind}print({self.expr(1)})"]
        if c < 0.48:
            v = self.fresh()
            i = self.fresh("i")
            form = r.randrange(7)
            if form == 0:
                rhs = "[]"
            elif form == 1:
                rhs = f"[0] * ({self.expr(1)})"
            elif form == 2:
                rhs = f"[{self.expr(2)} for {i} in range({self.expr(1)})]"
            elif form == 3:
                rhs = f"sorted({r.choice(self.lists)}{r.choice(('', ', reverse=True'))})"
            elif form == 4:
                rhs = f"{r.choice(self.lists)}[::-1]"
            elif form == 5:
                rhs = f"[{i} for {i} in {r.choice(self.lists)} if {i} % 2 == {r.choice('01')}]"
            else:
                rhs = f"list(set({r.choice(self.lists)}))"
            self.lists.append(v)
            return [f"{ind}{v} = {rhs}"]
        if c < 0.53:
            v = self.fresh()
            form = r.randrange(5)
            if form == 0:
                line = f'{ind}{v} = {r.choice(self.strs)}.count("{r.choice("abcxyz")}")'
                self.ints.append(v)
            elif form == 1:
                line = f"{ind}{v} = {r.choice(self.strs)}[::-1]"
                self.strs.append(v)
            elif form == 2:
                line = f'{ind}{v} = {r.choice(self.strs)}.replace("{r.choice("ab")}", "{r.choice("xy")}")'
                self.strs.append(v)
            elif form == 3:
                line = f'{ind}{v} = "".join(sorted({r.choice(self.strs)}))'
                self.strs.append(v)
            else:
                line = f"{ind}{v} = {r.choice(self.strs)}.upper()"
                self.strs.append(v)
            return [line]
        if c < 0.56:
            d = self.fresh("d")
            x = self.fresh("x")
            lst = r.choice(self.lists)
            return [
                f"{ind}{d} = {{}}",
                f"{ind}for {x} in {lst}:",
                f"{ind}    {d}[{x}] = {d}.get({x}, 0) + 1",
            ]
        if c < 0.59:
            x, y = r.sample(self.ints, 2) if len(self.ints) > 1 else (self.ints[0], self.ints[0])
            return [f"{ind}{x}, {y} = {y}, {x}"]
        if c < 0.72:
            out = [f"{ind}if {self.cond()}:", *self.body(level, depth, in_loop)]
            if r.random() < 0.3:
                out += [f"{ind}elif {self.cond()}:", *self.body(level, depth, in_loop)]
            if r.random() < 0.4:
                out += [f"{ind}else:", *self.body(level, depth, in_loop)]
            return out
        if c < 0.84:
            i = self.fresh("i")
            head = f"{ind}for {i} in range({r.choice(('', '1, '))}{self.expr(1)}):"
            self.ints.append(i)
            out = [head, *self.body(level, depth, True)]
            self.ints.remove(i)
            return out
        if c < 0.9:
            x = self.fresh("x")
            lst = r.choice(self.lists)
            if r.random() < 0.3:
                i = self.fresh("i")
                head = f"{ind}for {i}, {x} in enumerate({lst}):"
                self.ints.append(i)
            else:
                head = f"{ind}for {x} in {lst}:"
            self.ints.append(x)
            out = [head, *self.body(level, depth, True)]
            return out
        if c < 0.94:
            v = r.choice(self.ints)
            return [
                f"{ind}while {v} > 0:",
                *self.body(level, depth, True),
                f"{ind}    {v} //= {r.choice('2233')}",
            ]
        if level == 0 and depth == 0:
            name = self.fresh("f")
            params = [self.fresh("p") for _ in range(r.choice((1, 1, 2, 3)))]
            saved = self.ints
            self.ints = saved + params
            out = [
                f"def {name}({', '.join(params)}):",
                *self.block(1, 1, False, r.choice((1, 2, 2, 3))),
                f"    return {self.expr()}",
            ]
            self.ints = saved
            self.funcs.append((name, len(params)))
            return ["", *out, ""]
        return [f"{ind}{r.choice(self.ints)} = {self.expr()}"]


def grammar_snippet(r: random.Random) -> Snippet:
    """One to three top-level statements; a function definition goes to `defs` and its call
    to the body."""
    g = _Grammar(r)
    defs: list[str] = []
    body: list[str] = []
    for _ in range(r.choice((1, 1, 2, 2, 3))):
        lines = g.stmt(0, 0, False)
        if lines and lines[0] == "":
            defs += lines[1:-1]
            name, arity = g.funcs[-1]
            args = ", ".join(g.leaf() for _ in range(arity))
            body.append(f"$ans {r.choice(('=', '+='))} {name}({args})")
        else:
            body += lines
    return Snippet("\n".join(body), defs="\n".join(defs))


@functools.lru_cache(maxsize=2)
def build_pool(seed: int, size: int = 4000) -> list[Snippet]:
    r = random.Random(f"pool/{seed}")
    return [grammar_snippet(r) for _ in range(size)]


# --------------------------------------------------------------------------------------------
# Composing, mutating and rendering programs.
# --------------------------------------------------------------------------------------------


def _renumber(lines: list[list], has_local: list[bool], offset: int, shift: int = 0) -> list[list]:
    """The lines with local slots moved up by `offset` and indented `shift` levels deeper;
    lines that would not change are shared, not copied (lines are never edited in place)."""
    if offset == 0 and shift == 0:
        return list(lines)
    n_shared = len(SHARED)
    out = []
    for line, local in zip(lines, has_local, strict=True):
        if offset and local:
            line = [t if t.__class__ is str or t < n_shared else t + offset for t in line]
            if shift and line[0] <= _IND0:
                line[0] -= shift
        elif shift and line[0] <= _IND0:
            line = [line[0] - shift, *line[1:]]
        out.append(line)
    return out


def compose(parts: list[Snippet], wrap_main: bool, r: random.Random) -> Program:
    imports: list[str] = []
    defs: list[list] = []
    body: list[list] = []
    n_slots = len(SHARED)
    shift = 1 if wrap_main else 0
    for part in parts:
        offset = n_slots - len(SHARED)
        for imp in part.imports:
            if imp not in imports:
                imports.append(imp)
        if part.defs:
            defs += _renumber(part.defs, part.defs_local, offset)
            defs.append([NL])
        body += _renumber(part.body, part.body_local, offset, shift)
        n_slots += part.n_local
    if r.random() < 0.3:
        # `import sys` first, the rest alphabetical: what isort-minded users do
        imports.sort(key=lambda imp: (not imp.startswith(("import", "from")), imp))
    lines = [[_IND0, imp, NL] for imp in imports]
    if imports:
        lines.append([NL])
    lines += defs
    if wrap_main:
        lines.append([_IND0, "def main():", NL])
        lines += body
        lines.append([NL])
        if r.random() < 0.5:
            lines.append([_IND0, "main()", NL])
        else:
            lines.append([_IND0, "if __name__", OP_CODE["=="], '"__main__":', NL])
            lines.append([_IND0 - 1, "main()", NL])
    else:
        lines += body
    return Program(lines, n_slots)


_NUMBER = re.compile(r"\b\d+\b")
_FLIP = {
    OP_CODE["<"]: OP_CODE["<="],
    OP_CODE["<="]: OP_CODE["<"],
    OP_CODE[">"]: OP_CODE[">="],
    OP_CODE[">="]: OP_CODE[">"],
    OP_CODE["+"]: OP_CODE["-"],
    OP_CODE["-"]: OP_CODE["+"],
}


def mutate(prog: Program, r: random.Random, pool: list[Snippet]) -> Program:
    """A resubmission: one number or operator changed, or a few statements added."""
    lines = prog.lines
    for _ in range(4):
        i = r.randrange(len(lines))
        line = lines[i]
        j = r.randrange(len(line))
        t = line[j]
        if t in _FLIP:
            new = list(line)
            new[j] = _FLIP[t]
            return Program([*lines[:i], new, *lines[i + 1 :]], prog.n_slots)
        if t.__class__ is str and _NUMBER.search(t):
            new = list(line)
            new[j] = _NUMBER.sub(lambda m: str(int(m.group()) + r.choice((-1, 1, 1))), t, count=1)
            return Program([*lines[:i], new, *lines[i + 1 :]], prog.n_slots)
    extra = pool[r.randrange(len(pool))]
    if extra.defs:
        extra = INPUT_IDIOMS[r.randrange(len(INPUT_IDIOMS))]
    # insert before the last statement, at its indentation: valid whatever precedes it
    at = len(lines) - 1
    while at > 0 and lines[at][0] > _IND0:
        at -= 1
    level = _IND0 - lines[at][0] if lines[at][0] <= _IND0 else 0
    added = _renumber(extra.body, extra.body_local, prog.n_slots - len(SHARED), level)
    return Program([*lines[:at], *added, *lines[at:]], prog.n_slots + extra.n_local)


def to_python2(prog: Program) -> Program:
    """`print x` statements and raw_input(), as AIZU's "Python" and AtCoder's 2.7 rows have."""
    if prog.py2 is not None:
        return prog.py2
    lines = []
    for line in prog.lines:
        new = [t.replace("input()", "raw_input()") if t.__class__ is str else t for t in line]
        if (
            len(new) >= 3
            and new[1].__class__ is str
            and new[1].startswith("print(")
            and new[-2].__class__ is str
            and new[-2].endswith(")")
            and not any(
                t.__class__ is str and ("=" in t or "*" in t or "print(" in t[1:])
                for t in new[1:-1]
            )
        ):
            new[1] = "print " + new[1][6:]
            new[-2] = new[-2][:-1]
            if new[-2] == "":
                del new[-2]
        lines.append(new)
    prog.py2 = Program(lines, prog.n_slots)
    return prog.py2


_SHARED_STYLES = [
    ("n", "m", "a", "s", "ans"),
    ("N", "M", "A", "S", "ans"),
    ("num", "k", "nums", "line", "result"),
    ("n", "q", "lst", "st", "res"),
    ("N", "K", "arr", "S", "answer"),
    ("n", "m", "l", "s", "ans"),
]
_LOCAL_POOLS = [
    ["i", "j", "x", "y", "z", "t", "p", "u", "v", "w", "c", "d", "e", "f", "g", "h", "r", "b", "o"],
    [
        "tmp",
        "cnt",
        "total",
        "cur",
        "prev",
        "nxt",
        "val",
        "idx",
        "left",
        "right",
        "mid",
        "best",
        "memo",
        "dp",
        "seen",
        "stack",
        "que",
        "visited",
        "count",
        "sm",
        "mx",
        "mn",
        "diff",
        "flag",
        "ok",
        "key",
        "value",
        "item",
        "elem",
        "pos",
        "size",
        "acc",
        "tot",
        "hi",
        "lo",
        "step",
        "target",
        "carry",
        "rest",
        "node",
        "edges",
        "graph",
        "dist",
        "parent",
        "depth",
        "order",
    ],
    [
        "tmpVal",
        "curCount",
        "maxVal",
        "minVal",
        "prevVal",
        "nextIdx",
        "sumVal",
        "countMap",
        "isOk",
        "leftIdx",
        "rightIdx",
        "midVal",
        "bestVal",
        "resultList",
        "visitedSet",
        "nodeList",
        "edgeCount",
        "stepSize",
    ],
    [
        "x1",
        "x2",
        "y1",
        "y2",
        "a1",
        "a2",
        "b1",
        "b2",
        "t1",
        "t2",
        "v1",
        "v2",
        "c1",
        "c2",
        "i1",
        "i2",
        "j1",
        "j2",
        "k1",
        "k2",
        "p1",
        "p2",
    ],
]


def _ops_table(spacing: str, comma: str, indent: str, newline: str) -> list[str]:
    """Rendered layout tokens, ordered so that table[code] works for negative codes once the
    identifier names are put in front."""
    by_code = {NL: newline, COMMA: comma}
    for level in range(MAX_LEVEL):
        by_code[_IND0 - level] = indent * level
    for op, code in OP_CODE.items():
        if spacing == "spaced":
            spaced = True
        elif spacing == "compact":
            spaced = False
        else:  # "mixed": assignments spaced, expressions tight
            spaced = op in ASSIGN_OPS or (spacing == "mixed-cmp" and op in COMPARE_OPS)
        by_code[code] = f" {op} " if spaced else op
    return [by_code[-k] for k in range(N_LAYOUT, 0, -1)]


class Style:
    """How one user writes: names, spacing, indentation, comments, line endings."""

    __slots__ = ("comment_rate", "header", "layout", "local_pool", "shared", "trailing_newline")

    def __init__(self, r: random.Random):
        self.shared = list(r.choice(_SHARED_STYLES))
        self.local_pool = r.choices(_LOCAL_POOLS, weights=(5, 4, 1, 1))[0]
        spacing = r.choices(("spaced", "compact", "mixed", "mixed-cmp"), weights=(5, 2, 2, 1))[0]
        comma = ", " if spacing != "compact" or r.random() < 0.3 else ","
        indent = r.choices(("    ", "  ", "\t"), weights=(85, 8, 7))[0]
        newline = "\r\n" if r.random() < 0.06 else "\n"
        self.layout = _ops_table(spacing, comma, indent, newline)
        self.comment_rate = r.choices((0.0, 0.4, 1.5), weights=(6, 3, 1))[0]
        self.trailing_newline = r.random() < 0.88
        c = r.random()
        self.header = (
            "#!/usr/bin/env python3" if c < 0.05 else "# -*- coding: utf-8 -*-" if c < 0.1 else None
        )


def render(prog: Program, style: Style, r: random.Random, compile_error: bool) -> bytes:
    n_local = prog.n_slots - len(SHARED)
    pool = style.local_pool
    size = len(pool)
    start = 0 if r.random() < 0.5 else r.randrange(size)
    names = style.shared + [
        pool[(start + i) % size] if i < size else f"{pool[(start + i) % size]}{i // size}"
        for i in range(n_local)
    ]
    table = names + style.layout
    n_comments = int(style.comment_rate * r.random() * 3) if style.comment_rate else 0
    if n_comments == 0:
        text = "".join([t if t.__class__ is str else table[t] for line in prog.lines for t in line])
    else:
        at = {r.randrange(len(prog.lines)): r.choice(COMMENTS) for _ in range(n_comments)}
        parts = []
        newline = table[NL]
        for i, line in enumerate(prog.lines):
            if i in at:
                parts.append(table[line[0]] + at[i] + newline if line[0] != NL else at[i] + newline)
            parts += [t if t.__class__ is str else table[t] for t in line]
        text = "".join(parts)
    if style.header:
        text = style.header + table[NL] + text
    if compile_error:
        text = break_syntax(text, r)
    if not style.trailing_newline:
        text = text.rstrip("\r\n")
    return text.encode("utf-8")


def break_syntax(text: str, r: random.Random) -> str:
    """A Compile Error row's source: drop a block colon, an opening paren or add a stray token."""
    kind = r.randrange(3)
    if kind == 0:
        spots = [m.start() for m in re.finditer(r":\r?\n", text)]
        if spots:
            i = r.choice(spots)
            return text[:i] + text[i + 1 :]
    if kind <= 1:
        i = text.find("(")
        if i >= 0:
            return text[:i] + text[i + 1 :]
    return text.replace("\n", "\nfor in range\n", 1) if "\n" in text else text + " )("


# --------------------------------------------------------------------------------------------
# Metadata: statuses, languages, judge figures.
# --------------------------------------------------------------------------------------------


def python_status_weights(stats: dict) -> dict[str, float]:
    """Accepted at Python's share; the rest in CodeNet's overall proportions."""
    accepted, rejected = stats["language_counts"]["Python"]
    p_accepted = accepted / (accepted + rejected)
    counts = stats["status_counts"]
    others = {k: v for k, v in counts.items() if k != "Accepted"}
    total_others = sum(others.values())
    weights = {"Accepted": p_accepted}
    weights.update({k: (1 - p_accepted) * v / total_others for k, v in others.items()})
    return weights


def overall_status_weights(stats: dict) -> dict[str, float]:
    counts = stats["status_counts"]
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


class Sampler:
    """Fast weighted choice: cumulative weights + bisect."""

    __slots__ = ("cum", "items")

    def __init__(self, weights: dict):
        self.items = list(weights)
        total = 0.0
        self.cum = []
        for w in weights.values():
            total += w
            self.cum.append(total)
        self.cum = [c / total for c in self.cum]

    def __call__(self, r: random.Random):
        return self.items[min(bisect.bisect(self.cum, r.random()), len(self.items) - 1)]


# original_language -> (weight, python2?, memory KB base, memory spread, cpu ms base)
PYTHON_FLAVOURS = {
    "AIZU": {"Python3": (70, False, 5600, 800, 20), "Python": (30, True, 4624, 600, 10)},
    "AtCoder": {
        "Python (3.4.3)": (35, False, 3060, 9000, 17),
        "Python (3.8.2)": (30, False, 8900, 12000, 24),
        "PyPy3 (7.3.0)": (12, False, 61000, 40000, 60),
        "PyPy3 (2.4.0)": (10, False, 38000, 50000, 160),
        "Python (2.7.6)": (10, True, 2568, 6000, 10),
        "PyPy2 (5.6.0)": (3, True, 8000, 30000, 40),
    },
}

# language -> (original_language names, extension); counts are CodeNet's totals
OTHER_LANGUAGES = {
    "C++": (("C++14 (GCC 5.4.1)", "C++", "C++ (GCC 9.2.1)", "C++11", "C++14"), "cpp"),
    "Java": (("Java8 (OpenJDK 1.8.0)", "JAVA", "Java (OpenJDK 11.0.6)"), "java"),
    "C": (("C (GCC 5.4.1)", "C", "C (GCC 9.2.1)", "C (Clang 3.8.0)"), "c"),
    "Ruby": (("Ruby (2.3.3)", "Ruby", "Ruby (2.7.1)"), "rb"),
    "C#": (("C# (Mono 4.6.2.0)", "C#", "C# (.NET Core 3.1.201)"), "cs"),
    "Rust": (("Rust (1.15.1)", "Rust (1.42.0)"), "rs"),
    "Go": (("Go (1.6)", "Go", "Go (1.14.1)"), "go"),
    "Haskell": (("Haskell (GHC 7.10.3)", "Haskell"), "hs"),
    "JavaScript": (("JavaScript (node.js v5.12)", "JavaScript"), "js"),
    "Kotlin": (("Kotlin (1.0.0)",), "kt"),
    "D": (("D (DMD64 v2.070.1)", "D"), "d"),
    "Scala": (("Scala (2.11.7)", "Scala"), "scala"),
    "PHP": (("PHP (5.6.30)", "PHP"), "php"),
    "Perl": (("Perl (v5.18.2)", "Perl"), "pl"),
    "OCaml": (("OCaml (4.02.3)", "OCaml"), "ml"),
}

DATE_RANGE = {"AIZU": (1072915200, 1601510400), "AtCoder": (1467331200, 1601510400)}


def other_language_weights(stats: dict, language: str) -> dict[str, float]:
    counts = {k: sum(v) for k, v in stats["language_counts"].items() if k != language}
    rest = stats["submissions_total"] - sum(sum(v) for v in stats["language_counts"].values())
    minor = [k for k in OTHER_LANGUAGES if k not in counts]
    for k in minor:
        counts[k] = rest / len(minor)
    return counts


def judge_figures(
    r: random.Random, dataset: str, status: str, flavour: tuple, time_limit: int, memory_limit: int
) -> tuple[str, str]:
    """cpu_time (ms), memory (KB) as the judges print them, blanks and -10s included."""
    _, _, mem_base, mem_spread, cpu_base = flavour
    if status == "Compile Error" or status.startswith(("Judge", "Internal")):
        return ("", "") if dataset == "AtCoder" else ("0", "0")
    if dataset == "AIZU" and status == "Runtime Error":
        return ("-10", "0") if r.random() < 0.03 else ("0", "0")
    memory = mem_base + int(r.random() ** 3 * mem_spread)
    if status == "Time Limit Exceeded":
        cpu = time_limit + r.randrange(1, 220)
    else:
        cpu = cpu_base + int(r.random() ** 4 * time_limit)
        if dataset == "AIZU":
            cpu -= cpu % 10
    if status == "Memory Limit Exceeded":
        memory = memory_limit + r.randrange(1, 5000)
    return str(cpu), str(memory)


def scramble(i: int, salt: int) -> int:
    """A bijection of [0, 10**9): distinct ids that look random."""
    return (387420489 * i + salt) % 1_000_000_000


# --------------------------------------------------------------------------------------------
# One problem: the worker's unit.
# --------------------------------------------------------------------------------------------

_G: dict = {}  # the worker's read-only state, set before the pool forks


def _target_size(r: random.Random) -> int:
    if r.random() < 0.015:
        return min(60000, int(2500 * r.paretovariate(1.1)))
    return max(20, int(r.lognormvariate(math.log(230), 0.85)))


def make_problem_programs(r: random.Random, dataset: str):
    """A problem's shape: its usual input idioms, the approach most solutions share."""
    pool = _G["pool"]
    if dataset == "AIZU" and r.random() < 0.3:
        idioms = [INPUT_IDIOMS[i] for i in (14, 15, 16)]
    else:
        idioms = r.sample(INPUT_IDIOMS, 3)
    core = [pool[r.randrange(len(pool))] for _ in range(2)]
    if r.random() < 0.4:
        core.append(LIBRARY[r.randrange(len(LIBRARY))])
    outputs = r.sample(OUTPUTS, 2)

    def new_program() -> Program:
        target = _target_size(r)
        parts = [r.choice(idioms)]
        size = parts[0].size
        for snippet in core:
            if r.random() < 0.6:
                parts.append(snippet)
                size += snippet.size
        while size < target - 40:
            if (target > 2500 and r.random() < 0.5) or r.random() < 0.04:
                snippet = LIBRARY[r.randrange(len(LIBRARY))]
            else:
                snippet = pool[r.randrange(len(pool))]
            parts.append(snippet)
            size += snippet.size
        parts.append(r.choice(outputs) if r.random() < 0.8 else OUTPUTS[r.randrange(len(OUTPUTS))])
        return compose(parts, wrap_main=r.random() < 0.15, r=r)

    return new_program


def generate_problem(task: dict) -> dict:
    g = _G
    r = random.Random(f"{g['seed']}/{task['problem_id']}")
    pid, dataset = task["problem_id"], task["dataset"]
    language, ext = g["language"], "py"
    time_limit, memory_limit = task["time_limit"], task["memory_limit"]
    out = g["out"]
    src_dir = out / "data" / pid / language
    src_dir.mkdir(parents=True, exist_ok=True)
    dfd = os.open(src_dir, os.O_RDONLY | os.O_DIRECTORY)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    pool = g["pool"]
    status_of = g["python_status"]
    flavours = PYTHON_FLAVOURS[dataset]
    flavour_of = Sampler({k: v[0] for k, v in flavours.items()})
    n_users = g["n_users"]
    user_salt = g["user_salt"]
    id_salt = g["id_salt"]
    styles = g["styles"]
    lo, hi = DATE_RANGE[dataset]
    tests = task["tests"] = r.randint(1, 40)
    new_program = make_problem_programs(r, dataset)
    programs: list[Program] = []
    picks: list[int] = []  # one entry per submission that copied a program: popularity
    verbatim: dict[tuple[int, bool], bytes] = {}  # first rendering of a program: copy-paste
    rows: list[tuple[int, str]] = []
    statuses: Counter = Counter()
    n_bytes = 0
    gid = task["id_offset"]
    remaining = task["n_python"]

    def pick_program() -> tuple[Program, int]:
        if not programs or r.random() < 0.6:
            programs.append(new_program())
            picks.append(len(programs) - 1)
        else:
            picks.append(picks[r.randrange(len(picks))])
        return programs[picks[-1]], picks[-1]

    try:
        while remaining:
            attempts = 1
            while r.random() < 0.25 and attempts < 12:
                attempts += 1
            attempts = min(attempts, remaining)
            remaining -= attempts
            user = int(n_users * r.random() ** 1.5)
            user_id = f"u{scramble(user, user_salt):09d}"
            style = styles[(user * 2654435761 >> 7) % len(styles)]
            chain = [status_of(r) for _ in range(attempts)]
            if "Accepted" in chain[:-1]:
                chain.remove("Accepted")
                chain.append("Accepted")
            flavour_name = flavour_of(r)
            flavour = flavours[flavour_name]
            py2 = flavour[1] and r.random() < 0.7
            date = lo + int((hi - lo) * r.random() ** 0.5)
            prog, index = pick_program()
            for k, status in enumerate(chain):
                if k:
                    if r.random() < 0.75:
                        prog, index = mutate(prog, r, pool), -1
                    else:
                        prog, index = pick_program()
                    date += r.randrange(30, 86400)
                compile_error = status == "Compile Error"
                key = (index, py2)
                if key in verbatim and not compile_error and r.random() < 0.35:
                    data = verbatim[key]
                else:
                    data = render(to_python2(prog) if py2 else prog, style, r, compile_error)
                    if index >= 0 and not compile_error:
                        verbatim.setdefault(key, data)
                sid = f"s{scramble(gid, id_salt):09d}"
                gid += 1
                fd = os.open(f"{sid}.{ext}", flags, 0o644, dir_fd=dfd)
                os.write(fd, data)
                os.close(fd)
                n_bytes += len(data)
                statuses[status] += 1
                cpu, memory = judge_figures(r, dataset, status, flavour, time_limit, memory_limit)
                if dataset == "AIZU":
                    passed = (
                        tests
                        if status == "Accepted"
                        else (0 if status == "Compile Error" else r.randrange(tests))
                    )
                    accuracy = f"{passed}/{tests}"
                else:
                    accuracy = ""
                rows.append(
                    (
                        date,
                        f"{sid},{pid},{user_id},{date},{language},{flavour_name},{ext},"
                        f"{status},{cpu},{memory},{len(data)},{accuracy}",
                    )
                )
    finally:
        os.close(dfd)
    rows.sort(key=lambda row: -row[0])
    blocks = {language: [row for _, row in rows]}
    blocks.update(other_rows(r, task, gid))
    order = list(blocks)
    r.shuffle(order)
    newline = "\r\n" if r.random() < 0.03 else "\n"
    text = newline.join([CSV_HEADER, *(row for lang in order for row in blocks[lang])]) + newline
    (out / "metadata" / f"{pid}.csv").write_bytes(text.encode())
    return {
        "files": task["n_python"],
        "bytes": n_bytes,
        "statuses": statuses,
        "programs": len(programs),
    }


def other_rows(r: random.Random, task: dict, gid: int) -> dict[str, list[str]]:
    """Metadata rows of the other languages (no source files); kept cheap: ~10M at 3.3M."""
    g = _G
    pid, dataset = task["problem_id"], task["dataset"]
    rnd = r.random
    statuses, status_cum = g["overall_status"].items, g["overall_status"].cum
    languages, language_cum = g["other_language"].items, g["other_language"].cum
    lo, span = DATE_RANGE[dataset][0], DATE_RANGE[dataset][1] - DATE_RANGE[dataset][0]
    tests, time_limit = task["tests"], task["time_limit"]
    aizu = dataset == "AIZU"
    blank = "0,0" if aizu else ","
    n_users, user_salt, id_salt = g["n_users"], g["user_salt"], g["id_salt"]
    blocks: dict[str, list[str]] = {}
    for _ in range(task["n_other"]):
        language = languages[bisect.bisect(language_cum, rnd())]
        names, ext = OTHER_LANGUAGES[language]
        status = statuses[bisect.bisect(status_cum, rnd())]
        if status == "Compile Error" or status.startswith(("Judge", "Internal")):
            figures = blank
        elif status == "Time Limit Exceeded":
            figures = f"{time_limit + int(rnd() * 200)},{1000 + int(rnd() ** 3 * 60000)}"
        else:
            figures = f"{int(rnd() ** 4 * time_limit)},{1000 + int(rnd() ** 3 * 60000)}"
        if aizu:
            accuracy = f"{tests if status == 'Accepted' else int(rnd() * tests)}/{tests}"
        else:
            accuracy = ""
        blocks.setdefault(language, []).append(
            f"s{scramble(gid, id_salt):09d},{pid},u{scramble(int(n_users * rnd() ** 1.5), user_salt):09d},"
            f"{lo + int(span * rnd() ** 0.5)},{language},{names[gid % len(names)]},{ext},{status},"
            f"{figures},{60 + int(rnd() ** 3 * 6000)},{accuracy}"
        )
        gid += 1
    return blocks


# --------------------------------------------------------------------------------------------
# The whole tree.
# --------------------------------------------------------------------------------------------


def load_statements(path: Path) -> dict[str, bytes]:
    statements = {}
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            name = member.name.rsplit("/", 1)[-1]
            if member.isfile() and name.endswith(".html"):
                statements[name[:-5]] = tar.extractfile(member).read()
    return statements


_TITLE = re.compile(rb"<h1[^>]*>\s*([^<]+?)\s*</h1>", re.IGNORECASE)


def plan_problems(
    n: int,
    seed: int,
    stats: dict,
    language: str,
    other_languages: bool,
    statements: dict[str, bytes],
) -> list[dict]:
    """Problem ids, datasets, limits and how many submissions each gets (exactly n in all)."""
    r = random.Random(f"plan/{seed}")
    n_problems = max(1, round(n / SUBMISSIONS_PER_PROBLEM))
    problems = []
    for k in range(n_problems):
        index = k * REAL_PROBLEMS // n_problems if n_problems <= REAL_PROBLEMS else k
        pid = f"p{index:05d}"
        real = index < REAL_PROBLEMS
        dataset = "AIZU" if (index < FIRST_ATCODER if real else r.random() < 0.6) else "AtCoder"
        if dataset == "AIZU":
            time_limit = r.choices((1000, 2000, 3000, 5000, 8000), weights=(70, 10, 8, 8, 4))[0]
            memory_limit = r.choices((131072, 65536, 262144), weights=(85, 10, 5))[0]
        else:
            time_limit = r.choices((2000, 3000, 4000), weights=(90, 6, 4))[0]
            memory_limit = r.choices((1048576, 262144, 524288), weights=(60, 30, 10))[0]
        weight = r.lognormvariate(0, 1.1) * (ATCODER_WEIGHT if dataset == "AtCoder" else 1.0)
        problems.append(
            {
                "problem_id": pid,
                "dataset": dataset,
                "time_limit": time_limit,
                "memory_limit": memory_limit,
                "weight": weight,
                "real": real,
            }
        )
    # exactly n submissions, at least one per problem, shares by weight (largest remainders)
    total = sum(p["weight"] for p in problems)
    spare = n - n_problems
    shares = [spare * p["weight"] / total for p in problems]
    counts = [1 + int(s) for s in shares]
    by_remainder = sorted(range(n_problems), key=lambda i: int(shares[i]) - shares[i])
    for i in by_remainder[: n - sum(counts)]:
        counts[i] += 1
    lang_counts = stats["language_counts"][language]
    other_ratio = (stats["submissions_total"] - sum(lang_counts)) / sum(lang_counts)
    offset = 0
    names_cycle = sorted(statements)
    for k, (p, count) in enumerate(zip(problems, counts, strict=True)):
        p["n_python"] = count
        p["n_other"] = int(count * other_ratio * r.uniform(0.6, 1.4)) if other_languages else 0
        p["id_offset"] = offset
        offset += count + p["n_other"]
        if p["real"]:
            p["statement"] = statements.get(p["problem_id"])  # CodeNet lacks 54: so do we
        else:
            p["statement"] = statements[names_cycle[k % len(names_cycle)]]
        title = _TITLE.search(p["statement"] or b"")
        if p["dataset"] == "AtCoder":
            contest = 42 + int(p["problem_id"][1:]) // 6 % 140
            p["name"] = f"AtCoder Beginner Contest {contest:03d} - {'ABCDEF'[k % 6]}"
        else:
            p["name"] = title.group(1).decode("utf-8", "replace") if title else f"Problem {k}"
    return problems


def _csv_field(text: str) -> str:
    return f'"{text.replace(chr(34), chr(34) * 2)}"' if any(c in text for c in ',"\n') else text


def write_problem_list(out: Path, problems: list[dict]) -> None:
    lines = [PROBLEM_LIST_HEADER]
    for p in problems:
        lines.append(
            f"{p['problem_id']},{_csv_field(p['name'])},{p['dataset']},"
            f"{p['time_limit']},{p['memory_limit']},,,"
        )
    (out / "metadata" / "problem_list.csv").write_text("\n".join(lines) + "\n")


def synthesise(
    n: int,
    out: Path,
    seed: int = 0,
    language: str = "Python",
    workers: int | None = None,
    other_languages: bool = True,
    statistics: Path = DEFAULT_STATISTICS,
    statements_tar: Path = DEFAULT_STATEMENTS,
    quiet: bool = False,
) -> dict:
    """Write the tree; returns a summary (files, bytes, seconds, status counts)."""
    if language != "Python":
        raise SystemExit(
            "synth_codenet: only Python sources can be synthesised (--language Python)"
        )
    if n < 1:
        raise SystemExit("synth_codenet: --submissions must be at least 1")
    started = time.perf_counter()
    stats = json.loads(statistics.read_text())
    statements = load_statements(statements_tar)
    problems = plan_problems(n, seed, stats, language, other_languages, statements)
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"synth_codenet: {out} is not empty (remove it first, or use --force)")
    (out / "metadata").mkdir(parents=True, exist_ok=True)
    (out / "problem_descriptions").mkdir(exist_ok=True)
    write_problem_list(out, problems)
    for p in problems:
        if p["statement"] is not None:
            (out / "problem_descriptions" / f"{p['problem_id']}.html").write_bytes(p["statement"])
    r = random.Random(f"salts/{seed}")
    style_rng = random.Random(f"styles/{seed}")
    _G.update(
        seed=seed,
        out=out,
        language=language,
        pool=build_pool(seed),
        python_status=Sampler(python_status_weights(stats)),
        overall_status=Sampler(overall_status_weights(stats)),
        other_language=Sampler(other_language_weights(stats, language)),
        n_users=max(50, n // 12),
        user_salt=r.randrange(10**9),
        id_salt=r.randrange(10**9),
        styles=[Style(style_rng) for _ in range(64)],
    )
    tasks = [{k: v for k, v in p.items() if k not in ("statement", "weight")} for p in problems]
    tasks.sort(key=lambda t: -(t["n_python"] + t["n_other"] // 8))  # big ones first: balance
    workers = workers or os.cpu_count() or 1
    totals = {"files": 0, "bytes": 0, "statuses": Counter(), "programs": 0}
    done = 0
    report_every = max(1, len(tasks) // 20)

    def add(result: dict) -> None:
        nonlocal done
        for key in ("files", "bytes", "programs"):
            totals[key] += result[key]
        totals["statuses"].update(result["statuses"])
        done += 1
        if not quiet and done % report_every == 0:
            rate = totals["files"] / (time.perf_counter() - started)
            print(
                f"  {done}/{len(tasks)} problems, {totals['files']:,} files, {rate:,.0f} files/s",
                file=sys.stderr,
                flush=True,
            )

    if workers == 1:
        for task in tasks:
            add(generate_problem(task))
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for result in pool.imap_unordered(generate_problem, tasks, chunksize=1):
                add(result)
    summary = {
        "submissions": n,
        "seed": seed,
        "language": language,
        "problems": len(problems),
        "other_languages": other_languages,
        "files": totals["files"],
        "bytes": totals["bytes"],
        "distinct_programs": totals["programs"],
        "metadata_rows": sum(p["n_python"] + p["n_other"] for p in problems),
        "statuses": dict(sorted(totals["statuses"].items(), key=lambda kv: -kv[1])),
        "seconds": round(time.perf_counter() - started, 2),
        "workers": workers,
    }
    (out / MARKER).write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def disk_usage(path: Path) -> int:
    """Bytes allocated on disk (what `du -s` counts)."""
    total = 0
    stack = [str(path)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                st = entry.stat(follow_symlinks=False)
                total += st.st_blocks * 512
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
    return total


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--submissions", type=int, required=True, help="rows of --language (= source files)"
    )
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--language", default="Python")
    ap.add_argument("--workers", type=int, default=None, help="default: all cores")
    ap.add_argument(
        "--other-languages",
        choices=("real", "none"),
        default="real",
        help="metadata rows of other languages at CodeNet's mix (real) or none",
    )
    ap.add_argument(
        "--statistics",
        type=Path,
        default=DEFAULT_STATISTICS,
        help="codenet-statistics.json (status and language mix)",
    )
    ap.add_argument(
        "--statements",
        type=Path,
        default=DEFAULT_STATEMENTS,
        help="tar.gz of problem_descriptions/pNNNNN.html",
    )
    ap.add_argument("--force", action="store_true", help="delete OUT first if it exists")
    ap.add_argument("--du", action="store_true", help="also measure the disk size (walks the tree)")
    args = ap.parse_args(argv)
    if args.force and args.out.exists():
        shutil.rmtree(args.out)
    summary = synthesise(
        args.submissions,
        args.out,
        args.seed,
        args.language,
        args.workers,
        other_languages=args.other_languages == "real",
        statistics=args.statistics,
        statements_tar=args.statements,
    )
    if args.du:
        summary["disk_bytes"] = disk_usage(args.out)
        (args.out / MARKER).write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
