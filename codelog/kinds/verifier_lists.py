"""The verifier-lists kind: 2-5 candidate programs for one problem with distinct pass rates,
exactly one correct (Aletheia-style data for code verifiers). Not built from sources: drawn
from a solutions dataset by `codelog export --format verifier-lists`."""

from __future__ import annotations

from codelog.kinds.registry import Kind, register

VERIFIER_LISTS = register(
    Kind(
        name="verifier-lists",
        about="2-5 candidates with distinct pass rates, exactly one correct",
        tables=("lists",),
        rows="lists",
        drawn_from="solutions",
        parts={"dataset.export": "codelog.dataset.verifier_lists:export_list_splits"},
    )
)
