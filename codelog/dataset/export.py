"""`codelog export`: a dataset as the Parquet files other trainers read, one file per split.

Splits. Every export writes the train and the test problems to different files: `out` is a
directory and gets `train.parquet` and `test.parquet` (a split without rows is not written,
and said so), or with `split` only that split's file (`all`: both in one file, asked for by
name). An `out` ending in `.parquet` is one file and so needs `split`. Each file records its
format and split in its Parquet metadata (`codelog.export`), and the report names both.

- `dpo` (TRL DPOTrainer, standard format): prompt, chosen, rejected — a correct and an
  incorrect solution of the same group (problem, language and dialect). Per group at most
  `max_pairs_per_group` pairs, chosen by seed: each side is put in a seeded order and pair k
  takes correct[k mod C] with incorrect[(k mod C + k div C) mod I], which walks the C x I pairs
  without repeating one and uses every correct solution before any is used twice.
- `kto` (TRL KTOTrainer, unpaired): prompt, completion, label — one row per solution,
  label = is_correct.
- `sft` (TRL SFTTrainer): the accepted solutions as prompt, completion; with `chat`, each a
  list of messages (a user message, an assistant message), which TRL still trains on the
  completion only (a single `messages` column it would train on whole).
- `grpo` (TRL GRPOTrainer and other prompt-only trainers): one row per group — prompt,
  problem_id, language, dialect, split — for problems with tests, which
  `codelog.execution.trl_reward.CodeReward` runs the rollouts against.
- `verl` (verl's RL dataset, as verl's own preprocessors write it): one row per group (the
  unit verl rolls out): data_source, prompt as chat messages, ability = "code",
  reward_model = {"style": "rule", "ground_truth": JSON string of the problem's tests, limits
  and `rewards`, the recipe's reward of every CodeNet verdict} and extra_info {split, index,
  problem_id, language, dialect, n_solutions, n_correct}.
  `codelog.execution.verl_reward.compute_score` runs a rollout against the ground truth in
  the sandbox. Problems without tests are left out and counted.
- `verl-solutions`: one row per logged solution (for reward-model data, not RL rollouts): the
  ground truth is the judge's verdict on the logged response {"outcome", "reward",
  "is_correct"} (plus the tests when known), and extra_info carries the response with its ids.

Prompts are problems.prompt through the dataset's recipe template (codelog.prompts), the
same text `codelog train` conditions on, naming the group's dialect ("Python 3"). TRL joins a
plain-string prompt and its completion as they are, so plain prompts end with the separator
codelog's trainer puts between them (`codelog.prompts.SEPARATOR`, a newline): the tokens TRL
trains on are the tokens codelog's trainer trains on. With `chat`, prompts are TRL's
conversational format instead (the tokenizer's chat template then decides what joins them),
for instruct models. Solutions of a problem without a statement are left out and counted.
Every export carries problem_id, dialect and split (and submission ids where a row is a
solution), so a row can be traced back to `solutions`. Files appear only when complete
(temporary file, then rename).

Order. dpo rows come by group (TRL's trainer shuffles them). Every pointwise export (kto, sft,
grpo, verl, verl-solutions) writes its rows in a seeded shuffle (`seed`, default 0: the same
seed, the same bytes) that spreads each problem over the file (`spread_sql`), so neighbouring
rows come from different problems: TRL's KTOTrainer reads its file in order and pairs each
prompt with its neighbour's completion for its KL estimate, which rows grouped by problem
would bias.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from codelog import kinds
from codelog.dataset.open import open_dataset, read_manifest
from codelog.errors import CodelogError, EmptyResultError
from codelog.files import check_output_file, output_metadata, refuse_inputs
from codelog.prompts import SEPARATOR, render_prompt
from codelog.recipe import Recipe, verdict_rewards
from codelog.sql import literal

ExportFormat = Literal["dpo", "kto", "sft", "grpo", "verl", "verl-solutions"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("dpo", "kto", "sft", "grpo", "verl", "verl-solutions")
Split = Literal["train", "test", "all"]
SPLITS: tuple[Split, ...] = ("train", "test", "all")
DEFAULT_SPLITS: tuple[Split, ...] = ("train", "test")  # one file each: never mixed silently
NEEDS_TESTS = ("grpo", "verl")  # rows a reward function scores by running the tests
EXPORT_KEY = b"codelog.export"  # Parquet metadata: {"format", "split"}
DEFAULT_MAX_PAIRS = 32
BATCH_ROWS = 8192


@dataclass(frozen=True)
class SplitExport:
    """One written file: which split it holds and what went in."""

    split: str
    out: Path
    rows: int
    groups: int  # groups with at least one exported row
    problems: int
    skipped_no_statement: int  # solutions left out: their problem has no statement
    skipped_no_tests: int = 0  # grpo/verl: groups left out, their problem has no tests


@dataclass(frozen=True)
class ExportReport:
    out: Path  # the file, or the directory holding one file per split
    format: str
    files: tuple[SplitExport, ...]
    empty_splits: tuple[str, ...] = ()  # asked for by default, no rows: no file written

    @property
    def rows(self) -> int:
        return sum(f.rows for f in self.files)

    @property
    def groups(self) -> int:
        return sum(f.groups for f in self.files)

    @property
    def skipped_no_statement(self) -> int:
        return sum(f.skipped_no_statement for f in self.files)

    @property
    def skipped_no_tests(self) -> int:
        return sum(f.skipped_no_tests for f in self.files)

    def file(self, split: str) -> Path:
        return next(f.out for f in self.files if f.split == split)


@dataclass(frozen=True)
class ExportJob:
    """One export, its options checked and its outputs cleared: what a kind's exporter
    (codelog.kinds, part "dataset.export") is given."""

    root: Path  # the dataset
    manifest: dict[str, Any]
    recipe: Recipe  # the dataset's own
    fmt: str
    split: Split | None  # None: train and test, a file each (an empty one skipped)
    out: Path
    targets: list[tuple[str, Path]]  # (split, file) to write (`split_targets`)
    chat: bool
    max_pairs_per_group: int
    seed: int
    problem_tests: Mapping[str, Mapping[str, Any]] | None


def split_targets(out: Path, split: str | None) -> list[tuple[str, Path]]:
    """(split, file) for each file an export to `out` writes: `out/<split>.parquet` for each
    of train and test (or only `split`), or `out` itself when it ends in .parquet, which
    holds one split and so needs `split` named."""
    if split is not None and split not in SPLITS:
        raise CodelogError(f"unknown split {split!r}; one of {', '.join(SPLITS)}")
    if out.suffix == ".parquet":
        if split is None:
            raise CodelogError(
                f"--out {out}: one file holds one split: pass --split train, test or all (all: "
                "the held-out problems too), or give --out a directory to get train.parquet "
                "and test.parquet"
            )
        return [(split, out)]
    if out.exists() and not out.is_dir():
        raise CodelogError(
            f"--out {out}: is a file; --out names a directory (train.parquet, test.parquet "
            "in it) or, with --split, a .parquet file"
        )
    return [(s, out / f"{s}.parquet") for s in ((split,) if split else DEFAULT_SPLITS)]


def export_dataset(
    dataset: str | Path,
    fmt: ExportFormat,
    out: str | Path,
    *,
    split: Split | None = None,
    max_pairs_per_group: int = DEFAULT_MAX_PAIRS,
    seed: int = 0,
    force: bool = False,
    chat: bool = False,
    problem_tests: Mapping[str, Mapping[str, Any]] | None = None,
) -> ExportReport:
    """Writes the `fmt` view of the dataset's `split` (default: train and test, a file each;
    see `split_targets`) as Parquet (`chat`: prompts as TRL's conversational format).

    `problem_tests` maps problem_id -> what a reward function needs to run a response (tests,
    limits, ...; `codelog.execution.verl_reward.problem_spec` makes it). grpo and verl need
    it: only problems in it get rows. verl merges it into each row's ground truth with
    `rewards`, the recipe's reward of every CodeNet verdict (verl-solutions too, when given).

    Outputs may not lie inside the dataset; an existing file is replaced only when codelog
    wrote it, or with `force` (codelog.files.check_output_file). A split asked for by name
    with 0 rows is an EmptyResultError saying why, and leaves its file as it was; by default
    an empty split is skipped (`empty_splits`), and both empty is the error."""
    if fmt not in EXPORT_FORMATS:
        raise CodelogError(f"unknown export format {fmt!r}; one of {', '.join(EXPORT_FORMATS)}")
    if chat and fmt.startswith("verl"):
        raise CodelogError("--chat is not for verl: verl's prompt is always chat messages")
    if max_pairs_per_group < 1:
        raise CodelogError("--max-pairs-per-problem must be at least 1")
    root = Path(dataset).resolve()
    manifest = read_manifest(root)
    recipe = Recipe.from_dict(manifest["recipe"], where=f"{root}/manifest.json recipe")
    out = Path(out).resolve()
    refuse_inputs(out, [root])
    targets = split_targets(out, split)
    for _, target in targets:
        check_output_file(target, force=force, inputs=[root])
    job = ExportJob(
        root,
        manifest,
        recipe,
        fmt,
        split,
        out,
        targets,
        chat,
        max_pairs_per_group,
        seed,
        problem_tests,
    )
    made = _missing_dirs({target.parent for _, target in targets})
    try:
        return kinds.of_manifest(manifest).part("dataset.export")(job)
    except BaseException:
        # a failed export (a full disk, Ctrl-C) leaves no directory it made: what it wrote
        # into one goes with it; a directory that was there keeps whatever it held
        _remove_made(made, [target for _, target in targets])
        raise


def _missing_dirs(directories: set[Path]) -> list[Path]:
    """The directories among `directories` and their parents that do not exist yet, deepest
    first."""
    missing: set[Path] = set()
    for directory in directories:
        for d in (directory, *directory.parents):
            if d.exists():
                break
            missing.add(d)
    return sorted(missing, key=lambda d: len(d.parts), reverse=True)


def _remove_made(made: list[Path], targets: list[Path]) -> None:
    for directory in made:
        for target in targets:
            if target.parent == directory:
                target.unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # not empty: something else was put there
            directory.rmdir()


def export_solutions(job: ExportJob) -> ExportReport:
    """The solutions kind's exports (every format; see the module docstring)."""
    root, fmt, chat, problem_tests = job.root, job.fmt, job.chat, job.problem_tests
    if fmt in NEEDS_TESTS and problem_tests is None:
        raise CodelogError(
            f"{fmt} rows are scored by running each problem's tests: pass problem_tests "
            "(codelog.export and `codelog export` load them from the dataset or --tests)"
        )
    con = open_dataset(root)
    try:
        # plain strings end with the trainer's separator; chat messages leave it to the template
        _register_prompts(
            con, job.recipe.prompt.template, "" if chat or fmt.startswith("verl") else SEPARATOR
        )
        _register_problem_tests(con, problem_tests or {}, job.recipe)
        query = _query(fmt, chat, job.max_pairs_per_group, job.seed, job.manifest)

        def write(name: str, target: Path) -> SplitExport:
            con.execute(
                "CREATE OR REPLACE TEMP VIEW picked AS SELECT * FROM solutions"
                + ("" if name == "all" else f" WHERE split = {literal(name)}")
            )
            return _write_split(con, fmt, query, name, target)

        return each_split(job, write)
    finally:
        con.close()


def each_split(job: ExportJob, write: Callable[[str, Path], SplitExport]) -> ExportReport:
    """`write` each of the job's (split, file); a split without rows is an EmptyResultError
    when asked for by name, else skipped and named in `empty_splits` (both empty: the error)."""
    written, empty = [], []
    for name, target in job.targets:
        try:
            written.append(write(name, target))
        except EmptyResultError as exc:
            if job.split is not None:
                raise
            empty.append((name, str(exc)))
    if not written:
        raise EmptyResultError("; ".join(why for _, why in empty))
    return ExportReport(job.out, job.fmt, tuple(written), tuple(name for name, _ in empty))


def _query(fmt: str, chat: bool, max_pairs: int, seed: int, manifest: Mapping[str, Any]) -> str:
    source = f"codelog/{manifest.get('source', 'unknown')}"
    if fmt == "dpo":
        return dpo_sql(max_pairs, seed, chat)
    if fmt == "kto":
        return kto_sql(chat, seed)
    if fmt == "sft":
        return sft_sql(chat, seed)
    if fmt == "grpo":
        return grpo_sql(chat, seed)
    if fmt == "verl":
        return verl_sql(source, seed)
    return verl_solutions_sql(source, seed)


def _write_split(
    con: duckdb.DuckDBPyConnection, fmt: str, query: str, split: str, out: Path
) -> SplitExport:
    skipped = con.sql(
        f"SELECT count(*) FROM picked s WHERE NOT EXISTS (SELECT 1 FROM prompts p "
        f"WHERE {_SAME_GROUP})"
    ).fetchall()[0][0]
    untested = 0
    if fmt in NEEDS_TESTS:
        untested = con.sql(
            "SELECT count(DISTINCT (problem_id, language, dialect)) FROM picked s "
            "WHERE problem_id NOT IN (SELECT problem_id FROM problem_tests)"
        ).fetchall()[0][0]
    meta = {EXPORT_KEY: json.dumps({"format": fmt, "split": split}).encode()}
    try:
        rows = _write_atomically(con.sql(query).to_arrow_reader(BATCH_ROWS), out, meta)
    except EmptyResultError:
        raise EmptyResultError(_why_empty(con, fmt, split, out, skipped, untested)) from None
    # Counted from the written file: cheaper than running the export query twice.
    where = "extra_info." if fmt.startswith("verl") else ""
    groups, problems = con.sql(
        f"SELECT count(DISTINCT ({where}problem_id, {where}language, {where}dialect)), "
        f"count(DISTINCT {where}problem_id) FROM read_parquet({literal(out)})"
    ).fetchall()[0]
    return SplitExport(split, out, rows, groups, problems, skipped, untested)


def _why_empty(
    con: duckdb.DuckDBPyConnection, fmt: str, split: str, out: Path, skipped: int, untested: int
) -> str:
    solutions, groups = con.sql(
        "SELECT count(*), count(DISTINCT (problem_id, language, dialect)) FROM picked"
    ).fetchall()[0]
    which = "" if split == "all" else f" of split {split}"
    why = [f"{solutions:,} solutions in {groups:,} groups{which}"]
    if skipped:
        why.append(f"{skipped:,} left out because their problem has no statement")
    if untested:
        why.append(f"{untested:,} groups left out because their problem has no tests")
    if fmt == "dpo":
        why.append("dpo needs a group with a correct and an incorrect solution")
    if fmt == "sft":
        why.append("sft needs a correct solution")
    return f"0 {fmt} rows to write for split {split} ({'; '.join(why)}); {out} was not written"


def _register_prompts(con: duckdb.DuckDBPyConnection, template: str, separator: str) -> None:
    """Registers table `prompts(problem_id, language, dialect, prompt)`, rendered in Python by
    the one render_prompt (one row per group: few, even on full CodeNet) and ended with
    `separator`; groups whose problem has no statement have no row."""
    groups = con.sql(
        """
        SELECT g.problem_id, g.language, g.dialect, p.prompt AS statement
        FROM (SELECT DISTINCT problem_id, language, dialect FROM solutions) g
        LEFT JOIN problems p USING (problem_id)
        WHERE p.prompt IS NOT NULL AND p.prompt <> ''
        ORDER BY g.problem_id, g.language, g.dialect
        """
    ).fetchall()
    con.register(
        "prompts",
        pa.table(
            {
                "problem_id": pa.array([g[0] for g in groups], pa.string()),
                "language": pa.array([g[1] for g in groups], pa.string()),
                "dialect": pa.array([g[2] for g in groups], pa.string()),
                "prompt": pa.array(
                    [render_prompt(template, s, lang, d) + separator for _, lang, d, s in groups],
                    pa.string(),
                ),
            }
        ),
    )


# A solution's (or group's) prompt: its group's (dialect NULL for languages without dialects).
_SAME_GROUP = """p.problem_id = s.problem_id AND p.language = s.language
        AND p.dialect IS NOT DISTINCT FROM s.dialect"""
_JOIN_PROMPTS = f"JOIN prompts p ON {_SAME_GROUP}"


def _message(role: str, content: str) -> str:
    return f"[{{'role': '{role}', 'content': {content}}}]"


def dpo_sql(max_pairs_per_group: int, seed: int, chat: bool = False) -> str:
    """Pairs within a group of `picked`; `side` numbers each side's solutions in a seeded
    order from 0."""
    cap, seed = int(max_pairs_per_group), int(seed)
    if chat:
        texts = (
            f"{_message('user', 'c.prompt')} AS prompt, {_message('assistant', 'c.code')} AS "
            f"chosen, {_message('assistant', 'i.code')} AS rejected"
        )
    else:
        texts = "c.prompt, c.code AS chosen, i.code AS rejected"
    # a group is (problem_id, language, dialect): `g` numbers them, so no join meets a NULL
    return f"""
    WITH side AS (
        SELECT s.problem_id, s.language, s.dialect, s.split, s.submission_id, s.code,
               s.outcome, s.reward, s.is_correct, p.prompt,
               dense_rank() OVER (ORDER BY s.problem_id, s.language, s.dialect) AS g,
               row_number() OVER (
                   PARTITION BY s.problem_id, s.language, s.dialect, s.is_correct
                   ORDER BY md5('{seed}:' || s.submission_id), s.submission_id
               ) - 1 AS r
        FROM picked s {_JOIN_PROMPTS}
    ),
    sizes AS (
        SELECT g, any_value(problem_id) AS problem_id, any_value(language) AS language,
               any_value(dialect) AS dialect, any_value(split) AS split,
               count(*) FILTER (WHERE is_correct) AS n_correct,
               count(*) FILTER (WHERE NOT is_correct) AS n_incorrect
        FROM side GROUP BY g
        HAVING n_correct > 0 AND n_incorrect > 0
    ),
    pair_index AS (
        SELECT g, problem_id, language, dialect, split, n_correct, n_incorrect,
               unnest(range(least({cap}, n_correct * n_incorrect))) AS k
        FROM sizes
    )
    SELECT {texts},
           k.problem_id, k.language, k.dialect, k.split,
           c.submission_id AS chosen_submission_id, i.submission_id AS rejected_submission_id,
           c.reward AS chosen_reward, i.reward AS rejected_reward,
           i.outcome AS rejected_outcome
    FROM pair_index k
    JOIN side c ON c.g = k.g AND c.is_correct AND c.r = k.k % k.n_correct
    JOIN side i ON i.g = k.g AND NOT i.is_correct
         AND i.r = (k.k % k.n_correct + k.k // k.n_correct) % k.n_incorrect
    ORDER BY k.problem_id, k.language, k.dialect NULLS FIRST, k.k
    """


def spread_sql(rows: str, seed: int) -> str:
    """`rows` (a query with columns `problem_id` and `_key`, unique within a problem) with
    `_order`, the row's place in a seeded shuffle that spreads each problem over the file:
    a problem's n rows, in a seeded order k = 0..n-1, sit at (k + phase) / n, its phase a
    seeded fraction, and the file takes them by that place. Neighbouring rows so come from
    different problems wherever the rest of the file has rows to put between them, which a
    random shuffle gives only on average: TRL's KTOTrainer reads the file in order and
    estimates its KL term from each row's prompt with its neighbour's completion."""
    seed = int(seed)
    return f"""
    WITH placed AS (
        SELECT *,
               (row_number() OVER (
                    PARTITION BY problem_id ORDER BY md5('{seed}:' || _key), _key) - 1
                + (md5_number('{seed}:' || problem_id) % 1000003) / 1000003.0)
               / count(*) OVER (PARTITION BY problem_id) AS _at
        FROM ({rows})
    )
    SELECT * EXCLUDE (_at),
           row_number() OVER (ORDER BY _at, md5('{seed}:' || problem_id), _key) - 1 AS _order
    FROM placed
    """


def kto_sql(chat: bool = False, seed: int = 0) -> str:
    """One row per solution of `picked`, in `spread_sql`'s order."""
    if chat:
        texts = f"{_message('user', 'p.prompt')} AS prompt, {_message('assistant', 's.code')} AS completion"
    else:
        texts = "p.prompt, s.code AS completion"
    rows = f"""
    SELECT {texts}, s.is_correct AS label,
           s.problem_id, s.language, s.dialect, s.split, s.submission_id, s.outcome, s.reward,
           s.submission_id AS _key
    FROM picked s {_JOIN_PROMPTS}
    """
    return f"SELECT * EXCLUDE (_key, _order) FROM ({spread_sql(rows, seed)}) ORDER BY _order"


def sft_sql(chat: bool = False, seed: int = 0) -> str:
    """The accepted solutions, in `spread_sql`'s order: TRL's SFTTrainer's prompt-completion
    format (with `chat`, each side a list of messages), which it trains on the completion
    only."""
    if chat:
        texts = f"{_message('user', 'p.prompt')} AS prompt, {_message('assistant', 's.code')} AS completion"
    else:
        texts = "p.prompt, s.code AS completion"
    rows = f"""
    SELECT {texts},
           s.problem_id, s.language, s.dialect, s.split, s.submission_id, s.reward,
           s.submission_id AS _key
    FROM picked s {_JOIN_PROMPTS}
    WHERE s.is_correct
    """
    return f"SELECT * EXCLUDE (_key, _order) FROM ({spread_sql(rows, seed)}) ORDER BY _order"


# One row per group of `picked` whose problem has tests: the unit an online trainer rolls out;
# `_key` tells a problem's groups apart (for spread_sql).
_GROUPS = f"""
    SELECT s.problem_id, s.language, s.dialect, any_value(s.split) AS split,
           count(*) AS n_solutions, count(*) FILTER (WHERE s.is_correct) AS n_correct,
           any_value(p.prompt) AS prompt, any_value(pt.spec) AS spec,
           s.language || ':' || coalesce(s.dialect, '') AS _key
    FROM picked s {_JOIN_PROMPTS}
    JOIN problem_tests pt ON pt.problem_id = s.problem_id
    GROUP BY s.problem_id, s.language, s.dialect
"""


def grpo_sql(chat: bool = False, seed: int = 0) -> str:
    prompt = _message("user", "g.prompt") if chat else "g.prompt"
    return f"""
    SELECT {prompt} AS prompt, g.problem_id, g.language, g.dialect, g.split
    FROM ({spread_sql(_GROUPS, seed)}) g
    ORDER BY g._order
    """


def verl_sql(data_source: str, seed: int = 0) -> str:
    """One row per group, as verl's preprocessors write a prompt (examples/data_preprocess);
    `index` is the row's place in the file."""
    source = data_source.replace("'", "''")
    return f"""
    SELECT '{source}' AS data_source,
           {_message("user", "g.prompt")} AS prompt,
           'code' AS ability,
           {{'style': 'rule', 'ground_truth': g.spec}} AS reward_model,
           {{'split': g.split, 'index': g._order,
             'problem_id': g.problem_id, 'language': g.language, 'dialect': g.dialect,
             'n_solutions': g.n_solutions, 'n_correct': g.n_correct}} AS extra_info
    FROM ({spread_sql(_GROUPS, seed)}) g
    ORDER BY g._order
    """


def _register_problem_tests(
    con: duckdb.DuckDBPyConnection, problem_tests: Mapping[str, Mapping[str, Any]], recipe: Recipe
) -> None:
    """Table `problem_tests(problem_id, spec)`: each problem's tests (and the verdict rewards)
    as one JSON object, the verl ground truth."""
    rewards = verdict_rewards(recipe)
    ids = sorted(problem_tests)
    specs = [json.dumps({**problem_tests[p], "rewards": rewards}, sort_keys=True) for p in ids]
    con.register(
        "problem_tests",
        pa.table({"problem_id": pa.array(ids, pa.string()), "spec": pa.array(specs, pa.string())}),
    )


def verl_solutions_sql(data_source: str, seed: int = 0) -> str:
    """One row per logged solution, in `spread_sql`'s order: the ground truth is the judge's
    verdict on it."""
    source = data_source.replace("'", "''")
    rows = f"""
    SELECT s.problem_id, s.language, s.dialect, s.split, s.submission_id, s.outcome, s.reward,
           s.is_correct, s.code, p.prompt, pt.spec, s.submission_id AS _key
    FROM picked s {_JOIN_PROMPTS}
    LEFT JOIN problem_tests pt ON pt.problem_id = s.problem_id
    """
    return f"""
    SELECT '{source}' AS data_source,
           {_message("user", "s.prompt")} AS prompt,
           'code' AS ability,
           {{'style': 'rule',
             'ground_truth': json_merge_patch(
                 to_json({{'outcome': s.outcome, 'reward': s.reward,
                          'is_correct': s.is_correct}}),
                 coalesce(s.spec, '{{}}'))::VARCHAR}} AS reward_model,
           {{'split': s.split, 'index': s._order,
             'problem_id': s.problem_id, 'language': s.language, 'dialect': s.dialect,
             'submission_id': s.submission_id, 'outcome': s.outcome, 'reward': s.reward,
             'is_correct': s.is_correct, 'response': s.code}} AS extra_info
    FROM ({spread_sql(rows, seed)}) s
    ORDER BY s._order
    """


def _write_atomically(
    reader: pa.RecordBatchReader, out: Path, metadata: Mapping[bytes, bytes] | None = None
) -> int:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    rows = 0
    marked = reader.schema.with_metadata(
        {**(reader.schema.metadata or {}), **output_metadata(), **(metadata or {})}
    )
    try:
        with pq.ParquetWriter(tmp, marked, compression="zstd") as writer:
            for batch in reader:
                writer.write_batch(batch)
                rows += batch.num_rows
        if rows == 0:
            raise EmptyResultError(f"0 rows to write to {out}")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return rows
