"""Programs written to exercise each judging rule and each language's verdicts: used by the
tests and by `scripts/label_audit.py --written`, whose table is in docs/running-code.md."""

from __future__ import annotations

from dataclasses import dataclass

# f(ms) spends `ms` milliseconds of CPU and returns ms: calls of a known cost, for the time
# limit each test of a call-based problem has.
SPINS_FOR_MS = (
    "import time\n\n\ndef f(ms):\n    began = time.process_time()\n"
    "    while time.process_time() - began < ms / 1000:\n        pass\n    return ms\n"
)

# Burns 0.6 s of CPU, then tries to kill its parent: in a cold run that is the exec helper,
# which reports the program's own CPU time (a warm run's parent is its zygote).
BURNS_THEN_KILLS_ITS_PARENT = (
    "import os, signal, time\n"
    "t = time.process_time()\n"
    "while time.process_time() - t < 0.6:\n"
    "    pass\n"
    "try:\n"
    "    os.kill(os.getppid(), signal.SIGKILL)\n"
    "except OSError:\n"
    "    pass\n"
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


@dataclass(frozen=True)
class RuleProgram:
    """A C program, a test, and the verdict each origin judge gives it."""

    name: str
    code: str
    expected_output: str
    verdicts: dict[str, str]  # origin -> verdict
    input: str = "1 2\n"
    float_tolerance: float | None = None


_PRINT = '#include <stdio.h>\nint main(){{printf("{}");return 0;}}\n'

RULE_PROGRAMS = (
    RuleProgram(
        "trailing space",
        _PRINT.format("3 \\n"),
        "3\n",
        {"AIZU": "WA: Presentation Error", "AtCoder": "Accepted"},
    ),
    RuleProgram(
        "missing final newline",
        _PRINT.format("3"),
        "3\n",
        {"AIZU": "Accepted", "AtCoder": "Accepted"},
    ),
    RuleProgram(
        "extra blank line",
        _PRINT.format("3\\n\\n"),
        "3\n",
        {"AIZU": "WA: Presentation Error", "AtCoder": "Accepted"},
    ),
    RuleProgram(
        "two numbers on two lines",
        _PRINT.format("1\\n2\\n"),
        "1 2\n",
        {"AIZU": "WA: Presentation Error", "AtCoder": "Accepted"},
    ),
    RuleProgram(
        "double space between floats (tolerance 1e-6)",
        _PRINT.format("0.5  2.0000001\\n"),
        "0.5 2.0\n",
        {"AIZU": "Accepted", "AtCoder": "Accepted"},
        float_tolerance=1e-6,
    ),
    RuleProgram(
        "float off by 1e-3 (tolerance 1e-6)",
        _PRINT.format("0.5 2.001\\n"),
        "0.5 2.0\n",
        {"AIZU": "Wrong Answer", "AtCoder": "Wrong Answer"},
        float_tolerance=1e-6,
    ),
    RuleProgram(
        "prints forever",
        '#include <stdio.h>\nint main(){for(;;)printf("1");}\n',
        "3\n",
        {"AIZU": "Time Limit Exceeded", "AtCoder": "Output Limit Exceeded"},
    ),
    RuleProgram(
        "100 MB of stack (recursion)",
        "#include <stdio.h>\n"
        "int f(int n){volatile char pad[1000]; pad[0]=1; return n ? f(n-1)+pad[0] : 0;}\n"
        'int main(){printf("%d\\n", f(100000) == 100000 ? 3 : 0);return 0;}\n',
        "3\n",
        {"AIZU": "Accepted", "AtCoder": "Accepted"},
    ),
)

MEMORY_LIMIT_KB = {"AIZU": 131_072, "AtCoder": 1_048_576}
TIME_LIMIT_MS = {"AIZU": 1000, "AtCoder": 2000}
