"""Reading MLIR types from text: the lexical helpers and the type grammar of ``AttrReader``.

``TypeReader`` holds the text and offers small token readers (``skip``, ``expect``, ``keyword``,
``integer``, ``dims``, ``string``) that the attribute grammar (``attr_reader``) and the dialect
attribute readers (``ir.stablehlo_attrs``) share, plus ``type(pos, end)``.  Every reader takes a
position and a bound and returns ``(value, position after it)``; errors are
``shardy_py.errors.AttrSyntaxError`` with the offset, in the text, of the offending character.
"""
from __future__ import annotations

import re

from shardy_py.errors import AttrSyntaxError
from shardy_py.ir import types as T
from shardy_py.ir.types import K_DYNAMIC
from shardy_py.syntax.dialect_symbols import pretty_symbol

#: ``ShapedType::kDynamic``: what ``?`` reads as in StableHLO dimension lists (``dims``).
#: Nesting deeper than this (arrays in arrays, types in types, ...) is refused with an error.
MAX_DEPTH = 200

WS = re.compile(r"(?:\s+|//[^\n\r]*)*")
BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
INTEGER = re.compile(r"(-)?\s*(?:0x([0-9a-fA-F]+)|(\d+))(?![\w.])")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_DIM = re.compile(r"\s*(?:(\d+)|(\?))\s*x\s*")
_VECTOR_DIM = re.compile(r"\s*(?:(\d+)|\[\s*(\d+)\s*\])\s*x\s*")
_INT_TYPE = re.compile(r"(si|ui|i)(\d+)\Z")
_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|->|[<>()\[\]{}]')
_CLOSER = {"<": ">", "(": ")", "[": "]", "{": "}"}
_DIALECT_ID = re.compile(r"[!#]([A-Za-z_][A-Za-z0-9_$]*)(?:\.([A-Za-z0-9_$.-]*))?")  # (MLIR's id-punct: $ . _ -)
#: MLIR's builtin float type names.
FLOAT_NAMES = frozenset({
    "f16", "bf16", "f32", "f64", "f80", "f128", "tf32", "f8E5M2", "f8E4M3", "f8E3M4", "f8E4M3FN", "f8E5M2FNUZ",
    "f8E4M3FNUZ", "f8E4M3B11FNUZ", "f8E8M0FNU", "f6E3M2FN", "f6E2M3FN", "f4E2M1FN"})
_INT_LIMIT = 1 << 24  # MLIR's largest integer type width (IntegerType::kMaxWidth)


def _dims_of(text: str, matches) -> tuple[int, ...]:
    return tuple(T.DYNAMIC if m.group(2) is not None else int(m.group(1)) for m in matches)


_I64_MAX = (1 << 63) - 1


class TypeReader:
    """The token readers and the type grammar over ``text`` (a subclass provides ``attribute``, which
    tensor encodings and memref layouts are read with)."""

    def __init__(self, text: str):
        self.text = text
        self.depth = 0

    # ----------------------------------------------------------------- tokens
    def error(self, message: str, pos: int) -> AttrSyntaxError:
        return AttrSyntaxError(message, pos)

    def found(self, pos: int, end: int) -> str:
        """What is at ``pos``, for error messages."""
        if pos >= end:
            return "end of text"
        m = BARE_ID.match(self.text, pos, end) or STRING.match(self.text, pos, end)
        tok = m.group() if m else self.text[pos]
        return repr(tok if len(tok) <= 30 else tok[:27] + "...")

    def skip(self, pos: int) -> int:
        """Position after whitespace, newlines and ``//`` comments at ``pos``."""
        return WS.match(self.text, pos).end()

    def peek(self, pos: int, end: int) -> tuple[str, int]:
        """(the character at the next token, its position); ``""`` at the end."""
        pos = WS.match(self.text, pos, end).end()
        return (self.text[pos] if pos < end else ""), pos

    def expect(self, pos: int, end: int, literal: str, context: str) -> int:
        """Position after ``literal`` (whitespace skipped first); an error naming ``context`` otherwise."""
        pos = WS.match(self.text, pos, end).end()
        if self.text.startswith(literal, pos) and pos + len(literal) <= end:
            return pos + len(literal)
        raise self.error(f"expected '{literal}' {context}, found {self.found(pos, end)}", pos)

    def optional(self, pos: int, end: int, literal: str) -> int | None:
        """Position after ``literal`` when it comes next, else None."""
        pos = WS.match(self.text, pos, end).end()
        if self.text.startswith(literal, pos) and pos + len(literal) <= end:
            return pos + len(literal)
        return None

    def keyword(self, pos: int, end: int, what: str = "a keyword") -> tuple[str, int]:
        """A bare identifier."""
        pos = WS.match(self.text, pos, end).end()
        m = BARE_ID.match(self.text, pos, end)
        if not m:
            raise self.error(f"expected {what}, found {self.found(pos, end)}", pos)
        return m.group(), m.end()

    def integer(self, pos: int, end: int, what: str = "an integer") -> tuple[int, int]:
        """A decimal or hex integer literal with an optional ``-`` (its mathematical value)."""
        pos = WS.match(self.text, pos, end).end()
        m = INTEGER.match(self.text, pos, end)
        if not m:
            raise self.error(f"expected {what}, found {self.found(pos, end)}", pos)
        v = int(m.group(2), 16) if m.group(2) is not None else int(m.group(3))
        return (-v if m.group(1) else v), m.end()

    def int64(self, pos: int, end: int, what: str = "an integer") -> tuple[int, int]:
        """An integer that must fit in ``int64_t`` (``parseInteger`` of an ``int64_t``)."""
        start = self.skip(pos)
        v, pos = self.integer(start, end, what)
        if not -(1 << 63) <= v < (1 << 63):
            raise self.error("integer value too large", start)
        return v, pos

    def dims(self, pos: int, end: int, what: str = "dimension list") -> tuple[tuple[int, ...], int]:
        """``[1, ?, 2]`` (``?`` is ``K_DYNAMIC``): StableHLO's ``parseDimSizes``."""
        pos = self.expect(pos, end, "[", f"to open the {what}")
        out: list[int] = []
        if (p := self.optional(pos, end, "]")) is not None:
            return (), p
        while True:
            if (p := self.optional(pos, end, "?")) is not None:
                out.append(K_DYNAMIC)
                pos = p
            else:
                v, pos = self.int64(pos, end, f"an integer or '?' in the {what}")
                out.append(v)
            if (p := self.optional(pos, end, ",")) is not None:
                pos = p
                continue
            return tuple(out), self.expect(pos, end, "]", f"to close the {what}")

    def string(self, pos: int, end: int) -> tuple[str, int]:
        """A string literal's value."""
        from shardy_py.syntax.sdy_parser import StringEscapeError, unquote

        pos = WS.match(self.text, pos, end).end()
        m = STRING.match(self.text, pos, end)
        if not m:
            if pos < end and self.text[pos] == '"':
                raise self.error("unterminated string literal (expected '\"' before the end of the line)", pos)
            raise self.error(f"expected a string literal, found {self.found(pos, end)}", pos)
        try:
            return unquote(m.group()), m.end()
        except StringEscapeError as e:
            raise self.error(str(e), pos + e.offset) from None

    def balanced_end(self, pos: int, end: int) -> int:
        """Position after the bracket closing the one at ``pos`` (string literals and ``->`` skipped)."""
        stack: list[str] = []
        for m in _BRACKETS.finditer(self.text, pos, end):
            tok = m.group()
            if tok in _CLOSER:
                stack.append(_CLOSER[tok])
            elif len(tok) == 1:
                if not stack or stack[-1] != tok:
                    raise self.error(f"unbalanced '{tok}' in a dialect attribute or type body", m.start())
                stack.pop()
                if not stack:
                    return m.end()
        raise self.error(f"expected '{stack[-1] if stack else '>'}' to close the body opened here", pos)

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.depth = 0
            raise self.error(f"nesting deeper than {MAX_DEPTH} levels", pos)

    # ------------------------------------------------------------------ types
    def type(self, pos: int, end: int) -> tuple[T.Type, int]:
        """One type at ``pos`` (leading whitespace skipped); returns (type, position after it)."""
        pos = WS.match(self.text, pos, end).end()
        self.enter(pos)
        try:
            return self._type(pos, end)
        finally:
            self.depth -= 1

    def type_list(self, pos: int, end: int, close: str, context: str) -> tuple[tuple[T.Type, ...], int]:
        """Comma-separated types up to ``close`` (which may come at once)."""
        if (p := self.optional(pos, end, close)) is not None:
            return (), p
        out = []
        while True:
            t, pos = self.type(pos, end)
            out.append(t)
            if (p := self.optional(pos, end, ",")) is not None:
                pos = p
                continue
            return tuple(out), self.expect(pos, end, close, context)

    def _type(self, pos: int, end: int) -> tuple[T.Type, int]:
        text = self.text
        c = text[pos] if pos < end else ""
        if c == "(":
            inputs, pos = self.type_list(pos + 1, end, ")", "to close the function inputs")
            pos = self.expect(pos, end, "->", "in a function type")
            if (p := self.optional(pos, end, "(")) is not None:
                results, pos = self.type_list(p, end, ")", "to close the function results")
            else:
                r, pos = self.type(pos, end)
                results = (r,)
            return T.FunctionType.get(inputs, results), pos
        if c == "!":
            return self._dialect_type(pos, end)
        m = BARE_ID.match(text, pos, end)
        if not m:
            raise self.error("expected non-function type", pos)
        word = m.group()
        after = m.end()
        if word in FLOAT_NAMES:
            return T.FloatType(word), after
        im = _INT_TYPE.match(word)
        if im:
            width = int(im.group(2))
            if width > _INT_LIMIT:
                raise self.error(f"integer bitwidth is limited to {_INT_LIMIT} bits", pos)
            # MLIR reads the width as a number: ``i032`` is ``i32`` and prints so.
            return T.IntegerType.get(width, {"i": "", "si": "s", "ui": "u"}[im.group(1)]), after
        if word == "index":
            return T.IndexType("index"), after
        if word == "none":
            return T.NoneType("none"), after
        if word in ("tensor", "vector", "memref", "complex", "tuple"):
            if (p := self.optional(after, end, "<")) is None:
                raise self.error(f"expected '<' in {word} type", self.skip(after))
            return getattr(self, "_" + word)(p, end)
        raise self.error("expected non-function type", pos)

    def _element(self, pos: int, end: int, kind: str) -> tuple[T.Type, int]:
        start = self.skip(pos)
        t, pos = self.type(start, end)
        if isinstance(t, T.FunctionType):
            raise self.error(f"invalid {kind} element type {t}", start)
        return t, pos

    def _tensor(self, pos: int, end: int) -> tuple[T.Type, int]:
        if (p := self.optional(pos, end, "*")) is not None:
            p = self.expect(p, end, "x", "after '*' in an unranked tensor type")
            el, p = self._element(p, end, "tensor")
            p = self.expect(p, end, ">", "to close the tensor type")
            return T.UnrankedTensorType(f"tensor<*x{el}>", str(el)), p
        dims = []
        while m := _DIM.match(self.text, pos, end):
            dims.append(m)
            pos = m.end()
        shape = _dims_of(self.text, dims)
        self._check_dims(shape, [m.start(1) for m in dims])
        el, pos = self._element(pos, end, "tensor")
        enc = None
        if (p := self.optional(pos, end, ",")) is not None and self.optional(p, end, ">") is not None:
            pos = p  # (MLIR's encoding is an optional attribute: `tensor<f32,>` is `tensor<f32>`)
        elif p is not None:
            enc_at = self.skip(p)
            attr, pos = self.attribute(enc_at, end)
            bounds = getattr(attr, "bounds", None)
            if bounds is not None:
                self._verify_bounds(shape, bounds, enc_at)
            enc = str(attr)
        pos = self.expect(pos, end, ">", "to close the tensor type")
        el_text = str(el)
        return T.RankedTensorType(T.shaped_text("tensor", shape, el_text, (enc,) if enc else ()), shape,
                                  el_text, enc), pos

    def _verify_bounds(self, shape, bounds, pos: int) -> None:
        """StableHLO's ``verifyBounds`` of a ``#stablehlo.bounds`` tensor encoding."""
        if len(bounds) != len(shape):
            raise self.error(f"Bounds length is {len(bounds)}, expected it to be equal to rank {len(shape)} of the "
                             "tensor", pos)
        for i, (d, b) in enumerate(zip(shape, bounds, strict=True)):
            if d != T.DYNAMIC and b != K_DYNAMIC:
                raise self.error(f"Static dimension {i} cannot have a bound, use ShapedType::kDynamic to indicate "
                                 "a missing bound", pos)

    def _check_dims(self, shape, starts: list[int]) -> None:
        """MLIR's "invalid dimension" for a size past int64's largest (at the size)."""
        for d, at in zip(shape, starts, strict=True):
            if d > _I64_MAX:
                raise self.error("invalid dimension", at)

    def _vector(self, pos: int, end: int) -> tuple[T.Type, int]:
        shape, scalable, starts = [], [], []
        while m := _VECTOR_DIM.match(self.text, pos, end):
            shape.append(int(m.group(1) or m.group(2)))
            scalable.append(m.group(2) is not None)
            starts.append(m.start(1) if m.group(1) else m.start(2))
            pos = m.end()
        self._check_dims(shape, starts)
        el, pos = self._element(pos, end, "vector")
        pos = self.expect(pos, end, ">", "to close the vector type")
        dims = "".join(f"[{d}]x" if s else f"{d}x" for d, s in zip(shape, scalable, strict=True))
        return T.VectorType(f"vector<{dims}{el}>", tuple(shape), str(el), tuple(scalable)), pos

    def _memref(self, pos: int, end: int) -> tuple[T.Type, int]:
        from shardy_py.ir.builtin_attrs import elided_text

        if (p := self.optional(pos, end, "*")) is not None:
            p = self.expect(p, end, "x", "after '*' in an unranked memref type")
            el, p = self._element(p, end, "memref")
            space = None
            if (q := self.optional(p, end, ",")) is not None:
                a, p = self.attribute(q, end)
                space = elided_text(a)
            p = self.expect(p, end, ">", "to close the memref type")
            return T.UnrankedMemRefType(f"memref<*x{el}{', ' + space if space else ''}>", str(el), space), p
        dims = []
        while m := _DIM.match(self.text, pos, end):
            dims.append(m)
            pos = m.end()
        shape = _dims_of(self.text, dims)
        self._check_dims(shape, [m.start(1) for m in dims])
        el, pos = self._element(pos, end, "memref")
        extra: list[str] = []
        while (p := self.optional(pos, end, ",")) is not None:
            a, pos = self.attribute(p, end)
            extra.append(elided_text(a))
        pos = self.expect(pos, end, ">", "to close the memref type")
        layout = extra[0] if extra and extra[0].startswith(("affine_map<", "strided<", "#")) else None
        space = extra[-1] if extra and (len(extra) == 2 or layout is None) else None
        return T.MemRefType(T.shaped_text("memref", shape, str(el), extra), shape, str(el), layout, space), pos

    def _complex(self, pos: int, end: int) -> tuple[T.Type, int]:
        start = self.skip(pos)
        el, pos = self.type(start, end)
        if not isinstance(el, (T.IntegerType, T.FloatType)):
            raise self.error("invalid element type for complex", start)
        pos = self.expect(pos, end, ">", "to close the complex type")
        return T.ComplexType(f"complex<{el}>", el), pos

    def _tuple(self, pos: int, end: int) -> tuple[T.Type, int]:
        types, pos = self.type_list(pos, end, ">", "to close the tuple type")
        return T.TupleType("tuple<" + ", ".join(map(str, types)) + ">", types), pos

    def _dialect_type(self, pos: int, end: int) -> tuple[T.Type, int]:
        m = _DIALECT_ID.match(self.text, pos, end)
        if not m:
            raise self.error(f"expected a dialect type name after '!', found {self.found(pos + 1, end)}", pos + 1)
        stop = m.end()
        if stop < end and self.text[stop] == "<":
            stop = self.balanced_end(stop, end)
        dialect, name = m.group(1), m.group(2)
        if dialect == "stablehlo" and name == "token" and stop == m.end():
            return T.TokenType("!stablehlo.token"), stop
        if dialect == "stablehlo":
            return self._stablehlo_type(name, pos, m.end(), stop), stop
        if dialect == "quant" and name == "uniform" and stop > m.end():
            from shardy_py.syntax.quant_reader import read_uniform

            return read_uniform(self, m.end() + 1, stop - 1), stop
        return T.Type(pretty_symbol("!", dialect, self.text[pos + 1 + len(dialect):stop])), stop

    def _stablehlo_type(self, name: str | None, pos: int, lt: int, stop: int) -> T.Type:
        if name == "future" and stop > lt:
            types, p = self.type_list(lt + 1, stop, ">", "to close the future type")
            if not types:
                raise self.error("expected a type in !stablehlo.future<...>", lt + 1)
            for t in types:
                if not isinstance(t, T.RankedTensorType):
                    raise self.error(f"future element type must be a ranked tensor, but got {t}", lt + 1)
            return T.FutureType("!stablehlo.future<" + ", ".join(map(str, types)) + ">", types)
        raise self.error(f"unknown stablehlo type: {self.text[pos:stop]}", pos + len("!stablehlo."))  # (at its name)
