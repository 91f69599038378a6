"""What the client tests share: the exports of the bundled sample, the tiny model (with a chat
template, for the `--chat` exports) and codelog's reward function, each made once a session.

Every trainer runs on CPU with nothing downloaded (HF_HUB_OFFLINE): the model is built here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import codelog
from codelog.execution.trl_reward import CodeReward

trl = pytest.importorskip("trl")
datasets = pytest.importorskip("datasets")

# A ChatML-like template whose turns end with the tiny tokenizer's end-of-sequence token.
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|endoftext|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@pytest.fixture(autouse=True)
def _offline_on_one_thread(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Nothing downloaded; torch on one thread: a step of the tiny model is too small to
    share, and on a busy machine (the suite runs two workers on 2 cores) two threads wait on
    each other (a KTO step: 19 s wall on two threads, 6 s on one, under load 15)."""
    import torch

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    # load_dataset's cache (the docs' lines name none) under the test's own directory
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", str(tmp_path / "hf-datasets"))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def tiny(sample_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model and its tokenizer, trained on the sample, with a chat template."""
    from codelog.training import data, models

    base = models.build_tiny(
        data.open_dataset(sample_dataset), tmp_path_factory.mktemp("tiny") / "model", 2048, 0
    )
    tokenizer = models.load_tokenizer(str(base))
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(base)
    return base


@pytest.fixture(scope="session")
def tokenizer(tiny: Path) -> Any:
    from codelog.training import models

    return models.load_tokenizer(str(tiny))


@pytest.fixture(scope="session")
def export(sample_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """export(fmt, chat=False) -> the directory `codelog export` wrote (train.parquet and
    test.parquet), made once per (fmt, chat)."""
    root = tmp_path_factory.mktemp("exports")
    made: dict[tuple[str, bool], Path] = {}

    def get(fmt: str, chat: bool = False) -> Path:
        if (fmt, chat) not in made:
            out = root / f"{fmt}{'-chat' if chat else ''}"
            codelog.export(sample_dataset, fmt, out, chat=chat)
            made[fmt, chat] = out
        return made[fmt, chat]

    return get


@pytest.fixture(scope="session")
def reward(sample_dataset: Path) -> CodeReward:
    with CodeReward.from_dataset(sample_dataset, workers=2) as reward:
        yield reward


def load_split(out: Path, split: str = "train", rows: int | None = None) -> Any:
    """A split of an export as a trainer's user loads it (the docs' line), first `rows` only."""
    loaded = datasets.load_dataset(
        "parquet",
        data_files={"train": str(out / "train.parquet"), "test": str(out / "test.parquet")},
        split=split,
    )
    return loaded.select(range(rows)) if rows is not None else loaded


def cpu_args(config: type, out: Path, **changes: Any) -> Any:
    """A TRL config for one short run on CPU that writes and reports nothing."""
    return config(
        output_dir=str(out),
        use_cpu=True,
        bf16=False,
        report_to=[],
        save_strategy="no",
        logging_steps=1,
        seed=0,
        dataloader_num_workers=0,
        gradient_checkpointing=False,  # TRL's default recomputes the forward: nothing to save
        **changes,
    )


def trained_text(tokenizer: Any, ids: Any, mask: Any) -> str:
    """The text of the tokens a loss covers: `ids` where `mask` is true."""
    return tokenizer.decode(ids[mask.bool()].tolist())


def prompt_text(prompt: Any) -> str:
    """A row's prompt as text, plain or as messages."""
    return prompt if isinstance(prompt, str) else "".join(m["content"] for m in prompt)
