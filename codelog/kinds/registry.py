"""The dataset kinds: what a row is, one registered object each (DESIGN.md "kind").

A kind carries everything that differs between dataset kinds: its name (the manifest's
"kind", `codelog build --kind`), its table layout, and the parts each layer runs for it: its
rules (the grouping stage's entry, codelog.group.stage), how it is published and its card,
how it is verified, its stats, its exports, and its training data and prompts. Code
elsewhere asks the registry (`get`, `of_manifest`) and calls the kind's parts; no other
module compares kind names (tests/test_kinds.py reads the source to check).

kinds/ sits between group/ and publish/ in the flow, so it cannot import the publish,
dataset and training modules that hold most of a kind's parts. A part is therefore named, not
imported: "layer.what" -> "codelog.layer.module:name", resolved on first use by the layer
that asks for it (`Kind.part`); the group-layer rules are named too, so that importing the
registry (the CLI lists the kinds in its --help) loads neither DuckDB nor Arrow.
tests/test_kinds.py checks that every named part lies in the layer its key names and that
a layer asks only for parts of its own layer or below, so the names never point up the flow.

Adding a kind is one new module here (codelog/kinds/<name>.py) that calls `register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from codelog.errors import CodelogError, DatasetError

# The layers a part may live in, in the order of the flow (DESIGN.md): a part's key starts
# with one of them ("dataset.export"), and its function lives in that package.
PART_LAYERS = ("group", "publish", "dataset", "training")


@dataclass(frozen=True)
class Kind:
    name: str  # the manifest's "kind" and `codelog build --kind`
    about: str  # one line: what a row is
    tables: tuple[str, ...]  # the Parquet tables of a dataset of this kind (without .parquet)
    rows: str  # the table whose rows are this kind's rows
    # Not built from sources (no "group.rules" part) but drawn from a dataset of this kind.
    drawn_from: str | None = None
    default: bool = False  # what `codelog build` makes without --kind
    out_suffix: str = ""  # appended to the default build directory (datasets/codenet-python)
    # The build summary's rows: (label, the manifest's counts key).
    summary: tuple[tuple[str, str], ...] = ()
    # Whether its exports carry each problem's tests (grpo/verl rows scored by running them).
    exports_tests: bool = False
    # "layer.what" -> "codelog.layer.module:name" (see the module docstring). "group.rules":
    # the grouping stage's entry, (con, scan, options, stage_dir) -> SplitResult, leaving
    # every staged row's fate in DuckDB; a kind without it is not built from sources.
    parts: Mapping[str, str] = field(default_factory=dict)

    def has(self, key: str) -> bool:
        return key in self.parts

    def part(self, key: str) -> Any:
        """The object a part names, imported now (CodelogError when this kind has none)."""
        if key not in self.parts:
            raise CodelogError(f"a {self.name} dataset has no {key.partition('.')[2]}")
        module, _, name = self.parts[key].partition(":")
        return getattr(importlib.import_module(module), name)

    def expect(self, manifest: Mapping[str, Any], where: object, hint: str) -> None:
        """DatasetError unless the dataset of `manifest` (at `where`) is of this kind, or of
        the kind this one is drawn from: "{where}: a {kind} dataset; {hint}"."""
        found = of_manifest(manifest)
        if found.name not in (self.name, self.drawn_from):
            raise DatasetError(f"{where}: a {found.name} dataset; {hint}")


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Add `kind` to the registry (its name must be new, its parts in their layers)."""
    if kind.name in KINDS:
        raise ValueError(f"dataset kind {kind.name!r} is already registered")
    for key, target in kind.parts.items():
        layer = key.partition(".")[0]
        if layer not in PART_LAYERS or not target.startswith(f"codelog.{layer}."):
            raise ValueError(f"{kind.name}: part {key} -> {target} is not in codelog.{layer}")
    KINDS[kind.name] = kind
    return kind


def get(name: str) -> Kind:
    """The kind named `name` (CodelogError naming the kinds there are)."""
    if name not in KINDS:
        raise CodelogError(f"unknown dataset kind {name!r}; one of {', '.join(built())}")
    return KINDS[name]


def drawn(name: str) -> Kind | None:
    """The kind `codelog export --format name` draws from a dataset (verifier-lists), or None
    when `name` is a row layout of the dataset's own kind (dpo, kto, ...)."""
    kind = KINDS.get(name)
    return kind if kind is not None and kind.drawn_from is not None else None


def to_build(name: str) -> Kind:
    """The kind `codelog build --kind name` makes (CodelogError for one it cannot build)."""
    kind = get(name)
    if not kind.has("group.rules"):
        raise CodelogError(
            f"{name} are not built from sources but drawn from a {kind.drawn_from} dataset "
            f"(codelog export --format {name}); --kind is one of {', '.join(built())}"
        )
    return kind


def built() -> tuple[str, ...]:
    """The kinds `codelog build --kind` makes, the default first."""
    kinds = [kind for kind in KINDS.values() if kind.has("group.rules")]
    return tuple(kind.name for kind in sorted(kinds, key=lambda kind: not kind.default))


def of_manifest(manifest: Mapping[str, Any]) -> Kind:
    """The kind of a dataset; a manifest without "kind" is a solutions dataset (every dataset
    built before the other kinds existed). DatasetError for a kind this codelog cannot read."""
    name = manifest.get("kind", "solutions")
    kind = KINDS.get(name)
    if kind is None or not kind.has("group.rules"):
        raise DatasetError(f"dataset kind {name!r} is not one this codelog reads ({built()})")
    return kind
