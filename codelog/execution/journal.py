"""A judging run's journal: each result appended as it arrives, so an interrupted run resumes.

`codelog judge --out X` keeps `.X.judging` beside X while it runs: a header line naming the
run (source, tests, options) and the journal's format, then one JSON line per judged program,
in input order. Verdicts are handed out in input order, so the journal always holds the first
programs of the input: a re-run of the same command takes the first `resumed` programs'
results from it, a line at a time, and judges the rest. The finished run has written X
(atomically, as every output) and removes the journal.

Each result is keyed on what was judged (`key_of`: for the judge, a digest of the program's
code and language and of its problem's tests and limits). A resumed run computes the key of
each program it reads and uses a journaled result only while the keys agree: from the first
program whose code or tests changed since the interruption, it drops the rest of the journal
(`rewind`) and judges again. A journal of format 1 (codelog before issue 33: results without
keys) is refused with a line saying so; `--force` starts over.

The header carries codelog's mark, as codelog's Parquet files do: a file at that path without
it, or a symbolic link, is not codelog's and is replaced only with --force (the link itself,
never what it points to). A line cut short by a kill is dropped; a whole line that is not a
result is an error naming it.

What a verdict is keyed on lives here too, once for `codelog judge` and `codelog eval`:
`verdict_key` (a program's code and language, its problem's `problem_key`), and `VerdictKeys`,
which computes each problem's part once. So does the one read-back loop both resume through,
`read_back`: the journal's verdicts used in input order while each key agrees with its
program's; from the first that differs, that program and the rest are judged again.

The API other runs journal through (`codelog eval` too): `journal_path`, `key_of`,
`problem_key`, `verdict_key`, `VerdictKeys`, `read_back(journal, programs, key, use,
check=)` (ReadBack: used, changed, rest), `Journal(path, header, force=)` with `.resumed`,
`resumed_records()` (Entry: line, key, record), `append(record, key=)`, `rewind(n)`,
`records()`, `close()`, `remove()`.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from codelog.errors import CodelogError, OutputError

if TYPE_CHECKING:  # types only: the journal reads a program's fields, never judges one
    from codelog.execution.judge import Program
    from codelog.execution.testcases import Problem

MARK = "codelog judge journal"
FORMAT = 2  # 2: every result carries the key of what was judged; 1 (no "format"): none


def journal_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.judging")


def key_of(*parts: Any) -> str:
    """A digest of `parts` (JSON-able values; dataclasses as their fields): what a result is
    keyed on, so it is reused only for the same work."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=_plain)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return repr(value)


def problem_key(problem: Problem | None) -> str:
    """A digest of what the judge reads of a problem: its tests, limits and rules, not its
    statement or name (None: no such problem)."""
    if problem is None:
        return key_of(None)
    judged = dataclasses.asdict(problem)
    return key_of({k: v for k, v in judged.items() if k not in ("statement", "name")})


def verdict_key(program: Program, problem: str) -> str:
    """What a verdict is keyed on in the journal: the program's code and language, and its
    problem's `problem_key`."""
    return key_of(program.language, program.code, problem)


class VerdictKeys:
    """Each program's `verdict_key`, called on the program: its problem's part (`problem_key`
    of `problems[program.problem_id]`) computed once per problem."""

    def __init__(self, problems: Mapping[str, Problem]) -> None:
        self.problems = problems
        self._problem_keys: dict[str, str] = {}

    def __call__(self, program: Program) -> str:
        pid = program.problem_id
        if pid not in self._problem_keys:
            self._problem_keys[pid] = problem_key(self.problems.get(pid))
        return verdict_key(program, self._problem_keys[pid])


class Entry(NamedTuple):
    """A journaled result: its line in the journal, its key and the result itself."""

    line: int
    key: str
    record: dict[str, Any]


class ReadBack(NamedTuple):
    """What `read_back` did: the verdicts of the first `used` programs came from the
    journal; `rest` are the programs left to judge, in input order, starting with `changed`,
    the first program whose key differs from its journaled verdict's (None: none did)."""

    used: int
    changed: Program | None
    rest: Iterator[Program]


class Journal:
    """The journal of one run, described by `header` (JSON-able): opened for appending,
    after reading back what an interrupted run of the same header left."""

    def __init__(self, path: Path, header: dict[str, Any], *, force: bool = False):
        self.path = path
        marked = {"journal": MARK, "format": FORMAT, **header}
        self.header = json.loads(json.dumps(marked))  # as read back
        self.resumed = 0  # results read back: those of the first programs of the input
        if path.is_symlink():
            if not force:
                raise OutputError(
                    f"{path}: is a symbolic link, not a journal codelog wrote; pass --force to "
                    "replace the link (what it points to is left alone)"
                )
            path.unlink()  # the link goes; its target is never opened
        good = self._whole_lines(force) if path.exists() else 0
        path.parent.mkdir(parents=True, exist_ok=True)
        if good:
            with path.open("r+b") as f:  # drop a line cut short by a kill
                f.truncate(good)
            self._file = _open_append(path)
        else:
            path.unlink(missing_ok=True)  # a new file, not a rewrite of whatever was there
            self._file = _open_append(path, create=True)
            self._write(self.header)

    def _whole_lines(self, force: bool) -> int:
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
            if header.get("format") != FORMAT:
                if force:
                    return 0
                raise CodelogError(
                    f"{self.path}: a journal of an earlier codelog (format "
                    f"{header.get('format', 1)}, its results are not keyed on the code and "
                    "tests judged), so it cannot be resumed safely; pass --force to judge "
                    "from the start"
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
            for n, line in enumerate(f, 2):
                if not line.endswith(b"\n"):  # cut short by a kill
                    break
                try:
                    record = json.loads(line)
                except ValueError:
                    break
                self._entry(n, record)  # a whole line that is not a result: an error
                self.resumed += 1
                good += len(line)
        return good

    def _entry(self, line: int, record: Any) -> Entry:
        if (
            not isinstance(record, dict)
            or not isinstance(record.get("key"), str)
            or not isinstance(record.get("result"), dict)
        ):
            raise CodelogError(
                f"{self.path} line {line}: not a journaled result (a JSON object with a key "
                "and a result is expected); the journal was edited or damaged: pass --force "
                "to judge from the start"
            )
        return Entry(line, record["key"], record["result"])

    def _write(self, record: Mapping[str, Any]) -> None:
        # one write per line, flushed: a kill leaves whole lines and at most one cut short
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def append(self, record: Mapping[str, Any], *, key: str) -> None:
        """A result, keyed on what was judged (`key_of`), after those before it in input
        order."""
        self._write({"key": key, "result": record})

    def records(self) -> Iterator[Entry]:
        """Every result in the journal, in the order written."""
        self._file.flush()
        with self.path.open(encoding="utf-8") as f:
            next(f)
            for n, line in enumerate(f, 2):
                yield self._entry(n, json.loads(line))

    def resumed_records(self) -> Iterator[Entry]:
        """The results read back, those of the first `resumed` programs of the input, in input
        order."""
        yield from itertools.islice(self.records(), self.resumed)

    def rewind(self, kept: int) -> None:
        """Keep the first `kept` results only: the others are judged again and appended."""
        self._file.close()
        with self.path.open("r+b") as f:
            size = len(f.readline())
            for _ in range(kept):
                size += len(f.readline())
            f.truncate(size)
        self.resumed = min(self.resumed, kept)
        self._file = _open_append(self.path)

    def close(self) -> None:
        self._file.close()

    def remove(self) -> None:
        self.close()
        os.unlink(self.path)


def read_back(
    journal: Journal,
    programs: Iterable[Program],
    key: Callable[[Program], str],
    use: Callable[[Program, Entry], None],
    *,
    check: Callable[[int, Program, Entry], None] | None = None,
) -> ReadBack:
    """The journal's verdicts, beside `programs` (the input, in order): each is `use`d while
    its key agrees with its program's `key`; the first program whose key differs and those
    after it are left to judge again, and the journal is rewound to the verdicts used.
    `check(n, program, entry)` sees each pair first (n counts from 1): it may refuse a
    journal of other programs by raising. Fewer programs than journaled verdicts (a smaller
    --limit) use as many as there are."""
    programs = iter(programs)  # what zip leaves of it is the rest
    used, changed = 0, None
    entries = journal.resumed_records()
    try:
        # the journal first: when it runs out, zip stops before taking a program
        for entry, program in zip(entries, programs):  # noqa: B905
            if check is not None:
                check(used + 1, program, entry)
            if entry.key != key(program):
                changed = program
                break
            use(program, entry)
            used += 1
    finally:
        entries.close()
    if used < journal.resumed:
        journal.rewind(used)
    rest = programs if changed is None else itertools.chain([changed], programs)
    return ReadBack(used, changed, rest)


def _open_append(path: Path, *, create: bool = False) -> Any:
    """The journal opened for appending, never through a symbolic link put in its place."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | (os.O_CREAT | os.O_EXCL if create else 0)
    try:
        fd = os.open(path, flags, 0o644)
    except FileExistsError:
        raise OutputError(f"{path}: appeared while the journal was being made") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link was put there after the check
            raise OutputError(f"{path}: is a symbolic link; pass --force to replace it") from None
        raise
    return os.fdopen(fd, "a", encoding="utf-8")
