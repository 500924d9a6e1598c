"""``Cursor``: reads one op's text after its name, the way MLIR's ``OpAsmParser`` reads an op's custom
form: white space, literals, keywords, value uses, types, attributes, attribute dictionaries and
the regions the scanner found (``syntax.scanner``).

An op's syntax (its assembly format, ``syntax.format_parse``, or a hand-written parser in
``dialects/``) drives a cursor over ``[pos, end)`` of the source; errors are located
``ParseError``s of the ``ModuleParser`` that owns the text.
"""
from __future__ import annotations

import re

from shardy_py.errors import ParseError
from shardy_py.ir import attrs as A
from shardy_py.ir.types import RankedTensorType, Type, UnrankedTensorType, parse_type
from shardy_py.syntax import torn
from shardy_py.syntax.attr_reader import _cached_type
from shardy_py.syntax.dialect_attr_check import check_dialect_attributes
from shardy_py.syntax.scanner import end_of_input_offset, is_wrong_token_error, wrong_token_offset

_VALUE_USE = re.compile(r"%[\w$.-]+(?:#\d+)?")
_BARE_ID = re.compile(r"[A-Za-z_][\w$.]*")
_SYMBOL = re.compile(r'@(?:[A-Za-z_][\w$.]*|"(?:[^"\\]|\\.)*")')
#: A type's head: a dialect type's name may hold MLIR's id-punct ($ . _ -).
_TYPE_HEAD = re.compile(r"![A-Za-z_][\w$.-]*|[A-Za-z_][\w$.]*")
#: Builtin types whose parameters follow in '<...>' (MLIR's parser takes blanks and line breaks before it).
_BRACKETED_BUILTIN_TYPES = frozenset({"tensor", "vector", "memref", "complex", "tuple"})
#: What the lenient ``parse_type`` may make of text that is no type (checked against the strict reader).
_LOOSE_KINDS = (RankedTensorType, UnrankedTensorType)
_PLAIN_TENSOR = re.compile(r"tensor<(?:[\d?]+x)*[A-Za-z_]\w*>")  # no encoding, no nested brackets
_SPACES = re.compile(r"[ \t\r]*")
_TYPE_START = re.compile(r"(?:tensor|tuple|complex|memref|vector|none|index|[isu]i?\d+|[bf]\w*\d\w*|f\d+)\b")
_ATTR_ATOM = re.compile(r'"(?:[^"\\]|\\.)*"|@(?:[\w$.]+|"(?:[^"\\]|\\.)*")(?:::@(?:[\w$.]+|"(?:[^"\\]|\\.)*"))*|'
                        r'[#!][\w$.-]*|-?0x[0-9a-fA-F]+|-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|[A-Za-z_][\w$.]*|[\[{(]')
_TYPED_ATOM = re.compile(r"-?\d|-?0x|dense<|sparse<|dense_resource<")
#: A dialect type name without a dialect (no '.', no body): an alias's name (``Cursor.type``, aliases written out).
_BARE_TYPE_NAME = re.compile(r"!([A-Za-z_$\-][\w$\-]*)(?![\w$.\-<])")
#: Type texts the strict reader has accepted (``Cursor.type``).
_CHECKED_TYPES: set[str] = set()
#: What an attribute's grammar expects that MLIR reports at the token found instead (``parseInteger``,
#: ``parseString``, ``parseKeyword``: ``emitError`` at the current token); the rest are wrong tokens (as
#: ``attr_values._AT_THE_TOKEN``, which this module cannot import: attr_values' imports lead back here).
_AT_THE_TOKEN = re.compile(r"expected (.* or )?an? (integer|string)\b|expected (device_ids|replicated or unreduced)\b"
                           r"|expecting priority in format")
#: The manual axes' grammar meeting a word where an axis name (a string) goes.
_NOT_AN_AXIS_NAME = re.compile(r"expected .*a string, got '[A-Za-z_]")
#: The grammar meeting a word where a dimension's priority may go.
_WORD_FOR_A_PRIORITY = re.compile(r"or a priority like p0, got '[A-Za-z_]")
#: A value name with a result number (``%0#``), as a line that starts an op may not have.
_NUMBERED_RESULT_NAME = re.compile(r"%[\w$.-]+#")
#: What an op's syntax expects that MLIR reports at the token found instead (``parseKeyword``, ``parseSymbolName``,
#: ``parseInteger``: ``emitError`` at the current token), past the end of the op's text too; the rest are wrong
#: tokens (after the text).
_AT_THE_NEXT_TOKEN = re.compile(r"expected ('[A-Za-z_]|a symbol name|the function name|SSA identifier|type instead|"
                                r"valid '@'-identifier|an integer,)")


class Cursor:
    """Reads one op's text, ``[pos, end)`` of the source, region spans included."""

    def __init__(self, parser, raw, pos: int, opname: str):
        self.p = parser
        self.text = parser.text
        self.pos = pos
        self.end = raw.end
        self.regions = raw.regions
        self.ri = 0
        self.opname = opname

    # -- low level ---------------------------------------------------------
    def ws(self) -> int:
        text, pos, end = self.text, self.pos, self.end
        while pos < end:
            c = text[pos]
            if c in " \t\r\n":
                pos += 1
            else:
                break
        self.pos = pos
        return pos

    def error(self, message: str, offset: int | None = None):
        off = self.pos if offset is None else offset
        if _AT_THE_NEXT_TOKEN.match(message):
            if off >= self.end:
                off = self.p.scanner.skip_ws(self.end)  # (MLIR: at the token there, the end of the text included)
        elif ", found " in message and is_wrong_token_error(message):
            off = wrong_token_offset(self.text, off)  # (a token not the expected one: after the text before it)
        return self.p.error(off, f"'{self.opname}': {message}")

    def at_end(self) -> bool:
        return self.ws() >= self.end

    def peek(self, lit: str) -> bool:
        self.ws()
        return self.text.startswith(lit, self.pos) and self.pos + len(lit) <= self.end

    def accept(self, lit: str) -> bool:
        if self.peek(lit):
            self.pos += len(lit)
            return True
        return False

    def expect(self, lit: str, what: str | None = None) -> None:
        if not self.accept(lit):
            raise self.error(f"expected {what or repr(lit)}, found {self.found()}")

    def found(self) -> str:
        self.ws()
        if self.pos >= self.end:
            nxt = _SPACES.match(self.text, self.end).end()
            if nxt < len(self.text) and self.text[nxt] not in "}\n":
                # the op ended where the scanner saw another op start on its line
                return repr(self.text[nxt:nxt + 20].split("\n")[0]) + ", which starts another op"
            return "the end of the op"
        snippet = self.text[self.pos:min(self.end, self.pos + 20)].split("\n")[0]
        return repr(snippet)

    def match(self, rx: re.Pattern) -> re.Match | None:
        self.ws()
        m = rx.match(self.text, self.pos, self.end)
        if m:
            self.pos = m.end()
        return m

    def keyword(self, kw: str) -> bool:
        """Accept ``kw`` when it is a whole word."""
        self.ws()
        m = _BARE_ID.match(self.text, self.pos, self.end)
        if m and m.group() == kw:
            self.pos = m.end()
            return True
        return False

    def balanced(self) -> tuple[int, int]:
        """Span of the bracket group at the cursor."""
        self.ws()
        if self.pos >= self.end or self.text[self.pos] not in "([{<":
            raise self.error(f"expected a bracketed group, found {self.found()}")
        start = self.pos
        self.pos = self.p.scanner.match_bracket(start)
        return start, self.pos

    # -- pieces --------------------------------------------------------------
    def sdy(self, rule: str):
        """An sdy attribute piece parsed with grammar rule ``rule``."""
        try:
            start, end = self.balanced()
        except ParseError as unclosed:
            raise self.read_on(unclosed, lambda: self._sdy_attr(self.pos, self.end, rule)) from None
        return self._sdy_attr(start, end, rule)

    def _sdy_attr(self, start: int, end: int, rule: str):
        """``p.sdy_attr``, with the manual axes' list (ODS's ``ArrayOfAttr`` of strings, each read by
        ``parseAttribute``) meeting a word that is no attribute (as the next line of a cut op) failing with MLIR's
        "expected attribute value" (a wrong token: after the text before it)."""
        try:
            return self.p.sdy_attr(start, end, rule, self.opname)
        except ParseError as e:
            if rule == "manual_axes" and _NOT_AN_AXIS_NAME.search(e.message) and not _TYPE_START.match(
                    self.text, e.offset):
                raise self.p.error(wrong_token_offset(self.text, e.offset), "expected attribute value") from None
            if _WORD_FOR_A_PRIORITY.search(e.message):  # (Shardy reads the word as the priority's keyword: MLIR's
                word = _BARE_ID.match(self.text, self.p.scanner.skip_ws(e.offset))  # bare-id, dots and all)
                if word is not None:
                    prefix = f"'{self.opname}': " if self.opname else ""
                    message = f"{prefix}expecting priority in format 'p<number>', got: {word.group()}"
                    raise self.p.error(self.p.scanner.skip_ws(word.end()), message) from None
            raise

    def read_on(self, unclosed: ParseError, read, placed: bool = False, ended: str | None = None) -> ParseError:
        """The error of a bracket group at the cursor that does not close (``unclosed``, from ``balanced``): the
        first error of ``read()``, which reads the group on to the op's end as MLIR reads it token by token,
        when it finds one before that end, else ``unclosed`` (``placed``: ``read`` places its errors itself).
        ``ended``: the message of the wrong token MLIR meets when ``read()`` takes all and the op's end is the
        input's (its closer missing at the end of the input)."""
        try:
            read()
            if ended is not None and self.p.scanner.skip_ws(self.end) >= len(self.text):
                return self.p.error(end_of_input_offset(self.p.scanner.source, self.text), ended)
        except ParseError as e:
            at = e.offset
            if e.message.endswith("got end of attribute"):  # (the token after the op's text)
                at = self.p.scanner.skip_ws(self.end)
            elif at >= self.end:
                return unclosed
            if not placed and not _AT_THE_TOKEN.search(e.message):
                at = wrong_token_offset(self.text, at)  # (MLIR's parseToken & co: a wrong token, after the text)
            return self.p.error(at, e.message)
        return unclosed

    def value_use(self) -> str:
        m = self.match(_VALUE_USE)
        if not m:
            raise self.error(f"expected an SSA value like %0, found {self.found()}")
        return m.group()

    def value_uses(self) -> list[str]:
        """Zero or more comma-separated value uses."""
        out: list[str] = []
        if not self.peek("%"):
            return out
        out.append(self.value_use())
        while self.accept(","):
            out.append(self.value_use())
        return out

    def type(self) -> Type:
        start = self.ws()
        self.skip_type()
        text = self.p.norm(start, self.pos)
        if "#stablehlo" in text or "#chlo" in text:  # (an encoding: read by its dialect, as MLIR does)
            check_dialect_attributes(self.p, start, self.pos)
        if ("!" in text or "#" in text) and (self.p.type_aliases or self.p.attr_aliases):
            text = self.p.expand_aliases(text)
        t = parse_type(text)
        if type(t) is not Type and not isinstance(t, _LOOSE_KINDS) or t.text in _CHECKED_TYPES:
            return t
        _, err = _cached_type(text)  # (the lenient ``parse_type`` keeps what is no type as text; MLIR rejects it)
        if err is not None:
            at = start + err.offset if text == self.text[start:self.pos] else start
            error = self.p.error(wrong_token_offset(self.text, at) if is_wrong_token_error(err.message) else at,
                                 err.message)
            raise self.torn(error, torn.type_error(self.p, start))
        if "!" in text and _BARE_TYPE_NAME.search(text) and (found := torn.type_error(self.p, start)) is not None:
            raise self.torn(None, found)  # (``!name``, no alias of that name: MLIR's "undefined symbol alias id")
        _CHECKED_TYPES.add(t.text)
        return t

    def skip_type(self) -> None:
        start = self.ws()
        try:
            if self.peek("("):
                self.balanced()
                if self.accept("->"):
                    self.skip_type()
                return
            m = _PLAIN_TENSOR.match(self.text, self.pos, self.end)  # the common case, without a bracket scan
            if m:
                self.pos = m.end()
                return
            m = self.match(_TYPE_HEAD)
            if not m:
                raise self.error(f"expected a type, found {self.found()}")
            if self.pos < self.end and self.text[self.pos] == "<":
                self.balanced()
            elif m.group() in _BRACKETED_BUILTIN_TYPES:  # (their '<' is a token of its own: blanks may come first)
                head_end = self.pos
                if self.peek("<"):
                    self.balanced()
                else:
                    self.pos = head_end
        except ParseError as unclosed:
            if not unclosed.message.startswith("expected a bracketed group"):
                raise self.torn(unclosed, torn.type_error(self.p, start)) from None
            raise

    def balanced_value(self, start: int) -> tuple[int, int]:
        """``balanced``, for a bracket group of the attribute value that starts at ``start``: where its brackets do
        not balance, MLIR's first error reading the value's grammar on (``torn``)."""
        try:
            return self.balanced()
        except ParseError as unclosed:
            raise self.torn(unclosed, torn.attribute_error(self.p, start)) from None

    def torn(self, unclosed: ParseError | None, found: tuple[int, str] | None) -> ParseError:
        """The error of a type or an attribute at the cursor whose brackets do not balance (``unclosed``): MLIR's
        first error reading its grammar on into the text after it (``found``, from ``syntax.torn``), wherever the
        op's text ends (``read_on``: ``salvage`` keeps it), else ``unclosed``."""
        if found is None:
            return unclosed
        error = self.p.error(*found)
        error.read_on = True
        return error

    def types(self) -> list[Type]:
        out = [self.type()]
        while self.accept(","):
            out.append(self.type())
        return out

    def function_type(self) -> tuple[list[Type], list[Type]]:
        """``(T, ...) -> R`` or ``(T, ...) -> (R, ...)``."""
        if not self.accept("("):  # (MLIR reads a type there: one that is not a function type is its error)
            unexpected = self.error(f"expected '(' starting a function type, found {self.found()}")
            raise self.torn(unexpected, torn.type_error(self.p, self.ws()))
        ins = [] if self.accept(")") else self.types()
        if ins:
            self.expect(")")
        if not self.accept("->"):  # (MLIR's ``parseFunctionType``: a wrong token)
            raise self.p.error(wrong_token_offset(self.text, self.ws()), "expected '->' in function type")
        if self.accept("("):
            outs = [] if self.accept(")") else self.types()
            if outs:
                self.expect(")")
        else:
            outs = [self.type()]
        return ins, outs

    def attr_dict(self) -> tuple[dict, dict] | None:
        """An optional ``{...}`` attribute dictionary.  A ``{`` here is one even where the scanner took it for a
        region (as MLIR's ``parseOptionalAttrDict`` reads it: text that is not MLIR, which fails at its first
        entry; the syntaxes ask for a dictionary only where no region may stand)."""
        if not self.peek("{"):
            return None
        if self.at_region():
            r = self.regions[self.ri]
            self.ri += 1
            self.pos = r.end
            return self.p.attr_dict(r.start, r.end)
        try:
            start, end = self.balanced()
        except ParseError as unclosed:
            if (found := torn.dictionary_error(self.p, self.pos)) is not None:
                raise self.torn(unclosed, found) from None  # (inside a type or a literal of an entry)
            raise self.read_on(unclosed, lambda: self.p.attr_dict(self.pos, self.end + 1),
                               ended="expected '}' in attribute dictionary") from None
        return self.p.attr_dict(start, end)

    def at_region(self) -> bool:
        self.ws()
        return self.ri < len(self.regions) and self.regions[self.ri].start == self.pos

    def at_brace(self) -> bool:
        """At a region the scanner found, or at a ``{`` that the op's syntax makes one (``region``)."""
        return self.at_region() or self.peek("{")

    def region(self):
        """The region at the cursor.  Where the op's syntax wants a region, a brace group the scanner took
        for a dictionary (``{}``, ``{ word }``: it cannot tell without knowing the op) is scanned as one."""
        if self.at_region():
            r = self.regions[self.ri]
            self.ri += 1
        elif self.peek("{"):
            r = self.p.scanner.scan_region(self.pos, self.p.region_depth)
            if r.end > self.end:
                raise self.error("the region's '}' is not inside this op")
        else:
            raise self.error(f"expected a region '{{', found {self.found()}")
        self.pos = r.end
        return r

    def location(self) -> str | None:
        self.ws()
        if self.peek("loc("):
            self.pos += 3
            s, e = self.balanced()
            return "loc" + self.text[s:e]
        return None

    def finish(self) -> None:
        if not self.at_end():
            result = _NUMBERED_RESULT_NAME.match(self.text, self.pos)
            if result is not None and "\n" in self.text[wrong_token_offset(self.text, self.pos):self.pos]:
                # (a line starting `%0#1 = `: the next op, whose results MLIR reads first)
                raise self.p.error(result.end() - 1, "expected '=' after SSA name")
            c = self.text[self.pos]
            on_a_new_line = "\n" in self.text[wrong_token_offset(self.text, self.pos):self.pos]
            if on_a_new_line and not (c in '%"_^#!' or c.isalpha()):
                # (text on a line of its own after the op's syntax: MLIR's op ended on the line before, and
                # no op starts with this text: a wrong token, after the text before it)
                raise self.p.error(wrong_token_offset(self.text, self.pos), "expected operation name in quotes")
            raise self.error(f"unexpected {self.found()} at the end of the op")

    # -- declared ops (syntax.format) ------------------------------------------------
    def at_type(self) -> bool:
        """Whether a type starts at the cursor."""
        self.ws()
        return self.pos < self.end and (self.text[self.pos] in "(!" or bool(_TYPE_START.match(self.text, self.pos)))

    def attribute_span(self) -> tuple[int, int]:
        """Span of the attribute value at the cursor (with a ``: type`` suffix where one follows)."""
        start = self.ws()
        text, end = self.text, self.end
        m = _ATTR_ATOM.match(text, start, end)
        if not m:
            raise self.error(f"expected an attribute value, found {self.found()}")
        pos = m.end()
        try:
            if pos < end and text[pos] == "<":
                pos = self.p.scanner.match_bracket(pos)
            elif text[start] in "[{(":
                pos = self.p.scanner.match_bracket(start)
        except ParseError as unclosed:
            raise self.torn(unclosed, torn.attribute_error(self.p, start)) from None
        self.pos = pos
        if _TYPED_ATOM.match(text, start) and self.peek(":") and not self.peek("::"):
            save = self.pos
            self.pos += 1
            try:
                self.skip_type()
            except ParseError as e:
                if getattr(e, "read_on", False):
                    raise  # (the literal's type, torn: MLIR reads it as the literal's)
                self.pos = save
        return start, self.pos

    def attribute(self):
        """The attribute value at the cursor."""
        start, end = self.attribute_span()
        return self.p.attr_value(start, end)

    def attribute_in_format(self, d):
        """An inherent attribute written the way an assembly format writes it (``AttrDef.form``)."""
        codec = getattr(d, "codec", None)
        if codec is not None:
            return codec.parse(self)
        if d.form == "symbol":
            m = self.match(_SYMBOL)
            if not m:
                raise self.error(f"expected a symbol name like @name, found {self.found()}")
            return A.OpaqueAttr('"' + m.group()[1:].strip('"') + '"')
        return self.attribute()

    def at_attribute(self, d) -> bool:
        """Whether an attribute of ``d``'s form starts at the cursor (for optional groups)."""
        codec = getattr(d, "codec", None)
        if codec is not None:
            return codec.starts(self)
        self.ws()
        return self.pos < self.end and bool(_ATTR_ATOM.match(self.text, self.pos, self.end))
