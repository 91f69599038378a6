"""A model's completion as a program: what `codelog eval`, the TRL reward and the verl reward
all run. A fenced block's content when the model wrote one (stdio problems); a function
completion cut where the model starts something other than the function body."""

from __future__ import annotations

import re

from codelog.execution.testcases import Problem

# A HumanEval completion ends where the model starts something other than the function body
# (the stop sequences of the Codex paper).
FUNCTION_STOPS = ("\ndef ", "\nclass ", "\nif __name__", "\nprint(", "\n#", "\nassert ")
_FENCE = re.compile(r"```[a-zA-Z0-9_+-]*\n(.*?)(?:```|$)", re.DOTALL)


def clean_completion(problem: Problem, text: str) -> str:
    """What a model wrote, as a program: a fenced block's content if it wrote one; a function
    completion cut at its stop sequences."""
    fenced = _FENCE.search(text)
    if fenced and problem.kind == "stdio":
        return fenced.group(1)
    if problem.kind == "function":
        cut = min((i for i in (text.find(s) for s in FUNCTION_STOPS) if i >= 0), default=len(text))
        return text[:cut]
    return text
