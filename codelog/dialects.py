"""Dialects: the language version inside a language (python2 / python3), from original_language.

CodeNet files Python 2 and Python 3 under one language, "Python"; only the judge's own name
for the interpreter (`original_language`) tells them apart. Its spellings in CodeNet:
"Python (2.7.6)", "PyPy2 (5.6.0)", "Python (3.4.3)", "Python (3.8.2)", "Python3",
"PyPy3 (2.4.0)", "PyPy3 (7.3.0)" and a bare "Python". The rule reads the digit glued to the
interpreter's name first (PyPy3 (2.4.0) is Python 3: its parentheses hold PyPy's own version),
then CPython's version in parentheses. A bare "Python" is Python 2 on CodeNet: AIZU Online
Judge, the only CodeNet judge that uses the bare name, called its Python 2 "Python" and its
Python 3 "Python3". Elsewhere (CI exports) a bare "Python" tells nothing, and the dialect is
unknown (NULL).

The rule exists twice, as SQL for the sources (`dialect_sql`) and as Python (`dialect_of`),
built from the same patterns; a test holds them to the same answers.
"""

from __future__ import annotations

import re

from codelog.sql import literal

# Languages that have dialects (lower case) -> their dialects. Others: dialect is always NULL.
DIALECTS: dict[str, tuple[str, ...]] = {"python": ("python2", "python3")}
DIALECT_NAMES = {"python2": "Python 2", "python3": "Python 3"}  # what a prompt calls them
UNKNOWN = "unknown"  # how recipes, counts and messages name a NULL dialect

# RE2 (DuckDB) and Python's re agree on these: no look-around, no back-references.
_NAMED = r"^\s*(?:c?python|pypy)\s*([23])(?:[^0-9]|$)"  # "Python3", "PyPy2 (5.6.0)", "python 3.11"
_PARENS = r"^\s*c?python\s*\(\s*([23])\."  # "Python (2.7.6)", "Python (3.8.2)"
_BARE = r"^\s*python\s*$"
_CODENET_BARE = {"python": "python2"}  # AIZU's bare "Python" (see above)


def dialect_of(language: str | None, original_language: str | None, *, codenet: bool) -> str | None:
    """The dialect of a row (None: the language has none, or original_language does not say)."""
    lang = (language or "").strip().lower()
    if lang not in DIALECTS or original_language is None:
        return None
    text = original_language.lower()
    for pattern in (_NAMED, _PARENS):
        found = re.search(pattern, text)
        if found:
            return f"{lang}{found.group(1)}"
    if codenet and re.search(_BARE, text):
        return _CODENET_BARE.get(lang)
    return None


def dialect_sql(language: str, original_language: str, *, codenet: bool) -> str:
    """`dialect_of` as a DuckDB expression over two column expressions."""
    lowered = f"lower({original_language})"
    named = f"regexp_extract({lowered}, {literal(_NAMED)}, 1)"
    parens = f"regexp_extract({lowered}, {literal(_PARENS)}, 1)"
    branches = []
    for lang in DIALECTS:
        when = f"lower(trim({language})) = {literal(lang)}"
        branches.append(f"WHEN {when} AND {named} <> '' THEN {literal(lang)} || {named}")
        branches.append(f"WHEN {when} AND {parens} <> '' THEN {literal(lang)} || {parens}")
        if codenet and lang in _CODENET_BARE:
            branches.append(
                f"WHEN {when} AND regexp_matches({lowered}, {literal(_BARE)}) "
                f"THEN {literal(_CODENET_BARE[lang])}"
            )
    return f"(CASE {' '.join(branches)} END)"


def valid_dialect_sql(language: str, dialect: str) -> str:
    """True when `dialect` (a column expression, not NULL) is a dialect of `language`."""
    cases = " ".join(
        f"WHEN {literal(lang)} THEN {dialect} IN ({', '.join(literal(d) for d in names)})"
        for lang, names in DIALECTS.items()
    )
    return f"coalesce(CASE lower(trim({language})) {cases} END, false)"


def display_language(language: str, dialect: str | None) -> str:
    """How a prompt names the language: the dialect when known ("Python 3"), else the language."""
    return DIALECT_NAMES.get(dialect or "", language)
