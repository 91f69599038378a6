"""Dialects: python2 / python3 from CodeNet's original_language, one rule in Python and SQL."""

from __future__ import annotations

import csv
from pathlib import Path

import duckdb
import pytest

from codelog.dialects import dialect_of, dialect_sql, display_language
from codelog.ingest.codenet import BUNDLED_ROOT
from codelog.prompts import render_prompt
from codelog.sql import literal

# (language, original_language, on CodeNet, elsewhere). The first eight are every Python
# spelling of IBM's Mini Project CodeNet metadata (the bundled sample's rows).
SPELLINGS = [
    ("Python", "Python (2.7.6)", "python2", "python2"),
    ("Python", "PyPy2 (5.6.0)", "python2", "python2"),
    ("Python", "Python (3.4.3)", "python3", "python3"),
    ("Python", "Python (3.8.2)", "python3", "python3"),
    ("Python", "Python3", "python3", "python3"),
    ("Python", "PyPy3 (2.4.0)", "python3", "python3"),  # PyPy's own version in parentheses
    ("Python", "PyPy3 (7.3.0)", "python3", "python3"),
    ("Python", "Python", "python2", None),  # AIZU's Python 2; elsewhere it tells nothing
    ("Python", "PyPy2 (7.3.0)", "python2", "python2"),
    ("python", "python 3.11.4", "python3", "python3"),
    ("Python", "CPython 3.12", "python3", "python3"),
    ("Python", "Python 2.7", "python2", "python2"),
    ("Python", "python3.10", "python3", "python3"),
    ("Python", "PyPy (7.3.0)", None, None),  # PyPy's version only: no Python version
    ("Python", "Python 30", None, None),
    ("Python", "Cython (0.29.16)", None, None),
    ("Python", None, None, None),
    ("C++", "C++14 (GCC 5.4.1)", None, None),  # languages without dialects
    ("C", "C (GCC 9.2.1)", None, None),
    ("Java", "Python3", None, None),
]


@pytest.mark.parametrize(("language", "original", "codenet", "elsewhere"), SPELLINGS)
def test_dialect_of_each_spelling(language, original, codenet, elsewhere):
    assert dialect_of(language, original, codenet=True) == codenet
    assert dialect_of(language, original, codenet=False) == elsewhere


def test_sql_rule_agrees_with_python_rule():
    con = duckdb.connect()
    for language, original, codenet, elsewhere in SPELLINGS:
        value = "NULL::VARCHAR" if original is None else literal(original)
        for flag, expected in ((True, codenet), (False, elsewhere)):
            found = con.sql(
                f"SELECT {dialect_sql(literal(language), value, codenet=flag)}"
            ).fetchall()[0][0]
            assert found == expected, (language, original, flag)


def test_every_python_row_of_the_sample_has_a_dialect():
    spellings = set()
    for path in sorted((Path(BUNDLED_ROOT) / "metadata").glob("p0*.csv")):
        with path.open(newline="", encoding="utf-8") as f:
            spellings |= {
                r["original_language"] for r in csv.DictReader(f) if r["language"] == "Python"
            }
    assert len(spellings) == 8
    assert all(dialect_of("Python", s, codenet=True) for s in spellings), spellings


def test_the_prompt_names_the_dialect():
    template = "{statement}\n\nWrite a {language} program."
    assert render_prompt(template, "Add.", "Python", "python3").endswith(
        "Write a Python 3 program."
    )
    assert render_prompt(template, "Add.", "Python", "python2").endswith(
        "Write a Python 2 program."
    )
    assert render_prompt(template, "Add.", "Python", None).endswith("Write a Python program.")
    assert render_prompt(template, "Add.", "C++").endswith("Write a C++ program.")
    assert display_language("Python", "python3") == "Python 3"
