"""The held-out split: by problem, seeded, stable, identical problems together."""

from __future__ import annotations

import dataclasses
import json

import pyarrow.parquet as pq
import pytest

from codelog.errors import InputError, RecipeError
from codelog.group.split import assign_splits, cluster_keys
from codelog.ingest.codenet import read_problem_clusters
from codelog.recipe import Recipe, Split, load_recipe
from tests.codenet_tree import CodenetTree
from tests.conftest import build_sample

PROBLEMS = [f"p{n:05d}" for n in range(1000)]


def splits(problems=PROBLEMS, clusters=(), fraction=0.1, seed=0) -> dict[str, str]:
    return assign_splits(problems, clusters, fraction, seed).splits


def test_about_test_fraction_of_problems_are_test():
    share = list(splits().values()).count("test") / len(PROBLEMS)
    assert 0.07 < share < 0.13
    assert list(splits(fraction=0.5).values()).count("test") / len(PROBLEMS) > 0.4


def test_same_seed_same_split_other_seed_other_split():
    assert splits(seed=3) == splits(seed=3)
    moved = sum(a != b for a, b in zip(splits().values(), splits(seed=3).values(), strict=True))
    assert moved > 50


def test_a_problems_split_does_not_depend_on_the_other_problems():
    everything = splits()
    half = splits(PROBLEMS[::2])
    assert all(everything[p] == s for p, s in half.items())
    assert splits(list(reversed(PROBLEMS))) == everything


def test_at_least_one_test_and_one_train_problem_from_two_on():
    for seed in range(50):
        two = assign_splits(["p1", "p2"], [], 0.1, seed)
        assert sorted(two.splits.values()) == ["test", "train"]
        nine = assign_splits([f"p{i}" for i in range(9)], [], 0.99, seed)
        assert "train" in nine.splits.values()
    assert splits(["p1"]) == {"p1": "train"}  # one problem: nothing to hold out
    assert set(splits(fraction=0).values()) == {"train"}  # 0: no test split at all


def test_identical_problems_share_a_split_clusters_merge_through_shared_problems():
    assert cluster_keys([("p3", "p2"), ("p5", "p3"), ("p9",)]) == {
        "p2": "p2",
        "p3": "p2",
        "p5": "p2",
        "p9": "p9",
    }
    clusters = [tuple(PROBLEMS[i : i + 5]) for i in range(0, 1000, 5)]
    result = splits(clusters=clusters, fraction=0.3)
    for cluster in clusters:
        assert len({result[p] for p in cluster}) == 1, cluster
    assert assign_splits(PROBLEMS, clusters, 0.3, 0).units == 200


def test_the_clusters_file_reads_as_codenet_writes_it(tmp_path):
    path = tmp_path / "identical_problem_clusters"
    path.write_text("p00527,p00590\n\np01234, p04321 ,p00002\np00007\n", encoding="utf-8")
    assert read_problem_clusters(path) == [
        ("p00527", "p00590"),
        ("p01234", "p04321", "p00002"),
        ("p00007",),
    ]
    path.write_text("p00001,p00002\np00003,../p00004\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"identical_problem_clusters line 2: not a problem id"):
        read_problem_clusters(path)


@pytest.mark.parametrize(
    ("fraction", "message"),
    [
        (1, "test_fraction"),
        (-0.1, "test_fraction"),
        ("0.1", "test_fraction"),
        (True, "test_fraction"),
    ],
)
def test_bad_fractions_are_refused(fraction, message):
    with pytest.raises(RecipeError, match=message):
        Recipe.from_dict(load_recipe().to_dict() | {"split": {"test_fraction": fraction}})


def test_a_codenet_tree_splits_by_problem_and_keeps_identical_problems_together(tmp_path):
    problems = tuple(f"p{n:05d}" for n in range(1, 13))
    tree = CodenetTree.standard(tmp_path / "tree", problems)
    clusters = [("p00001", "p00002", "p00003"), ("p00010", "p00011")]
    tree.write()
    tree.write_identical_problems(*clusters)
    recipe = dataclasses.replace(load_recipe(), split=Split(test_fraction=0.4, seed=1))
    report = build_sample(tmp_path / "ds", root=tree.root, workers=1, recipe=recipe)
    out = report.out
    by_problem = {
        r["problem_id"]: r["split"] for r in pq.read_table(out / "problems.parquet").to_pylist()
    }
    # every problem of the tree has the same programs: identical problems dedup together, so
    # the twins' copies are duplicates of the first problem's and the twins keep no row
    assert set(problems) - set(by_problem) == {"p00002", "p00003", "p00011"}
    expected = {
        p: s for p, s in assign_splits(problems, clusters, 0.4, 1).splits.items() if p in by_problem
    }
    assert by_problem == expected
    assert set(by_problem.values()) == {"train", "test"}
    for cluster in clusters:
        assert len({by_problem[p] for p in cluster if p in by_problem}) == 1
    solutions = pq.read_table(out / "solutions.parquet").to_pylist()
    assert all(s["split"] == by_problem[s["problem_id"]] for s in solutions)
    for split in ("train", "test"):  # the per-split copies hold exactly that split's rows
        copy = pq.read_table(out / f"solutions-{split}.parquet").to_pylist()
        assert all(c.pop("prompt").startswith(f"Problem {c['problem_id']}") for c in copy)
        assert copy == [s for s in solutions if s["split"] == split]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["split"] | {"files": None} == {
        "seed": 1,
        "test_fraction": 0.4,
        "unit": "problem (identical problems together)",
        "identical_problem_clusters": "derived/duplicates/identical_problem_clusters",
        "units": 9,
        "forced": None,
        "problems": {
            "train": list(expected.values()).count("train"),
            "test": list(expected.values()).count("test"),
        },
        "solutions": {
            "train": 4 * list(expected.values()).count("train"),
            "test": 4 * list(expected.values()).count("test"),
        },
        "files": None,
    }
    card = (out / "README.md").read_text()
    assert "- split: test\n    path: solutions-test.parquet" in card


def test_without_a_test_split_the_card_loads_solutions_as_train(tmp_path):
    tree = CodenetTree.standard(tmp_path / "tree", ("p00001", "p00002"))
    tree.write()
    recipe = dataclasses.replace(load_recipe(), split=Split(test_fraction=0))
    report = build_sample(tmp_path / "ds", root=tree.root, workers=1, recipe=recipe)
    assert report.manifest["split"]["problems"] == {"train": 2, "test": 0}
    assert report.manifest["split"]["files"] == {}
    assert "data_files: solutions.parquet" in (report.out / "README.md").read_text()
    assert not (report.out / "solutions-test.parquet").exists()


def test_the_clusters_file_is_part_of_the_input_fingerprint(tmp_path):
    tree = CodenetTree.standard(tmp_path / "tree", ("p00001", "p00002", "p00003"))
    tree.write()
    before = build_sample(tmp_path / "a", root=tree.root, workers=1).manifest
    tree.write_identical_problems(("p00001", "p00002"))
    after = build_sample(tmp_path / "b", root=tree.root, workers=1).manifest
    assert before["input_fingerprint"] != after["input_fingerprint"]
    assert before["split"]["identical_problem_clusters"] is None


def test_the_sample_holds_out_one_problem(sample_build):
    split = sample_build.manifest["split"]
    assert split["problems"] == {"train": 7, "test": 1}
    # no hash of the 8 problems falls under 0.1: the guarantee picks the lowest one
    assert split["forced"] == "test"
    problems = pq.read_table(sample_build.out / "problems.parquet").to_pylist()
    assert [p["problem_id"] for p in problems if p["split"] == "test"] == ["p02971"]
