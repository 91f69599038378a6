"""Shared fixtures: the bundled sample, built once per test session."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from codelog.builder import BuildReport, run_build
from codelog.options import BuildOptions
from codelog.recipe import load_recipe

# The property tests draw the same examples on every run, so `make test` (CI's gate) passes or
# fails the same way for the same code; HYPOTHESIS_PROFILE=explore draws new ones each run, to
# look for failures (and keeps them in .hypothesis/ to replay).
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# torch computes on one thread in each test process, and in the processes tests start (they
# inherit this; it is set before torch is imported). make test runs two pytest processes on
# two cores: with torch's default of a thread per core in each, their threads spun waiting on
# one another, and training tests ran 4-5x slower in the suite than alone (the RLOO margin
# test: 42-52 s against 10 s). Tests of threading set their own (tests/train/test_reproducible).
os.environ["OMP_NUM_THREADS"] = "1"
if "torch" in sys.modules:
    sys.modules["torch"].set_num_threads(1)

# Tests that train a model run for minutes each on 2 cores. Under pytest-xdist (make test) they
# go first, so they overlap the many short tests instead of being the last ones left running
# while the other worker idles; the order among them, and among the rest, is unchanged.
LONG_FIRST = ("tests/train/", "tests/execution/test_training_eval.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: each collects, in the same order
        items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))


def build_sample(out: Path, *, seed: int = 0, workers: int = 2, **overrides) -> BuildReport:
    options = BuildOptions(
        source="codenet",
        language="python",
        out=out,
        recipe=overrides.pop("recipe", None) or load_recipe(),
        seed=seed,
        workers=workers,
        show_progress=False,
        **overrides,
    )
    return run_build(options)


@pytest.fixture(scope="session")
def sample_build(tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    return build_sample(tmp_path_factory.mktemp("sample") / "codenet-python")


@pytest.fixture(scope="session")
def sample_dataset(sample_build: BuildReport) -> Path:
    """Path of the bundled sample built with the default recipe (read-only: do not modify)."""
    return sample_build.out


@pytest.fixture(params=["c", "python"])
def hash_backend(request, monkeypatch):
    """Runs a test once with the C canonical walk and once with the Python reference."""
    import codelog.stage.ast_hash

    if request.param == "c" and not codelog.stage.ast_hash.ACCELERATED:
        pytest.skip("codelog.stage._canon was not built")
    monkeypatch.setattr(codelog.stage.ast_hash, "ACCELERATED", request.param == "c")
    return request.param
