"""Write the bundled sample's Python sources, one per Python row of the CodeNet metadata.

IBM's Mini Project CodeNet ships metadata and statements but not the programs, so we write them:
for every row with language "Python", a program whose behaviour on the problem's sample input
matches the row's status (see codelog/data/codenet-mini/README.md). Deterministic: the same
catalogue and seed give byte-identical files.

How a program is made:
1. a *design* is picked from the catalogue (scripts/sample_catalogue.py): a whole program, or
   a reader joined with a body, optionally wrapped in `def main()`. Python 2 rows get the
   parts converted to Python 2 (print statement, raw_input). About a third of the rows instead
   reuse the design of an earlier row of the same problem, status and dialect (a copy);
2. a *surface style* is applied: identifiers renamed, comments added, operator spacing,
   indentation width, blank lines and line endings changed. None of it changes the structure,
   so copies differ from their original in surface only.

Also appends a few rows (submission ids s9990000NN) so that every outcome occurs: compile
errors, output limit, judge not available. Usage:

    python scripts/make_sample_sources.py            # write sources and extra rows
    python scripts/make_sample_sources.py --check    # also judge every program on the samples
"""

from __future__ import annotations

import argparse
import builtins
import csv
import io
import keyword
import random
import re
import sys
import tokenize
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sample_judge
from sample_catalogue import AC, CATALOGUE, Problem, Snippet

ROOT = Path(__file__).resolve().parents[1] / "codelog" / "data" / "codenet-mini"
SEED = "codelog-sample-v1"
COPY_RATE = 0.33

# --------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class Row:
    submission_id: str
    problem_id: str
    user_id: str
    date: int
    original_language: str
    status: str

    @property
    def version(self) -> tuple[int, int]:
        """The Python version the judge ran, as far as original_language tells."""
        lang = self.original_language
        if lang in ("Python", "Python (2.7.6)", "PyPy2 (5.6.0)"):
            return (2, 7)  # AIZU's bare "Python" is Python 2
        if lang == "Python3":
            return (3, 4) if self.date < 1514764800 else (3, 6)  # AOJ upgraded around 2018
        return {"Python (3.4.3)": (3, 4), "PyPy3 (2.4.0)": (3, 2), "PyPy3 (7.3.0)": (3, 6)}.get(
            lang, (3, 8)
        )

    @property
    def dialect(self) -> str:
        return "2" if self.version[0] == 2 else "3"


def read_problems() -> dict[str, dict[str, str]]:
    with open(ROOT / "metadata" / "problem_list.csv", newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def read_rows(problem_id: str) -> list[Row]:
    with open(ROOT / "metadata" / f"{problem_id}.csv", newline="") as f:
        return [
            Row(
                r["submission_id"],
                r["problem_id"],
                r["user_id"],
                int(r["date"]),
                r["original_language"],
                r["status"],
            )
            for r in csv.DictReader(f)
            if r["language"] == "Python"
        ]


# --------------------------------------------------------------------------- tokens


def tokens(src: str) -> list[tokenize.TokenInfo]:
    """Tokens of src, with Python 3.12+ f-string pieces merged back into one STRING token."""
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    start_type = getattr(tokenize, "FSTRING_START", None)
    if start_type is None:
        return toks
    lines = src.splitlines(keepends=True)
    merged: list[tokenize.TokenInfo] = []
    depth = 0
    for tok in toks:
        if tok.type == start_type:
            if depth == 0:
                begin = tok
            depth += 1
        elif tok.type == tokenize.FSTRING_END:
            depth -= 1
            if depth == 0:
                (r0, c0), (r1, c1) = begin.start, tok.end
                text = "".join(lines[r0 - 1 : r1])
                text = text[c0 : len(text) - len(lines[r1 - 1]) + c1]
                merged.append(
                    tokenize.TokenInfo(tokenize.STRING, text, begin.start, tok.end, begin.line)
                )
        elif depth == 0:
            merged.append(tok)
    return merged


def is_fstring(tok: tokenize.TokenInfo) -> bool:
    return tok.type == tokenize.STRING and bool(
        re.match(r"[A-Za-z]*[fF][A-Za-z]*['\"]", tok.string)
    )


_LAYOUT = {
    tokenize.NEWLINE,
    tokenize.NL,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.COMMENT,
    tokenize.ENDMARKER,
}

# --------------------------------------------------------------------------- Python 2

# Constructs with no Python 2 spelling that the converter leaves alone.
_PY3_ONLY = re.compile(
    r"math\.gcd|from math import gcd|maketrans|open\(0\)|nonlocal|\.copy\(\)|accumulate"
    r"|\*[A-Za-z_]\w*\s*=(?!=)"
)


def to_python2(code: str, keep_input: bool, print_parens: bool) -> str | None:
    """code with print calls as print statements and input() as raw_input(); None if it can't."""
    if _PY3_ONLY.search(code):
        return None
    toks = [t for t in tokens(code) if t.type not in (tokenize.NL, tokenize.COMMENT)]
    if any(is_fstring(t) for t in toks):
        return None
    offsets = [0]
    for line in code.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))

    def at(pos: tuple[int, int]) -> int:
        return offsets[pos[0] - 1] + pos[1]

    edits: list[tuple[int, int, str]] = []
    for i, tok in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        prev = toks[i - 1] if i else None
        if tok.type != tokenize.NAME or nxt is None or nxt.string != "(":
            continue
        if prev is not None and prev.string == ".":
            continue
        if tok.string == "input" and not keep_input:
            edits.append((at(tok.start), at(tok.end), "raw_input"))
        if tok.string != "print":
            continue
        if prev is not None and prev.type not in (
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
        ):
            return None  # print used inside an expression
        depth, close, commas = 0, None, 0
        for j in range(i + 1, len(toks)):
            s = toks[j].string
            if toks[j].type == tokenize.OP and s in "([{":
                depth += 1
            elif toks[j].type == tokenize.OP and s in ")]}":
                depth -= 1
                if depth == 0:
                    close = j
                    break
            elif depth == 1 and s == ",":
                commas += 1
            elif depth == 1 and (s == "=" or (s in ("*", "**") and toks[j - 1].string in "(,")):
                return None  # keyword or star arguments: no print statement equivalent
        if close is None or toks[close].end[0] != nxt.start[0]:
            return None
        if toks[close + 1].type not in (tokenize.NEWLINE, tokenize.ENDMARKER):
            return None
        if close == i + 2:
            edits.append((at(nxt.start), at(toks[close].end), ""))
        elif not (print_parens and commas == 0):
            edits.append((at(nxt.start), at(nxt.end), " "))
            edits.append((at(toks[close].start), at(toks[close].end), ""))
    for start, end, text in sorted(edits, reverse=True):
        code = code[:start] + text + code[end:]
    return code


def min_version(src: str) -> tuple[int, int]:
    """The oldest Python 3 that runs src (as far as the catalogue's features go)."""
    if any(is_fstring(t) for t in tokens(src)):
        return (3, 6)
    if re.search(r"math\.gcd|from math import gcd", src):
        return (3, 5)
    if "accumulate" in src:
        return (3, 3)
    return (3, 0)


# --------------------------------------------------------------------------- designs


@dataclass(frozen=True)
class Design:
    """The structure of a program: which catalogue parts, and how they are joined."""

    program: str | None = None
    reader: str | None = None
    broken: bool = False  # the reader is a broken reader, joined with an Accepted body
    body: str | None = None
    wrapper: str = "none"  # "none", "main" (def main(): ... main()), "guard" (if __name__ ...)
    print_parens: bool = False  # Python 2: keep parentheses around a lone print argument

    @property
    def core(self) -> tuple:
        return (self.program, self.reader, self.broken, self.body)


def _find(snippets: tuple[Snippet, ...], name: str) -> Snippet:
    for snippet in snippets:
        if snippet.name == name:
            return snippet
    raise KeyError(name)


def cores(problem: Problem, status: str) -> Iterator[Design]:
    for program in problem.programs.get(status, ()):
        yield Design(program=program.name)
    for reader in problem.readers:
        for body in problem.bodies.get(status, ()):
            if reader.io == body.io:
                yield Design(reader=reader.name, body=body.name)
    for reader in problem.broken_readers.get(status, ()):
        for body in problem.bodies.get(AC, ()):
            if reader.io == body.io and (not reader.only or body.name in reader.only):
                yield Design(reader=reader.name, broken=True, body=body.name)


def _split(text: str) -> tuple[list[str], list[str], list[str]]:
    """(imports, helper lines, code lines) of a part; helpers come before a '---' line."""
    lines = text.splitlines()
    helpers: list[str] = []
    if "---" in lines:
        cut = lines.index("---")
        helpers, lines = lines[:cut], lines[cut + 1 :]
    imports = [ln for ln in helpers + lines if ln.startswith(("import ", "from "))]
    helpers = [ln for ln in helpers if ln not in imports]
    lines = [ln for ln in lines if ln not in imports]
    return imports, helpers, lines


def _convert(snippet: Snippet, dialect: str, keep_input: bool, print_parens: bool) -> str | None:
    if snippet.py not in ("*", dialect):
        return None
    if dialect == "3" or snippet.py == "2":
        return snippet.text
    imports, helpers, code = _split(snippet.text)
    converted = []
    for chunk in (imports, helpers, code):
        text = to_python2("\n".join(chunk) + "\n", keep_input, print_parens) if chunk else ""
        if text is None:
            return None
        converted.append(text.rstrip("\n"))
    imports_text, helpers_text, code_text = converted
    joined = "\n".join(x for x in (imports_text, helpers_text) if x)
    return f"{joined}\n---\n{code_text}\n" if joined else code_text + "\n"


def build(problem: Problem, status: str, design: Design, dialect: str) -> str | None:
    """The program text of a design in a dialect, before styling; None if it has no such form."""
    if design.program is not None:
        snippets = [_find(problem.programs[status], design.program)]
    else:
        readers = problem.broken_readers[status] if design.broken else problem.readers
        bodies = problem.bodies[AC] if design.broken else problem.bodies[status]
        snippets = [_find(readers, design.reader), _find(bodies, design.body)]
    keep_input = any(re.search(r"^\s*input\s*=", s.text, re.M) for s in snippets)
    texts = [_convert(s, dialect, keep_input, design.print_parens) for s in snippets]
    if any(t is None for t in texts):
        return None
    if design.program is not None:
        return texts[0]
    (r_imports, r_helpers, r_code), (b_imports, b_helpers, b_code) = map(_split, texts)
    slot = next(i for i, ln in enumerate(r_code) if ln.strip() == "@BODY")
    indent = r_code[slot][: len(r_code[slot]) - len(r_code[slot].lstrip())]
    code = r_code[:slot] + [indent + ln if ln else ln for ln in b_code] + r_code[slot + 1 :]
    if design.wrapper != "none":
        code = ["def main():"] + ["    " + ln if ln else ln for ln in code] + ["", ""]
        code += (
            ["main()"] if design.wrapper == "main" else ['if __name__ == "__main__":', "    main()"]
        )
    imports = list(dict.fromkeys(r_imports + b_imports))
    out: list[str] = []
    if imports:
        out += [*imports, ""]
    for helpers in (r_helpers, b_helpers):
        if helpers:
            out += [*helpers, "", ""] if helpers[0].startswith("def ") else [*helpers, ""]
    return "\n".join(out + code) + "\n"


# --------------------------------------------------------------------------- surface style

_BINARY = {"+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", ">", "<=", ">=", "&", "|", "^"}
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "//=", "%=", "**="}


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_PY2_BUILTINS = set(
    _words(
        "raw_input xrange unicode long reduce unichr basestring file cmp execfile apply buffer "
        "intern coerce reload"
    )
)
_NOT_RENAMED = set(dir(builtins)) | _PY2_BUILTINS | set(keyword.kwlist) | {"print", "exec", "_"}
_VAR_POOL = _words(
    "x y z p q m k t u v w c d e f g h j o num val tmp res cnt arr lst nums data vals total cur "
    "best idx pos flag buf seq left right first second top mx mn area length result answer "
    "digits count chars stack out text word row col n1 n2 aa bb xs ys tot ret acc kk ii jj"
)
_FUNC_POOL = _words("solve calc f func run resolve compute go helper work")
_COMMENTS = (
    "input",
    "read input",
    "output",
    "answer",
    "solve",
    "main",
    "debug",
    "loop",
    "edge case",
    "TODO",
    "O(N)",
    "check",
    "print answer",
    "init",
)
_COMMENTS_JA = ("入力", "出力", "答え", "ループ", "解答")


@dataclass(frozen=True)
class Style:
    indent: str
    tight_ops: bool
    tight_assign: bool
    tight_comma: bool
    pad_parens: bool
    print_space: bool
    header: tuple[str, ...]
    line_comments: int  # comment lines inserted above code lines
    tail_comments: int  # comments appended to code lines
    blank_lines: str  # "keep", "none" or "extra"
    ending: str  # what follows the last line
    crlf: bool
    rename: str  # "keep", "upper" or "pool"


def random_style(rng: random.Random, dialect: str, headers: tuple[str, ...]) -> Style:
    header: list[str] = []
    if rng.random() < 0.12:
        header.append("#!/usr/bin/env python3" if dialect == "3" else "#!/usr/bin/env python")
    if rng.random() < 0.2:
        header.append(rng.choice(("# -*- coding: utf-8 -*-", "# coding: utf-8")))
    if rng.random() < 0.2:
        header.append(rng.choice(headers))
    return Style(
        indent=rng.choices(("    ", "  ", "\t", "        "), (70, 15, 10, 5))[0],
        tight_ops=rng.random() < 0.3,
        tight_assign=rng.random() < 0.2,
        tight_comma=rng.random() < 0.25,
        pad_parens=rng.random() < 0.05,
        print_space=rng.random() < 0.05,
        header=tuple(header),
        line_comments=rng.choices((0, 1, 2), (75, 18, 7))[0],
        tail_comments=rng.choices((0, 1, 2), (75, 18, 7))[0],
        blank_lines=rng.choices(("keep", "none", "extra"), (60, 20, 20))[0],
        ending=rng.choices(("\n", "", "\n\n"), (85, 10, 5))[0],
        crlf=rng.random() < 0.03,
        rename=rng.choices(("keep", "upper", "pool"), (45, 10, 45))[0],
    )


def user_names(toks: list[tokenize.TokenInfo]) -> tuple[list[str], set[int]]:
    """Identifiers the program chose (in order of first use) and the token indices that use them.

    Not renamed: keywords, builtins, attributes, keyword-argument names, anything on an import
    line, and names used inside f-strings (the tokenizer does not see into those)."""
    frozen: set[str] = set()
    uses: dict[int, str] = {}
    brackets: list[str] = []  # "def" for a parameter list, else the bracket itself
    line_start, import_line = True, False
    prev: tokenize.TokenInfo | None = None
    prev2: tokenize.TokenInfo | None = None
    for i, tok in enumerate(toks):
        if tok.type == tokenize.NEWLINE:
            line_start = True
        if tok.type in _LAYOUT:
            continue
        if line_start:
            import_line = tok.string in ("import", "from")
            line_start = False
        nxt = next((t for t in toks[i + 1 :] if t.type not in _LAYOUT), None)
        if is_fstring(tok):
            frozen.update(re.findall(r"[A-Za-z_]\w*", tok.string))
        elif tok.type == tokenize.OP and tok.string in "([{":
            brackets.append("def" if prev2 is not None and prev2.string == "def" else tok.string)
        elif tok.type == tokenize.OP and tok.string in ")]}":
            brackets.pop()
        elif tok.type == tokenize.NAME and tok.string not in _NOT_RENAMED:
            after_dot = prev is not None and prev.string == "."
            kwarg = nxt is not None and nxt.string == "=" and brackets[-1:] == ["("]
            if import_line:
                frozen.add(tok.string)
            elif not after_dot and not kwarg and not tok.string.startswith("__"):
                uses[i] = tok.string
        prev2, prev = prev, tok
    names = [name for name in dict.fromkeys(uses.values()) if name not in frozen]
    return names, {i for i, name in uses.items() if name not in frozen}


def rename_map(
    rng: random.Random, scheme: str, names: list[str], taken: set[str], functions: set[str]
) -> dict[str, str]:
    used = set(taken)
    mapping: dict[str, str] = {}
    for name in names:
        if scheme == "upper" and len(name) == 1 and name.islower():
            new = name.upper()
        elif scheme == "pool" and rng.random() < 0.75:
            pool = _FUNC_POOL if name in functions else _VAR_POOL
            free = [p for p in pool if p not in used]
            new = rng.choice(free) if free else name
        else:
            continue
        if new not in used:
            mapping[name] = new
            used.add(new)
    return mapping


def unary_operators(toks: list[tokenize.TokenInfo]) -> set[int]:
    """Indices of +, -, *, ** and ~ tokens used as prefix operators (-1, f(*args))."""
    unary, prev = set(), None
    for i, tok in enumerate(toks):
        if tok.type in _LAYOUT:
            continue
        if (
            tok.type == tokenize.OP
            and tok.string in ("+", "-", "*", "**", "~")
            and (
                prev is None
                or (prev.type == tokenize.OP and prev.string not in ")]}")
                or keyword.iskeyword(prev.string)
                or prev.string == "print"
            )
        ):
            unary.add(i)
        prev = tok
    return unary


def _gap(
    style: Style,
    prev: tokenize.TokenInfo,
    tok: tokenize.TokenInfo,
    gap: int,
    prev_binary: bool,
    tok_binary: bool,
) -> int:
    """The spaces between two tokens on a line under a style (the original gap is `gap`)."""
    if tok.type == tokenize.COMMENT:
        return gap
    near_keyword = any(keyword.iskeyword(t.string) or t.string == "print" for t in (prev, tok))
    if not near_keyword:
        if style.tight_ops and (prev_binary or tok_binary):
            return 0
        if style.tight_assign and _ASSIGN & {prev.string, tok.string}:
            return 0
    if style.tight_comma and prev.type == tokenize.OP and prev.string == ",":
        return 0
    if (
        style.pad_parens
        and gap == 0
        and (
            (prev.string == "(" and tok.string != ")") or (tok.string == ")" and prev.string != "(")
        )
    ):
        return 1
    if style.print_space and prev.string == "print" and tok.string == "(":
        return 1
    return gap


def restyle(src: str, style: Style, rng: random.Random, dialect: str) -> str:
    """src with the surface style applied; the token stream (structure) stays the same."""
    toks = tokens(src)
    names, renamable = user_names(toks)
    taken = {t.string for t in toks if t.type == tokenize.NAME} | _NOT_RENAMED
    functions = {toks[i + 1].string for i, t in enumerate(toks[:-1]) if t.string == "def"}
    mapping = rename_map(rng, style.rename, names, taken, functions)
    unary = unary_operators(toks)

    rows: dict[int, list[int]] = defaultdict(list)
    for i, tok in enumerate(toks):
        if tok.type not in (
            tokenize.NEWLINE,
            tokenize.NL,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.ENDMARKER,
        ):
            rows[tok.start[0]].append(i)
    # (text, indent, simple): simple lines hold one whole logical line and may take a comment
    lines: list[tuple[str, str, bool]] = []
    depth = 0
    for row in range(1, len(src.splitlines()) + 1):
        if not rows.get(row):
            lines.append(("", "", False))
            continue
        first = toks[rows[row][0]]
        starts = depth == 0
        indent = style.indent * (first.start[1] // 4) if starts else " " * first.start[1]
        pieces, prev, prev_binary = [indent], None, False
        for i in rows[row]:
            tok = toks[i]
            binary = tok.type == tokenize.OP and tok.string in _BINARY and i not in unary
            if prev is not None:
                gap = _gap(style, prev, tok, tok.start[1] - prev.end[1], prev_binary, binary)
                pieces.append(" " * gap)
            pieces.append(mapping.get(tok.string, tok.string) if i in renamable else tok.string)
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
            prev, prev_binary = tok, binary
        simple = starts and depth == 0 and first.type != tokenize.COMMENT
        lines.append(("".join(pieces), indent, simple))

    if style.blank_lines == "none":
        lines = [ln for ln in lines if ln[0]]
    elif style.blank_lines == "extra":
        spaced = []
        for ln in lines:
            spaced.append(ln)
            if ln[2] and rng.random() < 0.25:
                spaced.append(("", "", False))
        lines = spaced
    phrases = _COMMENTS + (_COMMENTS_JA if dialect == "3" else ())
    simple_rows = [i for i, ln in enumerate(lines) if ln[2]]
    for i in sorted(rng.sample(simple_rows, min(style.tail_comments, len(simple_rows)))):
        text, indent, simple = lines[i]
        lines[i] = (f"{text}  # {rng.choice(phrases)}", indent, simple)
    for i in sorted(
        rng.sample(simple_rows, min(style.line_comments, len(simple_rows))), reverse=True
    ):
        lines.insert(i, (f"{lines[i][1]}# {rng.choice(phrases)}", "", False))
    text = "\n".join([*style.header, *(ln[0] for ln in lines)]).rstrip("\n") + style.ending
    return text.replace("\n", "\r\n") if style.crlf else text


# --------------------------------------------------------------------------- generation


@dataclass(frozen=True)
class Source:
    row: Row
    design: Design | None  # None for the hand-written extra rows
    copy_of: str | None
    text: str


def generate(problem_id: str, rows: list[Row], headers: tuple[str, ...]) -> list[Source]:
    problem = CATALOGUE[problem_id]
    made: list[Source] = []
    uses: Counter[tuple] = Counter()
    by_key: dict[tuple[str, str], list[Source]] = defaultdict(list)
    built: dict[tuple[str, Design, str], tuple[str | None, tuple[int, int]]] = {}

    def text_of(status: str, design: Design, dialect: str) -> tuple[str | None, tuple[int, int]]:
        """The design's text and the Python 3 version it needs."""
        key = (status, design, dialect)
        if key not in built:
            text = build(problem, status, design, dialect)
            built[key] = (text, min_version(text) if text and dialect == "3" else (2, 7))
        return built[key]

    for row in sorted(rows, key=lambda r: (r.date, r.submission_id)):
        rng = random.Random(f"{SEED}/{row.submission_id}")

        def runs_here(design: Design, row: Row = row) -> bool:
            text, needs = text_of(row.status, design, row.dialect)
            return text is not None and needs <= row.version

        earlier = [s for s in by_key[(row.status, row.dialect)] if runs_here(s.design)]
        copy_of = None
        if earlier and rng.random() < COPY_RATE:
            same_user = [s for s in earlier if s.row.user_id == row.user_id]
            source = rng.choice(same_user if same_user and rng.random() < 0.8 else earlier)
            design, copy_of = source.design, source.row.submission_id
        else:
            candidates = [d for d in cores(problem, row.status) if runs_here(d)]
            if not candidates:
                raise SystemExit(
                    f"{problem_id}: no design for {row.status} in {row.original_language}"
                )
            fewest = min(uses[d.core] for d in candidates)
            design = rng.choice([d for d in candidates if uses[d.core] == fewest])
            if design.program is None:
                wrapper = rng.choices(("none", "main", "guard"), (60, 25, 15))[0]
                design = replace(design, wrapper=wrapper)
            if row.dialect == "2":
                design = replace(design, print_parens=rng.random() < 0.3)
            uses[design.core] += 1
        base = text_of(row.status, design, row.dialect)[0]
        assert base is not None
        style = random_style(rng, row.dialect, headers)
        source = Source(row, design, copy_of, restyle(base, style, rng, row.dialect))
        made.append(source)
        by_key[(row.status, row.dialect)].append(source)
    return made


# --------------------------------------------------------------------------- extra rows


@dataclass(frozen=True)
class Extra:
    """A row we add so that the sample holds every outcome; its user is a real one of the
    problem (the n-th earliest Accepted Python row with the same language) a little earlier."""

    submission_id: str
    problem_id: str
    original_language: str
    status: str
    cpu_time: str
    memory: str
    accuracy: str
    nth: int
    seconds_before: int
    source: str


EXTRAS = (
    Extra(
        "s999000001",
        "p02256",
        "Python3",
        "Compile Error",
        "0",
        "0",
        "0/10",
        0,
        312,
        """\
def gcd(a, b)
    while b:
        a, b = b, a % b
    return a


a, b = map(int, input().split())
print(gcd(a, b))
""",
    ),
    Extra(
        "s999000002",
        "p02400",
        "Python3",
        "Compile Error",
        "0",
        "0",
        "0/5",
        1,
        95,
        """\
import math
r = float(input())
print("{:.6f} {:.6f}".format(math.pi * r * r, 2 * math.pi * r)
""",
    ),
    Extra(
        "s999000003",
        "p02971",
        "Python (3.8.2)",
        "Compile Error",
        "",
        "",
        "",
        0,
        240,
        """\
n = int(input())
a = [int(input()) for _ in range(n)]
s = sorted(a)
for x in a:
    if x == s[-1]:
        print(s[-2])
     else:
        print(s[-1])
""",
    ),
    Extra(
        "s999000004",
        "p03001",
        "Python (3.8.2)",
        "Compile Error",
        "",
        "",
        "",
        0,
        61,
        """\
W, H, x, y = map(int, input().split())
if 2 * x == W and 2 * y == H
    print(W * H / 2, 1)
else:
    print(W * H / 2, 0)
""",
    ),
    Extra(
        "s999000005",
        "p03242",
        "Python (3.8.2)",
        "Compile Error",
        "",
        "",
        "",
        0,
        48,
        """\
n = int(input())
print 1110 - n
""",
    ),
    Extra(
        "s999000006",
        "p04030",
        "PyPy3 (7.3.0)",
        "Compile Error",
        "",
        "",
        "",
        0,
        133,
        """\
s = input()
ans = ""
for c in s:
    if c = "B":
        ans = ans[:-1]
    else:
        ans += c
print(ans)
""",
    ),
    Extra(
        "s999000007",
        "p04030",
        "Python (3.8.2)",
        "Output Limit Exceeded",
        "2207",
        "147316",
        "",
        1,
        410,
        """\
s = input()
ans = ""
i = 0
while i < len(s):
    if s[i] == "B":
        ans = ans[:-1]
    else:
        ans += s[i]
    print(ans)
""",
    ),
    Extra(
        "s999000008",
        "p02407",
        "Python3",
        "Output Limit Exceeded",
        "200",
        "5620",
        "0/4",
        2,
        187,
        """\
n = int(input())
a = input().split()
b = []
i = n - 1
while i >= 0:
    b.append(a[i])
    print(" ".join(b))
    i - 1
""",
    ),
    Extra(
        "s999000009",
        "p00002",
        "Python3",
        "Judge Not Available",
        "0",
        "0",
        "",
        3,
        600,
        """\
import sys

for line in sys.stdin:
    a, b = map(int, line.split())
    print(len(str(a + b)))
""",
    ),
)
EXTRA_PREFIX = "s9990000"


def extra_rows(problem_id: str, rows: list[Row]) -> list[tuple[Row, Extra, str]]:
    """(row, extra, csv line) for the extras of a problem, users and dates from real rows."""
    out = []
    for extra in (e for e in EXTRAS if e.problem_id == problem_id):
        accepted = sorted(
            (r for r in rows if r.status == AC and r.original_language == extra.original_language),
            key=lambda r: (r.date, r.submission_id),
        )
        model = accepted[extra.nth]
        date = model.date - extra.seconds_before
        row = Row(
            extra.submission_id,
            problem_id,
            model.user_id,
            date,
            extra.original_language,
            extra.status,
        )
        size = len(extra.source.encode())
        fields = [
            extra.submission_id,
            problem_id,
            model.user_id,
            str(date),
            "Python",
            extra.original_language,
            "py",
            extra.status,
            extra.cpu_time,
            extra.memory,
            str(size),
            extra.accuracy,
        ]
        out.append((row, extra, ",".join(fields) + "\n"))
    return out


def with_extra_rows(original: bytes, lines: list[str]) -> bytes:
    """A metadata CSV with IBM's rows byte for byte and ours (re)appended after them."""
    prefix = EXTRA_PREFIX.encode()
    kept = [ln for ln in original.splitlines(keepends=True) if not ln.startswith(prefix)]
    return b"".join(kept) + "".join(lines).encode()


# --------------------------------------------------------------------------- main


def source_path(row: Row) -> Path:
    return ROOT / "data" / row.problem_id / "Python" / f"{row.submission_id}.py"


def render() -> tuple[list[Source], dict[Path, bytes]]:
    """Every source, and the metadata files with the extra rows; nothing is written."""
    problems = read_problems()
    sources: list[Source] = []
    metadata: dict[Path, bytes] = {}
    for problem_id in sorted(CATALOGUE):
        real = [r for r in read_rows(problem_id) if not r.submission_id.startswith(EXTRA_PREFIX)]
        headers = (*CATALOGUE[problem_id].headers, f"# {problems[problem_id]['name']}")
        sources += generate(problem_id, real, headers)
        extras = extra_rows(problem_id, real)
        sources += [Source(row, None, None, extra.source) for row, extra, _ in extras]
        path = ROOT / "metadata" / f"{problem_id}.csv"
        metadata[path] = with_extra_rows(path.read_bytes(), [line for _, _, line in extras])
    return sources, metadata


def write(sources: list[Source], metadata: dict[Path, bytes]) -> None:
    for path, data in metadata.items():
        if path.read_bytes() != data:
            path.write_bytes(data)
    wanted = {source_path(s.row) for s in sources}
    for stale in (ROOT / "data").glob("*/Python/*.py"):
        if stale not in wanted:
            stale.unlink()
    for s in sources:
        path = source_path(s.row)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = s.text.encode()
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)


def expected_verdict(status: str) -> str:
    # The Judge Not Available row is a correct program the judge failed to run.
    return sample_judge.ACCEPTED if status == "Judge Not Available" else status


def check(sources: list[Source]) -> int:
    """Judge every program on its problem's samples; print the mismatches, return their count."""
    problems = read_problems()
    samples = {
        pid: sample_judge.parse_samples(
            (ROOT / "problem_descriptions" / f"{pid}.html").read_text(encoding="utf-8")
        )
        for pid in CATALOGUE
    }
    python2 = sample_judge.find_python2()

    def verdict(s: Source) -> str:
        if s.row.dialect == "2" and python2 is None:
            return "skipped (no python2)"
        limits = problems[s.row.problem_id]
        return sample_judge.judge(
            source_path(s.row),
            samples[s.row.problem_id],
            int(limits["time_limit"]),
            int(limits["memory_limit"]),
            dialect=s.row.dialect,
        ).status

    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = list(pool.map(verdict, sources))
    bad = 0
    table: Counter[tuple[str, str, str]] = Counter()
    for s, got in zip(sources, verdicts, strict=True):
        table[(s.row.problem_id, s.row.status, got)] += 1
        if got != expected_verdict(s.row.status) and not got.startswith("skipped"):
            bad += 1
            print(
                f"MISMATCH {s.row.problem_id}/{s.row.submission_id} py{s.row.dialect} "
                f"{s.row.status!r} -> {got!r}  {s.design}"
            )
    for (pid, status, got), n in sorted(table.items()):
        print(f"{pid}  {status:24} -> {got:24} {n:4}")
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="judge every program on the samples")
    args = parser.parse_args()
    sources, metadata = render()
    write(sources, metadata)
    copies = sum(s.copy_of is not None for s in sources)
    print(f"{len(sources)} sources under {ROOT / 'data'}; {copies} are surface copies")
    if args.check and check(sources):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
