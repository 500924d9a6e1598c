"""MLIR's checks of alias definitions (``#name = attribute``, ``!name = type``) and of alias uses.

A definition's value must be one attribute (one type) and nothing after it; a name is defined once;
a use names an alias defined before it (a location alias, ``#loc3``, may be defined after the ops,
where MLIR prints them). Each error is a ``ParseError`` where jaxlib 0.12 reports it: a wrong token
just after the text before it (``scanner.wrong_token_offset``)."""
from __future__ import annotations

import re

from shardy_py.errors import AttrSyntaxError
from shardy_py.syntax.attr_reader import AttrReader
from shardy_py.syntax.scanner import wrong_token_offset

#: An alias use or definition name: not a dialect attribute or type (no dot, no '<' after it).
_ALIAS_CANDIDATE = re.compile(r"[#!](?<![\w$.\"].)[A-Za-z_][\w$-]*(?![\w$.<-])")
_USES_AN_ALIAS = re.compile(r"[#!][A-Za-z_][\w$-]*(?![\w$.<-])")
_WS = re.compile(r"\s*")


def check_alias_definition(p, name: str, start: int, end: int, defined: dict) -> None:
    """The definition of alias ``name`` (its value in ``p.text[start:end]``): one value, a new name."""
    text = p.text
    if name[1:2].isdigit() and not name[1:].isdigit():  # (MLIR's lexer: a digit-led id is digits only)
        at = text.rfind(name, 0, start) + 1 + len(name[1:]) - len(name[1:].lstrip("0123456789"))
        kind = "type" if name[0] == "!" else "attribute"
        raise p.error(at, f"expected '=' in {kind} alias definition")
    if "." in name:  # (a dialect's own attribute or type: no alias)
        kind = "type" if name[0] == "!" else "attribute"
        raise p.error(text.rfind(name, 0, start), f"{kind} names with a '.' are reserved for dialect-defined names")
    if name in defined:
        kind = "type" if name[0] == "!" else "attribute"
        raise p.error(text.rfind(name, 0, start), f"redefinition of {kind} alias id '{name[1:]}'")
    if _USES_AN_ALIAS.search(text, start, end):
        uses = False
        for m in _ALIAS_CANDIDATE.finditer(text, start, end):  # (a definition reads the aliases defined before it)
            if _in_string(text, m.start()):
                continue
            if m.group() not in defined:
                raise p.error(m.end(), f"undefined symbol alias id '{m.group()[1:]}'")
            uses = True
        if uses:
            return  # (a value written with other aliases: checked where it is used)
    reader = AttrReader(text)
    try:
        _, pos = reader.type(start, end) if name[0] == "!" else reader.attribute(start, end)
    except AttrSyntaxError as e:
        if name[0] == "#" and (read_on := value_error(p, start, defined)) is not None:
            raise p.error(*read_on) from None  # (a value cut short, read on into the next definition)
        at = (wrong_token_offset(text, e.offset) if e.message.startswith("expected") else
              _WS.match(text, start, end).end() if e.message.startswith("inferred shape") else e.offset)
        raise p.error(at, f"{e.message} in the definition of alias {name}") from None
    pos = _WS.match(text, pos, end).end()
    if pos < end and (word := _BARE_WORD.match(text, pos, end)) is not None:
        # (MLIR's alias ends with its value: a word after it starts an op, a custom op of no dialect)
        raise p.error(pos, f"custom op '{word.group()}' is unknown (tried 'builtin.{word.group()}' as well)")
    if pos < end:
        raise p.error(wrong_token_offset(text, pos),
                      f"unexpected {text[pos:end].split()[0][:20]!r} after the value of alias {name}")


_NAME = re.compile(r"[#!][\w$.-]*")
#: A bare identifier without a dialect (no '.'), ended by white space or the text's end.
_BARE_WORD = re.compile(r"[A-Za-z_][\w$]*(?=\s|\Z)")


def value_error(p, start: int, defined: dict) -> tuple[int, str] | None:
    """MLIR's first error reading the attribute alias value at ``start`` over the text after it (a value
    cut at its line's end runs into the next definition: ``#loc4 =`` reads ``#loc5``, not defined yet),
    with the aliases ``defined`` before it (``syntax.locations``); None when not modelled there."""
    from shardy_py.syntax.locations import attribute_error

    return attribute_error(p.text, getattr(p.scanner, "source", p.text), start,
                           dict.fromkeys(defined.keys() | p.type_aliases.keys(), ""))


def not_a_definition(p, start: int):
    """The error for top-level text at ``start`` that starts as an alias definition (``#name``,
    ``!name``) but is none: a dialect's name (with a dot), or a name without its '='."""
    text = p.text
    name = _NAME.match(text, start).group()
    kind = "type" if name[0] == "!" else "attribute"
    if "." in name:
        return p.error(start, f"{kind} names with a '.' are reserved for dialect-defined names")
    return p.error(wrong_token_offset(text, _WS.match(text, start + len(name)).end()),
                   f"expected '=' in {kind} alias definition")


def _candidate_names(text: str) -> set[str]:
    """The names ``_ALIAS_CANDIDATE`` finds in ``text``: matched at each '#' and '!' that ``str.find`` finds (a
    candidate holds no other '#' or '!', so these are ``findall``'s matches; a regex search of a big module
    for the character class costs several times more)."""
    names = set()
    match = _ALIAS_CANDIDATE.match
    for c in "#!":
        at = text.find(c)
        while at >= 0:
            m = match(text, at)
            if m is not None:
                names.add(m.group())
            at = text.find(c, at + 1)
    return names


def _in_string(text: str, at: int) -> bool:
    """Is offset ``at`` inside a string literal of its line (strings do not span lines)?"""
    line_start = text.rfind("\n", 0, at) + 1
    return any(m.start() < at < m.end() for m in _STRING.finditer(text, line_start, at + 1))


_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"?')


def first_undefined_alias(text: str, defined: set[str], limit: int) -> tuple[int, str] | None:
    """(offset, message) of the first use of an alias not in ``defined`` in ``text`` (comments blanked) that
    starts at or before ``limit`` (MLIR: "undefined symbol alias id", after the name); location aliases,
    which may be defined after the ops, are not looked at."""
    for m in _ALIAS_CANDIDATE.finditer(text):
        if m.start() > limit:
            return None
        name = m.group()
        if name in defined or name.startswith("#loc") or _in_string(text, m.start()):
            continue
        after = _WS.match(text, m.end()).end()
        if not (text.startswith("=", after) and not text.startswith("==", after)):  # (not a definition)
            return m.end(), f"undefined symbol alias id '{name[1:]}'"
    return None


def check_alias_uses(p, defined: set[str]) -> None:
    """Every alias the text uses is defined (MLIR: "undefined symbol alias id", for a location alias
    "operation location alias was never defined")."""
    text = p.text
    if not _candidate_names(text) - defined:  # (the common case: every name is defined)
        return
    for m in _ALIAS_CANDIDATE.finditer(text):
        name = m.group()
        if name in defined or _in_string(text, m.start()):
            continue
        after = _WS.match(text, m.end()).end()
        if text.startswith("=", after) and not text.startswith("==", after):
            continue  # (a definition)
        if name.startswith("#loc"):
            raise p.error(m.start(), "operation location alias was never defined")
        raise p.error(m.end(), f"undefined symbol alias id '{name[1:]}'")  # (MLIR: after the name)
