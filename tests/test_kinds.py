"""The dataset kinds live in one registry (codelog.kinds): every kind-specific part is named
there, lies in the layer it is named for, and no other module compares kind names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from codelog import kinds
from codelog.errors import CodelogError, DatasetError
from tests.test_layout import FLOW, PACKAGE, layer, module_name, modules

NAMES = set(kinds.KINDS)


def _kind_name_constants(node: ast.AST) -> set[str]:
    """Kind names written as string literals in `node` (a constant, or a tuple/list/set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_kind_name_constants(e) for e in node.elts))
    return set()


def _mentions_kind(node: ast.AST) -> bool:
    """Whether an expression reads something called *kind* or *task* (a dataset's kind), or
    the key "kind" (manifest.get("kind"))."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and sub.value == "kind":
            return True
        name = sub.id if isinstance(sub, ast.Name) else getattr(sub, "attr", None)
        if isinstance(name, str) and ("kind" in name.lower() or name == "task"):
            return True
    return False


def kind_comparisons(source: str, where: str) -> list[str]:
    """`x == "repair"`-style comparisons: a kind name on one side, a kind on the other."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = set().union(*(_kind_name_constants(s) for s in sides))
        if named and any(_mentions_kind(s) for s in sides if not _kind_name_constants(s)):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_check_sees_a_kind_comparison():
    assert kind_comparisons('if kind == "repair": pass', "x.py") == ["x.py:1: kind == 'repair'"]
    assert kind_comparisons('ok = manifest.get("kind", "solutions") != "solutions"', "x.py")
    assert kind_comparisons('ok = options.task in ("repair", "solutions")', "x.py")
    # a problem's kind ("stdio", "function") and a table named like a kind are not dataset kinds
    assert not kind_comparisons('if problem.kind == "function": pass', "x.py")
    assert not kind_comparisons('if name == "solutions": pass', "x.py")


def test_no_kind_comparison_outside_the_registry():
    found = []
    for name, path in modules().items():
        if name.startswith("codelog.kinds"):
            continue
        found += kind_comparisons(path.read_text(), str(path.relative_to(PACKAGE.parent)))
    assert not found, "dataset kinds compared outside codelog.kinds:\n" + "\n".join(found)


@pytest.mark.parametrize("kind", list(kinds.KINDS.values()), ids=list(kinds.KINDS))
def test_every_part_resolves_in_the_layer_it_is_named_for(kind):
    for key, target in kind.parts.items():
        wanted = key.partition(".")[0]
        assert layer(target.partition(":")[0])[1] == wanted, f"{kind.name}: {key} -> {target}"
        assert kind.part(key) is not None


def test_a_layer_asks_only_for_parts_of_its_own_layer_or_below():
    """`kind.part("dataset.export")` imports a dataset module: only code at the dataset layer or
    above may ask for it, or the lazy name would be an import against the flow."""
    wrong = []
    for name, path in modules().items():
        rank, where = layer(name)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", None) in ("part", "has")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                part_layer = node.args[0].value.partition(".")[0]
                if FLOW.index(part_layer) + 1 > rank:
                    wrong.append(f"{name} ({where}) asks for {node.args[0].value}")
    assert not wrong, "\n".join(wrong)


def test_kinds_and_their_errors():
    assert kinds.built() == ("solutions", "repair")
    assert kinds.of_manifest({}) is kinds.SOLUTIONS  # datasets from before kinds existed
    assert kinds.of_manifest({"kind": "repair"}) is kinds.REPAIRS
    assert kinds.drawn("verifier-lists") is kinds.VERIFIER_LISTS
    assert kinds.drawn("dpo") is None and kinds.drawn("repair") is None
    with pytest.raises(DatasetError, match="'lists' is not one this codelog reads"):
        kinds.of_manifest({"kind": "lists"})
    with pytest.raises(DatasetError, match="not one this codelog reads"):
        kinds.of_manifest({"kind": "verifier-lists"})  # drawn by an export, never a dataset
    with pytest.raises(CodelogError, match="drawn from a solutions dataset"):
        kinds.to_build("verifier-lists")
    with pytest.raises(
        CodelogError, match="unknown dataset kind 'turns'; one of solutions, repair"
    ):
        kinds.to_build("turns")
    with pytest.raises(CodelogError, match="a repair dataset has no stats_plot"):
        kinds.REPAIRS.part("dataset.stats_plot")
    with pytest.raises(ValueError, match="already registered"):
        kinds.register(kinds.Kind(name="repair", about="", tables=(), rows=""))
    with pytest.raises(ValueError, match=r"not in codelog\.dataset"):
        kinds.register(
            kinds.Kind(
                name="x", about="", tables=(), rows="", parts={"dataset.export": "codelog.cli:x"}
            )
        )
    assert "x" not in kinds.KINDS


def test_importing_the_registry_loads_no_heavy_library():
    import subprocess
    import sys

    code = "import sys, codelog.kinds; print(sorted({'duckdb', 'pyarrow', 'torch'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_kind_module_registers_one_kind():
    # a new kind is one new module in codelog/kinds/
    files = sorted(p.name for p in (PACKAGE / "kinds").glob("*.py"))
    assert files == [
        "__init__.py",
        "registry.py",
        "repairs.py",
        "solutions.py",
        "verifier_lists.py",
    ]
    assert module_name(PACKAGE / "kinds" / "repairs.py") == "codelog.kinds.repairs"
    assert isinstance(Path(kinds.__file__), Path)
