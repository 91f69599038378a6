"""Recipe values: finite, bounded rewards with accepted on top; order contradictions warned."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.errors import RecipeError
from codelog.recipe import DEFAULT_RECIPE, MAX_ABS_REWARD, load_recipe, reward_order_warnings


def recipe_with(tmp_path: Path, line: str, replacing: str = "wrong_answer = -0.1") -> Path:
    text = DEFAULT_RECIPE.read_text()
    assert replacing in text
    path = tmp_path / "recipe.toml"
    path.write_text(text.replace(replacing, line, 1))
    return path


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e9", "-1001", '"high"', "true"])
def test_a_reward_must_be_a_finite_number_within_the_bound(tmp_path, value):
    with pytest.raises(RecipeError, match=r"\[rewards\] wrong_answer = "):
        load_recipe(recipe_with(tmp_path, f"wrong_answer = {value}"))


def test_the_bound_is_documented_and_inclusive(tmp_path):
    recipe = load_recipe(
        recipe_with(tmp_path, f"accepted = {MAX_ABS_REWARD:g}", replacing="accepted = 1.0")
    )
    assert recipe.rewards["accepted"] == MAX_ABS_REWARD


@pytest.mark.parametrize("value", ["1.0", "2.5"])
def test_accepted_must_earn_the_most(tmp_path, value):
    with pytest.raises(RecipeError, match="accepted = 1 is not above wrong_answer"):
        load_recipe(recipe_with(tmp_path, f"wrong_answer = {value}"))


def test_a_worse_failure_rewarded_above_a_better_one_is_a_warning(tmp_path):
    recipe = load_recipe(recipe_with(tmp_path, "compile_error = 0.5", "compile_error = -1.0"))
    warnings = reward_order_warnings(recipe)
    assert "[rewards] compile_error = 0.5 is above wrong_answer = -0.1" in "\n".join(warnings)
    assert all("accepted" not in w for w in warnings)
    assert reward_order_warnings(load_recipe()) == []


def test_the_build_prints_the_warning(tmp_path):
    path = recipe_with(tmp_path, "compile_error = 0.5", "compile_error = -1.0")
    result = CliRunner().invoke(
        cli, ["build", "--recipe", str(path), "--out", str(tmp_path / "ds"), "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "warning: offline-rl-paper: [rewards] compile_error = 0.5 is above" in result.stderr


@pytest.mark.parametrize("workers", ["0", "-3"])
def test_workers_must_be_at_least_one(workers, tmp_path):
    result = CliRunner().invoke(cli, ["build", "--workers", workers, "--out", str(tmp_path / "d")])
    assert result.exit_code == 2
    assert "Invalid value for '--workers'" in result.output
    assert not (tmp_path / "d").exists()


def test_the_api_refuses_zero_workers(tmp_path):
    import codelog

    with pytest.raises(Exception, match="workers must be at least 1"):
        codelog.build(tmp_path / "d", workers=0)


# --- a recipe file holds only what it changes (issue 22) ---------------------------------------


def test_a_rewards_only_recipe_keeps_the_default_statuses_and_rules(tmp_path):
    path = tmp_path / "rewards.toml"
    path.write_text("[rewards]\nwrong_answer = -0.2\n")
    recipe = load_recipe(path)
    default = load_recipe()
    assert recipe.name == "rewards"
    assert dict(recipe.statuses) == dict(default.statuses)
    assert recipe.rewards["wrong_answer"] == -0.2
    assert {k: v for k, v in recipe.rewards.items() if k != "wrong_answer"} == {
        k: v for k, v in default.rewards.items() if k != "wrong_answer"
    }
    assert recipe.grouping == default.grouping and recipe.split == default.split


@pytest.mark.parametrize(
    ("text", "section", "change"),
    [
        ("[rewards]\nwrong_answer = -0.2\n", "rewards", {"wrong_answer": -0.2}),
        ("[grouping]\nmax_correct_per_problem = 3\n", "grouping", {"max_correct_per_problem": 3}),
    ],
)
def test_a_partial_recipe_builds_the_default_with_that_section_changed(
    tmp_path, text, section, change
):
    import dataclasses

    import pyarrow.parquet as pq

    from tests.conftest import build_sample

    path = tmp_path / "partial.toml"
    path.write_text(text)
    default = load_recipe()
    if section == "rewards":
        changed = dataclasses.replace(
            default, rewards=types.MappingProxyType({**default.rewards, **change})
        )
    else:
        changed = dataclasses.replace(
            default, grouping=dataclasses.replace(default.grouping, **change)
        )
    partial = build_sample(tmp_path / "partial", recipe=load_recipe(path), workers=1)
    whole = build_sample(tmp_path / "whole", recipe=changed, workers=1)
    for name in ("solutions.parquet", "rejects.parquet", "problems.parquet"):
        assert pq.read_table(tmp_path / "partial" / name).equals(
            pq.read_table(tmp_path / "whole" / name)
        ), name
    stored = partial.manifest["recipe"]
    assert stored == {**whole.manifest["recipe"], "name": "partial"}  # the resolved recipe
    assert partial.manifest["counts"]["rejects_by_reason"].get("unknown_status") is None


def test_a_bad_value_in_a_partial_recipe_fails_before_any_parse(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[grouping]\ndedup = "fuzzy"\n')
    result = CliRunner().invoke(
        cli, ["build", "--recipe", str(path), "--out", str(tmp_path / "ds"), "--workers", "1"]
    )
    assert result.exit_code != 0
    assert "[grouping] dedup must be 'ast', 'exact' or 'none'" in str(result.exception)
    assert not (tmp_path / "ds").exists() and not (tmp_path / ".ds.staging").exists()


@pytest.mark.parametrize(
    ("section", "line", "expected"),
    [
        ("train", 'group_size = "four"', r"\[train\] group_size = 'four' must be an integer"),
        ("train", "learning_rate = true", r"\[train\] learning_rate = True must be a number"),
        ("grouping", "min_correct = 1.5", r"\[grouping\] min_correct = 1.5 must be an integer"),
        ("split", 'test_fraction = "0.1"', r"\[split\] test_fraction = '0.1' must be a number"),
        ("lint", 'enabled = "yes"', r"\[lint\] enabled = 'yes' must be true or false"),
        ("repairs", "instruction = 3", r"\[repairs\] instruction = 3 must be a string"),
    ],
)
def test_a_value_of_the_wrong_type_names_the_key_when_loaded(tmp_path, section, line, expected):
    path = tmp_path / "recipe.toml"
    path.write_text(f"[{section}]\n{line}\n")
    with pytest.raises(RecipeError, match=expected) as info:
        load_recipe(path)
    assert str(info.value).startswith(f"{path}: ")


def test_a_mistyped_train_value_is_one_error_line_before_training(
    sample_dataset, tmp_path, monkeypatch, capsys
):
    import sys

    from codelog.cli import main

    path = tmp_path / "recipe.toml"
    path.write_text('[train]\ngroup_size = "four"\n')
    argv = ["codelog", "train", str(sample_dataset), "--recipe", str(path)]
    monkeypatch.setattr(sys, "argv", [*argv, "--out", str(tmp_path / "run"), "-q"])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:"), err
    assert "group_size" in err[0] and "Traceback" not in err[0]
