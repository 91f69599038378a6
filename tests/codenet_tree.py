"""Tiny CodeNet trees written into a test's tmp_path, so a test can break exactly one thing.

`CodenetTree` holds submissions as plain dicts; `write()` lays them out the way Project
CodeNet does (metadata/problem_list.csv, metadata/pNNNNN.csv, data/pNNNNN/Python/sID.py,
problem_descriptions/pNNNNN.html, and derived/duplicates/identical_problem_clusters on
request). Rows are Python 3 ("Python (3.8.2)") unless a test names another original_language.
A test then edits one file's bytes before building.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from codelog import schema

HEADER = ",".join(schema.CODENET_COLUMNS)

# Two structurally different correct programs and two wrong ones: a problem built from these
# has a group (>= 1 correct, >= 1 incorrect) and no AST duplicates.
PROGRAMS = (
    ("Accepted", "n = int(input())\nprint(n * 2)\n"),
    ("Wrong Answer", "n = int(input())\nprint(n + 2)\n"),
    ("Accepted", "import sys\nfor line in sys.stdin:\n    print(int(line) * 2)\n"),
    ("Time Limit Exceeded", "while True:\n    pass\n"),
)


@dataclass
class Submission:
    submission_id: str
    problem_id: str
    status: str
    code: bytes | None  # None: no source file on disk
    language: str = "Python"
    ext: str = "py"
    date: int = 1_600_000_000
    original_language: str = "Python (3.8.2)"  # the dialect: "Python (2.7.6)" is Python 2

    def csv_row(self) -> str:
        size = len(self.code) if self.code is not None else 0
        return (
            f"{self.submission_id},{self.problem_id},u0001,{self.date},{self.language},"
            f"{self.original_language},{self.ext},{self.status},10,9000,{size},"
        )


@dataclass
class CodenetTree:
    root: Path
    submissions: list[Submission] = field(default_factory=list)

    @classmethod
    def standard(cls, root: Path, problems: tuple[str, ...] = ("p00001", "p00002")) -> CodenetTree:
        """Every problem gets PROGRAMS (two correct, two incorrect, all distinct)."""
        tree = cls(root)
        n = 0
        for pid in problems:
            for status, code in PROGRAMS:
                n += 1
                tree.add(f"s{n:09d}", pid, status, code.encode())
        return tree

    def add(
        self,
        submission_id: str,
        problem_id: str,
        status: str,
        code: bytes | None,
        original_language: str = "Python (3.8.2)",
        date: int = 1_600_000_000,
    ) -> None:
        self.submissions.append(
            Submission(
                submission_id,
                problem_id,
                status,
                code,
                date=date,
                original_language=original_language,
            )
        )

    def problem_ids(self) -> list[str]:
        return sorted({s.problem_id for s in self.submissions})

    def csv_path(self, problem_id: str) -> Path:
        return self.root / "metadata" / f"{problem_id}.csv"

    def source_path(self, sub: Submission) -> Path:
        return self.root / "data" / sub.problem_id / sub.language / f"{sub.submission_id}.{sub.ext}"

    def write_identical_problems(self, *clusters: tuple[str, ...]) -> Path:
        """derived/duplicates/identical_problem_clusters, as CodeNet writes it: one cluster a
        line, problem ids separated by commas."""
        path = self.root / "derived" / "duplicates" / "identical_problem_clusters"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(",".join(c) + "\n" for c in clusters), encoding="utf-8")
        return path

    def write(self) -> Path:
        meta = self.root / "metadata"
        meta.mkdir(parents=True, exist_ok=True)
        (self.root / "problem_descriptions").mkdir(exist_ok=True)
        plist = [",".join(schema.PROBLEM_LIST_COLUMNS)]
        for pid in self.problem_ids():
            plist.append(f"{pid},Problem {pid},AIZU,1000,131072,,,")
            rows = [s for s in self.submissions if s.problem_id == pid]
            text = "\n".join([HEADER, *(s.csv_row() for s in rows)]) + "\n"
            self.csv_path(pid).write_text(text, encoding="utf-8")
            (self.root / "problem_descriptions" / f"{pid}.html").write_text(
                f"<h1>Problem {pid}</h1><p>Read n, print 2n.</p>", encoding="utf-8"
            )
            for s in rows:
                if s.code is not None:
                    path = self.source_path(s)
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(s.code)
        (meta / "problem_list.csv").write_text("\n".join(plist) + "\n", encoding="utf-8")
        return self.root


def write_standard_tree(root: Path, problems: tuple[str, ...] = ("p00001", "p00002")) -> Path:
    """A small valid CodeNet tree: every problem forms a group. Returns `root`."""
    return CodenetTree.standard(root, problems).write()
