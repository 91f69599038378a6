"""Helpers the benchmark tests share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def one_row_file(path: Path, row: dict[str, Any]) -> Path:
    """`path`, written as a JSONL file of one benchmark row."""
    path.write_text(json.dumps(row) + "\n")
    return path
