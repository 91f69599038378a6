from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "contamination"


@pytest.fixture(scope="session")
def codenet_statements() -> dict[str, str]:
    """81 real CodeNet statements (HTML) by problem id (tests/fixtures/contamination/NOTICE.md)."""
    out = {}
    with tarfile.open(FIXTURE / "codenet-statements.tar.gz") as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".html"):
                data = tar.extractfile(member).read().decode("utf-8")  # type: ignore[union-attr]
                out[Path(member.name).stem] = data
    return out
