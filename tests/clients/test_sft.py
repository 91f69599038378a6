"""TRL's SFTTrainer on `codelog export --format sft`, plain and `--chat`: the loss covers the
completion only, so no token of the problem statement carries a label. A single `messages`
column (the old `--chat`) would be trained on whole: 0 of 125,514 tokens masked."""

from __future__ import annotations

import pytest

from tests.clients.conftest import cpu_args, load_split, trained_text, trl


@pytest.mark.parametrize("chat", [False, True], ids=["plain", "chat"])
def test_sft_trains_on_the_code_and_masks_the_statement(export, tiny, tokenizer, tmp_path, chat):
    train = load_split(export("sft", chat), rows=2)
    # each row's statement and code, from the plain export (the chat one has the same rows)
    texts = {
        r["submission_id"]: (r["prompt"].removesuffix("\n"), r["completion"])
        for r in load_split(export("sft"))
    }
    trainer = trl.SFTTrainer(
        model=str(tiny),
        args=cpu_args(trl.SFTConfig, tmp_path, max_steps=1, per_device_train_batch_size=2),
        train_dataset=train,
        processing_class=tokenizer,
    )
    batch = next(iter(trainer.get_train_dataloader()))
    rows = [texts[s] for s in train["submission_id"]]
    for ids, labels, attention in zip(
        batch["input_ids"], batch["labels"], batch["attention_mask"], strict=True
    ):
        whole = tokenizer.decode(ids[attention.bool()].tolist())
        [(statement, code)] = [(s, c) for s, c in rows if c in whole]  # the row this sequence is
        trained = trained_text(tokenizer, ids, labels != -100)
        assert code in trained
        assert statement in whole and statement[:80] not in trained, "trained on the statement"
        masked = (labels[attention.bool()] == -100).sum()
        assert masked >= len(tokenizer(statement)["input_ids"]) // 2
    trainer.train()
    assert trainer.state.global_step == 1
