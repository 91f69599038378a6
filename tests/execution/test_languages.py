"""Every language's runner: an accepted program and its wrong-answer, runtime-error and
compile-error twins get those verdicts (skipped only when the toolchain is missing)."""

from __future__ import annotations

import pytest

from codelog.execution import languages
from codelog.execution.judge import Program, judge_program
from codelog.execution.testcases import Problem, TestCase

ADD = Problem(
    "add",
    (TestCase("sample 1", "1 2\n", "3\n"), TestCase("sample 2", "40 2\n", "42\n")),
    time_limit_ms=2000,
    memory_limit_kb=1_048_576,
    origin="AtCoder",
)

# language -> (accepted, wrong answer, runtime error, syntax error, the syntax error's verdict)
PROGRAMS = {
    "Java": (
        "import java.util.*;\npublic class Main { public static void main(String[] a) {\n"
        "  Scanner s = new Scanner(System.in); long x = s.nextLong(), y = s.nextLong();\n"
        "  System.out.println(x + y); } }\n",
        "import java.util.*;\npublic class Main { public static void main(String[] a) {\n"
        "  Scanner s = new Scanner(System.in); long x = s.nextLong(), y = s.nextLong();\n"
        "  System.out.println(x - y); } }\n",
        "public class Main { public static void main(String[] a) {\n"
        "  int[] v = new int[1]; System.out.println(v[5]); } }\n",
        "public class Main { public static void main(String[] a) { int x = } }\n",
        "Compile Error",
    ),
    "Ruby": (
        "a, b = gets.split.map(&:to_i)\nputs a + b\n",
        "a, b = gets.split.map(&:to_i)\nputs a * b\n",
        "a, b = gets.split.map(&:to_i)\nputs a / 0\n",
        "def f(\n  puts 1\n",
        "Compile Error",
    ),
    "C#": (
        "using System;\nclass P { static void Main() {\n"
        "  var t = Console.ReadLine().Split(' ');\n"
        "  Console.WriteLine(long.Parse(t[0]) + long.Parse(t[1])); } }\n",
        "using System;\nclass P { static void Main() {\n"
        "  var t = Console.ReadLine().Split(' ');\n"
        "  Console.WriteLine(long.Parse(t[0])); } }\n",
        'using System;\nclass P { static void Main() { throw new Exception("x"); } }\n',
        "using System;\nclass P { static void Main() { int x = ; } }\n",
        "Compile Error",
    ),
    "Go": (
        'package main\nimport "fmt"\nfunc main() { var a, b int; fmt.Scan(&a, &b); '
        "fmt.Println(a + b) }\n",
        'package main\nimport "fmt"\nfunc main() { var a, b int; fmt.Scan(&a, &b); '
        "fmt.Println(a * b) }\n",
        "package main\nfunc main() { var p []int; println(p[3]) }\n",
        "package main\nfunc main() { x := }\n",
        "Compile Error",
    ),
    "Rust": (
        "use std::io::*;\nfn main() { let mut s = String::new(); "
        "stdin().read_to_string(&mut s).unwrap();\n"
        "  let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();\n"
        '  println!("{}", v[0] + v[1]); }\n',
        'fn main() { println!("3"); }\n',
        'fn main() { let v: Vec<i64> = Vec::new(); println!("{}", v[3]); }\n',
        "fn main() { let x = ; }\n",
        "Compile Error",
    ),
    "JavaScript": (
        'const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);\n'
        "console.log(a + b);\n",
        'const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);\n'
        "console.log(a - b);\n",
        "null.x;\n",
        "const = ;\n",
        # No compile step, as AtCoder's Node.js: the syntax error surfaces when it runs.
        "Runtime Error",
    ),
}


@pytest.mark.parametrize("language", sorted(PROGRAMS))
def test_language_verdicts(language: str) -> None:
    missing = languages.available(language)
    if missing is not None:
        pytest.skip(missing)
    accepted, wrong, crash, syntax, syntax_verdict = PROGRAMS[language]

    def status(code: str) -> str:
        verdict = judge_program(Program("s", "add", code, language), ADD)
        return (
            f"{verdict.status}: {verdict.detail[:200]}" if verdict.status != expected else expected
        )

    for expected, code in (
        ("Accepted", accepted),
        ("Wrong Answer", wrong),
        ("Runtime Error", crash),
        (syntax_verdict, syntax),
    ):
        assert status(code) == expected


def test_unknown_language_says_what_runs() -> None:
    assert "no runner for 'Kotlin'" in (languages.available("Kotlin") or "")
    assert languages.runner_language("JAVA") == "Java"
    assert languages.runner_language("golang") == "Go"


@pytest.mark.parametrize("language", ["Java", "Go", "C#", "JavaScript"])
def test_reserving_runtimes_get_no_address_space_limit(language: str) -> None:
    missing = languages.available(language)
    if missing is not None:
        pytest.skip(missing)
    assert languages.runner_for(language).address_space is False
