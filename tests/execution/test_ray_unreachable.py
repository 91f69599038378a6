"""An unreachable Ray address is one `error:` line within seconds (issue 33), not minutes of
Ray's "Failed to connect to GCS" warnings: a closed port, and a loopback port that accepts a
connection and never says anything."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray")

from codelog.errors import CodelogError
from codelog.executors import RayExecutor, probe_gcs

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield server.getsockname()[1]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the socket is


def test_a_closed_port_fails_at_once():
    started = time.monotonic()
    with pytest.raises(CodelogError, match=r"--ray-address 127\.0\.0\.1:\d+: no Ray cluster"):
        RayExecutor(f"127.0.0.1:{closed_port()}")
    assert time.monotonic() - started < 5


def test_a_silent_port_fails_within_the_probe_time(silent_port):
    started = time.monotonic()
    with pytest.raises(CodelogError, match=r"no answer from a Ray cluster within 1s"):
        probe_gcs(f"127.0.0.1:{silent_port}", timeout=1.0)
    assert time.monotonic() - started < 4


def test_a_port_that_answers_something_else_is_not_taken_for_ray():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)

        def answer() -> None:
            conn, _ = server.accept()
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")  # a web server, say

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        with pytest.raises(CodelogError, match="something answers there, but not a Ray cluster"):
            probe_gcs(f"127.0.0.1:{server.getsockname()[1]}", timeout=2.0)
        thread.join(timeout=5)


@pytest.mark.parametrize("kind", ["closed", "silent"])
def test_judge_with_an_unreachable_ray_address_env_is_one_error_line(tmp_path, kind, silent_port):
    port = closed_port() if kind == "closed" else silent_port
    problems = tmp_path / "problems.jsonl"
    problems.write_text(json.dumps({"problem_id": "p", "tests": [{"input": "", "output": ""}]}))
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"problem_id": "p", "code": "pass"}) + "\n")
    command = [sys.executable, "-m", "codelog.cli", "judge", str(samples), "--tests",
               str(problems), "--out", str(tmp_path / "rows.jsonl"), "--executor", "ray"]  # fmt: skip
    env = {**os.environ, "RAY_ADDRESS": f"127.0.0.1:{port}", "RAY_USAGE_STATS_ENABLED": "0"}
    started = time.monotonic()
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=90)
    assert time.monotonic() - started < 60
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --ray-address"), lines
    assert f"127.0.0.1:{port}: no" in lines[0]
    assert not (tmp_path / "rows.jsonl").exists()
