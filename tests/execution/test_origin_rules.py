"""Per-origin judging rules: AtCoder has no Presentation Error, AIZU's special judge reads tokens,
the judge's stack, the program's own peak memory, and which limit wins for endless output."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codelog.errors import InputError
from codelog.execution.compare import (
    ACCEPTED,
    PRESENTATION_ERROR,
    RULES,
    WRONG_ANSWER,
    Tolerance,
    compare,
    rules_for,
)
from codelog.execution.judge import Program, judge_program
from codelog.execution.testcases import Problem, TestCase, codenet_problems, jsonl_problems
from tests.execution.written_programs import (
    MEMORY_LIMIT_KB,
    RULE_PROGRAMS,
    TIME_LIMIT_MS,
    RuleProgram,
)

AIZU, ATCODER = RULES["AIZU"], RULES["AtCoder"]
FLOAT = Tolerance(1e-6, 1e-6)
C_DATA = Path(__file__).resolve().parents[1] / "fixtures" / "codenet-mini-c"


@pytest.mark.parametrize(
    "output",
    ["3 4 \n", "3 4", "3 4\n\n", "3\n4\n", "  3   4\n"],
    ids=["trailing space", "no final newline", "extra blank line", "one per line", "spaces"],
)
def test_atcoder_accepts_whitespace_only_differences(output: str) -> None:
    assert compare(output, "3 4\n", None, ATCODER) == ACCEPTED


def test_atcoder_still_rejects_other_tokens() -> None:
    assert compare("3 5\n", "3 4\n", None, ATCODER) == WRONG_ANSWER
    assert compare("3 4 5\n", "3 4\n", None, ATCODER) == WRONG_ANSWER


def test_aizu_presentation_error_only_on_exact_compare_problems() -> None:
    assert compare("3 4 \n", "3 4\n", None, AIZU) == PRESENTATION_ERROR
    assert compare("3  4\n", "3 4\n", None, AIZU) == PRESENTATION_ERROR


def test_aizu_float_problem_compares_tokens() -> None:
    assert compare("0.5000000  2.0\n", "0.5 2.0\n", FLOAT, AIZU) == ACCEPTED
    assert compare("0.5\n2.0000001\n", "0.5 2.0\n", FLOAT, AIZU) == ACCEPTED
    assert compare("0.5 2.1\n", "0.5 2.0\n", FLOAT, AIZU) == WRONG_ANSWER


def test_codelog_rules_are_unchanged_without_an_origin() -> None:
    assert rules_for(None) is RULES["codelog"]
    assert compare("3 4 \n", "3 4\n") == PRESENTATION_ERROR
    assert compare("0.5  2.0\n", "0.5 2.0\n", FLOAT) == PRESENTATION_ERROR


def test_origin_comes_from_problem_list_dataset_column() -> None:
    problems = codenet_problems(C_DATA)
    assert {p: problems[p].origin for p in problems} == {
        "p00002": "AIZU",
        "p02256": "AIZU",
        "p03001": "AtCoder",
        "p03242": "AtCoder",
    }


def test_origin_in_a_problems_file(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    record = {"problem_id": "a", "tests": [{"input": "", "output": "1\n"}], "origin": "atcoder"}
    path.write_text(json.dumps(record) + "\n")
    assert jsonl_problems(path)["a"].origin == "AtCoder"
    path.write_text(json.dumps({**record, "origin": "topcoder"}) + "\n")
    with pytest.raises(InputError, match="line 1: column 'origin': unknown origin 'topcoder'"):
        jsonl_problems(path)


# ----------------------------------------------------------------------- runs in the sandbox

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on PATH")


def _problem(origin: str | None, output: str = "3\n", memory_kb: int = 131072) -> Problem:
    return Problem(
        "add",
        (TestCase("sample 1", "1 2\n", output),),
        time_limit_ms=1000,
        memory_limit_kb=memory_kb,
        origin=origin,
    )


def _c(code: str, problem: Problem):
    return judge_program(Program("s", problem.problem_id, code, "C"), problem)


@needs_gcc
def test_trivial_c_program_memory_is_its_own() -> None:
    verdict = _c('#include <stdio.h>\nint main(){puts("3");return 0;}\n', _problem("AtCoder"))
    assert verdict.status == ACCEPTED
    assert 0 < verdict.memory_kb < 10_000


@needs_gcc
@pytest.mark.parametrize("origin", ["AIZU", "AtCoder"])
def test_deep_recursion_has_the_judges_stack(origin: str) -> None:
    # 200 MB of stack frames fit AtCoder's 1 GB; 64 MB fit AIZU's 128 MB (stack = memory).
    depth = 200_000 if origin == "AtCoder" else 60_000
    code = (
        "#include <stdio.h>\n"
        "int f(int n){volatile char pad[1000]; pad[0]=1; return n ? f(n-1)+pad[0] : 0;}\n"
        f'int main(){{printf("%d\\n", f({depth}) == {depth} ? 3 : 0);return 0;}}\n'
    )
    memory = 1_048_576 if origin == "AtCoder" else 131_072
    assert _c(code, _problem(origin, memory_kb=memory)).status == ACCEPTED


@needs_gcc
def test_big_static_array_within_the_limit_runs() -> None:
    code = (
        "#include <stdio.h>\nstatic int a[50000000];\n"
        'int main(){a[49999999]=3;printf("%d\\n",a[49999999]);return 0;}\n'
    )
    assert _c(code, _problem("AtCoder", memory_kb=1_048_576)).status == ACCEPTED


@needs_gcc
def test_using_more_than_the_memory_limit_is_memory_limit() -> None:
    code = (
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
        'int main(){int a,b; scanf("%d %d",&a,&b); size_t n=(size_t)200<<20;'
        "char*p=malloc(n); if(!p){return 1;} memset(p,a,n); long s=0;"
        "for(size_t i=0;i<n;i+=4096)s+=p[i];"
        'printf("%ld\\n",s/(long)(n/4096)+b);return 0;}\n'
    )
    verdict = _c(code, _problem("AtCoder", memory_kb=1_048_576))
    assert verdict.status == ACCEPTED and verdict.memory_kb > 200_000
    # Under AIZU's 128 MB the allocation is refused (or the measured peak is over): not Accepted.
    assert _c(code, _problem("AIZU")).status in ("Memory Limit Exceeded", "Runtime Error")


@needs_gcc
def test_endless_output_is_time_limit_on_aizu_and_output_limit_on_atcoder() -> None:
    code = '#include <stdio.h>\nint main(){for(;;)printf("1");}\n'
    assert _c(code, _problem("AIZU")).status == "Time Limit Exceeded"
    assert _c(code, _problem("AtCoder")).status == "Output Limit Exceeded"


@needs_gcc
def test_trailing_space_is_accepted_on_atcoder_presentation_error_on_aizu() -> None:
    code = '#include <stdio.h>\nint main(){printf("3 \\n");return 0;}\n'
    assert _c(code, _problem("AtCoder")).status == ACCEPTED
    assert _c(code, _problem("AIZU")).status == PRESENTATION_ERROR


def rule_problem(program: RuleProgram, origin: str) -> Problem:
    tolerance = program.float_tolerance
    return Problem(
        "rule",
        (TestCase("sample 1", program.input, program.expected_output),),
        time_limit_ms=TIME_LIMIT_MS[origin],
        memory_limit_kb=MEMORY_LIMIT_KB[origin],
        tolerance=Tolerance(tolerance, tolerance) if tolerance else None,
        origin=origin,
    )


@needs_gcc
@pytest.mark.parametrize("origin", ["AIZU", "AtCoder"])
@pytest.mark.parametrize("program", RULE_PROGRAMS, ids=[p.name for p in RULE_PROGRAMS])
def test_written_rule_program(program: RuleProgram, origin: str) -> None:
    verdict = judge_program(Program("s", "rule", program.code, "C"), rule_problem(program, origin))
    assert (verdict.status, origin) == (program.verdicts[origin], origin), verdict.detail


@needs_gcc
def test_a_program_cannot_forge_its_memory_report() -> None:
    # The exec helper's report pipe is closed in the program, and the helper is not dumpable:
    # /proc/<helper>/fd/N cannot be opened to write a lower peak.
    code = (
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <fcntl.h>\n"
        "#include <unistd.h>\n"
        "int main(){ char *p = malloc(200<<20); memset(p, 1, 200<<20); char path[64];\n"
        "  for (int fd = 3; fd < 10; fd++) {\n"
        '    snprintf(path, 64, "/proc/%d/fd/%d", getppid(), fd);\n'
        '    int f = open(path, O_WRONLY); if (f >= 0) dprintf(f, "0 0 1\\n"); }\n'
        '  printf("%d\\n", 2 + p[7]); return 0; }\n'
    )
    verdict = _c(code, _problem("AtCoder", memory_kb=1_048_576))
    assert verdict.status == ACCEPTED and verdict.memory_kb > 200_000
