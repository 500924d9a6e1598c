"""Kept op text written the way MLIR prints it: line breaks folded, dense elements, dense arrays and
StableHLO struct attributes in their canonical spelling (the parser's helpers for the text it keeps)."""
from __future__ import annotations

import re

from shardy_py.syntax.brackets import closing_angle
from shardy_py.syntax.dialect_symbols import canonical_dialect_symbols
from shardy_py.syntax.floats import canonical_dense
from shardy_py.syntax.stablehlo_attr_text import canonical_stablehlo_attrs

_WS_NL = re.compile(r"[ \t\r]*\n\s*")
_ARRAY = re.compile(r"array<(\w+)(?:\s*:\s*([^<>]*?))?\s*>")


def _canonical_array(m: re.Match) -> str:
    items = [x.strip() for x in (m.group(2) or "").split(",") if x.strip()]
    return f"array<{m.group(1)}: {', '.join(items)}>" if items else f"array<{m.group(1)}>"


_PADDED_INT_WIDTH = re.compile(r"(?:(?<![\w$.%@#!^])|(?<=[\d?]x))([su]?i)0+(?=\d)(?![\w$.]*\s*=)")
_STRING_OR_OPAQUE = re.compile(r'"(?:[^"\\]|\\.)*"|[#!]([A-Za-z_]\w*)[\w.]*<')


def unpadded_int_widths(text: str) -> str:
    """``text`` with integer type widths written with leading zeros (``i032``, ``ui008``) as MLIR prints
    them (``i32``, ``ui8``: the lexer reads the width as a number).  String literals and the bodies of
    dialect attributes and types MLIR keeps as written are left alone."""
    if "i0" not in text:
        return text
    out, pos = [], 0
    for m in _STRING_OR_OPAQUE.finditer(text):
        if m.start() < pos:
            continue
        if m.group(1) is not None and m.group(1) in _MODELLED_ATTR_DIALECTS:
            continue
        out.append(_PADDED_INT_WIDTH.sub(r"\1", text[pos:m.start()]))
        stop = m.end() if m.group(1) is None else closing_angle(text, m.end() - 1)
        if stop < 0:
            stop = len(text)
        out.append(text[m.start():stop])
        pos = stop
    out.append(_PADDED_INT_WIDTH.sub(r"\1", text[pos:]))
    return "".join(out)


def canonical_names(text: str) -> str:
    """Kept text with its integer widths (``i032``) and opaque dialect symbols (``!c<abc>``) spelled as MLIR
    prints them (the lexer's readings of names both parts of the parser keep as written)."""
    return canonical_dialect_symbols(unpadded_int_widths(text))


def canonical_piece(text: str) -> str:
    """Kept text with its dense elements, dense arrays and StableHLO struct attributes written as MLIR
    prints them."""
    text = canonical_names(text)
    if "array<" in text:
        text = _ARRAY.sub(_canonical_array, text)
    return canonical_stablehlo_attrs(canonical_dense(text))


def fold(s: str) -> str:
    """Line breaks folded the way MLIR prints the same text on one line."""
    s = re.sub(r"([(\[{<])\s*\n\s*", r"\1", s)
    s = re.sub(r"\s*\n\s*([)\]}>,])", r"\1", s)
    return _WS_NL.sub(" ", s)


def fold_keeping_opaque(s: str) -> str:
    """``fold``, except inside attributes of dialects MLIR keeps as written (``#sparse_tensor...<{..}>``)."""
    out, pos = [], 0
    for m in _DIALECT_ATTR_HEAD.finditer(s):
        if m.start() < pos or m.group(1) in _MODELLED_ATTR_DIALECTS:
            continue
        close = closing_angle(s, m.end() - 1)
        if close < 0:
            break
        out.append(fold(s[pos:m.start()]) if "\n" in s[pos:m.start()] else s[pos:m.start()])
        out.append(s[m.start():close])
        pos = close
    rest = s[pos:]
    out.append(fold(rest) if "\n" in rest else rest)
    return "".join(out)


_DIALECT_ATTR_HEAD = re.compile(r"#([A-Za-z_]\w*)[\w.]*<")
#: Attribute dialects shardy_py reads (their attributes print canonically, not as written).
_MODELLED_ATTR_DIALECTS = frozenset({"sdy", "stablehlo", "chlo", "mhlo"})
