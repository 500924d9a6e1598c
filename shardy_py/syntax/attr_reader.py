"""Reading any MLIR attribute or type from text into typed values (``ir.builtin_attrs``, ``ir.types``,
``ir.stablehlo_attrs``, the sdy attributes of ``ir.attrs``).

``AttrReader(text)`` is a recursive-descent reader over a span of ``text``:

* ``attribute(pos, end) -> (Attr, end_pos)``: one attribute, with the optional ``: type`` suffix where
  MLIR's grammar has one (integers, floats, strings, elements attributes); an integer without a type is
  an ``i64``, a float an ``f64``, as MLIR's parser makes them;
* ``type(pos, end) -> (Type, end_pos)``;
* ``attribute_dict(pos, end) -> (dict, offsets, end_pos)`` for ``{a = 1, b, "c d" = "x"}``.

Leading whitespace, newlines and ``//`` comments are skipped; the returned position is right after the
value.  Errors raise ``AttrSyntaxError(message, offset)`` with the offset in ``text`` of the offending
character.  ``parse_attribute`` / ``parse_mlir_type`` read a whole text, memoised by text: a module
repeats a few attribute and type texts many times, and the same text gives the same object.
"""
from __future__ import annotations

import functools
import re

from shardy_py.errors import AttrSyntaxError
from shardy_py.ir import builtin_attrs as B
from shardy_py.ir import types as T
from shardy_py.ir.attrs import UNIT_ATTR, Attr, OpaqueAttr
from shardy_py.syntax.dense_reader import read_dense, read_dense_array, read_sparse
from shardy_py.syntax.dialect_symbols import pretty_symbol
from shardy_py.syntax.numbers import LiteralError, decimal_float_bits, hex_float_bits, integer_value
from shardy_py.syntax.stablehlo_attr_reader import read_dialect_attr
from shardy_py.syntax.type_reader import BARE_ID, STRING, WS, TypeReader

_NUMBER = re.compile(r"(-)?\s*(?:(\d+\.\d*(?:[eE][-+]?\d+)?)|0x([0-9a-fA-F]+)|(\d+))(?![\w.])")
_I64 = T.IntegerType("i64", 64, "")
_F64 = T.FloatType("f64")
_I1 = T.IntegerType("i1", 1, "")
_ATTR_HEAD = re.compile(r"#([A-Za-z_][A-Za-z0-9_$]*)(?:\.([A-Za-z0-9_$.-]*))?")
#: Dialects whose attributes are read here (a name after the dialect's dot is due).
_PARSED_DIALECTS = frozenset({"sdy", "stablehlo", "chlo"})
_OPAQUE_BUILTINS = frozenset({"affine_map", "affine_set", "strided", "loc", "distinct"})


class AttrReader(TypeReader):
    """Reads attributes and types from ``text`` (see the module docstring)."""

    def attribute(self, pos: int, end: int) -> tuple[Attr, int]:
        """One attribute at ``pos`` (leading whitespace skipped); returns (attribute, position after it)."""
        pos = WS.match(self.text, pos, end).end()
        self.enter(pos)
        try:
            return self._attribute(pos, end)
        finally:
            self.depth -= 1

    def attribute_dict(self, pos: int, end: int) -> tuple[dict[str, Attr], dict[str, int], int]:
        """``{name = attr, unit_name, "quoted name" = attr}``: (entries in written order, offset of each
        name, position after ``}``); a bare name is the unit attribute; repeated names are an error."""
        pos = self.expect(pos, end, "{", "to open an attribute dictionary")
        self.enter(pos)
        try:
            return self._dict_body(pos, end)
        finally:
            self.depth -= 1

    # ---------------------------------------------------------------- grammar
    def _attribute(self, pos: int, end: int) -> tuple[Attr, int]:
        text = self.text
        c = text[pos] if pos < end else ""
        if c == "[":
            return self._array(pos + 1, end)
        if c == "{":
            entries, _, p = self._dict_body(pos + 1, end)
            return B.DictionaryAttr(tuple(entries.items())), p
        if c == '"':
            value, p = self.string(pos, end)
            t, p = self._optional_type(p, end)
            return B.StringAttr(value, t), p
        if c == "@":
            return self._symbol_ref(pos, end)
        if c == "#":
            return self._dialect_attr(pos, end)
        if c == "-" or c.isdigit():
            return self._number(pos, end)
        if c in "(!":
            t, p = self.type(pos, end)
            return B.TypeAttr(t), p
        m = BARE_ID.match(text, pos, end)
        if not m:
            raise self.error(f"expected an attribute, found {self.found(pos, end)}", pos)
        word, after = m.group(), m.end()
        if word in ("true", "false"):
            return B.BoolAttr(word == "true"), after
        if word == "unit":
            return UNIT_ATTR, after
        if after < end and text[after] == "<":
            if word == "dense":
                return read_dense(self, after + 1, end)
            if word == "array":
                return read_dense_array(self, after + 1, end)
            if word == "sparse":
                return read_sparse(self, after + 1, end)
            if word == "dense_resource":
                return self._dense_resource(after + 1, end)
        if word in _OPAQUE_BUILTINS:
            return self._opaque_builtin(pos, after, end)
        try:
            t, p = self.type(pos, end)
        except AttrSyntaxError as e:
            if e.offset == pos:  # (no type starts here either: MLIR's parseAttribute gives up on the token)
                raise self.error("expected attribute value", pos) from None
            raise
        return B.TypeAttr(t), p

    def _optional_type(self, pos: int, end: int) -> tuple[T.Type | None, int]:
        p = WS.match(self.text, pos, end).end()
        if p < end and self.text[p] == ":" and not self.text.startswith("::", p):
            return self.type(p + 1, end)
        return None, pos

    def _array(self, pos: int, end: int) -> tuple[Attr, int]:
        if (p := self.optional(pos, end, "]")) is not None:
            return B.ArrayAttr(()), p
        out = []
        while True:
            a, pos = self.attribute(pos, end)
            out.append(a)
            if (p := self.optional(pos, end, ",")) is not None:
                pos = p
                continue
            return B.ArrayAttr(tuple(out)), self.expect(pos, end, "]", "to close the array")

    def _dict_body(self, pos: int, end: int) -> tuple[dict[str, Attr], dict[str, int], int]:
        entries: dict[str, Attr] = {}
        offsets: dict[str, int] = {}
        if (p := self.optional(pos, end, "}")) is not None:
            return entries, offsets, p
        while True:
            pos = WS.match(self.text, pos, end).end()
            name_at = pos
            if pos < end and self.text[pos] == '"':
                name, pos = self.string(pos, end)
                if not name:
                    raise self.error("expected valid attribute name", name_at)
            else:
                m = BARE_ID.match(self.text, pos, end)
                if not m:
                    raise self.error(f"expected an attribute name, found {self.found(pos, end)}", pos)
                name, pos = m.group(), m.end()
            if name in entries:
                raise self.error(f"duplicate key '{name}' in dictionary attribute", name_at)
            if (p := self.optional(pos, end, "=")) is not None:
                value, pos = self.attribute(p, end)
            else:
                value = UNIT_ATTR
            entries[name] = value
            offsets[name] = name_at
            if (p := self.optional(pos, end, ",")) is not None:
                pos = p
                continue
            return entries, offsets, self.expect(pos, end, "}", "to close the attribute dictionary")

    def _symbol_ref(self, pos: int, end: int) -> tuple[Attr, int]:
        names = []
        while True:
            name_at = pos + 1
            if name_at < end and self.text[name_at] == '"':
                name, pos = self.string(name_at, end)
            else:
                m = BARE_ID.match(self.text, name_at, end)
                if not m:
                    raise self.error(f"expected a symbol name after '@', found {self.found(name_at, end)}", name_at)
                name, pos = m.group(), m.end()
            names.append(name)
            if self.text.startswith("::@", pos) and pos + 3 <= end:
                pos += 2
                continue
            return B.SymbolRefAttr(names[0], tuple(names[1:])), pos

    def _number(self, pos: int, end: int) -> tuple[Attr, int]:
        m = _NUMBER.match(self.text, pos, end)
        if not m:
            raise self.error(f"expected a number, found {self.found(pos, end)}", pos)
        negative, dec_float, hex_digits, dec_int = m.groups()
        t, after = self._optional_type(m.end(), end)
        try:
            if dec_float is not None:
                t = t or _F64
                if not isinstance(t, T.FloatType):  # (MLIR: at the token after the type)
                    raise self.error("floating point value not valid for specified type", self.skip(after))
                return B.FloatAttr(decimal_float_bits(B.float_format(t.text), dec_float, bool(negative)), t), after
            t = t or _I64
            if isinstance(t, T.FloatType):
                if hex_digits is None:
                    raise self.error("unexpected decimal integer literal for a floating point value; add a "
                                     "trailing dot to make the literal a float", m.start(4))
                return B.FloatAttr(hex_float_bits(B.float_format(t.text), hex_digits, bool(negative)), t), after
            if not isinstance(t, (T.IntegerType, T.IndexType)):  # (MLIR: at the literal)
                raise self.error("integer literal not valid for specified type", pos)
            magnitude = int(hex_digits, 16) if hex_digits is not None else int(dec_int)
            value = integer_value(magnitude, bool(negative), t)
        except LiteralError as e:
            at = m.start(3) if m.start(3) >= 0 else m.start(4) if m.start(4) >= 0 else pos
            if hex_digits is not None:
                at -= 2  # (the literal's token starts at its ``0x``)
            raise self.error(str(e), at if str(e).startswith("integer constant") else pos) from None
        if t == _I1:
            return B.BoolAttr(bool(value)), after
        return B.IntegerAttr(value, t), after

    def _dialect_attr(self, pos: int, end: int) -> tuple[Attr, int]:
        m = _ATTR_HEAD.match(self.text, pos, end)
        if not m:
            raise self.error(f"expected an attribute name after '#', found {self.found(pos + 1, end)}", pos + 1)
        stop = m.end()
        has_body = stop < end and self.text[stop] == "<"
        if has_body:
            stop = self.balanced_end(stop, end)
        dialect, name = m.group(1), m.group(2)
        if name == "" and dialect in _PARSED_DIALECTS:  # (``#sdy.``: the dialect's parser wants a keyword next)
            at = self.skip(m.end())
            if BARE_ID.match(self.text, at, end) is None:
                raise self.error("expected valid keyword", at)
            raise self.error(f"expected the attribute's name right after '#{dialect}.'", m.end())
        if dialect == "sdy" and has_body:
            from shardy_py.syntax.sdy_parser import parse_sdy

            try:
                return parse_sdy(self.text[pos:stop], "attribute"), stop
            except AttrSyntaxError as e:
                raise self.error(e.message, pos + e.offset) from None
        if dialect in ("stablehlo", "chlo") and has_body:
            attr = read_dialect_attr(self, dialect, name, m.end(), stop)
            if attr is not None:
                return attr, stop
        return OpaqueAttr(pretty_symbol("#", dialect, self.text[pos + 1 + len(dialect):stop])), stop

    def _dense_resource(self, pos: int, end: int) -> tuple[Attr, int]:
        pos = self.skip(pos)
        if pos < end and self.text[pos] == '"':
            handle, pos = self.string(pos, end)
        else:
            handle, pos = self.keyword(pos, end, "a resource handle")
        pos = self.expect(pos, end, ">", "to close dense_resource")
        pos = self.expect(pos, end, ":", "and the type of a dense_resource attribute")
        t, pos = self.type(pos, end)
        return B.DenseResourceElementsAttr(handle, t), pos

    def _opaque_builtin(self, pos: int, after: int, end: int) -> tuple[Attr, int]:
        p = after
        if self.text[pos:after] == "loc" and not self.text.startswith("(", self.skip(after)):
            raise self.error("expected '(' in inline location", self.skip(after))
        if self.text.startswith("[", p):  # distinct[N]<...>
            p = self.balanced_end(p, end)
        if p < end and self.text[p] in "<(":
            p = self.balanced_end(p, end)
        return OpaqueAttr(self.text[pos:p]), p


def _whole(reader: AttrReader, read, text: str):
    value, pos = read(0, len(text))
    pos = WS.match(text, pos).end()
    if pos != len(text):
        raise AttrSyntaxError(f"unexpected {reader.found(pos, len(text))} after the value", pos)
    return value


@functools.lru_cache(maxsize=65536)
def _cached_attribute(text: str):
    reader = AttrReader(text)
    try:
        return _whole(reader, reader.attribute, text), None
    except AttrSyntaxError as e:
        return None, AttrSyntaxError(e.message, e.offset)  # (not ``e``: its traceback holds the reader's frames)
    except RecursionError:
        return None, AttrSyntaxError("attribute nested too deeply", 0)


@functools.lru_cache(maxsize=16384)
def _cached_type(text: str):
    reader = AttrReader(text)
    try:
        return _whole(reader, reader.type, text), None
    except AttrSyntaxError as e:
        return None, AttrSyntaxError(e.message, e.offset)  # (a fresh error: none of the reader's frames kept)
    except RecursionError:
        return None, AttrSyntaxError("type nested too deeply", 0)


def parse_attribute(text: str) -> Attr:
    """The attribute written as the whole of ``text`` (memoised: the same text gives the same object)."""
    value, err = _cached_attribute(text)
    if err is not None:
        raise AttrSyntaxError(err.message, err.offset)
    return value


def parse_mlir_type(text: str) -> T.Type:
    """The type written as the whole of ``text`` (memoised); ``AttrSyntaxError`` when it is not one."""
    value, err = _cached_type(text)
    if err is not None:
        raise AttrSyntaxError(err.message, err.offset)
    return value


__all__ = ["AttrReader", "parse_attribute", "parse_mlir_type", "STRING"]
