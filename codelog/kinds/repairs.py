"""The repair kind: a user's earlier attempts at a problem with the judge's verdicts (the
context) -> their next attempt (the target), COBALT-style. Its rules: codelog.group.repairs,
over the same normalized rows, dialect rule and split as the solutions kind."""

from __future__ import annotations

from codelog.kinds.registry import Kind, register

REPAIRS = register(
    Kind(
        name="repair",
        about="a user's earlier attempts with their verdicts -> the next attempt",
        tables=("repairs", "rejects", "problems"),
        rows="repairs",
        out_suffix="-repair",
        summary=(
            ("repair targets", "targets"),
            ("repair rows (with perturbed copies)", "repairs"),
            ("trajectories", "trajectories"),
            ("problems", "problems"),
        ),
        parts={
            "group.rules": "codelog.group.stage:group_repairs",
            "publish.build": "codelog.publish.repairs:publish_repairs",
            "publish.card": "codelog.publish.repairs:repair_card",
            "dataset.views": "codelog.dataset.open:TRAJECTORIES_VIEW",
            "dataset.verify": "codelog.dataset.verify_repairs:check_repairs",
            "dataset.stats": "codelog.dataset.repair_stats:compute_repair_stats",
            "dataset.stats_tables": "codelog.dataset.repair_stats:render_repair_tables",
            "dataset.stats_data": "codelog.dataset.repair_stats:repair_stats_data",
            "dataset.export": "codelog.dataset.repair_export:export_repair_splits",
            "train.data": "codelog.train.repair_data:REPAIR_ROWS",
        },
    )
)
