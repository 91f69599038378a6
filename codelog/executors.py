"""Executors: one pure function mapped over a stream of tasks, on local processes or on Ray.

The judge (a batch of programs -> their verdicts) and the build's stage step (a batch of
files -> a staged part) are pure functions of their task; an executor only decides where they
run. Both executors keep a bounded window of tasks in flight, so a stream of 14M programs never
sits in the driver's memory, and hand results back in input order (`ordered=True`) or as they
complete. A failed task raises its own exception in the driver, the earliest task's when
several fail, as a serial run would.

- `PoolExecutor`: a local process pool (the caller starts it: the judge forks, the stage
  spawns);
- `RayExecutor`: Ray tasks on a cluster (`codelog[ray]`). A task whose worker or node dies is
  retried elsewhere (`max_retries`); its result is taken once, by its position in the stream,
  so a node lost mid-run loses no result and duplicates none.

A leaf: it knows nothing of judging or staging. `ExecutorSpec` is the configuration (what
`--executor` and `--ray-address` say), passed down to whoever opens an executor.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Future, wait
from concurrent.futures import Executor as FuturesExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from codelog.errors import CodelogError

T = TypeVar("T")
R = TypeVar("R")

KINDS = ("local", "ray")
RAY_INSTALL = "pip install 'codelog[ray]'"
RAY_ADDRESS_ENV = "RAY_ADDRESS"
# Tasks retried after their worker or node died. An exception raised by the task itself is its
# result (the same input fails the same way) and is never retried.
RAY_MAX_RETRIES = 5


@dataclass(frozen=True)
class ExecutorSpec:
    """Where tasks run: "local" (a process pool on this machine) or "ray" (a Ray cluster at
    `address`; None: $RAY_ADDRESS, else a Ray instance started on this machine)."""

    kind: str = "local"
    address: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise CodelogError(f"--executor: unknown executor {self.kind!r}; one of local, ray")
        if self.address and self.kind != "ray":
            raise CodelogError("--ray-address is for --executor ray")

    def check(self) -> None:
        """Fail at once, before any work, when the executor cannot be had (Ray not installed)."""
        if self.kind == "ray":
            require_ray()


LOCAL = ExecutorSpec()


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise CodelogError(f"--executor ray needs Ray: {RAY_INSTALL}") from None
    return ray


class Executor:
    """A bounded, ordered (or completion-ordered) map of `fn` over tasks."""

    name = "executor"
    parallelism = 1  # tasks that run at once; the window and batch sizes follow from it

    def map(
        self,
        fn: Callable[[T], R],
        tasks: Iterable[T],
        *,
        ordered: bool = True,
        window: int | None = None,
    ) -> Iterator[R]:
        """fn(task) for every task, at most `window` tasks submitted and not yet yielded (default
        4 x parallelism); in input order, or as they complete when not `ordered`."""
        window = max(1, window or 4 * self.parallelism)
        pending: dict[Any, int] = {}  # handle -> position in the stream
        ready: dict[int, R] = {}
        failed: dict[int, BaseException] = {}
        next_out = 0
        stream = iter(tasks)
        submitted = 0
        exhausted = False
        finished = False
        try:
            while True:
                while not exhausted and not failed and len(pending) + len(ready) < window:
                    try:
                        task = next(stream)
                    except StopIteration:
                        exhausted = True
                        break
                    pending[self._submit(fn, task)] = submitted
                    submitted += 1
                if not pending:
                    break
                for handle in self._wait(list(pending), all_=bool(failed)):
                    position = pending.pop(handle)
                    try:
                        ready[position] = self._result(handle)
                    except Exception as exc:
                        failed[position] = exc
                if failed:
                    if pending:  # an earlier task may fail too: let the running ones finish
                        continue
                    first = min(failed)
                    if ordered:
                        while next_out < first and next_out in ready:
                            yield ready.pop(next_out)
                            next_out += 1
                    raise failed[first]
                if ordered:
                    while next_out in ready:
                        yield ready.pop(next_out)
                        next_out += 1
                else:
                    for position in sorted(ready):
                        yield ready.pop(position)
            finished = True
        finally:
            if not finished:  # an error, Ctrl-C, or a caller that stopped reading
                self._abort(list(pending))

    def close(self) -> None:
        pass

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # what each executor provides
    def _submit(self, fn: Callable[[T], R], task: T) -> Any:
        raise NotImplementedError

    def _wait(self, handles: list[Any], all_: bool) -> list[Any]:
        raise NotImplementedError

    def _result(self, handle: Any) -> Any:
        raise NotImplementedError

    def _abort(self, handles: list[Any]) -> None:
        pass


class PoolExecutor(Executor):
    """Tasks on a local process pool, started by the caller (`start()`), on first use."""

    name = "local"

    def __init__(
        self,
        start: Callable[[], FuturesExecutor],
        workers: int,
        *,
        abort: Callable[[FuturesExecutor], None] | None = None,
    ):
        self._start, self._abort_pool = start, abort
        self.parallelism = workers
        self._pool: FuturesExecutor | None = None

    def _submit(self, fn: Callable[[T], R], task: T) -> Future:
        if self._pool is None:
            self._pool = self._start()
        return self._pool.submit(fn, task)

    def _wait(self, handles: list[Any], all_: bool) -> list[Any]:
        done, _ = wait(handles, return_when="ALL_COMPLETED" if all_ else FIRST_COMPLETED)
        return list(done)

    def _result(self, handle: Future) -> Any:
        try:
            return handle.result()
        except BrokenExecutor as exc:
            # a worker died (the kernel's OOM killer, a kill): one line, not the pool's
            # traceback; the command's own rules say what is kept (a judge or eval resumes)
            raise CodelogError(
                f"a worker process of the local pool ended abruptly ({exc}), most often killed "
                "for memory: run the command again, with fewer --workers if memory is short"
            ) from None

    def _abort(self, handles: list[Any]) -> None:
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        if self._abort_pool is not None:
            self._abort_pool(pool)
        pool.shutdown(wait=self._abort_pool is None, cancel_futures=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


@dataclass(frozen=True)
class _Failed:
    """A task's own exception, returned (not raised) so that Ray neither retries nor wraps it."""

    error: BaseException


def _call(fn: Callable[[Any], Any], task: Any) -> Any:
    try:
        return fn(task)
    except Exception as exc:
        return _Failed(exc)


class RayExecutor(Executor):
    """Tasks on a Ray cluster: `address` (or $RAY_ADDRESS), else Ray started on this machine
    with `workers` CPUs. A session already open in this process (`ray.init` by the caller) is
    used as it is and left open."""

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        *,
        workers: int | None = None,
        max_retries: int = RAY_MAX_RETRIES,
    ):
        ray = require_ray()
        self._ray = ray
        self._owned = False
        if not ray.is_initialized():
            named = "--ray-address" if address else RAY_ADDRESS_ENV
            address = address or os.environ.get(RAY_ADDRESS_ENV) or None
            kwargs: dict[str, Any] = {
                "logging_level": logging.ERROR,
                "log_to_driver": False,  # stdout carries results only; task errors come back
                "configure_logging": True,
            }
            if address is None:  # a new instance, never one found running on this machine
                address = "local"
                kwargs.update(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False)
            else:
                # ray.init retries an address that never answers for minutes
                probe_gcs(address, named=named)
            try:
                ray.init(address=address, **kwargs)
            except ConnectionError as exc:
                raise CodelogError(
                    f"--ray-address {address}: no Ray cluster answers there ({exc}); "
                    "start one with `ray start --head` or check the address"
                ) from None
            self._owned = True
        self.parallelism = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(_call).options(
            num_cpus=1, max_retries=max_retries, retry_exceptions=False
        )

    def _submit(self, fn: Callable[[T], R], task: T) -> Any:
        return self._remote.remote(fn, task)

    def _wait(self, handles: list[Any], all_: bool) -> list[Any]:
        done, _ = self._ray.wait(handles, num_returns=len(handles) if all_ else 1)
        return done

    def _result(self, handle: Any) -> Any:
        value = self._ray.get(handle)
        if isinstance(value, _Failed):
            raise value.error
        return value

    def _abort(self, handles: list[Any]) -> None:
        for handle in handles:
            # already finished, or its node is gone: nothing to stop
            with contextlib.suppress(Exception):
                self._ray.cancel(handle, force=True)
        # Wait for the cancelled tasks to end before the caller cleans up: a stage task still
        # writing its part into a directory being removed would leave half of it behind.
        if handles:
            with contextlib.suppress(Exception):
                self._ray.wait(handles, num_returns=len(handles), timeout=30)

    def close(self) -> None:
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
            self._owned = False


# What a gRPC server (Ray's GCS) answers first: its HTTP/2 SETTINGS frame, sent in reply to the
# client's connection preface. A port that is closed, or open but silent, gets neither.
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_SETTINGS_FRAME = 4
GCS_PROBE_SECONDS = 5.0


def probe_gcs(
    address: str, *, named: str = "--ray-address", timeout: float = GCS_PROBE_SECONDS
) -> None:
    """CodelogError within about 2 x `timeout` seconds unless a gRPC server answers at
    `address` (host:port, the GCS of a Ray cluster; `named`: where the address came from).
    Other forms (ray://, auto) are Ray's to resolve and are not probed."""
    import socket

    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address or not host:
        return
    where = f"{named} {address}" if named.startswith("-") else f"{named}={address}"
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout) as conn:
            if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
                return  # a TLS cluster answers a handshake, not this preface: reached is enough
            conn.settimeout(timeout)
            conn.sendall(_HTTP2_PREFACE)
            head = conn.recv(9)
    except TimeoutError:
        raise CodelogError(
            f"{where}: no answer from a Ray cluster within {timeout:g}s (the port is silent or "
            "unreachable); start one with `ray start --head` or check the address"
        ) from None
    except OSError as exc:
        raise CodelogError(
            f"{where}: no Ray cluster answers there ({exc.strerror or exc}); start one with "
            "`ray start --head` or check the address"
        ) from None
    if len(head) < 4 or head[3] != _SETTINGS_FRAME:
        raise CodelogError(
            f"{where}: something answers there, but not a Ray cluster (no gRPC reply); check "
            "the address (a cluster's GCS port, 6379 by default)"
        )


def open_executor(
    spec: ExecutorSpec, *, workers: int | None, local: Callable[[], Executor]
) -> Executor:
    """The executor `spec` names: `local()` (the caller's own pool), or a RayExecutor."""
    if spec.kind == "ray":
        return RayExecutor(spec.address, workers=workers)
    return local()


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """`items` in lists of `size` (the last one shorter), read lazily."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
