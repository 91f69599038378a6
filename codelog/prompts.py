"""The one home for prompt text.

- `html_to_text`: a problem statement's HTML as plain text, structure and sample I/O kept.
- `render_prompt`: the prompt a model sees for a problem, the recipe's template filled with
  statement and language (the dialect's name when the group has one: "Python 3"). One
  function, used by every consumer (exports, the trainer, eval), so a dataset renders the
  same prompt wherever it goes.
- `SEPARATOR`: what comes between a plain-text prompt and the completion, in codelog's
  trainer (no chat template) and in the plain-string exports, whose trainers (TRL) join
  prompt + completion as they are. Only the two placeholders
  `{statement}` and `{language}` are replaced, in a single pass: every other character of the
  template is literal, braces included (no `str.format` escaping rules), and a statement that
  itself contains "{language}" is not substituted again.
- `render_repair_prompt`: the prompt of a repair turn (earlier attempts with their verdicts,
  then the instruction), built on `render_prompt`; the same one-function rule.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from html.parser import HTMLParser
from typing import Any

from codelog.dialects import display_language
from codelog.errors import RecipeError

_BLOCK = {
    "p",
    "div",
    "section",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "table",
    "tr",
    "br",
    "hr",
}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


class _TextExtractor(HTMLParser):
    """Collects text; <pre> content verbatim (sample inputs/outputs live there), the rest reflowed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.pre_depth = 0
        self.skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip_depth += 1
        elif tag == "pre":
            self.pre_depth += 1
            self.parts.append("\n")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag in ("td", "th"):
            self.parts.append(" ")
        elif tag in _HEADINGS:
            self.parts.append("\n\n## " if tag in ("h2", "h3") else "\n\n")
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip_depth = max(0, self.skip_depth - 1)
        elif tag == "pre":
            self.pre_depth = max(0, self.pre_depth - 1)
            self.parts.append("\n")
        elif tag in _BLOCK or tag in _HEADINGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.pre_depth:
            self.parts.append(data)
        else:
            self.parts.append(re.sub(r"\s+", " ", data))


def html_to_text(document: str) -> str:
    """Plain text of a CodeNet problem statement."""
    parser = _TextExtractor()
    parser.feed(document)
    parser.close()
    text = html.unescape("".join(parser.parts))
    lines = [line.rstrip() for line in text.splitlines()]
    # Leading spaces only matter inside <pre>; elsewhere they are reflow artefacts.
    text = "\n".join(lines)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip() + "\n"


PLACEHOLDERS = ("statement", "language")
SEPARATOR = "\n"
_PLACEHOLDER = re.compile(r"\{(statement|language)\}")


def render_prompt(template: str, statement: str, language: str, dialect: str | None = None) -> str:
    """The prompt for one problem in one language.

    `statement` is the problem's plain-text statement (problems.prompt); `language` is the
    solution's language as the dataset names it (e.g. "Python"), and `dialect` the group's
    dialect (e.g. "python3"), which `{language}` names instead when given ("Python 3"). A template without
    `{statement}` is refused: a prompt that omits the problem teaches nothing. Trailing
    whitespace of the statement is dropped (statements end in a newline; the template decides
    what follows).
    """
    if "{statement}" not in template:
        raise RecipeError(
            f"[prompt] template must contain {{statement}} (placeholders: "
            f"{', '.join('{' + p + '}' for p in PLACEHOLDERS)}); got {template!r}"
        )
    values = {"statement": statement.rstrip(), "language": display_language(language, dialect)}
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


# --- repair turns (codelog build --kind repair) ------------------------------------------------

# How a verdict reads in a repair prompt (the outcome names of codelog.outcomes).
VERDICT_TEXT = {
    "accepted": "accepted",
    "wrong_answer": "wrong answer",
    "presentation_error": "presentation error (right answer, wrong layout)",
    "time_limit": "time limit exceeded",
    "memory_limit": "memory limit exceeded",
    "output_limit": "output limit exceeded",
    "query_limit": "query limit exceeded",
    "runtime_error": "runtime error",
    "compile_error": "compile error",
}
_FENCE = {"c++": "cpp", "c#": "csharp"}


def verdict_text(outcome: str, accuracy: str | None = None) -> str:
    """'wrong answer (3 of 5 tests passed)': an outcome, with the judge's test count if logged."""
    text = VERDICT_TEXT.get(outcome, outcome.replace("_", " "))
    passed, _, total = (accuracy or "").partition("/")
    if passed.isdigit() and total.isdigit():
        text += f" ({int(passed)} of {int(total)} tests passed)"
    return text


def render_repair_prompt(
    template: str,
    statement: str,
    language: str,
    attempts: Sequence[Mapping[str, Any]],
    instruction: str,
) -> str:
    """The prompt of one repair turn: the problem's prompt (`render_prompt`), then the earlier
    attempts oldest first, each with its code and its verdict as the context shows it, then the
    instruction (`{language}` filled in). Each attempt is a mapping with `code`, `outcome` and
    `accuracy` ("passed/total" or None): a row of a repairs table's `context` column as it is.

    One function for the trainer (codelog.training.repair_data) and the exports
    (codelog.dataset.repair_export), so a repair row reads the same wherever it goes.
    """
    if not attempts:
        raise ValueError("a repair turn needs at least one earlier attempt")
    fence = _FENCE.get(language.lower(), language.lower())
    parts = [
        render_prompt(template, statement, language),
        "",
        "Your earlier attempts, oldest first, with the judge's verdict on each:",
    ]
    for k, attempt in enumerate(attempts, 1):
        code = (attempt["code"] or "").rstrip("\n")
        parts += [
            "",
            f"Attempt {k}:",
            f"```{fence}",
            code,
            "```",
            f"Verdict: {verdict_text(attempt['outcome'], attempt.get('accuracy'))}",
        ]
    parts += ["", instruction.replace("{language}", language)]
    return "\n".join(parts)


# --- benchmark prompts (codelog.benchmarks renders through these) -------------------------------

# MBPP as its paper asks (Austin et al. 2021, without the few-shot examples): the task, then the
# asserts, so the function's name and signature are known.
MBPP_PROMPT = (
    "You are an expert Python programmer, and here is your task: {text} "
    "Your code should pass these tests:\n\n{tests}\n"
)


def mbpp_prompt(text: str, tests: Sequence[str]) -> str:
    """MBPP's prompt: the task text and its test asserts, one per line."""
    return MBPP_PROMPT.format(text=text.strip(), tests="\n".join(t.strip() for t in tests))


def apps_prompt(question: str, starter_code: str, call_based: bool) -> str:
    """APPS's prompt as its own generation script writes it (Hendrycks et al. 2021)."""
    fmt = "\nUse Call-Based format" if call_based else "\nUse Standard Input format"
    starter = f"{starter_code}\n" if starter_code else ""
    return f"\nQUESTION:\n{question}\n{starter}{fmt}\nANSWER:\n"


_LCB_SYSTEM = (
    "You are an expert Python programmer. You will be given a question (problem "
    "specification) and will generate a correct Python program that matches the "
    "specification and passes all tests. You will NOT return anything except for the program."
)


def lcb_prompt(question: str, starter_code: str) -> str:
    """LiveCodeBench's code-generation prompt (its `lm_styles` generic form): the question,
    then the format (starter code for a functional problem, stdin/stdout otherwise)."""
    if starter_code:
        fmt = (
            "### Format: You will use the following starter code to write the solution to the "
            f"problem and enclose your code within delimiters.\n```python\n{starter_code}\n```"
        )
    else:
        fmt = (
            "### Format: Read the inputs from stdin solve the problem and write the answer to "
            "stdout (do not directly test on the sample inputs). Enclose your code within "
            "delimiters as follows. Ensure that when the python program runs, it reads the "
            "inputs, runs the algorithm and writes output to STDOUT.\n```python\n"
            "# YOUR CODE HERE\n```"
        )
    return (
        f"{_LCB_SYSTEM}\n\n### Question:\n{question.strip()}\n\n{fmt}\n\n"
        "### Answer: (use the provided format with backticks)\n\n"
    )


def contest_prompt(statement: str) -> str:
    """A contest problem (CodeContests) asked for a Python 3 program on stdin/stdout."""
    return (
        "Solve the following competitive programming problem in Python 3. The program reads "
        "standard input and writes standard output.\n\n"
        f"{statement.strip()}\n\nAnswer with the program in a ```python block.\n"
    )
