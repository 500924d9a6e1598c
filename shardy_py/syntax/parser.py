"""Build the IR (``Module``/``Operation``) from MLIR text.

The scanner finds op and region spans; this module reads each op: results,
name, and then either a Shardy/func/module custom syntax (fully modelled) or,
for every other op, a lossless printing template in which only the sdy
attributes and the attribute dictionary are parsed.
"""
from __future__ import annotations

import gc
import re

from shardy_py.dialects.registry import lookup
from shardy_py.errors import AttrSyntaxError, ParseError
from shardy_py.ir import attrs as A
from shardy_py.ir.module import Module
from shardy_py.ir.ops import NO_ATTRIBUTES, Block, Location, Operation, Region, Value
from shardy_py.ir.types import DYNAMIC, RankedTensorType, Type, UnrankedTensorType, VectorType, parse_type
from shardy_py.syntax.attr_reader import _cached_type
from shardy_py.syntax.dense import canonical_dense_elements
from shardy_py.syntax.floats import canonical_dense_pieces, canonical_dense_value, canonical_float_attr
from shardy_py.syntax.lexer_check import first_lexer_error, first_odd_character
from shardy_py.syntax.op_recipes import UNCLONABLE, make_recipe, shape_key
from shardy_py.syntax.scanner import (
    _CLOSERS,
    _STRUCT,
    NAME_SPLIT,
    LineIndex,
    RawLabel,
    RawOp,
    RawRegion,
    Scanner,
    blank_comments,
    is_wrong_token_error,
    wrong_token_offset,
)
from shardy_py.syntax.sdy_parser import StringEscapeError, unquote
from shardy_py.syntax.ssa_uses import SsaUses
from shardy_py.syntax.text_fold import canonical_piece, fold, fold_keeping_opaque

UNIT = A.UNIT_ATTR
#: func ops that may be written without their dialect directly inside a func.func body.
FUNC_DEFAULT_OPS = ("return", "call", "call_indirect", "constant")
_DOTTED_NAME = re.compile(r"[A-Za-z_][\w$]*(?:\.[A-Za-z_$][\w$]*)+\Z")
MAX_RESULTS = 65536  # results of one op (real IR has a handful; tuples a few thousand)

_RESULTS = re.compile(r"(%[\w$.-]+)(?::(\d+))?\s*(?:,\s*|(=)\s*)")
_OP_NAME = re.compile(r'"([^"\\]*)"|([A-Za-z_][\w$.]*)')
_VALUE_USE = re.compile(r"%[\w$.-]+(?:#\d+)?")
_BARE_ID = re.compile(r"[A-Za-z_][\w$.]*")
_SYMBOL = re.compile(r'@(?:[A-Za-z_][\w$.]*|"(?:[^"\\]|\\.)*")')
_INT = re.compile(r"-?\d+")
_TYPE_HEAD = re.compile(r"!?[A-Za-z_][\w$.]*")
_PLAIN_TENSOR = re.compile(r"tensor<(?:[\d?]+x)*[A-Za-z_]\w*>")  # no encoding, no nested brackets
_SDY_ATTR_HEAD = re.compile(r"#sdy(?:\.[a-z_]+|<[a-z_]+)")
_SPACES = re.compile(r"[ \t\r]*")
_WS_RUN = re.compile(r"[ \t\r]{2,}")
_INT_LITERAL = re.compile(r"-?\d+\Z")
_HEX_INT_LITERAL = re.compile(r"-?0x[0-9a-fA-F]+\Z")
_DENSE_VALUE = re.compile(r"dense<([^<>\"]*)>")
_TYPE_START = re.compile(r"(?:tensor|tuple|complex|memref|vector|none|index|[isu]i?\d+|[bf]\w*\d\w*|f\d+)\b")
_ATTR_ATOM = re.compile(r'"(?:[^"\\]|\\.)*"|@(?:[\w$.]+|"(?:[^"\\]|\\.)*")(?:::@(?:[\w$.]+|"(?:[^"\\]|\\.)*"))*|'
                        r'[#!][\w$.-]*|-?0x[0-9a-fA-F]+|-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|[A-Za-z_][\w$.]*|[\[{(]')
_TYPED_ATOM = re.compile(r"-?\d|-?0x|dense<|sparse<|dense_resource<")

#: Inherent attributes of other dialects' ops: written in an attribute dictionary,
#: MLIR stores (and prints) them as properties, ``<{...}>``.
INHERENT_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "stablehlo.constant": ("value",),
    "mhlo.constant": ("value",),
}

_SDY_STANDALONE = {
    "#sdy.mesh": "attribute", "#sdy.sharding": "attribute", "#sdy.sharding_per_value": "attribute",
    "#sdy.op_sharding_rule": "attribute", "#sdy.propagation_edges": "attribute",
    "#sdy<manual_axes": "attribute", "#sdy<axis_ref_list": "attribute",
    "#sdy<list_of_axis_ref_lists": "attribute", "#sdy<all_to_all_param_list": "attribute",
}


_ALIAS_DEF = re.compile(r"([!#][\w$.-]+)\s*=")
_ALIAS_USE = re.compile(r"[!#][\w$.-]+(?![\w$.<-])")
_INT_NEST = re.compile(r"\[[\[\]\d\s,-]*\]\Z")
_TYPE_COLON = re.compile(r"\s+:\s+")
#: Type texts the strict reader has accepted (``Cursor.type``).
_CHECKED_TYPES: set[str] = set()


class Cursor:
    """Reads one op's text, ``[pos, end)`` of the source, region spans included."""

    def __init__(self, parser: ModuleParser, raw: RawOp, pos: int, opname: str):
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

    def error(self, message: str, offset: int | None = None) -> ParseError:
        off = self.pos if offset is None else offset
        if _AT_THE_NEXT_TOKEN.match(message):
            if off >= self.end:
                off = min(self.p.scanner.skip_ws(self.end), len(self.text) - 1)  # (MLIR: at the token there)
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
        start, end = self.balanced()
        return self.p.sdy_attr(start, end, rule, self.opname)

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
        if type(t) is not Type and not isinstance(t, RankedTensorType) or t.text in _CHECKED_TYPES:
            return t
        _, err = _cached_type(text)  # (the lenient ``parse_type`` keeps what is no type as text; MLIR rejects it)
        if err is not None:
            at = start + err.offset if text == self.text[start:self.pos] else start
            raise self.p.error(wrong_token_offset(self.text, at) if is_wrong_token_error(err.message) else at,
                               err.message)
        _CHECKED_TYPES.add(t.text)
        return t

    def skip_type(self) -> None:
        self.ws()
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

    def types(self) -> list[Type]:
        out = [self.type()]
        while self.accept(","):
            out.append(self.type())
        return out

    def function_type(self) -> tuple[list[Type], list[Type]]:
        """``(T, ...) -> R`` or ``(T, ...) -> (R, ...)``."""
        self.expect("(", "'(' starting a function type")
        ins = [] if self.accept(")") else self.types()
        if ins:
            self.expect(")")
        self.expect("->", "'->'")
        if self.accept("("):
            outs = [] if self.accept(")") else self.types()
            if outs:
                self.expect(")")
        else:
            outs = [self.type()]
        return ins, outs

    def attr_dict(self) -> tuple[dict, dict] | None:
        """An optional ``{...}`` attribute dictionary (not a region)."""
        self.ws()
        if self.at_region() or not self.peek("{"):
            return None
        start, end = self.balanced()
        return self.p.attr_dict(start, end)

    def at_region(self) -> bool:
        self.ws()
        return self.ri < len(self.regions) and self.regions[self.ri].start == self.pos

    def at_brace(self) -> bool:
        """At a region the scanner found, or at a ``{`` that the op's syntax makes one (``region``)."""
        return self.at_region() or self.peek("{")

    def region(self) -> RawRegion:
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
        if pos < end and text[pos] == "<":
            pos = self.p.scanner.match_bracket(pos)
        elif text[start] in "[{(":
            pos = self.p.scanner.match_bracket(start)
        self.pos = pos
        if _TYPED_ATOM.match(text, start) and self.peek(":") and not self.peek("::"):
            save = self.pos
            self.pos += 1
            try:
                self.skip_type()
            except ParseError:
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


class ModuleParser:
    """Parses one text into a ``Module``."""

    def __init__(self, text: str, filename: str | None = None, first_line: int = 1, fast_paths: bool = True):
        self.text = text
        self.filename = filename
        self.lines = LineIndex(text, first_line)
        self.scanner = Scanner(text, self.lines, fast_lines=fast_paths)
        #: Build repeated one-line op shapes from recipes (``op_recipes``).
        self.use_recipes = fast_paths
        self.scopes: list[dict[str, Value]] = [{}]
        #: Every scope around the region being built, those an isolated region hides included: MLIR
        #: names values in one scope per module (a name is defined once there, isolated or not).
        self.all_scopes: list[dict[str, Value]] = self.scopes[:]
        self.func_depth = 0
        #: How many regions the op being built sits in.
        self.region_depth = 0
        self._dict_cache: dict[str, tuple[dict, dict]] = {}
        self._recipes: dict[tuple[str, bool], object] = {}
        self._names: dict[str, str] = {}
        #: ``!name = type`` definitions met so far: name (with ``!``) -> the type's text.
        self.type_aliases: dict[str, str] = {}
        #: ``#name = attr`` definitions (not locations): name (with ``#``) -> the attribute's text.
        self.attr_aliases: dict[str, str] = {}
        #: Forward references and the SSA rules of MLIR's parser (``ssa_uses``).
        self.ssa = SsaUses(self)

    def expand_aliases(self, text: str) -> str:
        """``text`` with every alias it uses written out (aliases may use earlier aliases)."""
        def one(m: re.Match) -> str:
            name = m.group()
            return self.type_aliases.get(name) or self.attr_aliases.get(name) or name

        return _ALIAS_USE.sub(one, text)

    # -- errors and locations ----------------------------------------------------
    def loc(self, offset: int) -> Location:
        return Location(*self.lines.locate(offset))

    def error(self, offset: int, message: str) -> ParseError:
        line, col = self.lines.locate(offset)
        return ParseError(message, line, col, offset, self.filename)

    def unquote_at(self, literal: str, offset: int) -> str:
        """The value of the string ``literal`` found at ``offset``; a bad escape is a located ParseError."""
        try:
            return unquote(literal)
        except StringEscapeError as e:
            raise self.error(offset + e.offset, str(e)) from None

    # -- text helpers ---------------------------------------------------------------
    def norm(self, start: int, end: int) -> str:
        """Source text with line breaks folded (comments are blanked before parsing: ``blank_comments``),
        except inside attributes of dialects MLIR keeps as written."""
        s = self.text[start:end].strip()
        if "\n" not in s:
            return s
        return fold_keeping_opaque(s) if "#" in s else fold(s)

    def sdy_attr(self, start: int, end: int, rule: str, context: str | None = None):
        text = self.text[start:end]
        from shardy_py.syntax.sdy_parser import parse_sdy

        try:
            return parse_sdy(text, rule)
        except AttrSyntaxError as e:
            prefix = f"'{context}': " if context else ""
            raise self.error(start + e.offset, prefix + e.message) from None

    def attr_value(self, start: int, end: int) -> A.Attr:
        """An attribute value: sdy attributes parsed, anything else kept as text (its StableHLO/CHLO
        attributes read, as MLIR reads them)."""
        text = self.text[start:end].strip()
        if "#stablehlo" in text or "#chlo" in text:
            check_dialect_attributes(self, start, end)
        if text.startswith("#sdy"):
            m = _SDY_ATTR_HEAD.match(text)
            if m and m.group() in _SDY_STANDALONE:
                lead = len(self.text[start:end]) - len(self.text[start:end].lstrip())
                s = start + lead
                close = self._sdy_extent(s)
                if close == start + lead + len(text):
                    return self.sdy_attr(s, close, "attribute")
            elif m:
                raise self.error(start, f"unknown sdy attribute '{m.group()[4:].lstrip('.<')}'")
        if _INT_LITERAL.match(text):
            return A.OpaqueAttr(text + " : i64")
        if _HEX_INT_LITERAL.match(text) and abs(int(text, 16)) < 2**63:
            return A.OpaqueAttr(f"{int(text, 16)} : i64")
        if "." in text or text.startswith("0x"):
            value = canonical_float_attr(text)
            if value is not None:
                return A.OpaqueAttr(value)
        raw = self.text[start:end]
        lead = len(raw) - len(raw.lstrip())
        trail = len(raw) - len(raw.rstrip())
        if text.startswith("{") and text.endswith("}") and self.scanner.match_bracket(start + lead) == end - trail:
            # a dictionary attribute: its entries canonical and sorted, as MLIR stores them
            from shardy_py.syntax.op_writer import attr_entries

            entries, _ = self._attr_dict(start + lead, end - trail)
            return A.OpaqueAttr("{" + attr_entries(entries) + "}")
        canonical = self.canonical_text(start + lead, end - trail)
        if self.attr_aliases and "#" in canonical:
            canonical = self.expand_aliases(canonical)
        if _INT_NEST.match(canonical):  # a (nested) array of untyped integers: MLIR's `, ` spacing
            canonical = re.sub(r"\s*,\s*", ", ", re.sub(r"\s+", "", canonical))
        if '"' not in canonical and (":  " in canonical or "  :" in canonical):
            canonical = _TYPE_COLON.sub(" : ", canonical)  # `value  :  type` spaced as MLIR prints it
        if len(canonical) < 4096:
            _check_attribute(self, canonical, start + lead, end - trail)
        if ">" in text or "=" in text:
            stray = _stray_closer(raw)
            if stray >= 0:
                raise self.error(wrong_token_offset(self.text, start + stray), "expected '}' in attribute dictionary")
        return A.OpaqueAttr(canonical)

    def _sdy_extent(self, s: int) -> int:
        """End offset of the sdy attribute starting at ``s`` (``#sdy...<...>``)."""
        lt = self.text.find("<", s)
        return self.scanner.match_bracket(lt)

    def canonical_text(self, start: int, end: int) -> str:
        """Normalised text with every embedded sdy attribute reprinted canonically."""
        pieces = self.template(start, end)
        return "".join(p if isinstance(p, str) else str(p) for p in pieces if not isinstance(p, tuple))

    def template(self, start: int, end: int) -> list:
        """Text split into strings and embedded sdy attributes (line breaks folded)."""
        out: list = []
        text = self.text
        pos = start
        i = text.find("#sdy", start, end)
        while i >= 0:
            # skip occurrences inside strings
            if self._in_string(pos, i):
                i = text.find("#sdy", i + 4, end)
                continue
            m = _SDY_ATTR_HEAD.match(text, i, end)
            if m and m.group() in _SDY_STANDALONE:
                close = self._sdy_extent(i)
                if pos < i:
                    out.append(self.norm_piece(pos, i))
                out.append(self.sdy_attr(i, close, "attribute"))
                pos = close
            elif m:
                raise self.error(i, f"unknown sdy attribute '{m.group()[4:].lstrip('.<')}'")
            i = text.find("#sdy", max(pos, i + 4), end)
        if pos < end:
            out.append(self.norm_piece(pos, end))
        return [canonical_piece(p) if type(p) is str and ("dense<" in p or "#stablehlo." in p or "array<" in p
                                                           or "#chlo.ragged_dot" in p)
                else p for p in out]

    def _in_string(self, start: int, pos: int) -> bool:
        q = self.text.count('"', start, pos) - self.text.count('\\"', start, pos)
        return q % 2 == 1

    def norm_piece(self, start: int, end: int) -> str:
        s = self.text[start:end]
        if "\n" not in s:
            return s
        keep = getattr(self, "_keep_newlines", None)
        if keep and any(start <= k < end for k in keep):
            parts = []
            pos = start
            for k in sorted(x for x in keep if start <= x < end):
                parts.append(self.norm_piece_folded(pos, k).rstrip(" \t\r"))
                nxt = self.scanner.skip_ws(k)
                line_ws = self.text[k + 1:nxt]
                line_ws = line_ws[line_ws.rfind("\n") + 1:]
                parts.append("\n" + line_ws[self._op_indent:])
                pos = nxt
            parts.append(self.norm_piece_folded(pos, end))
            return "".join(parts)
        return self.norm_piece_folded(start, end)

    def norm_piece_folded(self, start: int, end: int) -> str:
        s = self.text[start:end]
        if "\n" not in s:
            return s
        lead = " " if s[:1].isspace() else ""
        trail = " " if s[-1:].isspace() else ""
        body = self.norm(start, end)
        return (lead + body + trail) if body else (" " if s.strip() == "" and s else "")

    def attr_dict(self, start: int, end: int) -> tuple[dict, dict]:
        """Entries of ``{a = 1, b}`` spanning ``[start, end)``: (attributes, their locations).

        Memoised by text: a module repeats a few dictionaries thousands of times.
        """
        key = self.text[start:end]
        hit = self._dict_cache.get(key)
        if hit is None:
            entries, locs = self._attr_dict(start, end)
            self._dict_cache[key] = (entries, {k: self.offset_of(v) - start for k, v in locs.items()})
            return dict(entries), locs
        entries, rel = hit
        return dict(entries), {k: self.loc(start + r) for k, r in rel.items()}

    def offset_of(self, loc: Location) -> int:
        """Inverse of ``loc``: the character offset of a location in this text."""
        return self.lines.starts[loc.line - self.lines.first_line] + loc.column - 1

    def _attr_dict(self, start: int, end: int) -> tuple[dict, dict]:
        entries: dict[str, A.Attr] = {}
        locs: dict[str, Location] = {}
        bounds = self._split_commas(start + 1, end - 1)
        if bounds and self.text[bounds[-1][1]:bounds[-1][1] + 1] == ",":
            bounds.append((bounds[-1][1] + 1, end - 1))  # (after a last ',': no name)
        for s, e in bounds:
            seg_text = self.text[s:e]
            if not seg_text.strip():
                if len(bounds) > 1:  # (MLIR: a name after every ',', a wrong token after it)
                    raise self.error(wrong_token_offset(self.text, self.scanner.skip_ws(s)), "expected attribute name")
                continue
            k = s + len(seg_text) - len(seg_text.lstrip())
            m = re.compile(r'"((?:[^"\\]|\\.)*)"|([A-Za-z_][\w$.-]*)').match(self.text, k, e)
            if not m:
                raise self.error(k, "expected an attribute name")
            if m.group(1) is not None:
                name = self.unquote_at(m.group(0), m.start())
            else:
                name = m.group(2)
            rest = self.scanner.skip_ws(m.end())
            if rest >= e:
                value: A.Attr = UNIT
            elif self.text[rest] == "=":
                if self.scanner.skip_ws(rest + 1) >= e:
                    raise self.error(rest + 1, f"expected a value for attribute '{name}'")
                value = self.attr_value(rest + 1, e)
            else:
                raise self.error(rest, f"expected '=' or ',' after attribute name '{name}'")
            if name in entries:
                raise self.error(k, f"duplicate key '{name}' in dictionary attribute")
            entries[name] = value
            locs[name] = self.loc(k)
        return entries, locs

    def _split_commas(self, start: int, end: int) -> list[tuple[int, int]]:
        """Spans between depth-0 commas of ``[start, end)`` (strings and brackets respected)."""
        out = []
        stack: list[str] = []
        seg = start
        for m in re.compile(r'"(?:[^"\\]|\\.)*"|->|[()\[\]{}<>,]').finditer(self.text, start, end):
            t = m.group()
            if t[0] == '"' or t == "->":
                continue
            if t in "([{<":
                stack.append(t)
            elif t in ")]}>":
                if stack and stack[-1] == _CLOSERS[t]:
                    stack.pop()
            elif not stack:
                out.append((seg, m.start()))
                seg = m.end()
        if self.text[seg:end].strip():
            out.append((seg, end))
        return out

    # -- values ---------------------------------------------------------------------
    def define(self, v: Value, key: str | None = None, resolve: bool = True) -> None:
        """Make ``v`` visible as ``key`` (default: its name) in the innermost region; a name already
        visible is MLIR's "redefinition of SSA value"; a forward reference to it is resolved (not by a
        block label's argument, ``resolve=False``: jaxlib 0.12 leaves the name undeclared)."""
        name = key or v.name
        for scope in self.all_scopes:
            if name in scope:
                raise self.ssa.redefinition(name, v, scope[name])
        self.scopes[-1][name] = v
        if self.ssa.pending and resolve:
            self.ssa.resolve(name, v)
            if "#" not in name:
                self.ssa.resolve(name + "#0", v)

    def lookup(self, name: str) -> Value | None:
        for scope in reversed(self.scopes):
            v = scope.get(name)
            if v is not None:
                return v
            if name[-2:] == "#0":  # `%0#0` names the result of `%0 = ...` (`%0:1`): one group of one
                v = scope.get(name[:-2])
                if v is not None and type(v.owner) is Operation and len(v.owner.results) == 1:
                    return v
        return None

    def make_results(self, op: Operation, groups: list[tuple[str, int]], types: list[Type | None],
                     loc: Location | int | None = None) -> None:
        """Define ``op``'s results (``loc``: the op's location, packed or not; default ``op.loc``)."""
        if loc is None:
            loc = op.loc
        total = sum(n for _, n in groups)
        if len(types) == 1 and total > 1 and types[0] is None:
            types = types * total
        idx = 0
        for name, count in groups:
            for k in range(count):
                t = types[idx] if idx < len(types) else None
                vname = name if count == 1 else f"{name}#{k}"
                v = Value(vname, t, op, idx, loc, NO_ATTRIBUTES)  # only arguments carry attributes
                op.results.append(v)
                if not name:
                    pass  # results left unnamed (`"d.op"() : () -> i32`): no name refers to them
                elif count > 1 and k == 0:
                    self.define(v, name)  # `%0` names `%0#0`
                    self.scopes[-1][vname] = v
                else:
                    self.define(v)
                idx += 1

    def set_operands(self, op: Operation, names: list[str]) -> None:
        op.operand_names = names
        operands = [self.lookup(n) for n in names]
        op.operands = operands
        if None in operands:
            self.ssa.forward(op, names, operands, self.all_scopes if len(self.all_scopes) > len(self.scopes) else ())

    # -- regions ---------------------------------------------------------------------
    def build_region(self, raw: RawRegion, parent: Operation, args: list[Value] | None = None,
                     isolated: bool = False) -> Region:
        region = Region(parent=parent)
        saved, saved_all = self.scopes, self.all_scopes
        scope: dict[str, Value] = {}
        self.scopes = [scope] if isolated else self.scopes + [scope]
        self.all_scopes = saved_all + [scope]
        self.region_depth += 1
        saved_func_depth = self.func_depth
        if parent.name != "func.func":
            self.func_depth = 0  # (func is the default dialect of a function's body only, not of regions in it)
        try:
            block = Block(parent=region)
            region.blocks.append(block)
            if args and raw.items and isinstance(raw.items[0], RawLabel):
                raise self.error(raw.items[0].start, "invalid block name in region with named arguments")
            for a in args or []:
                a.owner = block
                if a.loc is None:  # a name an unknown op's text binds (``opaque``): kept, unjudged
                    self.scopes[-1][a.name] = a
                    continue
                if "#" in a.name:
                    raise self.error(self.offset_of(a.loc) + a.name.index("#"),
                                     "result number not allowed in argument list")
                for scope in self.all_scopes:
                    previous = scope.get(a.name)
                    if previous is not None:
                        raise self.ssa.entry_argument_in_use(a, previous.loc)
                if a.name in self.ssa.pending:  # a forward reference is a reference too
                    raise self.ssa.entry_argument_in_use(a, self.ssa.first_use(a.name))
                self.define(a)
            block.arguments = list(args or [])
            items, raw.items = raw.items, []
            for i, item in enumerate(items):
                items[i] = None  # drop each op's skeleton once built: a big module never holds both whole
                if isinstance(item, RawLabel):
                    if block.ops or block.label is not None or (block is region.blocks[0] and block.arguments):
                        block = Block(parent=region)
                        region.blocks.append(block)
                    block.label = self.norm(item.start, item.end)
                    block.arguments = self.label_args(item, block)
                    continue
                op = self.build_op(item)
                op.parent = block
                block.ops.append(op)
        finally:
            self.scopes, self.all_scopes = saved, saved_all
            self.region_depth -= 1
            self.func_depth = saved_func_depth
        return region

    def label_args(self, item: RawLabel, block: Block) -> list[Value]:
        text = self.text[item.start:item.end]
        for m in _LABEL_ARG_NAME.finditer(text):  # every argument is `%name: type` (MLIR: "expected ':'")
            if not text.startswith(":", _SPACES.match(text, m.end()).end()) and not _in_brackets(text, m.start()):
                raise self.error(item.start + m.end(), "expected ':'")
        out = []
        for i, m in enumerate(re.finditer(r"(%[\w$.-]+)\s*:\s*", text)):
            c = Cursor(self, RawOp(item.start, item.end), item.start + m.end(), "block label")
            t = c.type()
            v = Value(m.group(1), t, block, i, self.loc(item.start + m.start()))
            v.location_text = c.location()
            self.define(v, resolve=False)
            out.append(v)
        return out

    # -- ops ------------------------------------------------------------------------------
    def build_op(self, raw: RawOp) -> Operation:
        """The op spanning ``raw``: from the recipe of its shape when one-line ops of that shape came before."""
        if raw.regions or not self.use_recipes:
            return self.parse_op(raw)
        text = self.text[raw.start:raw.end]
        if raw.shape is not None:  # the scanner's line fast path has cut the names out already
            recipe = self._recipes.get((raw.shape, self.func_depth > 0))
            names = None
        elif "\n" in text:
            return self.parse_op(raw)
        else:
            parts = NAME_SPLIT.split(text)
            recipe = self._recipes.get(shape_key(parts, self.func_depth > 0))
            names = parts[1::2]
        if recipe is None:
            parts = NAME_SPLIT.split(text)
            op = self.parse_op(raw)
            self._recipes[shape_key(parts, self.func_depth > 0)] = make_recipe(op, text, parts)
            return op
        if recipe is not UNCLONABLE:
            intern = self._names.setdefault  # one string per SSA name, however often it is used
            names = NAME_SPLIT.findall(text) if names is None else names
            op = recipe.build(self, raw.start, [intern(n, n) for n in names])
            if op is not None:
                return op
        return self.parse_op(raw)

    def parse_op(self, raw: RawOp) -> Operation:
        """The op spanning ``raw``, parsed in full."""
        text = self.text
        pos = raw.start
        groups: list[tuple[str, int]] = []
        if text.startswith("%", pos):
            while True:
                m = _RESULTS.match(text, pos, raw.end)
                if not m:
                    name = _VALUE_USE.match(text, pos, raw.end)
                    if name and "#" in name.group():  # `%0#1 = ...`: MLIR's wrong token is the '#'
                        raise self.error(pos + name.group().index("#"), "expected '=' after SSA name")
                    raise self.error(pos, "expected '=' after the op results")
                count = 1
                if m.group(2):
                    if len(m.group(2)) > 6 or int(m.group(2)) > MAX_RESULTS:
                        raise self.error(m.start(2), f"result count {m.group(2)[:12]} is larger than the "
                                                     f"{MAX_RESULTS} results an op may have here")
                    count = int(m.group(2))
                    if count == 0:
                        raise self.error(m.start(2), "a result group needs at least one result")
                groups.append((m.group(1), count))
                pos = m.end()
                if m.group(3):
                    break
        m = _OP_NAME.match(text, pos, raw.end)
        if not m:  # (MLIR: a wrong token, after the text before it)
            raise self.error(wrong_token_offset(text, pos), "expected operation name in quotes")
        generic = m.group(1) is not None
        name = m.group(1) if generic else m.group(2)
        if not generic and not _DOTTED_NAME.match(name):
            if name in FUNC_DEFAULT_OPS and self.func_depth:
                name = "func." + name
            elif name == "module":
                name = "builtin.module"
            else:
                raise self.error(pos, f"expected an operation name like 'dialect.op', found '{name}'"
                                 + (f" ('{name}' is a func op: write func.{name} outside a function body)"
                                    if name in FUNC_DEFAULT_OPS else ""))
        after = self.scanner.skip_ws(m.end())
        if after < raw.end and text[after] == "=" and not text.startswith("==", after):
            raise self.error(after, f"unexpected '=' after the op name '{name}'; results come before the "
                                    f"name, as in '%0 = {name} ...'")
        if after < raw.end and text[after] == ",":
            raise self.error(after, f"unexpected ',' after the op name '{name}'")
        if generic and (not name or after >= raw.end or text[after] != "("):
            raise self.error(pos if not name else after,
                             "expected an op name in the generic form" if not name else
                             f"expected '(' and the operands after the generic op name \"{name}\"")
        op = Operation(name, loc=self.loc(raw.start), result_groups=groups, generic_form=generic)
        cur = Cursor(self, raw, m.end(), name)
        handler = _HANDLERS.get(name)
        decl = None if handler is not None else lookup(name)
        if handler is None and decl is None:
            check_known_op(self, name, m.start(), generic)
        if generic:
            parse_generic(self, cur, op, decl, m.start())
        elif handler is not None:
            handler(self, cur, op)
        elif decl is not None:
            parse_custom(self, cur, op, decl)
        else:
            self.opaque(cur, op, raw)
        self.ssa.check_types(op)
        return op

    # generic and unknown ops: a lossless template ---------------------------------
    def opaque(self, cur: Cursor, op: Operation, raw: RawOp) -> None:
        """Keep the op's text; parse its attribute dictionary, regions and types."""
        start = cur.pos
        pieces: list = []
        self._keep_newlines = self._top_level_newlines(start, raw)
        self._op_indent = op.loc.column - 1
        attr_span, has_properties = self._find_attr_dict(start, raw)
        # operands: value uses in the text outside regions that resolve
        names: list[str] = []
        bound: list[tuple[str, str | None]] = []
        pos = start
        spans = [(r.start, r.end, r) for r in raw.regions]
        if attr_span:
            spans.append((attr_span[0], attr_span[1], None))
            spans.sort(key=lambda x: x[0])
        if attr_span is None:
            colon = self._last_top_colon(start, raw, spans)
            if colon >= 0:
                spans.append((colon, colon, "attrs_before"))
                spans.sort(key=lambda x: x[0])
        for s, e, r in spans:
            self._check_tokens(pos, s)
            self._scan_uses(pos, s, names, bound)
            pieces.extend(self._text_pieces(pos, s))
            if r == "attrs_before":
                pieces.append(("attrs_before",))
            elif r is None:
                entries, locs = self.attr_dict(s, e)
                # (an op that has written its properties `<{...}>` already keeps this dict as it is)
                # (and in a custom form only a dictionary followed by the op's type is its attribute dict)
                typed = self.text[self.scanner.skip_ws(e):e + 64].startswith(":")
                inherent = (INHERENT_ATTRIBUTES.get(op.name, ())
                            if not has_properties and (op.generic_form or typed) else ())
                for key in inherent:
                    if key in entries:
                        op.properties[key] = entries.pop(key)
                op.attributes = entries
                op.attribute_locs = locs
                # an empty `{}` of a custom-form op we do not know may not be its attribute dict
                # (it can be part of the op's own syntax): keep it, so the print means the same
                written_empty = not entries and not op.generic_form and not self.text[s + 1:e - 1].strip()
                pieces.append(("attrs", written_empty))
            else:
                pieces.append(r)
            pos = e
        self._check_tokens(pos, raw.end)
        self._scan_uses(pos, raw.end, names, bound)
        tail = self._text_pieces(pos, raw.end)
        pieces.extend(tail)
        if not any(isinstance(p, tuple) and p[0] in ("attrs", "attrs_before") for p in pieces):
            at = len(pieces)
            while at and isinstance(pieces[at - 1], tuple) and pieces[at - 1][0] == "loc":
                at -= 1
            pieces.insert(at, ("attrs_end",))
        self.set_operands(op, names)
        # types: after the last top-level ':' (outside regions and the attribute dict)
        spans = [x for x in spans if x[2] != "attrs_before"]
        rtypes = self._result_types(start, raw, spans, sum(n for _, n in op.result_groups))
        # regions: bound names (`%iterArg = %0`, `(%a: t)`) become block arguments
        for r in raw.regions:
            args = [Value(n, parse_type(t) if t else None, None, i) for i, (n, t) in enumerate(bound)]
            region = self.build_region(r, op, args)
            op.regions.append(region)
            idx = pieces.index(r)
            pieces[idx] = region
        self.make_results(op, op.result_groups, rtypes)
        op._pieces = canonical_dense_pieces(pieces) if "dense<" in self.text[start:raw.end] else pieces

    def _check_tokens(self, start: int, end: int) -> None:
        """An unknown op's text kept as written: MLIR's lexer reads it all (``lexer_check``)."""
        bad = first_lexer_error(self.text, start, end)
        if bad is not None:
            raise self.error(*bad)

    def _top_level_newlines(self, start: int, raw: RawOp) -> set[int]:
        """Offsets of the line breaks of this op that are outside brackets (continuation lines)."""
        if "\n" not in self.text[start:raw.end]:
            return set()
        keep: set[int] = set()
        stack: list[str] = []
        skip = {r.start: r.end for r in raw.regions}
        pos = start
        for m in _STRUCT.finditer(self.text, start, raw.end):
            s = m.start()
            if s < pos:
                continue
            if s in skip:
                pos = skip[s]
                continue
            t = m.group()
            if t == "\n":
                if not stack:
                    keep.add(s)
            elif len(t) > 1 or t == '"':
                continue
            elif t in "([{<":
                stack.append(t)
            elif stack and stack[-1] == _CLOSERS[t]:
                stack.pop()  # a '>' that closes no '<' (as in '->' or a comparison) is not a bracket
        return keep

    def _text_pieces(self, start: int, end: int) -> list:
        if start >= end:
            return []
        out = []
        for p in self.template(start, end):
            if isinstance(p, str):
                p = self._split_loc(p)
                out.extend(p)
            else:
                out.append(p)
        return out

    _LOC = re.compile(r"\s*\bloc\(")

    def _split_loc(self, s: str) -> list:
        """Separate ``loc(...)`` parts (printed only with debug info) from text."""
        if "loc(" not in s:
            return [s]
        out: list = []
        pos = 0
        for m in self._LOC.finditer(s):
            if m.start() < pos:
                continue
            depth = 0
            j = m.end() - 1
            while j < len(s):
                if s[j] == "(":
                    depth += 1
                elif s[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                elif s[j] == '"':
                    j = s.find('"', j + 1)
                    while j > 0 and s[j - 1] == "\\":
                        j = s.find('"', j + 1)
                    if j < 0:
                        break
                j += 1
            out.append(s[pos:m.start()])
            out.append(("loc", s[m.start():j + 1]))
            pos = j + 1
        out.append(s[pos:])
        return [p for p in out if p != ""]

    def _scan_uses(self, start: int, end: int, names: list[str], bound: list) -> None:
        text = self.text[start:end]
        if "%" not in text:
            return
        for m in _VALUE_USE.finditer(text):
            after = text[m.end():m.end() + 3].lstrip()
            if after.startswith(":") and not after.startswith("::"):
                # `%a: type` binds a region argument
                c = Cursor(self, RawOp(start, end), start + m.end(), "block argument")
                c.expect(":")
                try:
                    t = self.norm(c.ws(), (c.skip_type(), c.pos)[1])
                except ParseError:
                    t = None
                bound.append((m.group(), t))
            elif after.startswith("=") and not after.startswith("=="):
                bound.append((m.group(), None))
            elif self.lookup(m.group()) is not None:
                names.append(m.group())

    def _find_attr_dict(self, start: int, raw: RawOp) -> tuple[tuple[int, int] | None, bool]:
        """The span of the op's attribute dictionary (None if it has none), and whether the op writes
        its properties ``<{...}>`` (then a dictionary can only come right after them)."""
        text = self.text
        region_starts = {r.start: r for r in raw.regions}
        stack: list[str] = []
        pos = start
        prev_sig = ""
        properties_end = -1
        for m in re.compile(r'"(?:[^"\\]|\\.)*"|->|[()\[\]{}<>]|[^\s()\[\]{}<>"]').finditer(
                text, start, raw.end):
            s = m.start()
            if s < pos:
                continue
            t = m.group()
            if s in region_starts:
                pos = region_starts[s].end
                prev_sig = "}"
                continue
            if not stack and t == "<" and text.startswith("{", s + 1):
                pos = properties_end = self.scanner.match_bracket(s)
                prev_sig = ">"
                continue
            if not stack and t == "{" and prev_sig not in ("=", "<"):
                if properties_end >= 0 and text[properties_end:s].strip():
                    return None, True
                close = self.scanner.match_bracket(s)
                body = text[s + 1:close - 1].strip()
                if not body or re.match(r'(?:[A-Za-z_][\w$.-]*|"(?:[^"\\]|\\.)*")\s*(?:=|,|$)', body):
                    return (s, close), properties_end >= 0
                pos = close
                prev_sig = "}"
                continue
            if t in "([{<":
                stack.append(t)
            elif t in ")]}>" and stack and stack[-1] == _CLOSERS[t]:
                stack.pop()
            prev_sig = t[-1] if t else prev_sig
        return None, properties_end >= 0

    def _last_top_colon(self, start: int, raw: RawOp, spans) -> int:
        """Offset of the last ``:`` outside brackets, regions and locations (-1 if none)."""
        text = self.text
        skip = [(s, e) for s, e, _ in spans]
        stack: list[str] = []
        last_colon = -1
        rx = re.compile(r'"(?:[^"\\]|\\.)*"|->|::|[()\[\]{}<>:]|\bloc\(')
        pos = start
        for m in rx.finditer(text, start, raw.end):
            s = m.start()
            if s < pos:
                continue
            if any(a <= s < b for a, b in skip):
                pos = next(b for a, b in skip if a <= s < b)
                continue
            t = m.group()
            if t[0] == '"' or t in ("->", "::"):
                continue
            if t == "loc(":
                pos = self.scanner.match_bracket(s + 3)
                continue
            if t in "([{<":
                stack.append(t)
            elif t in ")]}>":
                if stack and stack[-1] == _CLOSERS[t]:
                    stack.pop()
            elif t == ":" and not stack:
                last_colon = m.start()
        return last_colon

    def _result_types(self, start: int, raw: RawOp, spans, nresults: int) -> list[Type | None]:
        if nresults == 0:
            return []
        text = self.text
        skip = [(s, e) for s, e, _ in spans]
        last_colon = self._last_top_colon(start, raw, spans)
        if last_colon < 0:
            return [None] * nresults
        last_colon += 1
        end = raw.end
        for a, _ in skip:
            if a >= last_colon:
                end = min(end, a)
        seg = text[last_colon:end]
        cut = re.search(r"\s(?:attributes|loc\(|cond|do)\b", seg)
        if cut:
            seg = seg[:cut.start()]
        try:
            c = Cursor(self, RawOp(last_colon, last_colon + len(seg)), last_colon, "types")
            if c.peek("("):
                save = c.pos
                c.balanced()
                if c.peek("->"):
                    c.pos = save
                    _, outs = c.function_type()
                    types: list = outs
                else:
                    c.pos = save
                    types = c.types()
            else:
                types = c.types()
        except ParseError:
            return [None] * nresults
        if len(types) == nresults:
            return types
        if len(types) == 1:
            return types * nresults
        return [None] * nresults


# ---------------------------------------------------------------------------------------
# Handlers for modelled ops.  Each reads the op after its name.
# ---------------------------------------------------------------------------------------

_LABEL_ARG_NAME = re.compile(r"(?<=[(,])\s*%[\w$.-]+(?:#\d+)?")


def _in_brackets(text: str, at: int) -> bool:
    """Is ``at`` inside a ``<...>`` or ``[...]`` of a block label's text (a type's or a location's)?"""
    return text.count("<", 0, at) > text.count(">", 0, at) or text.count("[", 0, at) > text.count("]", 0, at)


def _stray_closer(text: str) -> int:
    """The offset in ``text`` (an attribute value) of a '>' that closes no '<', or of the name before a
    top-level '=' (another entry, the ',' before it missing); -1 when there is none."""
    depth = 0
    for m in _ANGLE_OR_STRING.finditer(text):
        t = m.group()
        if t in "<([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
        elif t == ">":
            if depth == 0:
                return m.start()
            depth -= 1
        elif t == "=" and depth == 0:
            name = _NAME_BEFORE_EQ.search(text, 0, m.start())
            return name.start() if name else m.start()
    return -1


#: A value name with a result number (``%0#``), as a line that starts an op may not have.
_NUMBERED_RESULT_NAME = re.compile(r"%[\w$.-]+#")
#: What an op's syntax expects that MLIR reports at the token found instead (``parseKeyword``, ``parseSymbolName``:
#: ``emitError`` at the current token), past the end of the op's text; the rest are wrong tokens (after the text).
_AT_THE_NEXT_TOKEN = re.compile(r"expected ('[A-Za-z_]|a symbol name|the function name)")
_ANGLE_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|->|>=|<=|==|[<>()\[\]{}=]')
_NAME_BEFORE_EQ = re.compile(r'(?:[\w$.-]+|"(?:[^"\\]|\\.)*")\s*\Z')


def _check_attribute(p: ModuleParser, canonical: str, at: int, end: int) -> None:
    """MLIR's parse error for an attribute value we keep as text: read as written (``canonical`` when it uses
    aliases) by ``attr_reader``, the error at its token (an elements literal's own checks at its ``dense``)."""
    from shardy_py.syntax.attr_reader import parse_attribute

    written = p.text[at:end]
    text = canonical if "#" in written or "!" in written else written
    try:
        parse_attribute(text)
    except AttrSyntaxError as e:
        where, message = at, e.message
        if text is not written and text == written.strip():  # (canonical as written: the same offsets)
            where, written = at + len(written) - len(written.lstrip()), text
            text = written
        if text is written:
            whole = re.match(r"inferred shape|parsed |elements (hex|literal)", e.message)
            where += max(written.rfind("dense<", 0, e.offset + 1), 0) if whole else e.offset
        if message.endswith("after the value"):  # (two entries without the ',' between them)
            message = "expected '}' in attribute dictionary"
        raise p.error(wrong_token_offset(p.text, where) if is_wrong_token_error(message) else where,
                      message) from None


def _located_sdy(p: ModuleParser, cur: Cursor, op: Operation, key: str, rule: str) -> None:
    """Parse the sdy piece at the cursor into ``op.properties[key]``, remembering where it was."""
    cur.ws()
    op.properties[key + "_loc"] = p.loc(cur.pos)
    op.properties[key] = cur.sdy(rule)


def _trailer(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    op.location_text = cur.location()
    cur.finish()


def _attrs(cur: Cursor, op: Operation) -> None:
    d = cur.attr_dict()
    if d is not None:
        op.attributes, op.attribute_locs = d


def _single_type(p: ModuleParser, cur: Cursor, op: Operation, operands: list[str], same_operand: bool = True):
    cur.expect(":", "':' and the type")
    t = cur.type()
    p.set_operands(op, operands)
    if same_operand:
        op.operand_types = [t] * len(operands)
    p.make_results(op, op.result_groups, [t])
    _trailer(p, cur, op)


def _expect_results(p: ModuleParser, op: Operation, n: int | None) -> None:
    """The op has ``n`` results: named as written, or left unnamed (MLIR's ``bindResults``)."""
    have = sum(k for _, k in op.result_groups)
    if n is not None and have != n:
        if have == 0:
            op.result_groups = [("", n)]
            return
        raise p.error(p.offset_of(op.loc), results_mismatch(n, have))


def h_mesh(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 0)
    m = cur.match(_SYMBOL)
    if not m:
        raise cur.error(f"expected a symbol name like @mesh, found {cur.found()}")
    op.properties["sym_name"] = _symbol_name(p, m)
    op.properties["sym_loc"] = p.loc(m.start())
    cur.expect("=", "'=' after the mesh name")
    cur.ws()
    op.properties["mesh_loc"] = p.loc(cur.pos)
    if cur.peek("#sdy.mesh"):
        start = cur.pos
        cur.pos += len("#sdy.mesh")
        cur.balanced()
        op.properties["mesh"] = p.sdy_attr(start, cur.pos, "mesh_op_body", op.name)
    else:
        op.properties["mesh"] = cur.sdy("mesh_body")
    _attrs(cur, op)
    _trailer(p, cur, op)


def _symbol_name(p: ModuleParser, m: re.Match) -> str:
    """The name of the symbol reference matched by ``m`` (``@main`` or ``@"quoted name"``)."""
    s = m.group()[1:]
    return p.unquote_at(s, m.start() + 1) if s.startswith('"') else s


def h_sharding_op(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 1)
    x = cur.value_use()
    _located_sdy(p, cur, op, "sharding", "sharding_body")
    _attrs(cur, op)
    _single_type(p, cur, op, [x])


def h_return(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 0)
    _attrs(cur, op)
    names = cur.value_uses()
    types: list[Type] = []
    if names:
        cur.expect(":", "':' and the operand types")
        types = cur.types()
        if len(types) != len(names):
            raise cur.error(f"{len(names)} operands but {len(types)} types")
    p.set_operands(op, names)
    op.operand_types = types
    _trailer(p, cur, op)


def _region_args(p: ModuleParser, cur: Cursor) -> list[Value]:
    cur.expect("(", "'(' and the region arguments")
    args: list[Value] = []
    if cur.accept(")"):
        return args
    while True:
        cur.ws()
        at = cur.pos
        name = cur.value_use()
        cur.expect(":")
        t = cur.type()
        v = Value(name, t, None, len(args), p.loc(at))
        d = cur.attr_dict()
        if d:
            v.attributes = d[0]
        v.location_text = cur.location()
        args.append(v)
        if not cur.accept(","):
            break
    cur.expect(")")
    return args


def _operand_list(cur: Cursor) -> list[str]:
    cur.expect("(", "'(' and the operands")
    names = cur.value_uses()
    cur.expect(")")
    return names


def _sharding_list(p: ModuleParser, cur: Cursor, op: Operation, key: str) -> None:
    cur.ws()
    op.properties[key + "_loc"] = p.loc(cur.pos)
    op.properties[key] = A.TensorShardingPerValueAttr(cur.sdy("sharding_list"))


def _region_op_tail(p: ModuleParser, cur: Cursor, op: Operation, operands: list[str], args: list[Value],
                    isolated: bool) -> None:
    raw = cur.region()
    p.set_operands(op, operands)
    region = p.build_region(raw, op, args, isolated=isolated)
    op.regions.append(region)
    _attrs(cur, op)
    cur.expect(":", "':' and the function type")
    cur.ws()
    op.properties["type_loc"] = p.loc(cur.pos)
    ins, outs = cur.function_type()
    op.operand_types = ins
    _expect_results(p, op, len(outs))
    p.make_results(op, op.result_groups, outs)
    _trailer(p, cur, op)


def h_manual_computation(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    operands = _operand_list(cur)
    cur.expect("in_shardings")
    cur.expect("=")
    _sharding_list(p, cur, op, "in_shardings")
    cur.expect("out_shardings")
    cur.expect("=")
    _sharding_list(p, cur, op, "out_shardings")
    cur.expect("manual_axes")
    cur.expect("=")
    _located_sdy(p, cur, op, "manual_axes", "manual_axes")
    args = _region_args(p, cur)
    _region_op_tail(p, cur, op, operands, args, isolated=False)


def h_named_computation(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    cur.expect("<", "'<' and the computation name")
    m = cur.match(re.compile(r'"(?:[^"\\]|\\.)*"'))
    if not m:
        raise cur.error(f"expected the computation name as a string, found {cur.found()}")
    op.properties["name"] = p.unquote_at(m.group(), m.start())
    cur.expect(">")
    operands = _operand_list(cur)
    if cur.accept("in_shardings"):
        cur.expect("=")
        _sharding_list(p, cur, op, "in_shardings")
    if cur.accept("out_shardings"):
        cur.expect("=")
        _sharding_list(p, cur, op, "out_shardings")
    args = _region_args(p, cur)
    _region_op_tail(p, cur, op, operands, args, isolated=False)


def h_sharding_group(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 0)
    x = cur.value_use()
    cur.expect("group_id")
    cur.expect("=")
    m = cur.match(_INT)
    if not m:
        raise cur.error(f"expected an integer group id, found {cur.found()}")
    op.properties["group_id"] = int(m.group())
    _attrs(cur, op)
    cur.expect(":", "':' and the type")
    t = cur.type()
    p.set_operands(op, [x])
    op.operand_types = [t]
    _trailer(p, cur, op)


def h_constant(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 1)
    _attrs(cur, op)
    cur.ws()
    start = cur.pos
    # the value runs to the top-level ':' before the type
    m = cur.match(_TYPE_HEAD)
    if not m:
        raise cur.error(f"expected an elements attribute like dense<...>, found {cur.found()}")
    if cur.pos < cur.end and p.text[cur.pos] == "<":
        cur.balanced()
    value = p.norm(start, cur.pos)
    cur.expect(":", "':' and the type")
    t = cur.type()
    _check_attribute(p, f"{value} : {t}", start, cur.pos)  # (read as MLIR reads it, as stablehlo.constant's)
    # the value's type is the result type (MLIR elides it): canonical floats need its element type
    if value.startswith("dense<") and not (isinstance(t, RankedTensorType) and DYNAMIC not in t.shape):
        shaped = isinstance(t, (RankedTensorType, UnrankedTensorType, VectorType))
        raise p.error(start, "elements literal type must have static shape" if shaped
                      else "elements literal must be a shaped type")
    dense = _DENSE_VALUE.fullmatch(value)
    if dense and isinstance(t, RankedTensorType):
        value = canonical_dense_elements(dense.group(1), str(t)) or canonical_dense_value(dense.group(1),
                                                                                          t.element_type)
    op.properties["value"] = A.OpaqueAttr(value)
    p.set_operands(op, [])
    p.make_results(op, op.result_groups, [t])
    _trailer(p, cur, op)


def h_data_flow_edge(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 1)
    x = cur.value_use()
    if cur.accept("sharding"):
        cur.expect("=")
        _located_sdy(p, cur, op, "sharding", "sharding_body")
    _attrs(cur, op)
    _single_type(p, cur, op, [x])


def h_func_data_flow_edge(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 1)
    x = cur.value_use()
    _attrs(cur, op)
    _single_type(p, cur, op, [x])


def h_propagation_barrier(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 1)
    x = cur.value_use()
    cur.expect("allowed_direction")
    cur.expect("=")
    m = cur.match(_BARE_ID)
    if not m or m.group() not in A.PROPAGATION_DIRECTIONS:
        raise cur.error("expected a propagation direction (NONE, FORWARD, BACKWARD or BOTH), found "
                        + (repr(m.group()) if m else cur.found()))
    op.properties["allowed_direction"] = m.group()
    _attrs(cur, op)
    _single_type(p, cur, op, [x])


def _collective(prop: str | None, rule: str | None, has_reduction: bool = False):
    def handler(p: ModuleParser, cur: Cursor, op: Operation) -> None:
        _expect_results(p, op, 1)
        if has_reduction:
            cur.ws()
            m = _BARE_ID.match(p.text, cur.pos, cur.end)
            if m and m.group() in A.REDUCTION_KINDS:
                cur.pos = m.end()
                op.properties["reduction_op"] = m.group()
            else:
                op.properties["reduction_op"] = "sum"
        if prop is not None:
            _located_sdy(p, cur, op, prop, rule)
        x = cur.value_use()
        cur.expect("out_sharding")
        cur.expect("=")
        _located_sdy(p, cur, op, "out_sharding", "sharding_body")
        _attrs(cur, op)
        _single_type(p, cur, op, [x])
    return handler


def h_func(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 0)
    vis = cur.match(re.compile(r"(?:private|public|nested)\b"))
    if vis:
        op.properties["sym_visibility"] = vis.group()
    m = cur.match(_SYMBOL)
    if not m:
        raise cur.error(f"expected the function name like @main, found {cur.found()}")
    op.properties["sym_name"] = _symbol_name(p, m)
    cur.expect("(", "'(' and the arguments")
    args: list[Value] = []
    arg_types: list[Type] = []
    arg_attrs: list[dict] = []
    arg_locs: list[str | None] = []
    named = cur.peek("%")
    if not cur.accept(")"):
        while True:
            cur.ws()
            at = cur.pos
            if named:
                name = cur.value_use()
                cur.expect(":", "':' and the argument type")
            t = cur.type()
            d = cur.attr_dict()
            attrs_ = d[0] if d else {}
            arg_locs.append(cur.location())
            if named:
                v = Value(name, t, None, len(args), p.loc(at), attrs_)
                if d:
                    v_locs = d[1]
                    op.attribute_locs.update({f"arg{len(args)}.{k}": loc for k, loc in v_locs.items()})
                args.append(v)
            arg_types.append(t)
            arg_attrs.append(attrs_)
            if not cur.accept(","):
                break
        cur.expect(")")
    res_types: list[Type] = []
    res_attrs: list[dict] = []
    res_locs: list[Location] = []
    if cur.accept("->"):
        if cur.peek("(") and not _looks_like_function_type(cur):
            cur.expect("(")
            if not cur.accept(")"):
                while True:
                    cur.ws()
                    res_locs.append(p.loc(cur.pos))
                    res_types.append(cur.type())
                    d = cur.attr_dict()
                    res_attrs.append(d[0] if d else {})
                    if d:
                        op.attribute_locs.update({f"res{len(res_types) - 1}.{k}": loc for k, loc in d[1].items()})
                    cur.location()
                    if not cur.accept(","):
                        break
                cur.expect(")")
        else:
            cur.ws()
            res_locs.append(p.loc(cur.pos))
            res_types.append(cur.type())
            res_attrs.append({})
    if cur.keyword("attributes"):
        d = cur.attr_dict()
        if d is None:
            raise cur.error("expected '{' after 'attributes'")
        op.attributes = d[0]
        op.attribute_locs.update(d[1])
    op.properties.update(arg_types=arg_types, arg_attrs=arg_attrs, result_types=res_types,
                         res_attrs=res_attrs, res_locs=res_locs, arg_locs=arg_locs)
    if cur.at_brace():
        if arg_types and not named:
            raise cur.error("a function with a body needs named arguments (%arg0: type, ...)")
        brace = cur.pos
        raw = cur.region()
        if not raw.items and not args and p.scanner.unclosed is None:  # (an unclosed body: that error first)
            raise cur.error("expected a non-empty function body", brace)  # (with arguments: an empty block)
        p.func_depth += 1
        try:
            region = p.build_region(raw, op, args, isolated=True)
        finally:
            p.func_depth -= 1
        op.regions.append(region)
    # (a declaration may name its arguments: MLIR reads and drops the names)
    _trailer(p, cur, op)


def _looks_like_function_type(cur: Cursor) -> bool:
    """``-> (T) -> U`` would be a function-typed single result; rare, but keep it whole."""
    save = cur.pos
    try:
        cur.balanced()
        return cur.peek("->")
    except ParseError:
        return False
    finally:
        cur.pos = save


def h_module(p: ModuleParser, cur: Cursor, op: Operation) -> None:
    _expect_results(p, op, 0)
    m = cur.match(_SYMBOL)
    if m:
        op.properties["sym_name"] = _symbol_name(p, m)
    if cur.keyword("attributes"):
        d = cur.attr_dict()
        if d is None:
            raise cur.error("expected '{' after 'attributes'")
        op.attributes, op.attribute_locs = d
    raw = cur.region()
    op.regions.append(p.build_region(raw, op, [], isolated=True))
    _trailer(p, cur, op)


_HANDLERS = {
    "builtin.module": h_module,
    "func.func": h_func,
    "func.return": h_return,
    "sdy.mesh": h_mesh,
    "sdy.sharding_constraint": h_sharding_op,
    "sdy.reshard": h_sharding_op,
    "sdy.return": h_return,
    "sdy.manual_computation": h_manual_computation,
    "sdy.named_computation": h_named_computation,
    "sdy.sharding_group": h_sharding_group,
    "sdy.constant": h_constant,
    "sdy.data_flow_edge": h_data_flow_edge,
    "sdy.func_data_flow_edge": h_func_data_flow_edge,
    "sdy.propagation_barrier": h_propagation_barrier,
    "sdy.all_gather": _collective("gathering_axes", "list_of_axis_ref_lists"),
    "sdy.all_slice": _collective("slicing_axes", "list_of_axis_ref_lists"),
    "sdy.all_to_all": _collective("params", "all_to_all_params"),
    "sdy.collective_permute": _collective(None, None),
    "sdy.all_reduce": _collective("reduction_axes", "axis_ref_list", has_reduction=True),
    "sdy.reduce_scatter": _collective("reduce_scatter_axes", "list_of_axis_ref_lists", has_reduction=True),
    "sdy.sharded_to_unreduced": _collective("axes", "list_of_axis_ref_lists"),
    "sdy.replicated_to_unreduced": _collective("axes", "axis_ref_list"),
}


from shardy_py.syntax.alias_defs import check_alias_definition, check_alias_uses, not_a_definition  # noqa: E402
from shardy_py.syntax.declared import parse_custom  # noqa: E402
from shardy_py.syntax.dialect_attr_check import check_dialect_attributes  # noqa: E402
from shardy_py.syntax.earlier_errors import earlier_error  # noqa: E402
from shardy_py.syntax.generic_parser import parse_generic  # noqa: E402
from shardy_py.syntax.known_ops import check_known_op, results_mismatch  # noqa: E402

#: Characters Python counts as white space but MLIR's lexer rejects (outside comments).
_NOT_WHITE_SPACE = re.compile("[\v\f]")
_STRING_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"?')


def _reject_control_character(text: str, offset: int, filename: str | None, first_line: int) -> None:
    """Raise MLIR's error for a vertical tab or form feed at ``offset`` (comments already blanked)."""
    line_start = text.rfind("\n", 0, offset) + 1
    inside = any(m.start() < offset < m.end() for m in _STRING_LITERAL.finditer(text, line_start, offset + 1))
    line, col = LineIndex(text, first_line).locate(offset)
    what = "vertical tab" if text[offset] == "\v" else "form feed"
    message = (f"expected '\"' in string literal: a string cannot hold a raw {what} (write a hex escape)" if inside
               else f"unexpected character: a {what} is not white space in MLIR")
    raise ParseError(message, line, col, offset, filename)


def parse_module(text: str, filename: str | None = None, first_line: int = 1, *, fast_paths: bool = True,
                 _earlier: bool = True) -> Module:
    """Parse ``text`` into a ``Module`` (raises ``ParseError``).

    ``fast_paths=False`` parses every op in full (no scanner line fast path, no op recipes): the same
    module, slower; the tests and the fuzz target compare the two.
    """
    blanked = blank_comments(text)
    if "\x00" in blanked:  # (a comment may hold one, as MLIR's lexer skips it there)
        i = blanked.index("\x00")
        line, col = LineIndex(text, first_line).locate(i)
        raise ParseError("the input contains a NUL byte; is this a binary file?", line, col, i, filename)
    if (bad := _NOT_WHITE_SPACE.search(blanked)) is not None:
        _reject_control_character(blanked, bad.start(), filename, first_line)
    odd = first_odd_character(blanked)
    p = ModuleParser(blanked, filename, first_line, fast_paths)
    p.scanner.source = text
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        preamble: list[str] = []
        postamble: list[str] = []
        ops: list[Operation] = []
        alias_names: dict[str, bool] = {}
        for item in p.scanner.top_level_items():  # each op built before the text after it is scanned
            if isinstance(item, RawLabel):
                raise p.error(item.start, "a block label is only allowed inside a region")
            c = p.text[item.start]
            alias = _ALIAS_DEF.match(p.text, item.start, item.end) if c in "!#" else None
            if alias:
                check_alias_definition(p, alias.group(1), alias.end(), item.end, alias_names)
                alias_names[alias.group(1)] = True
            if c in "!#" and not p.text.startswith("#loc", item.start):
                if alias:  # MLIR writes an alias out where it is used and prints no definition
                    body = p.text[alias.end():item.end].strip()
                    if c == "!":
                        p.type_aliases[alias.group(1)] = p.norm(alias.end(), item.end)
                    else:
                        p.attr_aliases[alias.group(1)] = body  # an unknown dialect's text, kept as written
                    continue
            if c in "#!" and not alias:
                raise not_a_definition(p, item.start)
            if c in "#!" or p.text.startswith("{-#", item.start):
                # alias definitions after the ops (MLIR prints location aliases there) stay after them
                (postamble if ops else preamble).append(
                    p.norm(item.start, item.end) if c in "#!" else p.text[item.start:item.end].strip())
                continue
            ops.append(p.build_op(item))
        if odd is not None:
            raise p.error(odd, "unexpected character")
        if p.scanner.unclosed is not None:
            raise p.scanner.unclosed
        check_alias_uses(p, set(alias_names))
        p.ssa.finish()
    except RecursionError:
        raise ParseError("the input is nested too deeply to parse", 1, 1, 0, filename) from None
    except ParseError as e:
        if odd is not None and odd <= p.scanner.skip_ws(e.offset) and e.message != "unexpected character":
            raise p.error(odd, "unexpected character") from None  # (MLIR's lexer reaches it first)
        lexed = first_lexer_error(blanked, 0, len(blanked), registered=True)
        if lexed is not None and lexed[0] != e.offset and lexed[0] <= p.scanner.skip_ws(e.offset):
            raise p.error(*lexed) from None  # (MLIR's lexer reaches it first; at the same place, ours says more)
        unclosed = p.scanner.unclosed
        if unclosed is not None and e is not unclosed and e.offset >= unclosed.offset:
            raise unclosed from None  # (what the op after an unclosed region lacks: the end came first)
        first = earlier_error(text, e, lambda prefix: parse_module(
            prefix, filename, first_line, fast_paths=fast_paths, _earlier=False),
            lambda name, at: None if name in _HANDLERS or lookup(name) else check_known_op(p, name, at, False)
        ) if _earlier else None
        if first is not None:
            raise first from None
        raise
    finally:
        if gc_was_enabled:
            gc.enable()
    if len(ops) == 1 and ops[0].name == "builtin.module":
        top = ops[0]
        top.properties["explicit"] = True
    else:
        top = Operation("builtin.module", loc=Location(first_line, 1))
        region = Region(parent=top)
        block = Block(parent=region)
        region.blocks.append(block)
        top.regions.append(region)
        for op in ops:
            op.parent = block
            block.ops.append(op)
    return Module(top, text, filename, preamble, postamble, p.ssa.verifier_failures())
