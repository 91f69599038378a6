"""One output rule for every command (codelog.files.check_output_file / keep_foreign):

- no output is an input (refused even with --force);
- a file codelog did not write is replaced only with --force;
- a directory holding files codelog did not write (`.git` included) keeps them, or the command
  refuses with a clear line.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from codelog.cli import cli
from codelog.errors import OutputError
from codelog.files import check_output_file, mark_written, written_by_codelog

PROBLEMS = [{"problem_id": "add", "tests": [{"input": "1 2\n", "output": "3\n"}]}]
SAMPLES = [{"problem_id": "add", "code": "a, b = map(int, input().split())\nprint(a + b)\n"}]


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Records of written files in a cache of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def refused(result, match: str) -> None:
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, OutputError), result.exception
    assert match in str(result.exception)


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def judge_inputs(tmp_path):
    return write_jsonl(tmp_path / "samples.jsonl", SAMPLES), write_jsonl(
        tmp_path / "problems.jsonl", PROBLEMS
    )


def judge(samples, problems, *extra):
    return run("judge", samples, "--tests", problems, "--workers", 1, "--quiet", *extra)


# --------------------------------------------------------------------------- the rule itself


def test_a_text_file_codelog_wrote_is_its_own_until_someone_changes_it(tmp_path):
    out = tmp_path / "rows.jsonl"
    out.write_text("{}\n")
    assert not written_by_codelog(out)
    mark_written(out)
    assert written_by_codelog(out)
    check_output_file(out, force=False)
    out.write_text('{"edited": true}\n')
    assert not written_by_codelog(out)
    with pytest.raises(OutputError, match="pass --force"):
        check_output_file(out, force=False)


def test_two_outputs_of_one_run_are_never_the_same_file(tmp_path):
    out = tmp_path / "a.jsonl"
    with pytest.raises(OutputError, match="is also --out"):
        check_output_file(out, force=True, option="--details", others=[("--out", out)])


# ------------------------------------------------------------------------------------ judge


@pytest.mark.parametrize("flag", ["--out", "--details", "--problems-out"])
def test_judge_never_writes_over_its_samples_even_with_force(judge_inputs, tmp_path, flag):
    samples, problems = judge_inputs
    before = samples.read_bytes()
    args = ["--out", tmp_path / "rows.jsonl"] if flag != "--out" else []
    refused(judge(samples, problems, *args, flag, samples, "--force"), "never writes over")
    assert samples.read_bytes() == before


def test_judge_never_writes_over_its_problems_file(judge_inputs):
    samples, problems = judge_inputs
    before = problems.read_bytes()
    refused(judge(samples, problems, "--out", problems, "--force"), "never writes over")
    assert problems.read_bytes() == before


@pytest.mark.parametrize("flag", ["--out", "--details", "--problems-out"])
def test_judge_replaces_a_user_file_only_with_force(judge_inputs, tmp_path, flag):
    samples, problems = judge_inputs
    mine = tmp_path / "mine.jsonl"
    mine.write_text("my notes\n")
    args = ["--out", tmp_path / "rows.jsonl"] if flag != "--out" else []
    refused(judge(samples, problems, *args, flag, mine), "pass --force")
    assert mine.read_text() == "my notes\n"
    assert not (tmp_path / "rows.jsonl").exists()  # refused before anything ran
    forced = judge(samples, problems, *args, flag, mine, "--force")
    assert forced.exit_code == 0, forced.output
    assert mine.read_text() != "my notes\n"


def test_judge_replaces_its_own_outputs_without_force(judge_inputs, tmp_path):
    samples, problems = judge_inputs
    outs = ["--out", tmp_path / "rows.csv", "--details", tmp_path / "details.jsonl"]
    outs += ["--problems-out", tmp_path / "problems-out.jsonl"]
    for _ in range(2):
        result = judge(samples, problems, *outs)
        assert result.exit_code == 0, result.output


def test_judge_out_and_details_cannot_be_one_file(judge_inputs, tmp_path):
    samples, problems = judge_inputs
    out = tmp_path / "rows.jsonl"
    refused(judge(samples, problems, "--out", out, "--details", out), "is also --out")


# ------------------------------------------------------------------------------------- eval


def eval_(samples, problems, *extra):
    return run(
        "eval", "--benchmark", problems, "--samples", samples, "--workers", 1, "--quiet", *extra
    )


def test_eval_never_writes_over_its_samples(judge_inputs):
    samples, problems = judge_inputs
    before = samples.read_bytes()
    refused(eval_(samples, problems, "--out", samples.parent, "--force"), "never writes over")
    assert samples.read_bytes() == before


def test_eval_keeps_other_files_and_replaces_a_users_only_with_force(judge_inputs, tmp_path):
    samples, problems = judge_inputs
    out = tmp_path / "evaluation"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    (out / "summary.json").write_text("{}\n")
    refused(eval_(samples, problems, "--out", out), "pass --force")
    assert (out / "summary.json").read_text() == "{}\n"
    assert eval_(samples, problems, "--out", out, "--force").exit_code == 0
    again = eval_(samples, problems, "--out", out)  # its own outputs now: no --force needed
    assert again.exit_code == 0, again.output
    assert (out / "notes.txt").read_text() == "mine\n"
    assert json.loads((out / "summary.json").read_text()) != {}


# ------------------------------------------------------------------------------------ build


def git(*args, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True, timeout=60
    ).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_build_into_a_git_clone_keeps_git_and_user_files(sample_dataset, tmp_path):
    out = Path(shutil.copytree(sample_dataset, tmp_path / "hub-dataset"))
    git("init", "-q", cwd=out)
    (out / ".gitattributes").write_text("*.parquet filter=lfs\n")
    (out / "NOTES.md").write_text("my notes\n")
    git("add", "-A", cwd=out)
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "v1", cwd=out)
    result = run("build", "--out", out, "--workers", 1, "--quiet")
    assert result.exit_code == 0, result.output
    assert (out / ".gitattributes").read_text() == "*.parquet filter=lfs\n"
    assert (out / "NOTES.md").read_text() == "my notes\n"
    assert "v1" in git("log", "--format=%s", cwd=out)  # the clone's history is intact
    assert (out / "manifest.json").is_file()


def test_build_into_a_fresh_clone_keeps_its_hidden_files(tmp_path):
    out = tmp_path / "empty-clone"
    (out / ".git").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (out / ".gitattributes").write_text("*.parquet filter=lfs\n")
    result = run("build", "--out", out, "--workers", 1, "--quiet")
    assert result.exit_code == 0, result.output
    assert (out / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert (out / "manifest.json").is_file()


def test_build_refuses_a_clone_whose_file_it_would_replace(tmp_path):
    out = tmp_path / "clone"
    (out / ".git").mkdir(parents=True)
    (out / "README.md").write_text("the hub's card\n")
    result = run("build", "--out", out, "--workers", 1, "--quiet")
    refused(result, "is not a codelog dataset")
    assert (out / "README.md").read_text() == "the hub's card\n"
