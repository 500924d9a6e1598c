"""Element types of tensor types: their storage width in bits, and human-readable byte counts.

Widths follow how XLA stores each type: ``i1`` is a ``pred`` and takes a whole byte, ``index``
is 64-bit, ``complex<T>`` is two ``T``.  The 2- and 4-bit types (``i4``, ``ui2``, ``f4E2M1FN``) are
counted packed (``ceil(elements * bits / 8)`` bytes); other types narrower than a byte (the 6-bit
floats) take a byte each, as XLA's CPU ``memory_analysis()`` counts them.  Types this module cannot
size (quantized types, tokens, other dialects' types) give ``None``.
"""
from __future__ import annotations

import math
import re

_INT = re.compile(r"[su]?i(\d+)\Z")
_FLOAT_BITS = {"bf16": 16, "f16": 16, "f32": 32, "f64": 64, "tf32": 32, "f80": 80, "f128": 128}
# MLIR's small floats: f8E4M3FN, f8E5M2, f6E2M3FN, f4E2M1FN, f8E8M0FNU, ...
_SMALL_FLOAT = re.compile(r"f([468])E\d+M\d+(?:B\d+)?[A-Z]*\Z")
_COMPLEX = re.compile(r"complex<(.+)>\Z")


def element_bits(element_type: str) -> int | None:
    """Storage bits of one element of ``element_type`` (``"f32"`` -> 32); None when unknown."""
    t = element_type.strip()
    if t == "i1":
        return 8
    if t == "index":
        return 64
    m = _INT.match(t)
    if m:
        return int(m.group(1))
    if t in _FLOAT_BITS:
        return _FLOAT_BITS[t]
    m = _SMALL_FLOAT.match(t)
    if m:
        return int(m.group(1))
    m = _COMPLEX.match(t)
    if m:
        inner = element_bits(m.group(1))
        return None if inner is None else 2 * inner
    return None


#: Widths XLA packs several elements per byte.
PACKED_BITS = (2, 4)


def storage_bytes(elements: int, bits: int) -> int:
    """Bytes of ``elements`` elements of ``bits`` bits each: packed for 2 and 4 bits, whole bytes
    per element otherwise."""
    if bits in PACKED_BITS:
        return -(-elements * bits // 8)
    return elements * -(-bits // 8)


def tensor_bytes(shape: tuple[int, ...], element_type: str) -> int | None:
    """Bytes of a dense tensor of ``shape`` and ``element_type``; None when the type has no known width."""
    bits = element_bits(element_type)
    if bits is None:
        return None
    return storage_bytes(math.prod(shape), bits)


_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def format_bytes(n: int) -> str:
    """``512`` -> ``"512 B"``, ``2048`` -> ``"2 KiB"``, ``1536`` -> ``"1.5 KiB"`` (one decimal at most)."""
    value = float(n)
    unit = 0
    while value >= 1024 and unit < len(_UNITS) - 1:
        value /= 1024
        unit += 1
    if unit == 0:
        return f"{n} B"
    text = f"{value:.1f}".removesuffix(".0")
    return f"{text} {_UNITS[unit]}"
