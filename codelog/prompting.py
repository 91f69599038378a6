"""The prompt a model sees for a problem: the recipe's template filled with statement and language.

One function, used by every consumer (exports, the trainer), so a dataset renders the same
prompt wherever it goes. Only the two placeholders `{statement}` and `{language}` are
replaced, in a single pass: every other character of the template is literal, braces included
(no `str.format` escaping rules), and a statement that itself contains "{language}" is not
substituted again.
"""

from __future__ import annotations

import re

from codelog.errors import RecipeError

PLACEHOLDERS = ("statement", "language")
_PLACEHOLDER = re.compile(r"\{(statement|language)\}")


def render_prompt(template: str, statement: str, language: str) -> str:
    """The prompt for one problem in one language.

    `statement` is the problem's plain-text statement (problems.prompt); `language` is the
    solution's language as the dataset names it (e.g. "Python"). A template without
    `{statement}` is refused: a prompt that omits the problem teaches nothing. Trailing
    whitespace of the statement is dropped (statements end in a newline; the template decides
    what follows).
    """
    if "{statement}" not in template:
        raise RecipeError(
            f"[prompt] template must contain {{statement}} (placeholders: "
            f"{', '.join('{' + p + '}' for p in PLACEHOLDERS)}); got {template!r}"
        )
    values = {"statement": statement.rstrip(), "language": language}
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)
