"""CI runs, test logs and judge exports: rows already in the submission schema.

An export is one or many CSV, JSON Lines or Parquet files (globs allowed) whose rows follow
`codelog/schemas/submission.schema.json`: CodeNet's metadata columns plus the code, inline
(`code`) or as a path relative to the export root (`code_path`). `--source junit` reads JUnit
XML reports instead and turns each test case into such a row (codelog.ingest.ci.junit).

Checks come in two kinds, as in the CodeNet source:
- file level (unreadable file, missing required or unknown column, a Parquet column of the
  wrong type): always an InputError naming the file and column;
- row level (a value of the wrong type, an empty required value, no code or both kinds of
  code, a code_path leaving the export root, a duplicate submission_id): with
  `[limits] on_error = "fail"` the first one in input order stops the build before any work,
  naming file, line (row for Parquet) and column; with "reject" the row flows on with
  `reject_reason` set so the manifest still accounts for it. Duplicates are then left to the
  grouping SQL (`duplicate_submission_id`, the first in input order is kept), and a symlink out
  of the root is caught by staging's realpath check (`path_escape`).

DuckDB reads every file (one scan per file, so `WITH ORDINALITY` numbers its rows) and the
row checks are SQL over a typed view of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import pyarrow as pa

from codelog import schema
from codelog.ci_format import SUBMISSION_FIELDS
from codelog.errors import InputError
from codelog.ingest.ci.formats import REQUIRED, duckdb_message, expand_inputs, file_label
from codelog.ingest.ci.problems import bare_problems, read_problems
from codelog.ingest.ci.validate import (
    InputTable,
    batch_sql,
    checked_sql,
    first_error,
    open_table,
    typed_sql,
)
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.recipe import Recipe
from codelog.sql import connect as sql_connect


def scan_ci(options: BuildOptions) -> tuple[SourceScan, Path]:
    """Scan a CI export (`--source ci`) or JUnit reports (`--source junit`) for one language.

    Returns the scan and the export root, the directory every code_path must stay inside.
    """
    if not options.inputs:
        raise InputError("--input", f"--source {options.source} needs at least one --input file")
    files = expand_inputs(options.inputs)
    if options.problems_file is not None and not options.problems_file.is_file():
        raise InputError(
            options.problems_file, "not a file (--problems of --source ci is one file)"
        )
    root_given = options.root if options.root is not None else files[0].parent
    if not root_given.is_dir():
        raise InputError(root_given, "export root is not a directory")
    root = root_given.resolve()
    scan, root = _scan(
        files,
        root,
        options.language,
        options.recipe,
        problems_file=options.problems_file,
        junit=options.source == "junit",
    )
    if options.tests_file is not None:
        scan.tests = _tests(options.tests_file, scan.problems.column("problem_id"))
        scan.input_files.append(options.tests_file)
    return scan, root


def _tests(path: Path, problem_ids: pa.ChunkedArray) -> Callable[[], Iterator[pa.RecordBatch]]:
    """`--tests`: the problems' tests, a Parquet file with codelog.schema.TEST's columns (a
    dataset's own tests.parquet), streamed, the scan's problems only. Checked here, before
    any work: a file without those columns is one error line."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    try:
        names = set(pq.ParquetFile(path).schema_arrow.names)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(path, f"--tests: not a Parquet file ({exc})") from None
    missing = [n for n in schema.TEST.names if n not in names]
    if missing:
        raise InputError(
            path,
            f"--tests needs the columns {', '.join(schema.TEST.names)} (a dataset's "
            f"tests.parquet); missing: {', '.join(missing)}",
        )
    wanted = pc.unique(problem_ids)

    def batches() -> Iterator[pa.RecordBatch]:
        for batch in pq.ParquetFile(path).iter_batches(batch_size=64, columns=schema.TEST.names):
            batch = batch.cast(schema.TEST) if batch.schema != schema.TEST else batch
            yield batch.filter(pc.is_in(batch.column("problem_id"), value_set=wanted))

    return batches


def _scan(
    files: list[Path],
    root: Path,
    language: str,
    recipe: Recipe,
    *,
    problems_file: Path | None = None,
    junit: bool = False,
) -> tuple[SourceScan, Path]:
    from codelog.ingest.ci.junit import junit_table

    con = sql_connect()
    tables: list[InputTable] = []
    for file_no, path in enumerate(files):
        label = file_label(path, root)
        if junit:
            arrow = junit_table(path, language=language, code_root=root)
            name = f"junit_{file_no}"
            con.register(name, arrow)
            types = {
                f.name: ("BIGINT" if f.type == pa.int64() else "VARCHAR")
                for f in arrow.schema
                if f.name in SUBMISSION_FIELDS
            }
            sql = typed_sql(file_no, name, "testcase_no", "arrow", types, SUBMISSION_FIELDS)
            tables.append(InputTable(path, label, "arrow", "testcase", sql))
        else:
            tables.append(
                open_table(con, file_no, path, label, SUBMISSION_FIELDS, REQUIRED, submissions=True)
            )

    # One narrow pass over each file: counts, problems, code directories, the row verdicts.
    con.execute(
        "CREATE TEMP TABLE keys (file_no INTEGER, row_no BIGINT, submission_id VARCHAR, "
        "problem_id VARCHAR, language VARCHAR, reason VARCHAR, err_column VARCHAR, "
        "detail VARCHAR, code_path VARCHAR)"
    )
    for table in tables:
        try:
            con.execute(
                "INSERT INTO keys SELECT file_no, row_no, submission_id, problem_id, language, "
                "reason, err_column, detail, CASE WHEN reason IS NULL THEN code_path END "
                f"FROM ({checked_sql(table, language, root)})"
            )
        except duckdb.Error as exc:
            raise InputError(table.label, f"cannot read: {duckdb_message(exc)}") from None
    spelled = con.execute(
        "SELECT language FROM keys WHERE lower(language) = lower(?) GROUP BY language "
        "ORDER BY count(*) DESC, language LIMIT 1",
        [language],
    ).fetchall()
    lang = spelled[0][0] if spelled else language
    rows_total = con.execute("SELECT count(*) FROM keys").fetchall()[0][0]
    if recipe.limits.on_error == "fail":
        error = first_error(con, tables)
        if error is not None:
            raise error
    problem_ids = [
        r[0]
        for r in con.execute(
            "SELECT DISTINCT problem_id FROM keys WHERE problem_id IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
    code_dirs = [
        root / r[0] if r[0] else root
        for r in con.execute(
            "SELECT DISTINCT regexp_replace(code_path, '/?[^/]*$', '') FROM keys "
            "WHERE code_path IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
    con.execute("DROP TABLE keys")
    if problems_file is not None:
        problems = read_problems(con, problems_file, root, problem_ids)
    else:
        problems = bare_problems(problem_ids)

    def batches(batch_size: int) -> Iterator[pa.RecordBatch]:
        for table in tables:  # one file at a time: each scan keeps its rows in file order
            reader = con.sql(batch_sql(table, lang, root)).to_arrow_reader(batch_size)
            for batch in reader:
                yield batch.cast(schema.SUBMISSION) if batch.schema != schema.SUBMISSION else batch

    return (
        SourceScan(
            language=lang,
            problems=problems,
            rows_total=rows_total,
            batches=batches,
            root=root,
            input_files=[*files, *([problems_file] if problems_file is not None else [])],
            source_dirs=code_dirs,
        ),
        root,
    )
