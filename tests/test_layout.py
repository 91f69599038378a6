"""The package's imports follow the data flow: no circles, and no stage imports a later one.

Every `import` in codelog/ counts, those inside functions too: a lazy import is still a
dependency. Order of the flow (DESIGN.md): leaves < execution < benchmarks < ingest < stage <
contamination < group < kinds < publish < dataset < training < evaluation < the entry points
(builder, cli, the API in __init__).
execution/ is a leaf package: it imports the leaves and itself, nothing else.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "codelog"

# The shared vocabulary every stage may use; they import only each other.
LEAVES = {
    "errors",
    "files",
    "outcomes",
    "schema",
    "progress",
    "recipe",
    "options",
    "prompts",
    "sql",
    "version",
    "dialects",
    "executors",  # where pure functions run (local pool, Ray): stage/ and execution/ share it
    "ci_format",
    "uncertainty",  # the paired difference and its word: training/ and evaluation/ share it
}
FLOW = [
    "execution",
    "benchmarks",  # just above execution/: published benchmarks -> the Problems it judges
    "ingest",
    "stage",
    "contamination",
    "group",
    "kinds",
    "publish",
    "dataset",
    "training",
    "evaluation",
]
ENTRY_POINTS = {"builder", "cli", "__init__", "__main__", "api"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "data" not in p.parts}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The codelog modules `path` imports, resolved to modules (not the names inside them)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            if target in known:
                found.add(target)
            elif target.rpartition(".")[0] in known and not target.startswith(f"{base}."):
                found.add(target.rpartition(".")[0])
    # `from codelog.stage import worker` names the module codelog.stage.worker, not the package
    return {
        t for t in found if (t != name and t != "codelog") or (t == "codelog" and name != "codelog")
    }


def layer(name: str) -> tuple[int, str]:
    parts = name.split(".")
    if len(parts) == 1:
        return len(FLOW) + 1, "codelog (the API)"
    head = parts[1]
    if head in LEAVES or head.startswith("_"):
        return 0, f"leaf {head}"
    if head in FLOW:
        return FLOW.index(head) + 1, head
    if head in ENTRY_POINTS:
        return len(FLOW) + 1, f"entry point {head}"
    raise AssertionError(f"{name}: not placed in the layout (add it to a stage or the leaves)")


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    edges = {}
    for name, path in mods.items():
        targets = imports_of(name, path, known)
        # importing a package runs its __init__: that is an edge too, but packages of the
        # importer's own path are parents, not dependencies
        edges[name] = {t for t in targets if not name.startswith(f"{t}.")}
    return edges


def test_every_module_has_a_place_in_the_flow(graph):
    for name in graph:
        layer(name)


def test_no_import_points_up_the_flow(graph):
    wrong = []
    for name, targets in graph.items():
        rank, where = layer(name)
        for target in targets:
            target_rank, target_where = layer(target)
            if target_rank > rank:
                wrong.append(f"{name} ({where}) imports {target} ({target_where})")
    assert not wrong, "imports against the flow:\n" + "\n".join(sorted(wrong))


def test_execution_imports_only_leaves(graph):
    """Running programs in the sandbox (execution/) depends on nothing above the leaves: its
    results re-enter the flow at the top as an ordinary export."""
    wrong = [
        f"{name} imports {target} ({layer(target)[1]})"
        for name, targets in graph.items()
        if name.startswith("codelog.execution")
        for target in targets
        if layer(target)[0] != 0 and not target.startswith("codelog.execution")
    ]
    assert not wrong, "execution/ is a leaf:\n" + "\n".join(sorted(wrong))


def test_no_import_circle(graph):
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            pytest.fail("import circle: " + " -> ".join(cycle))


def test_the_walker_sees_lazy_imports(graph):
    # builder imports the CodeNet reader only inside a function; it must still count
    assert "codelog.ingest.codenet" in graph["codelog.builder"]
