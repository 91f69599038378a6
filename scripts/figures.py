"""Every figure the README and docs/ quote from the bundled sample, regenerated from the code.

    python scripts/figures.py --check            # exit 1, with a diff, when a figure drifted
    python scripts/figures.py --write            # rewrite every block from the code
    python scripts/figures.py --write --judge    # ... and the label audit (sandbox, ~1-3 min)

A figure is a block between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->` in README.md or
docs/*.md, inline in a sentence or around whole tables. Its text is what the function
registered under NAME below returns, computed on the bundled sample built in a scratch
directory (default recipe, and the variants some figures compare). `tests/test_figures.py`
runs the check in `make test`, so a change to the code that moves a figure fails until
`--write` is run and the new text reviewed.

The label audit re-runs 749 programs in the sandbox, too slow for every test run: without
`--judge` its judged counts are compared as "some number" and everything else (which outcomes,
how many programs of each) exactly. Figures only a long benchmark makes (bench/RESULTS.md) and
training runs are quoted with their command and date, not checked here.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import re
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BLOCK = re.compile(
    r"<!-- figures:(?P<name>[a-z0-9-]+) -->(?P<body>.*?)<!-- /figures:(?P=name) -->", re.S
)
ANY_NUMBER = "\x00n\x00"  # in a figure's text: any integer will do (judged counts without --judge)


def documents(repo: Path = REPO) -> list[Path]:
    """The files whose figures are checked: the README and every page of docs/."""
    return [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]


class Sample:
    """The bundled sample built once per variant, in `work`, on first use."""

    def __init__(self, work: Path, *, judge: bool = False, default: Path | None = None):
        self.work, self.judge = work, judge
        if default is not None:  # tests pass their session build
            self.__dict__["default"] = default

    def _build(self, name: str, **changes) -> Path:
        from codelog.builder import run_build
        from codelog.options import BuildOptions
        from codelog.recipe import load_recipe

        kind = changes.pop("kind", "solutions")
        recipe = load_recipe()
        for section, values in changes.items():
            recipe = dataclasses.replace(
                recipe, **{section: dataclasses.replace(getattr(recipe, section), **values)}
            )
        options = BuildOptions(
            source="codenet",
            language="python",
            out=self.work / name,
            recipe=recipe,
            workers=2,
            show_progress=False,
            kind=kind,
        )
        return run_build(options).out

    @cached_property
    def default(self) -> Path:
        return self._build("codenet-python")

    @cached_property
    def both_dialects(self) -> Path:
        return self._build("both-dialects", dialects={"python": ("python2", "python3")})

    @cached_property
    def linted(self) -> Path:
        return self._build("linted", lint={"enabled": True}, lint_reward={"enabled": True})

    @cached_property
    def repair(self) -> Path:
        return self._build("codenet-python-repair", kind="repair")

    @cached_property
    def repair_all(self) -> Path:
        every = {
            "require_correct": False,
            "max_trajectories_per_problem": 0,
            "long_trajectories": "window",
        }
        return self._build("repair-all", kind="repair", repairs=every)


FIGURES: dict[str, Callable[[Sample], str]] = {}


def figure(name: str) -> Callable[[Callable[[Sample], str]], Callable[[Sample], str]]:
    def register(fn: Callable[[Sample], str]) -> Callable[[Sample], str]:
        FIGURES[name] = fn
        return fn

    return register


def _manifest(dataset: Path) -> dict:
    return json.loads((dataset / "manifest.json").read_text(encoding="utf-8"))


def _sql(dataset: Path, query: str) -> list[tuple]:
    from codelog.dataset.open import open_dataset

    con = open_dataset(dataset)
    try:
        return con.sql(query).fetchall()
    finally:
        con.close()


def _table(header: list[str], rows: list[list[str]], align: str = "") -> str:
    align = align or "-" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = [header, rule, *rows]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


# ------------------------------------------------------------------------------------ build


@figure("build-summary")
def build_summary(sample: Sample) -> str:
    """`codelog build`'s summary table on the sample, as the console draws it piped."""
    import io

    from rich.console import Console

    import codelog.builder
    from codelog.builder import BuildReport, print_summary

    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, legacy_windows=False)
    manifest = _manifest(sample.default)
    report = BuildReport(
        out=Path("datasets/codenet-python"),
        manifest=manifest,
        seconds={"total": 1.0},
        staged_reused=False,
    )
    # the table only: the timing lines (say) differ from run to run
    saved = codelog.builder.console, codelog.builder.say
    codelog.builder.console, codelog.builder.say = console, lambda *args, **kwargs: None
    try:
        print_summary(report)
    finally:
        codelog.builder.console, codelog.builder.say = saved
    table = [line.rstrip() for line in buffer.getvalue().splitlines() if line.strip()]
    return (
        "\n```console\n$ codelog build --source codenet --lang python\n"
        + "\n".join(table)
        + "\n```\n"
    )


def _counts(dataset: Path) -> dict:
    return _manifest(dataset)["counts"]


@figure("dialect-rows")
def dialect_rows(sample: Sample) -> str:
    """The sample's Python rows and the Python 2 ones among them, by original_language."""
    import csv

    from codelog.dialects import dialect_of
    from codelog.ingest.codenet import BUNDLED_ROOT

    rows, python2 = 0, Counter()
    for meta in sorted((BUNDLED_ROOT / "metadata").glob("p[0-9]*.csv")):
        with meta.open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                if row["language"] != "Python":
                    continue
                rows += 1
                original = row["original_language"]
                if dialect_of("Python", original, codenet=True) == "python2":
                    python2[original] += 1
    names = ", ".join(f"`{name}` {n}" for name, n in python2.most_common())
    return f"{rows:,} Python rows, {python2.total()} of them Python 2: {names}"


@figure("dialects")
def dialects(sample: Sample) -> str:
    both, default = _counts(sample.both_dialects), _counts(sample.default)
    by_dialect = dict(
        _sql(sample.both_dialects, "SELECT dialect, count(*) FROM solutions GROUP BY 1")
    )
    groups_by = dict(_sql(sample.both_dialects, "SELECT dialect, count(*) FROM groups GROUP BY 1"))

    def rejected(counts: dict, *reasons: str) -> str:
        return " / ".join(str(counts["rejects_by_reason"].get(r, 0)) for r in reasons)

    def outcomes(counts: dict) -> str:
        keys = ("accepted", "runtime_error", "memory_limit")
        return " / ".join(str(counts["outcomes"].get(k, 0)) for k in keys)

    rows = [
        [
            "solutions",
            f"{both['solutions']} (python2 {by_dialect.get('python2', 0)}, "
            f"python3 {by_dialect.get('python3', 0)})",
            str(default["solutions"]),
        ],
        [
            "groups",
            f"{both['groups']} ({groups_by.get('python3', 0)} python3, "
            f"{groups_by.get('python2', 0)} python2)",
            str(default["groups"]),
        ],
        ["rejected: `dialect`", rejected(both, "dialect"), rejected(default, "dialect")],
        [
            "rejected: `duplicate` / `correct_cap` / `no_contrast`",
            rejected(both, "duplicate", "correct_cap", "no_contrast"),
            rejected(default, "duplicate", "correct_cap", "no_contrast"),
        ],
        ["accepted / runtime_error / memory_limit", outcomes(both), outcomes(default)],
    ]
    header = ["", "both dialects, never mixed", "default (Python 3 only)"]
    return "\n" + _table(header, rows, "lrr") + "\n"


@figure("split")
def split(sample: Sample) -> str:
    rows = _sql(
        sample.default,
        "SELECT split, count(DISTINCT problem_id), count(*), string_agg(DISTINCT problem_id, ', ')"
        " FROM solutions GROUP BY 1 ORDER BY 1 DESC",
    )
    (_, train_p, train_s, _), (_, test_p, test_s, test_ids) = rows
    return (
        f"{train_p} train problems ({train_s} solutions), {test_p} test problem"
        f"{'s' if test_p != 1 else ''} ({test_ids}, {test_s} solutions)"
    )


# ----------------------------------------------------------------------------------- export


def _exported(sample: Sample, fmt: str) -> dict[str, tuple[int, int]]:
    """split -> (rows, problems) of `codelog export --format fmt` on the sample."""
    import codelog

    out = sample.work / f"export-{fmt}"
    report = codelog.export(sample.default, fmt, out, force=True)
    return {f.split: (f.rows, f.problems) for f in report.files}


@figure("export-dpo")
def export_dpo(sample: Sample) -> str:
    got = _exported(sample, "dpo")
    (train, train_p), (test, test_p) = got["train"], got["test"]
    return f"{train} train pairs ({train_p} problems) and {test} test pairs ({test_p} problem)"


@figure("export-verl")
def export_verl(sample: Sample) -> str:
    got = _exported(sample, "verl")
    return f"{got['train'][0]} rows in `train.parquet`, {got['test'][0]} in `test.parquet`"


def _kl_pairs_of_one_problem(problems: list[str], batch: int) -> int:
    """TRL KTOTrainer's KL pairs (each row's prompt with the completion before it in its batch
    of `batch` rows, the first with the last: KTOTrainer._prepare_dataset) of one problem."""
    return sum(
        chunk[i] == chunk[i - 1]
        for start in range(0, len(problems), batch)
        for chunk in [problems[start : start + batch]]
        for i in range(len(chunk))
    )


@figure("export-kto-kl")
def export_kto_kl(sample: Sample) -> str:
    """The kto train file's KL pairs of one problem in batches of 8 (TrainingArguments'
    default per_device_train_batch_size), with the rows by problem (the order before the
    shuffle) and in the file's order."""
    import pyarrow.parquet as pq

    import codelog

    report = codelog.export(sample.default, "kto", sample.work / "export-kto", force=True)
    rows = pq.read_table(report.file("train"), columns=["problem_id", "language", "submission_id"])
    in_file = rows.column("problem_id").to_pylist()
    by_problem = [
        r["problem_id"] for r in sorted(rows.to_pylist(), key=lambda r: tuple(r.values()))
    ]
    before, after = (_kl_pairs_of_one_problem(p, 8) for p in (by_problem, in_file))
    return f"{before} of the sample's {len(in_file)} such pairs; in the shuffle, {after}"


@figure("export-verl-solutions")
def export_verl_solutions(sample: Sample) -> str:
    problems = _sql(sample.default, "SELECT count(DISTINCT problem_id) FROM solutions")[0][0]
    return f"{_counts(sample.default)['solutions']} rows for {problems} prompts"


# ------------------------------------------------------------------------------ label audit


@figure("label-audit-sample")
def label_audit_sample(sample: Sample) -> str:
    """Logged outcome -> agreeing re-runs / solutions; judged only with --judge."""
    from codelog.execution.judge import judge_many
    from codelog.execution.judge_run import audit, dataset_programs
    from codelog.execution.testcases import load_problems

    programs, manifest = dataset_programs(sample.default)
    statuses = manifest["recipe"]["statuses"]
    if sample.judge:
        results = judge_many(programs, load_problems(f"codenet:{sample.default}"))
        rows = [(r.outcome, str(r.agree), r.judged) for r in audit(programs, results, statuses)]
        agree = sum(int(a) for _, a, _ in rows)
        total = sum(n for _, _, n in rows)
        head = f"{agree if agree != total else 'all'} of {total}"
    else:
        logged = Counter(statuses.get(p.logged_status, p.logged_status) for p in programs)
        rows = [(o, ANY_NUMBER, n) for o, n in sorted(logged.items(), key=lambda x: (-x[1], x[0]))]
        head = f"{ANY_NUMBER} of {len(programs)}"
    parts = ", ".join(f"{o.replace('_', ' ')} {a}/{n}" for o, a, n in rows)
    return f"{head} kept solutions re-judge to their logged outcome ({parts})"


# ---------------------------------------------------------------------------------- repairs


def _repair_figures(dataset: Path) -> dict:
    from codelog.dataset.repair_stats import compute_repair_stats

    stats = compute_repair_stats(dataset)
    targets = dict(
        _sql(dataset, "SELECT outcome, count(*) FROM repairs WHERE NOT perturbed GROUP BY 1")
    )
    return {"stats": stats, "targets": targets}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _transition(stats, before: str) -> str:
    t = next((t for t in stats.transitions if t.before == before), None)
    if t is None:
        return "none of its rows"
    return f"{t.followed_by_accepted} of its {t.rows} rows ({t.share:.0%})"


@figure("repairs-default")
def repairs_default(sample: Sample) -> str:
    got = _repair_figures(sample.repair)
    s, targets = got["stats"], got["targets"]
    lengths = ", ".join(f"{n} of {k} attempts" for k, n in sorted(s.lengths.items()))
    target_mix = ", ".join(
        f"{n} {o.replace('_', ' ')}{'s' if n != 1 and o != 'accepted' else ''}"
        for o, n in sorted(targets.items(), key=lambda x: (-x[1], x[0]))
    )
    return (
        f"{s.trajectories} trajectories ({lengths}) give {s.targets} repair rows over the "
        f"{s.problems} problems (targets: {target_mix}); a wrong answer was followed by an "
        f"accepted attempt in {_transition(s, 'wrong_answer')}, a runtime error in "
        f"{_transition(s, 'runtime_error')}"
    )


@figure("repairs-all")
def repairs_all(sample: Sample) -> str:
    s = _repair_figures(sample.repair_all)["stats"]
    lengths = ", ".join(f"{n} of {k}" for k, n in sorted(s.lengths.items()))
    return (
        f"{s.trajectories} trajectories (attempts: {lengths}) and {s.targets} repair rows; a "
        f"wrong answer was followed by an accepted attempt in {_transition(s, 'wrong_answer')}, "
        f"a runtime error in {_transition(s, 'runtime_error')}, a time limit in "
        f"{_transition(s, 'time_limit')}"
    )


@figure("repair-pairs")
def repair_pairs(sample: Sample) -> str:
    """(user, problem) pairs of the sample's metadata with two or more Python submissions."""
    import csv

    from codelog.ingest.codenet import BUNDLED_ROOT

    pairs: Counter[tuple[str, str]] = Counter()
    for meta in sorted((BUNDLED_ROOT / "metadata").glob("p[0-9]*.csv")):
        with meta.open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                if row["language"] == "Python" and row["user_id"]:
                    pairs[row["user_id"], row["problem_id"]] += 1
    return str(sum(1 for n in pairs.values() if n >= 2))


# ---------------------------------------------------------------------------- verifier lists


def _lists(sample: Sample) -> tuple[Path, object]:
    from codelog.dataset.verifier_lists import export_verifier_lists

    out = sample.work / "lists.parquet"
    return out, export_verifier_lists(sample.default, out)


def _baseline(lists: Path, name: str, score: Callable[[dict], list[float]]) -> object:
    import pyarrow.parquet as pq

    from codelog.dataset.eval_verifier import evaluate_verifier

    predictions = lists.with_name(f"{name}.jsonl")
    with predictions.open("w", encoding="utf-8") as f:
        for row in pq.read_table(lists).to_pylist():
            f.write(json.dumps({"list_id": row["list_id"], "scores": score(row)}) + "\n")
    return evaluate_verifier(predictions, lists)


@figure("verifier-lists")
def verifier_lists(sample: Sample) -> str:
    lists, report = _lists(sample)
    sizes = ", ".join(f"{k} × {n}" for k, n in sorted(report.by_size.items()))
    truth = _baseline(lists, "truth", lambda row: row["pass_rates"])
    longest = _baseline(
        lists, "longest", lambda row: [float(len(c["code"])) for c in row["candidates"]]
    )
    hard = longest.by_bucket["hard"]
    return (
        f"{report.lists} lists from {report.problems} problems — "
        f"{report.by_bucket.get('easy', 0)} easy, {report.by_bucket.get('hard', 0)} hard; "
        f"sizes {sizes}. The true pass rates as scores give ListAcc "
        f'{truth.overall.list_accuracy:.1%} and τ-b {truth.overall.tau_b:+.3f}; "the longest '
        f'program is best" gives ListAcc {longest.overall.list_accuracy:.1%} and τ-b '
        f"{longest.overall.tau_b:+.3f} overall, {hard.list_accuracy:.1%} and "
        f"{hard.tau_b:+.3f} on the hard lists"
    )


# -------------------------------------------------------------------------------------- lint


@figure("lint-table")
def lint_table(sample: Sample) -> str:
    from codelog.dataset.stats import compute_stats

    rows = []
    for p in compute_stats(sample.linted).by_outcome:
        sev = p.severity_mean or {}
        rows.append(
            [
                p.outcome,
                str(p.solutions),
                f"{p.median_bytes:g}",
                f"{p.median_lines:g}",
                f"{p.findings_mean:.2f}",
                f"{p.clean_share:.0%}",
                "/".join(f"{sev.get(k, 0.0):.2f}" for k in ("error", "warning", "style")),
                ", ".join(f"{code} {n}" for code, n in (p.top_codes or [])),
            ]
        )
    header = [
        "outcome",
        "n",
        "median bytes",
        "median lines",
        "findings",
        "clean",
        "error/warn/style",
        "top rule codes",
    ]
    return "\n" + _table(header, rows) + "\n"


@figure("lint-rewards")
def lint_rewards(sample: Sample) -> str:
    by = {
        o: (r, p)
        for o, r, p in _sql(
            sample.linted,
            "SELECT outcome, avg(reward_lint), avg(lint_penalty) FROM solutions GROUP BY 1",
        )
    }
    worst = max(by, key=lambda o: by[o][1])
    rows = _sql(sample.linted, "SELECT length(code), lint_findings FROM solutions")
    r = statistics.correlation([float(a) for a, _ in rows], [float(b) for _, b in rows])
    return (
        f"Mean `reward_lint` is {by['accepted'][0]:.3f} for accepted solutions and "
        f"{by['runtime_error'][0]:.3f} for runtime errors (penalties {by['accepted'][1]:.3f} "
        f"and {by['runtime_error'][1]:.3f}); {worst.replace('_', ' ')}s carry the largest "
        f"({by[worst][1]:.2f}). Length and findings correlate at r = {r:.2f} over the "
        f"{len(rows)} solutions"
    )


# ------------------------------------------------------------------------------- the checker


def blocks(text: str) -> Iterator[re.Match[str]]:
    return BLOCK.finditer(text)


def _matches(generated: str, published: str) -> bool:
    if ANY_NUMBER not in generated:
        return generated == published
    pattern = r"\d+".join(re.escape(part) for part in generated.split(ANY_NUMBER))
    return re.fullmatch(pattern, published) is not None


def check(sample: Sample, paths: list[Path] | None = None) -> list[str]:
    """Every published figure that differs from the code's, as a message with a diff."""
    problems, cache = [], {}
    for path in paths or documents():
        for found in blocks(path.read_text(encoding="utf-8")):
            name, body = found["name"], found["body"]
            if name not in FIGURES:
                problems.append(f"{path.name}: no figure named {name!r} in scripts/figures.py")
                continue
            if name not in cache:
                cache[name] = FIGURES[name](sample)
            if not _matches(cache[name], body):
                diff = difflib.unified_diff(
                    body.splitlines(), cache[name].splitlines(), "published", "code", lineterm=""
                )
                problems.append(
                    f"{path.name}: figure {name!r} differs from the code "
                    "(python scripts/figures.py --write):\n" + "\n".join(diff)
                )
    return problems


def write(sample: Sample, paths: list[Path] | None = None) -> list[str]:
    """Rewrite every block from the code; the names of the figures rewritten."""
    changed: list[str] = []
    for path in paths or documents():
        text = path.read_text(encoding="utf-8")
        new = BLOCK.sub(lambda found, path=path: _fresh(sample, path, found, changed), text)
        if new != text:
            path.write_text(new, encoding="utf-8")
    return changed


def _fresh(sample: Sample, path: Path, found: re.Match[str], changed: list[str]) -> str:
    name = found["name"]
    if name not in FIGURES:
        raise SystemExit(f"{path}: no figure named {name!r} in scripts/figures.py")
    body = FIGURES[name](sample)
    if ANY_NUMBER in body:  # without --judge: keep the published judged counts
        if _matches(body, found["body"]):
            return found[0]
        raise SystemExit(f"{path}: figure {name!r} changed: rerun with --judge")
    if body != found["body"]:
        changed.append(f"{path.name}:{name}")
    return f"<!-- figures:{name} -->{body}<!-- /figures:{name} -->"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 when a figure drifted")
    mode.add_argument("--write", action="store_true", help="rewrite the blocks from the code")
    parser.add_argument("--judge", action="store_true", help="re-run the label audit too")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="codelog-figures-") as work:
        sample = Sample(Path(work), judge=args.judge)
        if args.write:
            changed = write(sample)
            print("rewrote " + (", ".join(changed) if changed else "nothing: all current"))
            return 0
        problems = check(sample)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"every figure matches the code ({len(FIGURES)} figures)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
