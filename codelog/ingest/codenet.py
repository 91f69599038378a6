"""Project CodeNet: metadata CSVs + data/{problem}/{language}/{submission}.{ext} + statements.

DuckDB reads the metadata (CRLF, BOM and type quirks included) and does the per-row checks in
SQL; rows its CSV reader cannot parse are kept as `malformed_row` rejects with file and line.
Every physical line is one record, so one bad line never takes others with it. What no row can
be blamed for (a bad header, line breaks DuckDB cannot split) stops the build in either mode;
under on_error = "fail" so does the first bad row, named by file and line.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pyarrow as pa

from codelog import schema
from codelog.dialects import dialect_sql
from codelog.errors import InputError
from codelog.ingest.scan import SourceScan, locate_lines
from codelog.prompts import html_to_text
from codelog.recipe import Recipe
from codelog.sql import connect as sql_connect
from codelog.sql import literal

BUNDLED_ROOT = Path(__file__).resolve().parent.parent / "data" / "codenet-mini"

# IDs become path components: anything else could escape the data directory.
_ID_PATTERN = r"^[A-Za-z0-9_-]+$"
_EXT_PATTERN = r"^[A-Za-z0-9_+-]+$"


def _metadata_files(root: Path) -> list[Path]:
    meta = root / "metadata"
    if not meta.is_dir():
        raise InputError(root, "not a CodeNet root: no metadata/ directory")
    files = sorted(p for p in meta.glob("p*.csv") if p.name != "problem_list.csv")
    if not files:
        raise InputError(meta, "no per-problem metadata CSVs (pNNNNN.csv)")
    return files


def _check_header(path: Path, expected: tuple[str, ...]) -> None:
    try:
        with path.open("rb") as f:
            first = f.readline()
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        header = first.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        raise InputError(path, "header is not UTF-8", line=1) from None
    columns = tuple(c.strip() for c in header.split(","))
    if columns != expected:
        missing = [c for c in expected if c not in columns]
        extra = [c for c in columns if c not in expected]
        detail = []
        if missing:
            detail.append(f"missing {missing}")
        if extra:
            detail.append(f"unexpected {extra}")
        if not detail:
            detail.append("columns out of order")
        raise InputError(
            path, f"wrong header ({'; '.join(detail)}); expected {','.join(expected)}", line=1
        )


# Malformed rows a metadata file may have: past it the file is not metadata with a few bad rows
# but something else (garbage, a wrong file), and the build refuses it before the reader that
# keeps each bad row (DuckDB's store_rejects: ~10 KB a row, 9 GB for a million) runs at all.
MALFORMED_LIMIT = 10_000


def _read_csv(files: list[Path], columns: tuple[str, ...], rejects_table: str) -> str:
    # One record per physical line (quote=''): with RFC quoting a single stray quote makes the
    # reader swallow the rest of the file into one value. Quoted fields are undone in `_meta_view`.
    names = ", ".join(literal(str(f)) for f in files)
    cols = ", ".join(f"{literal(c)}: 'VARCHAR'" for c in columns)
    return (
        f"read_csv([{names}], header=true, columns={{{cols}}}, filename=true, "
        f"store_rejects=true, rejects_table={literal(rejects_table)}, "
        f"rejects_scan={literal(rejects_table + '_scan')}, quote='', escape='', "
        "delim=',', auto_detect=false, null_padding=false, strict_mode=true)"
    )


# A whole field in RFC 4180 quotes, inner quotes doubled: "a ""b""" -> a "b".
_QUOTED = r'^"([^"]|"")*"$'


def _meta_view(reader: str) -> str:
    """The metadata rows, quoted fields unquoted, with the column (if any) that makes a row
    malformed although the CSV reader split it: a NUL byte (DuckDB reads it as a character)
    or a stray quote."""
    fields, checks = [], []
    for c in schema.CODENET_COLUMNS:
        fields.append(
            f"CASE WHEN contains({c}, '\"') AND regexp_matches({c}, '{_QUOTED}') "
            f"THEN replace({c}[2:-2], '\"\"', '\"') ELSE {c} END AS {c}"
        )
        checks.append(f"WHEN contains({c}, chr(0)) THEN 'NUL byte in column {c}'")
        checks.append(
            f"WHEN contains({c}, '\"') AND NOT regexp_matches({c}, '{_QUOTED}') "
            f"THEN 'stray quote in column {c}'"
        )
    return (
        f"SELECT {', '.join(fields)}, filename, CASE {' '.join(checks)} END AS malformed_detail "
        f"FROM {reader}"
    )


def _refuse_garbage(files: list[Path], columns: tuple[str, ...]) -> None:
    """InputError naming the file and its first malformed line as soon as a metadata file has
    more than MALFORMED_LIMIT rows that are not `columns` comma-separated fields (the reader
    reads with quote='', so a comma always separates). One streaming pass, stopped early:
    memory stays flat whatever the file holds."""
    commas = len(columns) - 1
    for path in files:
        bad, first = 0, None
        with path.open("rb") as f:
            next(f, None)  # the header, checked already
            for number, line in enumerate(f, start=2):
                if line.count(b",") != commas and line.strip():
                    bad += 1
                    first = first or number
                    if bad > MALFORMED_LIMIT:
                        raise InputError(
                            path,
                            f"not CodeNet metadata: more than {MALFORMED_LIMIT:,} malformed rows "
                            f"(not {len(columns)} comma-separated fields), the first here",
                            line=first,
                        )


def _language_rows(con: duckdb.DuckDBPyConnection, language: str) -> tuple[str, int, list[str]]:
    """CodeNet's spelling of `language` (matching is case-insensitive: the spelling with the
    most rows, or the name as given when none has rows), its rows in all spellings, and their
    problem ids that are plain names (the others are bad_id rejects), in one scan.

    The CSV reader checks (and rejects on) only the columns a query reads, so this scan hashes
    every column of every row (a count of a column does not decode it: a byte that is not
    UTF-8 would pass): then it rejects exactly the rows the batches scan will.
    """
    every_column = ", ".join(schema.CODENET_COLUMNS)
    # The hash is fetched, not only computed: DuckDB drops an aggregate no one reads, and with
    # it the reading of the columns it hashes.
    spellings = con.execute(
        "SELECT language, count(*), list(DISTINCT problem_id ORDER BY problem_id) "
        f"FILTER (WHERE regexp_full_match(problem_id, '{_ID_PATTERN}')), "
        f"max(hash({every_column})) FROM meta GROUP BY language "
        "HAVING lower(language) = lower($1) ORDER BY count(*) DESC, language",
        [language],
    ).fetchall()
    if not spellings:
        return language, 0, []
    ids = sorted({pid for _, _, found, _ in spellings for pid in found or ()})
    return spellings[0][0], sum(n for _, n, _, _ in spellings), ids


def _line_break_fault(path: Path) -> int | None:
    """The first line whose line break differs from the header's (\\n or \\r\\n), or that holds
    a carriage return elsewhere: DuckDB's CSV reader stops on those instead of rejecting a row."""
    try:
        with path.open("rb") as f:
            crlf = None
            for number, line in enumerate(f, start=1):
                body = line.removesuffix(b"\n")
                ends_crlf = body.endswith(b"\r")
                if crlf is None:
                    crlf = ends_crlf
                if b"\r" in body.removesuffix(b"\r") or (
                    line.endswith(b"\n") and ends_crlf != crlf
                ):
                    return number
                if not line.endswith(b"\n") and ends_crlf:  # a lone CR ends the file
                    return number
    except OSError:
        return None
    return None


def _read_error(exc: duckdb.Error, fallback: Path) -> InputError:
    """A CSV error DuckDB raised instead of storing a reject, naming the file and, if it can
    be found, the line."""
    text = str(exc)
    named = re.search(r"^\s*file = (.+)$", text, re.MULTILINE)
    path = Path(named.group(1).strip()) if named else fallback
    line = _line_break_fault(path) if path.is_file() else None
    if line is not None:
        return InputError(
            path,
            "stray carriage return or mixed line breaks (use \\n or \\r\\n throughout)",
            line=line,
        )
    return InputError(path, f"cannot read: {text.splitlines()[0] if text else exc!r}")


def _problems(
    con: duckdb.DuckDBPyConnection, root: Path, wanted: list[str], on_error: str
) -> pa.Table:
    """Names, limits and statements of `wanted` problems. A problem_list.csv row that cannot be
    read leaves that problem without name and limits (on_error = "reject"), or stops the build."""
    plist = root / "metadata" / "problem_list.csv"
    rows: dict[str, dict] = {}
    if plist.exists():
        _check_header(plist, schema.PROBLEM_LIST_COLUMNS)
        names = ", ".join(f"{literal(c)}: 'VARCHAR'" for c in schema.PROBLEM_LIST_COLUMNS)
        try:
            table = con.sql(
                f"SELECT * FROM read_csv({literal(str(plist))}, header=true, columns={{{names}}}, "
                "auto_detect=false, delim=',', quote='\"', escape='\"', strict_mode=true, "
                "null_padding=false, store_rejects=true, rejects_table='plist_rejects', "
                "rejects_scan='plist_rejects_scan')"
            ).fetchall()
            bad = con.sql(
                "SELECT line, column_name, error_message FROM plist_rejects ORDER BY line LIMIT 1"
            ).fetchall()
        except duckdb.Error as exc:
            raise _read_error(exc, plist) from None
        if bad and on_error == "fail":
            line, column, message = bad[0]
            raise InputError(plist, message, line=line, column=column)
        for rec in table:
            rows[rec[0]] = dict(zip(schema.PROBLEM_LIST_COLUMNS, rec, strict=True))
    out: dict[str, list] = {name: [] for name in schema.PROBLEM.names}
    for pid in wanted:
        rec = rows.get(pid, {})
        statement = root / "problem_descriptions" / f"{pid}.html"
        prompt = None
        if statement.exists():
            try:
                html = statement.read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                raise InputError(statement, f"cannot read: {exc.strerror or exc}") from None
            prompt = html_to_text(html)
        out["problem_id"].append(pid)
        out["name"].append(rec.get("name"))
        out["dataset"].append(rec.get("dataset"))
        out["time_limit"].append(_int_or_none(rec.get("time_limit")))
        out["memory_limit"].append(_int_or_none(rec.get("memory_limit")))
        out["rating"].append(rec.get("rating"))
        out["tags"].append(rec.get("tags"))
        out["complexity"].append(rec.get("complexity"))
        out["prompt"].append(prompt)
        out["split"].append(None)  # assigned by the build, from the problems that keep solutions
    return pa.table(out, schema=schema.PROBLEM)


def _csv_fields(csv_line: str | None) -> list[str]:
    """Best-effort fields of a line the CSV reader rejected (it may be cut or ragged)."""
    try:
        return next(csv.reader([(csv_line or "").replace("\0", "")]), [])
    except csv.Error:
        return (csv_line or "").split(",")


def _may_be_language(csv_line: str | None, language: str) -> bool:
    """False only when a rejected line plainly names another language: it belongs to that build."""
    fields = _csv_fields(csv_line)
    language_at = schema.CODENET_COLUMNS.index("language")
    if len(fields) <= language_at or not fields[language_at].strip():
        return True
    return fields[language_at].strip().lower() == language.lower()


def _fail_on_duplicate_ids(con: duckdb.DuckDBPyConnection, language: str, root: Path) -> None:
    """on_error = "fail": a submission id listed twice stops the build, naming both places."""
    dup = con.execute(
        "SELECT submission_id, list(filename ORDER BY filename) FROM meta "
        "WHERE lower(language) = lower(?) GROUP BY submission_id HAVING count(*) > 1 "
        "ORDER BY submission_id LIMIT 1",
        [language],
    ).fetchall()
    if not dup:
        return
    submission_id, files = dup[0]
    places = [
        (path, line)
        for path in dict.fromkeys(files)  # one file may list the id twice
        for line in locate_lines(path, submission_id)
    ]
    if len(places) < 2:  # quoted or otherwise disguised: name the files without lines
        places = [(path, None) for path in files]
    (path, line), first = places[-1], places[0]
    first_at = Path(first[0]).name + (f" line {first[1]}" if first[1] else "")
    raise InputError(
        path,
        f"duplicate submission id {submission_id!r} (first listed in {first_at})",
        line=line,
        column="submission_id",
    )


CLUSTERS_FILE = Path("derived") / "duplicates" / "identical_problem_clusters"


def read_problem_clusters(path: Path) -> list[tuple[str, ...]]:
    """CodeNet's identical-problem clusters: one cluster a line, problem ids separated by commas
    (e.g. "p00527,p00590"). Blank lines are skipped; an id that is not a plain name stops the
    build, naming file and line (it is curated data, not a row to reject)."""
    clusters = []
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read: {exc}") from None
    for number, line in enumerate(text.splitlines(), start=1):
        ids = tuple(part.strip() for part in line.split(",") if part.strip())
        if not ids:
            continue
        bad = [pid for pid in ids if not re.fullmatch(_ID_PATTERN.strip("^$"), pid)]
        if bad:
            raise InputError(path, f"not a problem id: {bad[0]!r}", line=number)
        clusters.append(ids)
    return clusters


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def scan_codenet(root: Path | None, language: str, recipe: Recipe) -> SourceScan:
    """Scan a CodeNet tree (the bundled sample when `root` is None) for one language."""
    root = (root or BUNDLED_ROOT).resolve()
    files = _metadata_files(root)
    for f in files:
        _check_header(f, schema.CODENET_COLUMNS)
    _refuse_garbage(files, schema.CODENET_COLUMNS)

    con = sql_connect()
    con.execute(
        f"CREATE VIEW meta AS {_meta_view(_read_csv(files, schema.CODENET_COLUMNS, 'malformed'))}"
    )
    try:
        lang, rows_total, problem_ids = _language_rows(con, language)
        # Every scan appends its rejects, and a short row gets one per missing column: keep
        # one per line (the first column at fault), and only rows of this build's language.
        malformed = [
            row
            for row in con.sql(
                "SELECT f.file_path, e.line, e.column_name, e.error_type, e.error_message, e.csv_line "
                "FROM malformed e JOIN malformed_scan f USING (scan_id, file_id) "
                "QUALIFY row_number() OVER (PARTITION BY f.file_path, e.line, "
                "CASE WHEN e.line IS NULL THEN e.csv_line END "
                "ORDER BY e.column_idx, e.error_type, e.scan_id) = 1 "
                "ORDER BY f.file_path, e.line, e.csv_line"
            ).fetchall()
            if _may_be_language(row[5], lang)
        ]
        if recipe.limits.on_error == "fail":
            _fail_on_duplicate_ids(con, lang, root)
    except duckdb.Error as exc:
        raise _read_error(exc, root / "metadata") from None
    if malformed and recipe.limits.on_error == "fail":
        path, line, column, _kind, message, _ = malformed[0]
        raise InputError(path, message, line=line, column=column)

    problem_ids = problem_ids or []
    problems = _problems(con, root, problem_ids, recipe.limits.on_error)
    data_root = root / "data"
    clusters_file: Path | None = root / CLUSTERS_FILE
    if not clusters_file.is_file():
        clusters_file = None
    clusters = read_problem_clusters(clusters_file) if clusters_file else []

    def batches(batch_size: int) -> Iterator[pa.RecordBatch]:
        query = f"""
            SELECT
                submission_id, problem_id, nullif(user_id, '') AS user_id,
                try_cast(date AS BIGINT) AS date, language,
                nullif(original_language, '') AS original_language,
                {dialect_sql("language", "nullif(original_language, '')", codenet=True)} AS dialect,
                nullif(filename_ext, '') AS filename_ext, status,
                CASE WHEN try_cast(cpu_time AS BIGINT) >= 0 THEN try_cast(cpu_time AS BIGINT) END AS cpu_time,
                CASE WHEN try_cast(memory AS BIGINT) >= 0 THEN try_cast(memory AS BIGINT) END AS memory,
                try_cast(code_size AS BIGINT) AS code_size,
                nullif(accuracy, '') AS accuracy,
                NULL::VARCHAR AS code,
                {literal(str(data_root))} || '/' || problem_id || '/' || language || '/'
                    || submission_id || '.' || filename_ext AS code_path,
                'metadata/' || parse_filename(filename) AS origin,
                CASE
                    WHEN malformed_detail IS NOT NULL THEN 'malformed_row'
                    WHEN NOT regexp_full_match(coalesce(submission_id, ''), '{_ID_PATTERN}')
                      OR NOT regexp_full_match(coalesce(problem_id, ''), '{_ID_PATTERN}')
                      OR NOT regexp_full_match(coalesce(filename_ext, ''), '{_EXT_PATTERN}')
                      OR NOT regexp_full_match(language, '[^/\\\\]+') OR language IN ('.', '..')
                        THEN 'bad_id'
                    WHEN problem_id <> parse_filename(filename, true) THEN 'problem_mismatch'
                    WHEN coalesce(status, '') = '' THEN 'missing_status'
                    WHEN (nullif(date, '') IS NOT NULL AND try_cast(date AS BIGINT) IS NULL)
                      OR (nullif(cpu_time, '') IS NOT NULL AND try_cast(cpu_time AS BIGINT) IS NULL)
                      OR (nullif(memory, '') IS NOT NULL AND try_cast(memory AS BIGINT) IS NULL)
                      OR (nullif(code_size, '') IS NOT NULL AND try_cast(code_size AS BIGINT) IS NULL)
                        THEN 'bad_value'
                END AS reject_reason,
                CASE
                    WHEN malformed_detail IS NOT NULL THEN malformed_detail
                    WHEN NOT regexp_full_match(coalesce(submission_id, ''), '{_ID_PATTERN}')
                      OR NOT regexp_full_match(coalesce(problem_id, ''), '{_ID_PATTERN}')
                      OR NOT regexp_full_match(coalesce(filename_ext, ''), '{_EXT_PATTERN}')
                      OR NOT regexp_full_match(language, '[^/\\\\]+') OR language IN ('.', '..')
                        THEN 'submission_id, problem_id, language and filename_ext must be plain names: '
                             || coalesce(submission_id, 'NULL') || ', ' || coalesce(problem_id, 'NULL')
                             || ', ' || coalesce(language, 'NULL') || ', ' || coalesce(filename_ext, 'NULL')
                    WHEN problem_id <> parse_filename(filename, true)
                        THEN 'problem_id ' || coalesce(problem_id, 'NULL') || ' in ' || parse_filename(filename)
                    WHEN (nullif(date, '') IS NOT NULL AND try_cast(date AS BIGINT) IS NULL)
                      OR (nullif(cpu_time, '') IS NOT NULL AND try_cast(cpu_time AS BIGINT) IS NULL)
                      OR (nullif(memory, '') IS NOT NULL AND try_cast(memory AS BIGINT) IS NULL)
                      OR (nullif(code_size, '') IS NOT NULL AND try_cast(code_size AS BIGINT) IS NULL)
                        THEN 'not an integer: date=' || coalesce(date, '') || ' cpu_time=' || coalesce(cpu_time, '')
                             || ' memory=' || coalesce(memory, '') || ' code_size=' || coalesce(code_size, '')
                END AS reject_detail
            FROM meta
            WHERE lower(language) = lower({literal(lang)})
        """
        try:
            for batch in con.sql(query).to_arrow_reader(batch_size):
                yield batch.cast(schema.SUBMISSION) if batch.schema != schema.SUBMISSION else batch
        except duckdb.Error as exc:  # the first scan read every column: not expected here
            raise _read_error(exc, root / "metadata") from None
        if malformed:
            yield _malformed_batch(malformed, root)

    return SourceScan(
        language=lang,
        problems=problems,
        rows_total=rows_total + len(malformed),
        root=root,
        batches=batches,
        input_files=[
            *files,
            root / "metadata" / "problem_list.csv",
            *sorted((root / "problem_descriptions").glob("*.html")),
            *([clusters_file] if clusters_file else []),
        ],
        source_dirs=[data_root / pid / lang for pid in problem_ids],
        problem_clusters=clusters,
        clusters_file=clusters_file,
    )


def _malformed_batch(malformed: list[tuple], root: Path) -> pa.RecordBatch:
    """Rows DuckDB's CSV reader could not parse, as rejects that name file and line."""
    cols: dict[str, list] = {name: [None] * len(malformed) for name in schema.SUBMISSION.names}
    for i, (path, line, column, kind, message, csv_line) in enumerate(malformed):
        first = _csv_fields(csv_line)
        cols["submission_id"][i] = first[0] if first and first[0] else None
        cols["problem_id"][i] = first[1] if len(first) > 1 else None
        rel = Path(path).resolve().relative_to(root) if Path(path).is_absolute() else Path(path)
        cols["origin"][i] = f"{rel}:{line}"
        cols["reject_reason"][i] = "malformed_row"
        where = f" column '{column}'" if column else ""
        cols["reject_detail"][i] = f"{kind.lower()}{where}: {message}"
    return pa.RecordBatch.from_pydict(cols, schema=schema.SUBMISSION)
