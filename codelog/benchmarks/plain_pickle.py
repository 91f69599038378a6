"""Plain data out of a pickle without running code: LiveCodeBench ships its private tests as
base64, then zlib, then a pickle, then JSON.

An unpickler runs code only through the callables it looks up (`find_class`: the GLOBAL,
STACK_GLOBAL, INST, OBJ and extension opcodes) or a persistent id; this one refuses both, so
only the opcodes that build str, list, dict, int, float, bool and None (and tuples, sets and
bytes, refused after) can succeed. What it loads is then checked to be such plain data,
within the bounds of codelog.benchmarks.decoding: nesting, and the size it expands to with
every memo reference (one object the pickle refers to again) counted in full. The check visits
each object once, so it is linear in the pickle.
"""

from __future__ import annotations

import base64
import binascii
import io
import pickle
from typing import Any

from codelog.benchmarks import decoding


class NotPlainData(decoding.Refused):
    """A pickle that carries anything but plain data (or is not a pickle at all)."""


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise NotPlainData(f"the pickle refers to {module}.{name}: only plain data is read")

    def persistent_load(self, pid: Any) -> Any:
        raise NotPlainData("the pickle holds a persistent id: only plain data is read")


def loads(data: bytes) -> Any:
    """The plain data (str, list, dict, int, float, bool, None) a pickle holds, or
    NotPlainData saying what else it holds; no code runs either way."""
    try:
        value = _PlainUnpickler(io.BytesIO(data)).load()
    except NotPlainData:
        raise
    except Exception as exc:  # a truncated or malformed pickle raises many kinds
        raise NotPlainData(f"not a readable pickle ({type(exc).__name__}: {exc})") from None
    try:
        decoding.check_plain(value, "pickle")
    except decoding.Refused as exc:
        raise NotPlainData(str(exc)) from None
    return value


def decode_compressed(text: str) -> Any:
    """base64 -> zlib -> plain pickle: LiveCodeBench's `private_test_cases` layers."""
    try:
        raw = decoding.inflate(base64.b64decode(text, validate=False))
    except decoding.TooLarge as exc:
        raise NotPlainData(str(exc)) from None
    except (binascii.Error, ValueError) as exc:  # decoding.Refused is a ValueError
        raise NotPlainData(f"not base64 of zlib data ({exc})") from None
    return loads(raw)
