"""The run `_canon`'s profile-guided build is optimised for: the bundled sample, parsed and walked.

Under GCC, setup.py builds `codelog.stage._canon` twice. The first build is instrumented
(`-fprofile-generate`). This module loads that build by path, so no installed copy stands in
for it, and runs the bundled CodeNet sample's programs through it. The second build
(`-fprofile-use`) lays out and inlines tree-sitter's parse loop by the counts that run left.

The parse and walk then take ~15% less CPU, on other programs and other grammars as well, since
the counts are in tree-sitter's grammar-independent core. Figures: bench/RESULTS.md, "The parse
built from a profile".

    python -m codelog.stage.canon_profile PATH/TO/_canon.cpython-311-x86_64-linux-gnu.so
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from codelog.stage.ast_hash import make_canonicalizer

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "codenet-mini" / "data"
LANGUAGE = "python"  # the sample's language; the counts that matter are in the grammar-free core


def load_build(path: str | Path, label: str = "profiled") -> ModuleType:
    """The `_canon` build at `path`, loaded under the name `<label>._canon` (not installed)."""
    # The init function is named after the last dotted part: `<label>._canon` finds PyInit__canon.
    spec = importlib.util.spec_from_file_location(f"{label}._canon", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path}: not a loadable extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def train(build: ModuleType) -> int:
    """Parse and walk every bundled sample program with `build`; the number of programs."""
    canonical = make_canonicalizer(build, LANGUAGE).canonical
    paths = sorted(SAMPLE.glob("*/Python/*"))
    if not paths:
        raise FileNotFoundError(f"no sample programs under {SAMPLE}")
    for path in paths:
        canonical(path.read_bytes())
    return len(paths)


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m codelog.stage.canon_profile PATH_TO_CANON_SO")
    count = train(load_build(sys.argv[1]))
    print(f"profiled {count} programs")


if __name__ == "__main__":
    main()
