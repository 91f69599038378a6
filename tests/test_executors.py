"""codelog.executors: the local pool's failures as codelog's errors."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor

import pytest

from codelog.errors import CodelogError
from codelog.executors import PoolExecutor


def _killed(_: int) -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer ends a worker


def test_a_worker_killed_mid_task_is_one_error_line_not_the_pools_traceback() -> None:
    pool = PoolExecutor(
        lambda: ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")), 1
    )
    with pool, pytest.raises(CodelogError, match="ended abruptly") as raised:
        list(pool.map(_killed, [1, 2]))
    assert "\n" not in str(raised.value) and "--workers" in str(raised.value)
