"""A real two-node Ray cluster on this machine: a worker node dies while `codelog judge
--executor ray` runs, and every verdict still arrives exactly once.

The head (`ray start --head`, 1 CPU) and a second node (`ray start --address`, 2 CPUs) run on
127.0.0.1 with their own ports and temp directories, each in its own process group: the
test kills the second node's group mid-run (SIGKILL: raylet and workers at once, as a lost
machine), and tears both groups down by their ids at the end, whatever happened.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
LOOPBACK = [sys.executable, str(HERE / "ray_loopback.py")]
ENV = {
    **os.environ,
    "RAY_AUTH_MODE": "disabled",  # a cluster of one machine's loopback, for this test only
    "RAY_USAGE_STATS_ENABLED": "0",
    # a lost node is noticed in ~2 s instead of ~30 s
    "RAY_health_check_initial_delay_ms": "1000",
    "RAY_health_check_period_ms": "500",
    "RAY_health_check_timeout_ms": "500",
    "RAY_health_check_failure_threshold": "3",
}
PROGRAMS = 36
SLEEP = 0.3  # seconds per program, so that the run outlasts the kill


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args: list[str], log: Path) -> subprocess.Popen:
    with log.open("w") as out:
        return subprocess.Popen(
            [*LOOPBACK, "ray", "start", "--block", "--disable-usage-stats", *args],
            env=ENV,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: raylet, GCS, workers
        )


def _stop(node: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(node.pid, signal.SIGKILL)
    node.wait(timeout=30)


def _wait_for_nodes(address: str, count: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        probe = [*LOOPBACK, "nodes", address, str(count)]
        if subprocess.run(probe, env=ENV, capture_output=True, timeout=60).returncode == 0:
            return
        time.sleep(0.5)
    raise AssertionError(f"the Ray cluster at {address} did not reach {count} nodes")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    # Ray's unix sockets need a short path: a temp dir of its own under /tmp
    temp = Path(tempfile.mkdtemp(prefix="codelog-ray-", dir="/tmp"))
    port = _free_port()
    address = f"127.0.0.1:{port}"
    nodes = []
    try:
        nodes.append(
            _start(
                [
                    "--head",
                    "--node-ip-address=127.0.0.1",
                    f"--port={port}",
                    "--num-cpus=1",
                    "--include-dashboard=false",
                    f"--ray-client-server-port={_free_port()}",
                    f"--temp-dir={temp / 'head'}",
                ],
                tmp_path / "head.log",
            )
        )
        _wait_for_nodes(address, 1, time.monotonic() + 90)
        nodes.append(
            _start(
                [
                    f"--address={address}",
                    "--node-ip-address=127.0.0.1",
                    "--num-cpus=2",
                    f"--temp-dir={temp / 'node'}",
                ],
                tmp_path / "node.log",
            )
        )
        _wait_for_nodes(address, 2, time.monotonic() + 90)
        yield address, nodes[1], temp
    finally:
        for node in reversed(nodes):
            _stop(node)
        subprocess.run(["rm", "-rf", str(temp)], check=False)


def _inputs(tmp_path: Path) -> tuple[Path, Path]:
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        json.dumps({"problem_id": "echo", "tests": [{"input": "", "output": "ok\n"}]}) + "\n"
    )
    samples = tmp_path / "samples.jsonl"
    with samples.open("w") as f:
        for i in range(PROGRAMS):
            answer = "ok" if i % 3 else "no"
            code = f"import time\ntime.sleep({SLEEP})\nprint({answer!r})\n"
            f.write(json.dumps({"submission_id": f"s{i:03d}", "problem_id": "echo", "code": code}))
            f.write("\n")
    return samples, problems


def test_a_worker_node_killed_mid_run_loses_no_verdict_and_duplicates_none(
    cluster, tmp_path: Path
) -> None:
    address, second_node, _ = cluster
    samples, problems = _inputs(tmp_path)
    out = tmp_path / "judged.jsonl"
    journal = out.with_name(f".{out.name}.judging")
    driver = subprocess.Popen(
        [*LOOPBACK, "codelog", "judge", str(samples), "--tests", str(problems), "--out",
         str(out), "--executor", "ray", "--ray-address", address, "--quiet"],
        env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        judged = 0
        while time.monotonic() < deadline and driver.poll() is None:
            judged = len(journal.read_text().splitlines()) - 1 if journal.exists() else 0
            if judged >= 4:
                break
            time.sleep(0.1)
        assert driver.poll() is None and 4 <= judged < PROGRAMS, "the run ended before the kill"
        os.killpg(second_node.pid, signal.SIGKILL)  # the node and its workers, mid-task
        second_node.wait(timeout=30)
        _, stderr = driver.communicate(timeout=180)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    assert driver.returncode == 0, stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    ids = [r["submission_id"] for r in rows]
    assert ids == [f"s{i:03d}" for i in range(PROGRAMS)]  # each once, in input order
    statuses = [r["status"] for r in rows]
    assert statuses == ["Wrong Answer" if i % 3 == 0 else "Accepted" for i in range(PROGRAMS)]
    assert not journal.exists()
