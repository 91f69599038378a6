"""A/B timing of `_canon` builds: the parse floor, each given build, and this checkout's, per file.

    python bench/canon_ab.py --lang python --glob '/tmp/cb100k/data/*/Python/*' --files 20000 \
        --rounds 7 base=/tmp/old/_canon.cpython-311-x86_64-linux-gnu.so

Keep a build aside (copy the .so) before changing codelog/stage/_canon.c, then compare in one
process on the same files: every build must give the same bytes for every file (checked first).
The floor is py-tree-sitter's `parse(data).root_node.has_error`. CPU time, not wall time, as
the machines are shared; builds alternate per chunk of files so drift lands on all alike.
"""

from __future__ import annotations

import argparse
import glob
import time

from codelog.stage import ast_hash
from codelog.stage.ast_hash import make_canonicalizer, parser_for
from codelog.stage.canon_profile import load_build

CHUNK = 500


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lang", default="python")
    ap.add_argument("--glob", required=True)
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("builds", nargs="*", help="LABEL=PATH of a _canon .so to compare")
    args = ap.parse_args()
    datas = []
    for path in sorted(glob.glob(args.glob))[: args.files]:
        with open(path, "rb") as f:
            datas.append(f.read())
    parse = parser_for(args.lang).parse
    runs = {"floor": lambda d: parse(d).root_node.has_error}
    for spec in args.builds:
        label, _, path = spec.partition("=")
        runs[label] = make_canonicalizer(load_build(path, label), args.lang).canonical
    runs["this"] = make_canonicalizer(ast_hash._canon, args.lang).canonical
    for data in datas:
        forms = {runs[k](data) for k in runs if k != "floor"}
        assert len(forms) == 1, f"builds disagree on {data[:80]!r}"
    chunks = [datas[i : i + CHUNK] for i in range(0, len(datas), CHUNK)]
    times: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(args.rounds):
        spent = dict.fromkeys(runs, 0.0)
        order = list(runs.items()) if r % 2 == 0 else list(runs.items())[::-1]
        for chunk in chunks:
            for label, run in order:
                t0 = time.process_time()
                for data in chunk:
                    run(data)
                spent[label] += time.process_time() - t0
        for label in runs:
            times[label].append(spent[label] / len(datas) * 1e6)
    size = sum(map(len, datas)) / len(datas)
    print(f"{args.lang}: {len(datas)} files, {size:.0f} B/file, {args.rounds} rounds")
    print(f"  {'µs/file':12s} {'min':>7s} {'median':>7s}")
    for label, spent in times.items():
        spent.sort()
        print(f"  {label:12s} {spent[0]:7.1f} {spent[len(spent) // 2]:7.1f}")


if __name__ == "__main__":
    main()
