"""How MLIR spells the pieces of attributes: a string (``printString``, read back by
``unescape_string``), a keyword or string (``printKeywordOrString``), a float value of a float type
(``printFloatValue``) and one element of a dense elements or dense array attribute."""
from __future__ import annotations

import re

from shardy_py.ir.floats import FloatType as FloatFormat
from shardy_py.ir.floats import print_float
from shardy_py.ir.types import ComplexType, FloatType, IntegerType, Type

_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")
_PRINTABLE = {chr(c) for c in range(0x20, 0x7F)} - {'"', "\\"}


def quote_string(s: str) -> str:
    """MLIR ``printString``: printable ASCII as is, ``\\`` doubled, every other
    byte as ``\\`` + two upper-case hex digits."""
    out = ['"']
    for ch in s:
        if ch in _PRINTABLE:
            out.append(ch)
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.extend(f"\\{b:02X}" for b in ch.encode("utf-8", errors="surrogateescape"))
    out.append('"')
    return "".join(out)


def unescape_string(text: str) -> str:
    """The string whose ``quote_string`` is ``"text"`` (``\\XX`` escapes of UTF-8 bytes, ``\\\\``, ``\\"``)."""
    raw = bytearray()
    i = 0
    data = text.encode()
    while i < len(data):
        if data[i] == ord("\\") and i + 1 < len(data):
            if data[i + 1] in b"\\\"":
                raw.append(data[i + 1])
                i += 2
                continue
            raw.extend(bytes.fromhex(data[i + 1:i + 3].decode()))
            i += 3
            continue
        raw.append(data[i])
        i += 1
    return raw.decode()


def keyword_or_string(name: str) -> str:
    """``name`` bare when it is an identifier (``[A-Za-z_][A-Za-z0-9_$.]*``), else quoted (``printKeywordOrString``)."""
    return name if _BARE.match(name) else quote_string(name)


_FORMATS: dict[str, FloatFormat] = {}


def float_format(name: str) -> FloatFormat:
    """The ``ir.floats.FloatType`` (bit layout) of the float type called ``name``, cached."""
    fmt = _FORMATS.get(name)
    if fmt is None:
        fmt = _FORMATS[name] = FloatFormat(name)
    return fmt


def float_text(bits: int, type_name: str) -> str:
    """MLIR's ``printFloatValue`` of the value ``bits`` of the float type ``type_name``."""
    return print_float(float_format(type_name), bits)


def element_text(value, element: Type) -> str:
    """One element of a dense elements / dense array attribute as MLIR prints it."""
    if isinstance(element, ComplexType):
        return f"({element_text(value[0], element.element)},{element_text(value[1], element.element)})"
    if isinstance(element, FloatType):
        return float_text(value, element.text)
    if isinstance(element, IntegerType) and element.width == 1 and not element.signedness:
        return "true" if value else "false"
    return str(value)
