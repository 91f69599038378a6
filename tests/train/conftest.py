"""Fixtures of the trainer's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.train.synthetic import write_dataset


@pytest.fixture(scope="session")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The synthetic dataset (read-only: do not modify)."""
    return write_dataset(tmp_path_factory.mktemp("synthetic") / "ds")
