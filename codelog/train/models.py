"""Models and tokenizers: any Hugging Face causal LM, LoRA via peft, and the offline `tiny` model.

`tiny` is a 2-layer Qwen2-style model (hidden size 64) built from a config, with a byte-level
BPE tokenizer trained on the dataset's code and prompts: it needs no network and no weights, so
`codelog train` runs on a fresh CPU-only machine. It learns little, but it exercises every path.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow.parquet as pq
import torch
from torch import nn

from codelog.errors import CodelogError
from codelog.train.data import DatasetDir

TINY = "tiny"
TINY_VOCAB = 4096
TINY_TOKENIZER_TEXT = 64 << 20  # characters of code read to train the tiny tokenizer, at most
EOS, PAD = "<|endoftext|>", "<|pad|>"


def _dataset_text(dataset: DatasetDir) -> Iterator[str]:
    yield from (
        p or "" for p in pq.read_table(dataset.problems, columns=["prompt"])["prompt"].to_pylist()
    )
    seen = 0
    for batch in pq.ParquetFile(dataset.solutions).iter_batches(batch_size=1024, columns=["code"]):
        for code in batch.column(0).to_pylist():
            if seen > TINY_TOKENIZER_TEXT:
                return
            seen += len(code or "")
            yield code or ""


def build_tiny(dataset: DatasetDir, out: Path, max_length: int, seed: int) -> Path:
    """Train the tiny tokenizer on the dataset, build the tiny model, save both to `out`."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=TINY_VOCAB,
        special_tokens=[EOS, PAD],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(_dataset_text(dataset), trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token=EOS, pad_token=PAD)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=256,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=max(max_length, 512),
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def quiet_transformers() -> None:
    """No per-file progress bars or advisory warnings from transformers: the trainer reports."""
    from transformers.utils import logging

    logging.disable_progress_bar()
    logging.set_verbosity_error()


def load_tokenizer(name: str):
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(name)
    except (OSError, ValueError) as exc:
        raise CodelogError(f"--model {name}: cannot load its tokenizer: {exc}") from None
    if tokenizer.eos_token_id is None:
        raise CodelogError(f"--model {name}: the tokenizer has no end-of-sequence token")
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(name: str) -> nn.Module:
    """A causal LM in float32 (bf16 happens in autocast, so optimizer state stays exact)."""
    from transformers import AutoModelForCausalLM

    try:
        return AutoModelForCausalLM.from_pretrained(name, dtype=torch.float32)
    except (OSError, ValueError) as exc:
        raise CodelogError(f"--model {name}: cannot load it: {exc}") from None


def lora_targets(model: nn.Module) -> list[str]:
    """Names of the linear layers inside the transformer blocks (all but the output head)."""
    from transformers.pytorch_utils import Conv1D

    head = model.get_output_embeddings()
    names = {
        name.rsplit(".", 1)[-1]
        for name, module in model.named_modules()
        if isinstance(module, nn.Linear | Conv1D) and module is not head
    }
    if not names:
        raise CodelogError("LoRA: found no linear layers to adapt in this model")
    return sorted(names)


@contextmanager
def peft_quietly() -> Iterator[None]:
    """peft calls a transformers API deprecated in 5.x; its FutureWarning is not the user's to fix."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=".*is_gradient_checkpointing", category=FutureWarning
        )
        yield


def add_lora(model: nn.Module, r: int, alpha: int) -> nn.Module:
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(
        r=r,
        lora_alpha=alpha,
        lora_dropout=0.0,
        target_modules=lora_targets(model),
        task_type="CAUSAL_LM",
    )
    with peft_quietly():
        return get_peft_model(model, config)


def load_lora(model: nn.Module, checkpoint: Path) -> nn.Module:
    from peft import PeftModel

    with peft_quietly():
        return PeftModel.from_pretrained(model, checkpoint, is_trainable=True)


def frozen(model: nn.Module) -> nn.Module:
    """The model in eval mode without gradients: the reference policy of full fine-tuning."""
    for p in model.parameters():
        p.requires_grad_(False)
    return model.eval()
