"""Every figure the README and docs/ quote from the bundled sample is the code's own output
(scripts/figures.py): a change that moves a figure fails here until `--write` is run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import figures  # noqa: E402


@pytest.fixture(scope="module")
def sample(sample_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> figures.Sample:
    return figures.Sample(tmp_path_factory.mktemp("figures"), default=sample_dataset)


def test_every_published_figure_matches_the_code(sample: figures.Sample) -> None:
    problems = figures.check(sample)
    assert problems == [], "\n\n".join(problems)


def test_every_figure_is_published_and_every_block_names_one() -> None:
    published = {
        found["name"]
        for path in figures.documents()
        for found in figures.blocks(path.read_text(encoding="utf-8"))
    }
    assert published == set(figures.FIGURES)


def test_a_drifted_figure_fails_the_check_with_a_diff(
    sample: figures.Sample, tmp_path: Path
) -> None:
    doc = tmp_path / "page.md"
    right = figures.FIGURES["split"](sample)
    wrong = right.replace("train problems", "training problems")
    doc.write_text(
        f"On the sample: <!-- figures:split -->{wrong}<!-- /figures:split -->.\n"
        "<!-- figures:no-such -->1<!-- /figures:no-such -->\n",
        encoding="utf-8",
    )
    problems = figures.check(sample, [doc])
    assert len(problems) == 2
    assert "page.md: figure 'split' differs from the code" in problems[0]
    assert f"+{right}" in problems[0] and f"-{wrong}" in problems[0]
    assert "page.md: no figure named 'no-such'" in problems[1]
    # --write puts the code's text back, and the check then passes
    doc.write_text(f"x <!-- figures:split -->{wrong}<!-- /figures:split --> y\n")
    assert figures.write(sample, [doc]) == ["page.md:split"]
    assert doc.read_text() == f"x <!-- figures:split -->{right}<!-- /figures:split --> y\n"
    assert figures.check(sample, [doc]) == []


def test_judged_counts_are_any_number_without_the_judge_and_nothing_else_is() -> None:
    generated = f"{figures.ANY_NUMBER} of 749 (accepted {figures.ANY_NUMBER}/399)"
    assert figures._matches(generated, "748 of 749 (accepted 399/399)")
    assert not figures._matches(generated, "748 of 837 (accepted 399/399)")
    assert not figures._matches(generated, "748 of 749 (accepted 400/400)")
    assert not figures._matches(generated, "many of 749 (accepted 399/399)")
