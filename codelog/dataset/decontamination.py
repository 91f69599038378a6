"""Whether a dataset was checked against the benchmark a run will be scored on.

`codelog build --decontaminate` records the check in the manifest (codelog.group.decontaminate);
`codelog train` and `codelog export` warn when it is missing, since a model trained on CodeNet
can otherwise be scored on APPS, CodeContests or LiveCodeBench problems it trained on.
"""

from __future__ import annotations

from typing import Any


def unchecked_warning(
    manifest: dict[str, Any], dataset: str, benchmark: str | None = None
) -> str | None:
    """A warning, or None when the dataset was checked (against `benchmark`, when named: a
    registry name or NAME:PATH; its name part is compared)."""
    checked = manifest.get("decontamination")
    name = benchmark.partition(":")[0] if benchmark else None
    if checked is None:
        target = (
            f"the benchmark this run evaluates on ({benchmark})" if benchmark else "any benchmark"
        )
        return (
            f"{dataset} was never checked against {target}: a model trained on it may be "
            "scored on problems it trained on (rebuild with `codelog build --decontaminate "
            f"{benchmark or 'BENCH,...'}`, or check it with `codelog contamination`)"
        )
    names = {b["benchmark"] for b in checked.get("benchmarks", [])}
    if name is not None and name not in names:
        return (
            f"{dataset} was checked against {', '.join(sorted(names))}, not against {name}, the "
            f"benchmark this run evaluates on (rebuild with `--decontaminate "
            f"{','.join(sorted(names | {benchmark}))}`)"  # type: ignore[arg-type]
        )
    return None
