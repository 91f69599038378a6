"""Several processes, on torch's own stack: torch.distributed + DistributedDataParallel.

Launched by `torchrun` (or `accelerate launch`), which sets RANK, WORLD_SIZE, LOCAL_RANK,
MASTER_ADDR and MASTER_PORT; without them the run is one process and nothing here does anything.
Backend: NCCL on GPUs, gloo on CPU.

How the work is split, so that W processes compute what one process would:
- every rank draws the step's groups with the same seeded sampler (an index lookup, no I/O),
  and takes the groups at positions rank, rank + W, ... (`shard`): deterministic by seed;
- each rank weights its sequences by the *global* group count and multiplies its loss by W,
  since DDP averages gradients over ranks: the all-reduced gradient is the one-process gradient;
- step metrics are summed over ranks (`reduce_sum`); rank 0 alone writes metrics.jsonl and
  checkpoints; every rank reads the latest checkpoint on --resume (the run directory must be on
  a filesystem all nodes share).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel


@dataclass(frozen=True)
class Dist:
    rank: int
    world: int
    local_rank: int
    device: torch.device
    owned: bool = False  # this process group was started here, so it is closed here

    @property
    def main(self) -> bool:
        return self.rank == 0

    @property
    def enabled(self) -> bool:
        return self.world > 1


# A step's micro-batches have new shapes each time (length-grouped, up to max_length). With the
# caching allocator's fixed-size segments, new shapes keep asking CUDA for new blocks; expandable
# segments grow one mapping instead, PyTorch's advice for varying shapes (bench/gpu.py measures
# the step with and without). The allocator reads it at its first allocation; a user's own
# PYTORCH_CUDA_ALLOC_CONF wins.
CUDA_ALLOCATOR = "expandable_segments:True"


def prefer_expandable_segments() -> None:
    os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", CUDA_ALLOCATOR)


def init() -> Dist:
    """The process's place in the run, from torchrun's environment; joins the process group."""
    prefer_expandable_segments()
    world = int(os.environ.get("WORLD_SIZE", "1"))
    cuda = torch.cuda.is_available()
    if world == 1:
        return Dist(0, 1, 0, torch.device("cuda" if cuda else "cpu"))
    rank, local_rank = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
    device = torch.device("cuda", local_rank) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    owned = not dist.is_initialized()
    if owned:
        dist.init_process_group("nccl" if cuda else "gloo", rank=rank, world_size=world)
    return Dist(rank, world, local_rank, device, owned)


def close(d: Dist) -> None:
    if d.owned and dist.is_initialized():
        dist.destroy_process_group()


def shard(d: Dist, n: int) -> list[int]:
    """This rank's positions among n items: rank, rank + W, rank + 2W, ..."""
    return list(range(d.rank, n, d.world))


def barrier(d: Dist) -> None:
    if d.enabled:
        dist.barrier()


def reduce_sum(d: Dist, values: Sequence[float]) -> list[float]:
    """Element-wise sums over ranks (float64, so counts stay exact)."""
    if not d.enabled:
        return list(values)
    tensor = torch.tensor(list(values), dtype=torch.float64, device=d.device)
    dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
    return tensor.tolist()


def reduce_array(d: Dist, values: torch.Tensor, op: str = "sum") -> torch.Tensor:
    """A tensor reduced over ranks ("sum" or "max"), on the CPU."""
    if not d.enabled:
        return values
    tensor = values.to(d.device)
    dist.all_reduce(tensor, op=dist.ReduceOp.SUM if op == "sum" else dist.ReduceOp.MAX)
    return tensor.cpu()


def wrap(d: Dist, model: nn.Module) -> nn.Module:
    """The model under DDP when there are several processes."""
    if not d.enabled:
        return model
    ids = [d.local_rank] if d.device.type == "cuda" else None
    # gradients as views into DDP's buckets: no second copy of them (see memory.py)
    return DistributedDataParallel(model, device_ids=ids, gradient_as_bucket_view=True)


def unwrap(model: nn.Module) -> nn.Module:
    return model.module if isinstance(model, DistributedDataParallel) else model


@contextlib.contextmanager
def accumulating(model: nn.Module, last: bool) -> Iterator[None]:
    """Gradients of a micro-batch that is not the step's last stay local (DDP's no_sync): the
    step's gradients are all-reduced once, with the last backward."""
    if isinstance(model, DistributedDataParallel) and not last:
        with model.no_sync():
            yield
    else:
        yield
