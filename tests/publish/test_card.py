"""The dataset card carries the metadata the Hugging Face hub reads: license, pretty_name,
task_categories, size_categories, source_datasets (and the configs `datasets` loads)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import codelog
from codelog.cli import cli
from codelog.errors import CodelogError, RecipeError
from codelog.publish.manifest import size_category
from codelog.recipe import load_recipe

from .test_out_safety import write_export


def card_metadata(dataset: Path) -> dict:
    text = (dataset / "README.md").read_text()
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n", 2)[1])


def test_a_codenet_card_has_the_hub_metadata(sample_dataset):
    meta = card_metadata(sample_dataset)
    assert meta["license"] == "cdla-permissive-2.0"
    assert meta["pretty_name"] == "Project CodeNet Python judged solutions (codelog)"
    assert meta["task_categories"] == ["text-generation", "reinforcement-learning"]
    assert meta["size_categories"] == ["n<1K"]
    assert meta["source_datasets"] == ["extended"]
    assert [c["config_name"] for c in meta["configs"]] == ["solutions", "rejects", "problems"]


def test_the_hub_library_reads_the_card(sample_dataset):
    from huggingface_hub import DatasetCard

    data = DatasetCard.load(sample_dataset / "README.md").data
    assert (data.license, data.size_categories) == ("cdla-permissive-2.0", ["n<1K"])


@pytest.mark.parametrize(
    ("n", "bucket"),
    [(0, "n<1K"), (999, "n<1K"), (1000, "1K<n<10K"), (123_456, "100K<n<1M"), (10**7, "10M<n<100M")],
)
def test_size_categories_are_the_hubs_buckets(n, bucket):
    assert size_category(n) == bucket


@pytest.fixture
def export(tmp_path: Path) -> Path:
    return write_export(
        tmp_path / "runs.jsonl", [("passed", "print(1)\n"), ("failed", "print(2)\n")]
    )


def test_a_ci_card_takes_the_license_option(export, tmp_path):
    args = ["build", "--source", "ci", "--input", export, "--license", "mit", "--workers", "1"]
    result = CliRunner().invoke(cli, [*map(str, args), "--out", str(tmp_path / "ds")])
    assert result.exit_code == 0, result.output
    meta = card_metadata(tmp_path / "ds")
    assert meta["license"] == "mit"
    assert meta["source_datasets"] == ["original"]
    assert meta["pretty_name"] == "CI runs Python judged solutions (codelog)"


def test_a_ci_card_takes_the_recipes_license(export, tmp_path):
    recipe = tmp_path / "r.toml"
    recipe.write_text('license = "apache-2.0"\n' + load_recipe_text())
    codelog.build(tmp_path / "ds", source="ci", inputs=[export], recipe=recipe, workers=1)
    assert card_metadata(tmp_path / "ds")["license"] == "apache-2.0"


def test_a_ci_card_without_a_license_says_so(export, tmp_path):
    codelog.build(tmp_path / "ds", source="ci", inputs=[export], workers=1)
    assert "license" not in card_metadata(tmp_path / "ds")
    assert "License: not stated" in (tmp_path / "ds" / "README.md").read_text()


def test_a_license_is_an_id(export, tmp_path):
    with pytest.raises(RecipeError, match="not a license id"):
        codelog.build(tmp_path / "ds", source="ci", inputs=[export], license="MIT License")


def test_codenet_data_keeps_its_license(tmp_path):
    with pytest.raises(CodelogError, match=r"codenet data is cdla-permissive-2\.0"):
        codelog.build(tmp_path / "ds", license="mit", workers=1)
    assert list(tmp_path.iterdir()) == [], "refused before any work"


def load_recipe_text() -> str:
    from codelog.recipe import DEFAULT_RECIPE

    assert load_recipe().license is None
    return DEFAULT_RECIPE.read_text()
