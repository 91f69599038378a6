"""`codelog eval-verifier PRED.jsonl --lists LISTS.parquet`: score a verifier's rankings.

The lists come from `codelog export --format verifier-lists`. PRED.jsonl holds one JSON object
per line with the `list_id` and one of:
- `"scores": [s_0, ..., s_{n-1}]`: a score per candidate, in the list's order (higher =
  better; ties allowed, e.g. pairwise win counts as Aletheia uses them);
- `"ranking": [i, j, ...]`: every candidate index once, best first (scores n-1, n-2, ...);
- `"choice": i`: only the index picked as best (list accuracy only, no tau).
A line whose value is missing, null or malformed for its list is *unparsed*.

Metrics, as Aletheia defines them (seed 003):
- ListAcc: the share of all lists whose predicted best is the fully correct candidate. The
  best is the unique top score (a tie at the top is not a pick); a list with no line, or an
  unparsed one, counts as wrong.
- Kendall's tau-b between the predicted scores and the true pass rates, averaged over the
  lists with scores or a ranking (unparsed lists are left out of it, as Aletheia's K treats
  them; the parse rate is reported beside). tau-b = (C - D) / sqrt((P - T_x)(P - T_y)) with P
  the n(n-1)/2 pairs, C/D the concordant/discordant pairs tied in neither, T_x/T_y the pairs
  tied in the prediction/truth: the tie-corrected form, since predicted scores often tie. A
  prediction tying every candidate carries no order: its tau-b is 0 (the formula's 0/0).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from codelog.errors import CodelogError, InputError
from codelog.files import json_lines


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two equally long sequences (0.0 when either is constant)."""
    if len(x) != len(y):
        raise ValueError("x and y must have the same length")
    concordant = discordant = tied_x = tied_y = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                tied_x += 1
            if dy == 0:
                tied_y += 1
            if dx and dy:
                if (dx > 0) == (dy > 0):
                    concordant += 1
                else:
                    discordant += 1
    pairs = n * (n - 1) // 2
    denominator = math.sqrt((pairs - tied_x) * (pairs - tied_y))
    return (concordant - discordant) / denominator if denominator else 0.0


@dataclass
class Score:
    lists: int = 0
    correct: int = 0  # predicted best = the fully correct candidate
    parsed: int = 0  # lines with usable scores, ranking or choice
    ranked: int = 0  # lists with scores or a ranking (tau-b is averaged over these)
    tau_sum: float = 0.0

    @property
    def list_accuracy(self) -> float:
        return self.correct / self.lists if self.lists else 0.0

    @property
    def tau_b(self) -> float | None:
        return self.tau_sum / self.ranked if self.ranked else None

    @property
    def parse_rate(self) -> float:
        return self.parsed / self.lists if self.lists else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "lists": self.lists,
            "list_accuracy": self.list_accuracy,
            "tau_b": self.tau_b,
            "parse_rate": self.parse_rate,
        }


@dataclass
class VerifierReport:
    overall: Score
    by_bucket: dict[str, Score] = field(default_factory=dict)
    by_size: dict[int, Score] = field(default_factory=dict)
    missing: int = 0  # lists without a prediction line
    unknown: int = 0  # prediction lines naming no list of the file

    def to_dict(self) -> dict[str, Any]:
        return {
            "overall": self.overall.to_dict(),
            "by_bucket": {k: v.to_dict() for k, v in self.by_bucket.items()},
            "by_size": {str(k): v.to_dict() for k, v in self.by_size.items()},
            "missing": self.missing,
            "unknown": self.unknown,
        }

    def table_lines(self) -> list[str]:
        """The report as `codelog eval-verifier` prints it: a header, then lists, list
        accuracy, Kendall's tau-b and parse rate overall, per bucket and per list size."""

        def line(name: str, score: Score) -> str:
            tau = "n/a" if score.tau_b is None else f"{score.tau_b:+.3f}"
            figures = (score.lists, f"{score.list_accuracy:.1%}", tau, f"{score.parse_rate:.1%}")
            return "{:<10} {:>6} {:>8} {:>7} {:>7}".format(name, *figures)

        return [
            f"{'':<10} {'lists':>6} {'ListAcc':>8} {'tau-b':>7} {'parsed':>7}",
            line("all", self.overall),
            *(line(bucket, score) for bucket, score in self.by_bucket.items()),
            *(line(f"size {size}", score) for size, score in self.by_size.items()),
        ]


def _scores(line: dict[str, Any], n: int) -> tuple[list[float] | None, int | None]:
    """(scores or None, pick or None) from one prediction; (None, None) when unparsed."""
    scores = line.get("scores")
    if scores is not None:
        ok = isinstance(scores, list) and len(scores) == n
        ok = ok and all(isinstance(s, int | float) and not isinstance(s, bool) for s in scores)
        if not ok or not all(math.isfinite(s) for s in scores):
            return None, None
        top = max(scores)
        best = [i for i, s in enumerate(scores) if s == top]
        return [float(s) for s in scores], best[0] if len(best) == 1 else None
    ranking = line.get("ranking")
    if ranking is not None:
        if not isinstance(ranking, list) or sorted(ranking) != list(range(n)):
            return None, None
        scores = [0.0] * n
        for place, i in enumerate(ranking):
            scores[i] = float(n - 1 - place)
        return scores, ranking[0]
    choice = line.get("choice")
    if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < n:
        return None, choice
    return None, None


def read_predictions(path: Path) -> dict[str, dict[str, Any]]:
    """list_id -> prediction line; bad JSON and repeated ids are errors naming the line."""
    predictions: dict[str, dict[str, Any]] = {}
    for number, line in json_lines(path):
        if not isinstance(line, dict) or not isinstance(line.get("list_id"), str):
            raise InputError(str(path), "each line needs a string 'list_id'", line=number)
        if line["list_id"] in predictions:
            raise InputError(str(path), f"list_id {line['list_id']!r} again", line=number)
        predictions[line["list_id"]] = line
    return predictions


def evaluate_verifier(predictions_path: str | Path, lists_path: str | Path) -> VerifierReport:
    """ListAcc and mean tau-b of the predictions against the lists' true pass rates."""
    predictions = read_predictions(Path(predictions_path))
    try:
        lists = pq.read_table(
            lists_path, columns=["list_id", "bucket", "pass_rates", "correct_index"]
        ).to_pylist()
    except (OSError, ValueError) as exc:
        raise CodelogError(f"{lists_path}: not a verifier-lists file: {exc}") from None
    report = VerifierReport(Score())
    by_bucket: dict[str, Score] = defaultdict(Score)
    by_size: dict[int, Score] = defaultdict(Score)
    known = set()
    for item in lists:
        known.add(item["list_id"])
        truth, n = item["pass_rates"], len(item["pass_rates"])
        line = predictions.get(item["list_id"])
        if line is None:
            report.missing += 1
            scores, pick = None, None
        else:
            scores, pick = _scores(line, n)
        for score in (report.overall, by_bucket[item["bucket"]], by_size[n]):
            score.lists += 1
            if line is not None and (scores is not None or pick is not None):
                score.parsed += 1
            score.correct += pick == item["correct_index"]
            if scores is not None:
                score.ranked += 1
                score.tau_sum += kendall_tau_b(scores, truth)
    report.unknown = len(set(predictions) - known)
    report.by_bucket = dict(sorted(by_bucket.items()))
    report.by_size = dict(sorted(by_size.items()))
    return report
