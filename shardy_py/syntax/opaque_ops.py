"""Ops of dialects we do not model, kept as a lossless template: the part of ``ModuleParser`` (a
mixin) that reads such an op's operands (the value uses in its text that resolve), its attribute
dictionary, its regions and its result types, and keeps the rest of its text as written, to print
it back (``syntax.printer.Printer.opaque``).
"""
from __future__ import annotations

import re

from shardy_py.errors import ParseError
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.types import Type, parse_type
from shardy_py.syntax.cursor import _VALUE_USE, Cursor
from shardy_py.syntax.floats import canonical_dense_pieces
from shardy_py.syntax.lexer_check import first_lexer_error
from shardy_py.syntax.scanner import _CLOSERS, _STRUCT, RawOp

#: Inherent attributes of other dialects' ops: written in an attribute dictionary,
#: MLIR stores (and prints) them as properties, ``<{...}>``.
INHERENT_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "stablehlo.constant": ("value",),
    "mhlo.constant": ("value",),
}


class OpaqueOpReader:
    """Reads ops of unknown dialects (a mixin of ``syntax.parser.ModuleParser``)."""

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
