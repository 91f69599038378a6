"""`--source codecontests` and `--source codeforces`: the Hub's Parquet schemas built from the
fixtures scripts/make_source_fixtures.py writes (real problems, the dataset cards' columns)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import codelog
from codelog.builder import BuildReport, run_build
from codelog.errors import CodelogError, InputError, RecipeError
from codelog.execution.testcases import load_problems
from codelog.ingest.codeforces import language_of, status_of
from codelog.options import BuildOptions
from codelog.recipe import load_recipe

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CODECONTESTS = FIXTURES / "codecontests"
SUBMISSIONS = FIXTURES / "codeforces" / "submissions.parquet"
PROBLEMS = FIXTURES / "codeforces" / "problems.parquet"


def build(out: Path, source: str, inputs: list[Path], **overrides) -> BuildReport:
    return run_build(
        BuildOptions(
            source=source,
            language=overrides.pop("language", "python"),
            out=out,
            recipe=load_recipe(),
            inputs=tuple(map(str, inputs)),
            workers=1,
            show_progress=False,
            **overrides,
        )
    )


def table(out: Path, sql: str) -> list[tuple]:
    return duckdb.sql(sql.replace("{out}", str(out))).fetchall()


@pytest.fixture(scope="module")
def codecontests(tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    return build(tmp_path_factory.mktemp("cc") / "ds", "codecontests", [CODECONTESTS])


@pytest.fixture(scope="module")
def codeforces(tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    out = tmp_path_factory.mktemp("cf") / "ds"
    return build(out, "codeforces", [SUBMISSIONS], problems_file=PROBLEMS)


# ------------------------------------------------------------------------------ CodeContests


def test_every_python_program_of_every_problem_is_an_input_row(codecontests):
    # counted from the shard itself: PYTHON (1), PYTHON3 (3), and UNKNOWN_LANGUAGE (0), which
    # belongs to no language and is rejected in every build
    shard = pq.read_table(CODECONTESTS / "train-00000-of-00001.parquet").to_pylist()
    languages = Counter(
        lang for row in shard for lst in ("solutions", "incorrect_solutions")
        for lang in row[lst]["language"]
    )  # fmt: skip
    counts = codecontests.manifest["counts"]
    assert counts["rows_in"] == languages[0] + languages[1] + languages[3] == 21
    assert counts["rows_in"] == counts["solutions"] + counts["rejects"]
    assert counts["rejects_by_reason"]["unknown_language"] == languages[0]
    assert counts["rejects_by_reason"]["dialect"] == languages[1]  # Python 2: a dialect


def test_incorrect_solutions_are_incorrect_with_the_recipes_reward(codecontests):
    rewards = dict(load_recipe().rewards)
    rows = table(
        codecontests.out,
        "SELECT status, outcome, reward, count(*) FROM '{out}/solutions.parquet' GROUP BY ALL "
        "ORDER BY 1",
    )
    assert rows == [
        ("incorrect_solutions", "incorrect", rewards["incorrect"], 9),
        ("solutions", "accepted", rewards["accepted"], 6),
    ]
    assert rewards["wrong_answer"] > rewards["incorrect"] > rewards["compile_error"]


def test_a_program_names_its_problem_list_and_place(codecontests):
    (row,) = table(
        codecontests.out,
        "SELECT submission_id, reason, detail, origin FROM '{out}/rejects.parquet' "
        "WHERE reason = 'unknown_language'",
    )
    assert row == (
        "1000_A. Codehorses T-shirts/solutions/5",
        "unknown_language",
        "language UNKNOWN_LANGUAGE (0)",
        "train-00000-of-00001.parquet:1 solutions[5]",
    )


def test_problems_keep_statement_limits_and_rating(codecontests):
    rows = table(
        codecontests.out,
        "SELECT problem_id, dataset, time_limit, memory_limit, rating, left(prompt, 20) "
        "FROM '{out}/problems.parquet' ORDER BY 1",
    )
    assert rows[0] == (
        "1000_A. Codehorses T-shirts", "Codeforces", 2000, 262144, "1200", "Codehorses has just "
    )  # fmt: skip
    assert rows[-1][:5] == (
        "p02971 AtCoder Beginner Contest 134 - Exception Handling", "AtCoder", 2000, 1048576,
        "UNKNOWN_DIFFICULTY",
    )  # fmt: skip


def test_a_rebuild_is_byte_identical(codecontests, tmp_path):
    again = build(
        tmp_path / "again", "codecontests", [CODECONTESTS / "train-00000-of-00001.parquet"]
    )
    for name in ("solutions.parquet", "rejects.parquet", "problems.parquet"):
        assert (again.out / name).read_bytes() == (codecontests.out / name).read_bytes(), name


def test_another_schema_is_one_error_line(tmp_path):
    # the CLI prints it as "error: <this>" (codelog.cli.main), no traceback
    with pytest.raises(InputError) as caught:
        build(tmp_path / "o", "codecontests", [SUBMISSIONS])
    assert str(caught.value) == (
        f"{SUBMISSIONS}: no column 'name': not the codecontests schema "
        "(is --source codecontests right?)"
    )


# -------------------------------------------------------------------------------- Codeforces


def test_the_verdict_map_is_in_the_recipe():
    statuses = load_recipe().statuses
    assert {v: statuses[v] for v in (
        "OK", "WRONG_ANSWER", "TIME_LIMIT_EXCEEDED", "RUNTIME_ERROR", "COMPILATION_ERROR",
        "MEMORY_LIMIT_EXCEEDED", "IDLENESS_LIMIT_EXCEEDED",
    )} == {
        "OK": "accepted", "WRONG_ANSWER": "wrong_answer", "TIME_LIMIT_EXCEEDED": "time_limit",
        "RUNTIME_ERROR": "runtime_error", "COMPILATION_ERROR": "compile_error",
        "MEMORY_LIMIT_EXCEEDED": "memory_limit", "IDLENESS_LIMIT_EXCEEDED": "time_limit",
    }  # fmt: skip
    assert {statuses[v] for v in ("CHALLENGED", "SKIPPED", "TESTING")} == {"unscorable"}
    assert status_of("WRONG_ANSWER on test 2") == "WRONG_ANSWER"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("GNU C++17", ("C++", None, "cpp")),
        ("MS C++ 2017", ("C++", None, "cpp")),
        ("Clang++20 Diagnostics", ("C++", None, "cpp")),
        ("GNU C11", ("C", None, "c")),
        ("Python 3", ("Python", "python3", "py")),
        ("PyPy 3-64", ("Python", "python3", "py")),
        ("Python 2", ("Python", "python2", "py")),
        ("PyPy 2", ("Python", "python2", "py")),
        ("Java 8", ("Java", None, "java")),
        ("Java 21 64bit", ("Java", None, "java")),
        ("JavaScript V8", ("JavaScript", None, "js")),
        ("C# 10", ("C#", None, "cs")),
        ("Kotlin 1.7", ("Kotlin", None, "kt")),
        ("Q#", None),
        ("Befunge", None),
    ],
)
def test_programming_language_names_map_to_languages_and_dialects(name, expected):
    assert language_of(name) == expected


def test_codeforces_counts_add_up_and_verdicts_map_by_prefix(codeforces):
    shard = pq.read_table(SUBMISSIONS)
    mine = [
        r for r in shard.to_pylist()
        if language_of(r["programmingLanguage"]) in (None, ("Python", "python3", "py"),
                                                     ("Python", "python2", "py"))
    ]  # fmt: skip
    counts = codeforces.manifest["counts"]
    assert counts["rows_in"] == len(mine) == 36
    assert counts["rows_in"] == counts["solutions"] + counts["rejects"]
    by_reason = counts["rejects_by_reason"]
    assert by_reason["unknown_language"] == sum(r["programmingLanguage"] == "Q#" for r in mine)
    assert by_reason["unscorable"] == sum(r["verdict"] in ("CHALLENGED", "SKIPPED") for r in mine)
    # "WRONG_ANSWER on test 2" is a wrong answer (here a copy of one, so a duplicate)
    (row,) = table(
        codeforces.out,
        "SELECT status, reason FROM '{out}/rejects.parquet' WHERE submission_id = '40000003'",
    )
    assert row == ("WRONG_ANSWER", "duplicate")
    (row,) = table(
        codeforces.out,
        "SELECT reason, detail FROM '{out}/rejects.parquet' WHERE submission_id = '40000013'",
    )
    assert row == ("unknown_language", "programmingLanguage 'Q#'")


def test_codeforces_rows_keep_the_judges_figures_and_the_problems(codeforces):
    rows = table(
        codeforces.out,
        "SELECT submission_id, outcome, accuracy, cpu_time, memory, date "
        "FROM '{out}/solutions.parquet' WHERE problem_id = '1000A' ORDER BY 1 LIMIT 2",
    )
    assert rows == [
        ("40000000", "accepted", "12/12", 0, 1024, 1_600_000_000),
        ("40000002", "wrong_answer", "2/12", 30, 3072, 1_600_000_120),
    ]
    problems = table(
        codeforces.out,
        "SELECT problem_id, name, time_limit, memory_limit, rating FROM '{out}/problems.parquet' "
        "ORDER BY 1",
    )
    assert problems[0] == ("1000A", "Codehorses T-shirts", 2000, 262144, "1200")


def test_codeforces_without_problems_builds_bare_problems(tmp_path):
    report = build(tmp_path / "bare", "codeforces", [SUBMISSIONS])
    names = table(report.out, "SELECT DISTINCT name FROM '{out}/problems.parquet'")
    assert names == [(None,)]
    assert report.manifest["counts"]["rows_in"] == 36


def test_a_shard_without_a_column_names_it(tmp_path):
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"submission_id": ["1"]}), bad)
    with pytest.raises(InputError, match=r"bad.parquet: no column 'programmingLanguage'"):
        build(tmp_path / "o", "codeforces", [bad])


# ------------------------------------------------------------------ judge refines, mixed build


def test_the_dataset_keeps_each_problems_tests_where_the_judge_finds_them(codecontests):
    shard = pq.read_table(CODECONTESTS / "train-00000-of-00001.parquet").to_pylist()
    problems = load_problems(f"codenet:{codecontests.out}")
    for row in shard:
        want = [
            (f"{s} {i + 1}", given, expected)
            for s in ("public", "private", "generated")
            for i, (given, expected) in enumerate(
                zip(row[f"{s}_tests"]["input"], row[f"{s}_tests"]["output"], strict=True)
            )
        ]
        got = [(t.name, t.input, t.output) for t in problems[row["name"]].tests]
        assert got == want and len(got) >= 2, row["name"]


def test_the_verl_export_carries_the_same_tests(codecontests, tmp_path):
    import json

    codelog.export(codecontests.out, "verl", tmp_path / "verl")
    rows = [
        *pq.read_table(tmp_path / "verl" / "train.parquet").to_pylist(),
        *pq.read_table(tmp_path / "verl" / "test.parquet").to_pylist(),
    ]
    problems = load_problems(f"codenet:{codecontests.out}")
    for row in rows:
        truth = json.loads(row["reward_model"]["ground_truth"])
        tests = [(t["name"], t["input"], t["output"]) for t in truth["tests"]]
        want = problems[truth["problem_id"]].tests
        assert tests == [(t.name, t.input, t.output) for t in want], truth["problem_id"]


def test_codeforces_official_tests_travel_with_the_problems(codeforces):
    official = {
        f"{r['contest_id']}{r['index']}": [(t["input"], t["output"]) for t in r["official_tests"]]
        for r in pq.read_table(PROBLEMS).to_pylist()
    }
    problems = load_problems(f"codenet:{codeforces.out}")
    assert sorted(problems) == sorted(official) == ["1000A", "1198A", "12B"]
    for pid, tests in official.items():
        assert [(t.input, t.output) for t in problems[pid].tests] == tests


def test_judge_refines_incorrect_solutions_and_the_rows_rebuild(codecontests, tmp_path):
    # runs the fixture's programs in the sandbox (about 5 s): the refinement is the judge's,
    # on the tests the dataset keeps (no --tests)
    refined, problems = tmp_path / "refined.parquet", tmp_path / "problems.parquet"
    judged = codelog.judge(codecontests.out, refined, workers=2, problems_out=problems)
    # the label audit: every incorrect program fails again, which agrees with `incorrect`
    (incorrect,) = [row for row in judged.audit if row.outcome == "incorrect"]
    assert incorrect.judged == incorrect.agree == 9
    rebuilt = codelog.build(
        tmp_path / "rebuilt",
        source="ci",
        inputs=[refined],
        problems=problems,
        tests=codecontests.out / "tests.parquet",
        workers=1,
    )
    # the problems' tests travel through the rebuild (--tests): the judge finds the same ones
    before, after = (load_problems(f"codenet:{d}") for d in (codecontests.out, rebuilt.out))
    assert after and set(after) <= set(before)
    for pid, problem in after.items():
        assert problem.tests == before[pid].tests, pid
    outcomes = dict(
        table(
            rebuilt.out,
            "SELECT submission_id, outcome FROM '{out}/solutions.parquet' "
            "WHERE submission_id LIKE '%/incorrect_solutions/%'",
        )
    )
    # each incorrect program is now what it does on the problem's tests
    assert outcomes == {
        **{
            f"p02971 AtCoder Beginner Contest 134 - Exception Handling/incorrect_solutions/{k}": "wrong_answer"
            for k in range(3)
        },
        "1000_A. Codehorses T-shirts/incorrect_solutions/0": "wrong_answer",
        "1000_A. Codehorses T-shirts/incorrect_solutions/1": "runtime_error",
        "12_B. Correct Solution?/incorrect_solutions/0": "wrong_answer",
        "12_B. Correct Solution?/incorrect_solutions/1": "compile_error",
        "1198_A. MP3/incorrect_solutions/0": "time_limit",
        "1198_A. MP3/incorrect_solutions/1": "wrong_answer",
    }


def test_tests_is_for_the_ci_source_and_needs_the_test_columns(codecontests, tmp_path):
    with pytest.raises(CodelogError, match="--tests is for --source ci"):
        codelog.build(
            tmp_path / "a", source="codecontests", inputs=[CODECONTESTS],
            tests=codecontests.out / "tests.parquet",
        )  # fmt: skip
    wrong = tmp_path / "wrong.parquet"
    pq.write_table(pa.table({"problem_id": ["x"], "input": ["1"]}), wrong)
    export = tmp_path / "export.jsonl"
    export.write_text(
        '{"submission_id": "s1", "problem_id": "x", "language": "Python", "status": "Accepted",'
        ' "code": "print(1)"}\n'
    )
    with pytest.raises(InputError, match="missing: name, output"):
        codelog.build(tmp_path / "b", source="ci", inputs=[export], tests=wrong, workers=1)


def codenet_p02971(root: Path) -> Path:
    """A CodeNet tree of p02971's Python 3 accepted and wrong answers (95 rows) from the
    bundled sample: the problem the CodeContests fixture holds as an AtCoder problem."""
    from codelog.ingest.codenet import BUNDLED_ROOT

    (root / "metadata").mkdir(parents=True)
    (root / "problem_descriptions").mkdir()
    (root / "data" / "p02971" / "Python").mkdir(parents=True)
    lines = (BUNDLED_ROOT / "metadata" / "p02971.csv").read_text().splitlines(keepends=True)
    kept = [
        line for line in lines[1:]
        if ",Python (3" in line and (",Accepted," in line or ",Wrong Answer," in line)
    ]  # fmt: skip
    (root / "metadata" / "p02971.csv").write_text(lines[0] + "".join(kept))
    listing = (BUNDLED_ROOT / "metadata" / "problem_list.csv").read_text().splitlines()
    (root / "metadata" / "problem_list.csv").write_text(
        "\n".join(line for line in listing if line.startswith(("id,", "p02971,"))) + "\n"
    )
    for name in ("problem_descriptions/p02971.html",):
        (root / name).write_bytes((BUNDLED_ROOT / name).read_bytes())
    for line in kept:
        sid = line.split(",")[0]
        code = f"data/p02971/Python/{sid}.py"
        (root / code).write_bytes((BUNDLED_ROOT / code).read_bytes())
    return root


def test_a_problem_in_codenet_and_codecontests_is_one_problem(tmp_path):
    root = codenet_p02971(tmp_path / "codenet")
    report = build(tmp_path / "mixed", "codenet+codecontests", [CODECONTESTS], root=root)
    counts = report.manifest["counts"]
    assert counts["rows_in"] == 95 + 21 == counts["solutions"] + counts["rejects"]
    problems = dict(table(report.out, "SELECT problem_id, split FROM '{out}/problems.parquet'"))
    # CodeContests' "p02971 AtCoder Beginner Contest 134 - Exception Handling" is CodeNet's
    # p02971 by its statement: its rows take that id, so one split and one group
    assert sorted(problems) == [
        "1000_A. Codehorses T-shirts", "1198_A. MP3", "12_B. Correct Solution?", "p02971"
    ]  # fmt: skip
    rows = table(
        report.out,
        "SELECT problem_id, reason, detail FROM '{out}/rejects.parquet' "
        "WHERE submission_id LIKE 'p02971 AtCoder%' ORDER BY submission_id",
    )
    # deduplicated together: each CodeContests copy of a CodeNet program is its duplicate
    assert len(rows) == 6
    assert all(pid == "p02971" and reason == "duplicate" for pid, reason, _ in rows)
    assert all(detail.startswith("duplicate of s") for _, _, detail in rows)


def test_same_problems_match_statements_not_boilerplate():
    from codelog.execution.testcases import codenet_problems
    from codelog.group.split import same_problems
    from codelog.ingest.codenet import BUNDLED_ROOT

    codenet = codenet_problems(BUNDLED_ROOT)
    earlier = pa.table(
        {
            "problem_id": list(codenet),
            "prompt": [p.statement for p in codenet.values()],
        }
    )
    shard = pq.read_table(CODECONTESTS / "train-00000-of-00001.parquet")
    later = pa.table({"problem_id": shard.column("name"), "prompt": shard.column("description")})
    # the three Codeforces problems match none of CodeNet's AtCoder and AIZU ones
    assert same_problems(earlier, later) == {
        "p02971 AtCoder Beginner Contest 134 - Exception Handling": "p02971"
    }


def test_passed_test_count_is_a_partial_credit_option(tmp_path):
    recipe_file = tmp_path / "partial.toml"
    recipe_file.write_text("[partial_credit]\nweight = 0.3\n")
    recipe = load_recipe(recipe_file)
    report = run_build(
        BuildOptions(
            source="codeforces", language="python", out=tmp_path / "ds", recipe=recipe,
            inputs=(str(SUBMISSIONS),), problems_file=PROBLEMS, workers=1, show_progress=False,
        )
    )  # fmt: skip
    rows = dict(
        table(
            report.out,
            "SELECT submission_id, reward FROM '{out}/solutions.parquet' "
            "WHERE submission_id IN ('40000000', '40000002', '40000004')",
        )
    )
    # accepted keeps its reward; a wrong answer passing 2 of 12 official tests earns 0.3 x 2/12
    assert rows == {
        "40000000": 1.0,
        "40000002": pytest.approx(-0.1 + 0.3 * 2 / 12),
        "40000004": -0.6,
    }
    assert report.manifest["recipe"]["partial_credit"] == {"weight": 0.3}


def test_partial_credit_never_lifts_a_failure_to_accepted(tmp_path):
    recipe_file = tmp_path / "too-much.toml"
    recipe_file.write_text("[partial_credit]\nweight = 1.1\n")
    with pytest.raises(RecipeError, match=r"weight = 1.1: a failure passing every test would earn"):
        load_recipe(recipe_file)


def test_a_hub_name_offline_is_one_line_naming_the_local_form(tmp_path, monkeypatch):
    import huggingface_hub.constants as hub

    # no network in tests, and an empty cache (huggingface_hub reads these at each call)
    monkeypatch.setattr(hub, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(hub, "HF_HUB_CACHE", str(tmp_path / "hf"))
    with pytest.raises(CodelogError) as caught:
        build(tmp_path / "o", "codecontests", ["deepmind/code_contests"])
    message = str(caught.value)
    assert message.startswith(
        "--source codecontests --input deepmind/code_contests: cannot load it from the Hugging "
        "Face Hub ("
    )
    assert message.endswith("give a local copy of its Parquet files: --input DIR")


def test_codeforces_problems_may_be_a_directory_of_shards(codeforces, tmp_path):
    shards = tmp_path / "verifiable"
    shards.mkdir()
    problems = pq.read_table(PROBLEMS)
    pq.write_table(problems.slice(0, 1), shards / "train-00000-of-00002.parquet")
    pq.write_table(problems.slice(1), shards / "train-00001-of-00002.parquet")
    report = build(tmp_path / "ds", "codeforces", [SUBMISSIONS], problems_file=shards)
    for name in ("problems.parquet", "tests.parquet", "solutions.parquet"):
        assert (report.out / name).read_bytes() == (codeforces.out / name).read_bytes(), name


def test_codeforces_problems_are_compared_as_codeforces_checkers_do(codecontests, codeforces):
    from codelog.execution.compare import compare, rules_for

    for dataset, pid in ((codecontests, "1000_A. Codehorses T-shirts"), (codeforces, "1000A")):
        problem = load_problems(f"codenet:{dataset.out}")[pid]
        assert problem.origin == "Codeforces"
        # tokens, no Presentation Error: a trailing space is accepted
        assert compare("2 \n", "2\n", None, rules_for(problem.origin)) == "Accepted"
