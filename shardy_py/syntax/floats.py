"""Float literals in MLIR text rewritten the way MLIR prints them: a literal of a float type, a
``dense<...>`` body of floats, the pieces of an op's kept text (the values themselves and their
printing, LLVM's ``APFloat``, are ``ir.floats``)."""
from __future__ import annotations

import re

from shardy_py.ir.floats import FORMATS, SEMANTICS, FloatType, apfloat_text, literal_bits, print_float
from shardy_py.syntax.dense import canonical_dense_elements

__all__ = ["FORMATS", "SEMANTICS", "FloatType", "apfloat_text", "canonical_dense", "canonical_dense_body",
           "canonical_dense_pieces", "canonical_dense_value", "canonical_float", "canonical_float_attr",
           "literal_bits", "print_float"]


def canonical_float(literal: str, type_name: str) -> str | None:
    """MLIR's spelling of ``literal`` as a ``type_name`` value; None when we do not model the type or literal."""
    if type_name not in FORMATS:
        return None
    ftype = FloatType(type_name)
    bits = literal_bits(ftype, literal)
    return None if bits is None else print_float(ftype, bits)


_DENSE_TOKEN = re.compile(r"\s*(?:([\[\],])|([-+]?\d+\.\d*(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+))")


def canonical_dense_body(body: str, type_name: str) -> str | None:
    """MLIR's print of ``dense<body>`` for a float tensor: canonical numbers, splats folded, ``[]`` -> empty.

    None when the body is not a plain (nested) list of float literals of a type we model.
    """
    if type_name not in FORMATS:
        return None
    ftype = FloatType(type_name)
    out: list[str] = []
    values: list[int] = []
    pos = 0
    body = body.strip()
    while pos < len(body):
        m = _DENSE_TOKEN.match(body, pos)
        if not m:
            return None
        pos = m.end()
        if m.group(1):
            out.append(m.group(1))
            continue
        bits = literal_bits(ftype, m.group(2))
        if bits is None:
            return None
        values.append(bits)
        out.append(print_float(ftype, bits))
    if not values:
        return "" if body.replace(" ", "") in ("", "[]") else None
    if len(set(values)) == 1:  # MLIR stores (and prints) a tensor of one repeated value as a splat
        return out[next(i for i, t in enumerate(out) if t not in "[],")]
    return "".join(t + " " if t == "," else t for t in out)


_FLOAT_ATTR = re.compile(r"([-+]?\d+\.\d*(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+)(?:\s*:\s*(\w+))?\Z")


def _bracket_end(text: str, i: int) -> int:
    """Index after the ``>`` closing the ``<`` at ``i`` (strings and ``->`` respected); -1 if none."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


_DENSE_TYPE = re.compile(r"\s*:\s*((?:tensor|vector)<)")


def canonical_dense(text: str) -> str:
    """``text`` with each ``dense<...> : tensor<...>`` printed as MLIR prints it (``syntax.dense``)."""
    if "dense<" not in text:
        return text
    out = []
    pos = 0
    i = text.find("dense<")
    while i >= 0:
        end = _bracket_end(text, i + 5)
        if end < 0:
            break
        m = _DENSE_TYPE.match(text, end)
        if m:
            type_end = _bracket_end(text, m.start(1) + len(m.group(1)) - 1)
            if type_end > 0:
                canonical = canonical_dense_elements(text[i + 6:end - 1], text[m.start(1):type_end])
                if canonical is not None:
                    out.append(text[pos:i])
                    out.append(canonical)
                    pos = end
        i = text.find("dense<", end)
    out.append(text[pos:])
    return "".join(out)


def canonical_dense_value(body: str, element_type: str) -> str:
    """``dense<body>`` as MLIR prints it for tensors of ``element_type`` (as written where we do not model it)."""
    canonical = canonical_dense_body(body, element_type)
    return f"dense<{body if canonical is None else canonical}>"


def canonical_float_attr(text: str) -> str | None:
    """MLIR's print of a float attribute such as ``2.0 : f32`` (``2.0`` alone is an f64); None if not one."""
    m = _FLOAT_ATTR.match(text)
    if not m or (m.group(1).startswith("0x") and not m.group(2)):
        return None  # a hex literal without a type is an integer
    type_name = m.group(2) or "f64"
    value = canonical_float(m.group(1), type_name)
    return None if value is None else f"{value} : {type_name}"


_TRAILING_DENSE = re.compile(r"dense<([^<>\"]*)>(\s*)\Z")
_LEADING_TYPE = re.compile(r"\s*:\s*(?:tensor|vector)<(?:[0-9?]+x)*(\w+)>")


def canonical_dense_pieces(pieces: list) -> list:
    """Printing pieces of an op with ``dense<...>`` values canonical, also where the value's type comes
    in a later text piece (as in ``stablehlo.constant dense<1.0> : tensor<f32>``, split at the attribute
    dictionary's place)."""
    out = list(pieces)
    for i, piece in enumerate(out):
        m = _TRAILING_DENSE.search(piece) if type(piece) is str and "dense<" in piece else None
        if not m:
            continue  # (a value typed within its own piece is canonical already: ``ModuleParser.template``)
        nxt = next((p for p in out[i + 1:] if type(p) is str), None)
        t = _LEADING_TYPE.match(nxt) if nxt is not None else None
        if t:
            out[i] = piece[:m.start()] + canonical_dense_value(m.group(1), t.group(1)) + m.group(2)
    return out
