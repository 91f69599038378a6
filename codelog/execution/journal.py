"""A judging run's journal: each result appended as it arrives, so an interrupted run resumes.

`codelog judge --out X` keeps `.X.judging` beside X while it runs: a header line naming the
run (source, tests, options), then one JSON line per judged program, in input order. Verdicts
are handed out in input order, so the journal always holds the first programs of the input: a
re-run of the same command takes the first `resumed` programs' results from it, a line at a
time, and judges the rest. The finished run has written X (atomically, as every output) and
removes the journal.

The header carries codelog's mark, as codelog's Parquet files do: a file at that path without
it is not codelog's and is replaced only with --force. A line cut short by a kill is dropped.
"""

from __future__ import annotations

import itertools
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
        self.resumed = 0  # results read back: those of the first programs of the input
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
        """Byte length of the journal's whole lines (0: start over), their number in
        `self.resumed`; read a line at a time, as a journal can hold millions."""
        with self.path.open("rb") as f:
            first = f.readline()
            try:
                header = json.loads(first)
            except ValueError:
                header = None
            if not isinstance(header, dict) or header.get("journal") != MARK:
                if force:
                    return 0
                raise OutputError(
                    f"{self.path}: exists and codelog did not write it (no journal header); "
                    "pass --force to replace it"
                )
            if header != self.header:
                if force:
                    return 0
                differs = sorted(
                    k for k in {*header, *self.header} if header.get(k) != self.header.get(k)
                )
                raise CodelogError(
                    f"{self.path}: holds the verdicts of another judge run (its "
                    f"{', '.join(differs)} differ); re-run with the same arguments to resume "
                    "it, or pass --force to start over"
                )
            good = len(first) if first.endswith(b"\n") else 0
            for line in f:
                if not line.endswith(b"\n"):  # cut short by a kill
                    break
                try:
                    json.loads(line)
                except ValueError:
                    break
                self.resumed += 1
                good += len(line)
        return good

    def _write(self, record: dict[str, Any]) -> None:
        # one write per line, flushed: a kill leaves whole lines and at most one cut short
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def append(self, record: dict[str, Any]) -> None:
        """A result (a dict with its submission_id), after those before it in input order."""
        self._write(record)

    def records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number, result) of every result in the journal, in the order written."""
        self._file.flush()
        with self.path.open(encoding="utf-8") as f:
            next(f)
            for n, line in enumerate(f, 2):
                yield n, json.loads(line)

    def resumed_records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number, result) of the results read back, those of the first `resumed`
        programs of the input, in input order."""
        return itertools.islice(self.records(), self.resumed)

    def close(self) -> None:
        self._file.close()

    def remove(self) -> None:
        self.close()
        os.unlink(self.path)
