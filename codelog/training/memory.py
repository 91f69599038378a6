"""Memory for real models: the precision of weights and arithmetic, and an estimate of what a run
needs, printed before training and checked against the device.

Precision (`--precision`):
- `auto` (default): fp32 weights (the master copy the optimizer updates), bf16 autocast for the
  matmuls on a GPU that has bf16, fp32 elsewhere. 16 bytes per trained parameter (weights 4,
  gradients 4, AdamW's two moments 8): updates smaller than a weight's bf16 rounding still add up.
- `bf16`: weights in bf16 where the device has it (a GPU without bf16 falls back to fp32, said
  aloud). Full fine-tuning then keeps weights, gradients and AdamW state in bf16: 8 bytes per
  parameter, but an update smaller than 2^-8 of its weight rounds away, so a small learning rate
  can stall. With LoRA only the base weights are bf16 (frozen, nothing to round) and the
  adapters stay fp32: the right choice for 7B.
- `fp32`: fp32 weights and arithmetic.

The estimate counts parameters on the meta device (no weights load), then adds up weights,
gradients, AdamW state, a reference copy (full fine-tuning with the reference recomputed each
step), the bf16 copies autocast makes of fp32 weights (kept for backward), the activations kept
for backward and the logits, plus 0.5 GiB for the runtime and 10% for the allocator. Tokens are
the tokens a forward pass computes (`batch_tokens`: each shared prompt once, padding included;
codelog.training.batches).

Activations: bytes per token and layer of a transformers Llama/Qwen2 block (h hidden, i
intermediate), counted from what its autograd graph saves and checked against the allocator's
peak on CPU within 2% (`ACTIVATION_BYTES`):
- each RMSNorm keeps its fp32 input (4h) and, when its weight trains, its normalised output;
- each linear layer keeps its input in the matmul's dtype, and autocast casts a copy per layer
  (q, k and v three, gate and up two); with LoRA the base layer keeps nothing (its weight is
  frozen) and peft's adapter keeps its own copy of the input;
- attention keeps q, k, v and its output (SDPA), k and v repeated to every head, as they are
  when a micro-batch has padding; the MLP its gate, SiLU, up and product (4 x i);
- the residual stream is fp32 when the weights are (so under --precision auto).
With gradient checkpointing each layer keeps its input (the residual) and one layer at a time
holds the rest. Logits: the head runs on solution positions only, one chunk of at most
HEAD_LOGITS logits at a time, recomputed in backward (codelog.training.logprobs): 10 bytes per
logit under autocast (the bf16 logits, their fp32 copy and the fp32 log-softmax), 8 in fp32, 7
with bf16 weights (the allocator's peak: the chunk's gradient is bf16), for one chunk whatever
the micro-batch (before issue 45: every position of the micro-batch). It is an estimate:
docs/training.md's table shows it for the paper's models; bench/gpu.py measures it on a GPU.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import torch

from codelog.recipe import Train
from codelog.training.logprobs import HEAD_LOGITS
from codelog.training.options import TrainingError

GiB = 1 << 30
RUNTIME = GiB // 2  # CUDA context / interpreter and libraries
MARGIN = 0.10  # allocator fragmentation


@dataclass(frozen=True)
class Precision:
    weights: torch.dtype  # dtype the weights are loaded in
    autocast: bool  # bf16 autocast around the forward pass
    note: str | None = None  # why the request was not followed, if it was not

    @property
    def name(self) -> str:
        if self.weights == torch.bfloat16:
            return "bf16 weights"
        return "fp32 weights + bf16 autocast" if self.autocast else "fp32"

    @property
    def mode(self) -> str:
        """How a block computes: "fp32", "autocast" (fp32 weights, bf16 matmuls) or "bf16"."""
        if self.weights == torch.bfloat16:
            return "bf16"
        return "autocast" if self.autocast else "fp32"


# Bytes per token and layer a block keeps for backward, as (x h, x i), by Precision.mode and
# by full fine-tuning / LoRA (see the module docstring for the count).
ACTIVATION_BYTES = {
    ("fp32", False): (44, 16),
    ("fp32", True): (36, 16),
    ("autocast", False): (36, 8),
    ("autocast", True): (28, 8),
    ("bf16", False): (26, 8),
    ("bf16", True): (28, 8),
}


def resolve_precision(requested: str, device: torch.device) -> Precision:
    bf16_device = device.type == "cpu" or (device.type == "cuda" and torch.cuda.is_bf16_supported())
    if requested == "fp32":
        return Precision(torch.float32, False)
    if requested == "auto":
        return Precision(torch.float32, device.type == "cuda" and bf16_device)
    if not bf16_device:
        note = f"--precision bf16: {torch.cuda.get_device_name(device)} has no bf16; using fp32"
        return Precision(torch.float32, False, note)
    return Precision(torch.bfloat16, True)


@dataclass(frozen=True)
class MemoryEstimate:
    parameters: int
    trainable: int
    tokens: int  # tokens in the largest forward pass
    # bytes: weights, gradients, optimizer, reference, bf16_copies, activations, logits
    parts: dict[str, int]

    @property
    def total(self) -> int:
        return int((sum(self.parts.values()) + RUNTIME) * (1 + MARGIN))

    def describe(self, precision: Precision, device: str, capacity: int | None) -> str:
        parts = ", ".join(f"{k} {v / GiB:.2f}" for k, v in self.parts.items())
        of = f" of {capacity / GiB:.1f} GiB ({device})" if capacity else f" ({device})"
        return (
            f"memory estimate: {self.parameters / 1e6:,.1f}M parameters "
            f"({self.trainable / 1e6:,.2f}M trained), {precision.name}, "
            f"{self.tokens:,} tokens per forward pass\n"
            f"  GiB: {parts}, runtime {RUNTIME / GiB:.2f}, +{MARGIN:.0%} -> "
            f"{self.total / GiB:.1f} GiB per process{of}"
        )


def count_parameters(config: Any, lora_r: int) -> tuple[int, int]:
    """(parameters, trained parameters) of the model `config` describes, built on the meta
    device: shapes only, no memory, no weights read."""
    from transformers import AutoModelForCausalLM

    from codelog.training.models import lora_targets

    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(config)
    total = sum(p.numel() for p in model.parameters())
    if not lora_r:
        return total, total
    targets, head = set(lora_targets(model)), model.get_output_embeddings()
    adapters = sum(
        lora_r * sum(module.weight.shape)
        for name, module in model.named_modules()
        if name.rsplit(".", 1)[-1] in targets and module is not head and hasattr(module, "weight")
    )
    return total, adapters


def estimate(
    config: Any,
    t: Train,
    precision: Precision,
    *,
    gradient_checkpointing: bool,
    reference_copy: bool,
    groups_per_rank: int,
    padded: bool = False,
) -> MemoryEstimate:
    total, trained = count_parameters(config, t.lora_r)
    w = 2 if precision.weights == torch.bfloat16 else 4
    if t.lora_r:  # frozen base in `w`, fp32 adapters with their gradients and AdamW state
        weights, gradients, optimizer = total * w + trained * 4, trained * 4, trained * 8
    else:
        weights, gradients, optimizer = total * w, total * w, 2 * total * w
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    h, layers = text.hidden_size, text.num_hidden_layers
    inner = getattr(text, "intermediate_size", None) or 4 * h
    tokens = min(max(t.batch_tokens, t.max_length), groups_per_rank * t.group_size * t.max_length)
    per_h, per_i = ACTIVATION_BYTES[precision.mode, bool(t.lora_r)]
    per_layer = per_h * h + per_i * inner  # bytes per token a block keeps for backward
    kept = layers * w * h + per_layer if gradient_checkpointing else layers * per_layer
    # logits, their fp32 copy and log-softmax; in bf16 the recomputed chunk's gradient is bf16
    logit_bytes = {"fp32": 8, "autocast": 10, "bf16": 7}[precision.mode]
    # the shared path (the default) projects one chunk at a time; the padded path
    # (TrainOptions.layout) takes the whole micro-batch's logits from the model's own forward
    head_positions = tokens if padded else min(tokens, max(1, HEAD_LOGITS // text.vocab_size))
    return MemoryEstimate(
        parameters=total,
        trainable=trained,
        tokens=tokens,
        parts={
            "weights": weights,
            "gradients": gradients,
            "optimizer": optimizer,
            "reference": total * w if reference_copy else 0,
            # autocast's bf16 copies of fp32 weights, kept for backward within a micro-batch
            "bf16_copies": 2 * total if precision.mode == "autocast" else 0,
            "activations": tokens * kept,
            "logits": head_positions * text.vocab_size * logit_bytes,
        },
    )


def device_capacity(device: torch.device) -> tuple[str, int | None]:
    """(name, bytes one process may use) of a known device: a GPU's memory, or the machine's RAM
    shared by the processes on it."""
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        return props.name, props.total_memory
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return "cpu", None
    per_node = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    return ("CPU RAM" if per_node == 1 else f"CPU RAM / {per_node} processes"), ram // per_node


def check_fits(
    est: MemoryEstimate,
    t: Train,
    precision: Precision,
    device: torch.device,
    gradient_checkpointing: bool,
) -> str:
    """The estimate as text; TrainingError when it exceeds the device."""
    name, capacity = device_capacity(device)
    text = est.describe(precision, name, capacity)
    if capacity is not None and est.total > capacity:
        advice = [
            "--lora-r 16" if not t.lora_r else None,
            "--precision bf16" if precision.weights != torch.bfloat16 else None,
            "--gradient-checkpointing" if not gradient_checkpointing else None,
            f"a smaller --batch-tokens (now {t.batch_tokens})",
            "more processes do not help: each holds the whole model (DDP)",
        ]
        raise TrainingError(
            f"this run does not fit: it needs about {est.total / GiB:.1f} GiB per process and "
            f"{name} has {capacity / GiB:.1f} GiB.\n{text}\n"
            f"Try {', '.join(a for a in advice if a)}; --no-memory-check tries anyway."
        )
    return text
