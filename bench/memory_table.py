"""docs/training.md's memory table: the trainer's estimate (codelog.training.memory) for the
paper's models, GiB per GPU, 2,048-token sequences, `--batch-tokens 4096`.

    PYTHONPATH=. python bench/memory_table.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch
from transformers import Qwen2Config

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gpu import QWEN_05B, QWEN_7B

from codelog.recipe import Train
from codelog.training import memory

GiB = 1 << 30
AUTO = memory.Precision(torch.float32, True)  # --precision auto on a bf16 GPU
BF16 = memory.Precision(torch.bfloat16, True)
ROWS = [
    ("0.5B", QWEN_05B, 0, AUTO),
    ("0.5B", QWEN_05B, 0, BF16),
    ("0.5B", QWEN_05B, 16, BF16),
    ("7B", QWEN_7B, 0, AUTO),
    ("7B", QWEN_7B, 0, BF16),
    ("7B", QWEN_7B, 16, AUTO),
    ("7B", QWEN_7B, 16, BF16),
]


def main() -> None:
    print("| model | training | precision | weights + grads + AdamW | bf16 copies "
          "| activations + logits, `--batch-tokens 4096` | total | with `--gradient-checkpointing` |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for name, shape, lora_r, precision in ROWS:
        t = Train(lora_r=lora_r, max_length=2048, batch_tokens=4096)
        totals = []
        for checkpointing in (False, True):
            est = memory.estimate(Qwen2Config(**shape), t, precision,
                                  gradient_checkpointing=checkpointing, reference_copy=False,
                                  groups_per_rank=8)  # fmt: skip
            totals.append(est)
        p = totals[0].parts
        state = (
            f"{p['weights'] / GiB:.1f} + {p['gradients'] / GiB:.1f} + {p['optimizer'] / GiB:.1f}"
        )
        state += f" = {(p['weights'] + p['gradients'] + p['optimizer']) / GiB:.1f}"
        print(f"| {name} | {'LoRA' if lora_r else 'full'} | "
              f"{'auto (fp32 master)' if precision is AUTO and not lora_r else 'auto (fp32 base)' if precision is AUTO else 'bf16'} "
              f"| {state} | {p['bf16_copies'] / GiB:.1f} | {p['activations'] / GiB:.1f} + {p['logits'] / GiB:.1f} "
              f"| {totals[0].total / GiB:.1f} | {totals[1].total / GiB:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
