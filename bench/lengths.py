"""The data's real shape for the training benches (issue 45): CodeNet statement lengths and
solution lengths, so that synthetic steps have the prompt-to-solution ratio real groups have.

    PYTHONPATH=. python bench/lengths.py [--statements TAR] [--dataset DIR]   # rewrites the table

bench/lengths_table.py holds the quantiles (every 0.5%) of the characters of the 3,999 statements
of `codenet-problem-descriptions.tar.gz` (shared data; HTML tags stripped, entities decoded,
whitespace runs collapsed) and of the bundled sample's Python solutions. It is committed:
the GPU machine has neither file. bench/train_step.py tokenises real texts instead; bench/gpu.py
draws from this table and converts characters to tokens at CHARS_PER_TOKEN.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import runpy
import tarfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "bench" / "lengths_table.py"
STATEMENTS = Path("/work/shared/data/codenet-problem-descriptions.tar.gz")
# Characters per token of Qwen2.5's tokenizer on English statements and Python code: an
# assumption for bench/gpu.py (its random-weight models have no tokenizer), about what BPE
# tokenizers of 150k entries give on such text.
CHARS_PER_TOKEN = 3.5
TAG = re.compile(r"<[^>]*>")
SPACE = re.compile(r"\s+")


def strip_tags(page: str) -> str:
    return SPACE.sub(" ", html.unescape(TAG.sub(" ", page))).strip()


def statements(path: Path = STATEMENTS) -> list[str]:
    """The statements' text, tags stripped, in the archive's order (empty ones left out)."""
    out = []
    with tarfile.open(path) as tar:
        for member in tar:
            if member.isfile() and member.name.endswith(".html"):
                text = strip_tags(tar.extractfile(member).read().decode("utf-8", "replace"))
                if text:
                    out.append(text)
    return out


def build_sample(into: Path) -> Path:
    """The bundled sample built with the default recipe into `into` (the benches' rows)."""
    from codelog.builder import run_build
    from codelog.options import BuildOptions
    from codelog.recipe import load_recipe

    out = into / "codenet-python"
    options = BuildOptions(
        source="codenet", language="python", out=out, recipe=load_recipe(), show_progress=False
    )
    run_build(options)
    return out


def solutions(dataset: Path) -> list[str]:
    import pyarrow.parquet as pq

    return [
        c for c in pq.read_table(dataset / "solutions.parquet", columns=["code"])[0].to_pylist()
    ]


def table() -> dict[str, list[float]]:
    return runpy.run_path(str(TABLE))["QUANTILES"]


def draw_tokens(rng: np.random.Generator, kind: str, n: int, scale: float = 1.0) -> list[int]:
    """`n` token lengths drawn from the table's `kind` ("statement_chars" or
    "solution_chars"), at CHARS_PER_TOKEN, times `scale` (the smoke run's tiny shapes)."""
    quantiles = table()[kind]
    picked = np.interp(rng.random(n), np.linspace(0, 1, len(quantiles)), quantiles)
    return [max(1, int(c / CHARS_PER_TOKEN * scale)) for c in picked]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--statements", type=Path, default=STATEMENTS)
    parser.add_argument("--dataset", type=Path, help="a built sample (default: build one)")
    args = parser.parse_args()
    if args.dataset is None:
        import tempfile

        args.dataset = build_sample(Path(tempfile.mkdtemp()))
    measured = {
        "statement_chars": [len(s) for s in statements(args.statements)],
        "solution_chars": [len(c) for c in solutions(args.dataset)],
    }
    for k, v in measured.items():
        p25, p50, p75 = np.percentile(v, [25, 50, 75])
        print(f"{k}: {len(v)}, median {p50:.0f} (p25 {p25:.0f}, p75 {p75:.0f})")
    quantiles = {
        k: np.percentile(v, np.linspace(0, 100, 201)).round(1).tolist() for k, v in measured.items()
    }
    TABLE.write_text(
        f'"""Written by bench/lengths.py: quantiles (every 0.5%) of characters."""\n\n'
        f"QUANTILES = {json.dumps(quantiles)}\n"
    )


if __name__ == "__main__":
    main()
