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
from dataclasses import dataclass
from functools import cache

from tree_sitter import Language, Parser, Tree

from codelog.errors import CodelogError


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
    grammar = grammar_for(language)
    module = importlib.import_module(grammar.module)
    return Language(getattr(module, grammar.function)())


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


_CLOSE = -1  # ends the children of the last opened node


def canonical_form(tree: Tree, language: str) -> list[int | bytes]:
    """The tree in prefix form: kind ids, `_CLOSE` after children, text for literals.

    Comments are skipped, whitespace never appears (only tokens do), and identifiers the
    program binds become -2, -3, ... in order of first use; other identifiers keep their text.
    This loop is the build's hot spot, hence ints and local names.
    """
    t = _tables(language)
    identifiers, literals, comments = t.identifiers, t.literals, t.comments
    fields, parents, containers = t.binding_fields, t.binding_parents, t.containers
    cursor = tree.walk()
    out: list = []
    emit = out.append
    ancestors: list[tuple[int, int | None]] = [(-1, None), (-1, None)]  # (kind, field in parent)
    push, pop = ancestors.append, ancestors.pop
    identifier_at: list[int] = []
    bound: set[bytes] = set()
    while True:
        node = cursor.node
        kind = node.kind_id
        # Only containers need their own field id later (`a, b = ...` binds through them).
        field = cursor.field_id if kind in containers else None
        if cursor.goto_first_child():
            emit(kind)
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
            identifier_at.append(len(out))
            emit(text)
        elif kind in literals:
            emit(node.text)
        elif kind not in comments:
            emit(kind)
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return _rename(out, identifier_at, bound)
            emit(_CLOSE)
            pop()


def _rename(out: list, identifier_at: list[int], bound: set[bytes]) -> list:
    names: dict[bytes, int] = {}
    for i in identifier_at:
        text = out[i]
        if text in bound:
            out[i] = -2 - names.setdefault(text, len(names))
    return out


def parse_code(code: str, language: str) -> ParseResult:
    """Parse `code`; report whether it is syntactically valid and its canonical AST hash."""
    tree = parser_for(language).parse(code.encode("utf-8", "surrogateescape"))
    # repr of a list of ints and bytes is deterministic and fast to build.
    form = repr(canonical_form(tree, language)).encode()
    return ParseResult(
        syntax_ok=not tree.root_node.has_error,
        ast_hash=hashlib.blake2b(form, digest_size=16).hexdigest(),
    )


def exact_hash(code: str) -> str:
    """The hash used when the recipe dedups by exact bytes instead of by AST."""
    return hashlib.blake2b(code.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
