import pytest

from codelog.stage.ast_hash import exact_hash, parse_code

pytestmark = pytest.mark.usefixtures("hash_backend")  # every test: the C walk and the Python one

BASE = """\
import sys

def solve(values):
    best = max(values)
    total = 0
    for v in values:
        if v != best:
            total += v
    return total

n = int(input())
nums = list(map(int, input().split()))
print(solve(nums))
"""

RENAMED = """\
import sys

def f(a):
    m = max(a)
    s = 0
    for x in a:
        if x != m:
            s += x
    return s

k = int(input())
arr = list(map(int, input().split()))
print(f(arr))
"""

RECOMMENTED_REFORMATTED = """\
# a solution
import sys


def solve( values ):   # take the largest out
  best=max( values )
  total=0
  for v in values :
      if v!=best :
          total+=v   # accumulate
  return total
n=int(input())
nums=list(map(int,input().split()))
print( solve(nums) )  # done
"""


def h(code: str) -> str:
    return parse_code(code, "python").ast_hash


def test_rename_does_not_change_hash():
    assert h(RENAMED) == h(BASE)


def test_comments_and_whitespace_do_not_change_hash():
    assert h(RECOMMENTED_REFORMATTED) == h(BASE)


@pytest.mark.parametrize(
    "change",
    [
        ("max(values)", "min(values)"),  # a different builtin is a different program
        ("!=", "=="),
        ("total += v", "total -= v"),
        ("total = 0", "total = 1"),
        ("return total", "return total + 1"),
        ("print(solve(nums))", 'print(solve(nums), end="")'),
    ],
)
def test_structural_differences_are_kept_apart(change):
    old, new = change
    assert new != old and old in BASE
    assert h(BASE.replace(old, new)) != h(BASE)


def test_string_contents_matter_so_presentation_errors_stay_apart():
    assert h('print(" ".join(a))') != h('print("  ".join(a))')


def test_indentation_structure_matters():
    inside = "for i in range(3):\n    x = i\n    print(x)\n"
    after = "for i in range(3):\n    x = i\nprint(x)\n"
    assert h(inside) != h(after)


def test_consistent_renaming_only():
    # swapping which name is used where is a real difference, not a rename
    assert h("a = 1\nb = 2\nprint(a - b)\n") != h("a = 1\nb = 2\nprint(b - a)\n")
    assert h("a = 1\nb = 2\nprint(a - b)\n") == h("x = 1\ny = 2\nprint(x - y)\n")


def test_syntax_validity_is_recorded():
    assert parse_code(BASE, "python").syntax_ok
    assert not parse_code("def f(:\n    return 1\n", "python").syntax_ok
    assert not parse_code("for i in range(3)\n    print(i)\n", "python").syntax_ok


def test_python2_print_statement_parses():
    assert parse_code('print "hello"\n', "python").syntax_ok


def test_exact_hash_sees_every_byte():
    assert exact_hash("x = 1\n") != exact_hash("x = 1 \n")


def test_c_plus_plus_renaming_and_comments():
    a = '#include <cstdio>\nint main(){int n; scanf("%d",&n); // read\n printf("%d\\n", n*2);}\n'
    b = '#include <cstdio>\nint main() {\n  int k;\n  scanf("%d", &k);\n  printf("%d\\n", k * 2);\n}\n'
    c = b.replace("k * 2", "k * 3")
    assert parse_code(a, "c++").ast_hash == parse_code(b, "c++").ast_hash
    assert parse_code(c, "c++").ast_hash != parse_code(b, "c++").ast_hash


def test_java_renaming():
    a = "class Main { public static void main(String[] args) { int n = 3; System.out.println(n); } }"
    b = "class Main {\n public static void main(String[] xs) {\n  int m = 3; // three\n  System.out.println(m);\n }\n}"
    assert parse_code(a, "java").ast_hash == parse_code(b, "java").ast_hash
