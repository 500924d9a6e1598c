"""``dense<...>`` elements attributes printed as MLIR prints them (``printDenseElementsAttr``).

MLIR keeps the elements as typed values and prints them back in one spelling, whatever was written:
a tensor whose elements are all equal is a splat (``dense<1>``); otherwise the elements nest by the
tensor's shape (``[[1, 2], [3, 4]]``); integers are decimal (hex literals and ``"0x..."`` data
blobs are read), ``i1`` elements are ``true``/``false``, floats have MLIR's float spelling
(``syntax.floats``), complex elements are ``(re,im)``.  Element types we do not model are left as
written.
"""
from __future__ import annotations

import re

from shardy_py.ir.floats import FORMATS, FloatType, literal_bits, print_float

_INT_TYPE = re.compile(r"(s|u)?i(\d+)\Z")
_TOKEN = re.compile(r"\s*(?:([\[\](),])|(true|false)|([-+]?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|inf|nan)|"
                    r"[-+]?0x[0-9a-fA-F]+|[-+]?\d+))")


class _Element:
    """Reads and prints one element kind."""

    def __init__(self, element_type: str):
        self.type = element_type
        self.complex = element_type.startswith("complex<")
        base = element_type[8:-1] if self.complex else element_type
        self.base = base
        m = _INT_TYPE.match(base)
        self.width = int(m.group(2)) if m else (64 if base == "index" else None)
        self.unsigned = bool(m and m.group(1) == "u")
        self.float = FloatType(base) if base in FORMATS else None

    @property
    def modelled(self) -> bool:
        return self.width is not None or self.float is not None

    def scalar(self, tok: str) -> int | None:
        """The value of one scalar literal: an integer, or a float's bit pattern."""
        if self.width is not None:
            if tok in ("true", "false"):
                return 1 if tok == "true" else 0
            try:
                v = int(tok, 16) if tok.lstrip("-+").startswith("0x") else int(tok)
            except ValueError:
                return None
            if self.width == 1:
                return v & 1
            if not self.unsigned and v >= 1 << (self.width - 1):
                v -= 1 << self.width  # a hex literal spells the bit pattern
            return v
        if tok in ("true", "false"):
            return None
        if re.fullmatch(r"[-+]?\d+", tok):
            tok = tok + ".0"
        return literal_bits(self.float, tok)

    def text(self, value) -> str:
        if self.complex:
            return f"({self._scalar_text(value[0])},{self._scalar_text(value[1])})"
        return self._scalar_text(value)

    def _scalar_text(self, v: int) -> str:
        if self.width is not None:
            if self.width == 1:
                return "true" if v else "false"
            return str(v)
        return print_float(self.float, v)

    def hex_data(self, values) -> str:
        """The raw data MLIR keeps for ``values``: each element little-endian, upper-case hex."""
        bits = self.width if self.width is not None else self.float.width
        size = max(1, (bits + 7) // 8)
        mask = (1 << (size * 8)) - 1
        out = []
        for v in values:
            for part in (v if self.complex else (v,)):
                out.append((part & mask).to_bytes(size, "little").hex().upper())
        return "".join(out)

    def from_blob(self, data: bytes):
        """The elements of a little-endian ``"0x..."`` data blob."""
        bits = self.width if self.width is not None else self.float.width
        size = max(1, (bits + 7) // 8)
        n = 2 if self.complex else 1
        values = []
        for i in range(0, len(data) - size * n + 1, size * n):
            parts = []
            for k in range(n):
                raw = int.from_bytes(data[i + k * size:i + (k + 1) * size], "little")
                if self.width is not None and not self.unsigned and self.width > 1 and raw >= 1 << (self.width - 1):
                    raw -= 1 << self.width
                parts.append(raw)
            values.append(tuple(parts) if self.complex else parts[0])
        return values


def _parse_values(body: str, el: _Element):
    """Flat element values of a nested-list or splat body; None when it is not one we read."""
    values = []
    pos = 0
    depth = 0
    pending: list = []
    in_complex = False
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if not m:
            if body[pos:].strip() == "":
                break
            return None
        pos = m.end()
        punct, boolean, number = m.group(1), m.group(2), m.group(3)
        if punct == "(":
            if not el.complex or in_complex:
                return None
            in_complex, pending = True, []
        elif punct == ")":
            if not in_complex or len(pending) != 2:
                return None
            values.append(tuple(pending))
            in_complex = False
        elif punct == "[":
            depth += 1
        elif punct == "]":
            depth -= 1
        elif punct == ",":
            continue
        else:
            v = el.scalar(boolean or number)
            if v is None:
                return None
            if in_complex:
                pending.append(v)
            elif el.complex:
                return None
            else:
                values.append(v)
    return values if depth == 0 and not in_complex else None


def _nest(texts: list[str], shape: list[int]) -> str:
    if not shape:
        return texts[0]
    if len(shape) == 1:
        return "[" + ", ".join(texts) + "]"
    step = len(texts) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nest(texts[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


def canonical_dense_elements(body: str, type_text: str) -> str | None:
    """MLIR's print of ``dense<body> : type_text`` (the ``dense<...>`` part); None to keep it as written."""
    m = re.fullmatch(r"(?:tensor|vector)<((?:\d+x)*)(.+?)(?:, .*)?>", type_text.strip())
    if not m:
        return None
    shape = [int(d) for d in m.group(1).split("x")[:-1]]
    el = _Element(m.group(2))
    if not el.modelled or (el.complex and el.float is None and el.width is None):
        return None
    body = body.strip()
    if body.startswith('"0x') and body.endswith('"'):
        try:
            values = el.from_blob(bytes.fromhex(body[3:-1]))
        except ValueError:
            return None
    else:
        values = _parse_values(body, el)
    if values is None:
        return None
    count = 1
    for d in shape:
        count *= d
    if count == 0:
        return "dense<>" if not values else None
    if len(values) == 1 or (values and all(v == values[0] for v in values)):
        if len(values) not in (1, count):
            return None
        return f"dense<{el.text(values[0])}>"
    if len(values) != count:
        return None
    if count > HEX_THRESHOLD and el.width != 1:
        return f'dense<"0x{el.hex_data(values)}">'
    return f"dense<{_nest([el.text(v) for v in values], shape)}>"


#: MLIR prints the elements of a larger (non-splat) attribute as hex data (OpPrintingFlags' default).
HEX_THRESHOLD = 100
