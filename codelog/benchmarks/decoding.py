"""The bounds on what a benchmark file or row may decode to, and the decoders that keep them.

A benchmark is outside data: a row of a few kilobytes can inflate to gigabytes (a zlib bomb, a
pickle that refers to one large value thousands of times) or nest deeper than Python's parsers
recurse. Every decoder of benchmarks/ goes through here, so each bound is one number in one
place, and a row past it is refused with the bound in the message instead of hanging, running
out of memory or ending in a traceback.
"""

from __future__ import annotations

import datetime
import gzip
import json
import re
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Nesting of a JSON or pickled value. Benchmark tests nest a few levels (a list of arguments
# holding lists); Python's parsers and json.dumps recurse about 1,000 levels deep.
MAX_DEPTH = 100
# What one field (LiveCodeBench's private tests) or one gzipped file (HumanEval.jsonl.gz) may
# inflate to, and what a pickled value may expand to with every shared reference counted at
# full size, as problem_key and the checker's JSON write it out. LiveCodeBench's tests, the
# largest of the benchmarks, decode to about 22 MB a problem on average (its issue #4: 9 GB for
# 400 problems); 512 MiB leaves room for the largest while a bomb stops there.
MAX_DECODED_BYTES = 512 << 20
# Opcodes of one pickle, memo references (GET) included. LiveCodeBench pickles one string (a
# handful of opcodes); a pickle of a million small lists and references would build objects
# worth tens of times its bytes before any check of what it built could run.
MAX_PICKLE_OPS = 1_000_000
# A problem's time limit per test and memory limit, where a benchmark's rows carry their own
# (CodeContests): contest problems give seconds and at most about 1 GiB. A limit past these
# is a broken row, and a spinning program would hold a worker for all of it.
MAX_TIME_LIMIT_MS = 60_000
MAX_MEMORY_LIMIT_BYTES = 4 << 30

_PLAIN = (str, list, dict, int, float, bool, type(None))


class Refused(ValueError):
    """A value not decoded: malformed, or past one of the bounds above (the message says
    which). The caller names the file, row and field."""


class TooLarge(Refused):
    """A value past one of the bounds: its message names the bound and its number."""


def _mib(n: int) -> str:
    return f"{n / (1 << 20):g} MiB"


def json_value(text: str | bytes, parse_int: Callable[[str], int] | None = None) -> Any:
    """`json.loads(text)`, refused past MAX_DEPTH (json's own RecursionError included);
    `parse_int` as json's (APPS reads integers longer than `str()` converts through one)."""
    try:
        value = json.loads(text, parse_int=parse_int)
    except RecursionError:
        raise TooLarge(f"the JSON nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise Refused(f"not JSON: {exc}") from None
    check_plain(value, "JSON", limit=sys.maxsize)  # a tree: no larger than its text
    return value


def check_plain(value: Any, what: str = "data", limit: int | None = None) -> int:
    """The size `value` expands to (each shared reference counted in full), once it is known
    to be plain data (str, list, dict, int, float, bool, None), no deeper than MAX_DEPTH,
    without cycles and within `limit` bytes (MAX_DECODED_BYTES); else Refused.

    Linear in the number of distinct objects: a shared object (a pickle's memo reference) is
    walked once and its size reused, where a walk of every path would be exponential (40
    lists, each holding the previous one twice, have 2^40 paths)."""
    limit = MAX_DECODED_BYTES if limit is None else limit
    if type(value) not in (list, dict):
        return _leaf_size(value, what)
    sizes: dict[int, int] = {}  # id -> expanded size, for the containers walked
    depths: dict[int, int] = {}  # id -> levels of nesting at and below it
    path: set[int] = set()  # the containers being walked: one met again below itself is a cycle
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        obj, done = stack.pop()
        key = id(obj)
        children = [*obj.keys(), *obj.values()] if type(obj) is dict else obj
        if done:
            path.discard(key)
            size, depth = 8, 0
            for child in children:
                if type(child) in (list, dict):
                    size += sizes[id(child)]
                    depth = max(depth, depths[id(child)])
                else:
                    size += _leaf_size(child, what)
            if size > limit:
                raise TooLarge(
                    f"the {what} expands to more than {_mib(limit)} (its shared references "
                    "counted in full; the bound is MAX_DECODED_BYTES)"
                )
            if depth + 1 > MAX_DEPTH:  # through a shared reference met deeper than first
                raise TooLarge(f"the {what} nests deeper than {MAX_DEPTH} levels")
            sizes[key], depths[key] = size, depth + 1
            continue
        if key in sizes:
            continue  # a shared reference: walked once, its size reused
        if key in path:
            raise Refused(f"the {what} refers to itself")
        path.add(key)
        if len(path) > MAX_DEPTH:
            raise TooLarge(f"the {what} nests deeper than {MAX_DEPTH} levels")
        stack.append((obj, True))
        stack.extend((c, False) for c in children if type(c) in (list, dict))
    return sizes[id(value)]


def _leaf_size(value: Any, what: str) -> int:
    if type(value) is str:
        return len(value)  # code points: a floor of the bytes it takes
    # an int subclass is a `parse_int` hook's (a pickle cannot make one: classes are refused)
    if type(value) not in _PLAIN and not isinstance(value, int):
        raise Refused(f"the {what} holds a {type(value).__name__}: only plain data is read")
    return 8


def inflate(data: bytes, limit: int | None = None) -> bytes:
    """zlib-decompressed `data`, streamed a MiB at a time: a stream that would give more than
    `limit` (MAX_DECODED_BYTES) bytes is Refused naming the bound once it has given that
    much, so a bomb costs the bound's memory, never the whole of it. (One call with
    `max_length` would hold its buffers and their joined copy: twice the bound.)"""
    limit = MAX_DECODED_BYTES if limit is None else limit
    stream = zlib.decompressobj()
    parts: list[bytes] = []
    size, pending = 0, data
    try:
        while not stream.eof:
            part = stream.decompress(pending, 1 << 20)
            if not part and not stream.unconsumed_tail:
                break  # the input ended before the stream did
            pending = stream.unconsumed_tail
            size += len(part)
            if size > limit:
                raise TooLarge(
                    f"the zlib data inflates to more than {_mib(limit)} (the bound is "
                    "MAX_DECODED_BYTES)"
                )
            parts.append(part)
    except zlib.error as exc:
        raise Refused(f"not zlib data ({exc})") from None
    if not stream.eof:
        raise Refused("truncated zlib data")
    return b"".join(parts)


def gunzip(path: Path, limit: int | None = None) -> bytes:
    """A gzipped file's content, read to at most `limit` (MAX_DECODED_BYTES) bytes; a file
    that is not gzip, is cut short or inflates past the bound is Refused."""
    limit = MAX_DECODED_BYTES if limit is None else limit
    try:
        with gzip.open(path, "rb") as f:
            data = f.read(limit + 1)  # GzipFile.read(n) inflates n bytes at most
    except gzip.BadGzipFile:
        raise Refused("not a gzip file") from None
    except EOFError:
        raise Refused("a gzip file cut short") from None
    except zlib.error as exc:
        raise Refused(f"a damaged gzip file ({exc})") from None
    except OSError as exc:  # no such file, a directory, no permission
        raise Refused(exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise TooLarge(f"inflates to more than {_mib(limit)} (the bound is MAX_DECODED_BYTES)")
    return data


# ISO 8601 as LiveCodeBench writes it (2023-09-21T00:00:00), with or without the time, its
# seconds, a fraction or a zone. Stricter than datetime.fromisoformat, which since 3.11 also
# reads 20230921 and 2023-W38.
_ISO = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})?)?"
)
_EPOCH = re.compile(r"\d{1,12}(?:\.\d+)?")


def iso_date(value: Any) -> str:
    """`value` as an ISO date and time in UTC (2023-09-21T00:00:00): an ISO date with or
    without a time, or epoch seconds (a number or a string of digits); anything else
    (21/09/2019, Sep 21, 2019, 2019-9-01) is Refused, never compared as text."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(value, datetime.datetime):
        moment = value
    elif isinstance(value, datetime.date):
        moment = datetime.datetime(value.year, value.month, value.day)
    elif number or (isinstance(value, str) and _EPOCH.fullmatch(value.strip())):
        try:
            moment = datetime.datetime.fromtimestamp(float(value), datetime.UTC)
        except (OverflowError, OSError, ValueError):
            raise Refused(f"{value!r} is out of range as epoch seconds") from None
    elif isinstance(value, str) and _ISO.fullmatch(value.strip()):
        try:
            moment = datetime.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError as exc:
            raise Refused(f"{value!r} is not a date ({exc})") from None
    else:
        raise Refused(
            f"{value!r} is not a date: an ISO date (2023-09-21, 2023-09-21T00:00:00) or epoch "
            "seconds"
        )
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="seconds")
