"""Arrow schemas of the tables codelog reads and writes: the one place they are defined.

`SUBMISSION` is what every source yields (CodeNet's metadata columns plus where the code is);
`STAGED` adds what normalisation and parsing learn about each row; `SOLUTION`, `REJECT` and
`PROBLEM` are the dataset's published tables.
"""

from __future__ import annotations

import pyarrow as pa

# CodeNet's per-problem metadata columns, in CodeNet's order.
CODENET_COLUMNS = (
    "submission_id",
    "problem_id",
    "user_id",
    "date",
    "language",
    "original_language",
    "filename_ext",
    "status",
    "cpu_time",
    "memory",
    "code_size",
    "accuracy",
)
PROBLEM_LIST_COLUMNS = (
    "id",
    "name",
    "dataset",
    "time_limit",
    "memory_limit",
    "rating",
    "tags",
    "complexity",
)

SUBMISSION = pa.schema(
    [
        ("submission_id", pa.string()),
        ("problem_id", pa.string()),
        ("user_id", pa.string()),
        ("date", pa.int64()),  # Unix seconds
        ("language", pa.string()),  # CodeNet directory name, e.g. "Python", "C++"
        ("original_language", pa.string()),  # e.g. "Python (3.8.2)", "PyPy3 (7.3.0)"
        ("dialect", pa.string()),  # python2 / python3 (codelog.dialects); null: none or unknown
        ("filename_ext", pa.string()),
        ("status", pa.string()),  # raw judge/CI status string
        ("cpu_time", pa.int64()),  # ms; null when the judge gave none or a negative sentinel
        ("memory", pa.int64()),  # KB; same rule
        ("code_size", pa.int64()),  # bytes, as the judge reported
        ("accuracy", pa.string()),  # "passed/total" (AIZU) or null
        ("code", pa.string()),  # inline code (CI exports); null when it lives in a file
        ("code_path", pa.string()),  # absolute path of the source file, or null
        ("origin", pa.string()),  # "metadata/p02971.csv:118": where the row came from
        ("reject_reason", pa.string()),  # set by a source that already knows the row is bad
        ("reject_detail", pa.string()),
    ]
)

# Staged rows keep only what reading and parsing learned; statuses, rewards and grouping are
# applied later in SQL, so a recipe change that touches only those re-runs only the SQL.
STAGED = pa.schema(
    [
        ("seq", pa.int64()),  # position in the input stream: the tie-breaker of last resort
        *[SUBMISSION.field(n) for n in SUBMISSION.names if n != "code_path"],
        ("syntax_ok", pa.bool_()),
        ("ast_hash", pa.string()),  # canonical tree-sitter hash (codelog.stage.ast_hash)
        ("code_hash", pa.string()),  # hash of the exact bytes
    ]
)

SOLUTION = pa.schema(
    [
        ("problem_id", pa.string()),
        ("language", pa.string()),
        ("submission_id", pa.string()),
        ("user_id", pa.string()),
        ("date", pa.int64()),
        ("original_language", pa.string()),
        ("dialect", pa.string()),  # python2 / python3, or null; groups never mix dialects
        ("split", pa.string()),  # train / test, by problem (codelog.group.split)
        ("status", pa.string()),
        ("outcome", pa.string()),
        ("reward", pa.float64()),
        ("is_correct", pa.bool_()),
        ("syntax_ok", pa.bool_()),
        ("ast_hash", pa.string()),
        ("dup_count", pa.int64()),  # submissions this solution stands for (itself included)
        ("cpu_time", pa.int64()),
        ("memory", pa.int64()),
        ("code_size", pa.int64()),
        ("accuracy", pa.string()),
        ("code", pa.string()),
    ]
)

REJECT = pa.schema(
    [
        ("problem_id", pa.string()),
        ("language", pa.string()),
        ("dialect", pa.string()),
        ("submission_id", pa.string()),
        ("status", pa.string()),
        ("outcome", pa.string()),
        ("reason", pa.string()),  # duplicate, correct_cap, dialect, unknown_status, ...
        ("detail", pa.string()),  # e.g. "duplicate of s123", the bad value, the error
        ("origin", pa.string()),
        ("ast_hash", pa.string()),
        ("code", pa.string()),
    ]
)

PROBLEM = pa.schema(
    [
        ("problem_id", pa.string()),
        ("name", pa.string()),
        ("dataset", pa.string()),
        ("time_limit", pa.int64()),  # ms
        ("memory_limit", pa.int64()),  # KB
        ("rating", pa.string()),
        ("tags", pa.string()),
        ("complexity", pa.string()),
        ("prompt", pa.string()),  # plain-text statement (HTML stripped, sample I/O kept)
        ("split", pa.string()),  # train / test; sources leave it null, the build assigns it
    ]
)

# A problem's tests, where the source has them (CodeContests' public, private and generated
# tests; Codeforces' official tests): published as tests.parquet, one row a test, where the
# judge, `eval codenet:DATASET`, the rewards and `experiment` read them.
TEST = pa.schema(
    [
        ("problem_id", pa.string()),
        ("name", pa.string()),  # "public 1", "private 3", "generated 12", "official 2"
        ("input", pa.string()),
        ("output", pa.string()),
    ]
)


# --- the repair kind (`codelog build --kind repair`, codelog.group.repairs) ---------------------

# One earlier attempt as a repair row's context shows it (`outcome` and `accuracy` as shown: a
# perturbed row shows one wrong verdict; `pass_rate` is the judge's, used by the reward).
ATTEMPT = pa.struct(
    [
        ("submission_id", pa.string()),
        ("date", pa.int64()),
        ("status", pa.string()),
        ("outcome", pa.string()),
        ("accuracy", pa.string()),
        ("pass_rate", pa.float64()),
        ("ast_hash", pa.string()),
        ("code", pa.string()),
    ]
)

REPAIR = pa.schema(
    [
        ("problem_id", pa.string()),
        ("language", pa.string()),
        ("dialect", pa.string()),  # python2 / python3, or null; a trajectory never mixes them
        ("split", pa.string()),  # train / test, by problem (codelog.group.split)
        ("user_id", pa.string()),
        ("step", pa.int64()),  # t: the user's attempts before this one (>= 1)
        ("context", pa.list_(ATTEMPT)),  # the attempts shown, oldest first (at most horizon - 1)
        ("context_key", pa.string()),  # same key = same programs with the same verdicts shown
        ("submission_id", pa.string()),  # the target: attempt t + 1
        ("date", pa.int64()),
        ("original_language", pa.string()),
        ("status", pa.string()),
        ("outcome", pa.string()),
        ("accuracy", pa.string()),
        ("pass_rate", pa.float64()),  # passed/total when logged, else 1 if accepted, 0 if not
        ("is_correct", pa.bool_()),
        ("syntax_ok", pa.bool_()),
        ("ast_hash", pa.string()),
        ("reward_outcome", pa.float64()),  # the recipe's [rewards] of the outcome
        ("best_pass_rate_before", pa.float64()),  # best pass rate in the context (true verdicts)
        ("reward_improve", pa.float64()),  # clip(pass_rate - best_pass_rate_before)
        ("reward", pa.float64()),  # the [repairs] reward formula (codelog.recipe.Repairs)
        ("perturbed", pa.bool_()),  # a copy whose last context attempt shows a wrong verdict
        ("perturbation", pa.string()),  # which attempt, shown as what, and what it really was
        ("code", pa.string()),
    ]
)
