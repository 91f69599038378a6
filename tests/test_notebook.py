"""notebooks/explore.ipynb runs top to bottom (with nbclient), so it never rots."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "explore.ipynb"
KERNEL = "codelog-test-python"


@pytest.fixture
def kernel_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A kernel spec, in a temporary Jupyter path, that runs this interpreter (the venv's):
    nothing installed by hand or found in the user's Jupyter directories is relied on."""
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec.joinpath("kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": KERNEL, "language": "python"})
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    return KERNEL


def test_explore_notebook_runs_and_shows_its_findings(kernel_name, tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), (
        "commit the notebook without outputs"
    )
    client = nbclient.NotebookClient(
        nb,
        kernel_name=kernel_name,
        timeout=300,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, on any error

    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 1, "the outcome-mix and group-size figure"
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any('class="diff"' in h for h in html), "the side-by-side diff of a group"
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "rows in" in text and "edits apart" in text
