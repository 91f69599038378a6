"""JUnit XML test reports as CI export rows: one row per test case.

The convention (docs/ci-source.md has the full table):
- `submission_id`: a `submission_id` property, else `classname::name` (or `name` alone);
- `problem_id`: a `problem_id` property, else the test case's `classname`, else the name of
  the test suite around it;
- `status`: a `status` property, else `failure`, `error` or `skipped` when the test case has
  that child element, else `passed` (surefire's `flakyFailure`/`rerunFailure` children record
  retries and do not change the verdict);
- `cpu_time`: the `time` attribute (seconds, wall clock) in milliseconds;
- `date`: the `timestamp` of the nearest enclosing test suite, in Unix seconds (UTC if the
  timestamp has no offset);
- the code: a `code` property (inline) or a `code_path` property, else the test case's or the
  suite's `file` attribute (pytest writes the test module there: use it only when that file is
  the code being judged);
- `language`, `user_id`: properties of those names, the language defaulting to `--lang`.

A property is looked up on the test case first, then on each enclosing test suite, nearest
first; `codelog.<name>` wins over `<name>` at the same level, so Maven users can pass
`-Dcodelog.code_path=...` (surefire copies system properties into the suite's properties).

XML is parsed with the standard library (`xml.etree.ElementTree`; defusedxml is not a
dependency). Reports with a DOCTYPE or ENTITY declaration are refused: JUnit reports never
need one, and refusing them rules out entity-expansion attacks.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa

from codelog import schema
from codelog.errors import InputError

# The columns a JUnit report fills, typed as in codelog.schema.SUBMISSION.
COLUMNS = (
    "submission_id",
    "problem_id",
    "user_id",
    "date",
    "language",
    "filename_ext",
    "status",
    "cpu_time",
    "code",
    "code_path",
)
ROW_SCHEMA = pa.schema([schema.SUBMISSION.field(name) for name in COLUMNS])
_VERDICTS = {"failure": "failure", "error": "error", "skipped": "skipped"}


def parse_report(path: Path) -> ET.Element:
    """The root element of a JUnit report (<testsuites> or <testsuite>), or an InputError."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise InputError(path, "has a DOCTYPE or ENTITY declaration; JUnit reports need none")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line, _column = exc.position
        raise InputError(path, f"not well-formed XML: {exc.msg}", line=line) from None
    if root.tag not in ("testsuites", "testsuite"):
        raise InputError(path, f"not a JUnit report: the root element is <{root.tag}>")
    return root


def _properties(element: ET.Element) -> dict[str, str]:
    found: dict[str, str] = {}
    for block in element.findall("properties"):
        for prop in block.findall("property"):
            name = prop.get("name")
            if name:
                found[name] = prop.get("value", prop.text or "")
    return found


def _lookup(levels: Sequence[dict[str, str]], name: str) -> str | None:
    for props in levels:
        for key in (f"codelog.{name}", name):
            value = props.get(key)
            if value not in (None, ""):
                return value
    return None


def _cases(
    element: ET.Element, suites: tuple[ET.Element, ...], levels: tuple[dict[str, str], ...]
) -> Iterator[tuple[ET.Element, tuple[ET.Element, ...], tuple[dict[str, str], ...]]]:
    """Test cases in document order, with their enclosing suites and property levels (nearest first)."""
    if element.tag == "testsuite":
        suites = (element, *suites)
    levels = (_properties(element), *levels)
    for child in element:
        if child.tag == "testcase":
            yield child, suites, levels
        elif child.tag in ("testsuite", "testsuites"):
            yield from _cases(child, suites, levels)


def _seconds(value: str, where: str, attribute: str) -> float:
    try:
        return float(value.replace(",", ""))  # some surefire versions write 1,234.5
    except ValueError:
        raise InputError(where, f"{attribute}={value!r} is not a number of seconds") from None


def _unix_time(value: str, where: str) -> int:
    try:
        stamp = datetime.fromisoformat(value)
    except ValueError:
        raise InputError(where, f"timestamp={value!r} is not an ISO 8601 date-time") from None
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    return int(stamp.timestamp())


def _relative_to_root(code_path: str, code_root: Path | None) -> str:
    """Absolute paths inside the code root become relative; others are left for the checks."""
    if code_root is None or not os.path.isabs(code_path):
        return code_path
    absolute = os.path.normpath(code_path)
    if Path(absolute).is_relative_to(code_root):
        return os.path.relpath(absolute, code_root)
    return code_path  # stays absolute: rejected as path_escape


def junit_table(path: Path, *, language: str, code_root: Path | None = None) -> pa.Table:
    """One report's test cases as CI rows (ROW_SCHEMA + `testcase_no`, 1-based)."""
    root = parse_report(path)
    rows: dict[str, list] = {name: [] for name in (*COLUMNS, "testcase_no")}
    for number, (case, suites, suite_levels) in enumerate(_cases(root, (), ()), 1):
        where = f"{path} testcase {number}"
        name = case.get("name")
        if not name:
            raise InputError(where, "<testcase> has no name attribute")
        levels = (_properties(case), *suite_levels)
        classname = case.get("classname") or ""
        verdict = next((_VERDICTS[c.tag] for c in case if c.tag in _VERDICTS), "passed")
        timestamp = next((s.get("timestamp") for s in suites if s.get("timestamp")), None)
        seconds = _seconds(case.get("time"), where, "time") if case.get("time") else None
        code_path = _lookup(levels, "code_path") or case.get("file")
        code_path = code_path or next((s.get("file") for s in suites if s.get("file")), None)
        code = _lookup(levels, "code")
        if code is not None and _lookup(levels, "code_path") is None:
            code_path = None  # inline code beats the test file named by `file`
        if code_path is not None:
            code_path = _relative_to_root(code_path, code_root)
        rows["submission_id"].append(
            _lookup(levels, "submission_id") or (f"{classname}::{name}" if classname else name)
        )
        rows["problem_id"].append(
            _lookup(levels, "problem_id")
            or classname
            or next((s.get("name") for s in suites if s.get("name")), None)
        )
        rows["user_id"].append(_lookup(levels, "user_id"))
        rows["date"].append(_unix_time(timestamp, where) if timestamp else None)
        rows["language"].append(_lookup(levels, "language") or language)
        suffix = Path(code_path).suffix.lstrip(".") if code_path else ""
        rows["filename_ext"].append(suffix or None)
        rows["status"].append(_lookup(levels, "status") or verdict)
        rows["cpu_time"].append(round(seconds * 1000) if seconds is not None else None)
        rows["code"].append(code)
        rows["code_path"].append(code_path)
        rows["testcase_no"].append(number)
    return pa.Table.from_pydict(rows, schema=ROW_SCHEMA.append(pa.field("testcase_no", pa.int64())))


def convert_junit(
    reports: Sequence[Path],
    out: Path,
    *,
    language: str = "python",
    code_root: Path | None = None,
    inline: bool = False,
) -> int:
    """Write JUnit reports as one CI export (CSV, JSONL or Parquet by `out`'s suffix).

    Code paths in the reports are relative to `code_root` (default: the current directory);
    the export names them relative to its own directory, the default export root of
    `codelog build --source ci`. With `inline`, the code text goes into the export instead.
    Returns the number of rows written.
    """
    from codelog.ci_format import write_rows

    code_root = Path(os.path.abspath(code_root or Path.cwd()))
    out_dir = Path(os.path.abspath(out)).parent
    tables = []
    for report in reports:
        table = junit_table(report, language=language, code_root=code_root)
        codes, paths = table.column("code").to_pylist(), table.column("code_path").to_pylist()
        for i, path in enumerate(paths):
            if path is None:
                continue
            where = f"{report} testcase {table.column('testcase_no')[i].as_py()}"
            target = os.path.normpath(os.path.join(code_root, path))
            if inline:
                try:
                    codes[i] = Path(target).read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError) as exc:
                    raise InputError(where, f"cannot read code {target}: {exc}") from None
                paths[i] = None
                continue
            relative = os.path.relpath(target, out_dir)
            if relative == ".." or relative.startswith(".." + os.sep):
                raise InputError(
                    where,
                    f"code {target} is outside the export's directory {out_dir}; "
                    "write --out inside the code tree, or use --inline",
                )
            paths[i] = relative
        table = table.set_column(
            table.schema.get_field_index("code"), "code", pa.array(codes, pa.string())
        )
        table = table.set_column(
            table.schema.get_field_index("code_path"), "code_path", pa.array(paths, pa.string())
        )
        tables.append(table.drop_columns(["testcase_no"]))
    rows = pa.concat_tables(tables) if tables else ROW_SCHEMA.empty_table()
    write_rows(rows, out)
    return rows.num_rows
