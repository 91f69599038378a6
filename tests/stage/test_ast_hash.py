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


# -- every token counts; only layout, comments and the program's own names do not -------------


def hc(code: str, language: str = "c") -> str:
    return parse_code(code, language).ast_hash


def test_a_missing_semicolon_is_not_the_fixed_program():
    # tree-sitter repairs the first with a zero-width MISSING `;`: same tree, different program
    broken, fixed = "int main(){int x=1\nreturn x;}", "int main(){int x=1;\nreturn x;}"
    assert not parse_code(broken, "c").syntax_ok and parse_code(fixed, "c").syntax_ok
    assert hc(broken) != hc(fixed)


def test_a_stray_character_is_kept():
    assert hc("int main(){ return 0; @ }") != hc("int main(){ return 0; ` }")


def test_a_broken_c_tree_still_ignores_layout_and_comments():
    # `rep(i, n) stmt;` macros do not parse, and half of competitive C++ is written with them
    a = "#define rep(i, n) for (int i = 0; i < n; i++)\nint main(){ rep(i, 3) f(i); }\n"
    b = "#define rep(i, n) for (int i = 0; i < n; i++)\nint main() {\n  rep(i,3)  f(i);  // go\n}\n"
    assert not parse_code(a, "c++").syntax_ok
    assert hc(a, "c++") == hc(b, "c++")
    assert hc(a, "c++") != hc(a.replace("f(i)", "g(i)"), "c++")


def test_a_broken_tree_renames_nothing():
    # which names a broken tree binds is error recovery's guess: keep them all as written
    a = "int main(){ int x = 1 return x; }"
    assert not parse_code(a, "c").syntax_ok
    assert hc(a) != hc(a.replace("x", "y"))


def test_a_broken_python_tree_is_its_exact_text():
    # Indentation lives in hidden tokens: these two broken trees have the same nodes, and once
    # the colon is added, `b = 2` runs in the loop in one and after it in the other.
    inside = "for i in r\n    a = 1\n    b = 2\n"
    after = "for i in r\n    a = 1\nb = 2\n"
    assert not parse_code(inside, "python").syntax_ok
    assert h(inside) != h(after)
    assert h(inside) != h(inside.replace("a = 1", "a=1"))  # the price: layout counts here


@pytest.mark.parametrize(
    "a, b",
    [
        ('print(b"x")\n', 'print("x")\n'),  # string prefix
        ('print(f"{x:.6f}")\n', 'print(f"{x:.2f}")\n'),  # format spec: a hidden token
        ('print(f"{x: d}")\n', 'print(f"{x:d}")\n'),  # ... whose spaces are not layout
        ("print(0x10)\n", "print(16)\n"),  # number literals as written
        ("x = a if b else c\n", "x = a if c else b\n"),
    ],
)
def test_literal_and_token_text_is_kept(a, b):
    assert h(a) != h(b)


def test_a_name_also_looked_up_by_text_is_renamed_nowhere():
    # renaming the method's definition alone would look consistent and break `uf.find(x)`
    uf = "class UF:\n    def find(self, x):\n        return x\nuf = UF()\nprint(uf.find(1))\n"
    assert h(uf) != h(uf.replace("def find", "def fnd"))
    assert h("x = 1\ns.x(2)\n") != h("y = 1\ns.y(2)\n")
    assert h("def f(key):\n    return key\nf(key=1)\n") != h("def f(k):\n    return k\nf(key=1)\n")
    # the price: a parameter named like the attribute it sets is not renamed either
    assert h("def f(self, x):\n    self.x = x\n") != h("def f(self, y):\n    self.x = y\n")
    assert h("def f(self, x):\n    self.v = x\n") == h("def f(self, y):\n    self.v = y\n")
    assert hc("int x; int main(){ return p.x + x; }") != hc("int y; int main(){ return p.y + y; }")
    struct = "struct P { double r; };\ndouble f(struct P *c) { return c->r; }\n"
    assert hc(struct) != hc(struct.replace("double r;", "double q;"))
    assert hc("int max; int main(){ return std::max(1, 2); }", "c++") != hc(
        "int m; int main(){ return std::m(1, 2); }", "c++"
    )


def test_names_the_runtime_finds_by_text_are_kept():
    assert hc("int main(){ return 0; }") != hc("int mian(){ return 0; }")
    lt = "class A:\n    def __lt__(self, o):\n        return 1\n"
    assert h(lt) != h(lt.replace("__lt__", "__gt__"))
    java = "class Main { public static void main(String[] a) { } }"
    assert hc(java, "java") != hc(java.replace("Main", "Solve"), "java")


def test_python_line_joins_are_layout():
    assert h("x = 1 + \\\n    2\n") == h("x = 1 + 2\n")
