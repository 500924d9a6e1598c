"""Skeleton scanner: split MLIR text into ops, regions and blocks.

MLIR's custom op syntaxes are open-ended, so the module skeleton is found
without a grammar: one pass over the "structural" characters (brackets,
strings, comments, newlines) finds where each op starts and ends and which
``{`` opens a region.  Rules (matching how MLIR prints and how people write):

* an op ends at a newline outside brackets, unless the next line continues
  it (a line starting with a bare word such as ``cond`` or ``do``);
* an op also ends where another op starts on its line (MLIR separates ops by
  white space, not by ``;``): outside brackets, once the op could end there
  (after its type, a bracket group or a region), at a result list ``%0 =``,
  a dotted op name, a generic op name ``"dialect.op"(``, ``return``/``call``,
  and anywhere at a block label ``^bb1(...):``;
* ``{`` opens a region when it sits outside brackets (or directly inside the
  ``(`` of a generic op's region list) and a region body follows, on the next
  line or on the same one (``{ sdy.return %0 : tensor<8xf32> }``), rather than
  an attribute dictionary (``{a = 1}``, ``{unit}``; ``{}`` on one line is a
  dictionary too);
* a ``}`` outside brackets closes the current region.

The result is a tree of ``RawOp``/``RawRegion`` spans into the source; the
op parsers in ``shardy_py.syntax.parser`` read each span.
"""
from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Iterator

import attrs

from shardy_py.errors import ParseError

_STRUCT = re.compile(r'"(?:[^"\\\n]|\\.)*"|"|//[^\n\r]*|->|[()\[\]{}<>\n]')
#: White space short of a line break: what the printer's folding (``str.strip``, ``\s``) takes for it.
_INLINE_SPACE = re.compile(r"[^\S\n]*")
_SKIP_WS = re.compile(r"(?:\s+|//[^\n\r]*)*")
# A line that starts a new op (or closes a region) rather than continuing the previous op.
_OP_START = re.compile(r'%[\w$.-]+(?::\d+)?(?:\s*,\s*%[\w$.-]+(?::\d+)?)*\s*=(?!=)|"|\^|}|#|!|\{-#'
                       r'|[A-Za-z_][\w$]*\.[\w$.]*|(?:return|module|call_indirect|call|constant)\b')
#: An op's results and its '=' with nothing after them on the line: the op's name is on a line below.
_RESULTS_ONLY = re.compile(r"%[\w$.-]+(?::\d+)?(?:\s*,\s*%[\w$.-]+(?::\d+)?)*\s*=[ \t]*")
_CLOSERS = {")": "(", "]": "[", ">": "<", "}": "{"}
#: The custom form of a function (whose body ends it).
_FUNC_HEAD = re.compile(r"(?:func\.)?func\s")
#: Nothing more on the line (white space, then its end).
_LINE_END = re.compile(r"[ \t]*(?:\n|\Z)")
#: A pretty dialect attribute or type name just before a '<' (``#sdy.sharding<``, ``!stablehlo.token<``).
_PRETTY_NAME_BEFORE = re.compile(r"(?<![\w$.])[#!][A-Za-z_][\w$]*\.[\w$.]+\Z")
#: One token of an op's top-level text between two of its bracket groups (a stretch of one line).
_STRETCH_TOKEN = re.compile(
    r'(?P<results>%[\w$.-]+(?::\d+)?(?:[ \t]*,[ \t]*%[\w$.-]+(?::\d+)?)*[ \t]*=(?!=))'
    r'|(?P<caret>\^[\w$.-]+)'
    r'|(?P<string>"(?:[^"\\\n]|\\.)*")'
    r'|(?P<word>[A-Za-z_][\w$.]*)'
    r'|(?P<colon>:(?!:))'
    r'|(?P<semicolon>;)'
    r'|(?P<name>[@%](?:"(?:[^"\\\n]|\\.)*"|[\w$.-]+)(?:#\d+)?|[#!][\w$.-]*|\d[\w.$]*)'
    r'|(?P<other>->|::|[^ \t\r])'
)
#: A stretch's leading spaces, then text without ':', '^', ';' (nor brackets, which end stretches).
_PLAIN_STRETCH = re.compile(r"([ \t\r]*)[^:^;\n(){}\[\]<]*")
_GENERIC_OP_START = re.compile(r'"(?:[^"\\\n]|\\.)*"[^\S\n]*\(')
#: What starts an op (once the op before it could end): results, a dotted or generic op name, or a func
#: op written without its dialect (``return``, inside a func.func body) or ``module``.
_OP_HEAD = re.compile(r'%[\w$.-]+(?::\d+)?(?:[ \t]*,[ \t]*%[\w$.-]+(?::\d+)?)*[ \t]*=(?!=)'
                      r'|[A-Za-z_][\w$]*\.|(?:return|call|call_indirect|constant|module)(?![\w$.])'
                      r'|"(?:[^"\\\n]|\\.)*"[ \t]*\(')
_LABEL_NAME = re.compile(r"\^[\w$.-]+")
_LABEL_COLON = re.compile(r"[ \t]*:(?!:)")
#: The first word of a brace group on the op's line, and what follows it on the line.
_FIRST_WORD = re.compile(r"([A-Za-z_][\w$.]*)[^\S\n]*(==|.?)")
_ATTRIBUTES_KEYWORD = re.compile(r"(?<![\w$.])attributes[ \t]*\Z")
#: Splits text into the text between SSA value names and the names (a capturing split).
NAME_SPLIT = re.compile(r"(%[\w$.-]+(?:#\d+)?)")
MAX_NESTING = 512  # brackets inside one op
MAX_REGION_DEPTH = 128  # regions inside regions (real IR nests a handful)
MAX_FAST_LINE = 4096  # longest rest of a line the one-line fast path takes (real ops are much shorter)


@attrs.define(eq=False)
class RawRegion:
    """A region span: ``start`` is the offset of ``{``, ``end`` just past ``}``."""

    start: int
    end: int
    items: list = attrs.field(factory=list)  # RawOp or RawLabel, in order


@attrs.define(eq=False)
class RawLabel:
    """A block label line ``^bb0(%a: t):`` span."""

    start: int
    end: int


_NO_REGIONS = ()  # the regions of every one-line op the line fast path finds


@attrs.define(eq=False)
class RawOp:
    """An op span; ``regions`` are the regions that open inside it, in order."""

    start: int
    end: int
    regions: list[RawRegion] | tuple = attrs.field(factory=list)
    #: For a one-line op the line fast path found: its text with the SSA names cut out (``op_recipes.shape_key``),
    #: one string object per shape; None otherwise.
    shape: str | None = None


_STRING_OR_COMMENT = re.compile(r'("(?:[^"\\\n]|\\.)*")|//[^\n\r]*')


def blank_comments(text: str) -> str:
    """``text`` with every ``//`` comment (outside string literals) replaced by as many spaces.

    MLIR's lexer skips comments wherever whitespace may stand, so they never change what an op
    means; blanking them once up front keeps every offset (and so every line and column) while the
    scanner and the op parsers never have to think about a comment again.
    """
    if "//" not in text:
        return text
    return _STRING_OR_COMMENT.sub(lambda m: m.group(1) or " " * (m.end() - m.start()), text)


#: ``expected ...`` errors MLIR reports at the token itself (``emitError`` at a location), not as a wrong token.
_AT_THE_TOKEN = re.compile(r"expected (one of|::|integer (elements|value)|floating-point elements|string elements|"
                           r"i1 type|elements of)")


def is_wrong_token_error(message: str) -> bool:
    """Whether MLIR reports ``message`` with ``emitWrongTokenError`` (see ``wrong_token_offset``): its parser's
    "expected X" errors, but for those it places at the token itself."""
    return message.startswith("expected") and not _AT_THE_TOKEN.match(message)


def wrong_token_offset(text: str, pos: int) -> int:
    """Where MLIR reports an unexpected token at ``pos`` (``Parser::emitWrongTokenError``): just after
    the text before it, on the line of that text (blank lines and comments, blanked, skipped)."""
    if pos >= len(text):
        pos = max(len(text) - 1, 0)
    end = pos
    while True:
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        if end == 0:
            return pos
        if text[end - 1] not in "\n\r":
            return end
        end -= 1


def end_of_input_offset(source: str, blanked: str) -> int:
    """Where MLIR reports a wrong token at the end of the input (``emitWrongTokenError`` at EOF): from its last
    character back over blanks, as ``wrong_token_offset`` (``blanked``: ``source`` with its comments blanked),
    but a comment that ends the input without a line break is the text before (its last character)."""
    head = source[:max(len(source) - 1, 0)].rstrip(" \t")
    if head and head[-1] not in "\n\r":
        return len(head)
    return wrong_token_offset(blanked, len(blanked))


class LineIndex:
    """Offset -> (line, column), 1-based."""

    def __init__(self, text: str, first_line: int = 1):
        self.starts = array("q", [0])  # 8 bytes a line
        self.starts.extend(m.end() for m in re.finditer("\n", text))
        self.first_line = first_line

    def locate(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + self.first_line, offset - self.starts[i] + 1


class Scanner:
    """Find the op/region skeleton of ``text``."""

    def __init__(self, text: str, lines: LineIndex, fast_lines: bool = True):
        #: Take one-line ops of an already-seen shape in one step (off only to test against).
        self.use_fast_lines = fast_lines
        self.text = text
        #: The text as written, comments and all (set by the module parser; what MLIR's pretty dialect
        #: name scan reads).
        self.source = text
        self.lines = lines
        self.n = len(text)
        self._whole_lines: dict[str, str] = {}

    def error(self, offset: int, message: str) -> ParseError:
        line, col = self.lines.locate(offset)
        return ParseError(message, line, col, offset)

    #: The error for a region the text ends in (set when met: see ``next_item``).
    unclosed: ParseError | None = None
    #: The error of the op whose scan failed, kept while the text before it is built (``salvage`` only).
    pending: ParseError | None = None

    def skip_ws(self, pos: int) -> int:
        return _SKIP_WS.match(self.text, pos).end()

    def scan_items(self, pos: int, depth: int, in_region: bool) -> tuple[list, int]:
        """Ops and labels from ``pos`` to the closing ``}`` (region: its ``{`` is at ``pos - 1``) or EOF,
        and the offset of that ``}`` (or of the end)."""
        items: list = []
        opened = pos - 1 if in_region else None
        while True:
            item = self.next_item(pos, depth, opened)
            if item is None:
                return items, self.skip_ws(pos)
            items.append(item)
            pos = item.end

    def top_level_items(self) -> Iterator[RawOp | RawLabel]:
        """The top-level items, each scanned only when asked for: an op can be built before the text after
        it is scanned, so that errors come in the order of the text, as MLIR reports them."""
        pos = 0
        while (item := self.next_item(pos, 0, None)) is not None:
            yield item
            pos = item.end

    def next_item(self, pos: int, depth: int, opened: int | None) -> RawOp | RawLabel | None:
        """The op or block label at or after ``pos``; None at the ``}`` closing the region whose ``{`` is at
        ``opened`` (at the end of the text when ``opened`` is None: the top level)."""
        pos = self.skip_ws(pos)
        if pos >= self.n:
            if opened is not None and self.unclosed is None:
                # MLIR parses on and reports what it finds in the region first: the region is closed
                # here and this error is raised once the text before it has been built
                line, col = self.lines.locate(opened)
                self.unclosed = self.error(end_of_input_offset(self.source, self.text),
                                           f"expected '}}' to close the region opened at {line}:{col}; "
                                           "the input ended first")
            return None
        c = self.text[pos]
        if c == "}":
            if opened is None:
                raise self.error(wrong_token_offset(self.text, pos),  # (MLIR: a wrong token, after the text before it)
                                 "expected operation name in quotes, found '}' with no region open")
            return None
        if c == "^":
            return RawLabel(pos, self.scan_label(pos))
        if not (c in '%"_' or c.isalpha() or opened is None and (c in "#!" or self.text.startswith("{-#", pos))):
            # (no op starts with this token: MLIR's wrong token, after the text before it)
            error = self.error(wrong_token_offset(self.text, pos), "expected operation name in quotes")
            error.scan_from = pos
            raise error
        return self.scan_op(pos, depth)

    def scan_label(self, pos: int) -> int:
        """A block label runs to the ``:`` that ends its line."""
        m = re.compile(r"\^[\w$.-]+").match(self.text, pos)
        if m is None:
            raise self.error(pos, "expected a block label like ^bb0 after '^'")
        end = m.end()
        if end < self.n and self.text[end] == "(":
            end = self.match_bracket(end)
        m2 = re.compile(r"\s*:").match(self.text, end)
        if not m2:  # (MLIR: a wrong token, after the text before it; its arguments are read first)
            error = self.error(wrong_token_offset(self.text, self.skip_ws(end)), "expected ':' after block name")
            error.label_end = end
            raise error
        return m2.end()

    def match_bracket(self, pos: int) -> int:
        """Offset just past the bracket group opening at ``pos`` (no regions inside)."""
        stack: list[str] = []
        for m in _STRUCT.finditer(self.text, pos):
            t = m.group()
            if t in "([{<" and len(t) == 1:
                stack.append(t)
            elif t in _CLOSERS and len(t) == 1:
                if stack and stack[-1] == _CLOSERS[t]:
                    stack.pop()
                    if not stack:
                        return m.end()
                elif t != ">":
                    raise self.error(m.start(), f"unbalanced '{t}'")
            elif t == '"':
                raise self.error(m.start(), "unterminated string")
        raise self.error(pos, "unclosed bracket")

    def scan_op(self, start: int, depth: int) -> RawOp:
        """The op starting at ``start`` (``depth``: how many regions it sits in)."""
        if depth > MAX_REGION_DEPTH:
            raise self.error(start, f"regions nested more than {MAX_REGION_DEPTH} deep")
        if self.use_fast_lines:
            fast = self._whole_line_op(start)
            if fast is not None:
                return fast
        op = RawOp(start, start)
        try:
            done = self._scan_op(start, depth, probe=False, op=op)
        except ParseError as e:
            if getattr(e, "scan_from", None) is None:
                # where MLIR's parse of the text before the failure can stop (see earlier_errors): the op's
                # start, or the line of the failure when the op's regions (parsed before) come before it
                e.scan_from = self.text.rfind("\n", 0, e.offset) + 1 if op.regions else start
            raise
        assert done is not None
        return done

    def scan_region(self, brace: int, depth: int) -> RawRegion:
        """The region whose ``{`` is at ``brace``: its items, up to and including its ``}``."""
        region = RawRegion(brace, brace)
        region.items, close = self.scan_items(brace + 1, depth + 1, True)
        region.end = close + 1
        return region

    def _scan_op(self, start: int, depth: int, probe: bool, op: RawOp | None = None) -> RawOp | None:
        """The op starting at ``start``, found token by token.

        ``probe`` only asks where the op would end if it ended on its line: it stops (None) at a region
        or at a line break inside brackets, and ends the op at the first line break outside them.
        """
        text = self.text
        op = RawOp(start, start) if op is None else op
        stack: list[str] = []
        pos = stretch = start  # stretch: where the op's current top-level text (between bracket groups) began
        state = [False, False]  # [a top-level ':' was seen (the op's type), the op could end here]
        while True:
            m = _STRUCT.search(text, pos)
            if m is None:
                if stack:
                    raise _bracket_error(self, start, self.n, op)
                op.end = self._next_op_in(stretch, self.n, state, start)
                return op
            t = m.group()
            s = m.start()
            pos = m.end()
            if len(t) > 1 and t[0] in '"/' or t == "->":
                continue
            if t == '"':
                end = text.find("\n", s)  # (MLIR's lexer: at the line break the string runs into)
                error = self.error(end if end >= 0 else max(self.n - 1, s), "expected '\"' in string literal")
                error.scan_limit = s  # (MLIR lexes the string when its parse gets there)
                raise error
            if not stack and s > stretch and t in "\n{}([<":
                end = self._next_op_in(stretch, s, state, start)
                if end < s:
                    op.end = end  # another op starts on this line
                    return op
            if t == "\n":
                if stack:
                    if probe:
                        return None
                    continue
                nxt = self.skip_ws(pos)
                if (probe or nxt >= self.n or _OP_START.match(text, nxt)) and not (
                        nxt < self.n and text[s - 1] in "= \t" and _RESULTS_ONLY.fullmatch(text, start, s)):
                    op.end = s
                    return op
                pos = stretch = nxt  # a continuation line such as `cond {` or `do {`, or the op after `%1 =`
                continue
            if t == "{":
                if (not stack or stack[-1] == "(") and self._opens_region(s, stack) and not (
                        not stack and _has_no_regions(text, start)):
                    if probe:
                        return None
                    region = self.scan_region(s, depth)
                    op.regions.append(region)
                    pos = region.end
                    if not stack:
                        stretch = pos
                        state[1] = True
                        if _FUNC_HEAD.match(text, start) and _LINE_END.match(text, pos):
                            op.end = pos  # a function ends with its body (MLIR parses no more of it)
                            return op
                    continue
                stack.append("{")
                if len(stack) > MAX_NESTING:
                    raise self.error(s, f"brackets nested more than {MAX_NESTING} deep")
                continue
            if t in "([<":
                stack.append(t)
                if len(stack) > MAX_NESTING:
                    raise self.error(s, f"brackets nested more than {MAX_NESTING} deep")
                continue
            # closers
            if stack and stack[-1] == _CLOSERS[t]:
                stack.pop()
                if not stack:
                    stretch = pos
                    state[1] = True  # after a bracket group the op could end
                continue
            if t == ">":
                continue  # a comparison-like '>' outside '<...>'
            if t == "}" and not stack:
                op.end = s  # closes the enclosing region
                return op
            if stack:
                raise _bracket_error(self, start, s, op)
            raise self.error(s, f"unexpected '{t}'")

    def _next_op_in(self, start: int, end: int, state: list[bool], op_start: int) -> int:
        """Where the next op starts in the op's top-level text ``[start, end)`` (``end`` if none).

        ``state`` ([type seen, could end here]) is carried from one stretch of the op to the next.
        """
        text = self.text
        if not state[0]:
            # Before the op's type only the first token (after a bracket group) can start an op, and only
            # a ':' (the type), a label or a ';' makes the rest worth reading token by token.
            m = _PLAIN_STRETCH.match(text, start)
            first = m.end(1)
            if first >= end:
                return end
            if m.end() >= end:  # no ':', '^' or ';' (nor a string holding a bracket)
                if state[1] and first != op_start and _OP_HEAD.match(text, first):
                    return first
                state[1] = False
                return end
        for m in _STRETCH_TOKEN.finditer(text, start, end):
            kind = m.lastgroup
            s = m.start()
            if kind == "caret" and s != op_start and self._label_on_line(s):
                return s  # a block label ends every op before it
            if kind == "semicolon":
                raise self.error(s, "unexpected ';': MLIR separates ops by white space or line breaks")
            if state[1] and s != op_start and self._starts_op(kind, m):
                return s
            if kind == "colon":
                state[0] = True
            state[1] = kind == "caret" or (kind in ("string", "word", "name") and state[0])
        return end

    def _starts_op(self, kind: str | None, m: re.Match) -> bool:
        """Does the token ``m`` start an op (given that the op before it could end there)?"""
        return kind in ("results", "word", "string") and _OP_HEAD.match(self.text, m.start()) is not None

    def _label_on_line(self, pos: int) -> bool:
        """Is the ``^name`` at ``pos`` a block label ``^bb1(%a: t):`` written on its line?"""
        text = self.text
        end = _LABEL_NAME.match(text, pos).end()
        if text.startswith("(", end):
            try:
                close = self.match_bracket(end)
            except ParseError:
                return False
            if text.find("\n", end, close) >= 0:
                return False
            end = close
        return _LABEL_COLON.match(text, end) is not None

    def _whole_line_op(self, start: int) -> RawOp | None:
        """The op at ``start`` if its line's shape (its text up to SSA names) is known to hold a whole op.

        The ``RawOp`` keeps the shape (one string per shape), not the names: ``ModuleParser.build_op`` finds
        them once more, which costs less than the whole skeleton holding every line's names until the ops
        are built.
        """
        text = self.text
        nl = text.find("\n", start, start + MAX_FAST_LINE)
        if nl < 0:
            if self.n > start + MAX_FAST_LINE:
                return None  # a long line (a whole module on one line): scanning it op by op is linear
            nl = self.n
        key = NAME_SPLIT.sub("\x00", text[start:nl])  # the names cut out (NUL: no parsed text holds one)
        shape = self._whole_lines.get(key)
        if shape is None:
            # the key itself when the line holds a whole op (kept on the RawOp: one string per shape), else ""
            shape = self._whole_lines[key] = key if self._holds_whole_op(start, nl) else ""
        if shape:
            nxt = self.skip_ws(nl)
            if nxt >= self.n or _OP_START.match(text, nxt):
                return RawOp(start, nl, _NO_REGIONS, shape)
        return None

    def _holds_whole_op(self, start: int, end: int) -> bool:
        """Is ``[start, end)`` a whole op by itself: no region, no other op, brackets closed on the line?

        True only when the full scan would end the op at ``end`` (given that the next line starts an
        op): it is the full scan, stopped at the line's end.  Anything else (strings left open, stray
        closers, a region, a second op) says False and takes the full scan, which reports errors.
        """
        try:
            op = self._scan_op(start, 0, probe=True)
        except ParseError:
            return False
        return op is not None and op.end == end

    def _opens_region(self, brace: int, stack: list[str]) -> bool:
        """Does the ``{`` at ``brace`` open a region (rather than an attribute dictionary or other syntax)?

        The caller has checked that it sits outside brackets or directly inside a ``(`` (where a generic
        op's region list is).
        """
        text = self.text
        nxt = _INLINE_SPACE.match(text, brace + 1).end()
        if nxt >= self.n or text[nxt] == "\n" or text.startswith("//", nxt):
            before = text[max(0, brace - 16):brace].rstrip()
            if not stack and (before.endswith("=") or _ATTRIBUTES_KEYWORD.search(before)):
                return False  # (a dictionary after 'attributes' or '=', whatever follows it)
            return self._region_follows(brace + 1)
        return self._region_on_line(brace, nxt, bool(stack))

    def _region_on_line(self, brace: int, nxt: int, in_parens: bool) -> bool:
        """After a ``{`` with more text on its line (from ``nxt``): does a region body (not a dictionary)
        start there?

        A body starts with a value, a label or an op; ``{}``, ``{a = 1}``, ``{a, b}`` and ``{unit}`` are
        dictionaries (as an op's attribute dictionary prints), except in a generic op's region list
        (``({word}``, ``, {word}``).  So ``{ return }`` is a region only where the op's syntax says so:
        ``Cursor.region`` scans it as one for the ops the parser knows.  A ``{`` after ``=`` or
        ``attributes`` starts a value or a dictionary.
        """
        text = self.text
        before = text[max(0, brace - 16):brace].rstrip()
        if in_parens:
            if before[-1:] not in ("(", ","):
                return False  # in parentheses only a region list has regions: `({...}, {...})`
        elif before.endswith("=") or _ATTRIBUTES_KEYWORD.search(before):
            return False
        c = text[nxt]
        if c in "%^":
            return True
        if c == '"':
            return _GENERIC_OP_START.match(text, nxt) is not None
        m = _FIRST_WORD.match(text, nxt)
        if m is None:
            return False
        word, after = m.groups()
        if after in ("=", ","):
            return False
        if after == "}":
            return in_parens
        return True

    def _region_follows(self, pos: int) -> bool:
        """After a line-ending ``{``: does a region body (not an attribute dict) follow?"""
        nxt = self.skip_ws(pos)
        if nxt >= self.n:
            return True
        c = self.text[nxt]
        if c in "%^}\"":
            return c != '"' or not re.compile(r'"(?:[^"\\\n]|\\.)*"\s*[=,}]').match(self.text, nxt)
        return not re.compile(r"[A-Za-z_][\w$.]*[ \t]*(?:=(?!=)|[,}])").match(self.text, nxt)


_CUSTOM_OP_NAME = re.compile(r'(?:%[\w$.-]+(?::\d+)?[ \t]*(?:,[ \t]*%[\w$.-]+(?::\d+)?[ \t]*)*=[ \t]*)?'
                             r'([A-Za-z_][\w$]*\.[\w$.]+)')


def _has_no_regions(text: str, start: int) -> bool:
    """Is the op at ``start`` written in the custom form of a declared op without regions (whose '{' outside
    brackets is its attribute dictionary, however it is laid out)?"""
    m = _CUSTOM_OP_NAME.match(text, start)
    if m is None:
        return False
    from shardy_py.dialects.registry import lookup

    decl = lookup(m.group(1))
    return decl is not None and not decl.regions and not m.group(1).startswith(_BRACES_THE_SCAN_JUDGES)


#: Declared ops whose '{' the scan still judges by its layout (a line break inside makes it a region), as
#: it did while their syntax was hand-written: a malformed op reports the error it reported then.
_BRACES_THE_SCAN_JUDGES = ("sdy.", "func.return")


def _bracket_error(scanner: Scanner, start: int, limit: int, op: RawOp) -> ParseError:
    """The error of the op at ``start`` whose brackets do not match at ``limit`` (``scan_errors``)."""
    from shardy_py.syntax.scan_errors import cut_off, open_brackets

    return cut_off(scanner, *open_brackets(scanner, start, limit, op), limit)


def scan(text: str, lines: LineIndex) -> list:
    """Top-level items (RawOp/RawLabel) of ``text``."""
    items, _ = Scanner(text, lines).scan_items(0, 0, False)
    return items
