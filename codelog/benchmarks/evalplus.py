"""What HumanEval+ and MBPP+ (EvalPlus, Liu et al. 2023) share: their checks as the Hub's
Parquet publishes them (`test`), run by codelog's checker.

EvalPlus's `test` starts `import numpy as np` for one comparison: `assertion(out, exp, atol)`
is `out == exp`, or, for floats, `np.testing.assert_allclose(out, exp, atol=atol)`. The checker
box has no site-packages (python -S -I: codelog.execution.harness), so that import would fail
every sample; the line is replaced by a stand-in for the parts EvalPlus uses (`np.testing
.assert_allclose` on numbers and equal-shaped sequences of them, as numpy compares them:
|out - exp| <= atol + rtol * |exp|, NaN equal to NaN; `np.ndarray`, `np.float64`,
`np.float32` as types no value that crossed from the candidate is). A `test` that uses any
other part of numpy is not judged (a Skip, with the names). Integer literals longer than
Python compiles by default are rewritten in hex (EvalPlus generated them with the limit
raised; the process-wide limit is left alone).
"""

from __future__ import annotations

import decimal
import io
import re
import sys
import tokenize
from collections.abc import Iterator
from typing import Any

from codelog.benchmarks.base import Source, local_rows
from codelog.benchmarks.hub import hub_rows
from codelog.errors import CodelogError

NUMPY_IMPORT = re.compile(r"^import numpy as np$", re.MULTILINE)
NUMPY_NAMES = frozenset({"testing", "ndarray", "float64", "float32"})
# numpy.testing.assert_allclose's rules for the values that cross from the candidate: builtin
# numbers, and lists / tuples of them (codelog.execution.harness's encoding)
STAND_IN = """
class np:  # numpy's parts EvalPlus's checks use (codelog.benchmarks.evalplus)
    class ndarray:
        pass

    class float64:
        pass

    class float32:
        pass

    class testing:
        @staticmethod
        def assert_allclose(actual, desired, rtol=1e-07, atol=0):
            def close(a, b):
                if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
                    same = isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))
                    if not same or len(a) != len(b):
                        raise AssertionError("shapes differ: %r, %r" % (a, b))
                    for x, y in zip(a, b):
                        close(x, y)
                    return
                try:
                    if a == b or (a != a and b != b):  # equal (inf too), or both NaN
                        return
                    ok = abs(a - b) <= atol + rtol * abs(b)
                except TypeError:
                    ok = False
                if not ok:
                    raise AssertionError("not close: %r, %r" % (a, b))

            close(actual, desired)
"""


def _hex_literals(test: str) -> str:
    """`test` with its integer literals longer than Python compiles by default (4,300 digits:
    EvalPlus wrote its expected outputs with the limit raised) written in hex, which has no
    limit: numbers only, never the digits inside a string."""
    limit = sys.get_int_max_str_digits()
    if not limit or not re.search(rf"\d{{{limit + 1},}}", test):
        return test  # the common case: no such run of digits, no tokenizing
    lines = test.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    out, done = [], 0
    for tok in tokenize.generate_tokens(io.StringIO(test).readline):
        if tok.type == tokenize.NUMBER and tok.string.isdigit() and len(tok.string) > limit:
            begin = starts[tok.start[0] - 1] + tok.start[1]
            out += [test[done:begin], hex(int(decimal.Decimal(tok.string)))]  # any length
            done = begin + len(tok.string)
    return "".join(out) + test[done:]


def checks(test: str) -> tuple[str, tuple[str, ...]]:
    """EvalPlus's `test` as the checker runs it, and the parts of numpy it uses beyond the
    stand-in (empty: it can be judged)."""
    test = _hex_literals(test)
    used = set(re.findall(r"\bnp\.(\w+)", test))
    used |= {f"testing.{n}" for n in re.findall(r"\bnp\.testing\.(\w+)", test)}
    beyond = sorted(used - NUMPY_NAMES - {"testing.assert_allclose"})
    if re.search(r"^\s*(import numpy|from numpy)", NUMPY_IMPORT.sub("", test), re.MULTILINE):
        beyond.append("an import of numpy")
    return NUMPY_IMPORT.sub(lambda _: STAND_IN, test, count=1), tuple(beyond)


def rows(
    name: str, repo: str, source: Source, split: str
) -> Iterator[tuple[str, int | None, dict[str, Any]]]:
    """(where, line, row) of HumanEval+ or MBPP+: the Hub's Parquet (one split, test), or a
    copy in its schema (.jsonl or .parquet, a file or a directory)."""
    if split != "test":
        raise CodelogError(f"{name} has one split, test; not {split!r} (--split)")
    if source.path is None:
        yield from hub_rows(name, repo, split)
        return
    yield from local_rows(source.path, (".jsonl", ".parquet"), name, prefer=split)
