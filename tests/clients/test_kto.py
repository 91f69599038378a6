"""TRL's KTOTrainer on `codelog export --format kto`. KTO reads the file in order and estimates
its KL term from each prompt with the completion before it in its batch: those pairs must come
from different problems, which rows grouped by problem (612 of the sample's 622) did not."""

from __future__ import annotations

import pyarrow.parquet as pq

import codelog
from tests.clients.conftest import cpu_args, load_split, prompt_text, trained_text, trl

BATCH = 8  # TRL's default per_device_train_batch_size


def test_ktos_kl_pairs_join_different_problems(export, tiny, tokenizer, tmp_path):
    train = load_split(export("kto"), rows=8 * BATCH)  # the file's first batches
    args = cpu_args(trl.KTOConfig, tmp_path, max_steps=1, per_device_train_batch_size=BATCH)
    trainer = trl.KTOTrainer(
        model=str(tiny), args=args, train_dataset=train, processing_class=tokenizer
    )
    prepared = trainer.train_dataset  # tokenized, with the KL completion of every row
    problems = prepared["problem_id"]
    completions = [tuple(c) for c in prepared["completion_ids"]]
    kl = [tuple(c) for c in prepared["KL_completion_ids"]]
    same = 0
    for start in range(0, len(prepared), BATCH):
        batch = range(start, min(start + BATCH, len(prepared)))
        whose = {completions[i]: problems[i] for i in batch}
        same += sum(whose[kl[i]] == problems[i] for i in batch)
    # by problem, 64 of these 64 pairs were of one problem
    assert same <= 2, f"{same} of {len(prepared)} KL pairs of one problem"
    assert len(set(problems)) == 7

    batch = next(iter(trainer.get_train_dataloader()))
    for row, ids, mask in zip(train, batch["input_ids"], batch["completion_mask"], strict=False):
        trained = trained_text(tokenizer, ids, mask)
        assert row["completion"] in trained and prompt_text(row["prompt"])[:80] not in trained
    trainer.train()
    assert trainer.state.global_step == 1


def test_the_order_is_the_seeds(sample_dataset, export, tmp_path):
    """The same seed writes the same bytes; another seed, another order of the same rows."""
    again = codelog.export(sample_dataset, "kto", tmp_path / "again", seed=0)
    other = codelog.export(sample_dataset, "kto", tmp_path / "other", seed=1)
    first = export("kto") / "train.parquet"
    assert again.file("train").read_bytes() == first.read_bytes()
    ids = pq.read_table(first).column("submission_id").to_pylist()
    shuffled = pq.read_table(other.file("train")).column("submission_id").to_pylist()
    assert shuffled != ids and sorted(shuffled) == sorted(ids)
