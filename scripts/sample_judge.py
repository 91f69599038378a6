"""A tiny judge for the bundled CodeNet sample: sample I/O from the statements, and a verdict.

Used by `tests/test_sample_programs.py` and by `scripts/make_sample_sources.py --check`.
Stdlib only. The verdict follows a judge's order: the samples run one after the other and the
first one that fails decides; a sample whose output matches only after whitespace
normalisation makes the verdict a presentation error unless a later sample fails harder.
"""

from __future__ import annotations

import glob
import html
import os
import re
import resource
import selectors
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ACCEPTED = "Accepted"
WRONG_ANSWER = "Wrong Answer"
PRESENTATION_ERROR = "WA: Presentation Error"
RUNTIME_ERROR = "Runtime Error"
TIME_LIMIT = "Time Limit Exceeded"
MEMORY_LIMIT = "Memory Limit Exceeded"
OUTPUT_LIMIT = "Output Limit Exceeded"
COMPILE_ERROR = "Compile Error"

# Output beyond this is an output-limit verdict; reading stops there and the program is killed.
OUTPUT_CAP = 1 << 20

_HEADING = re.compile(r"<h[1-6][^>]*>(.*?)</h[1-6]>", re.IGNORECASE | re.DOTALL)
_PRE = re.compile(r"<pre[^>]*>(.*?)</pre>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_SAMPLE_INPUT = re.compile(r"^sample input\s*\d*$")
# AIZU writes "Output for the Sample Input", AtCoder "Sample Output 1".
_SAMPLE_OUTPUT = re.compile(r"^(sample output\s*\d*|output for the sample input\s*\d*)$")


def parse_samples(statement_html: str) -> list[tuple[str, str]]:
    """(input, expected output) pairs: the first <pre> after each sample heading, as text."""
    inputs: list[str] = []
    outputs: list[str] = []
    for heading in _HEADING.finditer(statement_html):
        title = " ".join(_TAG.sub("", heading.group(1)).split()).lower()
        if _SAMPLE_INPUT.match(title):
            target = inputs
        elif _SAMPLE_OUTPUT.match(title):
            target = outputs
        else:
            continue
        pre = _PRE.search(statement_html, heading.end())
        if pre is None:
            raise ValueError(f"no <pre> after heading {title!r}")
        text = html.unescape(_TAG.sub("", pre.group(1)))
        # HTML drops one newline right after <pre>.
        target.append(text.removeprefix("\r\n").removeprefix("\n"))
    if len(inputs) != len(outputs):
        raise ValueError(f"{len(inputs)} sample inputs but {len(outputs)} sample outputs")
    return list(zip(inputs, outputs, strict=True))


@dataclass(frozen=True)
class Run:
    returncode: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool
    output_exceeded: bool


def _limit_memory(memory_kb: int | None):
    if memory_kb is None:
        return None

    def set_limit() -> None:
        limit = memory_kb * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return set_limit


def run_program(
    argv: list[str],
    stdin: str,
    timeout_s: float,
    memory_kb: int | None = None,
    output_cap: int = OUTPUT_CAP,
) -> Run:
    """Run argv on stdin; kill it at the timeout or once stdout passes output_cap bytes."""
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limit_memory(memory_kb),
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(stdin.encode())
        proc.stdin.close()
    except BrokenPipeError:
        pass  # the program exited before reading its input
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    chunks: dict[int, list[bytes]] = {out_fd: [], err_fd: []}
    sizes = dict.fromkeys(chunks, 0)
    timed_out = exceeded = False
    deadline = time.monotonic() + timeout_s
    with selectors.DefaultSelector() as selector:
        for stream in (proc.stdout, proc.stderr):
            selector.register(stream, selectors.EVENT_READ)
        open_streams = 2
        while open_streams:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in selector.select(remaining):
                data = os.read(key.fd, 1 << 16)
                if not data:
                    selector.unregister(key.fileobj)
                    open_streams -= 1
                    continue
                if sizes[key.fd] < output_cap + 1:
                    chunks[key.fd].append(data)
                sizes[key.fd] += len(data)
            if sizes[out_fd] > output_cap:
                exceeded = True
                break
    if timed_out or exceeded:
        proc.kill()
        returncode = None
        proc.wait()
    else:
        try:
            returncode = proc.wait(max(deadline - time.monotonic(), 0.05))
        except subprocess.TimeoutExpired:
            # stdout closed early (e.g. os.close(1)) but the process keeps running
            proc.kill()
            proc.wait()
            returncode, timed_out = None, True
    proc.stdout.close()
    proc.stderr.close()
    return Run(
        returncode=returncode,
        stdout=b"".join(chunks[out_fd]),
        stderr=b"".join(chunks[err_fd]),
        timed_out=timed_out,
        output_exceeded=exceeded,
    )


def _exact(text: str) -> str:
    return text.replace("\r\n", "\n").removesuffix("\n")


def _tokens(text: str) -> list[str]:
    return text.split()


def compiles_as_python2(python2: str, path: Path) -> bool:
    check = "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')"
    result = subprocess.run([python2, "-c", check, str(path)], capture_output=True, check=False)
    return result.returncode == 0


def judge(
    argv: list[str],
    samples: list[tuple[str, str]],
    time_limit_ms: int,
    memory_limit_kb: int,
) -> tuple[str, Run | None]:
    """The verdict of argv on the samples, and the run that decided it (None if accepted)."""
    presentation: Run | None = None
    for sample_input, expected in samples:
        run = run_program(argv, sample_input, time_limit_ms / 1000, memory_limit_kb)
        if run.output_exceeded:
            return OUTPUT_LIMIT, run
        if run.timed_out:
            return TIME_LIMIT, run
        if run.returncode != 0:
            if b"MemoryError" in run.stderr:
                return MEMORY_LIMIT, run
            return RUNTIME_ERROR, run
        output = run.stdout.decode("utf-8", errors="replace")
        if _exact(output) == _exact(expected):
            continue
        if _tokens(output) == _tokens(expected):
            presentation = presentation or run
            continue
        return WRONG_ANSWER, run
    if presentation is not None:
        return PRESENTATION_ERROR, presentation
    return ACCEPTED, None


def find_python2() -> str | None:
    """A working Python 2 interpreter: python2/python2.7 on PATH, else a pyenv 2.7 install."""
    candidates = [shutil.which(name) for name in ("python2", "python2.7")]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/2.7*/bin/python2.7")))
    for candidate in candidates:
        if not candidate:
            continue
        try:
            probe = subprocess.run(
                [candidate, "-c", "import sys; sys.stdout.write(str(sys.version_info[0]))"],
                capture_output=True,
                timeout=10,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        # pyenv shims exist on PATH even when no 2.7 is selected; they fail here.
        if probe.returncode == 0 and probe.stdout == b"2":
            return candidate
    return None


def python3_argv(path: Path) -> list[str]:
    # -S: no site-packages; the programs use the standard library only, and start faster.
    return [sys.executable, "-S", str(path)]


def python2_argv(python2: str, path: Path) -> list[str]:
    return [python2, "-S", str(path)]
