"""The first error of a location (``loc(...)``) read as MLIR reads it (the error path only).

``parse_module`` keeps an op's, an argument's or an alias's location as the text of its balanced
``loc(...)`` group; a location cut at a line's end (``loc(callsite(#loc3 at``, ``#loc5 = loc("f.py":3:4 to``)
has none, and the skeleton scan reports the bracket that does not close, far away.  MLIR's location parser
(``LocationParser.cpp``) balances nothing: it reads the location's grammar token by token over the text that
follows, the next lines included, and stops at the first token the grammar does not take:

- ``loc`` ``(`` then, after an op, an argument or a block argument, an alias (``#loc3``, resolved later) or
  a location instance, and ``)`` ("expected ')' in location"); as an attribute (an alias's value) a location
  instance and ``)`` ("expected ')' in inline location");
- a location instance: an alias defined before it (``#loc3``: "undefined symbol alias id" otherwise), a name
  ``"name"`` with an optional child ``("name"(instance))``, a file range ``"f.py":LINE[:COL [to [LINE]:COL]]``,
  ``callsite(instance at instance)``, ``fused<attribute>?[instance, ...]``, ``unknown``.

``first_location_error`` reads every location that starts before a module's first error (ours) and returns
MLIR's error in the first one that fails, when it comes before ours.  Tokens and the attribute grammar (a
fused location's metadata, an alias's value) are ``torn``'s.
"""
from __future__ import annotations

import re

from shardy_py.errors import ParseError
from shardy_py.syntax import torn
from shardy_py.syntax.lexer_check import REGISTERED_DIALECTS
from shardy_py.syntax.scanner import LineIndex, blank_comments

#: The keyword ``loc`` (a bare identifier of its own) before a '('.
_LOC = re.compile(r"(?<![\w$.#!%^@\-])loc(?=\s*\()")  # (``match`` at a ``loc``: its lookbehind)
#: A top-level alias definition's name.
_ALIAS_DEF = re.compile(r"^[ \t]*(#[A-Za-z_][\w$.\-]*)[ \t]*=", re.M)
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"?')
#: Where a location is an attribute (after these characters) rather than an op's or an argument's trailing one.
_ATTRIBUTE_BEFORE = frozenset("=[,{<(")
#: Our errors that the cut of a location makes (an unclosed bracket met far away): MLIR stops in the location.
_MADE_BY_THE_CUT = re.compile(r".*(found the end of the input|the input ended first)|unbalanced |unclosed bracket$")


class _LocationReader(torn._Reader):
    """``torn``'s reader with MLIR's location grammar."""

    def trailing(self) -> None:
        """``parseOptionalTrailingLocation`` at the ``loc`` keyword."""
        self.advance()
        self.expect("(", "expected '(' in location")
        if self.kind == "prefixed" and self.text[self.start] == "#" and "." not in self.text[self.start:self.end]:
            self.advance()  # (an alias: resolved at the end of the module)
        else:
            self.instance()
        self.expect(")", "expected ')' in location")

    def inline(self) -> None:
        """The location attribute at the ``loc`` keyword."""
        self.advance()
        self.expect("(", "expected '(' in inline location")
        self.instance()
        self.expect(")", "expected ')' in inline location")

    def attribute(self) -> None:
        if self.word == "loc":
            self.inline()
        else:
            super().attribute()

    def instance(self) -> None:
        """``parseLocationInstance``."""
        if self.kind == "prefixed" and self.text[self.start] == "#":
            start, name = self.start, self.text[self.start + 1:self.end]
            try:
                kind = self.extended()
            except torn._Unmodelled:
                if name.partition(".")[0] in REGISTERED_DIALECTS or self.prev_end != start + 1 + len(name):
                    raise
                kind = "dialect"  # (an unregistered dialect's attribute, ``#foo.bar``: read as it stands)
            if kind == "dialect":  # (a dialect's attribute: none is a location)
                raise self.here("expected location attribute, but got" + "".join(
                    self.text[start:self.prev_end].split()))
            return
        if self.kind == "string":
            self.name_or_file()
            return
        word = self.word
        if word == "callsite":
            self.advance()
            self.expect("(", "expected '(' in callsite location")
            self.instance()
            if self.word != "at":
                raise self.wrong("expected 'at' in callsite location")
            self.advance()
            self.instance()
            self.expect(")", "expected ')' in callsite location")
        elif word == "fused":
            self.advance()
            if self.kind == "<":
                self.advance()
                self.attribute()
                self.expect(">", "expected '>' after fused location metadata")
            self.expect("[", "expected '[' in fused location")
            self.items_until(self.instance, "]", "expected ']' in fused location")
        elif word == "unknown":
            self.advance()
        else:
            raise self.wrong("expected location instance")

    def name_or_file(self) -> None:
        """``parseNameOrFileLineColRange`` at its string."""
        self.advance()
        if self.kind == ":":
            self.advance()
            self.number("expected integer line number in FileLineColRange")
            if self.kind != ":":
                return
            self.advance()
            self.number("expected integer column number in FileLineColRange")
            if self.word != "to":
                return
            self.advance()
            if self.kind == "int":
                self.number("expected integer line number in FileLineColRange")
            if self.kind != ":":
                raise self.wrong("expected either integer or `:` post `to` in FileLineColRange")
            self.advance()
            self.number("expected integer column number in FileLineColRange")
        elif self.kind == "(":
            self.advance()
            self.instance()
            self.expect(")", "expected ')' after child location of NameLoc")

    def number(self, message: str) -> None:
        """An unsigned 32-bit integer token."""
        if self.kind != "int":
            raise self.wrong(message)
        spelling = self.text[self.start:self.end]
        if int(spelling, 16 if spelling.startswith("0x") else 10) >= 1 << 32:
            raise self.wrong(message)
        self.advance()


def _first_stop(read) -> tuple[int, str] | None:
    """MLIR's first error while ``read()`` reads, as (offset, message); None when it reads whole or meets
    what is not modelled here."""
    try:
        read()
    except torn._Stop as stop:
        return stop.offset, stop.message
    except (torn._Unmodelled, RecursionError, IndexError):
        return None
    return None


def location_error(text: str, source: str, at: int, aliases: dict[str, str]) -> tuple[int, str] | None:
    """MLIR's first error reading the location whose ``loc`` keyword is at ``at`` of ``text`` (comments
    blanked; ``source``: as written), the aliases defined before it in ``aliases``, as (offset, message);
    None when it reads whole or its grammar is not modelled here."""
    before = len(text[:at].rstrip())
    read = "inline" if before and text[before - 1] in _ATTRIBUTE_BEFORE else "trailing"
    return _first_stop(lambda: getattr(_LocationReader(text, source, at, aliases), read)())


def attribute_error(text: str, source: str, at: int, aliases: dict[str, str]) -> tuple[int, str] | None:
    """Like ``location_error``, for the attribute at ``at`` (a location among the attributes)."""
    return _first_stop(lambda: _LocationReader(text, source, at, aliases).attribute())


#: A location whose text names an alias past its first token (``loc(callsite(#loc1 at ...))``; an alias
#: definition's line too, told apart by ``_ALIAS_DEF``).  A literal first, searched fast; whether the ``loc``
#: starts a keyword is checked on each match (``_LOC``).
_NESTED_ALIAS = re.compile(r"loc\((?:(?!\s*#)[^\n]*?#[A-Za-z_]|\s*#[A-Za-z_][\w$-]*[.<])")


def check_nested_location_aliases(p) -> None:
    """An op's or an argument's location that names an alias inside it (not as its whole self, ``loc(#loc3)``,
    which MLIR resolves at the end of the module) reads that alias where it stands: it must be defined before
    (MLIR: "undefined symbol alias id").  Raises that error; the common text (no such location) costs one
    search."""
    text = p.text
    m = _NESTED_ALIAS.search(text)
    if m is None:
        return
    defs = [(d.start(), d.group(1)) for d in _ALIAS_DEF.finditer(text)]
    while m is not None:
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _LOC.match(text, m.start()) and not _ALIAS_DEF.match(text, line_start) and not any(
                s.start() < m.start() < s.end() for s in _STRING.finditer(text, line_start, m.start() + 1)):
            aliases = dict.fromkeys((name for at, name in defs if at < m.start()), "")
            found = location_error(text, getattr(p.scanner, "source", text), m.start(), aliases)
            if found is not None:
                raise p.error(*found)
        m = _NESTED_ALIAS.search(text, m.end())


def first_location_error(text: str, error: ParseError, filename: str | None = None,
                         first_line: int = 1) -> ParseError | None:
    """MLIR's error in the first location of ``text`` that fails, when MLIR meets it before ``error`` (our
    first error): at or before ``error``'s place, or anywhere when ``error`` is one the cut of a location
    makes (a bracket that does not close).  None when there is none."""
    if "loc" not in text:
        return None
    blanked = blank_comments(text)
    limit = min(error.offset, len(blanked))
    strings = [(m.start(), m.end()) for m in _STRING.finditer(blanked, 0, limit)]
    aliases: dict[str, str] = {}
    defs = [(m.start(), m.group(1)) for m in _ALIAS_DEF.finditer(blanked, 0, limit)]
    si = di = 0
    for m in _LOC.finditer(blanked, 0, min(limit + 1, len(blanked))):  # (a ``loc`` whose '(' is our error's)
        at = m.start()
        while si < len(strings) and strings[si][1] <= at:
            si += 1
        if si < len(strings) and strings[si][0] < at:
            continue  # (inside a string)
        while di < len(defs) and defs[di][0] < at:
            aliases.setdefault(defs[di][1], "")
            di += 1
        own = aliases
        if di and defs[di - 1][0] < at and blanked.find("\n", defs[di - 1][0], at) < 0:
            own = {k: v for k, v in aliases.items() if k != defs[di - 1][1]}  # (its own definition's name)
        found = location_error(blanked, text, at, own)
        if found is None:
            continue
        offset, message = found
        if offset <= error.offset or _MADE_BY_THE_CUT.match(error.message):
            line, col = LineIndex(blanked, first_line).locate(offset)
            return ParseError(message, line, col, offset, filename)
        return None
    return None

