"""The catalogue behind the bundled sample's Python sources: program parts per problem and status.

A program is either a whole `program`, or a `reader` (input parsing, with an `@BODY` line where
the work goes) joined with a `body` (the work and the output). A `broken_reader` is a reader that
by itself produces its status (EOFError at the end of input, a parse that ignores the input
format, a loop that never ends) and is joined with Accepted bodies. Readers and bodies meet
through `io`, the names the reader defines.

Part text is Python 3. Lines before a `---` line are top-level helpers; `import` lines are
hoisted to the top of the program. `py` says which dialects may use a part: "*" is Python 3
that the generator can convert to Python 2 (print statement, raw_input), "2" or "3" is that
dialect only. Every part was checked against the problem's samples by running it
(`scripts/make_sample_sources.py --check`).
"""

from __future__ import annotations

import itertools
import textwrap
from dataclasses import dataclass, field

AC = "Accepted"
WA = "Wrong Answer"
PE = "WA: Presentation Error"
RE = "Runtime Error"
TLE = "Time Limit Exceeded"
MLE = "Memory Limit Exceeded"


@dataclass(frozen=True)
class Snippet:
    name: str
    text: str
    py: str = "*"
    io: str = ""
    # broken readers only: the Accepted bodies that this reader turns into its status
    only: tuple[str, ...] = ()


def part(name: str, text: str, py: str = "*", io: str = "", only: tuple[str, ...] = ()) -> Snippet:
    return Snippet(name, textwrap.dedent(text).strip("\n") + "\n", py, io, only)


@dataclass(frozen=True)
class Problem:
    headers: tuple[str, ...]
    readers: tuple[Snippet, ...] = ()
    bodies: dict[str, tuple[Snippet, ...]] = field(default_factory=dict)
    broken_readers: dict[str, tuple[Snippet, ...]] = field(default_factory=dict)
    programs: dict[str, tuple[Snippet, ...]] = field(default_factory=dict)


# --------------------------------------------------------------------------- p00002
# Digit Number: for each line "a b" until EOF, print the number of digits of a + b.

P00002 = Problem(
    headers=("# AOJ 0002 Digit Number", "# Volume 0 - 0002", "# digit number"),
    readers=(
        part(
            "for-stdin",
            """
            import sys
            for line in sys.stdin:
                a, b = map(int, line.split())
                @BODY
            """,
        ),
        part(
            "try-eof",
            """
            while True:
                try:
                    a, b = map(int, input().split())
                except EOFError:
                    break
                @BODY
            """,
        ),
        part(
            "try-bare",
            """
            while True:
                try:
                    a, b = map(int, input().split())
                except:
                    break
                @BODY
            """,
        ),
        part(
            "try-line",
            """
            while True:
                try:
                    line = input()
                except EOFError:
                    break
                a, b = [int(x) for x in line.split()]
                @BODY
            """,
        ),
        part(
            "readlines",
            """
            import sys
            for line in sys.stdin.readlines():
                a, b = [int(v) for v in line.split()]
                @BODY
            """,
        ),
        part(
            "read-split",
            """
            import sys
            data = sys.stdin.read().split()
            for idx in range(0, len(data), 2):
                a = int(data[idx])
                b = int(data[idx + 1])
                @BODY
            """,
        ),
        part(
            "readline-loop",
            """
            import sys
            while True:
                line = sys.stdin.readline()
                if not line:
                    break
                a, b = map(int, line.split())
                @BODY
            """,
        ),
        part(
            "splitlines",
            """
            import sys
            lines = sys.stdin.read().splitlines()
            for row in lines:
                a, b = map(int, row.split())
                @BODY
            """,
        ),
        part(
            "pairs",
            """
            import sys
            pairs = [list(map(int, l.split())) for l in sys.stdin]
            for a, b in pairs:
                @BODY
            """,
        ),
        part(
            "strip-skip",
            """
            import sys
            for line in sys.stdin:
                line = line.strip()
                if line == "":
                    continue
                a, b = map(int, line.split(" "))
                @BODY
            """,
        ),
    ),
    bodies={
        AC: (
            part("len-str", "print(len(str(a + b)))"),
            part(
                "len-str-var",
                """
                total = a + b
                print(len(str(total)))
                """,
            ),
            part(
                "div-loop",
                """
                total = a + b
                digits = 1
                while total >= 10:
                    total //= 10
                    digits += 1
                print(digits)
                """,
            ),
            part(
                "div-loop-break",
                """
                n = a + b
                cnt = 0
                while True:
                    n //= 10
                    cnt += 1
                    if n == 0:
                        break
                print(cnt)
                """,
            ),
            part(
                "log10",
                """
                import math
                if a + b == 0:
                    print(1)
                else:
                    print(int(math.log10(a + b)) + 1)
                """,
            ),
            part(
                "log10-floor",
                """
                import math
                print(math.floor(math.log10(a + b)) + 1)
                """,
                py="3",
            ),
            part(
                "pow10",
                """
                for k in range(1, 10):
                    if a + b < 10 ** k:
                        print(k)
                        break
                """,
            ),
            part("percent-d", 'print(len("%d" % (a + b)))'),
            part("format", 'print(len("{}".format(a + b)))'),
            part("list-str", "print(len(list(str(a + b))))"),
            part(
                "recursive",
                """
                def digits(n):
                    if n < 10:
                        return 1
                    return 1 + digits(n // 10)
                ---
                print(digits(a + b))
                """,
            ),
        ),
        WA: (
            part("product", "print(len(str(a * b)))"),
            part("sum-of-lengths", "print(len(str(a)) + len(str(b)))"),
            part("plus-one", "print(len(str(a + b)) + 1)"),
            part(
                "log10-no-plus",
                """
                import math
                print(int(math.log10(a + b)))
                """,
            ),
            part(
                "log10-ceil",
                """
                import math
                print(int(math.ceil(math.log10(a + b))))
                """,
            ),
            part("longer-operand", "print(max(len(str(a)), len(str(b))))"),
            part("the-sum", "print(a + b)"),
            part(
                "loop-strict",
                """
                total = a + b
                digits = 0
                while total > 10:
                    total //= 10
                    digits += 1
                print(digits)
                """,
            ),
            part("concat", "print(len(str(a) + str(b)))"),
            part("no-newline", 'print(len(str(a + b)), end="")', py="3"),
            part(
                "pow10-le",
                """
                for k in range(1, 10):
                    if a + b <= 10 ** k:
                        print(k)
                        break
                """,
            ),
        ),
        RE: (
            part("len-of-int", "print(len(a + b))"),
            part("math-not-imported", "print(int(math.log10(a + b)) + 1)"),
            part(
                "recursion-no-base",
                """
                def digits(n):
                    return 1 + digits(n // 10)
                ---
                print(digits(a + b))
                """,
            ),
            part(
                "typo",
                """
                total = a + b
                print(len(str(totl)))
                """,
            ),
            part("sum-two-ints", "print(len(str(sum(a, b))))"),
            part("join-ints", 'print(len("".join([a, b])))'),
        ),
    },
    broken_readers={
        RE: (
            part(
                "no-eof-check",
                """
                while True:
                    a, b = map(int, input().split())
                    @BODY
                """,
            ),
            part(
                "readline-no-check",
                """
                import sys
                while True:
                    line = sys.stdin.readline()
                    a, b = map(int, line.split())
                    @BODY
                """,
            ),
            part(
                "sys-not-imported",
                """
                for line in sys.stdin:
                    a, b = map(int, line.split())
                    @BODY
                """,
            ),
            part(
                "raw-input",
                """
                while True:
                    try:
                        a, b = map(int, raw_input().split())
                    except EOFError:
                        break
                    @BODY
                """,
                py="3",
            ),
            part(
                "input-evaluates",
                """
                while True:
                    try:
                        a, b = input()
                    except EOFError:
                        break
                    @BODY
                """,
                py="2",
            ),
            part(
                "comma-split",
                """
                import sys
                for line in sys.stdin:
                    a, b = map(int, line.split(","))
                    @BODY
                """,
            ),
            part(
                "count-first",
                """
                n = int(input())
                for _ in range(n):
                    a, b = map(int, input().split())
                    @BODY
                """,
            ),
            part(
                "pair-index",
                """
                import sys
                data = list(map(int, sys.stdin.read().split()))
                for idx in range(len(data)):
                    a = data[2 * idx]
                    b = data[2 * idx + 1]
                    @BODY
                """,
            ),
            part(
                "wrong-exception",
                """
                while True:
                    try:
                        a, b = map(int, input().split())
                    except ValueError:
                        break
                    @BODY
                """,
            ),
            part(
                "blank-line-end",
                """
                while True:
                    line = input()
                    if line == "":
                        break
                    a, b = map(int, line.split())
                    @BODY
                """,
            ),
        ),
        TLE: (
            part(
                "eof-continue",
                """
                while True:
                    try:
                        a, b = map(int, input().split())
                    except EOFError:
                        continue
                    @BODY
                """,
            ),
            part(
                "zero-zero-end",
                """
                import sys
                while True:
                    line = sys.stdin.readline().strip()
                    if line == "0 0":
                        break
                    if line:
                        a, b = map(int, line.split())
                        @BODY
                """,
            ),
        ),
    },
    programs={
        AC: (
            part(
                "sum-map",
                """
                import sys
                for line in sys.stdin:
                    print(len(str(sum(map(int, line.split())))))
                """,
            ),
            part(
                "join-generator",
                """
                import sys
                print("\\n".join(str(len(str(sum(map(int, l.split()))))) for l in sys.stdin))
                """,
            ),
            part(
                "collect-then-print",
                """
                import sys
                ans = []
                for line in sys.stdin:
                    a, b = map(int, line.split())
                    ans.append(len(str(a + b)))
                for d in ans:
                    print(d)
                """,
            ),
        ),
        WA: (
            part(
                "first-line-only",
                """
                a, b = map(int, input().split())
                print(len(str(a + b)))
                """,
            ),
            part(
                "sum-everything",
                """
                import sys
                nums = list(map(int, sys.stdin.read().split()))
                print(len(str(sum(nums))))
                """,
            ),
        ),
        RE: (
            part(
                "index-past-end",
                """
                import sys
                lines = sys.stdin.readlines()
                for i in range(len(lines) + 1):
                    a, b = map(int, lines[i].split())
                    print(len(str(a + b)))
                """,
            ),
            part(
                "map-subscript",
                """
                import sys
                for line in sys.stdin:
                    nums = map(int, line.split())
                    print(len(str(nums[0] + nums[1])))
                """,
                py="3",
            ),
        ),
    },
)

# --------------------------------------------------------------------------- p02256
# Greatest Common Divisor of two natural numbers a and b (up to 10^9).

P02256 = Problem(
    headers=("# ALDS1_1_B Greatest Common Divisor", "# ALDS1_1_B", "# GCD", "# Euclid"),
    readers=(
        part("map-split", "a, b = map(int, input().split())\n@BODY"),
        part("list-comp", "a, b = [int(x) for x in input().split()]\n@BODY"),
        part(
            "sys-readline",
            """
            import sys
            a, b = map(int, sys.stdin.readline().split())
            @BODY
            """,
        ),
        part(
            "tokens",
            """
            tokens = input().split()
            a = int(tokens[0])
            b = int(tokens[1])
            @BODY
            """,
        ),
        part(
            "sys-read",
            """
            import sys
            a, b = map(int, sys.stdin.read().split())
            @BODY
            """,
        ),
        part(
            "nums-list",
            """
            nums = list(map(int, input().split()))
            a, b = nums[0], nums[1]
            @BODY
            """,
        ),
        part("generator", "a, b = (int(v) for v in input().split())\n@BODY"),
        part(
            "split-space",
            """
            line = input()
            a, b = map(int, line.split(" "))
            @BODY
            """,
        ),
        part("sorted-desc", "a, b = sorted(map(int, input().split()), reverse=True)\n@BODY"),
    ),
    bodies={
        AC: (
            part(
                "euclid-tuple",
                """
                while b:
                    a, b = b, a % b
                print(a)
                """,
            ),
            part(
                "euclid-temp",
                """
                while b != 0:
                    r = a % b
                    a = b
                    b = r
                print(a)
                """,
            ),
            part(
                "euclid-swap-first",
                """
                if a < b:
                    a, b = b, a
                while a % b != 0:
                    a, b = b, a % b
                print(b)
                """,
            ),
            part(
                "recursive-ternary",
                """
                def gcd(x, y):
                    return x if y == 0 else gcd(y, x % y)
                ---
                print(gcd(a, b))
                """,
            ),
            part(
                "recursive-if",
                """
                def gcd(x, y):
                    if y == 0:
                        return x
                    return gcd(y, x % y)
                ---
                print(gcd(a, b))
                """,
            ),
            part(
                "recursive-ordered",
                """
                def gcd(x, y):
                    if x < y:
                        x, y = y, x
                    if x % y == 0:
                        return y
                    return gcd(y, x % y)
                ---
                print(gcd(a, b))
                """,
            ),
            part(
                "math-gcd",
                """
                import math
                print(math.gcd(a, b))
                """,
                py="3",
            ),
            part(
                "from-math-gcd",
                """
                from math import gcd
                print(gcd(a, b))
                """,
                py="3",
            ),
            part(
                "fractions-gcd",
                """
                from fractions import gcd
                print gcd(a, b)
                """,
                py="2",
            ),
            part(
                "subtraction",
                """
                while a != b:
                    if a > b:
                        a -= b
                    else:
                        b -= a
                print(a)
                """,
            ),
            part(
                "divisors-desc",
                """
                for d in range(min(a, b), 0, -1):
                    if a % d == 0 and b % d == 0:
                        print(d)
                        break
                """,
            ),
            part(
                "divisor-sets",
                """
                da = set(d for d in range(1, a + 1) if a % d == 0)
                db = set(d for d in range(1, b + 1) if b % d == 0)
                print(max(da & db))
                """,
            ),
            part(
                "iterative-function",
                """
                def gcd(x, y):
                    while y:
                        x, y = y, x % y
                    return x
                ---
                print(gcd(a, b))
                """,
            ),
            part(
                "lambda",
                """
                gcd = lambda x, y: gcd(y, x % y) if y else x
                print(gcd(a, b))
                """,
            ),
            part(
                "divmod",
                """
                while b > 0:
                    q, r = divmod(a, b)
                    a, b = b, r
                print(a)
                """,
            ),
        ),
        WA: (
            part("remainder", "print(a % b)"),
            part(
                "prints-b",
                """
                while b:
                    a, b = b, a % b
                print(b)
                """,
            ),
            part("minimum", "print(min(a, b))"),
            part(
                "lcm",
                """
                x, y = a, b
                while y:
                    x, y = y, x % y
                print(a * b // x)
                """,
            ),
            part(
                "float-division",
                """
                def gcd(x, y):
                    return x if y == 0 else gcd(y, x % y)
                ---
                print(a * b / (a * b / gcd(a, b)))
                """,
                py="3",
            ),
            part(
                "smallest-common",
                """
                for d in range(1, min(a, b) + 1):
                    if a % d == 0 and b % d == 0:
                        print(d)
                        break
                """,
            ),
            part(
                "subtraction-prints-b",
                """
                while a > 0 and b > 0:
                    if a > b:
                        a -= b
                    else:
                        b -= a
                print(b)
                """,
            ),
            part(
                "prints-both",
                """
                while b:
                    a, b = b, a % b
                print(a, b)
                """,
            ),
            part("one-step", "print(b % (a % b))"),
            part("difference", "print(abs(a - b))"),
        ),
        PE: (
            part(
                "trailing-space",
                """
                while b:
                    a, b = b, a % b
                print(str(a) + " ")
                """,
            ),
            part(
                "blank-line-after",
                """
                while b:
                    a, b = b, a % b
                print(a)
                print("")
                """,
            ),
            part(
                "leading-space",
                """
                while b:
                    a, b = b, a % b
                print "", a
                """,
                py="2",
            ),
        ),
        RE: (
            part(
                "recursion-never-shrinks",
                """
                def gcd(x, y):
                    if y == 0:
                        return x
                    return gcd(y, x)
                ---
                print(gcd(a, b))
                """,
            ),
            part("math-not-imported", "print(math.gcd(a, b))", py="3"),
            part(
                "gcd-not-in-math",
                """
                from math import gcd
                print gcd(a, b)
                """,
                py="2",
            ),
            part(
                "divide-by-zero",
                """
                ans = 1
                for d in range(min(a, b) + 1):
                    if a % d == 0 and b % d == 0:
                        ans = d
                print(ans)
                """,
            ),
            part(
                "typo",
                """
                while b:
                    a, b = b, a % b
                print(A)
                """,
            ),
        ),
        TLE: (
            part(
                "forgot-swap",
                """
                while b != 0:
                    a = a % b
                print(a)
                """,
            ),
            part(
                "remainder-not-updated",
                """
                r = a % b
                while r != 0:
                    a = b
                    b = r
                print(b)
                """,
            ),
            part(
                "search-from-limit",
                """
                for d in range(10 ** 9, 0, -1):
                    if a % d == 0 and b % d == 0:
                        print(d)
                        break
                """,
                py="3",
            ),
            part(
                "count-to-limit",
                """
                ans = 1
                i = 1
                while i <= 10 ** 9:
                    if a % i == 0 and b % i == 0:
                        ans = i
                    i += 1
                print(ans)
                """,
            ),
            part(
                "wrong-direction",
                """
                d = min(a, b)
                while a % d != 0 or b % d != 0:
                    d += 1
                print(d)
                """,
            ),
            part(
                "subtract-itself",
                """
                while a != b:
                    if a > b:
                        a -= b
                    else:
                        b -= b
                print(a)
                """,
            ),
            part(
                "subtract-wrong-way",
                """
                while a != b:
                    if a > b:
                        a = a - b
                    else:
                        b = a - b
                print(a)
                """,
            ),
            part(
                "xrange-from-limit",
                """
                for d in xrange(10 ** 9, 0, -1):
                    if a % d == 0 and b % d == 0:
                        print d
                        break
                """,
                py="2",
            ),
        ),
        MLE: (
            part(
                "sieve-to-limit",
                """
                N = 10 ** 9
                sieve = [True] * (N + 1)
                ans = 1
                for p in range(2, min(a, b) + 1):
                    if sieve[p] and a % p == 0 and b % p == 0:
                        ans = p
                print(ans)
                """,
            ),
            part(
                "candidate-list",
                """
                cands = range(1, 10 ** 9)
                ans = 1
                for d in cands:
                    if d > min(a, b):
                        break
                    if a % d == 0 and b % d == 0:
                        ans = d
                print ans
                """,
                py="2",
            ),
            part(
                "bitset",
                """
                marks = bytearray(10 ** 9)
                for d in range(1, a + 1):
                    if a % d == 0:
                        marks[d] = 1
                ans = 1
                for d in range(1, b + 1):
                    if b % d == 0 and marks[d]:
                        ans = d
                print(ans)
                """,
            ),
        ),
    },
    broken_readers={
        RE: (
            part("no-int", "a, b = input().split()\n@BODY"),
            part("comma-split", 'a, b = map(int, input().split(","))\n@BODY'),
            part(
                "two-lines",
                """
                a = int(input())
                b = int(input())
                @BODY
                """,
            ),
            part("raw-input", "a, b = map(int, raw_input().split())\n@BODY", py="3"),
            part(
                "index-from-one",
                """
                nums = input().split()
                a, b = int(nums[1]), int(nums[2])
                @BODY
                """,
            ),
        ),
    },
)

# --------------------------------------------------------------------------- p02400
# Circle: area and circumference of a circle of radius r, "%.6f %.6f".

P02400 = Problem(
    headers=("# ITP1_4_B Circle", "# ITP1_4_B", "# circle"),
    readers=(
        part("float-input", "r = float(input())\n@BODY"),
        part(
            "sys-readline",
            """
            import sys
            r = float(sys.stdin.readline())
            @BODY
            """,
        ),
        part("strip", "r = float(input().strip())\n@BODY"),
        part("eval", "r = eval(input())\n@BODY"),
        part(
            "line",
            """
            line = input()
            r = float(line)
            @BODY
            """,
        ),
        part(
            "sys-read",
            """
            import sys
            r = float(sys.stdin.read())
            @BODY
            """,
        ),
        part("first-token", "r = float(input().split()[0])\n@BODY"),
        part("input-evaluates", "r = input()\n@BODY", py="2"),
    ),
    bodies={
        AC: (
            part(
                "percent",
                """
                import math
                print("%.6f %.6f" % (math.pi * r * r, 2 * math.pi * r))
                """,
            ),
            part(
                "format-pi",
                """
                from math import pi
                print("{:.6f} {:.6f}".format(pi * r ** 2, 2 * pi * r))
                """,
            ),
            part(
                "named",
                """
                import math
                area = math.pi * r ** 2
                length = 2 * math.pi * r
                print("%f %f" % (area, length))
                """,
            ),
            part(
                "format-indexed",
                """
                import math
                print("{0:.6f} {1:.6f}".format(r * r * math.pi, r * 2 * math.pi))
                """,
            ),
            part(
                "f-string",
                """
                import math
                print(f"{math.pi * r * r:.6f} {2 * math.pi * r:.6f}")
                """,
                py="3",
            ),
            part(
                "pi-literal",
                """
                pi = 3.141592653589793
                print("%.6f %.6f" % (pi * r * r, 2 * pi * r))
                """,
            ),
            part(
                "acos",
                """
                import math
                PI = math.acos(-1)
                print("%.6f %.6f" % (PI * r * r, 2 * PI * r))
                """,
            ),
            part(
                "two-args",
                """
                import math
                print("%.6f" % (math.pi * r * r), "%.6f" % (2 * math.pi * r))
                """,
            ),
            part(
                "stdout-write",
                """
                import math
                import sys
                sys.stdout.write("%.6f %.6f\\n" % (math.pi * r * r, 2 * math.pi * r))
                """,
            ),
            part(
                "join",
                """
                import math
                print(" ".join("%.6f" % v for v in (math.pi * r * r, 2 * math.pi * r)))
                """,
            ),
            part(
                "round",
                """
                import math
                print(round(math.pi * r * r, 6), round(2 * math.pi * r, 6))
                """,
            ),
            part(
                "format-named",
                """
                from math import pi
                S = r * r * pi
                L = 2 * r * pi
                print("{:.6f} {:.6f}".format(S, L))
                """,
            ),
            part(
                "atan",
                """
                import math
                pi = 4 * math.atan(1.0)
                print("%.6f %.6f" % (r * r * pi, 2 * r * pi))
                """,
            ),
            part(
                "format-builtin",
                """
                import math
                print(format(math.pi * r * r, ".6f"), format(2 * math.pi * r, ".6f"))
                """,
            ),
        ),
        WA: (
            part("pi-3.14", 'print("%.6f %.6f" % (3.14 * r * r, 2 * 3.14 * r))'),
            part(
                "swapped",
                """
                import math
                print("%.6f %.6f" % (2 * math.pi * r, math.pi * r * r))
                """,
            ),
            part(
                "two-decimals",
                """
                import math
                print("%.2f %.2f" % (math.pi * r * r, 2 * math.pi * r))
                """,
            ),
            part(
                "integers",
                """
                import math
                print("%d %d" % (math.pi * r * r, 2 * math.pi * r))
                """,
            ),
            part(
                "half-circumference",
                """
                import math
                print("%.6f %.6f" % (math.pi * r * r, math.pi * r))
                """,
            ),
            part(
                "diameter",
                """
                import math
                print("%.6f %.6f" % (math.pi * (r / 2) ** 2, math.pi * r))
                """,
            ),
            part("22-over-7", 'print("%.6f %.6f" % (22 / 7 * r * r, 2 * 22 / 7 * r))'),
            part(
                "squared-circumference",
                """
                import math
                print("%.6f %.6f" % (math.pi * r * r, 2 * math.pi * r * r))
                """,
            ),
            part(
                "rounded",
                """
                import math
                print(round(math.pi * r * r), round(2 * math.pi * r))
                """,
            ),
            part("short-pi", 'print("%.6f %.6f" % (r ** 2 * 3.14159, 2 * r * 3.14159))'),
            part(
                "integer-division",
                """
                print "%.6f %.6f" % (r * r * 22 / 7, 2 * r * 22 / 7)
                """,
                py="2",
            ),
        ),
        RE: (
            part("math-not-imported", 'print("%.6f %.6f" % (math.pi * r * r, 2 * math.pi * r))'),
            part(
                "precedence",
                """
                import math
                print("%.6f %.6f" % math.pi * r * r, 2 * math.pi * r)
                """,
            ),
            part(
                "one-value",
                """
                import math
                S = math.pi * r * r
                print("%.6f %.6f" % S)
                """,
            ),
            part(
                "format-one-value",
                """
                import math
                print("{:.6f} {:.6f}".format(math.pi * r * r))
                """,
            ),
            part(
                "python2-habit",
                """
                import math
                print("%.6f %.6f") % (math.pi * r * r, 2 * math.pi * r)
                """,
                py="3",
            ),
            part(
                "math-PI",
                """
                import math
                print("%.6f %.6f" % (math.PI * r * r, 2 * math.PI * r))
                """,
            ),
            part(
                "import-PI",
                """
                from math import PI
                print("%.6f %.6f" % (PI * r * r, 2 * PI * r))
                """,
            ),
            part(
                "typo",
                """
                import math
                area = math.pi * r * r
                circumference = 2 * math.pi * r
                print("%.6f %.6f" % (area, circumferance))
                """,
            ),
            part(
                "capital-module",
                """
                import Math
                print("%.6f %.6f" % (Math.pi * r * r, 2 * Math.pi * r))
                """,
            ),
            part(
                "pow-one-arg",
                """
                import math
                print("%.6f %.6f" % (math.pi * math.pow(r), 2 * math.pi * r))
                """,
            ),
            part(
                "format-str",
                """
                import math
                S = math.pi * r * r
                L = 2 * math.pi * r
                print("{:.6f} {:.6f}".format(str(S), str(L)))
                """,
            ),
            part(
                "list-operand",
                """
                import math
                print("%.6f %.6f" % [math.pi * r * r, 2 * math.pi * r])
                """,
            ),
        ),
    },
    broken_readers={
        RE: (
            part("no-float", "r = input()\n@BODY", py="3"),
            part("no-float-py2", "r = raw_input()\n@BODY", py="2"),
            part("raw-input", "r = float(raw_input())\n@BODY", py="3"),
            part("float-of-list", "r = float(input().split())\n@BODY"),
            part("second-token", "r = int(input().split()[1])\n@BODY"),
            part("two-values", "r, n = map(float, input().split())\n@BODY"),
            part(
                "readlines",
                """
                import sys
                r = float(sys.stdin.readlines())
                @BODY
                """,
            ),
        ),
    },
)

# --------------------------------------------------------------------------- p02407
# Reversing Numbers: n, then n numbers; print them reversed, separated by single spaces.

P02407 = Problem(
    headers=("# ITP1_6_A Reversing Numbers", "# ITP1_6_A", "# reverse"),
    readers=(
        part(
            "map",
            """
            n = int(input())
            a = list(map(int, input().split()))
            @BODY
            """,
        ),
        part(
            "list-comp",
            """
            n = int(input())
            a = [int(x) for x in input().split()]
            @BODY
            """,
        ),
        part(
            "sys-readline",
            """
            import sys
            n = int(sys.stdin.readline())
            a = list(map(int, sys.stdin.readline().split()))
            @BODY
            """,
        ),
        part(
            "read-all",
            """
            import sys
            data = sys.stdin.read().split()
            n = int(data[0])
            a = [int(x) for x in data[1:]]
            @BODY
            """,
        ),
        part(
            "skip-n",
            """
            input()
            a = list(map(int, input().split()))
            n = len(a)
            @BODY
            """,
        ),
        part(
            "slice-n",
            """
            n = int(input())
            a = list(map(int, input().split()))[:n]
            @BODY
            """,
        ),
        part(
            "split-space",
            """
            n = int(input())
            line = input()
            a = [int(v) for v in line.split(" ")]
            @BODY
            """,
        ),
    ),
    bodies={
        AC: (
            part("join-slice", 'print(" ".join(map(str, a[::-1])))'),
            part(
                "reverse-method",
                """
                a.reverse()
                print(" ".join(map(str, a)))
                """,
            ),
            part("reversed-generator", 'print(" ".join(str(x) for x in reversed(a)))'),
            part("star", "print(*a[::-1])", py="3"),
            part(
                "end-space",
                """
                for i in range(n - 1, 0, -1):
                    print(a[i], end=" ")
                print(a[0])
                """,
                py="3",
            ),
            part(
                "build-string",
                """
                s = ""
                for i in range(n):
                    s += str(a[n - 1 - i])
                    if i != n - 1:
                        s += " "
                print(s)
                """,
            ),
            part(
                "pop",
                """
                b = []
                while a:
                    b.append(a.pop())
                print(" ".join(map(str, b)))
                """,
            ),
            part(
                "index-comp",
                """
                b = [a[n - 1 - i] for i in range(n)]
                print(" ".join(map(str, b)))
                """,
            ),
            part(
                "softspace",
                """
                for x in reversed(a):
                    print x,
                print
                """,
                py="2",
            ),
            part("join-range", 'print(" ".join([str(a[i]) for i in range(n - 1, -1, -1)]))'),
            part("list-repr", 'print(str(a[::-1])[1:-1].replace(",", ""))'),
            part("star-reversed", "print(*reversed(a))", py="3"),
            part("negative-index", 'print(" ".join(map(str, [a[-i] for i in range(1, n + 1)])))'),
        ),
        PE: (
            part(
                "end-space-no-newline",
                """
                for x in a[::-1]:
                    print(x, end=" ")
                """,
                py="3",
            ),
            part("join-plus-space", 'print(" ".join(map(str, a[::-1])) + " ")'),
            part(
                "one-per-line",
                """
                for x in reversed(a):
                    print(x)
                """,
            ),
            part("tab-separated", 'print("\\t".join(map(str, a[::-1])))'),
            part("double-space", 'print(*a[::-1], sep="  ")', py="3"),
            part(
                "end-space-then-newline",
                """
                for i in range(n - 1, -1, -1):
                    print(a[i], end=" ")
                print()
                """,
                py="3",
            ),
            part(
                "blank-line-first",
                """
                print("")
                print(" ".join(map(str, a[::-1])))
                """,
            ),
            part("leading-space", 'print(" " + " ".join(map(str, a[::-1])))'),
            part(
                "accumulate-with-space",
                """
                s = ""
                for x in reversed(a):
                    s += str(x) + " "
                print(s)
                """,
            ),
        ),
        WA: (
            part("not-reversed", 'print(" ".join(map(str, a)))'),
            part("sorted-desc", 'print(" ".join(map(str, sorted(a, reverse=True))))'),
            part(
                "sort-method",
                """
                a.sort(reverse=True)
                print(" ".join(map(str, a)))
                """,
            ),
            part("drops-first", 'print(" ".join(map(str, a[:0:-1])))'),
            part(
                "range-stops-early",
                """
                for i in range(n - 1, 0, -1):
                    print(a[i], end=" ")
                print()
                """,
                py="3",
            ),
            part("list-repr", "print(a[::-1])"),
            part(
                "reverse-not-called",
                """
                a.reverse
                print(" ".join(map(str, a)))
                """,
            ),
            part("sorted-reversed", 'print(" ".join(map(str, sorted(a)[::-1])))'),
            part("slice-to-zero", 'print(" ".join(map(str, a[-1:0:-1])))'),
            part("start-too-low", 'print(" ".join(map(str, a[n - 2::-1])))'),
            part("comma-separated", 'print(",".join(map(str, a[::-1])))'),
        ),
        RE: (
            part("join-ints", 'print(" ".join(a[::-1]))'),
            part("join-none", 'print(" ".join(map(str, a.reverse())))'),
            part(
                "index-n",
                """
                b = []
                for i in range(n, 0, -1):
                    b.append(a[i])
                print(" ".join(map(str, b)))
                """,
            ),
            part("no-reverse-function", 'print(" ".join(map(str, reverse(a))))'),
            part("off-by-one", 'print(" ".join(str(a[n - i]) for i in range(n)))'),
            part(
                "assign-none",
                """
                a = a.reverse()
                print(" ".join(map(str, a)))
                """,
            ),
        ),
    },
    broken_readers={
        RE: (
            part(
                "map-object",
                """
                n = int(input())
                a = map(int, input().split())
                @BODY
                """,
                py="3",
            ),
            part(
                "int-of-list",
                """
                n = int(input().split())
                a = list(map(int, input().split()))
                @BODY
                """,
            ),
            part(
                "characters",
                """
                n = int(input())
                a = list(map(int, input()))
                @BODY
                """,
            ),
            part(
                "one-per-line",
                """
                n = int(input())
                a = [int(input()) for _ in range(n)]
                @BODY
                """,
            ),
            part(
                "comma-split",
                """
                n = int(input())
                a = list(map(int, input().split(",")))
                @BODY
                """,
            ),
        ),
    },
    programs={
        AC: (
            part(
                "strings",
                """
                input()
                print(" ".join(input().split()[::-1]))
                """,
            ),
            part(
                "reverse-strings",
                """
                n = input()
                nums = input().split()
                nums.reverse()
                print(" ".join(nums))
                """,
            ),
        ),
    },
)

# --------------------------------------------------------------------------- p02971
# Exception Handling: for each i, the maximum of the sequence without A_i (N up to 200000).
# The samples are tiny (N = 3 and N = 2), so a Time Limit program here loops forever or walks
# a range sized by the constraints.

P02971 = Problem(
    headers=("# ABC134 C - Exception Handling", "# ABC134 C", "# C - Exception Handling"),
    readers=(
        part(
            "input-comp",
            """
            n = int(input())
            a = [int(input()) for _ in range(n)]
            @BODY
            """,
        ),
        part(
            "fast-input",
            """
            import sys
            input = sys.stdin.readline
            n = int(input())
            a = [int(input()) for i in range(n)]
            @BODY
            """,
        ),
        part(
            "open-zero",
            """
            n, *a = map(int, open(0).read().split())
            @BODY
            """,
            py="3",
        ),
        part(
            "read-all",
            """
            import sys
            data = sys.stdin.read().split()
            n = int(data[0])
            a = list(map(int, data[1:]))
            @BODY
            """,
        ),
        part(
            "append-loop",
            """
            n = int(input())
            a = []
            for _ in range(n):
                a.append(int(input()))
            @BODY
            """,
        ),
        part(
            "sys-readline",
            """
            import sys
            n = int(sys.stdin.readline())
            a = [int(sys.stdin.readline()) for _ in range(n)]
            @BODY
            """,
        ),
        part(
            "star-read",
            """
            import sys
            n, *a = map(int, sys.stdin.read().split())
            @BODY
            """,
            py="3",
        ),
        part(
            "list-generator",
            """
            n = int(input())
            a = list(int(input()) for i in range(n))
            @BODY
            """,
        ),
    ),
    bodies={
        AC: (
            part(
                "top-two",
                """
                s = sorted(a)
                first, second = s[-1], s[-2]
                for x in a:
                    if x == first:
                        print(second)
                    else:
                        print(first)
                """,
            ),
            part(
                "prefix-suffix",
                """
                left = [0] * (n + 1)
                right = [0] * (n + 1)
                for i in range(n):
                    left[i + 1] = max(left[i], a[i])
                for i in range(n - 1, -1, -1):
                    right[i] = max(right[i + 1], a[i])
                for i in range(n):
                    print(max(left[i], right[i + 1]))
                """,
            ),
            part(
                "count-max",
                """
                mx = max(a)
                if a.count(mx) > 1:
                    for _ in range(n):
                        print(mx)
                else:
                    second = sorted(a)[-2]
                    for x in a:
                        print(second if x == mx else mx)
                """,
            ),
            part(
                "index-of-max",
                """
                mx = max(a)
                idx = a.index(mx)
                rest = a[:idx] + a[idx + 1:]
                second = max(rest)
                for i in range(n):
                    if i == idx:
                        print(second)
                    else:
                        print(mx)
                """,
            ),
            part(
                "heapq",
                """
                import heapq
                top = heapq.nlargest(2, a)
                for x in a:
                    print(top[1] if x == top[0] else top[0])
                """,
            ),
            part(
                "join-output",
                """
                s = sorted(a, reverse=True)
                ans = []
                for x in a:
                    ans.append(s[1] if x == s[0] else s[0])
                print("\\n".join(map(str, ans)))
                """,
            ),
            part(
                "one-pass",
                """
                m1 = m2 = 0
                for x in a:
                    if x > m1:
                        m1, m2 = x, m1
                    elif x > m2:
                        m2 = x
                for x in a:
                    print(m2 if x == m1 else m1)
                """,
            ),
            part(
                "stdout-write",
                """
                import sys
                b = sorted(a)
                out = [str(b[-2]) if x == b[-1] else str(b[-1]) for x in a]
                sys.stdout.write("\\n".join(out) + "\\n")
                """,
            ),
            part(
                "not-equal-first",
                """
                b = sorted(a)
                for x in a:
                    print(b[-1] if x != b[-1] else b[-2])
                """,
            ),
            part(
                "accumulate",
                """
                from itertools import accumulate
                left = [0] + list(accumulate(a, max))
                right = list(accumulate(a[::-1], max))[::-1] + [0]
                for i in range(n):
                    print(max(left[i], right[i + 1]))
                """,
                py="3",
            ),
        ),
        WA: (
            part(
                "max-everywhere",
                """
                for x in a:
                    print(max(a))
                """,
            ),
            part(
                "distinct-second",
                """
                s = sorted(set(a))
                m1 = s[-1]
                m2 = s[-2] if len(s) > 1 else 0
                for x in a:
                    print(m2 if x == m1 else m1)
                """,
            ),
            part(
                "skips-two",
                """
                for i in range(n):
                    print(max(a[:i] + a[i + 2:]))
                """,
            ),
            part(
                "second-everywhere",
                """
                b = sorted(a)
                for x in a:
                    print(b[-2])
                """,
            ),
            part(
                "prefix-only",
                """
                mx = 0
                for x in a:
                    print(mx)
                    mx = max(mx, x)
                """,
            ),
            part(
                "branches-swapped",
                """
                b = sorted(a)
                for x in a:
                    if x == b[-1]:
                        print(b[-1])
                    else:
                        print(b[-2])
                """,
            ),
            part(
                "minimum",
                """
                for i in range(n):
                    print(min(a[:i] + a[i + 1:]))
                """,
            ),
            part(
                "includes-itself",
                """
                left = [0] * (n + 1)
                right = [0] * (n + 1)
                for i in range(n):
                    left[i + 1] = max(left[i], a[i])
                for i in range(n - 1, -1, -1):
                    right[i] = max(right[i + 1], a[i])
                for i in range(n):
                    print(max(left[i + 1], right[i + 1]))
                """,
            ),
            part(
                "list-printed",
                """
                b = sorted(a)
                ans = [b[-2] if x == b[-1] else b[-1] for x in a]
                print(ans)
                """,
            ),
        ),
        RE: (
            part(
                "max-of-empty",
                """
                for i in range(n):
                    print(max(max(a[:i]), max(a[i + 1:])))
                """,
            ),
            part(
                "distinct-index",
                """
                s = sorted(set(a))
                for x in a:
                    print(s[-2] if x == s[-1] else s[-1])
                """,
            ),
            part(
                "sort-returns-none",
                """
                b = a.sort()
                for x in a:
                    print(b[-2] if x == b[-1] else b[-1])
                """,
            ),
            part(
                "heapq-not-imported",
                """
                top = heapq.nlargest(2, a)
                for x in a:
                    print(top[1] if x == top[0] else top[0])
                """,
            ),
            part(
                "neighbours",
                """
                for i in range(n):
                    print(max(a[i + 1], a[i - 1]))
                """,
            ),
        ),
        TLE: (
            part(
                "continue-skips-increment",
                """
                for i in range(n):
                    best = 0
                    j = 0
                    while j < n:
                        if j == i:
                            continue
                        best = max(best, a[j])
                        j += 1
                    print(best)
                """,
            ),
            part(
                "inner-increment-missing",
                """
                for i in range(n):
                    best = 0
                    j = 0
                    while j < n:
                        if j != i and a[j] > best:
                            best = a[j]
                    print(best)
                """,
            ),
            part(
                "value-range-squared",
                """
                cnt = [0] * 200001
                for x in a:
                    cnt[x] += 1
                res = [0] * 200001
                for v in range(1, 200001):
                    for w in range(200000, 0, -1):
                        if cnt[w] - (1 if w == v else 0) > 0:
                            res[v] = w
                            break
                for x in a:
                    print(res[x])
                """,
            ),
            part(
                "search-upwards",
                """
                mx = max(a)
                second = mx
                while second not in a or second == mx:
                    second += 1
                for x in a:
                    print(second if x == mx else mx)
                """,
            ),
            part(
                "bubble-sort-equal",
                """
                b = a[:]
                swapped = True
                while swapped:
                    swapped = False
                    for i in range(n - 1):
                        if b[i] <= b[i + 1]:
                            b[i], b[i + 1] = b[i + 1], b[i]
                            swapped = True
                for x in a:
                    print(b[1] if x == b[0] else b[0])
                """,
            ),
            part(
                "search-from-limit",
                """
                for i in range(n):
                    others = a[:i] + a[i + 1:]
                    v = 10 ** 9
                    while v not in others:
                        v -= 1
                    print(v)
                """,
            ),
            part(
                "outer-increment-missing",
                """
                res = [0] * n
                i = 0
                while i < n:
                    res[i] = max(a[:i] + a[i + 1:])
                print("\\n".join(map(str, res)))
                """,
            ),
            part(
                "duplicate-max",
                """
                mx = max(a)
                for x in a:
                    if x != mx:
                        print(mx)
                    else:
                        v = mx - 1
                        while v not in a:
                            v -= 1
                        print(v)
                """,
            ),
            part(
                "assign-plus",
                """
                left = [0] * (n + 1)
                right = [0] * (n + 1)
                i = 0
                while i < n:
                    left[i + 1] = max(left[i], a[i])
                    i =+ 1
                for i in range(n - 1, -1, -1):
                    right[i] = max(right[i + 1], a[i])
                for i in range(n):
                    print(max(left[i], right[i + 1]))
                """,
            ),
        ),
    },
    broken_readers={
        RE: (
            part(
                "one-line",
                """
                n = int(input())
                a = list(map(int, input().split()))
                @BODY
                """,
                only=(
                    "top-two",
                    "prefix-suffix",
                    "count-max",
                    "index-of-max",
                    "heapq",
                    "join-output",
                    "stdout-write",
                    "not-equal-first",
                    "accumulate",
                ),
            ),
            part(
                "reads-one-more",
                """
                n = int(input())
                a = [int(input()) for _ in range(n + 1)]
                @BODY
                """,
            ),
            part(
                "n-not-int",
                """
                n = input()
                a = [int(input()) for _ in range(n)]
                @BODY
                """,
                py="3",
            ),
            part(
                "both-on-one-line",
                """
                n, a = map(int, input().split())
                @BODY
                """,
            ),
        ),
        TLE: (
            part(
                "readline-until-blank",
                """
                import sys
                n = int(input())
                a = []
                while True:
                    line = sys.stdin.readline()
                    if line == "\\n":
                        break
                    if line:
                        a.append(int(line))
                @BODY
                """,
            ),
            part(
                "eof-continue",
                """
                n = int(input())
                a = []
                while True:
                    try:
                        a.append(int(input()))
                    except EOFError:
                        continue
                @BODY
                """,
            ),
        ),
    },
)

# --------------------------------------------------------------------------- p03001
# Rectangle Cutting: area W*H/2 (printed "%.6f"), then 1 if (x, y) is the centre, else 0.
# Most submissions here are Wrong Answer, so its bodies are built from parts: an area and a
# "multiple cuts" flag, right or wrong, printed in one of several ways.

_AREAS = ("W * H / 2", "W * H * 0.5", "W * H / 2.0", "float(W * H) / 2")
_AREA_BUGS = (
    "W * H",
    "x * y",
    "min(x * H, (W - x) * H, y * W, (H - y) * W)",
    "W * H / 4",
    "(W - x) * (H - y)",
)
_FLAG = "1 if 2 * x == W and 2 * y == H else 0"
_FLAG_BUGS = (
    "1 if 2 * x == W or 2 * y == H else 0",
    "1 if x * 2 == W else 0",
    "0 if x * 2 == W and y * 2 == H else 1",
    "0",
    "int(x == W / 2 or y == H / 2)",
)
_PRINTS = (
    'print("%.6f %d" % ({area}, {flag}))',
    'print("{{:.6f}} {{}}".format({area}, {flag}))',
    "print({area}, {flag})",
    'print("{{:.6f}}".format({area}), {flag})',
)
_NAMED = """
    area = {area}
    flag = {flag}
    {output}
    """


def _rectangle_bodies(bug: str, areas: tuple[str, ...], flags: tuple[str, ...]) -> list[Snippet]:
    # Python 3 only: no Python 2 row of this problem is a Wrong Answer, and "/" would differ.
    bodies = []
    for area, flag, output in itertools.product(areas, flags, _PRINTS):
        i = len(bodies) // 2
        bodies.append(part(f"{bug}-inline-{i}", output.format(area=area, flag=flag), py="3"))
        named = _NAMED.format(area=area, flag=flag, output=output.format(area="area", flag="flag"))
        bodies.append(part(f"{bug}-named-{i}", named, py="3"))
    return bodies


_WRONG_CUTS = (
    "2 * x == W or 2 * y == H",
    "x == W / 2",
    "x * 2 != W and y * 2 != H",
)

P03001 = Problem(
    headers=("# ABC130 C - Rectangle Cutting", "# ABC130 C", "# C - Rectangle Cutting"),
    readers=(
        part("map-split", "W, H, x, y = map(int, input().split())\n@BODY"),
        part("list-comp", "W, H, x, y = [int(v) for v in input().split()]\n@BODY"),
        part(
            "sys-readline",
            """
            import sys
            W, H, x, y = map(int, sys.stdin.readline().split())
            @BODY
            """,
        ),
        part(
            "list-index",
            """
            l = list(map(int, input().split()))
            W, H, x, y = l[0], l[1], l[2], l[3]
            @BODY
            """,
        ),
        part("open-zero", "W, H, x, y = map(int, open(0).read().split())\n@BODY", py="3"),
        part(
            "sys-read",
            """
            import sys
            W, H, x, y = map(int, sys.stdin.read().split())
            @BODY
            """,
        ),
        part("floats", "W, H, x, y = map(float, input().split())\n@BODY", py="3"),
    ),
    bodies={
        AC: (
            part(
                "percent",
                'print("%.6f %d" % (W * H / 2, 1 if 2 * x == W and 2 * y == H else 0))',
                py="3",
            ),
            part(
                "named-format",
                """
                area = W * H / 2
                flag = 1 if x * 2 == W and y * 2 == H else 0
                print("{:.6f} {}".format(area, flag))
                """,
                py="3",
            ),
            part(
                "if-else",
                """
                if W == 2 * x and H == 2 * y:
                    print("%.6f 1" % (W * H / 2))
                else:
                    print("%.6f 0" % (W * H / 2))
                """,
                py="3",
            ),
            part("f-string", 'print(f"{W * H / 2:.6f} {int(W == 2 * x and H == 2 * y)}")', py="3"),
            part(
                "half-compare",
                """
                ans = W * H * 0.5
                multi = int(x == W / 2 and y == H / 2)
                print("%.6f %d" % (ans, multi))
                """,
                py="3",
            ),
            part(
                "py2-float",
                """
                print "%.6f %d" % (W * H / 2.0, 1 if x * 2 == W and y * 2 == H else 0)
                """,
                py="2",
            ),
            part(
                "doubled",
                """
                s = W * H / 2
                if x + x == W and y + y == H:
                    m = 1
                else:
                    m = 0
                print("{:.6f} {:d}".format(s, m))
                """,
                py="3",
            ),
            part(
                "tuple-compare",
                """
                print("{:.6f}".format(W * H / 2), 1 if (x, y) == (W / 2, H / 2) else 0)
                """,
                py="3",
            ),
            part(
                "format-builtin",
                'print(format(W * H / 2, ".6f"), int(2 * x == W and 2 * y == H))',
                py="3",
            ),
            part(
                "centre",
                """
                cx, cy = W / 2, H / 2
                print("%.6f %d" % (W * H / 2, cx == x and cy == y))
                """,
                py="3",
            ),
            part(
                "stdout-write",
                """
                import sys
                sys.stdout.write("%.6f %d\\n" % (W * H / 2.0, int(2 * x == W and 2 * y == H)))
                """,
            ),
            part(
                "float-product",
                """
                area = float(W * H) / 2
                if 2 * x == W and 2 * y == H:
                    print("%.6f %d" % (area, 1))
                else:
                    print("%.6f %d" % (area, 0))
                """,
            ),
        ),
        WA: (
            *_rectangle_bodies("flag", _AREAS[:2], _FLAG_BUGS),
            *_rectangle_bodies("area", _AREA_BUGS, (_FLAG,)),
            part("bool-printed", "print(W * H / 2, x * 2 == W and y * 2 == H)", py="3"),
            part(
                "bool-formatted",
                """
                area = W * H / 2
                multiple = x * 2 == W and y * 2 == H
                print("{:.6f} {}".format(area, multiple))
                """,
                py="3",
            ),
            *(
                part(
                    f"if-else-{i}",
                    f"""
                    if {cut}:
                        print("%.6f 1" % (W * H / 2))
                    else:
                        print("%.6f 0" % (W * H / 2))
                    """,
                    py="3",
                )
                for i, cut in enumerate(_WRONG_CUTS)
            ),
        ),
        RE: (
            part("float-and", 'print("%.6f %d" % (W * H / 2, x == W / 2 & y == H / 2))', py="3"),
            part(
                "precedence",
                """
                flag = 1 if 2 * x == W and 2 * y == H else 0
                print("%.6f %d" % W * H / 2, flag)
                """,
            ),
            part(
                "typo",
                """
                area = W * H / 2
                flag = 1 if 2 * x == W and 2 * y == H else 0
                print("%.6f %d" % (area, flg))
                """,
            ),
            part("format-one-value", 'print("{:.6f} {}".format(W * H / 2))'),
        ),
    },
    broken_readers={
        RE: (
            part("no-int", "W, H, x, y = input().split()\n@BODY"),
            part(
                "two-lines",
                """
                W, H = map(int, input().split())
                x, y = map(int, input().split())
                @BODY
                """,
            ),
            part("one-int", "W, H, x, y = int(input())\n@BODY"),
            part("raw-input", "W, H, x, y = map(int, raw_input().split())\n@BODY", py="3"),
            part("input-evaluates", "W, H, x, y = input()\n@BODY", py="2"),
            part("comma-split", 'W, H, x, y = map(int, input().split(","))\n@BODY'),
        ),
    },
)

# --------------------------------------------------------------------------- p03242
# ABC 999: swap the digits 1 and 9 of a three-digit number. Bodies work on the string `s`
# or on the integer `n`.

P03242 = Problem(
    headers=("# ABC111 A - AtCoder Beginner Contest 999", "# ABC111 A", "# A - 999"),
    readers=(
        part("input", "s = input()\n@BODY", io="s"),
        part("strip", "s = input().strip()\n@BODY", io="s"),
        part(
            "sys-readline",
            """
            import sys
            s = sys.stdin.readline().strip()
            @BODY
            """,
            io="s",
        ),
        part("str-input", "s = str(input())\n@BODY", io="s"),
        part(
            "rstrip",
            """
            import sys
            s = sys.stdin.readline().rstrip()
            @BODY
            """,
            io="s",
        ),
        part("int", "n = int(input())\n@BODY", io="n"),
        part(
            "int-sys",
            """
            import sys
            n = int(sys.stdin.readline())
            @BODY
            """,
            io="n",
        ),
        part("int-strip", "n = int(input().strip())\n@BODY", io="n"),
    ),
    bodies={
        AC: (
            part(
                "replace-x",
                'print(s.replace("1", "x").replace("9", "1").replace("x", "9"))',
                io="s",
            ),
            part("translate", 'print(s.translate(str.maketrans("19", "91")))', py="3", io="s"),
            part(
                "loop",
                """
                ans = ""
                for c in s:
                    if c == "1":
                        ans += "9"
                    elif c == "9":
                        ans += "1"
                    else:
                        ans += c
                print(ans)
                """,
                io="s",
            ),
            part("join-conditional", 'print("".join("9" if c == "1" else "1" for c in s))', io="s"),
            part(
                "dict",
                """
                d = {"1": "9", "9": "1"}
                print("".join(d[c] for c in s))
                """,
                io="s",
            ),
            part("ten-minus", 'print("".join(str(10 - int(c)) for c in s))', io="s"),
            part(
                "list-assign",
                """
                t = list(s)
                for i in range(len(t)):
                    if t[i] == "1":
                        t[i] = "9"
                    else:
                        t[i] = "1"
                print("".join(t))
                """,
                io="s",
            ),
            part(
                "replace-a",
                'print(s.replace("1", "a").replace("9", "1").replace("a", "9"))',
                io="s",
            ),
            part(
                "replace-zero",
                'print(int(s.replace("9", "0").replace("1", "9").replace("0", "1")))',
                io="s",
            ),
            part("1110", "print(1110 - n)", io="n"),
            part("111-times-10", "print(111 * 10 - n)", io="n"),
            part(
                "digits",
                """
                a = n // 100
                b = n // 10 % 10
                c = n % 10
                print((10 - a) * 100 + (10 - b) * 10 + (10 - c))
                """,
                io="n",
            ),
            part(
                "str-of-int",
                'print(int(str(n).replace("1", "t").replace("9", "1").replace("t", "9")))',
                io="n",
            ),
            part(
                "horner",
                """
                ans = 0
                for d in str(n):
                    ans = ans * 10 + (10 - int(d))
                print(ans)
                """,
                io="n",
            ),
        ),
        WA: (
            part("replace-twice", 'print(s.replace("1", "9").replace("9", "1"))', io="s"),
            part("reversed", "print(s[::-1])", io="s"),
            part("only-ones", 'print(s.replace("1", "9"))', io="s"),
            part(
                "sequential-ifs",
                """
                t = ""
                for c in s:
                    if c == "1":
                        c = "9"
                    if c == "9":
                        c = "1"
                    t += c
                print(t)
                """,
                io="s",
            ),
            part("nine-minus", 'print("".join(str(9 - int(c)) for c in s))', io="s"),
            part("replace-twice-other", 'print(s.replace("9", "1").replace("1", "9"))', io="s"),
            part("1000", "print(1000 - n)", io="n"),
            part("999", "print(999 - n)", io="n"),
            part("negated", "print(n - 1110)", io="n"),
            part(
                "digits-reversed",
                """
                a = n // 100
                b = n // 10 % 10
                c = n % 10
                print((10 - c) * 100 + (10 - b) * 10 + (10 - a))
                """,
                io="n",
            ),
        ),
        RE: (
            part("string-minus", "print(1110 - s)", py="3", io="s"),
            part("maketrans-py2", 'print s.translate(str.maketrans("19", "91"))', py="2", io="s"),
            part("int-replace", 'print(n.replace("1", "9"))', io="n"),
            part(
                "iterate-int",
                """
                ans = ""
                for c in n:
                    ans += "9" if c == "1" else "1"
                print(ans)
                """,
                io="n",
            ),
            part(
                "digit-index",
                """
                d = list(map(int, str(n)))
                print((10 - d[0]) * 100 + (10 - d[1]) * 10 + (10 - d[3]))
                """,
                io="n",
            ),
        ),
    },
    broken_readers={
        RE: (
            part(
                "newline-kept",
                """
                import sys
                s = sys.stdin.readline()
                @BODY
                """,
                io="s",
                only=("dict",),
            ),
            part(
                "n-not-int",
                "n = input()\n@BODY",
                py="3",
                io="n",
                only=("1110", "111-times-10", "digits"),
            ),
            part("input-evaluates", "s = input()\n@BODY", py="2", io="s"),
        ),
    },
)

# --------------------------------------------------------------------------- p04030
# Unhappy Hacking: keys 0, 1 and B (backspace); print the final string.

P04030 = Problem(
    headers=("# ABC043 B - Unhappy Hacking (ABC Edit)", "# ABC043 B", "# B - Unhappy Hacking"),
    readers=(
        part("input", "s = input()\n@BODY"),
        part("strip", "s = input().strip()\n@BODY"),
        part(
            "sys-rstrip",
            """
            import sys
            s = sys.stdin.readline().rstrip()
            @BODY
            """,
        ),
        part("str-input", "s = str(input())\n@BODY"),
    ),
    bodies={
        AC: (
            part(
                "stack",
                """
                ans = []
                for c in s:
                    if c == "B":
                        if ans:
                            ans.pop()
                    else:
                        ans.append(c)
                print("".join(ans))
                """,
            ),
            part(
                "slice",
                """
                t = ""
                for c in s:
                    if c == "B":
                        t = t[:-1]
                    else:
                        t += c
                print(t)
                """,
            ),
            part(
                "index-loop",
                """
                res = ""
                for i in range(len(s)):
                    if s[i] == "0":
                        res += "0"
                    elif s[i] == "1":
                        res += "1"
                    elif len(res) > 0:
                        res = res[:len(res) - 1]
                print(res)
                """,
            ),
            part(
                "regex",
                """
                import re
                while re.search("[01]B", s):
                    s = re.sub("[01]B", "", s)
                print(s.replace("B", ""))
                """,
            ),
            part(
                "deque",
                """
                from collections import deque
                q = deque()
                for c in s:
                    if c == "B":
                        if q:
                            q.pop()
                    else:
                        q.append(c)
                print("".join(q))
                """,
            ),
            part(
                "try-pop",
                """
                out = []
                for c in s:
                    if c == "B":
                        try:
                            out.pop()
                        except IndexError:
                            pass
                    else:
                        out.append(c)
                print("".join(out))
                """,
            ),
            part(
                "while-index",
                """
                r = []
                i = 0
                while i < len(s):
                    if s[i] != "B":
                        r.append(s[i])
                    elif r:
                        del r[-1]
                    i += 1
                print("".join(r))
                """,
            ),
            part(
                "in-keys",
                """
                ans = ""
                for c in s:
                    if c in "01":
                        ans = ans + c
                    elif len(ans) != 0:
                        ans = ans[:-1]
                print(ans)
                """,
            ),
            part(
                "backwards",
                """
                skip = 0
                res = ""
                for c in reversed(s):
                    if c == "B":
                        skip += 1
                    elif skip > 0:
                        skip -= 1
                    else:
                        res = c + res
                print(res)
                """,
            ),
        ),
        WA: (
            part("drop-b", 'print(s.replace("B", ""))'),
            part(
                "deletes-leftmost",
                """
                t = ""
                for c in s:
                    if c == "B":
                        t = t[1:]
                    else:
                        t += c
                print(t)
                """,
            ),
            part(
                "b-typed-when-empty",
                """
                t = ""
                for c in s:
                    if c == "B" and t:
                        t = t[:-1]
                    else:
                        t += c
                print(t)
                """,
            ),
            part(
                "list-printed",
                """
                ans = []
                for c in s:
                    if c == "B":
                        if ans:
                            ans.pop()
                    else:
                        ans.append(c)
                print(ans)
                """,
            ),
            part(
                "skip-not-consumed",
                """
                skip = 0
                res = ""
                for c in reversed(s):
                    if c == "B":
                        skip += 1
                    elif skip > 0:
                        continue
                    else:
                        res = c + res
                print(res)
                """,
            ),
            part(
                "pops-front",
                """
                ans = []
                for c in s:
                    if c == "B":
                        if ans:
                            ans.pop(0)
                    else:
                        ans.append(c)
                print("".join(ans))
                """,
            ),
            part(
                "first-b-only",
                """
                i = s.find("B")
                if i > 0:
                    s = s[:i - 1] + s[i + 1:]
                print(s)
                """,
            ),
            part(
                "spaced",
                """
                ans = []
                for c in s:
                    if c == "B":
                        if ans:
                            ans.pop()
                    else:
                        ans.append(c)
                print(" ".join(ans))
                """,
            ),
        ),
        RE: (
            part(
                "pop-empty",
                """
                ans = []
                for c in s:
                    if c == "B":
                        ans.pop()
                    else:
                        ans.append(c)
                print("".join(ans))
                """,
            ),
            part(
                "del-from-str",
                """
                t = ""
                for c in s:
                    if c == "B":
                        del t[-1]
                    else:
                        t += c
                print(t)
                """,
            ),
            part(
                "join-ints",
                """
                ans = []
                for c in s:
                    if c == "B":
                        if ans:
                            ans.pop()
                    else:
                        ans.append(int(c))
                print("".join(ans))
                """,
            ),
            part(
                "remove-last",
                """
                ans = []
                for c in s:
                    if c == "B":
                        ans.remove(ans[-1])
                    else:
                        ans.append(c)
                print("".join(ans))
                """,
            ),
            part(
                "pop-from-str",
                """
                res = ""
                for c in s:
                    if c == "B":
                        res.pop()
                    else:
                        res += c
                print(res)
                """,
            ),
        ),
    },
    broken_readers={
        RE: (
            part("raw-input", "s = raw_input()\n@BODY", py="3"),
            part("int", "s = int(input())\n@BODY"),
        ),
    },
)

CATALOGUE: dict[str, Problem] = {
    "p00002": P00002,
    "p02256": P02256,
    "p02400": P02400,
    "p02407": P02407,
    "p02971": P02971,
    "p03001": P03001,
    "p03242": P03242,
    "p04030": P04030,
}
