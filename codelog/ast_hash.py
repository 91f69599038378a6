"""Canonical tree-sitter AST hashing: the identity used to deduplicate solutions.

Two programs get the same hash when their syntax trees agree after dropping comments and
whitespace and alpha-renaming the identifiers the program itself binds (variables, functions,
parameters, ...) in order of first use. Names the program does not bind — builtins, library
functions, attributes of imported modules — keep their text: `max(a)` and `min(a)` differ in
behaviour, so they must not collapse. Literals and operators keep their text too.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

from tree_sitter import Language, Node, Parser

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


@cache
def parser_for(language: str) -> Parser:
    grammar = grammar_for(language)
    module = __import__(grammar.module)
    return Parser(Language(getattr(module, grammar.function)()))


@dataclass(frozen=True)
class ParseResult:
    syntax_ok: bool
    ast_hash: str


def canonical_tokens(root: Node, grammar: Grammar) -> list[str]:
    """The tree as a token list: node types bracket their children, leaves carry their text.

    Identifiers are placeholders (`\\0name`) here; `_rename` maps them once the set of names the
    program binds is known, so renaming follows first use, not first definition.
    """
    tokens: list[str] = []
    bound: set[str] = set()
    identifiers, comments = grammar.identifiers, grammar.comments
    fields, parents = grammar.binding_fields, grammar.binding_parents
    cursor = root.walk()
    stack: list[str] = []  # types of the ancestors of the cursor's node
    binding_depth: list[bool] = []  # inside a binding field (for containers like pattern_list)
    descending = True
    while True:
        if descending:
            node = cursor.node
            kind = node.type
            if kind in comments:
                pass
            elif node.child_count == 0:
                if kind in identifiers:
                    text = node.text.decode("utf-8", "surrogateescape")
                    parent = stack[-1] if stack else ""
                    if (
                        (parent, cursor.field_name) in fields
                        or parent in parents
                        or (parent in _BINDING_CONTAINERS and binding_depth and binding_depth[-1])
                    ):
                        bound.add(text)
                    tokens.append("\0" + text)
                elif node.is_named:
                    tokens.append(kind + ":" + node.text.decode("utf-8", "surrogateescape"))
                else:
                    tokens.append(kind)
            else:
                tokens.append("(" + kind)
                parent = stack[-1] if stack else ""
                binding_depth.append((parent, cursor.field_name) in fields)
                stack.append(kind)
                if cursor.goto_first_child():
                    continue
                stack.pop()
                binding_depth.pop()
                tokens.append(")")
        if cursor.goto_next_sibling():
            descending = True
            continue
        if not cursor.goto_parent():
            break
        stack.pop()
        binding_depth.pop()
        tokens.append(")")
        descending = False
    return _rename(tokens, bound)


def _rename(tokens: list[str], bound: set[str]) -> list[str]:
    names: dict[str, str] = {}
    out = []
    for token in tokens:
        if token.startswith("\0"):
            text = token[1:]
            token = names.setdefault(text, f"v{len(names)}") if text in bound else "=" + text
        out.append(token)
    return out


def parse_code(code: str, language: str) -> ParseResult:
    """Parse `code`; report whether it is syntactically valid and its canonical AST hash."""
    tree = parser_for(language).parse(code.encode("utf-8", "surrogateescape"))
    tokens = canonical_tokens(tree.root_node, grammar_for(language))
    digest = hashlib.blake2b("\x1f".join(tokens).encode("utf-8", "surrogateescape"), digest_size=16)
    return ParseResult(syntax_ok=not tree.root_node.has_error, ast_hash=digest.hexdigest())


def exact_hash(code: str) -> str:
    """The hash used when the recipe dedups by exact bytes instead of by AST."""
    return hashlib.blake2b(code.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
