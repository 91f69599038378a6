"""Verdicts in CodeNet's words, output comparison, test sources, and `codelog judge`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codelog.execution import sandbox
from codelog.execution.compare import Tolerance, compare, tolerance_from_statement
from codelog.execution.harness import RUN_TIME_CAP_MS, run_limits
from codelog.execution.judge import (
    VERDICTS,
    JudgeOptions,
    Program,
    Skipped,
    Verdict,
    judge_many,
    judge_program,
)
from codelog.execution.judge_run import dataset_programs, run_judge
from codelog.execution.testcases import (
    BUNDLED_CODENET,
    Problem,
    TestCase,
    codenet_problems,
    dataset_problems,
    jsonl_problems,
    load_problems,
)
from codelog.recipe import load_recipe
from tests.execution.memory_fact import REFUSED_ALLOCATION

ADD = Problem(
    "add",
    (TestCase("one", "1 2\n", "3\n"), TestCase("two", "10 20\n", "30\n")),
    time_limit_ms=500,
    memory_limit_kb=262_144,
)
READ_AND_ADD = "a, b = map(int, input().split())\n"


def verdict_of(code: str, problem: Problem = ADD, language: str = "Python") -> Verdict:
    return judge_program(Program("s", problem.problem_id, code, language), problem)


# ----------------------------------------------------------------------------- comparison


def test_comparison_is_exact_then_whitespace_then_wrong() -> None:
    assert compare("3\n", "3\n") == "Accepted"
    assert compare("3", "3\n") == "Accepted"  # one final newline is not a difference
    assert compare("3\r\n", "3\n") == "Accepted"
    assert compare("3 \n", "3\n") == "WA: Presentation Error"
    assert compare("1\n2\n", "1 2\n") == "WA: Presentation Error"
    assert compare("3\n\n", "3\n") == "WA: Presentation Error"
    assert compare("4\n", "3\n") == "Wrong Answer"
    assert compare("3.0\n", "3\n") == "Wrong Answer"  # no tolerance: numbers are text


def test_float_tolerance_accepts_close_numbers_only() -> None:
    tol = Tolerance(absolute=1e-5)
    assert compare("12.5663706 12.566371\n", "12.566371 12.566371\n", tol) == "Accepted"
    assert compare("12.56 12.566371\n", "12.566371 12.566371\n", tol) == "Wrong Answer"
    assert compare("12.5663706\n12.566371\n", "12.566371 12.566371\n", tol) == (
        "WA: Presentation Error"
    )
    either = Tolerance(absolute=1e-9, relative=1e-9)
    assert compare("1000000000.5\n", "1000000000.0\n", either) == "Accepted"  # relative
    assert compare("nan\n", "1.0\n", either) == "Wrong Answer"


def test_the_tolerance_is_read_from_the_statement() -> None:
    statements = BUNDLED_CODENET / "problem_descriptions"
    circle = (statements / "p02400.html").read_text(encoding="utf-8")
    rectangle = (statements / "p03001.html").read_text(encoding="utf-8")
    gcd = (statements / "p02256.html").read_text(encoding="utf-8")
    assert tolerance_from_statement(circle) == Tolerance(absolute=1e-5)
    assert tolerance_from_statement(rectangle) == Tolerance(absolute=1e-9, relative=1e-9)
    assert tolerance_from_statement(gcd) is None
    assert tolerance_from_statement("Answers within a relative error of 1e-6 are accepted.") == (
        Tolerance(relative=1e-6)
    )


# -------------------------------------------------------------------------------- verdicts


@pytest.mark.parametrize(
    ("code", "status"),
    [
        (READ_AND_ADD + "print(a + b)\n", "Accepted"),
        (READ_AND_ADD + "print(a + b + (a == 10))\n", "Wrong Answer"),
        (READ_AND_ADD + "print(a + b, end=' \\n')\n", "WA: Presentation Error"),
        (READ_AND_ADD + "print([][a])\n", "Runtime Error"),
        (READ_AND_ADD + "import sys\nsys.exit(3)\n", "Runtime Error"),
        (READ_AND_ADD + "while True:\n    pass\n", "Time Limit Exceeded"),
        (READ_AND_ADD + "x = [0] * 10 ** 10\n", REFUSED_ALLOCATION),
        (READ_AND_ADD + "while True:\n    print(a)\n", "Output Limit Exceeded"),
        ("a, b = map(int, input().split()\nprint(a + b)\n", "Compile Error"),
        ("print 1 + 2\n", "Compile Error"),
    ],
)
def test_python_verdicts_use_codenet_words(code: str, status: str) -> None:
    assert verdict_of(code).status == status


def test_a_syntax_error_raised_at_run_time_is_a_runtime_error() -> None:
    assert verdict_of("raise SyntaxError('made at run time')\n").status == "Runtime Error"
    assert verdict_of("exec('def f(:')\n").status == "Runtime Error"


def test_exit_works_as_it_does_with_site() -> None:
    assert verdict_of(READ_AND_ADD + "print(a + b)\nexit()\n").status == "Accepted"


def test_every_verdict_maps_to_an_outcome_and_a_reward_in_the_default_recipe() -> None:
    recipe = load_recipe()
    for status in VERDICTS:
        assert recipe.rewards[recipe.statuses[status]] is not None


def test_the_first_failing_test_decides_and_later_tests_are_skipped() -> None:
    verdict = verdict_of(READ_AND_ADD + "print(30)\n")
    assert verdict.status == "Wrong Answer"
    assert (verdict.tests_passed, verdict.tests_run, verdict.tests_total) == (0, 1, 2)
    assert verdict.accuracy is None  # not every test ran
    assert verdict.detail.startswith("one: expected '3\\n'")
    everything = judge_program(
        Program("s", "add", READ_AND_ADD + "print(30)\n"),
        ADD,
        JudgeOptions(stop_at_first_failure=False),
    )
    assert (everything.status, everything.accuracy) == ("Wrong Answer", "1/2")


def test_function_problems_pass_on_exit_status_and_asserts_are_wrong_answers() -> None:
    problem = Problem(
        "inc",
        (TestCase("check"),),
        code_prompt="def inc(x):\n",
        test_code="def check(f):\n    assert f(1) == 2\n",
        entry_point="inc",
    )
    assert verdict_of("    return x + 1\n", problem).status == "Accepted"
    assert verdict_of("    return x\n", problem).status == "Wrong Answer"
    assert verdict_of("    return x / 0\n", problem).status == "Runtime Error"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")
def test_c_is_compiled_once_and_judged() -> None:
    code = '#include <stdio.h>\nint main(){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b);}\n'
    assert verdict_of(code, language="C").status == "Accepted"
    runner = sandbox.runner_for("C")
    assert sandbox.compile_source(runner, code).cached  # both tests and this call: one compile
    assert verdict_of("int main({", language="C").status == "Compile Error"


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
def test_cpp_verdicts() -> None:
    code = "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<'\\n';}\n"
    assert verdict_of(code, language="c++").status == "Accepted"
    crash = "#include <cstdlib>\nint main(){std::abort();}\n"
    assert verdict_of(crash, language="C++").status == "Runtime Error"


def test_other_languages_have_no_runner() -> None:
    with pytest.raises(sandbox.SandboxError, match="no runner for 'Kotlin'"):
        verdict_of("fun main() {}", language="Kotlin")


def test_judge_many_keeps_input_order_and_reports_skips() -> None:
    programs = [
        Program("a", "add", READ_AND_ADD + "print(a + b)\n"),
        Program("b", "nope", "print(1)\n"),
        Program("c", "add", "fun main() {}", "Kotlin"),
        Program("d", "add", READ_AND_ADD + "print(a - b)\n"),
    ]
    results = judge_many(programs, {"add": ADD}, workers=2)
    assert [r.submission_id for r in results] == ["a", "b", "c", "d"]
    assert isinstance(results[1], Skipped) and results[1].reason == "no tests for this problem"
    assert isinstance(results[2], Skipped) and "no runner" in results[2].reason
    assert [r.status for r in results if isinstance(r, Verdict)] == ["Accepted", "Wrong Answer"]


# ---------------------------------------------------------------------------- test sources


def test_codenet_tests_are_the_statement_samples_with_limits() -> None:
    problems = codenet_problems(BUNDLED_CODENET)
    assert len(problems) == 8
    assert problems["p00002"].tests == (TestCase("sample 1", "5 7\n1 99\n1000 999\n", "2\n3\n4\n"),)
    assert (problems["p00002"].time_limit_ms, problems["p00002"].memory_limit_kb) == (1000, 131072)
    assert problems["p02400"].tests[1].output == "28.274334 18.849556\n"


def test_derived_input_output_is_added_after_the_samples(tmp_path: Path) -> None:
    root = tmp_path / "codenet"
    shutil.copytree(BUNDLED_CODENET / "problem_descriptions", root / "problem_descriptions")
    shutil.copytree(BUNDLED_CODENET / "metadata", root / "metadata")
    derived = root / "derived" / "input_output" / "data" / "p02256"
    derived.mkdir(parents=True)
    (derived / "input.txt").write_text("12 18\n")
    (derived / "output.txt").write_text("6\n")
    tests = codenet_problems(root, ["p02256"])["p02256"].tests
    assert [t.name for t in tests] == ["sample 1", "sample 2", "derived:input"]
    assert tests[-1] == TestCase("derived:input", "12 18\n", "6\n")


def test_a_dataset_keeps_the_same_tests_in_its_prompts(sample_dataset: Path) -> None:
    from_html = codenet_problems(BUNDLED_CODENET)
    from_text = dataset_problems(sample_dataset)
    assert {p: v.tests for p, v in from_text.items()} == {p: v.tests for p, v in from_html.items()}


def test_jsonl_problems_and_their_errors(tmp_path: Path) -> None:
    path = tmp_path / "problems.jsonl"
    path.write_text(
        json.dumps({"problem_id": "add", "tests": [{"input": "1 2\n", "output": "3\n"}]})
        + "\n"
        + json.dumps({"task_id": 7, "text": "inc", "test_list": ["assert inc(1) == 2"]})
        + "\n"
    )
    problems = jsonl_problems(path)
    assert problems["add"].kind == "stdio" and problems["7"].kind == "function"
    assert verdict_of("def inc(x):\n    return x + 1\n", problems["7"]).status == "Accepted"
    path.write_text(json.dumps({"problem_id": "x", "tests": [{"input": "1"}]}) + "\n")
    with pytest.raises(Exception, match=r"problems.jsonl line 1: column 'tests': test 1 needs"):
        jsonl_problems(path)


# ------------------------------------------------------------------------- codelog judge


def test_the_bundled_samples_accepted_programs_pass_their_sample_tests(
    sample_dataset: Path,
) -> None:
    # scripts/make_sample_sources.py --check found every accepted program accepted; the
    # full 400 run in `codelog judge` (docs/running-code.md); here every fourth one.
    programs, _ = dataset_programs(sample_dataset)
    accepted = [p for p in programs if p.logged_status == "Accepted"][::4]
    results = judge_many(accepted, codenet_problems(BUNDLED_CODENET))
    assert len(accepted) == 100
    assert [r.submission_id for r in results if r.status != "Accepted"] == []


def test_warm_and_cold_judges_give_the_same_verdicts_on_the_bundled_sample(
    sample_dataset: Path,
) -> None:
    # every fifth program of every logged status, each test forked from a warm zygote and
    # each from a fresh interpreter: the same verdicts, test by test. TLEs too, but two of
    # them: each costs its time limit twice (with all 9 of them the test took 31 s, now 12)
    programs, _ = dataset_programs(sample_dataset)
    some = programs[::5]
    slow = [p for p in some if p.logged_status in ("Time Limit Exceeded", "Output Limit Exceeded")]
    some = [p for p in some if p not in slow[2:]]
    problems = codenet_problems(BUNDLED_CODENET)
    warm = judge_many(some, problems, JudgeOptions(warm=True), workers=2)
    cold = judge_many(some, problems, JudgeOptions(warm=False), workers=2)
    assert len({p.logged_status for p in some}) >= 4
    assert [(r.status, r.tests_passed, r.tests_run) for r in warm] == [
        (r.status, r.tests_passed, r.tests_run) for r in cold
    ]
    assert all(r.isolation.endswith(", warm") for r in warm) or strongest_isolation() != "bwrap"


def strongest_isolation() -> str:
    return sandbox.resolve_isolation("auto", sandbox.python_runner().readable).isolation.mode


def test_judge_a_dataset_audits_its_labels_and_the_rows_build(
    sample_dataset: Path, tmp_path: Path
) -> None:
    from codelog.builder import run_build
    from codelog.options import BuildOptions

    programs, _ = dataset_programs(sample_dataset)
    picked: dict[str, list[Program]] = {}
    for p in programs:
        picked.setdefault(p.logged_status or "", []).append(p)
    subset = tmp_path / "samples.jsonl"
    with subset.open("w") as f:
        for _status, group in sorted(picked.items()):
            for p in group[:3]:
                f.write(
                    json.dumps(
                        {
                            "submission_id": p.submission_id,
                            "problem_id": p.problem_id,
                            "code": p.code,
                            "original_language": p.original_language,
                        }
                    )
                    + "\n"
                )
    out = tmp_path / "judged.jsonl"
    report = run_judge(
        subset,
        out,
        tests="codenet",
        options=JudgeOptions(time_scale=0.5),
        problems_out=tmp_path / "problems.jsonl",
    )
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == report.rows_written == sum(report.statuses.values())
    logged = {p.submission_id: p.logged_status for p in programs}
    # The sample's made-up row s999000008 prints forever on an AIZU problem, labelled Output
    # Limit Exceeded; AIZU itself judged such programs Time Limit Exceeded (compare.RULES).
    logged["s999000008"] = "Time Limit Exceeded"
    assert {r["submission_id"]: r["status"] for r in rows} == {
        r["submission_id"]: logged[r["submission_id"]] for r in rows
    }
    built = run_build(
        BuildOptions(
            source="ci",
            language="python",
            inputs=(str(out),),
            problems_file=tmp_path / "problems.jsonl",
            out=tmp_path / "rebuilt",
            recipe=load_recipe(),
            show_progress=False,
        )
    )
    assert built.manifest["counts"]["rows_in"] == len(rows)


def test_a_label_audit_reports_agreement_per_outcome(sample_dataset: Path, tmp_path: Path) -> None:
    report = run_judge(
        sample_dataset, tmp_path / "audit.jsonl", limit=12, options=JudgeOptions(time_scale=0.5)
    )
    assert sum(r.judged for r in report.audit) == 12
    assert all(r.rate == 1.0 for r in report.audit)
    assert (
        load_problems(f"codenet:{sample_dataset}").keys()
        == codenet_problems(BUNDLED_CODENET).keys()
    )


def test_a_run_of_many_tests_has_their_times_together_up_to_the_cap() -> None:
    apps = sandbox.Limits(time_ms=4000, wall_ms=6500)  # a test's, as JudgeOptions gives them
    assert (run_limits(apps, 1).time_ms, run_limits(apps, 1).wall_ms) == (4000, 6500)
    assert (run_limits(apps, 12).time_ms, run_limits(apps, 12).wall_ms) == (48_000, 78_000)
    # 150 tests: capped at RUN_TIME_CAP_MS (30 of APPS's tests), the wall clock with it
    assert RUN_TIME_CAP_MS == 120_000
    assert (run_limits(apps, 150).time_ms, run_limits(apps, 150).wall_ms) == (120_000, 195_000)
    # a test longer than the cap keeps its own limit
    long = sandbox.Limits(time_ms=200_000, wall_ms=300_500)
    assert (run_limits(long, 5).time_ms, run_limits(long, 5).wall_ms) == (200_000, 300_500)
