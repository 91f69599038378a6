"""The KL reference: computed once, cached beside the run, the same numbers as recomputing it."""

from __future__ import annotations

import numpy as np
import pytest

from codelog.training import data, models
from codelog.training.reference import ReferenceCache, cache_key, reference_logps
from tests.train.synthetic import records, run, weights


def chunks(run_dir):
    return sorted(p.name for p in (run_dir / "reference").glob("*/chunk-*.npz"))


@pytest.mark.parametrize("options", [{}, {"lora_r": 4}], ids=["full", "lora"])
def test_cached_reference_gives_the_kl_of_a_reference_recomputed_every_step(
    synthetic, tmp_path, options
):
    cached = run(synthetic, tmp_path / "cached", steps=4, kl=0.1, grad_accum=2, **options)
    recomputed = run(
        synthetic,
        tmp_path / "recomputed",
        {"steps": 4, "kl": 0.1, "grad_accum": 2, **options},
        reference="recompute",
    )
    a, b = records(tmp_path / "cached"), records(tmp_path / "recomputed")
    assert a[-1]["kl"] > 0  # the policy moved away from the reference
    for x, y in zip(a, b, strict=True):
        assert x["kl"] == pytest.approx(y["kl"], rel=1e-4, abs=1e-9)
        assert x["loss"] == pytest.approx(y["loss"], rel=1e-4, abs=1e-7)
    for name, w in weights(cached.checkpoint).items():
        np.testing.assert_allclose(w, weights(recomputed.checkpoint)[name], rtol=1e-4, atol=1e-6)
    assert chunks(tmp_path / "cached") and not chunks(tmp_path / "recomputed")


def test_the_cache_is_filled_once_and_resume_reads_it(synthetic, tmp_path, monkeypatch):
    from codelog.training import reference

    computed = []
    original = reference.reference_logps

    def counting(model, sequences, *args, **kwargs):
        computed.append(len(sequences))
        return original(model, sequences, *args, **kwargs)

    monkeypatch.setattr(reference, "reference_logps", counting)
    options = {"steps": 6, "kl": 0.1, "checkpoint_every": 3}
    run(synthetic, tmp_path / "run", max_steps_this_call=4, **options)
    assert len(computed) == 1 and computed[0] > 0  # one pass, before the first step
    first = chunks(tmp_path / "run")
    run(synthetic, tmp_path / "run", {"steps": 6}, resume=True)
    assert len(computed) == 1 and chunks(tmp_path / "run") == first  # nothing recomputed
    run(synthetic, tmp_path / "run", {"steps": 9}, resume=True)  # extended: only new rows
    assert len(computed) == 2 and len(chunks(tmp_path / "run")) == 2
    assert computed[1] <= 3 * 4  # at most the sequences of steps 7-9


def test_a_sequences_reference_values_do_not_depend_on_what_is_computed_with_it(
    synthetic, tmp_path
):
    dataset = data.open_dataset(synthetic)
    base = models.build_tiny(dataset, tmp_path / "base", 128, 0)
    model = models.load_model(str(base))
    sequences = {10: ([5, 6, 7, 8, 9], 2), 11: ([5, 6, 7, 1, 2, 3, 4], 3), 12: ([9, 9, 1], 1)}
    together = reference_logps(model, sequences, model.device, False)
    alone = reference_logps(model, {11: sequences[11]}, model.device, False)
    assert together[11].tolist() == alone[11].tolist()  # bit for bit
    assert [len(together[r]) for r in (10, 11, 12)] == [3, 4, 2]  # one per solution token


def test_the_cache_key_follows_what_the_numbers_depend_on(synthetic, tmp_path):
    dataset = data.open_dataset(synthetic)
    base = str(models.build_tiny(dataset, tmp_path / "base", 128, 0))
    tokenizer = models.load_tokenizer(base)
    key = cache_key(dataset, base, tokenizer, "{statement}", 2048, "cpu fp32")
    assert key == cache_key(dataset, base, tokenizer, "{statement}", 2048, "cpu fp32")
    others = [
        cache_key(dataset, base, tokenizer, "{statement}\nPython", 2048, "cpu fp32"),
        cache_key(dataset, base, tokenizer, "{statement}", 1024, "cpu fp32"),
        cache_key(dataset, base, tokenizer, "{statement}", 2048, "cuda bf16 weights"),
        cache_key(dataset, "Qwen/Qwen2.5-Coder-0.5B", tokenizer, "{statement}", 2048, "cpu fp32"),
    ]
    directories = {ReferenceCache(tmp_path, k).directory for k in [key, *others]}
    assert len(directories) == 5
