"""The README's Python API block, saved verbatim as a script, runs: as `python api.py` and as
`python - < api.py`, with no `__main__` guard (the build's spawned workers must not re-run it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def api_block() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Python API") :]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found, "README: no python block under '## Python API'"
    return found.group(1)


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_the_readme_api_block_runs_as_a_plain_script(tmp_path, how):
    script = tmp_path / "api.py"
    script.write_text(api_block(), encoding="utf-8")
    command = [sys.executable, "api.py"] if how == "file" else [sys.executable, "-"]
    with open(script, "rb") as stdin:
        done = subprocess.run(
            command,
            cwd=tmp_path,
            stdin=stdin if how == "stdin" else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "BusyError" not in done.stderr
    assert (tmp_path / "datasets" / "codenet-python" / "manifest.json").is_file()
    assert (tmp_path / "datasets" / "codenet-python-repair" / "manifest.json").is_file()
