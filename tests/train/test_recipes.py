"""The paper's recipes: they load, hold the paper's setup, and say where each value comes from."""

from __future__ import annotations

import dataclasses
import re

import pytest

from codelog.recipe import RECIPES_DIR, Train, load_recipe
from codelog.training.options import resolve_recipe

PAPER = ["paper-qwen2.5-coder-0.5b.toml", "paper-qwen2.5-coder-7b.toml"]


@pytest.mark.parametrize("name", PAPER)
def test_every_train_value_of_a_paper_recipe_says_where_it_comes_from(name):
    text = (RECIPES_DIR / name).read_text()
    train = text[text.index("[train]") :]
    keys = re.findall(r"^(\w+) = .*$", train, flags=re.M)
    assert set(keys) == {f.name for f in dataclasses.fields(Train)}  # every knob, explicitly
    for line in re.findall(r"^\w+ = .*$", train, flags=re.M):
        assert "#" in line, f"{name}: no source given for {line!r}"
        source = line.split("#", 1)[1]
        assert any(w in source for w in ("essay", "paper", "DESIGN", "codelog", "unused")), line


def test_the_paper_trains_0_5b_fully_and_7b_with_lora_at_2048_tokens():
    small = resolve_recipe(load_recipe(RECIPES_DIR / PAPER[0]), {}).train
    large = resolve_recipe(load_recipe(RECIPES_DIR / PAPER[1]), {}).train
    assert (small.lora_r, large.lora_r) == (0, 16)
    assert small.max_length == large.max_length == 2048
    assert small.group_size == large.group_size == 4
    assert small.token_reduction == large.token_reduction == "sum"  # log p of the solution
    default = load_recipe()
    for recipe in map(load_recipe, (RECIPES_DIR / n for n in PAPER)):
        assert (recipe.rewards, recipe.grouping, recipe.prompt) == (
            default.rewards,
            default.grouping,
            default.prompt,
        )
