"""Ruff's findings on the kept Python solutions, as columns: one Ruff run per build.

Asked for by the recipe's `[lint] enabled = true` (off by default, so a default build never
pays for it). After the grouping SQL has decided which rows are kept, their code is written
into a scratch directory as `<seq>.py` files and Ruff checks the whole directory in one
process (`ruff check --isolated --output-format json-lines`, its own threads, no per-row
Python), one process per CHUNK_BYTES of code. DuckDB then reads Ruff's
output and folds it into one row per solution:

- `lint_codes`: the rule code of every finding, sorted (a code repeats once per finding;
  `invalid-syntax` is Ruff's code for a program it cannot parse, e.g. Python 2 prints);
- `lint_findings`: their number; `lint_error`, `lint_warning`, `lint_style`: the number per
  severity, by the recipe's `[lint.severity]` (rule-code prefix -> severity, the longest
  matching prefix decides, "style" when none does);
- with `[lint_reward] enabled`: `lint_penalty` = min(cap, weight * n) where n counts the
  findings whose code starts with one of `categories`, and `reward_lint` = reward - lint_penalty
  (the combined unit-test + Ruff reward of the RLVR seed, with the judge's verdict as the test).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import duckdb
import pyarrow as pa

from codelog.errors import CodelogError
from codelog.recipe import LINT_SEVERITIES, Recipe
from codelog.sql import literal

FILES_PER_DIR = 4096
# Code written out (RAM-backed when possible) before Ruff runs over it. Ruff's peak memory is
# about 10x the code it checks at once (2.5 GiB for 180 MB of code): chunks keep it flat.
CHUNK_BYTES = 48 << 20
LINT_FIELDS = [
    pa.field("lint_findings", pa.int64()),
    pa.field("lint_error", pa.int64()),
    pa.field("lint_warning", pa.int64()),
    pa.field("lint_style", pa.int64()),
    pa.field("lint_codes", pa.list_(pa.string())),
]
REWARD_FIELDS = [pa.field("lint_penalty", pa.float64()), pa.field("reward_lint", pa.float64())]


def lint_fields(recipe: Recipe) -> list[pa.Field]:
    """The columns a build with this recipe adds to `solutions` (none unless [lint] is on)."""
    if not recipe.lint.enabled:
        return []
    return LINT_FIELDS + (REWARD_FIELDS if recipe.lint_reward.enabled else [])


def ruff_binary() -> str:
    """The Ruff executable: the `ruff` package's own binary, else one on PATH."""
    try:
        from ruff.__main__ import find_ruff_bin

        return str(find_ruff_bin())
    except (ImportError, FileNotFoundError):
        found = shutil.which("ruff")
        if found:
            return found
    raise CodelogError(
        "[lint] enabled = true needs Ruff: pip install 'codelog[lint]' (or ruff itself)"
    )


def run_ruff(files_dir: Path, recipe: Recipe, output: Path) -> None:
    """One `ruff check` over every file under `files_dir`; its findings, one JSON object per
    line, go to `output`."""
    lint = recipe.lint
    command = [
        ruff_binary(),
        "check",
        "--isolated",  # the user's ruff.toml / pyproject must not change the columns
        "--no-cache",
        "--no-respect-gitignore",  # a dataset under a git-ignored directory is still linted
        "--exit-zero",
        "--output-format",
        "json-lines",
        "--select",
        ",".join(lint.select),
        *(["--ignore", ",".join(lint.ignore)] if lint.ignore else []),
        str(files_dir),
    ]
    with output.open("wb") as out:
        result = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, check=False)
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip()[-2000:]
        raise CodelogError(f"ruff failed (exit {result.returncode}): {message}")


def lint_solutions(
    con: duckdb.DuckDBPyConnection, recipe: Recipe, scratch: Path, language: str
) -> None:
    """Replace table `fate` with fate + the lint columns of its kept rows (NULL for rejects).

    Needs tables `fate` (seq, reward, reason) and `staged` (seq, code) in `con`."""
    if language.lower() != "python":
        raise CodelogError(f"[lint] runs Ruff, which checks Python; this build is {language}")
    findings = scratch / "lint.jsonl"
    findings.write_bytes(b"")
    # Ruff reads files, and creating small files on a disk costs ~1.5 ms each here (40x what
    # it costs in RAM): the files go to a RAM-backed directory when there is one, a bounded
    # amount at a time; one Ruff process per CHUNK_BYTES of code.
    files = Path(tempfile.mkdtemp(prefix="codelog-lint-", dir=_fast_dir(scratch)))
    try:
        pending = 0
        reader = con.sql(
            "SELECT f.seq, s.code FROM fate f JOIN staged s USING (seq) WHERE f.reason IS NULL"
        ).to_arrow_reader(8192)
        for batch in reader:
            for seq, code in zip(
                batch.column("seq").to_pylist(), batch.column("code").to_pylist(), strict=True
            ):
                directory = files / f"{seq // FILES_PER_DIR:06d}"
                directory.mkdir(exist_ok=True)
                data = (code or "").encode("utf-8")
                (directory / f"{seq}.py").write_bytes(data)
                pending += len(data) + 1
                if pending >= CHUNK_BYTES:
                    _lint_chunk(files, recipe, findings)
                    pending = 0
        if any(files.iterdir()):
            _lint_chunk(files, recipe, findings)
    finally:
        shutil.rmtree(files, ignore_errors=True)
    _register(con, recipe, findings)


def _fast_dir(fallback: Path) -> Path:
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and os.access(shm, os.W_OK) else fallback


def _lint_chunk(files: Path, recipe: Recipe, findings: Path) -> None:
    """Ruff over the files written so far, its findings appended to `findings`; then the
    files go."""
    part = findings.with_suffix(".part")
    run_ruff(files, recipe, part)
    with findings.open("ab") as out, part.open("rb") as found:
        shutil.copyfileobj(found, out)
    part.unlink()
    for directory in list(files.iterdir()):
        shutil.rmtree(directory)


def _register(con: duckdb.DuckDBPyConnection, recipe: Recipe, findings: Path) -> None:
    severity = pa.table(
        {
            "prefix": list(recipe.lint.severity),
            "severity": [recipe.lint.severity[p] for p in recipe.lint.severity],
        }
    )
    con.register("lint_severity", severity)
    if os.path.getsize(findings):
        source = (
            f"SELECT regexp_extract(filename, '([0-9]+)\\.py$', 1)::BIGINT AS seq, code "
            f"FROM read_json({literal(findings)}, format = 'newline_delimited', "
            "columns = {filename: 'VARCHAR', code: 'VARCHAR'})"
        )
    else:
        source = "SELECT NULL::BIGINT AS seq, NULL::VARCHAR AS code WHERE FALSE"
    counts = ", ".join(
        f"count(*) FILTER (WHERE severity = '{s}') AS lint_{s}" for s in LINT_SEVERITIES
    )
    con.execute(
        f"""CREATE TABLE lint_findings AS
        WITH found AS ({source}),
        classed AS (
            SELECT f.seq, f.code, coalesce(arg_max(s.severity, length(s.prefix)), 'style') AS severity
            FROM (SELECT row_number() OVER () AS k, * FROM found) f
            LEFT JOIN lint_severity s ON starts_with(f.code, s.prefix)
            GROUP BY f.k, f.seq, f.code
        )
        SELECT seq, count(*) AS lint_findings, {counts}, list(code ORDER BY code) AS lint_codes
        FROM classed GROUP BY seq"""
    )
    lr = recipe.lint_reward
    reward = ""
    if lr.enabled:
        wanted = " OR ".join(f"starts_with(c, {literal(p)})" for p in lr.categories) or "FALSE"
        penalty = (
            f"least({float(lr.cap)}, {float(lr.weight)} * "
            f"len(list_filter(coalesce(l.lint_codes, []), lambda c: {wanted})))"
        )
        reward = (
            f", CASE WHEN f.reason IS NULL THEN {penalty} END AS lint_penalty"
            f", CASE WHEN f.reason IS NULL THEN f.reward - {penalty} END AS reward_lint"
        )
    kept = "CASE WHEN f.reason IS NULL THEN coalesce(l.{0}, 0) END AS {0}"
    columns = ", ".join(
        kept.format(c) for c in ("lint_findings", *(f"lint_{s}" for s in LINT_SEVERITIES))
    )
    con.execute(
        f"""CREATE TABLE fate_linted AS
        SELECT f.*, {columns},
               CASE WHEN f.reason IS NULL THEN coalesce(l.lint_codes, []) END AS lint_codes
               {reward}
        FROM fate f LEFT JOIN lint_findings l USING (seq)"""
    )
    con.execute("DROP TABLE fate")
    con.execute("ALTER TABLE fate_linted RENAME TO fate")
