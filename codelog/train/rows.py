"""What the trainer trains on for each dataset kind: a kind's training rows (codelog.kinds,
part "train.data"), one object with the steps the loop takes (codelog.train.loop).

- `open(path)`: check the dataset directory (DatasetError naming what is wrong);
- `check(recipe)`: refuse [train] settings the kind cannot train with;
- `training_set(dataset, recipe)`: the training and held-out groups and their prompt source;
- `prompts(training, tokenizer)`: the train and held-out prompts as the batching takes them
  (codelog.train.batches.Prompts);
- `sampler(index, group_size, seed)`: which groups and members each step draws;
- `prompt_identity(recipe)`: what decides the prompt text (the reference cache's key).

This module holds the solutions kind's; the repair kind's is codelog.train.repair_data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codelog.recipe import Recipe
from codelog.train import data
from codelog.train.batches import GroupPrompts


class SolutionRows:
    """Groups of one problem's solutions, every member answering the group's prompt."""

    def open(self, path: str | Path) -> data.DatasetDir:
        return data.open_dataset(path)

    def check(self, recipe: Recipe) -> None:
        pass  # every [train] setting applies to solutions

    def training_set(self, dataset: data.DatasetDir, recipe: Recipe) -> data.TrainingSet:
        t = recipe.train
        train, heldout, prompts = data.training_groups(dataset, recipe, t.eval_fraction, t.seed)
        return data.TrainingSet(train, heldout, prompts)

    def prompts(self, training: data.TrainingSet, tokenizer: Any) -> tuple[Any, Any]:
        # the training groups' prompts, then the held-out groups' (other problems' when the
        # dataset has test problems: codelog.train.data.training_groups)
        prompt_ids = [data.encode_prompt(tokenizer, p) for p in training.prompts]
        n = len(training.train)
        return GroupPrompts(prompt_ids[:n]), GroupPrompts(prompt_ids[n:])

    def sampler(self, index: data.GroupIndex, group_size: int, seed: int) -> data.GroupSampler:
        return data.GroupSampler(index, group_size, seed)

    def prompt_identity(self, recipe: Recipe) -> str:
        return recipe.prompt.template


SOLUTION_ROWS = SolutionRows()
