"""Statement text -> comparable tokens, whatever markup the publisher used.

The same problem reaches us as CodeNet's HTML (`<var>N</var>`, `&le;`, full-width digits in
AtCoder's Japanese pages), APPS's Markdown with TeX (`$1 \\le n \\le 10^5$`, `-----Input-----`),
CodeContests' plain text and LiveCodeBench's prompts. Each is folded to one form: markup
stripped, notations folded (`≦`, `≤`, `\\leq` and `<=` are one token), NFKC (full-width digits
and letters become ASCII), lower case, and tokens that ignore whitespace and punctuation
(operators too, once folded):
runs of ASCII letters and digits, and every other letter (a kanji, a kana) on its own, since
Japanese is written without spaces.
"""

from __future__ import annotations

import html
import re
import unicodedata

# Notations folded to one spelling before tokenizing. Order matters only where one spelling
# contains another (`\leq` before `\le`).
_FOLDS = (
    (r"\\leqq?|\\leqslant|≦|≤|⩽|&le;|&leqq;", " <= "),
    (r"\\geqq?|\\geqslant|≧|≥|⩾|&ge;|&geqq;", " >= "),
    (r"\\le\b", " <= "),
    (r"\\ge\b", " >= "),
    (r"\\neq?\b|≠|&ne;", " != "),
    (r"\\times\b|×|&times;", " * "),
    (r"\\cdot\b|⋅|·", " * "),
    (r"\\l?dots\b|\\cdots\b|…|⋯", " ... "),
    (r"\\(?:mathrm|mathbf|mathit|text|textbf|texttt|operatorname)\s*", " "),
    (r"\\(?:left|right|displaystyle|quad|qquad|,|;|!)", " "),
    (r"\\[{}$%&_#]", " "),
)
_FOLD_RE = [(re.compile(p), r) for p, r in _FOLDS]
_HTML = re.compile(r"</[a-zA-Z][^>]*>|<br\s*/?>|<p[\s>]|<img\s", re.IGNORECASE)
# Tags and what is never shown; a regex, not an HTML parser: only the words matter here, and
# it is ten times faster on CodeNet's 4,000 pages. A bare `<` in text ("1 < N") is no tag.
_INVISIBLE = re.compile(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
# Markdown: link targets, images, emphasis, headings, fences, horizontal rules and APPS's
# `-----Input-----` section bars carry no words of the problem.
_MARKDOWN = (
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r" \1 "),
    (re.compile(r"\[([^\]]*)\]\([^)]*\)"), r" \1 "),
    (re.compile(r"[*_`~#>|]+"), " "),
    (re.compile(r"-{3,}|={3,}"), " "),
)
# A token: a run of ASCII letters and digits, or one letter of any other script.
TOKEN = re.compile(r"[a-z0-9]+|[^\W0-9a-z_]")


def statement_text(raw: str) -> str:
    """`raw` (HTML, Markdown, TeX or plain text) as plain lower-case text, notations folded."""
    text = raw
    if _HTML.search(text):
        text = html.unescape(_TAG.sub(" ", _INVISIBLE.sub(" ", text)))
    text = unicodedata.normalize("NFKC", text)  # full-width ０-９, Ａ-Ｚ and ＜ become ASCII
    for pattern, spelling in _FOLD_RE:
        text = pattern.sub(spelling, text)
    for pattern, spelling in _MARKDOWN:
        text = pattern.sub(spelling, text)
    return " ".join(text.lower().split())


def statement_tokens(raw: str) -> list[str]:
    """The statement's tokens (see the module docstring): what n-grams are made of."""
    return TOKEN.findall(statement_text(raw))


def statement_key(raw: str) -> str:
    """The identity of a statement's normalized text: two ids whose statements share it are one
    problem (they share a split, and dedup together; codelog.group.stage)."""
    import hashlib

    return hashlib.sha256(statement_text(raw).encode("utf-8", "surrogateescape")).hexdigest()
