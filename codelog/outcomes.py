"""Canonical outcomes of a judged program, and the mapping from raw status strings.

The mapping and the rewards are data (they live in the recipe); this module owns the vocabulary
and the rule that a status the recipe does not name is never guessed.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong_answer"
    PRESENTATION_ERROR = "presentation_error"
    TIME_LIMIT = "time_limit"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    QUERY_LIMIT = "query_limit"
    RUNTIME_ERROR = "runtime_error"
    COMPILE_ERROR = "compile_error"
    # Failed, verdict not given (CodeContests' incorrect_solutions): `codelog judge` on the
    # problem's own tests refines it to one of the above.
    INCORRECT = "incorrect"

    @property
    def is_correct(self) -> bool:
        return self is Outcome.ACCEPTED


# A judge-side failure says nothing about the program: such rows are rejected as `unscorable`.
UNSCORABLE = "unscorable"

OUTCOME_NAMES = frozenset(o.value for o in Outcome)

# Every status string seen in Project CodeNet (codenet-statistics.json), for reference and tests.
CODENET_STATUSES = (
    "Accepted",
    "Wrong Answer",
    "Runtime Error",
    "Time Limit Exceeded",
    "Compile Error",
    "WA: Presentation Error",
    "Memory Limit Exceeded",
    "Output Limit Exceeded",
    "Judge Not Available",
    "Internal error",
    "Query Limit Exceeded",
    "Judge System Error",
)
