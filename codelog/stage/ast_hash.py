"""Canonical tree-sitter AST hashing: the identity used to deduplicate solutions.

The promise: two programs share a hash only if their texts differ in nothing but layout,
comments and a consistent renaming of the names the program binds. In detail, a program that
parses cleanly is hashed as its syntax tree with
- comments (and Python's `\\` line joins) dropped, whitespace between tokens never seen;
- every token's text kept: literals, operators, keywords, and source text no visible node
  covers (tree-sitter keeps some tokens hidden, e.g. the `.6f` of `f"{x:.6f}"`);
- the identifiers the program binds (variables, functions, parameters, ...) renamed by first
  use. Names it does not bind keep their text: `max(a)` and `min(a)` must not collapse. Nor
  is a name renamed anywhere if the program also uses it where it is looked up by its text:
  as an attribute or field (`uf.find(x)`, `p->r`), a keyword argument (`key=`), a qualified
  name (`std::max`), or as a name the runtime calls (`main`, Python's `__lt__`). Renaming
  `def find` alone would otherwise look like a consistent rename.
A tree with a syntax error is not trusted that far: error recovery folds tokens into ERROR
nodes and inserts zero-width MISSING ones (`int x=1` without its `;` parses like the fixed
program), and which names it binds is guesswork. Its form starts apart from every clean
tree's, marks its ERROR and MISSING nodes and renames nothing, so two broken programs collide
only if they differ in layout and comments alone. Where layout is syntax (Python, Go, Ruby:
indentation and line ends live in hidden tokens the walk cannot see) it is its exact text.

Renaming is by text, not by scope: a program that binds a library name in one scope (`max = 0`
inside a function) and calls the library one elsewhere collapses with the same program
consistently renamed. Scope analysis per language would close that; it is documented, not done.
"""

from __future__ import annotations

import hashlib
import importlib
import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from types import MappingProxyType
from typing import Any

from tree_sitter import Language, Parser, Tree

from codelog.errors import CodelogError

try:  # built by setup.py; optional, so an install without a C compiler still works
    from codelog.stage import _canon
except ImportError:  # pragma: no cover - exercised only where the build had no compiler
    _canon = None

# The C walk is ~8x faster than the Python one and gives the same bytes.
ACCELERATED = _canon is not None

# Bump when the canonical form's bytes change: hashes staged by an older codelog are then stale.
# 3: every token's text, uncovered text, kept attribute/entry names, error trees apart.
FORM_VERSION = 3


@dataclass(frozen=True)
class Grammar:
    """How to canonicalise one language's trees."""

    module: str  # the tree-sitter grammar package
    function: str = "language"
    identifiers: frozenset[str] = frozenset({"identifier"})
    comments: frozenset[str] = frozenset({"comment"})
    # An identifier whose (parent type, field name) is listed here is a binding occurrence.
    binding_fields: frozenset[tuple[str, str]] = frozenset()
    # Every identifier directly under one of these parents is a binding occurrence.
    binding_parents: frozenset[str] = frozenset()
    # An identifier in one of these (parent type, field name) slots is looked up by its text
    # (a member, a keyword argument): that name is renamed nowhere in the program.
    kept_fields: frozenset[tuple[str, str]] = frozenset()
    # Names the runtime finds by their text (entry points): never renamed.
    kept_names: frozenset[str] = frozenset()
    kept_dunders: bool = False  # Python: `__lt__`, `__init__`, ... are found by text too
    # Layout is syntax (indentation, newlines as terminators) but lives in hidden tokens: a
    # tree with errors is then hashed as its exact text, not as its (unreliable) structure.
    layout_sensitive: bool = False


_C_FAMILY_FIELDS = frozenset(
    {
        ("init_declarator", "declarator"),
        ("declaration", "declarator"),
        ("parameter_declaration", "declarator"),
        ("optional_parameter_declaration", "declarator"),
        ("function_declarator", "declarator"),
        ("pointer_declarator", "declarator"),
        ("reference_declarator", "declarator"),
        ("array_declarator", "declarator"),
        ("field_declaration", "declarator"),
        ("for_range_loop", "declarator"),
        ("struct_specifier", "name"),
        ("class_specifier", "name"),
        ("enumerator", "name"),
        ("lambda_capture_specifier", "capture"),
    }
)

GRAMMARS: dict[str, Grammar] = {
    "python": Grammar(
        module="tree_sitter_python",
        comments=frozenset({"comment", "line_continuation"}),
        kept_fields=frozenset({("attribute", "attribute"), ("keyword_argument", "name")}),
        kept_dunders=True,
        layout_sensitive=True,
        binding_fields=frozenset(
            {
                ("assignment", "left"),
                ("augmented_assignment", "left"),
                ("for_statement", "left"),
                ("for_in_clause", "left"),
                ("function_definition", "name"),
                ("class_definition", "name"),
                ("default_parameter", "name"),
                ("typed_default_parameter", "name"),
                ("named_expression", "name"),
                ("aliased_import", "alias"),
            }
        ),
        binding_parents=frozenset(
            {
                "parameters",
                "lambda_parameters",
                "typed_parameter",
                "pattern_list",
                "tuple_pattern",
                "list_pattern",
                "list_splat_pattern",
                "dictionary_splat_pattern",
                "as_pattern_target",
                "global_statement",
                "nonlocal_statement",
            }
        ),
    ),
    "c": Grammar(
        module="tree_sitter_c",
        identifiers=frozenset({"identifier", "field_identifier", "type_identifier"}),
        binding_fields=_C_FAMILY_FIELDS,
        kept_fields=frozenset({("field_expression", "field")}),
        kept_names=frozenset({"main"}),
    ),
    "c++": Grammar(
        module="tree_sitter_cpp",
        identifiers=frozenset({"identifier", "field_identifier", "type_identifier"}),
        binding_fields=_C_FAMILY_FIELDS,
        kept_fields=frozenset({("field_expression", "field"), ("qualified_identifier", "name")}),
        kept_names=frozenset({"main"}),
    ),
    "java": Grammar(
        module="tree_sitter_java",
        comments=frozenset({"line_comment", "block_comment"}),
        identifiers=frozenset({"identifier", "type_identifier"}),
        binding_fields=frozenset(
            {
                ("variable_declarator", "name"),
                ("formal_parameter", "name"),
                ("spread_parameter", "name"),
                ("catch_formal_parameter", "name"),
                ("enhanced_for_statement", "name"),
                ("method_declaration", "name"),
                ("class_declaration", "name"),
                ("interface_declaration", "name"),
                ("enum_declaration", "name"),
                ("record_declaration", "name"),
                ("lambda_expression", "parameters"),
            }
        ),
        binding_parents=frozenset({"inferred_parameters"}),
        kept_fields=frozenset({("field_access", "field"), ("method_invocation", "name")}),
        kept_names=frozenset({"main", "Main"}),  # judges run class Main's main
    ),
    "go": Grammar(
        module="tree_sitter_go",
        identifiers=frozenset({"identifier", "field_identifier", "type_identifier"}),
        binding_fields=frozenset(
            {
                ("var_spec", "name"),
                ("const_spec", "name"),
                ("parameter_declaration", "name"),
                ("function_declaration", "name"),
                ("type_spec", "name"),
                # `a, b := f()` binds through the expression_list on the left.
                ("short_var_declaration", "left"),
                ("range_clause", "left"),
            }
        ),
        kept_fields=frozenset({("selector_expression", "field")}),
        kept_names=frozenset({"main"}),
        layout_sensitive=True,  # newlines end statements
    ),
    "rust": Grammar(
        module="tree_sitter_rust",
        comments=frozenset({"line_comment", "block_comment"}),
        identifiers=frozenset({"identifier", "field_identifier", "type_identifier"}),
        binding_fields=frozenset(
            {
                ("let_declaration", "pattern"),
                ("parameter", "pattern"),
                ("function_item", "name"),
                ("struct_item", "name"),
                ("enum_item", "name"),
                ("for_expression", "pattern"),
                ("closure_parameters", "pattern"),
            }
        ),
        binding_parents=frozenset({"tuple_pattern", "closure_parameters", "mut_pattern"}),
        kept_fields=frozenset({("field_expression", "field"), ("scoped_identifier", "name")}),
        kept_names=frozenset({"main"}),
    ),
    "ruby": Grammar(
        module="tree_sitter_ruby",
        binding_fields=frozenset(
            {
                ("assignment", "left"),
                ("operator_assignment", "left"),
                ("method", "name"),
                ("for", "pattern"),
            }
        ),
        binding_parents=frozenset(
            {"method_parameters", "block_parameters", "lambda_parameters", "left_assignment_list"}
        ),
        kept_fields=frozenset({("call", "method")}),
        layout_sensitive=True,  # newlines end statements
    ),
    "c#": Grammar(
        module="tree_sitter_c_sharp",
        binding_fields=frozenset(
            {
                ("variable_declarator", "name"),
                ("parameter", "name"),
                ("method_declaration", "name"),
                ("class_declaration", "name"),
                ("foreach_statement", "left"),
                ("local_function_statement", "name"),
            }
        ),
        kept_fields=frozenset({("member_access_expression", "name")}),
        kept_names=frozenset({"Main"}),
    ),
}
GRAMMARS["cpp"] = GRAMMARS["c++"]
GRAMMARS["csharp"] = GRAMMARS["c#"]

# Identifiers inside one of these containers bind when the container itself sits in a binding
# field: `a, b = ...` in Python, `a, b := ...` in Go.
_BINDING_CONTAINERS = frozenset(
    {"expression_list", "pattern_list", "tuple_pattern", "list_pattern"}
)


def grammar_for(language: str) -> Grammar:
    """The grammar of a CodeNet language name (case-insensitive), or a clear error."""
    key = language.lower()
    if key not in GRAMMARS:
        raise CodelogError(
            f"no tree-sitter grammar for language {language!r}; supported: "
            + ", ".join(sorted(k for k in GRAMMARS if k not in ("cpp", "csharp")))
        )
    return GRAMMARS[key]


def hash_identity(language: str) -> dict[str, str | int] | None:
    """What an AST hash depends on besides the code: the form and the grammar's version.

    None for a language without a grammar (its builds dedup by exact bytes).
    """
    if language.lower() not in GRAMMARS:
        return None
    package = grammar_for(language).module.replace("_", "-")
    return {"form_version": FORM_VERSION, "grammar": f"{package} {metadata.version(package)}"}


@dataclass(frozen=True)
class _Tables:
    """A grammar's rules as kind and field ids: the walk compares ints, not strings."""

    identifiers: frozenset[int]
    comments: frozenset[int]
    # Anonymous kinds (keywords, operators, punctuation) and their usual text: a leaf with that
    # text is recorded by kind alone, any other text (an alias, a zero-width token) in full.
    fixed_text: Mapping[int, bytes]
    binding_fields: frozenset[tuple[int, int]]
    binding_parents: frozenset[int]
    containers: frozenset[int]
    kept_fields: frozenset[tuple[int, int]]
    kept_names: frozenset[bytes]
    kept_dunders: bool
    layout_sensitive: bool


@cache
def _language(language: str) -> Language:
    return Language(_grammar_capsule(language))


def _grammar_capsule(language: str) -> Any:
    """The grammar package's `language()` pointer, for py-tree-sitter and for `_canon`."""
    grammar = grammar_for(language)
    return getattr(importlib.import_module(grammar.module), grammar.function)()


@cache
def parser_for(language: str) -> Parser:
    return Parser(_language(language))


@cache
def _tables(language: str) -> _Tables:
    grammar, lang = grammar_for(language), _language(language)

    def kinds(names: frozenset[str]) -> frozenset[int]:
        ids = (lang.id_for_node_kind(name, True) for name in names)
        return frozenset(i for i in ids if i is not None)

    def slots(pairs: frozenset[tuple[str, str]]) -> frozenset[tuple[int, int]]:
        return frozenset(
            (kind, field)
            for parent, name in pairs
            if (kind := lang.id_for_node_kind(parent, True)) is not None
            and (field := lang.field_id_for_name(name)) is not None
        )

    return _Tables(
        identifiers=kinds(grammar.identifiers),
        comments=kinds(grammar.comments),
        fixed_text=MappingProxyType(
            {
                k: lang.node_kind_for_id(k).encode()
                for k in range(lang.node_kind_count)
                if not lang.node_kind_is_named(k)
            }
        ),
        binding_fields=slots(grammar.binding_fields),
        binding_parents=kinds(grammar.binding_parents),
        containers=kinds(_BINDING_CONTAINERS),
        kept_fields=slots(grammar.kept_fields),
        kept_names=frozenset(name.encode() for name in grammar.kept_names),
        kept_dunders=grammar.kept_dunders,
        layout_sensitive=grammar.layout_sensitive,
    )


@dataclass(frozen=True)
class ParseResult:
    syntax_ok: bool
    ast_hash: str


# Records of the canonical form (codelog/stage/_canon.c writes the same bytes; its header says how).
_OPEN, _CLOSE, _LEAF, _TEXT, _BOUND = b"(", b")", b".", b'"', b"$"
_MISSING, _UNCOVERED = b"?", b"~"
_IDENT = None  # an identifier until renaming decides between _TEXT and _BOUND
# The first byte of an errored tree's form: no valid tree's form starts with either.
_BROKEN, _EXACT = b"!", b"="
_NONBLANK = re.compile(rb"[^ \t\n\r\v\f]")  # not whitespace, as _canon.c's is_space


def canonical_form(tree: Tree, language: str, source: bytes) -> bytes:
    """`tree` (parsed from `source`) in prefix form, as bytes; the reference for `_canon`.

    See the module docstring for what is kept. A tree with errors starts with `_BROKEN` and
    renames nothing, or, for a layout-sensitive grammar, is `_EXACT` + the source itself.
    """
    t = _tables(language)
    if not tree.root_node.has_error:
        return _encode(*_walk(tree, t, source, broken=False))
    if t.layout_sensitive:
        return _EXACT + source
    return _BROKEN + _encode(*_walk(tree, t, source, broken=True))


def _walk(
    tree: Tree, t: _Tables, source: bytes, *, broken: bool
) -> tuple[list[tuple[bytes | None, int, bytes]], set[bytes]]:
    """The form's records in prefix order (identifiers undecided), and the names bound.

    `broken`: the tree has errors, so MISSING nodes are marked and every identifier keeps its
    text. Kind ids, not names, keep the walk cheap.
    """
    identifiers, comments, fixed_text = t.identifiers, t.comments, t.fixed_text
    fields, parents, containers, kept = (
        t.binding_fields,
        t.binding_parents,
        t.containers,
        t.kept_fields,
    )
    cursor = tree.walk()
    events: list[tuple[bytes | None, int, bytes]] = []
    emit = events.append
    ancestors: list[tuple[int, int | None]] = [(-1, None), (-1, None)]  # (kind, field in parent)
    push, pop = ancestors.append, ancestors.pop
    bound: set[bytes] = set()
    by_text: set[bytes] = set()  # names used where they are looked up by text
    nonblank = _NONBLANK.search
    covered = 0  # source before this offset is in the form already, or is a comment
    while True:
        node = cursor.node
        kind = node.kind_id
        # Only containers need their own field id later (`a, b = ...` binds through them).
        field = cursor.field_id if kind in containers else None
        if kind in comments or not cursor.goto_first_child():
            start, end = node.start_byte, node.end_byte
            if start > covered and nonblank(source, covered, start):
                emit((_UNCOVERED, 0, source[covered:start]))
            if end > covered:
                covered = end
            if kind in comments:
                pass
            elif broken and node.is_missing:  # only a tree with errors has MISSING nodes
                emit((_MISSING, kind, b""))
            elif kind in identifiers:
                parent, parent_field = ancestors[-1]
                own = (parent, cursor.field_id)
                text = source[start:end]
                if broken:
                    emit((_TEXT, kind, text))
                else:
                    if own in kept:
                        by_text.add(text)
                    elif (
                        own in fields
                        or parent in parents
                        or (parent in containers and (ancestors[-2][0], parent_field) in fields)
                    ):
                        bound.add(text)
                    emit((_IDENT, kind, text))
            elif fixed_text.get(kind) == (text := source[start:end]):
                emit((_LEAF, kind, b""))
            else:
                emit((_TEXT, kind, text))
        else:
            emit((_OPEN, kind, b""))
            push((kind, field))
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                if nonblank(source, covered):
                    emit((_UNCOVERED, 0, source[covered:]))
                return events, {name for name in bound - by_text if not _kept_name(t, name)}
            emit((_CLOSE, 0, b""))
            pop()


def _kept_name(t: _Tables, name: bytes) -> bool:
    return name in t.kept_names or (
        t.kept_dunders and len(name) > 4 and name[:2] == b"__" == name[-2:]
    )


def _encode(events: list[tuple[bytes | None, int, bytes]], bound: set[bytes]) -> bytes:
    out = bytearray()
    names: dict[bytes, int] = {}
    for tag, kind, text in events:
        if tag is _IDENT:
            if text in bound:
                out += struct.pack("<cHI", _BOUND, kind, names.setdefault(text, len(names)))
                continue
            tag = _TEXT
        if tag == _TEXT:
            out += struct.pack("<cHI", tag, kind, len(text)) + text
        elif tag == _UNCOVERED:
            out += struct.pack("<cI", tag, len(text)) + text
        elif tag == _CLOSE:
            out += _CLOSE
        else:
            out += struct.pack("<cH", tag, kind)
    return bytes(out)


@cache
def _canonicalizer(language: str) -> Any:
    return make_canonicalizer(_canon, language)


def make_canonicalizer(module: Any, language: str) -> Any:
    """A `Canonicalizer` of `module`, a build of `_canon` (this one, or one loaded from a path:
    setup.py's profiling run, bench/canon_ab.py), for `language`'s grammar and rules."""
    t = _tables(language)
    return module.Canonicalizer(
        _grammar_capsule(language),
        identifiers=t.identifiers,
        comments=t.comments,
        fixed_text=dict(t.fixed_text),
        binding_fields=t.binding_fields,
        binding_parents=t.binding_parents,
        containers=t.containers,
        kept_fields=t.kept_fields,
        kept_names=t.kept_names,
        kept_dunders=t.kept_dunders,
        layout_sensitive=t.layout_sensitive,
    )


def parse_code(code: str, language: str, *, accelerated: bool | None = None) -> ParseResult:
    """Parse `code`; report whether it is syntactically valid and its canonical AST hash.

    `accelerated` picks the C walk (same bytes, same hash) over the Python reference; by
    default the C walk when it was built.
    """
    source = code.encode("utf-8", "surrogateescape")
    if ACCELERATED if accelerated is None else accelerated:
        has_error, form = _canonicalizer(language).canonical(source)
    else:
        tree = parser_for(language).parse(source)
        has_error, form = tree.root_node.has_error, canonical_form(tree, language, source)
    return ParseResult(
        syntax_ok=not has_error, ast_hash=hashlib.blake2b(form, digest_size=16).hexdigest()
    )


def exact_hash(code: str) -> str:
    """The hash used when the recipe dedups by exact bytes instead of by AST."""
    return hashlib.blake2b(code.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
