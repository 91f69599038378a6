"""The solutions kind: one kept, judged submission per row, grouped by problem (the paper's
offline-RL data). Its rules: codelog.group.grouping (dedup, conflicts, caps, contrast)."""

from __future__ import annotations

from codelog.kinds.registry import Kind, register

SOLUTIONS = register(
    Kind(
        name="solutions",
        about="one judged submission per row, grouped by problem (correct and incorrect)",
        tables=("solutions", "rejects", "problems"),
        rows="solutions",
        default=True,
        summary=(
            ("solutions kept", "solutions"),
            ("groups (problems)", "groups"),
            ("verdict conflicts (programs)", "verdict_conflicts"),
        ),
        exports_tests=True,
        parts={
            "group.rules": "codelog.group.stage:group_solutions",
            "publish.build": "codelog.publish.tables:group_and_publish",
            "publish.card": "codelog.publish.manifest:dataset_card",
            "dataset.views": "codelog.dataset.open:GROUPS_VIEW",
            "dataset.verify": "codelog.dataset.verify:check_solutions",
            "dataset.stats": "codelog.dataset.stats:compute_stats",
            "dataset.stats_tables": "codelog.dataset.stats:render_tables",
            "dataset.stats_data": "codelog.dataset.stats:stats_data",
            "dataset.stats_plot": "codelog.dataset.stats:plot_stats",
            "dataset.export": "codelog.dataset.export:export_solutions",
            "train.data": "codelog.train.rows:SOLUTION_ROWS",
        },
    )
)
