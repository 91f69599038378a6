"""What a run reports: --report-to trackers beside metrics.jsonl, the evaluator hook, GGUF bases."""

from __future__ import annotations

import importlib
import sys
import types

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
