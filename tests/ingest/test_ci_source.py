"""`--source ci`: CI / test-log exports in the submission schema (CSV, JSON Lines, Parquet)."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import jsonschema
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from codelog.builder import run_build
from codelog.cli import cli
from codelog.dataset.open import open_dataset
from codelog.errors import InputError
from codelog.ingest.ci.export import export_codenet_as_ci
from codelog.ingest.ci.scan import scan_ci
from codelog.ingest.codenet import BUNDLED_ROOT
from codelog.options import BuildOptions
from codelog.recipe import Limits, load_recipe

SCHEMAS = Path(__file__).resolve().parents[2] / "codelog" / "schemas"
SUBMISSION_SCHEMA = json.loads((SCHEMAS / "submission.schema.json").read_text())
GCD = "a, b = map(int, input().split())\nwhile b:\n    a, b = b, a % b\nprint(a)\n"
WRONG = "a, b = map(int, input().split())\nprint(min(a, b))\n"


def wrong(sid: str) -> str:
    """A wrong program of its own (distinct AST) for each submission id."""
    return f"a, b = map(int, input().split())\nprint(min(a, b) + {sum(map(ord, sid))})\n"


FAIL = dataclasses.replace(load_recipe(), limits=Limits(on_error="fail"))


def row(sid: str, status: str = "passed", **fields) -> dict:
    base = {"submission_id": sid, "problem_id": "gcd", "status": status, "language": "Python"}
    if "code" not in fields and "code_path" not in fields:
        base["code"] = GCD if status == "passed" else wrong(sid)
    return base | fields


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def write_csv(path: Path, rows: list[dict], header: list[str] | None = None) -> Path:
    header = header or list(dict.fromkeys(k for r in rows for k in r))
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, header)
        writer.writeheader()
        writer.writerows(rows)
    return path


def options(inputs, tmp_path: Path, recipe=None, **overrides) -> BuildOptions:
    return BuildOptions(
        source=overrides.pop("source", "ci"),
        language=overrides.pop("language", "python"),
        out=overrides.pop("out", tmp_path / "dataset"),
        recipe=recipe or load_recipe(),
        inputs=tuple(str(p) for p in inputs),
        workers=1,
        show_progress=False,
        **overrides,
    )


def scanned(inputs, tmp_path: Path, recipe=None, **overrides) -> list[dict]:
    scan, _root = scan_ci(options(inputs, tmp_path, recipe, **overrides))
    rows = [r for b in scan.batches(64) for r in b.to_pylist()]
    assert len(rows) == scan.rows_total
    return rows


def build(inputs, tmp_path: Path, recipe=None, **overrides):
    return run_build(options(inputs, tmp_path, recipe, **overrides))


def reasons(rows: list[dict]) -> dict[str, str | None]:
    return {r["submission_id"]: r["reject_reason"] for r in rows}


# -- round trip -------------------------------------------------------------------------------


# Reasons the CodeNet source gives before any code is read: such rows are not exported.
CODENET_SOURCE_REASONS = (
    "malformed_row",
    "bad_id",
    "problem_mismatch",
    "missing_status",
    "bad_value",
)
GROUPING_REASONS = "'duplicate', 'correct_cap', 'no_contrast', 'unknown_status', 'unscorable'"


def dataset_tables(path: Path) -> dict[str, list]:
    con = open_dataset(path)
    return {
        "solutions": con.sql(
            "SELECT submission_id, problem_id, language, ast_hash, outcome, reward, is_correct, "
            "dup_count, date, cpu_time, memory, code_size, accuracy, code FROM solutions ORDER BY ALL"
        ).fetchall(),
        "groups": con.sql(
            "SELECT * EXCLUDE (outcome_mix), outcome_mix::VARCHAR FROM groups ORDER BY ALL"
        ).fetchall(),
        "problems": con.sql("SELECT * FROM problems ORDER BY ALL").fetchall(),
        # A detail naming the code's place differs (file path vs export row); the rest must not.
        "rejects": con.sql(
            f"SELECT submission_id, reason, CASE WHEN reason IN ({GROUPING_REASONS}) THEN detail END "
            "FROM rejects ORDER BY ALL"
        ).fetchall(),
    }


@pytest.mark.parametrize(("fmt", "inline"), [("csv", True), ("jsonl", False), ("parquet", True)])
def test_codenet_sample_exported_as_ci_builds_the_same_dataset(sample_build, tmp_path, fmt, inline):
    export, problems = tmp_path / f"export.{fmt}", tmp_path / f"problems.{fmt}"
    rows, root = export_codenet_as_ci(export, inline_code=inline, problems_out=problems)
    by_reason = sample_build.manifest["counts"]["rejects_by_reason"]
    not_exported = sum(by_reason.get(r, 0) for r in CODENET_SOURCE_REASONS)
    assert rows == sample_build.manifest["counts"]["rows_in"] - not_exported
    args = ["build", "--source", "ci", "--input", str(export), "--root", str(root)]
    args += ["--problems", str(problems), "--out", str(tmp_path / "ci"), "--workers", "1"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output

    expected, got = dataset_tables(sample_build.out), dataset_tables(tmp_path / "ci")
    assert len(expected["solutions"]) > 500 and len(expected["groups"]) >= 6
    for table in ("solutions", "groups", "problems"):
        assert got[table] == expected[table], table
    exported = [r for r in expected["rejects"] if r[1] not in CODENET_SOURCE_REASONS]
    assert got["rejects"] == exported


def test_exported_rows_follow_the_json_schema(tmp_path):
    export_codenet_as_ci(tmp_path / "export.jsonl")
    validator = jsonschema.Draft202012Validator(SUBMISSION_SCHEMA)
    lines = (tmp_path / "export.jsonl").read_text().splitlines()
    assert len(lines) > 1000
    for line in lines:
        validator.validate(json.loads(line))


def test_schemas_ship_in_the_package_and_the_top_level_link_points_at_them():
    top = Path(__file__).resolve().parents[2] / "schemas"
    for name in ("submission.schema.json", "problems.schema.json"):
        assert (top / name).resolve() == (SCHEMAS / name).resolve()
        jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMAS / name).read_text()))
    assert SUBMISSION_SCHEMA["required"] == ["submission_id", "problem_id", "status", "language"]


# -- the JSON Schema and the row checks agree -------------------------------------------------

# Rows start valid and get up to three changes: a field set to another value (right or wrong
# type, empty, out of range, an escaping path) or removed. About half stay valid.
_any = st.one_of(
    st.none(),
    st.sampled_from(["", "x y", 1.5, True, -(2**70), 2**70]),
    st.just({"a": 1}),
    st.just([1]),
)
_FIELDS = {
    "submission_id": st.one_of(st.just("s2"), _any),
    "problem_id": st.one_of(st.just("p2"), _any),
    "status": st.one_of(st.sampled_from(["failed", "Accepted"]), _any),
    "language": st.one_of(st.sampled_from(["python", "Java"]), _any),
    "user_id": st.one_of(st.just("u1"), _any),
    "date": st.one_of(st.integers(-(2**63), 2**63 - 1), st.just(3.0), _any),
    "cpu_time": st.one_of(st.integers(-5, 5000), _any),
    "accuracy": st.one_of(st.just("3/4"), _any),
    "code": st.one_of(st.just("print(2)\n"), _any),
    "code_path": st.one_of(
        st.sampled_from(["a.py", "dir/b.py", "..a/b.py", "a..b.py"]),
        st.sampled_from(["/etc/passwd", "../x.py", "a/../../x.py", "a/.."]),
        _any,
    ),
}
_BASES = (
    {
        "submission_id": "s",
        "problem_id": "p",
        "status": "passed",
        "language": "Python",
        "code": "print(1)\n",
    },
    {
        "submission_id": "s",
        "problem_id": "p",
        "status": "passed",
        "language": "Python",
        "code_path": "src/a.py",
    },
)


_EDGE_VALUES = [
    ("date", 3.0),
    ("date", "1700000000"),
    ("date", 2**63),
    ("date", -(2**63)),
    ("cpu_time", True),
    ("cpu_time", -1),
    ("user_id", ""),
    ("user_id", 7),
    ("submission_id", ""),
    ("status", None),
    ("language", "Java"),
    ("problem_id", {"a": 1}),
]


@st.composite
def submissions(draw) -> dict:
    record = dict(draw(st.sampled_from(_BASES)))
    for name in draw(st.lists(st.sampled_from(list(_FIELDS)), max_size=3, unique=True)):
        if draw(st.integers(0, 4)) == 0:
            record.pop(name, None)
        else:
            record[name] = draw(_FIELDS[name])
    return record


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(submissions(), min_size=1, max_size=30))
@example(  # every rule at least once, whatever the random draws
    [
        _BASES[1] | {"code_path": path}
        for path in ["/etc/passwd", "../x.py", "a/../../x.py", "a/..", "..a/b.py", "a..b.py", ""]
    ]
    + [_BASES[0] | {name: value} for name, value in _EDGE_VALUES]
    + [_BASES[0] | {"code_path": "a.py"}, _BASES[1] | {"code": ""}, _BASES[1] | {"code": None}]
    + [{"submission_id": "s", "problem_id": "p", "status": "passed", "language": "Java"}]
)
def test_a_row_is_rejected_exactly_when_the_json_schema_refuses_it(tmp_path, records):
    validator = jsonschema.Draft202012Validator(SUBMISSION_SCHEMA)
    # a first, valid row gives the file every required column, so no check is file-level
    anchor = row("anchor", code_path="a.py")
    rows = scanned([write_jsonl(tmp_path / "export.jsonl", [anchor, *records])], tmp_path)
    assert len(rows) == len(records) + 1
    for record, result in zip([anchor, *records], rows, strict=True):
        valid = validator.is_valid(record)
        verdict = result["reject_reason"]
        assert (verdict in (None, "other_language")) == valid, (
            record,
            verdict,
            result["reject_detail"],
        )


# -- file-level problems: always an error -----------------------------------------------------


@pytest.mark.parametrize("recipe", [None, FAIL], ids=["reject", "fail"])
def test_missing_required_column_names_file_and_column(tmp_path, recipe):
    path = write_csv(
        tmp_path / "export.csv",
        [{"submission_id": "s1", "problem_id": "p", "language": "Python", "code": GCD}],
    )
    with pytest.raises(
        InputError, match=r"export\.csv line 1: column 'status': required column is missing"
    ):
        scanned([path], tmp_path, recipe)


def test_unknown_column_is_an_error_at_its_first_line(tmp_path):
    path = write_jsonl(tmp_path / "export.jsonl", [row("s1"), row("s2"), row("s3", cpu_time_ms=12)])
    with pytest.raises(
        InputError, match=r"export\.jsonl line 3: column 'cpu_time_ms': unknown column"
    ):
        scanned([path], tmp_path)


def test_file_without_any_code_column_is_an_error(tmp_path):
    path = write_csv(
        tmp_path / "export.csv",
        [{"submission_id": "s1", "problem_id": "p", "status": "passed", "language": "Python"}],
    )
    with pytest.raises(InputError, match="needs a 'code' or a 'code_path' column"):
        scanned([path], tmp_path)


def test_parquet_column_of_the_wrong_type_is_an_error(tmp_path):
    table = pa.table(
        {
            "submission_id": ["s1"],
            "problem_id": ["p"],
            "status": ["passed"],
            "language": ["Python"],
            "code": [GCD],
            "cpu_time": ["fast"],
        }
    )
    pq.write_table(table, tmp_path / "export.parquet")
    with pytest.raises(
        InputError,
        match=r"export\.parquet: column 'cpu_time': has type VARCHAR; expected an integer",
    ):
        scanned([tmp_path / "export.parquet"], tmp_path)


def test_parquet_float_columns_hold_whole_numbers(tmp_path):
    # pandas writes an int column with nulls as float64
    table = pa.table(
        {
            "submission_id": ["s1", "s2", "s3"],
            "problem_id": ["p"] * 3,
            "status": ["passed"] * 3,
            "language": ["Python"] * 3,
            "code": [GCD] * 3,
            "cpu_time": [12.0, None, 2.5],
        }
    )
    pq.write_table(table, tmp_path / "export.parquet")
    rows = scanned([tmp_path / "export.parquet"], tmp_path)
    assert [r["cpu_time"] for r in rows] == [12, None, None]
    assert reasons(rows) == {"s1": None, "s2": None, "s3": "bad_value"}
    assert rows[2]["reject_detail"] == "column 'cpu_time': not an integer: 2.5"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("export.parquet", b"PAR1 this is not parquet", "cannot read as Parquet"),
        ("export.jsonl", b'{"submission_id": "s1"}\n{"submission_id": \n', "cannot read as JSON"),
        (
            "export.csv",
            b"submission_id,problem_id,status,language,code\ns1,p,passed,Python,x,extra\n",
            "cannot read",
        ),
        ("export.csv", b"", "empty file"),
        ("export.txt", b"submission_id\n", "unknown format"),
    ],
)
def test_unreadable_files_are_errors_naming_the_file(tmp_path, name, content, message):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(InputError, match=message) as info:
        scanned([tmp_path / name], tmp_path)
    assert info.value.path.startswith(name)


def test_a_json_line_that_is_not_an_object_is_an_error(tmp_path):
    (tmp_path / "export.jsonl").write_text(json.dumps(row("s1")) + "\n\n[1, 2]\n")
    with pytest.raises(InputError, match=r"export\.jsonl line 3: not a JSON object"):
        scanned([tmp_path / "export.jsonl"], tmp_path)


def test_globs_expand_in_order_and_a_pattern_matching_nothing_is_an_error(tmp_path):
    write_jsonl(tmp_path / "b.jsonl", [row("s2", "failed")])
    write_jsonl(tmp_path / "a.jsonl", [row("s1")])
    rows = scanned([tmp_path / "*.jsonl"], tmp_path)
    assert [(r["submission_id"], r["origin"]) for r in rows] == [
        ("s1", "a.jsonl row 1"),
        ("s2", "b.jsonl row 1"),
    ]
    with pytest.raises(InputError, match="no file matches"):
        scanned([tmp_path / "*.csv"], tmp_path)


# -- row-level problems: a reject with a reason, or an error at the row -----------------------


def test_bad_values_are_rejected_naming_the_column(tmp_path):
    path = write_csv(
        tmp_path / "export.csv",
        [
            row("s1", cpu_time="abc"),
            row("s2", date="2021-03-04"),
            row("s3", memory="1.5"),
            row("s4", cpu_time=" 17 ", memory="-1"),
        ],
    )
    rows = scanned([path], tmp_path)
    assert reasons(rows) == {"s1": "bad_value", "s2": "bad_value", "s3": "bad_value", "s4": None}
    assert [r["reject_detail"] for r in rows[:3]] == [
        "column 'cpu_time': not an integer: abc",
        "column 'date': not an integer: 2021-03-04",
        "column 'memory': not an integer: 1.5",
    ]
    assert (rows[3]["cpu_time"], rows[3]["memory"]) == (17, None)  # negative: the judge's "none"


def test_bad_value_fails_at_its_physical_line_when_on_error_is_fail(tmp_path):
    # the multi-line code of the first row puts the second row on line 7, not line 3
    path = write_csv(tmp_path / "export.csv", [row("s1"), row("s2", cpu_time="abc")])
    assert path.read_text().splitlines()[6].startswith("s2,")
    with pytest.raises(InputError) as info:
        scanned([path], tmp_path, FAIL)
    assert str(info.value) == (
        "export.csv line 7: column 'cpu_time': not an integer: abc (submission s2)"
    )


def test_jsonl_date_must_be_an_integer(tmp_path):
    path = write_jsonl(
        tmp_path / "export.jsonl", [row("s1", date=1700000000), row("s2", date="2023-11-14")]
    )
    assert reasons(scanned([path], tmp_path)) == {"s1": None, "s2": "bad_value"}
    with pytest.raises(
        InputError, match=r"export\.jsonl line 2: column 'date': .*not an integer: \"2023-11-14\""
    ):
        scanned([path], tmp_path, FAIL)


def test_empty_required_values_and_missing_status(tmp_path):
    path = write_csv(
        tmp_path / "export.csv",
        [row("s1", problem_id=""), row("s2", language=""), row("s3", status=""), row("", code=GCD)],
    )
    rows = scanned([path], tmp_path)
    assert [r["reject_reason"] for r in rows] == [
        "missing_value",
        "missing_value",
        "missing_status",
        "missing_value",
    ]
    assert rows[0]["reject_detail"] == "required column 'problem_id' is empty"


def test_rows_need_exactly_one_of_code_and_code_path(tmp_path):
    (tmp_path / "a.py").write_text(GCD)
    path = write_jsonl(
        tmp_path / "export.jsonl",
        [
            row("s1", code=None, code_path=None),
            row("s2", code=GCD, code_path="a.py"),
            row("s3", code="", code_path="a.py"),
        ],
    )
    rows = scanned([path], tmp_path)
    assert reasons(rows) == {"s1": "missing_code", "s2": "ambiguous_code", "s3": None}
    with pytest.raises(
        InputError, match=r"line 1: column 'code_path': row has neither code nor code_path"
    ):
        scanned([path], tmp_path, FAIL)


def test_code_paths_leaving_the_export_root_are_rejected(tmp_path):
    root = tmp_path / "export"
    (root / "src").mkdir(parents=True)
    (tmp_path / "secret.py").write_text("print('outside')\n")
    (root / "src" / "ok.py").write_text(GCD)
    (root / "src" / "link.py").symlink_to(tmp_path / "secret.py")
    inputs = [
        write_jsonl(
            root / "export.jsonl",
            [
                row("ok", code_path="src/ok.py"),
                row("absolute", "failed", code_path=str(tmp_path / "secret.py")),
                row("dotdot", "failed", code_path="src/../../secret.py"),
                row("symlink", "failed", code_path="src/link.py"),
                row("wrong", "failed", code=WRONG),
            ],
        )
    ]
    rows = scanned(inputs, tmp_path)
    # the symlink is only visible on disk: staging's realpath check catches it
    assert reasons(rows) == {
        "ok": None,
        "absolute": "path_escape",
        "dotdot": "path_escape",
        "symlink": None,
        "wrong": None,
    }
    report = build(inputs, tmp_path)
    assert report.manifest["counts"]["rejects_by_reason"] == {"path_escape": 3}
    assert report.manifest["counts"]["solutions"] == 2
    con = open_dataset(report.out)
    assert con.sql("SELECT count(*) FROM rejects WHERE code LIKE '%outside%'").fetchall() == [(0,)]
    with pytest.raises(
        InputError,
        match=r"line 2: column 'code_path': code_path '/.*secret.py' leaves the export root",
    ):
        scanned(inputs, tmp_path, FAIL)
    symlink_only = [
        write_jsonl(root / "only-link.jsonl", [row("symlink", code_path="src/link.py")])
    ]
    with pytest.raises(InputError, match="path_escape"):
        build(symlink_only, tmp_path, FAIL, out=tmp_path / "fail-dataset")
    assert not (tmp_path / "fail-dataset").exists()


def test_duplicate_submission_ids_across_files(tmp_path):
    first = write_jsonl(tmp_path / "a.jsonl", [row("s1"), row("s2", "failed")])
    second = write_csv(tmp_path / "b.csv", [row("s3", "failed"), row("s1", "failed")])
    report = build([first, second], tmp_path)
    counts = report.manifest["counts"]
    assert counts["rejects_by_reason"] == {"duplicate_submission_id": 1}
    con = open_dataset(report.out)
    # the first in input order is kept
    assert con.sql("SELECT outcome FROM solutions WHERE submission_id = 's1'").fetchall() == [
        ("accepted",)
    ]
    with pytest.raises(InputError) as info:
        scanned([first, second], tmp_path, FAIL)
    line = 1 + next(
        i for i, text in enumerate(second.read_text().splitlines()) if text.startswith("s1,")
    )
    assert str(info.value) == (
        f"b.csv line {line}: column 'submission_id': duplicate submission_id 's1'; first at a.jsonl row 1"
    )


def test_other_languages_are_rejected_not_dropped_and_do_not_fail(tmp_path):
    path = write_jsonl(
        tmp_path / "export.jsonl",
        [
            row("s1"),
            row("s2", "failed", language="python"),
            row("j1", language="Java", code="class A {}"),
        ],
    )
    report = build([path], tmp_path, FAIL)
    counts = report.manifest["counts"]
    assert counts["rows_in"] == 3
    assert counts["rejects_by_reason"] == {"other_language": 1}
    assert report.manifest["language"] == "Python"  # the spelling the export uses
    con = open_dataset(report.out)
    assert con.sql("SELECT DISTINCT language FROM solutions").fetchall() == [("Python",)]


def test_status_vocabularies_map_through_the_recipe(tmp_path):
    statuses = [
        "passed",
        "failed",
        "error",
        "timeout",
        "skipped",
        "flaky",
        "Accepted",
        "Wrong Answer",
    ]
    rows = [row(f"s{i}", status, code=f"print({i})\n") for i, status in enumerate(statuses)]
    report = build([write_jsonl(tmp_path / "export.jsonl", rows)], tmp_path)
    counts = report.manifest["counts"]
    assert counts["outcomes"] == {
        "accepted": 2,
        "wrong_answer": 2,
        "runtime_error": 1,
        "time_limit": 1,
    }
    assert counts["rejects_by_reason"] == {"unknown_status": 1, "unscorable": 1}
    assert counts["unknown_statuses"] == ["flaky"]


def test_every_row_of_a_messy_export_is_accounted_for(tmp_path):
    (tmp_path / "a.py").write_text(GCD)
    rows = [
        row("s1"),
        row("s2", "failed"),
        row("s3", cpu_time="x"),
        row("s4", code_path="a.py", code=GCD),
        row("s5", status=""),
        row("s6", code_path="../a.py", code=""),
        row("s2", "failed"),
        row("s7", "weird"),
        row("s8", code="def (:\n"),
        row("s9", language="Go", code="package main"),
    ]
    report = build([write_csv(tmp_path / "export.csv", rows)], tmp_path)
    counts = report.manifest["counts"]
    assert counts["rows_in"] == len(rows) == counts["solutions"] + counts["rejects"]
    assert sum(counts["rejects_by_reason"].values()) == counts["rejects"]
    con = open_dataset(report.out)
    by_id = con.sql(
        "SELECT submission_id, reason FROM rejects UNION ALL SELECT submission_id, NULL FROM solutions"
    ).fetchall()
    assert sorted(r[0] for r in by_id) == sorted(r["submission_id"] for r in rows)
    assert dict(con.sql("SELECT reason, count(*) FROM rejects GROUP BY 1").fetchall()) == {
        "bad_value": 1,
        "ambiguous_code": 1,
        "missing_status": 1,
        "path_escape": 1,
        "duplicate_submission_id": 1,
        "unknown_status": 1,
        "other_language": 1,
    }


# -- problems ---------------------------------------------------------------------------------


def test_problems_file_gives_names_limits_and_plain_text_prompts(tmp_path):
    export = write_jsonl(
        tmp_path / "export.jsonl",
        [
            row("s1"),
            row("s2", "failed"),
            row("r1", problem_id="rev"),
            row("r2", "failed", problem_id="rev"),
        ],
    )
    problems = write_csv(
        tmp_path / "problems.csv",
        [
            {
                "problem_id": "gcd",
                "name": "GCD",
                "description": "<h2>GCD</h2><p>Print gcd(a, b).</p><pre>54 20\n</pre>",
                "time_limit": "2000",
                "memory_limit": "262144",
            },
            {
                "problem_id": "rev",
                "name": "Reverse",
                "description": "Reverse the list. Keep x < y as is.\n\n",
                "time_limit": "",
                "memory_limit": "",
            },
            {
                "problem_id": "unused",
                "name": "Unused",
                "description": "",
                "time_limit": "",
                "memory_limit": "",
            },
        ],
    )
    report = build([export], tmp_path, problems_file=problems)
    con = open_dataset(report.out)
    got = con.sql(
        "SELECT problem_id, name, time_limit, memory_limit, prompt FROM problems ORDER BY 1"
    ).fetchall()
    assert got[0][:4] == ("gcd", "GCD", 2000, 262144)
    assert "<" not in got[0][4] and "Print gcd(a, b)." in got[0][4] and "54 20" in got[0][4]
    assert got[1] == ("rev", "Reverse", None, None, "Reverse the list. Keep x < y as is.\n")
    assert len(got) == 2


@pytest.mark.parametrize(
    ("problems", "message"),
    [
        (
            [{"problem_id": "gcd", "time_limit": "2s"}],
            r"problems\.csv line 2: column 'time_limit': not an integer: 2s",
        ),
        (
            [{"problem_id": "gcd"}, {"problem_id": "gcd"}],
            r"problems\.csv line 3: column 'problem_id': problem 'gcd' again \(first at row 1\)",
        ),
        (
            [{"problem_id": "gcd", "statement": "x"}],
            r"problems\.csv line 1: column 'statement': unknown column",
        ),
    ],
)
def test_a_bad_problems_file_is_always_an_error(tmp_path, problems, message):
    export = write_jsonl(tmp_path / "export.jsonl", [row("s1")])
    path = write_csv(tmp_path / "problems.csv", problems)
    with pytest.raises(InputError, match=message):
        scan_ci(options([export], tmp_path, problems_file=path))


def test_cli_reports_a_bad_export_without_a_traceback(tmp_path, capsys, monkeypatch):
    from codelog.cli import main

    path = write_csv(
        tmp_path / "export.csv",
        [{"submission_id": "s1", "problem_id": "p", "language": "Python", "code": GCD}],
    )
    argv = [
        "codelog",
        "build",
        "--source",
        "ci",
        "--input",
        str(path),
        "--out",
        str(tmp_path / "d"),
    ]
    monkeypatch.setattr("sys.argv", argv)
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert "export.csv line 1: column 'status': required column is missing" in err
    assert "Traceback" not in err


def test_a_ci_build_needs_an_input(tmp_path):
    with pytest.raises(InputError, match="needs at least one --input"):
        scan_ci(options([], tmp_path, root=BUNDLED_ROOT))


def test_rebuild_reuses_staged_parse_results_until_an_input_or_code_file_changes(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "right.py").write_text(GCD)
    (tmp_path / "src" / "wrong.py").write_text(WRONG)
    export = write_jsonl(
        tmp_path / "export.jsonl",
        [row("s1", code_path="src/right.py"), row("s2", "failed", code_path="src/wrong.py")],
    )
    out = tmp_path / "dataset"
    assert not build([export], tmp_path, out=out).staged_reused
    assert build([export], tmp_path, out=out).staged_reused
    (tmp_path / "src" / "wrong.py").write_text(WRONG + "print(0)\n")  # the code under a path
    changed = build([export], tmp_path, out=out)
    assert not changed.staged_reused
    assert (
        "print(0)"
        in open_dataset(out)
        .sql("SELECT code FROM solutions WHERE submission_id = 's2'")
        .fetchall()[0][0]
    )
