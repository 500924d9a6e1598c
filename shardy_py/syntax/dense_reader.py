"""Reading ``dense<...>``, ``sparse<...>`` and ``array<...>`` attributes (MLIR's ``TensorLiteralParser``).

A tensor literal is a scalar (a splat), a ``"0x..."`` data blob, or nested lists whose shape must be
the type's; elements are integers (``true``/``false`` for ``i1``), floats (decimal, or hex bit
patterns), ``(re, im)`` pairs for complex types, or strings for any other element type.
"""
from __future__ import annotations

import re

from shardy_py.ir import builtin_attrs as B
from shardy_py.ir import types as T
from shardy_py.ir.dense_attrs import DenseElementsAttr, SparseElementsAttr, num_elements, scalar_layout
from shardy_py.syntax.numbers import LiteralError, decimal_float_bits, hex_float_bits, integer_value

_TOKEN = re.compile(r"""(?:\s+|//[^\n\r]*)*(?:
    (?P<punct>[\[\](),])
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<num>(?P<neg>-)?\s*(?:(?P<float>\d+\.\d*(?:[eE][-+]?\d+)?)|0x(?P<hex>[0-9a-fA-F]+)|(?P<int>\d+))(?![\w.]))
  | (?P<bool>true|false)(?![\w$.])
)""", re.X)
_HEX_BLOB = re.compile(r'\s*"0x([0-9a-fA-F]*)"\s*>')
_LIST_ERROR = "tensor literal is invalid; ranks are not consistent between elements"


class _Literal:
    """A parsed tensor literal: ``shape`` (None for a scalar), flat ``items`` (token matches, or pairs of
    them for ``(re, im)``) or the ``hex`` data."""

    __slots__ = ("shape", "items", "hex", "pos")

    def __init__(self, shape, items, hex_data, pos):
        self.shape, self.items, self.hex, self.pos = shape, items, hex_data, pos


def _literal(reader, pos: int, end: int, allow_hex: bool) -> tuple[_Literal, int]:
    """A tensor literal at ``pos``, up to (not including) the next top-level ``,`` or ``>``."""
    start = reader.skip(pos)
    if allow_hex:
        m = _HEX_BLOB.match(reader.text, start, end)
        if m:
            try:
                return _Literal(None, [], bytes.fromhex(m.group(1)), start), m.end() - 1
            except ValueError:
                raise reader.error("expected string containing hex digits starting with `0x`", start) from None
    items: list = []
    if start < end and reader.text[start] == "[":
        shape, pos = _list(reader, start, end, items)
        return _Literal(shape, items, None, start), pos
    pos = _element(reader, start, end, items)
    return _Literal(None, items, None, start), pos


def _next(reader, pos: int, end: int):
    m = _TOKEN.match(reader.text, pos, end)
    if not m:
        p = reader.skip(pos)
        raise reader.error(f"expected an element literal, found {reader.found(p, end)}", p)
    return m


def _element(reader, pos: int, end: int, items: list) -> int:
    m = _next(reader, pos, end)
    if m.group("punct") == "(":
        re_, im_ = _next(reader, m.end(), end), None
        if re_.group("punct") is not None:
            raise reader.error("expected a number in a complex element", re_.start("punct"))
        comma = reader.expect(re_.end(), end, ",", "between the parts of a complex element")
        im_ = _next(reader, comma, end)
        if im_.group("punct") is not None:
            raise reader.error("expected a number in a complex element", im_.start("punct"))
        items.append((re_, im_))
        return reader.expect(im_.end(), end, ")", "to close a complex element")
    if m.group("punct") is not None:
        raise reader.error(f"expected an element literal, found '{m.group('punct')}'", m.start("punct"))
    items.append(m)
    return m.end()


def _list(reader, pos: int, end: int, items: list) -> tuple[tuple[int, ...], int]:
    reader.enter(pos)
    try:
        pos += 1
        if (p := reader.optional(pos, end, "]")) is not None:
            return (0,), p
        child = None
        n = 0
        while True:
            at = reader.skip(pos)
            if at < end and reader.text[at] == "[":
                sub, pos = _list(reader, at, end, items)
            else:
                sub, pos = (), _element(reader, at, end, items)
            if child is None:
                child = sub
            elif sub != child:
                raise reader.error(_LIST_ERROR, at)
            n += 1
            if (p := reader.optional(pos, end, ",")) is not None:
                pos = p
                continue
            return (n, *child), reader.expect(pos, end, "]", "to close the tensor literal list")
    finally:
        reader.depth -= 1


def _int_item(reader, m, element: T.Type, in_array: bool = False) -> int:
    """The bits of the integer element ``m`` of ``element`` type (``in_array``: of a dense array, whose range
    error MLIR reports at the token after the element, having read it)."""
    if m.group("bool"):
        if not (isinstance(element, T.IntegerType) and element.width == 1):
            raise reader.error("expected i1 type for 'true' or 'false' values", m.start("bool"))
        return 1 if m.group("bool") == "true" else 0
    if m.group("float") is not None:
        raise reader.error("expected integer elements, but parsed floating-point", m.start("num"))
    if m.group("str") is not None:
        raise reader.error("expected integer elements, but parsed a string", m.start("str"))
    magnitude = int(m.group("hex"), 16) if m.group("hex") is not None else int(m.group("int"))
    try:
        return integer_value(magnitude, bool(m.group("neg")), element, "type")
    except LiteralError as e:
        if in_array and str(e).startswith("integer constant out of range"):
            raise reader.error("integer constant out of range", reader.skip(m.end())) from None
        raise reader.error(str(e), m.start("num")) from None


def _float_item(reader, m, element: T.Type) -> int:
    if m.group("num") is None:
        raise reader.error("expected floating-point elements, but parsed "
                           + ("a string" if m.group("str") else f"'{m.group('bool')}'"), m.start())
    fmt = B.float_format(element.text)
    try:
        if m.group("float") is not None:
            return decimal_float_bits(fmt, m.group("float"), bool(m.group("neg")))
        if m.group("hex") is not None:
            return hex_float_bits(fmt, m.group("hex"), bool(m.group("neg")))
    except LiteralError as e:
        raise reader.error(str(e), m.start("num")) from None
    raise reader.error("unexpected decimal integer literal for a floating point value; add a trailing dot to "
                       "make the literal a float", m.start("num"))


def _scalar_reader(element: T.Type):
    layout = scalar_layout(element)
    if layout is None:
        return None
    return _int_item if layout[0] == "int" else _float_item


def build_dense(reader, lit: _Literal, type_: T.Type, type_at: int) -> DenseElementsAttr:
    """The elements attribute of type ``type_`` for the literal ``lit`` (MLIR's checks and messages)."""
    if not isinstance(type_, (T.RankedTensorType, T.VectorType)):
        raise reader.error("elements literal must be a shaped type", type_at)
    if T.DYNAMIC in type_.shape:
        raise reader.error("elements literal type must have static shape", type_at)
    element = T.parse_type(type_.element_type)
    is_complex = isinstance(element, T.ComplexType)
    base = element.element if is_complex else element
    read = _scalar_reader(base)
    if lit.hex is not None:
        if read is None:
            raise reader.error(f"expected elements of integer, index, float or complex type for a hex literal, "
                               f"found {element}", lit.pos)
        try:
            return DenseElementsAttr.from_raw(type_, lit.hex)
        except ValueError:
            raise reader.error(f"elements hex data size is invalid for provided type: '{type_}'", lit.pos) from None
    count = num_elements(type_)
    if lit.shape is not None and lit.shape != tuple(type_.shape):
        raise reader.error(f"inferred shape of elements literal ([{', '.join(map(str, lit.shape))}]) does not match "
                           f"type ([{', '.join(map(str, type_.shape))}])", lit.pos)
    if not lit.items and count:
        raise reader.error(f"parsed zero elements, but type ({type_}) expected at least 1", lit.pos)
    if read is None:
        values = []
        for m in lit.items:
            if isinstance(m, tuple) or m.group("str") is None:
                at = m[0].start() if isinstance(m, tuple) else m.start()
                raise reader.error(f"expected string elements for element type {element}", at)
            values.append(reader.string(m.start("str"), m.end())[0])
    elif is_complex:
        values = []
        for m in lit.items:
            if not isinstance(m, tuple):
                raise reader.error(f"parsed a scalar, but type ('{element}') expects (re, im) elements", m.start())
            values.append((read(reader, m[0], base), read(reader, m[1], base)))
    else:
        values = [read(reader, x, base) for m in lit.items for x in (m if isinstance(m, tuple) else (m,))]
    if len(values) != count and len(values) != 1:
        raise reader.error(f"parsed {len(values)} elements, but type ({type_}) expected {count} elements", lit.pos)
    return DenseElementsAttr.from_values(type_, values)


def _elements_type(reader, pos: int, end: int) -> tuple[T.Type, int, int]:
    if (p := reader.optional(pos, end, ":")) is None:
        raise reader.error("expected ':'", reader.skip(pos))  # (MLIR's ``parseElementsLiteralType``)
    pos = p
    type_at = reader.skip(pos)
    t, pos = reader.type(type_at, end)
    return t, type_at, pos


def read_dense(reader, pos: int, end: int):
    """``dense<...> : type`` from just after ``dense<``."""
    if (p := reader.optional(pos, end, ">")) is not None:
        lit = _Literal(None, [], None, p - 1)
    else:
        lit, p = _literal(reader, pos, end, True)
        p = reader.expect(p, end, ">", "to close the dense elements literal")
    t, type_at, p = _elements_type(reader, p, end)
    return build_dense(reader, lit, t, type_at), p


def read_sparse(reader, pos: int, end: int):
    """``sparse<indices, values> : type`` from just after ``sparse<``."""
    empty = reader.optional(pos, end, ">")
    if empty is None:
        indices, p = _literal(reader, pos, end, False)
        p = reader.expect(p, end, ",", "between the indices and values of a sparse literal")
        values, p = _literal(reader, p, end, True)
        p = reader.expect(p, end, ">", "to close the sparse elements literal")
    else:
        p = empty
    t, type_at, p = _elements_type(reader, p, end)
    if not isinstance(t, (T.RankedTensorType, T.VectorType)):
        raise reader.error("elements literal must be a shaped type", type_at)
    i64 = "i64"
    if empty is not None:
        idx = DenseElementsAttr.from_values(T.RankedTensorType.get((0, len(t.shape)), i64), [])
        val = DenseElementsAttr.from_values(T.RankedTensorType.get((0,), t.element_type), [])
        return SparseElementsAttr(t, idx, val), p
    idx_shape = indices.shape if indices.shape is not None else (1, len(t.shape))
    idx = build_dense(reader, indices, T.RankedTensorType.get(idx_shape, i64), indices.pos)
    val_shape = values.shape if values.shape is not None else (idx_shape[0],)
    val = build_dense(reader, values, T.RankedTensorType.get(val_shape, t.element_type), values.pos)
    return SparseElementsAttr(t, idx, val), p


_ARRAY_TYPES = (T.IntegerType, T.FloatType)


def read_dense_array(reader, pos: int, end: int):
    """``array<i64: 1, 2>`` / ``array<i64>`` from just after ``array<``."""
    type_at = reader.skip(pos)
    t, pos = reader.type(type_at, end)
    if not isinstance(t, _ARRAY_TYPES):
        raise reader.error(f"expected integer or float type, got: '{t}'", type_at)
    width = t.width if isinstance(t, T.IntegerType) else B.float_format(t.text).width
    if width != 1 and width % 8:
        raise reader.error("element type bitwidth must be a multiple of 8", type_at)
    if (p := reader.optional(pos, end, ">")) is not None:
        return B.DenseArrayAttr(t, ()), p
    pos = reader.expect(pos, end, ":", "after the element type of a dense array")
    values = []
    is_bool = isinstance(t, T.IntegerType) and t.width == 1
    while True:
        m = _next(reader, pos, end)
        if is_bool and not m.group("bool"):
            raise reader.error("expected 'true' or 'false' values for i1 type", reader.skip(pos))
        if m.group("punct") is not None or m.group("str") is not None:
            raise reader.error(f"expected an element of the dense array, found {reader.found(m.start(), end)}",
                               reader.skip(pos))
        values.append(_int_item(reader, m, t, True) if isinstance(t, T.IntegerType) else _float_item(reader, m, t))
        pos = m.end()
        if (p := reader.optional(pos, end, ",")) is not None:
            pos = p
            continue
        return B.DenseArrayAttr(t, tuple(values)), reader.expect(pos, end, ">", "to close the dense array")
