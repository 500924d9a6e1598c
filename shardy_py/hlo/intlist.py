"""Vectorised conversion between int64 arrays and comma-separated decimal text.

A V1 HloSharding of a million devices carries a million numbers; ``str``/``int``
per number costs ~100 ms, the numpy versions here a few ms.

Printing works on fixed-width *cells*: each number becomes the bytes
``",<digits>"`` right-aligned in a cell, the unused bytes on the left are NUL,
and one ``bytes.translate`` pass deletes the NULs.  For ids below 10**7 (every
real device count) a cell is one little-endian uint64 built from two lookups in
small tables; larger ids use wider cells assembled from 4-digit groups.
"""
from __future__ import annotations

import re
import warnings

import numpy as np

_COMMA = ord(",")
_ZERO = ord("0")
#: Numbers shorter than this go through ``str`` (numpy's fixed cost is larger for them).
_SMALL = 64
#: The one-uint64-cell fast path holds ``","`` plus up to 7 digits.
_FAST_LIMIT = 10**7
#: The general path handles up to 18 digits (int64 is 19; larger ids are not device ids).
_WIDE_LIMIT = 10**18
#: Numbers per vectorised step of the fast path (64K: 512 KB temporaries).
_CHUNK = 1 << 16


def _four_digit_words() -> np.ndarray:
    """``words[k]`` is the 4 ASCII digits of ``k`` (zero padded) as a little-endian uint32, k < 10000."""
    k = np.arange(10000)
    digits = np.stack([k // 1000 % 10, k // 100 % 10, k // 10 % 10, k % 10], axis=1).astype(np.uint8) + _ZERO
    return np.ascontiguousarray(digits).view("<u4").reshape(-1)


def _cell(value: int) -> int:
    """The uint64 cell of ``value`` < 10**7: bytes ``",<digits>"`` right-aligned, NUL on the left."""
    text = ("," + str(value)).encode("ascii")
    return int.from_bytes(b"\0" * (8 - len(text)) + text, "little")


_WORDS4 = _four_digit_words()
# cell(v) = _HEAD[v // 10000] | _TAIL[min(v, v % 10000 + 10000)]:
#   v <  10000: _HEAD[0] = 0 and _TAIL[v] is the whole cell;
#   v >= 10000: _HEAD[hi] holds "," and the 1-3 digits of hi in bytes 0..3 (NUL padded on the left),
#               _TAIL[10000 + lo] the 4 zero-padded digits of lo in bytes 4..7.
_HEAD = np.array([0] + [_cell(hi) >> 32 for hi in range(1, 1000)], dtype=np.uint64)
_TAIL = np.concatenate([np.array([_cell(v) for v in range(10000)], dtype=np.uint64),
                        _WORDS4.astype(np.uint64) << np.uint64(32)])


def _fast_cells(flat: np.ndarray) -> np.ndarray:
    """One uint64 cell per number, for int64 ``0 <= flat < 10**7``.

    Worked in chunks of ``_CHUNK`` numbers so the temporaries stay in cache (3x faster at 1M)."""
    cells = np.empty(flat.size, dtype=np.uint64)
    for start in range(0, flat.size, _CHUNK):
        v = flat[start:start + _CHUNK]
        hi = v // 10000
        lo_index = hi * -10000
        lo_index += v
        lo_index += 10000
        np.minimum(v, lo_index, out=lo_index)
        out = cells[start:start + _CHUNK]
        np.take(_HEAD, hi, out=out, mode="clip")  # indices are in range by construction
        out |= np.take(_TAIL, lo_index, mode="clip")
    return cells


def _wide_cells(flat: np.ndarray) -> np.ndarray:
    """``(n, 4 * groups + 4)`` uint8 cells for ``0 <= flat < 10**18``: a NUL-padded ``","`` word
    then ``groups`` 4-digit words, leading zeros turned into NUL and the comma moved before the digits."""
    groups = max(1, (len(str(int(flat.max()))) + 3) // 4)
    words = np.zeros((flat.size, groups + 1), dtype=np.uint32)
    rest = flat.copy()
    for g in range(groups, 0, -1):
        rest, words[:, g] = np.divmod(rest, 10000)
        words[:, g] = _WORDS4[words[:, g]]
    cells = words.view(np.uint8).reshape(flat.size, 4 * groups + 4)
    ndigits = np.ones(flat.size, dtype=np.int64)
    for power in range(1, 4 * groups):
        ndigits += flat >= 10**power
    first_digit = cells.shape[1] - ndigits
    cells[np.arange(cells.shape[1]) < first_digit[:, None]] = 0
    cells[np.arange(flat.size), first_digit - 1] = _COMMA
    return cells


def format_int_list(values: np.ndarray) -> str:
    """``"0,4,1,5"`` for ``[0, 4, 1, 5]`` (any shape, read in C order)."""
    flat = np.asarray(values).reshape(-1)
    if flat.size < _SMALL:
        return ",".join(map(str, flat.tolist()))
    flat = flat.astype(np.int64, copy=False)
    low, high = int(flat.min()), int(flat.max())
    if low < 0 or high >= _WIDE_LIMIT:
        return ",".join(map(str, flat.tolist()))  # not device ids; Python's own formatting
    cells = _fast_cells(flat) if high < _FAST_LIMIT else _wide_cells(flat)
    text = cells.tobytes().translate(None, b"\0")
    return str(memoryview(text)[1:], "ascii")  # drop the first number's comma


_BAD_CHAR = re.compile(r"[^0-9,\s-]")


def parse_int_list(text: str) -> np.ndarray:
    """The int64 array for ``"0, 4,1,5"``; raises ``ValueError`` on anything else."""
    bad = _BAD_CHAR.search(text)
    if bad:
        raise ValueError(f"unexpected character {bad.group(0)!r} in integer list at offset {bad.start()}")
    expected = text.count(",") + 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            out = np.fromstring(text, dtype=np.int64, sep=",")  # text mode: C speed, exact int64
        except (DeprecationWarning, ValueError):
            out = None
    saturated = out is not None and out.size and (out.max() == _I64_MAX or out.min() == _I64_MIN)
    if out is None or out.size != expected or saturated:  # (``fromstring`` clamps what overflows int64)
        items = [x.strip() for x in text.split(",")]
        if not all(re.fullmatch(r"-?\d+", x) for x in items):
            raise ValueError(f"not a comma-separated integer list: {text[:60]!r}")
        for x in items:
            if len(x.lstrip("-").lstrip("0")) > 19 or not _I64_MIN <= int(x) <= _I64_MAX:
                shown = x if len(x) <= 30 else x[:12] + "..." + x[-6:]
                raise ValueError(f"{shown} does not fit in a 64-bit integer")
        out = np.array([int(x) for x in items], dtype=np.int64)
    return out


_I64_MAX = (1 << 63) - 1
_I64_MIN = -(1 << 63)
