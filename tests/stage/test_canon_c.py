"""The C canonical walk (`codelog.stage._canon`) gives exactly the bytes of the Python reference."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import tree_sitter_python
from hypothesis import given

from codelog.ingest.codenet import BUNDLED_ROOT
from codelog.stage import ast_hash
from codelog.stage.ast_hash import GRAMMARS, canonical_form, parser_for
from tests.test_properties import SETTINGS, named_programs

SNIPPETS = {
    "python": "import sys\n# note\ndef f(a, b=2, *c, **d):\n    x, (y, z) = a, (b, 3)\n"
    "    return [i for i in c if i > x] or lambda q: q + y + z\n",
    "c": "#include <stdio.h>\nstruct P { int x; };\n/* c */ int main(void) { int n, *p = &n;\n"
    'scanf("%d", p); for (int i = 0; i < n; i++) printf("%d\\n", i * n); return 0; }\n',
    "c++": "#include <bits/stdc++.h>\nusing namespace std;\nint main() { vector<int> v{1,2};\n"
    "for (auto& e : v) cout << e << '\\n'; auto f = [&](int k) { return k + v[0]; };\n}\n",
    "java": "class Main { // hi\n public static void main(String[] args) {\n"
    "  int[] a = {1, 2}; for (int x : a) System.out.println(x * 2); }\n}\n",
    "go": 'package main\nimport "fmt"\nfunc main() {\n a, b := 1, 2 // x\n'
    " for i := range []int{a, b} { fmt.Println(i + a) }\n}\n",
    "rust": "use std::io;\nfn main() { let (a, mut b) = (1, 2); /* c */ b += a;\n"
    ' let f = |x: i32| x * b; println!("{}", f(a)); }\n',
    "ruby": "def f(a, b)\n  # c\n  x, y = a, b\n  [x, y].each { |v| puts v * 2 }\nend\nf(1, 2)\n",
    "c#": "using System;\nclass P { static void Main(string[] args) { int n = 3; // c\n"
    " foreach (var x in args) Console.WriteLine(x + n); } }\n",
}


def python_form(source: bytes, language: str) -> tuple[bool, bytes]:
    tree = parser_for(language).parse(source)
    return tree.root_node.has_error, canonical_form(tree, language, source)


def c_form(source: bytes, language: str) -> tuple[bool, bytes]:
    return ast_hash._canonicalizer(language).canonical(source)


def test_the_extension_was_built():
    # CI builds it (setup.py via `pip install -e .`); without it builds run about 2x slower.
    assert ast_hash.ACCELERATED, "codelog.stage._canon is missing: reinstall with a C compiler"


@pytest.mark.parametrize("language", sorted(k for k in GRAMMARS if k not in ("cpp", "csharp")))
def test_every_grammar_agrees(language):
    source = SNIPPETS[language].encode()
    has_error, form = c_form(source, language)
    assert (has_error, form) == python_form(source, language)
    assert not has_error and b"$" in form  # parsed cleanly, and something was renamed
    broken = source.replace(b"(", b"((", 1)
    assert c_form(broken, language) == python_form(broken, language)


def test_every_bundled_program_agrees():
    files = sorted(Path(BUNDLED_ROOT, "data").glob("*/Python/*.py"))
    assert len(files) > 1500
    for path in files:
        source = path.read_bytes()
        assert c_form(source, "python") == python_form(source, "python"), path


@SETTINGS
@given(named_programs())
def test_generated_programs_agree(program):
    source = program.encode()
    assert c_form(source, "python") == python_form(source, "python")


# The C walk reads tree-sitter's subtrees, not a cursor: cases where the two could part.
TRICKY = {
    "python": [
        # keywords aliased to identifier; fields through hidden nodes; extras between children
        "match = print = type = 1\nexec(match, type)\nfor (a, b) in z: pass\n",
        "f(a, # c\n  b)\nx = 1 + \\\n    2\nclass C(B, metaclass=M):\n    def __lt__(s, o): ...\n",
        'é = "ü€\U0001f600"\nprint(f"{é:.6f} {é!r:>{w}}")\n',
        "if x:\n    pass\nelse:\n  y",  # indent change, no final newline
        "def f(\n",  # ERROR and zero-width MISSING tokens
    ],
    "c": [
        "int /*a*/ *p /*b*/ = /*c*/ &n, a[3], (*g)(int);\nstruct S { int x, *y; } s;\n",
        '#define X(a) ((a) + 1)\n#include <stdio.h>\nint main() { char *u = "ü€"; return s.x + p->y; }',
        "int main() { int x = 1 return x }\n",  # MISSING ';'
        "int f( { x = ; }\n",
    ],
    "c++": [
        "template <class T> struct A { T v; };\nint main() { A<int> a{1}; std::max(a.v, 2); }\n",
        "auto f = [&, x = 1](auto... k) -> int { return x; }\nint main() { for (auto [a, b] : m) }\n",
    ],
    "java": [
        "class Main { int f(int a, /* c */ int... b) { var r = (x, y) -> x; return a; } }\n",
        "class A { void f() { int x = 1 return; } \n",
    ],
    "go": [
        "package main\nfunc f() (a, b int) { a, b = b, a; s := []string{`é`}; return }\n",
        "package main\nfunc main() { x := \n}\n",
    ],
    "rust": [
        "fn f<'a>(x: &'a mut [u8]) -> Option<u8> { let Some(y) = x.first() else { return None }; "
        "y.checked_add(1) }\nstruct P { r: i32 }\n",
        "fn main() { let x = ; }\n",
    ],
    "ruby": [
        "def f(a, *b, k: 1, &blk)\n  x, *y = b # c\n  a.each { |v| yield v }\nend\n",
        "def f(\n",
    ],
    "c#": [
        "class P { static int F(int a, params int[] b) => a; // c\n int G() { var (x, y) = (1, 2); } }\n",
        "class P { void F() { int x = 1 } \n",
    ],
}


@pytest.mark.parametrize("language", sorted(TRICKY))
def test_tricky_inputs_agree(language):
    # Each case, then edits of it: deletions and insertions make ERROR, MISSING, odd extras.
    rng = random.Random(language)
    for case in TRICKY[language] + [SNIPPETS[language]]:
        source = case.encode()
        assert c_form(source, language) == python_form(source, language), source
        for _ in range(40):
            edited = source
            for _ in range(rng.randrange(1, 4)):
                i = rng.randrange(len(edited) + 1)
                if rng.random() < 0.5:
                    edited = edited[:i] + edited[i + rng.randrange(1, 6) :]
                else:
                    edited = (
                        edited[:i]
                        + rng.choice([b"(", b"}", b";", b",", b"\n", b" ", "é".encode()])
                        + edited[i:]
                    )
            assert c_form(edited, language) == python_form(edited, language), edited


def test_odd_inputs():
    for source in (b"", b"\n\n", b"# only a comment\n", "x = 'é' # ü\n".encode(), b"\xff\xfe("):
        assert c_form(source, "python") == python_form(source, "python"), source
    with pytest.raises(TypeError):
        ast_hash._canonicalizer("python").canonical("not bytes")


def test_bad_tables_are_refused():
    canon = ast_hash._canon
    language = parser_for("python").language
    with pytest.raises(ValueError, match="not in the grammar"):
        canon.Canonicalizer(
            tree_sitter_python.language(),
            identifiers=[language.node_kind_count + 5],
            comments=[],
            fixed_text={},
            binding_fields=[],
            binding_parents=[],
            containers=[],
            kept_fields=[],
            kept_names=[],
            kept_dunders=False,
            layout_sensitive=False,
        )
