"""The first error of a type or an attribute literal whose brackets do not balance, read as MLIR reads it
(the error path only).

The skeleton scan (``scanner``) finds an op's text by balancing brackets, and the op's syntax takes a type or
a literal as a balanced group; a ``tensor<8`` or a ``dense<[1, 2,`` cut at a line's end has none.  MLIR's
parser balances nothing: it reads the type's or the literal's grammar token by token over the text that
follows, the next lines included, and stops at the first token the grammar does not take (the next line's
``tensor`` where a dimension list wants an 'x', the next op's ``%0`` where a tensor literal wants an
element).  ``type_error``, ``attribute_error`` and ``dictionary_error`` read that grammar (MLIR's
``TypeParser.cpp`` and ``AttributeParser.cpp``: dimension lists, element types, encodings, function types,
``dense<...>`` tensor literals, ``array<...>`` dense arrays, pretty dialect names and aliases) and return its
first error as MLIR reports it: its message, at the token (``emitError``) or after the text before a wrong
token (``emitWrongTokenError``, ``wrong_token_offset``).  What they do not model (a dialect's own body grammar
that our readers reject, a memref, an out-of-range literal) gives None, and the caller keeps its own error.
"""
from __future__ import annotations

import contextlib
import re

from shardy_py.ir import stablehlo_attrs as S
from shardy_py.ir.types import K_DYNAMIC
from shardy_py.syntax.attr_reader import _cached_attribute, _cached_type
from shardy_py.syntax.scan_errors import pretty_body_failure
from shardy_py.syntax.scanner import wrong_token_offset
from shardy_py.syntax.stablehlo_mesh_attr_reader import MESH_MNEMONICS
from shardy_py.syntax.type_reader import FLOAT_NAMES

_WS = re.compile(r"(?:\s+|//[^\n\r]*)*")
#: One MLIR token (``Lexer.cpp``): (bare identifier | number | prefixed identifier | symbol | string | punctuation).
_TOKEN = re.compile(r"""
    (?P<id>[A-Za-z_][\w$.]*)
  | (?P<float>\d+\.\d*(?:[eE][-+]?\d+)?) | (?P<int>0x[0-9a-fA-F]+|\d+)
  | (?P<prefixed>[#!%^](?:\d+|[A-Za-z_$.\-][\w$.\-]*))
  | (?P<symbol>@(?:[A-Za-z_][\w$.]*|"(?:[^"\\\n]|\\.)*"))
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<punct>->|\.\.\.|::|[<>\[\](){},:=?*+|\-])
""", re.X)
_INT_TYPE = re.compile(r"(?:si|ui|i)(\d+)\Z")
_SHAPED_KEYWORDS = frozenset({"tensor", "vector", "memref", "complex", "tuple"})
#: The tokens ``parseOptionalType`` takes as the start of a type.
_TYPE_WORDS = _SHAPED_KEYWORDS | FLOAT_NAMES | {"index", "none"}
#: The keywords ``parseOptionalAttribute`` takes as the start of an attribute (besides numbers, strings, ...).
_ATTRIBUTE_WORDS = frozenset({"affine_map", "affine_set", "dense", "dense_resource", "false", "loc", "sparse",
                              "true", "unit", "array", "distinct"})
#: Element types a tensor may not have (builtin types other than numbers, vectors and opaque types).
_NOT_TENSOR_ELEMENTS = frozenset({"function", "none", "tensor", "memref", "tuple"})
#: The StableHLO attributes written ``#stablehlo.NAME<...>`` (its enums and structs, the encodings, the meshes).
_STABLEHLO_PRETTY = frozenset(
    {m for d, m in (*S.ENUMS_BY_KEY, *S.STRUCTS_BY_KEY) if d == "stablehlo" and m} | MESH_MNEMONICS
    | {"bounds", "type_extensions", "conv", "channel_handle", "dot", "dot_algorithm", "gather", "scatter",
       "output_operand_alias", "result_accuracy"})
#: The sdy attributes (Shardy's ``attrs.td``).
_SDY_PRETTY = frozenset({
    "mesh_axis", "mesh", "sub_axis_info", "axis_ref", "dimension_sharding", "sharding", "sharding_per_value",
    "dim_mapping", "tensor_mapping", "op_sharding_rule", "all_to_all_param", "edge_value_ref",
    "axis_to_propagation_details", "propagation_one_step", "manual_axes", "axis_ref_list", "list_of_axis_ref_lists",
    "all_to_all_param_list", "propagation_edges"})
_MAX_DIMENSION = (1 << 63) - 1


class _Stop(Exception):
    """MLIR's first error: at ``offset``, ``message``; ``literal``: met inside a type or a literal."""

    def __init__(self, offset: int, message: str, literal: bool = False):
        super().__init__(message)
        self.offset, self.message, self.literal = offset, message, literal


class _Unmodelled(Exception):
    """Text whose grammar is not modelled here: the caller keeps its own error."""


class _Reader:
    """MLIR's lexer and the parts of its grammar named in the module's doc, from ``pos`` of ``text`` (comments
    blanked) to the end; ``source``: the text with comments (pretty dialect bodies are scanned as written)."""

    def __init__(self, text: str, source: str, pos: int, aliases: dict[str, str]):
        self.text, self.source, self.aliases = text, source, aliases
        self.literal = 0  # how many types or literals are being read
        self.lex(pos)

    # ------------------------------------------------------------------ tokens
    def lex(self, pos: int) -> None:
        """Make the token at ``pos`` (white space skipped) the current one: ``kind``, ``start``, ``end``."""
        text = self.text
        self.prev_end = pos  # (the end of the token before: white space and comments are skipped from there)
        pos = _WS.match(text, pos).end()
        self.start = pos
        if pos >= len(text):
            self.kind, self.end = "eof", pos
            return
        m = _TOKEN.match(text, pos)
        if m is None:
            if text[pos] == '"' and (nl := text.find("\n", pos)) >= 0 and '"' not in text[pos + 1:nl]:
                raise self.stop(nl, "expected '\"' in string literal")
            raise _Unmodelled  # (a character no token starts with, a bad escape: the lexer's own errors)
        self.kind, self.end = m.lastgroup, m.end()
        if self.kind == "punct":
            self.kind = m.group()

    @contextlib.contextmanager
    def inside_a_literal(self):
        """Errors met in the ``with`` block are met inside a type or a literal (``literal``)."""
        self.literal += 1
        try:
            yield
        finally:
            self.literal -= 1

    def advance(self) -> None:
        self.lex(self.end)

    @property
    def word(self) -> str:
        return self.text[self.start:self.end] if self.kind == "id" else ""

    def stop(self, offset: int, message: str) -> _Stop:
        return _Stop(offset, message, self.literal > 0)

    def here(self, message: str) -> _Stop:
        """``emitError``: at the current token."""
        return self.stop(self.start, message)

    def wrong(self, message: str) -> _Stop:
        """``emitWrongTokenError``: after the text before the current token."""
        return self.stop(wrong_token_offset(self.text, self.start), message)

    def expect(self, kind: str, message: str) -> None:
        """``parseToken``."""
        if self.kind != kind:
            raise self.wrong(message)
        self.advance()

    # ------------------------------------------------------------------- types
    def type(self) -> str:
        """``parseType``; returns the type's kind (``function``, ``int8``, ``float``, ``tensor``, ...)."""
        with self.inside_a_literal():
            if self.kind == "(":
                self.type_list_parens()
                self.expect("->", "expected '->' in function type")
                if self.kind == "(":
                    self.type_list_parens()
                else:
                    self.non_function_type()
                return "function"
            return self.non_function_type()

    def items_until(self, read, close: str, message: str) -> None:
        """``close`` at once, or ``read()`` items separated by ',' and then ``close`` (``message`` if not)."""
        if self.kind == close:
            self.advance()
            return
        read()
        while self.kind == ",":
            self.advance()
            read()
        self.expect(close, message)

    def type_list_parens(self) -> None:
        self.expect("(", "expected '('")
        self.items_until(self.type, ")", "expected ')'")

    def non_function_type(self) -> str:
        word = self.word
        if word in _SHAPED_KEYWORDS:
            self.advance()
            return getattr(self, "_" + word)()
        if word in FLOAT_NAMES or word in ("index", "none"):
            self.advance()
            return "float" if word in FLOAT_NAMES else word
        if m := _INT_TYPE.match(word):
            width = int(m.group(1))
            if width >= 1 << 32:
                raise self.here("invalid integer width")
            if width >= 1 << 24:
                raise _Unmodelled
            self.advance()
            return f"int{width}"
        if self.kind == "prefixed" and self.text[self.start] == "!":
            return self.extended()
        raise self.wrong("expected non-function type")

    def ranked_dimensions(self) -> list[int]:
        """``parseDimensionListRanked`` with the trailing 'x'."""
        dims: list[int] = []
        while self.kind in ("int", "?"):
            spelling = self.text[self.start:self.end]
            if self.kind == "?":
                dims.append(-1)
                self.advance()
            elif len(spelling) > 1 and spelling[1] == "x":  # (`0x...`: a 0, then the 'x')
                dims.append(0)
                self.lex(self.start + 1)
            else:
                if int(spelling) > _MAX_DIMENSION:
                    raise self.here("invalid dimension")
                dims.append(int(spelling))
                self.advance()
            self.x_in_dimensions()
        return dims

    def x_in_dimensions(self) -> None:
        if self.kind != "id" or self.text[self.start] != "x":
            raise self.wrong("expected 'x' in dimension list")
        if self.end - self.start > 1:
            self.lex(self.start + 1)  # (`xf32`: the lexer goes on after the 'x')
        else:
            self.advance()

    def _tensor(self) -> str:
        self.expect("<", "expected '<' in tensor type")
        dims = None
        if self.kind == "*":
            self.advance()
            self.x_in_dimensions()
        else:
            dims = self.ranked_dimensions()
        element_at = self.start
        element = self.type()
        if self.kind == ",":
            self.advance()
            encoding_at = self.start
            self.optional_attribute()
            if self.text.startswith(("#stablehlo.bounds<", "#stablehlo.type_extensions<"), encoding_at):
                bounds = getattr(_cached_attribute(self.text[encoding_at:self.prev_end])[0], "bounds", ())
                if dims is None or len(bounds) != len(dims) or any(
                        d != -1 and b != K_DYNAMIC for d, b in zip(dims, bounds, strict=True)):
                    raise _Unmodelled  # (``verifyEncoding``'s messages print the type)
        self.expect(">", "expected '>' in tensor type")
        if element in _NOT_TENSOR_ELEMENTS:
            raise self.stop(element_at, "invalid tensor element type")
        return "tensor"

    def _vector(self) -> str:
        self.expect("<", "expected '<' in vector type")
        while self.kind in ("int", "["):
            scalable = self.kind == "["
            if scalable:
                self.advance()
            if self.kind != "int" or self.text[self.start:self.end] in ("0", "0x"):
                raise _Unmodelled
            self.advance()
            if scalable and self.kind != "]":
                raise self.wrong("missing ']' closing scalable dimension")
            if scalable:
                self.advance()
            self.x_in_dimensions()
        element_at = self.start
        element = self.type()
        self.expect(">", "expected '>' in vector type")
        if not element.startswith(("int", "float", "index")):
            raise self.stop(element_at, "vector elements must be int/index/float type")
        return "vector"

    def _memref(self) -> str:
        raise _Unmodelled

    def _complex(self) -> str:
        self.expect("<", "expected '<' in complex type")
        element_at = self.start
        element = self.type()
        self.expect(">", "expected '>' in complex type")
        if not element.startswith(("int", "float")):
            raise self.stop(element_at, "invalid element type for complex")
        return "complex"

    def _tuple(self) -> str:
        self.expect("<", "expected '<' in tuple type")
        self.items_until(self.type, ">", "expected '>' in tuple type")
        return "tuple"

    # -------------------------------------------------------- dialect symbols
    def extended(self) -> str:
        """``parseExtendedSymbol`` of the ``#...``/``!...`` token at the cursor: an alias, a pretty name
        (``#dialect.name<...>``) or a dialect body (``#dialect<...>``)."""
        start, end = self.start, self.end
        sigil, name = self.text[start], self.text[start + 1:end]
        dialect, dot, mnemonic = name.partition(".")
        self.advance()
        has_body = self.kind == "<" and self.start == end
        if not has_body and not dot:
            if sigil + name not in self.aliases:  # (a value's error, wherever the value stands: ``literal``)
                raise _Stop(wrong_token_offset(self.text, self.start), f"undefined symbol alias id '{name}'", True)
            return "alias"
        if has_body:
            failure = pretty_body_failure(self.source, end)
            if failure is not None:
                raise self.stop(*failure)
            stop = self._body_end(end)
            read = _cached_type if sigil == "!" else _cached_attribute
            if read(self.text[start:stop])[1] is not None:
                raise _Unmodelled  # (the dialect's own grammar rejects the body: not modelled here)
            self.lex(stop)
            return "dialect"
        # a pretty name without a body: the dialect reads its mnemonic from the text after the '.' on
        at = _WS.match(self.text, start + 1 + len(dialect) + 1).end()
        keyword = re.match(r"[A-Za-z_][\w$.]*", self.text[at:at + 200]) if at < len(self.text) else None
        if keyword is None and dialect == "stablehlo":
            raise self.stop(at, "expected valid keyword")
        if sigil == "!" and dialect == "stablehlo":
            if keyword.group() not in ("token", "future"):
                raise self.stop(at, f"unknown stablehlo type: {keyword.group()}")
            if at == start + len("!stablehlo.") and keyword.group() == "token":
                return "dialect"
            if at == start + len("!stablehlo.") and self.kind != "<":
                raise self.wrong("expected '<'")  # (!stablehlo.future<...>)
        elif sigil == "#" and dialect == "stablehlo":
            if keyword.group() not in _STABLEHLO_PRETTY:
                raise self.stop(at, "unknown StableHLO attribute")
            if at == start + len("#stablehlo.") and self.kind != "<":
                raise self.wrong("expected '<'")
        elif sigil == "#" and dialect == "sdy" and keyword is not None and keyword.group() not in _SDY_PRETTY:
            raise self.stop(at, f"unknown attribute `{keyword.group()}` in dialect `sdy`")
        raise _Unmodelled

    def _body_end(self, lt: int) -> int:
        """The end of the dialect body opened at ``lt`` (which ``pretty_body_failure`` found closed)."""
        depth, i, source = 0, lt, self.source
        while True:
            c = source[i]
            i += 1
            if c in "<[({":
                depth += 1
            elif c == "-" and source.startswith(">", i):
                i += 1
            elif c in ">])}":
                depth -= 1
                if not depth:
                    return i
            elif c == '"':
                i = re.compile(r'"(?:[^"\\\n]|\\.)*"').match(source, i - 1).end()

    # --------------------------------------------------------------- attributes
    def optional_attribute(self) -> None:
        """``parseOptionalAttribute``: an attribute, a type, or nothing."""
        if self.kind in ("int", "float", "-", "string", "[", "{", "symbol") or self.word in _ATTRIBUTE_WORDS or (
                self.kind == "prefixed" and self.text[self.start] == "#"):
            self.attribute()
        elif self.kind == "(" or self.word in _TYPE_WORDS or _INT_TYPE.match(self.word) or (
                self.kind == "prefixed" and self.text[self.start] == "!"):
            self.type()

    def attribute(self) -> None:
        """``parseAttribute`` (the kinds named in the module's doc)."""
        kind, word = self.kind, self.word
        if kind == "prefixed" and self.text[self.start] == "#":
            self.extended()
        elif word == "dense":
            self.dense()
        elif word == "array":
            self.dense_array()
        elif word in ("true", "false", "unit"):
            self.advance()
        elif kind in ("int", "float", "-"):
            if kind == "-":
                self.advance()
                if self.kind not in ("int", "float"):
                    raise self.wrong("expected constant integer or floating point value")
            self.advance()
            self.optional_colon_type()
        elif kind == "string":
            self.advance()
            self.optional_colon_type()
        elif kind == "[":
            self.array()
        elif kind == "{":
            self.dictionary()
        elif kind == "symbol":
            self.advance()
            if self.kind == "::":
                raise _Unmodelled
        elif word in _ATTRIBUTE_WORDS:
            raise _Unmodelled
        elif kind == "(" or word in _TYPE_WORDS or _INT_TYPE.match(word) or (
                kind == "prefixed" and self.text[self.start] == "!"):
            self.type()
        else:
            raise self.wrong("expected attribute value")

    def array(self) -> None:
        """An array attribute, ``[a, ...]`` (a literal: its errors are ``literal``)."""
        with self.inside_a_literal():
            self.advance()
            self.items_until(self.attribute, "]", "expected ',' or ']'")

    def optional_colon_type(self) -> None:
        if self.kind == ":":
            self.advance()
            self.type()

    def dictionary(self) -> None:
        """``parseAttributeDict`` from its '{'."""
        self.expect("{", "expected '{' in attribute dictionary")
        if self.kind == "}":
            self.advance()
            return
        while True:
            if self.kind not in ("id", "string"):
                raise self.wrong("expected attribute name")
            self.advance()
            if self.kind == "=":
                self.advance()
                self.attribute()
            if self.kind != ",":
                break
            self.advance()
        self.expect("}", "expected '}' in attribute dictionary")

    def dense(self) -> None:
        """``parseDenseElementsAttr`` without a given type: ``dense<literal> : type``."""
        with self.inside_a_literal():
            self.advance()
            self.expect("<", "expected '<' after 'dense'")
            if self.kind == ">":
                self.advance()
            else:
                if self.kind == "string":
                    self.advance()
                elif self.kind == "[":
                    self.literal_list()
                else:
                    self.element()
                self.expect(">", "expected '>'")
            self.expect(":", "expected ':'")
            type_at = self.start
            if self.type() not in ("tensor", "vector"):
                raise self.stop(type_at, "elements literal must be a shaped type")

    def literal_list(self) -> list[int]:
        """``TensorLiteralParser::parseList``: its shape."""
        self.advance()
        if self.kind == "]":
            self.advance()
            return [0]
        first: list[int] | None = None
        size = 0
        while True:
            if self.kind == "[":
                dims = self.literal_list()
            else:
                self.element()
                dims = []
            size += 1
            if first is None:
                first = dims
            elif dims != first:
                raise self.here("tensor literal is invalid; ranks are not consistent between elements")
            if self.kind != ",":
                break
            self.advance()
        self.expect("]", "expected ']'")
        return [size, *first]

    def element(self) -> None:
        """``TensorLiteralParser::parseElement``."""
        if self.kind in ("int", "float", "string") or self.word in ("true", "false"):
            self.advance()
        elif self.kind == "-":
            self.advance()
            if self.kind not in ("int", "float"):
                raise self.here("expected integer or floating point literal")
            self.advance()
        elif self.kind == "(":
            self.advance()
            self.element()
            self.expect(",", "expected ',' between complex elements")
            self.element()
            self.expect(")", "expected ')' after complex elements")
        else:
            raise self.here("expected element literal of primitive type")

    def dense_array(self) -> None:
        """``parseDenseArrayAttr``: ``array<type>`` or ``array<type: e, ...>``."""
        with self.inside_a_literal():
            self.advance()
            self.expect("<", "expected '<' after 'array'")
            type_at = self.start
            element = self.type()
            if element.startswith("int"):
                width = int(element[3:])
                if width != 1 and width % 8:
                    raise self.stop(type_at, "element type bitwidth must be a multiple of 8")
            elif element != "float":
                raise _Unmodelled  # (its message prints the type)
            if self.kind == ">":
                self.advance()
                return
            self.expect(":", "expected ':' after dense array type")
            while True:
                negative = self.kind == "-"
                if negative:
                    self.advance()
                if element == "float":
                    if self.kind == "int":
                        raise _Unmodelled  # (an integer read as a float's bits)
                    if self.kind != "float":
                        raise self.here("expected floating point literal")
                elif self.word in ("true", "false"):
                    if element != "int1":
                        raise self.here("expected i1 type for 'true' or 'false' values")
                elif self.kind != "int":
                    raise self.here("expected integer literal")
                elif element != "int64" or negative:
                    raise _Unmodelled  # (the range of its element type)
                self.advance()
                if self.kind != ",":
                    break
                self.advance()
            self.expect(">", "expected '>' to close an array attribute")


def _read(parser, pos: int, read: str, literal_only: bool) -> tuple[int, str] | None:
    aliases = parser.type_aliases.keys() | parser.attr_aliases.keys()
    try:
        reader = _Reader(parser.text, getattr(parser.scanner, "source", parser.text), pos, dict.fromkeys(aliases, ""))
        getattr(reader, read)()
    except _Stop as stop:
        return None if literal_only and not stop.literal else (stop.offset, stop.message)
    except (_Unmodelled, RecursionError, IndexError):
        return None
    return None


def type_error(parser, pos: int) -> tuple[int, str] | None:
    """MLIR's first error reading the type at ``pos`` of ``parser``'s text (the rest of the text read on), as
    (offset, message); None when the type reads whole or its grammar is not modelled here."""
    return _read(parser, pos, "type", False)


def attribute_error(parser, pos: int) -> tuple[int, str] | None:
    """Like ``type_error``, for the attribute at ``pos``."""
    return _read(parser, pos, "attribute", False)


def dictionary_error(parser, pos: int) -> tuple[int, str] | None:
    """MLIR's first error inside a type or a literal of the attribute dictionary at ``pos`` (its '{'); None
    when the first error is elsewhere (the dictionary's own syntax: its reader's), or not modelled here."""
    return _read(parser, pos, "dictionary", True)
