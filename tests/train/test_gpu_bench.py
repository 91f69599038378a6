"""bench/gpu.py --smoke: the GPU bench's whole code path on CPU with tiny shapes, with the
packages the GPU machine lacks refused on import, so that the one run on the device gives
figures rather than an ImportError."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_gpu_bench_runs_end_to_end_without_what_the_device_lacks(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "bench/gpu.py", "--smoke", "--out", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads((tmp_path / "gpu.json").read_text())
    assert results["smoke"] and results["imported_what_the_device_lacks"] == []
    assert len(results["cases"]) == 2
    for name, case in results["cases"].items():
        assert set(case["runs"]) == {"off", "on"}, name  # gradient checkpointing off and on
        for run in case["runs"].values():
            assert run["tokens_per_step"] > 0 and run["micro_batches"] >= 2
            assert run["truncated_per_step"] >= 1  # every step has a sequence at the cap
            assert run["step_ms"] > 0 and run["floor_ms"] > 0 and run["step_over_floor"] > 0
            assert run["model_tflop_per_step"] > 0
            assert run["memory"]["estimate_total"] > run["memory"]["estimate_parts"] > 0
        lora = "LoRA" in name
        trained = case["runs"]["off"]["trained_parameters"]
        assert (trained < case["runs"]["off"]["parameters"]) == lora
        sampling = case["sampling"]
        assert 0 < sampling["new_tokens"] <= sampling["sequences"] * sampling["max_new_tokens"]
    table = (tmp_path / "gpu.md").read_text()
    assert "| step/floor |" in table and table.count("| smoke:") == 6  # 4 runs, 2 sampling rows
