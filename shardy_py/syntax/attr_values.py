"""Attribute values and attribute dictionaries read out of a module's text: the part of
``ModuleParser`` (a mixin) that reads ``{a = 1, b}``, keeps attribute texts canonical (line breaks
folded, sdy attributes parsed and reprinted, dictionaries sorted) and splits the text of an op we
do not model into its string pieces and sdy attributes.
"""
from __future__ import annotations

import re

from shardy_py.errors import AttrSyntaxError
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Location
from shardy_py.syntax.attr_reader import parse_attribute
from shardy_py.syntax.dialect_attr_check import check_dialect_attributes
from shardy_py.syntax.floats import canonical_float_attr
from shardy_py.syntax.op_writer import attr_entries
from shardy_py.syntax.scanner import _CLOSERS, is_wrong_token_error, wrong_token_offset
from shardy_py.syntax.sdy_parser import parse_sdy
from shardy_py.syntax.text_fold import canonical_names, canonical_piece, fold, fold_keeping_opaque

UNIT = A.UNIT_ATTR
_SDY_ATTR_HEAD = re.compile(r"#sdy(?:\.[a-z_]+|<[a-z_]+)")
_INT_LITERAL = re.compile(r"-?\d+\Z")
#: A digit run too long for 64 bits.
_LONG_DIGITS = re.compile(r"\d{20}")
_HEX_INT_LITERAL = re.compile(r"-?0x[0-9a-fA-F]+\Z")
_INT_NEST = re.compile(r"\[[\[\]\d\s,-]*\]\Z")
_TYPE_COLON = re.compile(r"\s+:\s+")
_SDY_STANDALONE = {
    "#sdy.mesh": "attribute", "#sdy.sharding": "attribute", "#sdy.sharding_per_value": "attribute",
    "#sdy.op_sharding_rule": "attribute", "#sdy.propagation_edges": "attribute",
    "#sdy<manual_axes": "attribute", "#sdy<axis_ref_list": "attribute",
    "#sdy<list_of_axis_ref_lists": "attribute", "#sdy<all_to_all_param_list": "attribute",
}
#: The sdy grammar's errors at a token it does not take, and those MLIR reports at that token itself.
_WRONG_SDY_TOKEN = re.compile(r"expected .*, got |unexpected character .*; expected ")
#: What an attribute's grammar expects that MLIR reports at the token found instead (``parseInteger``,
#: ``parseString``, ``parseKeyword``: ``emitError`` at the current token); the rest are wrong tokens.
_AT_THE_TOKEN = re.compile(r"expected (.* or )?an? (integer|string)\b|expected (device_ids|replicated or unreduced)\b")
_ANGLE_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|->|>=|<=|==|[<>()\[\]{}=]')
#: An attribute name: a string or MLIR's bare-id (no '-', unlike an SSA name).
_ATTR_NAME = re.compile(r'"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z0-9_$.]*)')
_NAME_BEFORE_EQ = re.compile(r'(?:[\w$.-]+|"(?:[^"\\]|\\.)*")\s*\Z')


class AttrValueReader:
    """Reads attribute values out of ``self.text`` (a mixin of ``syntax.parser.ModuleParser``, whose
    ``error``, ``loc``, ``scanner`` and alias tables it uses)."""

    def norm(self, start: int, end: int) -> str:
        """Source text with line breaks folded (comments are blanked before parsing: ``blank_comments``),
        except inside attributes of dialects MLIR keeps as written."""
        s = self.text[start:end].strip()
        if "\n" not in s:
            return s
        return fold_keeping_opaque(s) if "#" in s else fold(s)

    def sdy_attr(self, start: int, end: int, rule: str, context: str | None = None):
        text = self.text[start:end]
        try:
            return parse_sdy(text, rule)
        except AttrSyntaxError as e:
            prefix = f"'{context}': " if context else ""
            raise self.error(sdy_error_offset(self.text, start + e.offset, e.message), prefix + e.message) from None

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
                if text[m.end():m.end() + 1] != "<" and text[4] == ".":
                    _no_body_after_blanks(self, s + m.end())
                close = self._sdy_extent(s)
                if close == start + lead + len(text):
                    return self.sdy_attr(s, close, "attribute")
            elif m:
                lead = len(self.text[start:end]) - len(self.text[start:end].lstrip())
                raise self.error(start + lead + 5, f"unknown sdy attribute '{m.group()[4:].lstrip('.<')}'")
        if _INT_LITERAL.match(text):
            if not -(1 << 63) <= int(text) < (1 << 64):  # (an untyped integer is an i64: MLIR's range for it)
                lead = len(self.text[start:end]) - len(self.text[start:end].lstrip())
                raise self.error(start + lead + (text[0] == "-"), "integer constant out of range for attribute")
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
            entries, _ = self._attr_dict(start + lead, end - trail)
            return A.OpaqueAttr("{" + attr_entries(entries) + "}")
        canonical = self.canonical_text(start + lead, end - trail)
        if self.attr_aliases and "#" in canonical:
            canonical = self.expand_aliases(canonical)
        if _INT_NEST.match(canonical):  # a (nested) array of untyped integers: MLIR's `, ` spacing
            canonical = re.sub(r"\s*,\s*", ", ", re.sub(r"\s+", "", canonical))
        if '"' not in canonical and (":  " in canonical or "  :" in canonical):
            canonical = _TYPE_COLON.sub(" : ", canonical)  # `value  :  type` spaced as MLIR prints it
        canonical = canonical_names(canonical)
        if len(canonical) < 4096 or _LONG_DIGITS.search(canonical):  # (a long literal: read, a number past range?)
            check_attribute(self, canonical, start + lead, end - trail)
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
            elif m:  # (MLIR places it at the name: after ``#sdy.``, or ``#sdy<``)
                raise self.error(i + 5, f"unknown sdy attribute '{m.group()[4:].lstrip('.<')}'")
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
            m = _ATTR_NAME.match(self.text, k, e)
            if not m:
                raise self.error(wrong_token_offset(self.text, k), "expected attribute name")
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
            else:  # (MLIR: a name is a bare-id, `[A-Za-z_][A-Za-z0-9_$.]*`, or a string; then '=', ',' or '}')
                raise self.error(wrong_token_offset(self.text, rest), "expected '}' in attribute dictionary")
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


def sdy_error_offset(text: str, at: int, message: str) -> int:
    """Where MLIR reports the sdy grammar's error ``message`` met at ``at``: a token it does not take is a wrong
    token, reported after the text before it, save a string or integer it wants (reported at the token)."""
    if _WRONG_SDY_TOKEN.match(message) and not _AT_THE_TOKEN.search(message):
        return wrong_token_offset(text, at)
    return at


def _no_body_after_blanks(p, after: int) -> None:
    """Raise MLIR's error where a dotted sdy attribute's name (ending at ``after``) is followed by its '<...>'
    after blanks: MLIR's lexer takes a body only right after the name, so the dialect's parser reads it and
    the dictionary then finds that '<' where its ',' or '}' should be (a wrong token, after the name)."""
    nxt = p.scanner.skip_ws(after)
    if p.text.startswith("<", nxt):
        raise p.error(wrong_token_offset(p.text, nxt), "expected '}' in attribute dictionary")


def _end_as_written(written: str, default: int) -> int:
    """The offset in ``written`` (a value and text after it) of what follows the value, read as written;
    ``default`` when the written text does not end its value there."""
    try:
        parse_attribute(written)
    except AttrSyntaxError as e:
        if e.message.endswith("after the value"):
            return e.offset
    return default


def _error_before_aliases(written: str) -> AttrSyntaxError | None:
    """``written``'s own error when the attribute reader meets it before the first alias use (``#``, ``!``)."""
    first = min((i for i in (written.find("#"), written.find("!")) if i >= 0), default=len(written))
    try:
        parse_attribute(written)
    except AttrSyntaxError as e:
        return e if e.offset < first else None
    return None


def check_attribute(p, canonical: str, at: int, end: int) -> None:
    """MLIR's parse error for an attribute value we keep as text: read as written (``canonical`` when it uses
    aliases) by ``attr_reader``, the error at its token (an elements literal's own checks at its ``dense``)."""
    written = p.text[at:end]
    text = canonical if "#" in written or "!" in written else written
    try:
        parse_attribute(text)
    except AttrSyntaxError as e:
        where, message = at, e.message
        if text is not written and text == written.strip():  # (canonical as written: the same offsets)
            where, written = at + len(written) - len(written.lstrip()), text
            text = written
        elif text is not written and (as_written := _error_before_aliases(written)) is not None:
            if as_written.message == e.message:  # (met before the first alias: the written text's offsets)
                text = written
                e = as_written
        if text is written:
            whole = re.match(r"inferred shape|parsed |elements (hex|literal)", e.message)
            where += max(written.rfind("dense<", 0, e.offset + 1), 0) if whole else e.offset
        if message.endswith("after the value"):  # (two entries without the ',' between them)
            if text is not written:  # (the canonical text's offset: the value's end as written is MLIR's)
                where = at + _end_as_written(written, where - at)
            message = "expected '}' in attribute dictionary"
        if message.startswith("floating point value not valid"):  # (at the token after the value's type)
            where = p.scanner.skip_ws(where)
        raise p.error(wrong_token_offset(p.text, where) if is_wrong_token_error(message) else where,
                      message) from None
