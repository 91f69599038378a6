"""Train and export warn when the dataset was never checked against the run's benchmark."""

from __future__ import annotations

from click.testing import CliRunner

from codelog.cli import cli
from codelog.dataset.decontamination import unchecked_warning


def test_export_warns_on_a_dataset_never_checked(sample_dataset, tmp_path):
    result = CliRunner().invoke(
        cli, ["export", str(sample_dataset), "--format", "sft", "--out", str(tmp_path / "sft")]
    )
    assert result.exit_code == 0, result.output
    assert "was never checked against any benchmark" in result.output


def test_the_warning_names_the_benchmark_the_run_evaluates_on():
    checked = {"decontamination": {"benchmarks": [{"benchmark": "apps"}]}}
    assert unchecked_warning(checked, "ds", "apps:/data/apps") is None
    assert "not against humaneval" in unchecked_warning(checked, "ds", "humaneval")
    assert "(humaneval)" in unchecked_warning({}, "ds", "humaneval")
