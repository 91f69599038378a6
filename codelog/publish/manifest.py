"""The manifest (what a dataset holds, how it was built, its files' digests) and the card.

Layout of a dataset:  solutions.parquet  rejects.parquet  problems.parquet  manifest.json  README.md
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq

from codelog.dialects import DIALECTS, UNKNOWN
from codelog.errors import CodelogError, DatasetError
from codelog.files import file_digest, sha256_file
from codelog.group.split import SplitResult
from codelog.ingest.scan import SourceScan
from codelog.options import BuildOptions
from codelog.recipe import check_license
from codelog.stage.ast_hash import hash_identity
from codelog.version import __version__

FORMAT_VERSION = 2  # 2: dialect and split columns, per-split solution files
MANIFEST = "manifest.json"
CARD = "README.md"  # the dataset card: documentation, checked by nothing but its presence
TABLES = ("solutions", "rejects", "problems")


def file_entries(root: Path, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    entries = {}
    for name in sorted(names):
        path = root / name
        entry: dict[str, Any] = {"sha256": sha256_file(path), "bytes": path.stat().st_size}
        if name.endswith(".parquet"):
            entry["rows"] = pq.ParquetFile(path).metadata.num_rows
        entries[name] = entry
    return entries


def is_dataset(path: Path) -> bool:
    """Whether `path` is a directory codelog published: it holds a codelog manifest (of any
    format version, so a rebuild may replace a dataset of an older codelog)."""
    try:
        manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and {"codelog_version", "format_version"} <= set(manifest)


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    path = root / MANIFEST
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


# What every reader relies on; the rest (sources, counts' keys) is read with defaults.
_REQUIRED: dict[str, type] = {"recipe": dict, "counts": dict, "files": dict}


def read_manifest(path: str | Path) -> dict[str, Any]:
    """The manifest of a dataset directory, with clear errors for what is not a usable dataset."""
    root = Path(path)
    if not root.is_dir():
        raise DatasetError(f"{root}: no such dataset directory")
    manifest_path = root / MANIFEST
    if not manifest_path.exists():
        beside = root.resolve().parent
        started = [
            beside / f".{root.resolve().name}.staging",
            *beside.glob(f".{root.resolve().name}.tmp-*"),
        ]
        if any(p.exists() for p in started):  # a build of it began and did not publish
            raise DatasetError(
                f"{root}: not a complete dataset (no {MANIFEST}; a build of it was interrupted: "
                f"re-run it, `codelog build --out {root}`, which reuses its staged parse)"
            )
        raise DatasetError(
            f"{root}: not a codelog dataset (no {MANIFEST}); make one with "
            f"`codelog build --out {root}`"
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{manifest_path}: unreadable manifest: {exc}") from None
    if not isinstance(manifest, dict):
        raise DatasetError(f"{manifest_path}: not a manifest (a JSON object is expected)")
    wrong = [k for k, kind in _REQUIRED.items() if not isinstance(manifest.get(k), kind)]
    if wrong:
        raise DatasetError(f"{manifest_path}: missing or malformed {', '.join(wrong)}")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise DatasetError(
            f"{root}: dataset format_version {version!r} (codelog {manifest.get('codelog_version')}) "
            f"is not the format this codelog reads ({FORMAT_VERSION}); rebuild it with `codelog build`"
        )
    return manifest


def build_manifest(
    con: duckdb.DuckDBPyConnection,
    scan: SourceScan,
    options: BuildOptions,
    code_digest: str,
    split: SplitResult | None = None,
) -> dict[str, Any]:
    """The manifest of a build whose rows' fates are in table `fate`. `split`: the problem
    split of a solutions build (a repair build has none, nor dialect groups)."""

    def rows(query: str) -> list[tuple]:
        return con.sql(query).fetchall()

    columns = {r[0] for r in rows("SELECT column_name FROM (DESCRIBE fate)")}
    group_key = "problem_id, language, dialect" if "dialect" in columns else "problem_id, language"

    rows_in = rows("SELECT count(*) FROM fate")[0][0]
    kept = rows("SELECT count(*) FROM fate WHERE reason IS NULL")[0][0]
    by_reason = dict(
        rows(
            "SELECT reason, count(*) FROM fate WHERE reason IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1"
        )
    )
    outcomes = dict(
        rows(
            "SELECT outcome, count(*) FROM fate WHERE reason IS NULL GROUP BY 1 ORDER BY 2 DESC, 1"
        )
    )
    groups = rows(
        f"SELECT count(*) FROM (SELECT DISTINCT {group_key} FROM fate WHERE reason IS NULL)"
    )[0][0]
    statuses = dict(rows("SELECT status, count(*) FROM staged GROUP BY 1 ORDER BY 2 DESC, 1"))
    # programs whose copies the judge gave different outcomes, and those copies (the solutions
    # kind's dedup finds them; a kind without dedup has no such column)
    conflicts, conflict_rows = (
        rows("SELECT count(conflict_copies), coalesce(sum(conflict_copies), 0)::BIGINT FROM fate")[
            0
        ]
        if "conflict_copies" in columns
        else (0, 0)
    )
    unknown = sorted(
        r[0]
        for r in rows(
            "SELECT DISTINCT s.status FROM fate f JOIN staged s USING (seq) WHERE f.reason = 'unknown_status'"
        )
        if r[0] is not None
    )
    fingerprint = hashlib.sha256()
    for path in scan.input_files:
        name = (
            path.relative_to(scan.root)
            if scan.root and path.is_relative_to(scan.root)
            else path.name
        )
        fingerprint.update(f"{name}\0{file_digest(path)}\n".encode())
    fingerprint.update(code_digest.encode())
    return {
        "codelog_version": __version__,
        "format_version": FORMAT_VERSION,
        "source": options.source,
        "language": scan.language,
        "license": data_license(options),
        "seed": options.seed,
        "recipe": options.recipe.to_dict(),
        "input_fingerprint": fingerprint.hexdigest(),
        # ast_hash values depend on these as much as on the code
        "ast_hash": hash_identity(scan.language),
        "counts": {
            "rows_in": rows_in,
            "solutions": kept,
            "rejects": rows_in - kept,
            "rejects_by_reason": by_reason,
            "groups": groups,
            "outcomes": outcomes,
            "statuses_in": statuses,
            "unknown_statuses": unknown,
            "verdict_conflicts": conflicts,
            "verdict_conflict_submissions": conflict_rows,
        },
        **(
            {
                "dialects": _dialect_summary(rows, scan, options),
                "split": _split_summary(rows, scan, options, split),
            }
            if split is not None
            else {}
        ),
        **_decontamination(rows, options),
    }


def _decontamination(rows: Any, options: BuildOptions) -> dict[str, Any]:
    """The [decontaminate] check (codelog.group.decontaminate), when the recipe asked for one:
    the benchmarks with their digests, the rule, the action, the counts and every match. Absent
    when off: train and export warn then (codelog.dataset.checks)."""
    d = options.recipe.decontaminate
    if not d.benchmarks:
        return {}
    benchmarks = [
        {"spec": spec, "benchmark": name, "sha256": digest, "problems": n}
        for spec, name, digest, n in rows(
            "SELECT spec, benchmark, digest, problems FROM contamination_benchmarks"
        )
    ]
    matches = [
        dict(zip(("problem_id", "benchmark", "task_id", "score", "level", "span"), r, strict=True))
        for r in rows(
            "SELECT problem_id, benchmark, task_id, score, level, span FROM contamination_matches "
            "ORDER BY problem_id, score DESC, benchmark, task_id, level"
        )
    ]
    problems = sorted({m["problem_id"] for m in matches})
    by_benchmark = dict(
        rows(
            "SELECT benchmark, count(DISTINCT problem_id) FROM contamination_matches "
            "GROUP BY 1 ORDER BY 1"
        )
    )
    if d.action == "drop":
        affected = rows("SELECT count(*) FROM fate WHERE reason = 'contaminated'")[0][0]
    else:
        affected = rows(
            "SELECT count(*) FROM fate WHERE reason IS NULL AND problem_id IN "
            "(SELECT problem_id FROM contamination_matches)"
        )[0][0]
    train_left = rows(
        "SELECT count(*) FROM fate WHERE reason IS NULL AND split = 'train' AND problem_id IN "
        "(SELECT problem_id FROM contamination_matches)"
    )[0][0]
    return {
        "decontamination": {
            "benchmarks": benchmarks,
            "rule": {
                "ngram": d.ngram,
                "threshold": d.threshold,
                "max_df": d.max_df,
                "min_shared": d.min_shared,
                "solutions": d.solutions,
            },
            "action": d.action,
            "counts": {
                "problems": len(problems),
                "problems_by_benchmark": by_benchmark,
                # rows rejected as contaminated ("drop"), or kept in the test split ("test")
                "rows": affected,
                "train_rows_of_contaminated_problems": train_left,
            },
            "matches": matches,
        }
    }


def _dialect_summary(rows: Any, scan: SourceScan, options: BuildOptions) -> dict[str, Any]:
    """The dialect filter and what it did: rows in and kept per dialect, and the
    original_language spellings that told no dialect (rows with dialect null)."""
    dialects = options.recipe.dialects

    def by_dialect(query: str) -> dict[str, int]:
        return {d or UNKNOWN: n for d, n in rows(query)}

    has_dialects = scan.language.lower() in DIALECTS
    return {
        "filter": {
            **(
                {scan.language.lower(): list(dialects.kept()[scan.language.lower()])}
                if has_dialects
                else {}
            ),
            "unknown": dialects.unknown,
        },
        "rows_in": by_dialect("SELECT dialect, count(*) FROM fate GROUP BY 1 ORDER BY 2 DESC, 1")
        if has_dialects
        else {},
        "solutions": by_dialect(
            "SELECT dialect, count(*) FROM fate WHERE reason IS NULL GROUP BY 1 ORDER BY 2 DESC, 1"
        )
        if has_dialects
        else {},
        "unknown_original_languages": sorted(
            r[0]
            for r in rows(
                "SELECT DISTINCT coalesce(s.original_language, '') FROM fate f "
                # a row of no language (CodeContests' UNKNOWN_LANGUAGE) has no dialect to tell
                "JOIN staged s USING (seq) WHERE f.dialect IS NULL AND s.language IS NOT NULL"
            )
        )
        if has_dialects
        else [],
    }


def _split_summary(
    rows: Any, scan: SourceScan, options: BuildOptions, split: SplitResult
) -> dict[str, Any]:
    spec = options.recipe.split
    clusters = scan.clusters_file
    if clusters is not None and scan.root is not None and clusters.is_relative_to(scan.root):
        clusters = clusters.relative_to(scan.root)
    problems = {"train": 0, "test": 0}
    for name in split.splits.values():
        problems[name] += 1
    solutions = {"train": 0, "test": 0}
    solutions.update(
        dict(rows("SELECT split, count(*) FROM fate WHERE reason IS NULL GROUP BY 1 ORDER BY 1"))
    )
    return {
        "seed": spec.seed,
        "test_fraction": spec.test_fraction,
        "unit": "problem (identical problems together)",
        "identical_problem_clusters": str(clusters) if clusters is not None else None,
        "units": split.units,
        # a guarantee (>= 1 test and >= 1 train problem) overrode the hash for one unit
        "forced": split.forced,
        "problems": problems,
        "solutions": solutions,
    }


# The license the data itself comes under, where the source fixes it.
SOURCE_LICENSES = {
    "codenet": "cdla-permissive-2.0",
    "codecontests": "cc-by-4.0",  # deepmind/code_contests' card
    "codeforces": "cc-by-4.0",  # open-r1/codeforces-submissions' card
}
_LICENSE_NOTES = {
    "codenet": "Project CodeNet data is licensed CDLA-Permissive-2.0 (IBM).\n",
    "codecontests": "CodeContests (DeepMind, deepmind/code_contests) is licensed CC-BY-4.0.\n",
    "codeforces": "The Codeforces submissions (open-r1/codeforces-submissions) are licensed "
    "CC-BY-4.0.\n",
}


def data_license(options: BuildOptions) -> str | None:
    """The card's license: the source's own (CodeNet), else --license, else the recipe's."""
    fixed = SOURCE_LICENSES.get(options.source)
    if fixed is not None:
        if options.license is not None and options.license != fixed:
            raise CodelogError(
                f"--license {options.license}: {options.source} data is {fixed}; "
                "--license is for --source ci/junit"
            )
        return fixed
    chosen = options.license if options.license is not None else options.recipe.license
    return check_license(chosen) if chosen is not None else None


def size_category(n: int) -> str:
    """The hub's size bucket of n examples: n<1K, 1K<n<10K, ..., n>1T."""
    names = ["1K", "10K", "100K", "1M", "10M", "100M", "1B", "10B", "100B", "1T"]
    if n < 1000:
        return "n<1K"
    for low, high in itertools.pairwise(names):
        if n < 10 ** (3 + names.index(high)):
            return f"{low}<n<{high}"
    return "n>1T"


def _card_metadata(manifest: dict[str, Any]) -> str:
    source, language = manifest["source"], manifest["language"]
    lines = []
    if manifest.get("license"):
        lines.append(f"license: {manifest['license']}")
    title = {"codenet": "Project CodeNet", "ci": "CI runs", "junit": "JUnit reports"}
    lines += [
        f"pretty_name: {title.get(source, source)} {language} judged solutions (codelog)",
        "task_categories:",
        "- text-generation",
        "- reinforcement-learning",
        "size_categories:",
        f"- {size_category(manifest['counts']['solutions'])}",
        "source_datasets:",
        # derived from IBM's Project CodeNet; a CI export is the user's own data
        f"- {'extended' if source == 'codenet' else 'original'}",
    ]
    return "\n".join(_yaml_line(line) for line in lines) + "\n"


def _yaml_line(line: str) -> str:
    """A YAML line whose value is quoted when YAML could misread it (a colon, a leading `-`)."""
    key, sep, value = line.partition(": ")
    if sep and (":" in value or value.startswith(("-", "{", "[", "'", '"', "&", "*", "!", "#"))):
        return f"{key}: {json.dumps(value)}"
    return line


def _lint_note(recipe: dict[str, Any]) -> str:
    """The card's line on the lint columns, when the recipe asked for them."""
    if not (recipe.get("lint") or {}).get("enabled"):
        return ""
    note = (
        "\n  Ruff's findings per solution: `lint_findings`, `lint_error`, `lint_warning`, "
        f"`lint_style`, `lint_codes` (rules {', '.join(recipe['lint']['select'])})."
    )
    shaping = recipe.get("lint_reward") or {}
    if shaping.get("enabled"):
        note += (
            f"\n  `reward_lint` = reward - min({shaping['cap']}, {shaping['weight']} x findings "
            f"in {', '.join(shaping['categories'])}), with `lint_penalty`."
        )
    return note


def _decontamination_note(manifest: dict[str, Any]) -> str:
    """The card's line on benchmark contamination (codelog.group.decontaminate)."""
    d = manifest.get("decontamination")
    if d is None:
        return (
            "Decontamination: not checked against any benchmark; a model trained here may be "
            "scored on problems it trained on (`codelog build --decontaminate BENCH,...`)."
        )
    checked = ", ".join(
        f"{b['spec']} ({b['problems']:,} problems, sha256 `{b['sha256'][:16]}…`)"
        for b in d["benchmarks"]
    )
    moved = (
        "moved to the test split"
        if d["action"] == "test"
        else "dropped (rejects with reason `contaminated`)"
    )
    return (
        f"Decontamination: checked against {checked}; {d['counts']['problems']:,} problems "
        f"matched (statement coverage >= {d['rule']['threshold']} of {d['rule']['ngram']}-grams"
        f"{', or a reference solution by AST hash' if d['rule']['solutions'] else ''}) and were "
        f"{moved}: {d['counts']['rows']:,} rows."
    )


def dataset_card(manifest: dict[str, Any]) -> str:
    counts = manifest["counts"]
    reasons = (
        "\n".join(f"| {r} | {n:,} |" for r, n in counts["rejects_by_reason"].items())
        or "| (none) | 0 |"
    )
    outcomes = "\n".join(f"| {o} | {n:,} |" for o, n in counts["outcomes"].items())
    license_line = (
        f"License: {manifest['license']}.\n"
        if manifest.get("license")
        else "License: not stated (rebuild with `codelog build --license ID`).\n"
    )
    split = manifest["split"]
    files = split.get("files") or {}
    if files:  # each split its own file: datasets maps splits to files, not to rows
        solutions_files = "".join(
            f"\n  - split: {name}\n    path: {files[name]}" for name in ("train", "test")
        )
    else:
        solutions_files = " solutions.parquet"
    held_out = (
        f"Split by problem (seed {split['seed']}, test_fraction {split['test_fraction']}): "
        f"{split['problems']['train']:,} train and {split['problems']['test']:,} test problems, "
        f"{split['solutions']['train']:,} and {split['solutions']['test']:,} solutions; "
        "problems CodeNet marks identical share a split. "
        + (
            '`load_dataset(DIR, split="test")` loads the held-out problems\' solutions; the '
            "train and test files also carry each solution's `prompt` (the recipe's template "
            "filled in, ending with a newline: `prompt + code` is what codelog trains on)."
            if files
            else "There is no test split."
        )
    )
    return f"""---
{_card_metadata(manifest)}configs:
- config_name: solutions
  data_files:{solutions_files}
  default: true
- config_name: rejects
  data_files: rejects.parquet
- config_name: problems
  data_files: problems.parquet
tags:
- code
- offline-rl
---
# {manifest["source"]}-{manifest["language"]} (built by codelog {manifest["codelog_version"]})

Judged {manifest["language"]} submissions, deduplicated by canonical tree-sitter AST and grouped
per problem: every problem here has at least one correct and one incorrect solution, so a
trainer can contrast them. Recipe `{manifest["recipe"]["name"]}`, seed {manifest["seed"]}.

- `solutions`: {counts["solutions"]:,} kept submissions with `outcome`, `reward`, `is_correct`,
  `syntax_ok`, `ast_hash`, `dup_count` and `code`.{_lint_note(manifest["recipe"])}
- `rejects`: {counts["rejects"]:,} rows not kept, each with its `reason`.
- `problems`: {sum(split["problems"].values()):,} problems with their plain-text `prompt`, in
  {counts["groups"]:,} groups (problem, language, dialect).

{held_out}
Column `split` (train/test) is on `solutions` and `problems`; column `dialect` (python2/python3)
names the language version, and groups never mix dialects.

{_decontamination_note(manifest)}

Rows in: {counts["rows_in"]:,} = solutions + rejects. Input fingerprint `{manifest["input_fingerprint"][:16]}…`.

Verdict conflicts: {counts["verdict_conflicts"]:,} programs were judged differently across their
{counts["verdict_conflict_submissions"]:,} copies (recipe `on_conflict = "{manifest["recipe"]["grouping"]["on_conflict"]}"`).

| outcome | solutions |
| --- | --- |
{outcomes}

| reject reason | rows |
| --- | --- |
{reasons}

Load with `datasets.load_dataset("path/to/this/dir")` (the `solutions` config by default) or
query with `codelog sql path/to/this/dir "SELECT ..."`.

For other trainers, `codelog export path/to/this/dir --format sft|dpo|kto|grpo|verl --out OUT`
writes `OUT/train.parquet` and `OUT/test.parquet`: load them with `load_dataset("OUT")` or
`data_files={{"train": ..., "test": ...}}`, never a glob over OUT (one split, the test problems
in it). TRL trains on the completion only, the prompt's tokens masked: `sft` and `kto` rows are
`prompt` + `completion`, `dpo` rows `prompt` + `chosen` / `rejected` (with `--chat`, the same
columns as chat messages); `grpo` and `verl` rows are prompts for the trainer's own rollouts.
`kto`, `sft`, `grpo` and `verl` rows come in a seeded shuffle (`--seed`, default 0) that puts
rows of different problems side by side, as KTO's KL estimate needs.

{_LICENSE_NOTES.get(manifest["source"], license_line)}"""
