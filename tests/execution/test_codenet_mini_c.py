"""Real CodeNet C programs (tests/fixtures/codenet-mini-c: 2 AIZU and 2 AtCoder problems) that
their judge accepted re-judge Accepted on the statements' sample I/O, under each origin's rules.
The full audit, every status and per language and origin, is scripts/label_audit.py (docs/running-code.md)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from codelog.execution.judge import Verdict, judge_many
from codelog.execution.testcases import codenet_problems

REPO = Path(__file__).resolve().parents[2]
C_DATA = REPO / "tests" / "fixtures" / "codenet-mini-c"
sys.path.insert(0, str(REPO / "scripts"))

import label_audit  # noqa: E402

pytestmark = [
    pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on PATH"),
]


def test_accepted_c_programs_rejudge_accepted() -> None:
    programs = label_audit.codenet_programs(C_DATA, status="Accepted")
    assert len(programs) >= 300
    problems = codenet_problems(C_DATA)
    results = judge_many(programs, problems)
    _, accepted = label_audit.tables(programs, results, label_audit.origins_of(C_DATA))
    agree, judged = accepted["all"]
    others = {
        p.submission_id: (r.status, r.detail[:100])
        for p, r in zip(programs, results, strict=True)
        if not (isinstance(r, Verdict) and r.accepted)
    }
    assert agree / judged >= 0.995, others
    for origin in ("AIZU", "AtCoder"):
        agree, judged = accepted[f"origin {origin}"]
        assert judged > 100 and agree / judged >= 0.995, (origin, others)
