"""JUnit XML reports as CI rows: `codelog convert --from junit` and `build --source junit`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import polars as pl
import pytest
from click.testing import CliRunner

from codelog.builder import run_build
from codelog.cli import cli
from codelog.dataset.open import open_dataset
from codelog.errors import EmptyResultError, InputError
from codelog.ingest.ci.junit import junit_table
from codelog.options import BuildOptions
from codelog.recipe import load_recipe

FIXTURES = Path(__file__).parent.parent / "fixtures" / "junit"
PYTEST_REPORT = FIXTURES / "pytest-report.xml"
SUREFIRE = FIXTURES / "surefire"
SUREFIRE_REPORT = SUREFIRE / "target" / "surefire-reports" / "TEST-com.example.gcd.GcdTest.xml"
SCHEMA = json.loads((FIXTURES.parents[2] / "codelog/schemas/submission.schema.json").read_text())


def build(inputs: list[Path], out: Path, source: str = "junit", **overrides):
    options = BuildOptions(
        source=source,
        language=overrides.pop("language", "python"),
        out=out,
        recipe=load_recipe(),
        inputs=tuple(str(p) for p in inputs),
        workers=1,
        show_progress=False,
        **overrides,
    )
    return run_build(options)


def solutions(path: Path) -> list[tuple]:
    return (
        open_dataset(path)
        .sql(
            "SELECT submission_id, problem_id, outcome, reward, ast_hash, code, cpu_time, date "
            "FROM solutions ORDER BY submission_id"
        )
        .fetchall()
    )


def test_pytest_report_gives_one_row_per_test_case():
    rows = junit_table(PYTEST_REPORT, language="python", code_root=FIXTURES).to_pylist()
    assert len(rows) == 10
    by_case = {r["submission_id"].split("::")[1]: r for r in rows}
    assert {name: r["status"] for name, r in by_case.items()} == {
        "test_gcd[euclid.py]": "passed",
        "test_gcd[euclid_renamed.py]": "passed",
        "test_gcd[math_gcd.py]": "passed",
        "test_gcd[off_by_one.py]": "failure",
        "test_gcd[brute.py]": "timeout",  # a `status` property beats the <failure> element
        "test_gcd[crash.py]": "error",
        "test_reverse[slice.py]": "passed",
        "test_reverse[loop.py]": "failure",
        "test_reverse[todo.py]": "skipped",
        "test_imports": "passed",
    }
    crash = by_case["test_gcd[crash.py]"]
    assert crash["submission_id"] == "tests.test_solutions::test_gcd[crash.py]"
    assert (crash["problem_id"], crash["code_path"], crash["filename_ext"]) == (
        "gcd",
        "solutions/gcd/crash.py",
        "py",
    )
    assert crash["cpu_time"] == 19  # time="0.019" seconds
    assert crash["date"] == 1715678467  # the suite's timestamp 2024-05-14T09:21:07.412310+00:00
    assert crash["testcase_no"] == 6
    # no properties: problem from the classname, code from the `file` attribute
    imports = by_case["test_imports"]
    assert (imports["problem_id"], imports["code_path"]) == (
        "tests.test_solutions",
        "tests/test_solutions.py",
    )


def test_surefire_report_takes_codelog_properties_from_the_suite():
    rows = junit_table(SUREFIRE_REPORT, language="python", code_root=SUREFIRE).to_pylist()
    assert [(r["submission_id"], r["status"], r["cpu_time"]) for r in rows] == [
        ("com.example.gcd.GcdTest::gcdOfCoprimes", "passed", 4),
        ("com.example.gcd.GcdTest::gcdOfLargeInputs", "failure", 31),
        ("com.example.gcd.GcdTest::gcdOfZero", "error", 1002500),  # time="1,002.5"
        ("com.example.gcd.GcdTest::gcdOfNegatives", "skipped", 0),
    ]
    assert {
        (r["problem_id"], r["language"], r["user_id"], r["code_path"], r["date"]) for r in rows
    } == {("gcd", "Java", "student-042", "src/main/java/com/example/gcd/Gcd.java", None)}


def test_build_from_a_pytest_report(tmp_path):
    report = build([PYTEST_REPORT], tmp_path / "dataset")  # code paths relative to the report
    counts = report.manifest["counts"]
    assert counts["rows_in"] == 10
    assert counts["outcomes"] == {
        "accepted": 3,
        "wrong_answer": 2,
        "runtime_error": 1,
        "time_limit": 1,
    }
    assert counts["rejects_by_reason"] == {"duplicate": 1, "no_contrast": 1, "unscorable": 1}
    con = open_dataset(report.out)
    assert con.sql(
        "SELECT submission_id, reason, detail, origin FROM rejects ORDER BY 2"
    ).fetchall() == [
        (
            "tests.test_solutions::test_gcd[euclid_renamed.py]",
            "duplicate",
            "duplicate of tests.test_solutions::test_gcd[euclid.py]",
            "pytest-report.xml testcase 2",
        ),
        (
            "tests.test_solutions::test_imports",
            "no_contrast",
            "problem has no incorrect solution to contrast with",
            "pytest-report.xml testcase 10",
        ),
        (
            "tests.test_solutions::test_reverse[todo.py]",
            "unscorable",
            "judge-side status 'skipped'",
            "pytest-report.xml testcase 9",
        ),
    ]
    assert con.sql(
        "SELECT problem_id, n_correct, n_incorrect FROM groups ORDER BY 1"
    ).fetchall() == [
        ("gcd", 2, 3),
        ("reverse", 1, 1),
    ]
    euclid = (FIXTURES / "solutions/gcd/euclid.py").read_text()
    assert con.sql(
        "SELECT code FROM solutions WHERE submission_id LIKE '%[euclid.py]'"
    ).fetchall() == [(euclid,)]


def test_converted_export_builds_like_the_report(tmp_path):
    tree = tmp_path / "repo"
    shutil.copytree(FIXTURES, tree)
    export = tree / "junit.jsonl"
    args = ["convert", "--from", "junit", str(tree / "pytest-report.xml"), "--out", str(export)]
    result = CliRunner().invoke(cli, [*args, "--code-root", str(tree)])
    assert result.exit_code == 0, result.output
    assert "wrote 10 rows from 1 junit report(s)" in result.output
    rows = [json.loads(line) for line in export.read_text().splitlines()]
    validator = jsonschema.Draft202012Validator(SCHEMA)
    assert [r["submission_id"] for r in rows if not validator.is_valid(r)] == []
    assert rows[0]["code_path"] == "solutions/gcd/euclid.py"

    from_export = build([export], tmp_path / "from-export", source="ci")
    from_report = build([tree / "pytest-report.xml"], tmp_path / "from-report")
    assert from_export.manifest["counts"] == from_report.manifest["counts"]
    assert solutions(tmp_path / "from-export") == solutions(tmp_path / "from-report")


def test_convert_refuses_code_outside_the_export_directory_unless_inline(tmp_path):
    args = ["convert", "--from", "junit", str(SUREFIRE / "target/surefire-reports/*.xml")]
    args += ["--code-root", str(SUREFIRE), "--lang", "java"]
    refused = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "java.csv")])
    assert isinstance(refused.exception, InputError)
    assert "is outside the export's directory" in str(refused.exception)
    assert not (tmp_path / "java.csv").exists()

    inline = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "java.csv"), "--inline"])
    assert inline.exit_code == 0, inline.output
    code = (SUREFIRE / "src/main/java/com/example/gcd/Gcd.java").read_text()
    rows = pl.read_csv(tmp_path / "java.csv")
    assert set(rows["code"].to_list()) == {code}, "the code is inline"
    # one program judged by four tests that disagree (passed, failure, error; one skipped): a
    # verdict conflict, which the default recipe drops rather than call the program accepted;
    # then nothing is usable, so nothing is published and the reasons are named
    with pytest.raises(
        EmptyResultError, match="0 groups: 3 rows rejected as verdict_conflict, 1 as unscorable"
    ):
        build([tmp_path / "java.csv"], tmp_path / "java", source="ci", language="java")
    assert not (tmp_path / "java").exists()


def write_report(tmp_path: Path, xml: str) -> Path:
    path = tmp_path / "report.xml"
    path.write_text(xml, encoding="utf-8")
    return path


def test_properties_come_from_the_test_case_then_the_nearest_suite(tmp_path):
    report = write_report(
        tmp_path,
        """<testsuites>
          <testsuite name="outer">
            <properties>
              <property name="problem_id" value="outer-problem"/>
              <property name="language" value="Ruby"/>
              <property name="user_id" value="plain"/>
              <property name="codelog.user_id" value="prefixed"/>
            </properties>
            <testsuite name="inner" timestamp="2024-01-02T03:04:05">
              <properties><property name="problem_id" value="inner-problem"/></properties>
              <testcase name="a" time="0.5">
                <properties><property name="code">puts 1</property></properties>
              </testcase>
              <testcase classname="k" name="b" file="/abs/elsewhere.rb">
                <properties><property name="submission_id" value="custom-id"/></properties>
              </testcase>
            </testsuite>
          </testsuite>
        </testsuites>""",
    )
    a, b = junit_table(report, language="python", code_root=tmp_path).to_pylist()
    assert (a["submission_id"], a["problem_id"], a["language"], a["user_id"]) == (
        "a",
        "inner-problem",
        "Ruby",
        "prefixed",
    )
    assert (a["code"], a["code_path"], a["cpu_time"]) == ("puts 1", None, 500)
    assert a["date"] == 1704164645  # no offset: read as UTC
    assert (b["submission_id"], b["problem_id"], b["code_path"]) == (
        "custom-id",
        "inner-problem",
        "/abs/elsewhere.rb",  # outside the root: left absolute, the build rejects it
    )


def test_absolute_code_paths_inside_the_root_become_relative(tmp_path):
    (tmp_path / "src").mkdir()
    report = write_report(
        tmp_path,
        f'<testsuite name="s"><testcase name="t" file="{tmp_path}/src/a.py"/></testsuite>',
    )
    (row,) = junit_table(report, language="python", code_root=tmp_path).to_pylist()
    assert row["code_path"] == "src/a.py"


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        (
            '<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY a "aaaa">]>\n<testsuite name="&a;"/>',
            "DOCTYPE or ENTITY declaration",
        ),
        ('<testsuite name="s">\n<testcase name="t">\n</testsuite>', r"line 3: not well-formed XML"),
        ("<coverage/>", "not a JUnit report: the root element is <coverage>"),
        (
            '<testsuite name="s"><testcase classname="c"/></testsuite>',
            "testcase 1: <testcase> has no name",
        ),
        ('<testsuite timestamp="yesterday"><testcase name="t"/></testsuite>', "is not an ISO 8601"),
        ('<testsuite><testcase name="t" time="fast"/></testsuite>', "time='fast' is not a number"),
    ],
)
def test_bad_reports_are_errors_naming_the_file(tmp_path, xml, message):
    report = write_report(tmp_path, xml)
    with pytest.raises(InputError, match=message) as info:
        junit_table(report, language="python")
    assert "report.xml" in str(info.value)
