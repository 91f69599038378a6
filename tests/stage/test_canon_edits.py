"""Single-token edits never collide: the canonical form's promise, checked on real programs.

The programs are the bundled sample's Python sources and the C and C++ programs in
tests/fixtures/programs/ (the sample holds no C). A token is a visible tree-sitter leaf that
is not a comment; an edit inserts, deletes or replaces one. The edited program must hash apart
from the original, and the C walk must give the Python reference's bytes for it (most edits
break the tree, so this also pins the two backends' handling of ERROR and MISSING nodes).

A name is never replaced by another name here: replacing a name used once is a legitimate
rename, which tests/test_ast_hash.py covers in both directions.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codelog.ingest.codenet import BUNDLED_ROOT
from codelog.stage import ast_hash
from codelog.stage.ast_hash import GRAMMARS, canonical_form, parser_for

FIXTURES = Path(__file__).parent.parent / "fixtures" / "programs"
C_FAMILY = sorted((("c" if p.suffix == ".c" else "c++"), p) for p in FIXTURES.glob("*.c*"))
PYTHON = sorted(("python", p) for p in Path(BUNDLED_ROOT, "data").glob("*/Python/*.py"))
COMMENT_MARKERS = {"python": (b"#",), "c": (b"//", b"/*"), "c++": (b"//", b"/*")}
WORD = re.compile(rb"\w")
EDITS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def tokens(path: Path, language: str) -> tuple[tuple[int, int, bool], ...]:
    """(start, end, is a name) of every non-empty, non-comment leaf of the program."""
    grammar = GRAMMARS[language]
    out = []
    cursor = parser_for(language).parse(path.read_bytes()).walk()
    while True:
        node = cursor.node
        if node.type not in grammar.comments:
            if not cursor.goto_first_child():
                if node.end_byte > node.start_byte:
                    out.append((node.start_byte, node.end_byte, node.type in grammar.identifiers))
            else:
                continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return tuple(out)


@cache
def candidates(path: Path, language: str) -> tuple[tuple[bytes, bool], ...]:
    """Token texts an edit may insert: the program's own, except blank ones and any that would
    start a comment (inserting a comment is allowed to change nothing)."""
    source = path.read_bytes()
    texts = {(source[a:b], is_name) for a, b, is_name in tokens(path, language)}
    return tuple(
        sorted(
            (text, is_name)
            for text, is_name in texts
            if text.strip() and not any(m in text for m in COMMENT_MARKERS[language])
        )
    )


def splice(source: bytes, start: int, end: int, token: bytes) -> bytes:
    """`source` with [start, end) replaced by `token`, spaced so it stays a token of its own."""
    left = b" " if start and WORD.match(source, start - 1) and WORD.match(token) else b""
    right = (
        b" " if end < len(source) and WORD.match(source, end) and WORD.match(token[-1:]) else b""
    )
    return source[:start] + left + token + right + source[end:]


@st.composite
def edited_programs(draw, programs):
    language, path = draw(st.sampled_from(programs))
    source = path.read_bytes()
    start, end, is_name = draw(st.sampled_from(tokens(path, language)))
    edit = draw(st.sampled_from(["insert", "delete", "replace"]))
    if edit == "delete":
        return language, source, source[:start] + source[end:]
    pool = [
        text
        for text, text_is_name in candidates(path, language)
        if not (edit == "replace" and (text == source[start:end] or (is_name and text_is_name)))
    ]
    token = draw(st.sampled_from(pool))
    if edit == "insert":
        return language, source, splice(source, start, start, token)
    return language, source, splice(source, start, end, token)


def both_forms(source: bytes, language: str) -> bytes:
    """The canonical form, after checking that the C walk and the Python reference agree."""
    tree = parser_for(language).parse(source)
    reference = (tree.root_node.has_error, canonical_form(tree, language, source))
    if ast_hash.ACCELERATED:
        assert ast_hash._canonicalizer(language).canonical(source) == reference
    return reference[1]


def check_apart(language: str, original: bytes, edited: bytes) -> None:
    assert edited != original
    assert both_forms(edited, language) != both_forms(original, language), edited.decode()


@EDITS
@given(edited_programs(PYTHON))
def test_single_token_edits_of_python_programs_never_collide(case):
    check_apart(*case)


@EDITS
@given(edited_programs(C_FAMILY))
def test_single_token_edits_of_c_and_cpp_programs_never_collide(case):
    check_apart(*case)


@pytest.mark.parametrize(("language", "path"), C_FAMILY, ids=lambda v: getattr(v, "name", v))
def test_deleting_any_one_token_of_a_c_program_changes_its_hash(language, path):
    source = path.read_bytes()
    for start, end, _ in tokens(path, language):
        check_apart(language, source, source[:start] + source[end:])


def test_the_fixtures_are_real_programs_and_cover_both_tree_kinds():
    assert len(C_FAMILY) >= 8 and len(PYTHON) > 1500
    broken = {
        path.name
        for language, path in C_FAMILY
        if parser_for(language).parse(path.read_bytes()).root_node.has_error
    }
    # rep(i, n) macros do not parse: the broken-tree walk gets real programs too
    assert broken == {"p02971.cpp"}
