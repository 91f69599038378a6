"""TRL's DPOTrainer on `codelog export --format dpo`: the loss covers `chosen` and `rejected`,
never the prompt."""

from __future__ import annotations

from tests.clients.conftest import cpu_args, load_split, prompt_text, trained_text, trl


def test_dpo_trains_on_both_completions_and_masks_the_prompt(export, tiny, tokenizer, tmp_path):
    train = load_split(export("dpo"), rows=2)
    args = cpu_args(trl.DPOConfig, tmp_path, max_steps=1, per_device_train_batch_size=2)
    trainer = trl.DPOTrainer(
        model=str(tiny), args=args, train_dataset=train, processing_class=tokenizer
    )
    batch = next(iter(trainer.get_train_dataloader()))
    texts = [
        trained_text(tokenizer, ids, mask)
        for ids, mask in zip(batch["input_ids"], batch["completion_mask"], strict=True)
    ]
    codes = [r["chosen"] for r in train] + [r["rejected"] for r in train]
    assert len(texts) == len(codes)  # the chosen sequences, then the rejected ones
    for code in codes:
        assert sum(code in text for text in texts) >= 1
    for row in train:
        assert all(prompt_text(row["prompt"])[:80] not in text for text in texts)
    trainer.train()
    assert trainer.state.global_step == 1
