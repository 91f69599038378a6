"""An exported row, tokenized by TRL's own DPO preprocessing, gives the token ids codelog's
trainer builds for the same solution: the other trainer learns from the same sequence.

TRL (1.x) tokenizes a plain-string row as `prompt` and `prompt + chosen + eos_token` (text
joined as it is) and takes the completion where the two diverge
(`trl/trainer/dpo_trainer.py`, `DPOTrainer._prepare_dataset`); a conversational row goes through
the tokenizer's chat template. The tests call that code itself, not a copy of the rule.
"""

from __future__ import annotations

import types
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from codelog.dataset.export import export_dataset
from codelog.prompts import SEPARATOR
from codelog.recipe import load_recipe

trl = pytest.importorskip("trl")
datasets = pytest.importorskip("datasets")
models = pytest.importorskip("codelog.training.models")
data = pytest.importorskip("codelog.training.data")

# A ChatML-like template whose turns end with the tiny tokenizer's end-of-sequence token.
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|endoftext|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@pytest.fixture(scope="module")
def tokenizer(sample_dataset: Path, tmp_path_factory: pytest.TempPathFactory):
    base = models.build_tiny(
        data.open_dataset(sample_dataset), tmp_path_factory.mktemp("tiny"), 512, 0
    )
    return models.load_tokenizer(str(base))


def trl_tokenize(row: dict, tokenizer, tmp_path: Path) -> dict:
    """TRL's DPO preprocessing of one row (the trainer's method, without building a model)."""
    args = trl.DPOConfig(output_dir=str(tmp_path / "trl"), report_to=[], use_cpu=True, bf16=False)
    trainer = types.SimpleNamespace(_tokenizer=tokenizer)
    rows = datasets.Dataset.from_list([row])
    return trl.DPOTrainer._prepare_dataset(trainer, rows, tokenizer, args, "train")[0]


def codelog_ids(tokenizer, sample_dataset: Path, row: dict, code: str) -> tuple[list, list]:
    """(prompt ids, solution ids) as codelog's trainer builds them for this row's group."""
    dataset = data.open_dataset(sample_dataset)
    key = (row["problem_id"], row["language"], row["dialect"])
    [prompt] = data.render_prompts(dataset, [key], load_recipe().prompt.template)
    [solution] = data.encode_solutions(tokenizer, [code])
    return data.encode_prompt(tokenizer, prompt), solution


def first_pair(sample_dataset: Path, tmp_path: Path, chat: bool) -> dict:
    out = tmp_path / "dpo.parquet"
    export_dataset(sample_dataset, "dpo", out, max_pairs_per_group=1, chat=chat, split="all")
    return pq.read_table(out).slice(0, 1).to_pylist()[0]


def test_trl_builds_the_ids_codelogs_trainer_builds(sample_dataset, tokenizer, tmp_path):
    row = first_pair(sample_dataset, tmp_path, chat=False)
    assert row["prompt"].endswith(SEPARATOR)
    tokens = trl_tokenize(row, tokenizer, tmp_path)
    for side in ("chosen", "rejected"):
        prompt, solution = codelog_ids(tokenizer, sample_dataset, row, row[side])
        assert tokens["prompt_ids"] == prompt  # the loss starts at the same position
        assert tokens[f"{side}_ids"] == solution  # code, then end-of-sequence


def test_without_the_separator_trl_would_train_on_another_sequence(
    sample_dataset, tokenizer, tmp_path
):
    row = first_pair(sample_dataset, tmp_path, chat=False)
    glued = row | {"prompt": row["prompt"].removesuffix(SEPARATOR)}  # the export before the fix
    tokens = trl_tokenize(glued, tokenizer, tmp_path)
    prompt, solution = codelog_ids(tokenizer, sample_dataset, row, row["chosen"])
    assert tokens["prompt_ids"] + tokens["chosen_ids"] != prompt + solution


def test_chat_rows_through_the_chat_template_match_up_to_its_end_of_turn(
    sample_dataset, tokenizer, tmp_path
):
    tokenizer.chat_template = CHAT_TEMPLATE  # codelog's trainer uses it too when present
    try:
        row = first_pair(sample_dataset, tmp_path, chat=True)
        tokens = trl_tokenize(row, tokenizer, tmp_path)
        code = row["chosen"][0]["content"]
        prompt, solution = codelog_ids(tokenizer, sample_dataset, row, code)
    finally:
        tokenizer.chat_template = None
    assert tokens["prompt_ids"] == prompt
    # TRL keeps what the template writes after the turn's end token (here "\n"); codelog's
    # trainer stops at the end-of-sequence token
    newline = tokenizer("\n", add_special_tokens=False)["input_ids"]
    assert tokens["chosen_ids"] == solution + newline
