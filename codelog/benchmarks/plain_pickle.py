"""Plain data out of a pickle without running code: LiveCodeBench ships its private tests as
base64, then zlib, then a pickle, then JSON.

An unpickler runs code only through the callables it looks up (`find_class`: the GLOBAL,
STACK_GLOBAL, INST, OBJ and extension opcodes) or a persistent id; this one refuses both, so
only the opcodes that build str, list, dict, int, float, bool and None (and tuples, sets and
bytes, refused after) can succeed. What it loads is then checked to be such plain data,
within the bounds of codelog.benchmarks.decoding: its opcodes are counted first (memo
references included), then its nesting and the size it expands to with every memo reference
(one object the pickle refers to again) counted in full. Both visit each opcode or object
once, so they are linear in the pickle.
"""

from __future__ import annotations

import base64
import binascii
import io
import pickle
import pickletools
import struct
from typing import Any

import codelog.benchmarks.decoding as decoding


class NotPlainData(decoding.Refused):
    """A pickle that carries anything but plain data (or is not a pickle at all)."""


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise NotPlainData(f"the pickle refers to {module}.{name}: only plain data is read")

    def persistent_load(self, pid: Any) -> Any:
        raise NotPlainData("the pickle holds a persistent id: only plain data is read")


# The length of each opcode's argument, by opcode byte: a fixed size, or how it is given
# (pickletools' ArgumentDescriptor.n: a line, or a 1, 4 or 8 byte length before the payload).
_ARG = {op.code.encode("latin-1"): op.arg.n if op.arg else 0 for op in pickletools.opcodes}
_LENGTH = {
    pickletools.TAKEN_FROM_ARGUMENT1: (1, "<B"),
    pickletools.TAKEN_FROM_ARGUMENT4: (4, "<i"),
    pickletools.TAKEN_FROM_ARGUMENT4U: (4, "<I"),
    pickletools.TAKEN_FROM_ARGUMENT8U: (8, "<Q"),
}


def _count_opcodes(data: bytes) -> None:
    """NotPlainData past MAX_PICKLE_OPS opcodes (memo references included). It steps over
    each argument by its length, where pickletools.genops would decode every string: twice
    the time of loading LiveCodeBench's one large string. A malformed pickle is left to the
    unpickler to refuse."""
    at, ops = 0, 0
    while at < len(data):
        ops += 1
        if ops > decoding.MAX_PICKLE_OPS:
            raise NotPlainData(
                f"the pickle has more than {decoding.MAX_PICKLE_OPS:,} opcodes (the bound is "
                "MAX_PICKLE_OPS)"
            )
        code = data[at : at + 1]
        n = _ARG.get(code)
        at += 1
        if n is None or code in (b".", b"c", b"i"):  # unknown, the end, or a class (refused)
            return
        if n >= 0:
            at += n
        elif n == pickletools.UP_TO_NEWLINE:
            at = data.find(b"\n", at) + 1 or len(data)
        else:
            size, fmt = _LENGTH[n]
            (length,) = struct.unpack_from(fmt, data, at) if at + size <= len(data) else (0,)
            at += size + max(length, 0)


def loads(data: bytes) -> Any:
    """The plain data (str, list, dict, int, float, bool, None) a pickle holds, or
    NotPlainData saying what else it holds; no code runs either way."""
    try:
        _count_opcodes(data)  # before any object is built: few bytes can ask for many
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
