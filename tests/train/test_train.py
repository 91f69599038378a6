"""`codelog train`: data checks, group sampling, batching, the loss, learning, resume, failures.

Most tests use a small synthetic dataset (tests/train/synthetic.py: four problems, correct and
wrong programs that differ in a telling way); the learning test uses the bundled sample built by
`codelog build` (the `sample_dataset` fixture).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pyarrow.parquet as pq
import pytest
import torch
from click.testing import CliRunner

from codelog.cli import cli
from codelog.errors import DatasetError, RecipeError
from codelog.publish.manifest import FORMAT_VERSION
from codelog.recipe import Split, load_recipe
from codelog.training import batches, checkpoint, data, loop, models
from codelog.training.advantages import ADVANTAGES, compute_advantages, register
from codelog.training.logprobs import reduce_tokens, token_logps
from codelog.training.memory import resolve_precision
from codelog.training.options import TrainingError, resolve_recipe
from tests.conftest import build_sample
from tests.train.synthetic import PROBLEMS, records, run, weights, write_dataset

# --- the dataset is checked before any model loads ---------------------------------------------


@pytest.fixture
def no_model_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("a model was loaded before the dataset was checked")

    monkeypatch.setattr(models, "build_tiny", refuse)
    monkeypatch.setattr(models, "load_model", refuse)


def test_missing_dataset_is_a_clear_error(tmp_path, no_model_loads):
    with pytest.raises(DatasetError, match="no such dataset directory"):
        run(tmp_path / "nowhere", tmp_path / "run")


def test_dataset_of_another_format_version_is_refused(tmp_path, no_model_loads):
    dataset = write_dataset(tmp_path / "ds", format_version=FORMAT_VERSION + 1)
    with pytest.raises(DatasetError, match=f"format_version {FORMAT_VERSION + 1}"):
        run(dataset, tmp_path / "run")


def test_dataset_without_groups_is_refused(tmp_path, no_model_loads):
    dataset = write_dataset(tmp_path / "ds", correct_every=1)  # every solution correct: no contrast
    with pytest.raises(DatasetError, match="no group has both a correct and an incorrect solution"):
        run(dataset, tmp_path / "run")


def test_dataset_missing_a_table_is_refused(tmp_path, no_model_loads):
    dataset = write_dataset(tmp_path / "ds")
    (dataset / "problems.parquet").unlink()
    with pytest.raises(DatasetError, match=r"problems.parquet: missing"):
        run(dataset, tmp_path / "run")


def test_bad_option_is_a_recipe_error_naming_the_option(synthetic, tmp_path, no_model_loads):
    with pytest.raises(RecipeError, match=r"^--algo ppo: must be one of \['exp'"):
        run(synthetic, tmp_path / "run", algo="ppo")
    with pytest.raises(RecipeError, match=r"^--lr -1.0: must be positive"):
        run(synthetic, tmp_path / "run", learning_rate=-1.0)


def test_a_bad_option_fails_before_torch_is_imported(synthetic, tmp_path):
    import subprocess
    import sys

    command = ["train", str(synthetic), "--algo", "ppo", "--out", str(tmp_path / "run")]
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "codelog.cli", *command],
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert "--algo ppo: must be one of ['exp', 'grpo', 'rloo', 'sft']" in out.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()}
    assert "codelog.training.options" in imported and "torch" not in imported


def test_the_algos_named_before_torch_loads_are_the_registered_ones():
    from codelog.training.options import BUILT_IN_ALGOS

    registered = {name for name in ADVANTAGES if not name.startswith("test-")}
    assert set(BUILT_IN_ALGOS) == registered


def test_a_bad_recipe_value_names_the_recipe_key(tmp_path):
    from codelog.recipe import load_recipe
    from codelog.training.options import resolve_recipe

    path = tmp_path / "r.toml"
    path.write_text("[train]\ngroup_size = 1\n")
    with pytest.raises(RecipeError, match=r"^\[train\] group_size = 1: must be at least 2"):
        resolve_recipe(load_recipe(path), {})


# --- the data side -----------------------------------------------------------------------------


def test_index_groups_solutions_by_problem_and_language(synthetic):
    index = data.read_index(data.open_dataset(synthetic))
    assert index.keys == [(p, "Python", None) for p in PROBLEMS]  # no dialect: one group each
    assert [len(index.members(g)) for g in range(len(index))] == [24] * 4
    assert index.names(index.members(1)[:2]) == ["s0020000", "s0020001"]


def test_sampled_groups_have_a_correct_and_an_incorrect_solution(synthetic):
    index = data.read_index(data.open_dataset(synthetic))
    sampler = data.GroupSampler(index, group_size=4, seed=0)
    seen = set()
    for _ in range(40):
        group, rows = sampler.next()
        assert len(rows) == 4 and len(set(rows)) == 4
        assert set(rows) <= set(index.members(group))
        assert index.is_correct[rows].any() and not index.is_correct[rows].all()
        seen.add(group)
    assert seen == {0, 1, 2, 3}  # every problem once per epoch


def test_a_small_pool_gives_all_it_has(synthetic):
    index = data.read_index(data.open_dataset(synthetic))
    small = index.subset([index.members(0)[:3], index.members(1)[:2]])
    sampler = data.GroupSampler(small, group_size=4, seed=0)
    assert sorted(len(sampler.next()[1]) for _ in range(2)) == [2, 3]


def test_sampler_state_resumes_the_same_groups(synthetic):
    index = data.read_index(data.open_dataset(synthetic))
    a = data.GroupSampler(index, group_size=4, seed=3)
    for _ in range(5):
        a.next()
    b = data.GroupSampler(index, group_size=4, seed=99)
    b.load_state_dict(json.loads(json.dumps(a.state_dict())))
    for _ in range(9):
        (ga, ra), (gb, rb) = a.next(), b.next()
        assert ga == gb and ra.tolist() == rb.tolist()


def test_heldout_split_leaves_a_correct_and_an_incorrect_to_train_on(synthetic):
    index = data.read_index(data.open_dataset(synthetic))
    tiny = index.subset([index.members(0)[:2]] + [index.members(g) for g in (1, 2, 3)])
    train, heldout = data.split_heldout(tiny, 0.25, seed=0)
    assert len(train) == 4 and len(heldout.members(0)) == 6  # 12 correct + 12 incorrect: 3 + 3 out
    assert train.members(0).tolist() == tiny.members(0).tolist()  # 1 + 1: nothing to spare
    for g in range(len(train)):
        assert not set(train.members(g)) & set(heldout.rows)
        c = train.is_correct[train.members(g)]
        assert c.any() and not c.all()


def test_code_is_fetched_by_row_across_row_groups(synthetic):
    store = data.CodeStore(synthetic / "solutions.parquet", cached_row_groups=1)
    table = pq.read_table(synthetic / "solutions.parquet", columns=["code"])
    rows = [90, 3, 16, 17, 95]
    assert store.fetch(rows) == [table["code"][r].as_py() for r in rows]


def test_long_sequences_are_truncated_keeping_half_for_the_solution():
    assert data.join([1, 2], [3, 4, 5], 8) == ([1, 2, 3, 4, 5], 2, False)
    assert data.join([1, 2], [3, 4, 5, 6, 7, 8, 9], 8) == ([1, 2, 3, 4, 5, 6, 7, 8], 2, True)
    prompt, solution = list(range(10)), list(range(100, 110))
    ids, n_prompt, cut = data.join(prompt, solution, 8)
    assert cut and n_prompt == 4 and ids == [6, 7, 8, 9, 100, 101, 102, 103]  # prompt keeps its end


def test_micro_batches_put_similar_lengths_together_under_the_token_budget():
    lengths = [500, 40, 480, 50, 45, 510]
    plan = data.plan_micro_batches(lengths, batch_tokens=4096, overhead=64)
    assert sorted(map(sorted, plan)) == [[0, 2, 5], [1, 3, 4]]
    plan = data.plan_micro_batches(lengths, batch_tokens=1000, overhead=64)
    assert all(max(lengths[i] for i in b) * len(b) <= 1000 for b in plan)
    assert sorted(i for b in plan for i in b) == list(range(6))
    assert data.plan_micro_batches([3000], batch_tokens=1000) == [[0]]  # too long: alone


def test_prompt_goes_through_the_chat_template_when_the_tokenizer_has_one(synthetic, tmp_path):
    tokenizer = models.load_tokenizer(
        str(models.build_tiny(data.open_dataset(synthetic), tmp_path, 64, 0))
    )
    plain = data.encode_prompt(tokenizer, "Print 1.")
    assert tokenizer.decode(plain) == "Print 1.\n"
    tokenizer.chat_template = (
        "{% for m in messages %}<user>{{ m.content }}</user>{% endfor %}<assistant>"
    )
    assert (
        tokenizer.decode(data.encode_prompt(tokenizer, "Print 1."))
        == "<user>Print 1.</user><assistant>"
    )
    assert data.encode_solutions(tokenizer, ["print(1)"])[0][-1] == tokenizer.eos_token_id


def test_prompts_render_the_recipe_template(synthetic):
    dataset = data.open_dataset(synthetic)
    [prompt] = data.render_prompts(
        dataset, [("p003", "Python", None)], "{statement}\nWrite {language}."
    )
    [py3] = data.render_prompts(dataset, [("p003", "Python", "python3")], "{statement} {language}")
    assert py3 == "Read a string. Print it reversed. Python 3"  # the group's dialect
    assert prompt == "Read a string. Print it reversed.\nWrite Python."
    # the same renderer as `codelog export`: other braces are literal, {statement} is required
    [braces] = data.render_prompts(dataset, [("p003", "Python", None)], "{statement} int main() {}")
    assert braces == "Read a string. Print it reversed. int main() {}"
    with pytest.raises(RecipeError, match="template"):
        data.render_prompts(dataset, [("p003", "Python", None)], "Write {language}.")


# --- the loss ----------------------------------------------------------------------------------


def test_loss_is_minus_the_group_mean_of_advantage_weighted_log_likelihood(synthetic, tmp_path):
    dataset = data.open_dataset(synthetic)
    base = models.build_tiny(dataset, tmp_path, 256, 0)
    tokenizer, model = models.load_tokenizer(str(base)), models.load_model(str(base))
    index = data.read_index(dataset)
    prompts = [
        data.encode_prompt(tokenizer, p)
        for p in data.render_prompts(dataset, index.keys, "{statement}")
    ]
    t = resolve_recipe(load_recipe(), {"algo": "rloo", "grad_accum": 2, "batch_tokens": 64}).train
    step = batches.prepare_step(
        data.GroupSampler(index, 4, 0),
        data.CodeStore(dataset.solutions),
        batches.GroupPrompts(prompts),
        tokenizer,
        t,
    )
    assert len(step.groups) == 2 and len(step.batches) > 1  # small budget: several micro-batches

    loss = sum(
        -(mb.weight * reduce_tokens(*token_logps(model, mb), "mean")).sum() for mb in step.batches
    )

    # By hand: each sequence alone, full logits, mean log-prob of its solution tokens.
    store, expected = data.CodeStore(dataset.solutions), 0.0
    for group, rows in step.groups:
        adv = compute_advantages(
            "rloo", torch.tensor(index.rewards[rows]), torch.tensor(index.is_correct[rows])
        )
        for a, solution in zip(
            adv, data.encode_solutions(tokenizer, store.fetch(rows)), strict=True
        ):
            ids = torch.tensor([prompts[group] + solution])
            logp = torch.log_softmax(model(ids).logits[0, :-1].double(), -1)
            token_logp = logp[torch.arange(ids.shape[1] - 1), ids[0, 1:]][len(prompts[group]) - 1 :]
            expected += -float(a) * token_logp.mean().item() / (len(rows) * len(step.groups))
    assert loss.item() == pytest.approx(expected, rel=1e-4)


def test_sft_skips_incorrect_solutions(synthetic, tmp_path):
    dataset = data.open_dataset(synthetic)
    tokenizer = models.load_tokenizer(str(models.build_tiny(dataset, tmp_path, 256, 0)))
    index = data.read_index(dataset)
    prompts = [
        data.encode_prompt(tokenizer, p)
        for p in data.render_prompts(dataset, index.keys, "{statement}")
    ]
    t = resolve_recipe(load_recipe(), {"algo": "sft"}).train
    step = batches.prepare_step(
        data.GroupSampler(index, 4, 0),
        data.CodeStore(dataset.solutions),
        batches.GroupPrompts(prompts),
        tokenizer,
        t,
    )
    forwarded = [i for mb in step.batches for i in mb.sequence]
    assert sorted(forwarded) == np.flatnonzero(step.is_correct).tolist()


# --- training ----------------------------------------------------------------------------------


def test_rloo_raises_the_heldout_margin_of_correct_over_incorrect_on_the_sample(tmp_path):
    # Held out: 15% of each problem's correct and of its incorrect solutions, never trained on.
    # (Built without test problems: the sample's 8 problems are too few for a tiny model to
    # transfer to an unseen one; tests/train/test_heldout_problems.py covers the test split.
    # Without Python 2 rows, 100 steps move the margin by -0.002..+0.03 over seeds; 200: +0.55.)
    # Seed 1: at this learning rate the tiny model's run is chaotic past step ~100 (gradient
    # norms up to 21), and float rounding alone decides seed 0's: the shared-prompt and the
    # padded forward agree to 1e-6 up to step 70, then the margin at 200 is -0.04 on one and
    # +0.55 on the other. Seed 1: +0.44 and +0.50; seed 2, shared: +1.06 (issue 45).
    no_test_split = dataclasses.replace(load_recipe(), split=Split(test_fraction=0))
    dataset = build_sample(tmp_path / "ds", recipe=no_test_split).out
    result = run(
        dataset,
        tmp_path / "rloo",
        algo="rloo",
        seed=1,
        steps=200,
        eval_fraction=0.15,
        max_length=1024,
    )
    before, after = records(tmp_path / "rloo", "eval")
    assert (before["step"], after["step"]) == (0, 200) and before["groups"] == 8
    assert after["margin"] > before["margin"] + 0.05, (before, after)
    assert result.margin_after == after["margin"]


def test_sft_trains_on_the_sample(sample_dataset, tmp_path):
    result = run(sample_dataset, tmp_path / "sft", algo="sft", steps=10, max_length=1024)
    steps = records(tmp_path / "sft")
    assert len(steps) == 10 and all(np.isfinite(s["loss"]) for s in steps)
    assert steps[-1]["logp_token"] > steps[0]["logp_token"]
    assert result.checkpoint.name == "step-000010"


def test_every_algorithm_runs_and_logs_its_stats(synthetic, tmp_path):
    for algo in ("grpo", "exp"):
        run(synthetic, tmp_path / algo, algo=algo, steps=2)
        [first, _] = records(tmp_path / algo)
        assert {
            "loss",
            "reward_mean",
            "adv_mean",
            "adv_std",
            "lr",
            "grad_norm",
            "padding_waste",
            "problems",
        } <= set(first)
    assert first["adv_min"] > 0  # exp advantages are positive


def test_padding_waste_is_a_share_of_what_the_model_ran_on_either_layout(synthetic, tmp_path):
    results = {}
    for layout in ("shared", "padded"):
        results[layout] = run(synthetic, tmp_path / layout, steps=2, layout=layout)
    shared, padded = records(tmp_path / "shared"), records(tmp_path / "padded")
    for s, p in zip(shared, padded, strict=True):
        assert s["tokens"] == p["tokens"] == p["computed_tokens"]  # the same sequences, whole
        assert s["computed_tokens"] < s["tokens"]  # each prompt once
        for r in (s, p):
            assert 0 <= r["padding_waste"] < 1
            assert r["padding_waste"] == pytest.approx(
                1 - r["computed_tokens"] / r["padded_tokens"]
            )
    for result in results.values():
        assert 0 <= result.padding_waste < 1
    assert results["shared"].computed_tokens == sum(s["computed_tokens"] for s in shared)
    assert results["shared"].tokens == results["padded"].computed_tokens


def test_lora_targets_every_linear_layer_but_the_output_head():
    from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

    llama = LlamaForCausalLM(
        LlamaConfig(
            vocab_size=64,
            hidden_size=16,
            intermediate_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            num_key_value_heads=1,
        )
    )
    assert models.lora_targets(llama) == [
        "down_proj",
        "gate_proj",
        "k_proj",
        "o_proj",
        "q_proj",
        "up_proj",
        "v_proj",
    ]
    gpt2 = GPT2LMHeadModel(GPT2Config(vocab_size=64, n_embd=16, n_layer=1, n_head=2))
    assert models.lora_targets(gpt2) == ["c_attn", "c_fc", "c_proj"]


def test_lora_trains_only_the_adapters(synthetic, tmp_path):
    result = run(synthetic, tmp_path / "run", lora_r=4, steps=2)
    adapter = weights(result.checkpoint)
    assert adapter and all("lora_" in name for name in adapter)
    config = json.loads((result.checkpoint / "adapter_config.json").read_text())
    assert config["r"] == 4 and "q_proj" in config["target_modules"]
    # in order, not in the order of peft's set (each process hashes strings its own way), so
    # that two identical runs write the same bytes
    assert config["target_modules"] == sorted(config["target_modules"])


def test_auto_precision_is_fp32_master_weights_with_bf16_autocast_only_on_a_gpu():
    auto = resolve_precision("auto", torch.device("cpu"))
    assert (auto.weights, auto.autocast) == (torch.float32, False)
    assert resolve_precision("fp32", torch.device("cpu")).name == "fp32"


def test_bf16_loads_the_weights_in_bf16_and_trains(synthetic, tmp_path):
    result = run(synthetic, tmp_path / "run", precision="bf16", steps=2)
    assert all(np.isfinite(r["loss"]) for r in records(tmp_path / "run"))
    saved = weights(result.checkpoint)
    assert {w.dtype for w in saved.values()} == {torch.bfloat16}
    base = weights(tmp_path / "run" / "base-model")
    assert any(not torch.equal(saved[k], base[k].bfloat16()) for k in saved)  # it learned


def test_bf16_with_lora_keeps_the_adapters_in_fp32(synthetic, tmp_path):
    base = models.build_tiny(data.open_dataset(synthetic), tmp_path / "base", 64, 0)
    _, model = models.load_policy(str(base), None, 4, 8, torch.bfloat16)
    dtypes = {n: p.dtype for n, p in model.named_parameters()}
    assert {d for n, d in dtypes.items() if "lora_" in n} == {torch.float32}
    assert {d for n, d in dtypes.items() if "lora_" not in n} == {torch.bfloat16}
    result = run(synthetic, tmp_path / "run", precision="bf16", lora_r=4, steps=2)
    assert {w.dtype for w in weights(result.checkpoint).values()} == {torch.float32}


def test_checkpoint_holds_weights_tokenizer_recipe_and_fingerprint(synthetic, tmp_path):
    result = run(synthetic, tmp_path / "run", steps=4, checkpoint_every=2, keep_checkpoints=0)
    assert [p.name for p in checkpoint.checkpoints(tmp_path / "run")] == [
        "step-000002",
        "step-000004",
    ]
    info = json.loads((result.checkpoint / checkpoint.CHECKPOINT_FILE).read_text())
    assert info["step"] == 4 and info["input_fingerprint"] == "synthetic-24-2"
    assert info["recipe"]["train"]["algo"] == "rloo"
    reloaded = models.load_model(str(result.checkpoint))  # save_pretrained format
    assert models.load_tokenizer(str(result.checkpoint)).eos_token_id is not None
    assert torch.equal(
        reloaded.state_dict()["model.norm.weight"], weights(result.checkpoint)["model.norm.weight"]
    )


@pytest.mark.parametrize(
    "options",
    [{}, {"lora_r": 4, "kl": 0.1}, {"kl": 0.05, "grad_accum": 2}],
    ids=["full", "lora-kl", "full-kl-accum"],
)
def test_resume_reproduces_the_uninterrupted_run(synthetic, tmp_path, options):
    whole = run(synthetic, tmp_path / "whole", steps=6, checkpoint_every=3, **options)
    loop.train(
        synthetic,
        tmp_path / "parts",
        {"steps": 6, "checkpoint_every": 3, **options},
        progress=False,
        max_steps_this_call=4,
    )  # "interrupted" after step 4: checkpoint at 3
    resumed = loop.train(synthetic, tmp_path / "parts", {"steps": 6}, resume=True, progress=False)
    a, b = weights(whole.checkpoint), weights(resumed.checkpoint)
    assert a.keys() == b.keys()
    for name in a:
        assert torch.equal(a[name], b[name]), name
    assert [r["loss"] for r in records(tmp_path / "whole")] == [
        r["loss"] for r in records(tmp_path / "parts")
    ]


def test_existing_run_needs_resume_and_resume_keeps_the_runs_settings(synthetic, tmp_path):
    run(synthetic, tmp_path / "run", steps=2)
    with pytest.raises(TrainingError, match="already holds a run; pass --resume"):
        run(synthetic, tmp_path / "run", steps=2)
    with pytest.raises(TrainingError, match=r"\['algo'\] differ"):
        loop.train(
            synthetic, tmp_path / "run", {"algo": "grpo", "steps": 3}, resume=True, progress=False
        )
    with pytest.raises(TrainingError, match="no run to resume"):
        loop.train(synthetic, tmp_path / "other", {}, resume=True, progress=False)


def test_two_trainers_never_share_a_run_directory(synthetic, tmp_path):
    (tmp_path / "run").mkdir()
    held = checkpoint.lock_run_dir(tmp_path / "run")
    try:
        with pytest.raises(TrainingError, match="another `codelog train` is running in it"):
            run(synthetic, tmp_path / "run", steps=1)
    finally:
        held.close()


def test_truncation_is_counted_and_reported(synthetic, tmp_path):
    result = run(synthetic, tmp_path / "run", steps=3, max_length=24)
    assert result.truncated > 0 and result.sequences == 12
    assert records(tmp_path / "run")[-1]["truncated_total"] == result.truncated


def test_nan_loss_stops_naming_the_step_and_group_and_keeps_the_last_checkpoint(
    synthetic, tmp_path
):
    calls = []

    @register("test-nan-on-third")
    def nan_on_third(rewards, is_correct):
        calls.append(1)
        return torch.full_like(rewards, float("nan") if len(calls) == 3 else 1.0)

    try:
        with pytest.raises(TrainingError) as error:
            run(synthetic, tmp_path / "run", algo="test-nan-on-third", steps=5, checkpoint_every=2)
    finally:
        del ADVANTAGES["test-nan-on-third"]
    message = str(error.value)
    step3 = json.loads((tmp_path / "run" / "metrics.jsonl").read_text().splitlines()[-1])
    assert step3["step"] == 2  # steps 1 and 2 logged, step 3 stopped
    assert message.startswith("step 3: loss or gradient is nan on problem p0")
    assert "submissions s0" in message and "step-000002" in message
    assert [p.name for p in checkpoint.checkpoints(tmp_path / "run")] == ["step-000002"]


def test_cli_trains_and_prints_a_summary(synthetic, tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(
        cli,
        [
            "train",
            str(synthetic),
            "--steps",
            "3",
            "--algo",
            "grpo",
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "held-out margin" in result.output and "padding waste" in result.output
    assert json.loads((out / checkpoint.RUN_FILE).read_text())["recipe"]["train"]["algo"] == "grpo"
