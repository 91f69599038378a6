"""A judging run's journal: each result appended as it arrives, so an interrupted run resumes.

`codelog judge --out X` keeps `.X.judging` beside X while it runs: a header line naming the
run (source, tests, options), then one JSON line per judged submission id, in input order. A
re-run of the same command reads it back and judges only the ids it lacks; the finished run
writes X whole from it (atomically, as every output) and removes the journal.

The header carries codelog's mark, as codelog's Parquet files do: a file at that path without
it is not codelog's and is replaced only with --force. A line cut short by a kill is dropped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError, OutputError

MARK = "codelog judge journal"


def journal_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.judging")


class Journal:
    """The journal of one run, described by `header` (JSON-able): opened for appending,
    after reading back what an interrupted run of the same header left."""

    def __init__(self, path: Path, header: dict[str, Any], *, force: bool = False):
        self.path = path
        self.header = json.loads(json.dumps({"journal": MARK, **header}))  # as read back
        self.resumed: set[str] = set()  # the submission ids already judged
        good = self._read_back(force) if path.exists() or path.is_symlink() else 0
        path.parent.mkdir(parents=True, exist_ok=True)
        if good:
            with path.open("r+b") as f:  # drop a line cut short by a kill
                f.truncate(good)
            self._file = path.open("a", encoding="utf-8")
        else:
            self._file = path.open("w", encoding="utf-8")
            self._write(self.header)

    def _read_back(self, force: bool) -> int:
        """Byte length of the journal's whole lines (0: start over), their submission ids in
        `self.resumed`."""
        with self.path.open("rb") as f:
            data = f.read()
        lines = data.split(b"\n")
        try:
            header = json.loads(lines[0])
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("journal") != MARK:
            if force:
                return 0
            raise OutputError(
                f"{self.path}: exists and codelog did not write it (no journal header); pass "
                "--force to replace it"
            )
        if header != self.header:
            if force:
                return 0
            differs = sorted(
                k for k in {*header, *self.header} if header.get(k) != self.header.get(k)
            )
            raise CodelogError(
                f"{self.path}: holds the verdicts of another judge run (its {', '.join(differs)} "
                "differ); re-run with the same arguments to resume it, or pass --force to start over"
            )
        good = len(lines[0]) + 1
        for line in lines[1:-1]:  # the last element follows the last newline: cut short or ''
            try:
                record = json.loads(line)
            except ValueError:
                break
            self.resumed.add(record["submission_id"])
            good += len(line) + 1
        return good

    def _write(self, record: dict[str, Any]) -> None:
        # one write per line, flushed: a kill leaves whole lines and at most one cut short
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def append(self, record: dict[str, Any]) -> None:
        """A result (a dict with its submission_id), after those before it in input order."""
        self._write(record)

    def records(self) -> Iterator[dict[str, Any]]:
        """Every result in the journal, in the order written."""
        self._file.flush()
        with self.path.open(encoding="utf-8") as f:
            next(f)
            for line in f:
                yield json.loads(line)

    def close(self) -> None:
        self._file.close()

    def remove(self) -> None:
        self.close()
        os.unlink(self.path)
