"""Canonical tree-sitter AST hashing: the identity used to deduplicate solutions.

Two programs get the same hash when their syntax trees agree after dropping comments and
whitespace and alpha-renaming the identifiers the program itself binds (variables, functions,
parameters, ...) in order of first use. Names the program does not bind — builtins, library
functions, attributes of imported modules — keep their text: `max(a)` and `min(a)` differ in
behaviour, so they must not collapse. Literals and operators keep their text too.
"""

from __future__ import annotations

import hashlib
import importlib
import struct
from dataclasses import dataclass
from functools import cache
from importlib import metadata
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
FORM_VERSION = 2


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
    ),
    "c++": Grammar(
        module="tree_sitter_cpp",
        identifiers=frozenset({"identifier", "field_identifier", "type_identifier"}),
        binding_fields=_C_FAMILY_FIELDS,
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
    literals: frozenset[int]  # named leaves whose text matters (numbers, string pieces, ...)
    binding_fields: frozenset[tuple[int, int]]
    binding_parents: frozenset[int]
    containers: frozenset[int]


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

    identifiers, comments = kinds(grammar.identifiers), kinds(grammar.comments)
    named = {k for k in range(lang.node_kind_count) if lang.node_kind_is_named(k)}
    fields = frozenset(
        (kind, field)
        for parent, name in grammar.binding_fields
        if (kind := lang.id_for_node_kind(parent, True)) is not None
        and (field := lang.field_id_for_name(name)) is not None
    )
    return _Tables(
        identifiers=identifiers,
        comments=comments,
        literals=frozenset(named - identifiers - comments),
        binding_fields=fields,
        binding_parents=kinds(grammar.binding_parents),
        containers=kinds(_BINDING_CONTAINERS),
    )


@dataclass(frozen=True)
class ParseResult:
    syntax_ok: bool
    ast_hash: str


# Records of the canonical form (codelog/stage/_canon.c writes the same bytes).
_OPEN, _CLOSE, _LEAF, _TEXT, _BOUND = b"(", b")", b".", b'"', b"$"
_IDENT = None  # an identifier until renaming decides between _TEXT and _BOUND


def canonical_form(tree: Tree, language: str) -> bytes:
    """The tree in prefix form, as bytes; the reference for (and fallback to) `_canon`.

    Comments are skipped, whitespace never appears (only tokens do), literals keep their text,
    and identifiers the program binds are numbered in order of first use; other identifiers
    keep their text. Kind ids, not names, keep the walk cheap.
    """
    t = _tables(language)
    identifiers, literals, comments = t.identifiers, t.literals, t.comments
    fields, parents, containers = t.binding_fields, t.binding_parents, t.containers
    cursor = tree.walk()
    events: list[tuple[bytes | None, int, bytes]] = []
    emit = events.append
    ancestors: list[tuple[int, int | None]] = [(-1, None), (-1, None)]  # (kind, field in parent)
    push, pop = ancestors.append, ancestors.pop
    bound: set[bytes] = set()
    while True:
        node = cursor.node
        kind = node.kind_id
        if kind not in comments:
            # Only containers need their own field id later (`a, b = ...` binds through them).
            field = cursor.field_id if kind in containers else None
            if cursor.goto_first_child():
                emit((_OPEN, kind, b""))
                push((kind, field))
                continue
            if kind in identifiers:
                text = node.text
                parent, parent_field = ancestors[-1]
                if (
                    (parent, cursor.field_id) in fields
                    or parent in parents
                    or (parent in containers and (ancestors[-2][0], parent_field) in fields)
                ):
                    bound.add(text)
                emit((_IDENT, kind, text))
            elif kind in literals:
                emit((_TEXT, kind, node.text))
            else:
                emit((_LEAF, kind, b""))
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return _encode(events, bound)
            emit((_CLOSE, 0, b""))
            pop()


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
        elif tag == _CLOSE:
            out += _CLOSE
        else:
            out += struct.pack("<cH", tag, kind)
    return bytes(out)


@cache
def _canonicalizer(language: str) -> Any:
    t = _tables(language)
    return _canon.Canonicalizer(
        _grammar_capsule(language),
        identifiers=t.identifiers,
        comments=t.comments,
        literals=t.literals,
        binding_fields=t.binding_fields,
        binding_parents=t.binding_parents,
        containers=t.containers,
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
        has_error, form = tree.root_node.has_error, canonical_form(tree, language)
    return ParseResult(
        syntax_ok=not has_error, ast_hash=hashlib.blake2b(form, digest_size=16).hexdigest()
    )


def exact_hash(code: str) -> str:
    """The hash used when the recipe dedups by exact bytes instead of by AST."""
    return hashlib.blake2b(code.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
