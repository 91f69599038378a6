"""Benchmark `codelog build` against the floor, at several sizes, in one run.

    python bench/build.py --sizes 100000,1000000,3300000 [--keep] [--tree-dir /tmp/codelog-bench]

For each size: make the synthetic CodeNet tree (bench/synth_codenet.py; reused if a complete
one with the same size and seed is in --tree-dir), measure the floor on it (bench/floor.py:
read + tree-sitter parse of every source file on all cores), then run

    .venv/bin/codelog build --source codenet --lang python --root TREE --out OUT --workers 2

Each of the two runs as a subprocess watched by a sampler thread: wall time, peak RSS of the
whole process tree (the process and all its descendants, summed; also the PSS sum, which
counts pages shared between forked workers once), CPU time of the tree (wait4's rusage of the
command), per-core utilisation (psutil.cpu_percent per core) and how much CPU other
processes took meanwhile (a run on a busy machine is flagged, not trusted). The table
compares them with the goals of issues 7 and 22. Both runs find the tree in the page cache
(it was just written, or, when reused, is read once before the floor: `warm_page_cache`), so
they compare like with like.

`--source codecontests` / `--source codeforces` instead builds synthetic Parquet shards of
those sources (bench/synth_sources.py, kept in --tree-dir) and measures the build alone (wall,
CPU, peak RSS of the process tree, the manifest's counts): their code is inline, so there is
no file-reading floor to compare with.

`--side-by-side` runs the floor and the build at the same time instead, each with half the
workers: on a machine whose speed drifts (a shared VM), the CPU-time ratio then compares the
two under the same conditions. Their wall times are each on half the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
GIB = 1 << 30

GOAL_WALL_S = 600  # at 3.3M rows
GOAL_RSS = 1 * GIB  # issue 22: peak RSS of the build's process tree at 1M rows
GOAL_RSS_GROWTH = 1.5  # RSS at the largest size / RSS at the smallest
GOAL_RATIO = 0.6  # codelog rows/s / floor rows/s (wall)
GOAL_CPU_RATIO = 0.9  # the same in CPU time
# The other kinds, built after the default build into the same --out: they reuse its staged
# parse (the staging key does not depend on the kind or the grouping recipe), so their figures
# are the group+write stage of that kind at that size.
VARIANTS = {
    "repair": ["--kind", "repair"],
    "lint": ["--recipe", "{lint_recipe}"],
}
_DONE = re.compile(r"done in ([0-9.]+)s \(([0-9,]+) rows/s; (.*?)\)")
BUSY_OTHERS = 0.25  # cores taken by other processes that make a measurement suspect


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Watch:
    """Samples a process tree until it exits: memory peaks and per-core CPU."""

    def __init__(self, pid: int, interval: float = 0.25):
        self.root = psutil.Process(pid)
        self.interval = interval
        self.peak_rss = self.peak_pss = self.peak_single_rss = self.peak_procs = 0
        self.cpu_samples: list[list[float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watch:
        psutil.cpu_percent(percpu=True)  # starts the per-core counters
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                break
            rss = pss = 0
            for p in procs:
                try:
                    one = p.memory_info().rss
                except psutil.NoSuchProcess:
                    continue
                rss += one
                pss += _pss(p.pid)
                self.peak_single_rss = max(self.peak_single_rss, one)
            self.peak_rss = max(self.peak_rss, rss)
            self.peak_pss = max(self.peak_pss, pss)
            self.peak_procs = max(self.peak_procs, len(procs))
            self.cpu_samples.append(psutil.cpu_percent(percpu=True))

    def cpu_summary(self) -> dict:
        samples = self.cpu_samples[1:-1] or self.cpu_samples  # drop start-up and tear-down
        if not samples:
            return {"per_core_mean": [], "all_cores_busy_share": 0.0, "machine_cores_busy": 0.0}
        cores = len(samples[0])
        mean = [round(sum(s[c] for s in samples) / len(samples), 1) for c in range(cores)]
        busy = sum(1 for s in samples if min(s) >= 90) / len(samples)
        return {
            "per_core_mean": mean,
            "all_cores_busy_share": round(busy, 3),
            "machine_cores_busy": round(sum(mean) / 100, 2),
        }


def run_watched(cmd: list[str], log: Path, interval: float = 0.25) -> dict:
    """Run `cmd` to completion with stdout+stderr to `log`; its measurements."""
    started = time.perf_counter()
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
        with Watch(proc.pid, interval) as watch:
            # wait4: the CPU of this command and the descendants it waited for, not of
            # whatever else this process ran meanwhile (--side-by-side runs two at once)
            _, status, usage = os.wait4(proc.pid, 0)
            code = proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    cpu = usage.ru_utime + usage.ru_stime
    result = {
        "cmd": " ".join(cmd),
        "exit_code": code,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "cores_used": round(cpu / wall, 2) if wall else 0.0,
        "peak_rss": watch.peak_rss,
        "peak_pss": watch.peak_pss,
        "peak_single_rss": watch.peak_single_rss,
        "peak_procs": watch.peak_procs,
        **watch.cpu_summary(),
        "log": str(log),
    }
    # CPU the machine spent on other processes meanwhile
    result["others_cores"] = round(max(0.0, result["machine_cores_busy"] - result["cores_used"]), 2)
    return result


def side_by_side(
    floor_cmd: list[str], floor_log: Path, build_cmd: list[str], build_log: Path, interval: float
) -> tuple[dict, dict]:
    """The floor and the build at the same time, each on half the cores, so that whatever the
    machine's speed does meanwhile falls on both (on a shared VM it moved 15-25% within
    minutes, more than the gap being measured). When the floor ends first, it is run again,
    unmeasured, until the build ends: the build never has the machine to itself."""
    done: dict[str, dict] = {}
    build_thread = threading.Thread(
        target=lambda: done.setdefault("build", run_watched(build_cmd, build_log, interval))
    )
    build_thread.start()
    floor = run_watched(floor_cmd, floor_log, interval)
    while build_thread.is_alive():
        keeper = subprocess.Popen(
            floor_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO
        )
        while build_thread.is_alive() and keeper.poll() is None:
            build_thread.join(0.5)
        if keeper.poll() is None:
            keeper.kill()
        keeper.wait()
    build_thread.join()
    for run in (floor, done["build"]):
        # the other side is not "another process": what else ran is not known in this mode
        run["others_cores"] = None
    return floor, done["build"]


def wait_for_idle(limit_s: float, label: str) -> float:
    """Wait (up to limit_s) until the machine is nearly idle; returns its busy cores then."""
    deadline = time.monotonic() + limit_s
    while True:
        busy = sum(psutil.cpu_percent(interval=2.0, percpu=True)) / 100
        if busy < 0.2 or time.monotonic() >= deadline:
            if busy >= 0.2:
                print(
                    f"  [{label}] machine still busy ({busy:.2f} cores) after {limit_s:.0f} s",
                    flush=True,
                )
            return round(busy, 2)


def ensure_tree(size: int, seed: int, tree_dir: Path) -> tuple[Path, dict]:
    """The tree for `size` rows: reused if complete, else generated (timed)."""
    tree = tree_dir / f"codenet-{size}-seed{seed}"
    marker = tree / ".synth.json"
    if marker.exists():
        info = json.loads(marker.read_text())
        if info.get("submissions") == size and info.get("seed") == seed:
            info["reused"] = True
            return tree, info
    if tree.exists():
        shutil.rmtree(tree)
    cmd = [
        sys.executable, str(BENCH / "synth_codenet.py"), "--submissions", str(size),
        "--out", str(tree), "--seed", str(seed), "--du",
    ]  # fmt: skip
    print(f"[{size:,}] generating {tree} ...", flush=True)
    run = run_watched(cmd, tree_dir / f"synth-{size}.log")
    if run["exit_code"] != 0:
        raise SystemExit(f"synth_codenet failed: see {run['log']}")
    info = json.loads(marker.read_text())
    info["reused"] = False
    info["run"] = run  # wall, CPU, and the other processes' CPU while it ran
    return tree, info


def warm_page_cache(tree: Path) -> float:
    """Read every file of a reused tree once, untimed by either side: otherwise the floor,
    which runs first, would read a cold tree from disk and the build a warm one."""
    from concurrent.futures import ThreadPoolExecutor

    def read_dir(directory: str) -> None:
        for entry in os.scandir(directory):
            if entry.is_file(follow_symlinks=False):
                with open(entry.path, "rb") as f:
                    f.read()

    start = time.perf_counter()
    dirs = [d for d, _, files in os.walk(tree) if files]
    with ThreadPoolExecutor(16) as pool:  # I/O: many reads in flight
        list(pool.map(read_dir, dirs))
    return time.perf_counter() - start


def bench_size(size: int, args: argparse.Namespace) -> dict:
    tree, synth = ensure_tree(size, args.seed, args.tree_dir)
    if synth["reused"]:
        print(f"[{size:,}] page cache warmed in {warm_page_cache(tree):.1f} s", flush=True)
    result: dict = {"size": size, "tree": str(tree), "synth": synth}
    print(
        f"[{size:,}] tree: {synth['files']:,} files, {synth.get('disk_bytes', 0) / GIB:.2f} GiB "
        f"on disk, generated in {synth['seconds']:.1f} s{' (reused)' if synth['reused'] else ''}",
        flush=True,
    )

    # side by side, the floor and the build each get half the cores
    workers = max(1, args.workers // 2) if args.side_by_side else args.workers
    floor_cmd = [
        sys.executable, str(BENCH / "floor.py"), "--root", str(tree), "--json",
        "--workers", str(workers),
    ]  # fmt: skip
    floor_log = args.tree_dir / f"floor-{size}.log"
    # A fresh directory per run: codelog keeps resumable state (a staging directory) beside
    # --out, and a build that finds it reuses the parse results instead of measuring them.
    run_dir = args.tree_dir / f"run-{size}"
    out = run_dir / "out"
    build_cmd = [
        args.codelog, "build", "--source", "codenet", "--lang", "python",
        "--root", str(tree), "--out", str(out), "--workers", str(workers),
    ]  # fmt: skip
    build_log = args.tree_dir / f"build-{size}.log"
    build = None
    idle = wait_for_idle(args.wait_idle, f"{size:,} floor") if args.wait_idle else None
    if args.side_by_side and not args.skip_build:
        _fresh(run_dir)
        floor, build = side_by_side(floor_cmd, floor_log, build_cmd, build_log, args.interval)
        build["busy_before"] = idle
    else:
        floor = run_watched(floor_cmd, floor_log, args.interval)
    floor["busy_before"] = idle
    if floor["exit_code"] == 0:
        floor.update(json.loads(Path(floor["log"]).read_text().strip().splitlines()[-1]))
        floor["rows_per_s"] = round(synth["files"] / floor["wall_s"], 1)  # same clock as build
    result["floor"] = floor
    print(
        f"[{size:,}] floor: {floor['wall_s']:.1f} s, {floor.get('rows_per_s', 0):,.0f} rows/s, "
        f"{floor['cpu_s']:.1f} CPU-s, cores {floor['per_core_mean']}, {_others(floor)}",
        flush=True,
    )
    if args.walk_floor:
        walk = run_watched(
            [*floor_cmd, "--walk"], args.tree_dir / f"floor-walk-{size}.log", args.interval
        )
        result["walk_floor"] = walk
        print(
            f"[{size:,}] floor with codelog's parse and walk: {walk['wall_s']:.1f} s, "
            f"{walk['cpu_s']:.1f} CPU-s (the bare floor: {floor['cpu_s']:.1f})",
            flush=True,
        )

    if args.skip_build:
        return result
    if build is None:
        _fresh(run_dir)
        idle = wait_for_idle(args.wait_idle, f"{size:,} build") if args.wait_idle else None
        build = run_watched(build_cmd, build_log, args.interval)
        build["busy_before"] = idle
    build["rows_per_s"] = round(size / build["wall_s"], 1)
    build["log_tail"] = Path(build["log"]).read_text(errors="replace")[-2000:]
    if "reused" in build["log_tail"]:
        print(f"[{size:,}] WARNING: the build says it reused earlier results", flush=True)
    result["build"] = build
    result["side_by_side"] = args.side_by_side
    if floor.get("rows_per_s"):
        result["ratio"] = round(build["rows_per_s"] / floor["rows_per_s"], 3)
    if floor.get("cpu_s") and build["cpu_s"]:
        # rows per CPU-second, codelog's over the floor's: what the wall-clock ratio would be
        # if both kept every core busy; it hardly moves when other processes share the machine
        result["cpu_ratio"] = _cpu_ratio(size, build, synth["files"], floor)
    walk = result.get("walk_floor")
    if walk and walk["exit_code"] == 0 and walk.get("cpu_s") and build["cpu_s"]:
        # the same against a floor that parses and walks as the build must: what the rest of
        # the build (scan, staging key, batches, hashes, Parquet, group+write) costs
        result["cpu_ratio_walk"] = _cpu_ratio(size, build, synth["files"], walk)
    ok = build["exit_code"] == 0
    status = "ok" if ok else f"FAILED (exit {build['exit_code']}, see {build['log']})"
    print(
        f"[{size:,}] build: {status}, {build['wall_s']:.1f} s, {build['rows_per_s']:,.0f} rows/s, "
        f"{build['cpu_s']:.1f} CPU-s, peak RSS {build['peak_rss'] / GIB:.2f} GiB, "
        f"cores {build['per_core_mean']}, {_others(build)}",
        flush=True,
    )
    build["stages"] = stage_seconds(build["log_tail"])
    build["out_bytes"] = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    if ok:
        result["variants"] = {
            name: bench_variant(name, size, out, build_cmd, args) for name in args.variants
        }
    shutil.rmtree(run_dir, ignore_errors=True)
    if not args.keep:
        shutil.rmtree(tree, ignore_errors=True)
    return result


def bench_hub_source(source: str, size: int, args: argparse.Namespace) -> dict:
    """Build `size` synthetic rows of `source` (codecontests, codeforces); the measurements."""
    shards = args.tree_dir / f"{source}-{size}"
    marker = shards / "synth.json"
    if marker.is_file():
        synth = {**json.loads(marker.read_text()), "reused": True}
    else:
        shutil.rmtree(shards, ignore_errors=True)
        sys.path.insert(0, str(BENCH))
        from synth_sources import synthesise

        synth = synthesise(source, size, shards, args.seed, args.workers)
        marker.write_text(json.dumps(synth))
        synth["reused"] = False
    print(f"[{source} {size:,}] shards: {synth}", flush=True)
    run_dir = args.tree_dir / f"run-{source}-{size}"
    _fresh(run_dir)
    out = run_dir / "out"
    cmd = [
        args.codelog, "build", "--source", source, "--input", str(shards), "--out", str(out),
        "--workers", str(args.workers),
    ]  # fmt: skip
    idle = wait_for_idle(args.wait_idle, f"{source} {size:,}") if args.wait_idle else None
    build = run_watched(cmd, args.tree_dir / f"build-{source}-{size}.log", args.interval)
    build["busy_before"] = idle
    build["log_tail"] = Path(build["log"]).read_text(errors="replace")[-2000:]
    build["stages"] = stage_seconds(build["log_tail"])
    if build["exit_code"] == 0:
        counts = json.loads((out / "manifest.json").read_text())["counts"]
        build["counts"] = {k: counts[k] for k in ("rows_in", "solutions", "rejects", "groups")}
        build["rows_per_s"] = round(counts["rows_in"] / build["wall_s"], 1)
    print(
        f"[{source} {size:,}] build: exit {build['exit_code']}, {build['wall_s']:.1f} s, "
        f"{build.get('rows_per_s', 0):,.0f} rows/s, {build['cpu_s']:.1f} CPU-s, peak RSS "
        f"{build['peak_rss'] / GIB:.2f} GiB, stages {build['stages']}, counts "
        f"{build.get('counts')}, {_others(build)}",
        flush=True,
    )
    shutil.rmtree(run_dir, ignore_errors=True)
    if not args.keep:
        shutil.rmtree(shards, ignore_errors=True)
    return {"source": source, "size": size, "synth": synth, "build": build}


def _fresh(run_dir: Path) -> None:
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir()


def _cores(run: dict) -> str:
    return "side by side" if run["others_cores"] is None else str(run["others_cores"])


def _others(run: dict) -> str:
    if run["others_cores"] is None:
        return "side by side (other processes not told apart)"
    return f"other processes {run['others_cores']} cores"


def stage_seconds(log_tail: str) -> dict[str, float]:
    """{"scan": s, "stage": s, "group_and_write": s} from the build's summary line."""
    found = _DONE.findall(log_tail)
    if not found:
        return {}
    steps = found[-1][2]
    return {name: float(sec) for name, sec in re.findall(r"([a-z_]+) ([0-9.]+)s", steps)}


def bench_variant(name: str, size: int, out: Path, build_cmd: list[str], args) -> dict:
    """Another kind over the default build's staged parse (reused), into the same --out."""
    lint_recipe = args.tree_dir / "lint-recipe.toml"
    lint_recipe.write_text("[lint]\nenabled = true\n")
    extra = [a.format(lint_recipe=lint_recipe) for a in VARIANTS[name]]
    run = run_watched(
        [*build_cmd, *extra], args.tree_dir / f"build-{size}-{name}.log", args.interval
    )
    run["log_tail"] = Path(run["log"]).read_text(errors="replace")[-2000:]
    run["stages"] = stage_seconds(run["log_tail"])
    run["reused"] = "reused" in run["log_tail"]
    status = (
        "ok" if run["exit_code"] == 0 else f"FAILED (exit {run['exit_code']}, see {run['log']})"
    )
    print(
        f"[{size:,}] {name}: {status}, {run['wall_s']:.1f} s (staged parse reused: "
        f"{run['reused']}; {run['stages']}), peak RSS {run['peak_rss'] / GIB:.2f} GiB",
        flush=True,
    )
    return run


def _gib(n: int) -> str:
    return f"{n / GIB:.2f}"


def table(results: list[dict]) -> str:
    head = (
        "| rows | synth s | tree GiB | floor rows/s | build wall s | build rows/s | vs floor (CPU-time) "
        "| peak RSS GiB (sum / PSS / largest proc) | CPU % per core | both cores busy "
        "| cores used | others' cores (floor / build) |"
    )
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in results:
        synth, floor, build = r["synth"], r["floor"], r.get("build")
        synth_s = f"{synth['seconds']:.0f}" + (" (reused)" if synth.get("reused") else "")
        if build and build["exit_code"] == 0:
            b = (
                f"{build['wall_s']:.1f} | {build['rows_per_s']:,.0f} | {r.get('ratio', 0):.0%} "
                f"({r.get('cpu_ratio', 0):.0%}) | "
                f"{_gib(build['peak_rss'])} / {_gib(build['peak_pss'])} / "
                f"{_gib(build['peak_single_rss'])} | {build['per_core_mean']} | "
                f"{build['all_cores_busy_share']:.0%} | {build['cores_used']} | "
                f"{_cores(floor)} / {_cores(build)}"
            )
        elif build:
            b = f"failed (exit {build['exit_code']}) | | | | | | | {_cores(floor)} / -"
        else:
            b = f"pending | | | | | | | {_cores(floor)} / -"
        lines.append(
            f"| {r['size']:,} | {synth_s} | {_gib(synth.get('disk_bytes', 0))} | "
            f"{floor.get('rows_per_s', 0):,.0f} | {b} |"
        )
    lines += ["", "| rows | build | scan s | stage s | group+write s | wall s | peak RSS GiB |"]
    lines.append("|---|---|---|---|---|---|---|")
    for r in results:
        runs = {"default": r.get("build"), **r.get("variants", {})}
        for name, run in runs.items():
            if not run:
                continue
            st = run.get("stages", {})
            reused = " (staged parse reused)" if run.get("reused") else ""
            lines.append(
                f"| {r['size']:,} | {name}{reused} | {st.get('scan', 0):.1f} | "
                f"{st.get('stage', 0):.1f} | {st.get('group_and_write', 0):.1f} | "
                f"{run['wall_s']:.1f} | {_gib(run['peak_rss'])} |"
                if run["exit_code"] == 0
                else f"| {r['size']:,} | {name} | failed (exit {run['exit_code']}) | | | | |"
            )
    return "\n".join(lines)


def _verdict(passed: bool | None) -> str:
    return "pending" if passed is None else ("PASS" if passed else "FAIL")


def _cpu_ratio(rows: int, build: dict, files: int, floor: dict) -> float:
    """Rows per CPU-second of the build over files per CPU-second of a floor."""
    return round((rows / build["cpu_s"]) / (files / floor["cpu_s"]), 3)


def _canon_build() -> str:
    """Which `_canon` this interpreter's codelog has: the parse's speed depends on it."""
    from codelog.stage import ast_hash

    if not ast_hash.ACCELERATED:
        return "_canon not built (the Python walk)"
    guided = getattr(ast_hash._canon, "PROFILE_GUIDED", False)
    return "_canon built from a profile" if guided else "_canon built without a profile"


def goals(results: list[dict]) -> str:
    ok = [r for r in results if r.get("build", {}).get("exit_code") == 0]
    largest = max(ok, key=lambda r: r["size"], default=None)
    smallest = min(ok, key=lambda r: r["size"], default=None)
    at_33 = next((r for r in ok if r["size"] >= 3_300_000), None)
    wall = at_33["build"]["wall_s"] if at_33 else None
    peak = max((r["build"]["peak_rss"] for r in ok), default=None)
    growth = None
    if largest and smallest and largest is not smallest:
        growth = largest["build"]["peak_rss"] / smallest["build"]["peak_rss"]
    ratios = [r["ratio"] for r in ok if "ratio" in r]
    cpu_ratios = [r["cpu_ratio"] for r in ok if "cpu_ratio" in r]
    walk_ratios = [r["cpu_ratio_walk"] for r in ok if "cpu_ratio_walk" in r]
    suspect = [
        r["size"]
        for r in results
        if (r["floor"].get("others_cores") or 0) > BUSY_OTHERS
        or (r.get("build", {}).get("others_cores") or 0) > BUSY_OTHERS
    ]
    lines = [
        f"- wall at 3.3M rows <= {GOAL_WALL_S / 60:.0f} min: "
        + (f"{wall:.0f} s" if wall is not None else "not measured")
        + f" -> {_verdict(None if wall is None else wall <= GOAL_WALL_S)}",
        f"- peak RSS <= {_gib(GOAL_RSS)} GiB: "
        + (f"{_gib(peak)} GiB (max over sizes, process tree sum)" if peak else "not measured")
        + f" -> {_verdict(None if peak is None else peak <= GOAL_RSS)}",
        f"- RSS at largest / smallest size <= {GOAL_RSS_GROWTH}x: "
        + (
            f"{growth:.2f}x ({largest['size']:,} vs {smallest['size']:,})"
            if growth
            else "not measured"
        )
        + f" -> {_verdict(None if growth is None else growth <= GOAL_RSS_GROWTH)}",
        f"- throughput >= {GOAL_RATIO:.0%} of floor: "
        + (", ".join(f"{x:.0%}" for x in ratios) if ratios else "not measured")
        + (f" (CPU-time: {', '.join(f'{x:.0%}' for x in cpu_ratios)})" if cpu_ratios else "")
        + f" -> {_verdict(None if not ratios else min(ratios) >= GOAL_RATIO)}",
        f"- CPU-time throughput >= {GOAL_CPU_RATIO:.0%} of floor"
        + (" (floor and build side by side)" if any(r.get("side_by_side") for r in ok) else "")
        + " -> "
        + _verdict(None if not cpu_ratios else min(cpu_ratios) >= GOAL_CPU_RATIO),
        *(
            [
                "  against the floor with codelog's parse and walk (--walk-floor), CPU-time: "
                + ", ".join(f"{x:.0%}" for x in walk_ratios)
            ]
            if walk_ratios
            else []
        ),
        "- every kind completes: "
        + _verdict(
            None
            if not ok
            else all(v["exit_code"] == 0 for r in ok for v in r.get("variants", {}).values())
        ),
    ]
    if suspect:
        lines.append(
            f"- WARNING: other processes used > {BUSY_OTHERS} cores during the runs at "
            f"{', '.join(f'{s:,}' for s in suspect)} rows: those timings are not trustworthy"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--sizes",
        default="100000,1000000,3300000",
        help="comma-separated row counts (default: %(default)s)",
    )
    ap.add_argument(
        "--source",
        choices=("codenet", "codecontests", "codeforces"),
        default="codenet",
        help="what to build: a synthetic CodeNet tree (with the floor), or synthetic Parquet "
        "shards of CodeContests or Codeforces submissions (the build alone)",
    )
    ap.add_argument("--tree-dir", type=Path, default=Path("/tmp/codelog-bench"))
    ap.add_argument("--keep", action="store_true", help="keep the trees for the next run")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2, help="for the floor and codelog build")
    ap.add_argument("--codelog", default=str(REPO / ".venv" / "bin" / "codelog"))
    ap.add_argument("--skip-build", action="store_true", help="generate and measure the floor only")
    ap.add_argument(
        "--walk-floor",
        action="store_true",
        help="also measure the floor with codelog's parse and canonical walk (bench/floor.py "
        "--walk), and the build's CPU-time ratio against it",
    )
    ap.add_argument(
        "--wait-idle",
        type=float,
        default=0,
        metavar="SECONDS",
        help="before each measurement wait up to this long for the machine to go idle",
    )
    ap.add_argument(
        "--side-by-side",
        action="store_true",
        help="run the floor and the build at the same time, each with half of --workers (the "
        "floor again, unmeasured, until the build ends): the machine's drift falls on both",
    )
    ap.add_argument("--interval", type=float, default=0.25, help="sampling period, seconds")
    ap.add_argument(
        "--variants",
        default="repair,lint",
        help="other kinds built over each size's staged parse: repair, lint (default: "
        "%(default)s; empty for none)",
    )
    ap.add_argument(
        "--json-out",
        type=Path,
        default=None,
        help="write all measurements here (default: TREE_DIR/bench-build.json)",
    )
    args = ap.parse_args(argv)
    args.tree_dir.mkdir(parents=True, exist_ok=True)
    if args.side_by_side and args.walk_floor:
        ap.error("--walk-floor runs on its own: it cannot be side by side with the build")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    args.variants = [v for v in args.variants.split(",") if v]
    unknown = set(args.variants) - set(VARIANTS)
    if unknown:
        ap.error(f"--variants: unknown {sorted(unknown)}; choose from {sorted(VARIANTS)}")
    print(
        f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / GIB:.1f} GiB; "
        f"load before: {os.getloadavg()[0]:.2f}; {_canon_build()}",
        flush=True,
    )
    json_out = args.json_out or args.tree_dir / "bench-build.json"
    if args.source != "codenet":
        runs = [bench_hub_source(args.source, size, args) for size in sizes]
        json_out.write_text(json.dumps({"sizes": sizes, "results": runs}, indent=2))
        print(f"\nall measurements: {json_out}")
        return
    results = []
    for size in sizes:  # the JSON is rewritten after each size: a long run is never all lost
        results.append(bench_size(size, args))
        report = f"{table(results)}\n\nGoals:\n{goals(results)}"
        json_out.write_text(
            json.dumps({"sizes": sizes, "results": results, "report": report}, indent=2)
        )
    print("\n" + report)
    print(f"\nall measurements: {json_out}")


if __name__ == "__main__":
    main()
