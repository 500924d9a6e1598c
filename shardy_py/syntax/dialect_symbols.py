"""How MLIR prints an attribute or type of a dialect it keeps opaque (``#foo.bar<...>``, ``!foo<...>``).

MLIR stores such a symbol as its dialect and the text after it, then prints it in the "pretty" form
``!foo.bar<1>`` when that text is simple enough (a letter first, then letters, digits, ``.`` and ``_``,
optionally followed by one ``<...>`` body), and in the angle form ``!foo<text>`` otherwise: ``!c.`` prints as
``!c<>``, ``!c.1.`` as ``!c<1.>``, ``!c.a-b<1>`` as ``!c<a-b<1>>``, and ``!c<abc>`` as ``!c.abc``
(``isDialectSymbolSimpleEnoughForPrettyForm`` in MLIR's AsmPrinter).  ``pretty_symbol`` gives that spelling
for one symbol, ``canonical_dialect_symbols`` for every such symbol in a kept attribute's text.
"""
from __future__ import annotations

import re

from shardy_py.syntax.brackets import closing_angle

#: Dialects whose attributes and types are read and printed by their own rules, not kept opaque.
_OWN_SYNTAX = frozenset({"sdy", "stablehlo", "chlo", "mhlo", "vhlo", "builtin"})
#: A symbol whose spelling MLIR would change: the angle form right after the dialect, or a name after the dot
#: that is not a letter-led identifier of letters, digits, ``.`` and ``_``.
_MAY_CHANGE = re.compile(r"(?:(?<![\w$.%@#!^-])|(?<=[\d?]x))[#!][A-Za-z_][\w$]*(?:<|\.(?![A-Za-z][\w.]*(?![\w$.-])))")
_SYMBOL = re.compile(r'"(?:[^"\\]|\\.)*"|(?:(?<![\w$.%@#!^-])|(?<=[\d?]x))([#!])([A-Za-z_][\w$]*)(\.[\w$.-]*)?(<)?')
_SIMPLE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._]*")


def _simple(symbol: str) -> bool:
    m = _SIMPLE_NAME.match(symbol)
    if m is None:
        return False
    rest = symbol[m.end():]
    return not rest or (rest[0] == "<" and rest[-1] == ">")


def pretty_symbol(prefix: str, dialect: str, rest: str) -> str:
    """MLIR's spelling of the symbol ``prefix + dialect + rest`` (``rest``: ``.name``, ``.name<body>`` or
    ``<body>``), for a dialect MLIR keeps opaque."""
    if dialect in _OWN_SYNTAX:
        return prefix + dialect + rest
    if rest.startswith("."):
        symbol = rest[1:]
    elif rest.startswith("<") and rest.endswith(">"):
        symbol = rest[1:-1]
    else:
        return prefix + dialect + rest
    return f"{prefix}{dialect}.{symbol}" if _simple(symbol) else f"{prefix}{dialect}<{symbol}>"


def canonical_dialect_symbols(text: str) -> str:
    """``text`` (an attribute kept as written) with each opaque dialect symbol in it spelled as MLIR prints it;
    string literals are left alone.  Cheap when nothing would change (one search)."""
    if _MAY_CHANGE.search(text) is None:
        return text
    out, pos = [], 0
    for m in _SYMBOL.finditer(text):
        if m.group(1) is None or m.start() < pos:
            continue
        stop = m.end()
        if m.group(4):
            stop = closing_angle(text, m.end() - 1)
            if stop < 0:
                return text  # (a body that does not close: MLIR's lexer says so elsewhere)
        out.append(text[pos:m.start()])
        out.append(pretty_symbol(m.group(1), m.group(2), text[m.start() + 1 + len(m.group(2)):stop]))
        pos = stop
    out.append(text[pos:])
    return "".join(out)
