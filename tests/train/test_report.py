"""What a run reports: --report-to trackers beside metrics.jsonl, the evaluator hook, GGUF bases."""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

import pytest

from codelog.errors import CodelogError
from codelog.train import data, models, report
from codelog.train.evaluation import EvalContext
from codelog.train.options import TrainingError
from tests.train.synthetic import records, run


def test_tensorboard_gets_every_step_metric_and_metrics_jsonl_is_still_written(synthetic, tmp_path):
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    run(synthetic, tmp_path / "run", steps=3, report_to="tensorboard")
    assert len(records(tmp_path / "run")) == 3
    events = EventAccumulator(str(tmp_path / "run" / "tensorboard")).Reload()
    losses = events.Scalars("step/loss")
    assert [e.step for e in losses] == [1, 2, 3]
    assert [e.value for e in losses] == pytest.approx(
        [r["loss"] for r in records(tmp_path / "run")]
    )
    assert "eval/margin/margin" in events.Tags()["scalars"]


def test_wandb_gets_one_run_per_run_directory(synthetic, tmp_path, monkeypatch):
    calls = []

    class FakeRun:
        def log(self, values, step):
            calls.append(("log", step, values))

        def finish(self):
            calls.append(("finish",))

    fake = types.ModuleType("wandb")
    fake.init = lambda **kwargs: calls.append(("init", kwargs)) or FakeRun()
    monkeypatch.setitem(sys.modules, "wandb", fake)
    run(synthetic, tmp_path / "run", steps=2, report_to="wandb")
    (_, init), *logged, finish = calls
    assert (
        init["name"] == "run"
        and init["resume"] == "allow"
        and init["config"]["train"]["steps"] == 2
    )
    steps = [(step, values["step/loss"]) for _, step, values in logged if "step/loss" in values]
    assert steps == [(r["step"], r["loss"]) for r in records(tmp_path / "run")]
    assert finish == ("finish",)


def test_a_missing_tracker_names_the_extra_to_install(synthetic, tmp_path, monkeypatch):
    real = importlib.import_module

    def no_wandb(name, *args):
        if name == "wandb":
            raise ImportError("No module named 'wandb'")
        return real(name, *args)

    monkeypatch.setattr(report.importlib, "import_module", no_wandb)
    with pytest.raises(TrainingError, match=r"pip install 'codelog\[wandb\]'"):
        run(synthetic, tmp_path / "run", steps=1, report_to="wandb")
    with pytest.raises(TrainingError, match="unknown"):
        run(synthetic, tmp_path / "other", steps=1, report_to="mlflow")


def test_evaluators_run_where_the_margin_does_and_are_logged_by_name(synthetic, tmp_path):
    seen = []

    def count_eos(ctx: EvalContext) -> dict[str, float]:
        assert not ctx.model.training and (ctx.rank, ctx.world) == (0, 1)
        seen.append(ctx.step)
        return {"eos_id": float(ctx.tokenizer.eos_token_id)}

    run(synthetic, tmp_path / "run", steps=4, eval_every=2, evaluators=(("eos", count_eos),))
    assert seen == [0, 2, 4]
    logged = [(e["name"], e["step"]) for e in records(tmp_path / "run", "eval")]
    assert logged == [(n, s) for s in (0, 2, 4) for n in ("margin", "eos")]


def test_a_gguf_base_needs_an_existing_file_and_an_installed_distribution(synthetic, tmp_path):
    dataset = data.open_dataset(synthetic)
    with pytest.raises(CodelogError, match="no such GGUF file"):
        models.prepare_base(str(tmp_path / "absent.gguf"), dataset, tmp_path / "base", 64, 0)
    with pytest.raises(CodelogError, match="is not installed"):
        models.installed_gguf("codelog-no-such-distribution")


def _result(**fields) -> report.RunResult:
    base = dict(
        run_dir=Path("run"),
        steps=100,
        checkpoint=Path("run/checkpoints/step-000100"),
        margin_before=-0.0122,
        margin_after=-0.1818,
        sequences=400,
        truncated=0,
        padding_waste=0.05,
        seconds=10.0,
        heldout={"groups": 1, "solutions": 16, "logp_correct": -7.9, "logp_incorrect": -7.7},
        evaluations_after={"pass@k": {"pass@1": 0.0, "pass@4": 0.0, "problems": 1}},
        train_margin_before=-0.0142,
        train_margin_after=0.2269,
        train_groups=7,
        model="tiny",
    )
    return report.RunResult(**(base | fields))


def test_the_summary_ends_saying_what_the_numbers_show_and_what_they_do_not():
    shown, transfer, program = report.conclusions(_result())
    assert shown.startswith("Shown: on the 7 training groups it trains on") and "rose" in shown
    assert "-0.0142 -> +0.2269" in shown
    assert transfer.startswith("Not shown: transfer. On 1 held-out group the margin went")
    assert "-0.0122 -> -0.1818; 7 training groups are too few" in transfer
    assert program.startswith("Not shown: a working program. pass@k is 0") and "2 layers" in program


def test_the_summary_says_so_when_the_margins_rise_or_stall_and_blames_no_real_model():
    lines = report.conclusions(_result(margin_after=0.05, train_margin_after=-0.02, model="gpt2"))
    assert lines[0].startswith("Not shown: on the 7 training groups") and "did not rise" in lines[0]
    assert lines[1].startswith("Shown: on 1 held-out group it rose too (-0.0122 -> +0.0500)")
    assert len(lines) == 2  # pass@k 0 on a real model is a finding, not the tiny model's size
    passing = {"pass@k": {"pass@1": 0.25}}
    assert not any("pass@k" in x for x in report.conclusions(_result(evaluations_after=passing)))
    assert report.conclusions(_result(margin_before=None, train_margin_before=None)) == [
        report.conclusions(_result())[2]
    ]
