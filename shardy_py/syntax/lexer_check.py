"""The first character MLIR's lexer rejects in the text of an op kept as written.

Ops of dialects we do not model are kept as written (``ModuleParser.opaque``), so a character no MLIR
token holds could pass through them (the op parsers of the dialects we model read tokens themselves).
MLIR's lexer (``mlir/lib/AsmParser/Lexer.cpp``) rejects, outside string literals, comments and the
bodies of dialect attributes and types (``#dialect<...>``, ``!dialect.t<...>``, read character by
character; ``DialectSymbolParser.cpp``): a character that starts no token ("unexpected character": non-ASCII
text, control characters, ``& ; ~ ` \\ '``, a ``$`` starting a token; not a lone ``/``, which jaxlib
0.12's lexer takes), a prefix without
its name ("invalid SSA name" for ``%``, "invalid block name" for ``^``, "invalid attribute name" for
``#``, "invalid type identifier" for ``!``, at the prefix) and an ``@`` not followed by a letter,
``_`` or a string ("@ identifier expected to start with letter or '_'", after the ``@``).
"""
from __future__ import annotations

import re

_BAD = (r"[^\x00-\x7f]|[\x01-\x08\x0e-\x1f\x7f&;~`\\']|(?<![A-Za-z0-9_$.\-%^#!])\$"
        r"|(?<!\{-)[%^#!](?![A-Za-z0-9_$.\-])|@(?![A-Za-z_\"])|(?<![\w$.\-])\.(?!\.\.)")
#: Text that holds a character the lexer rejects somewhere (strings and bodies not yet set aside).
_SUSPECT = re.compile(_BAD)
_NEXT = re.compile(r'("(?:[^"\\\n]|\\.)*"?)|([#!][A-Za-z_][A-Za-z0-9_$.\-]*<)|(' + _BAD + ")")
_ODD_NEXT = re.compile(r'("(?:[^"\\\n]|\\.)*"?)|([#!][A-Za-z_][A-Za-z0-9_$.\-]*<)|([^\x00-\x7f]|[\x1c-\x1f])')
#: The dialects jaxlib 0.12 registers (its "Available dialects" note), whose attribute and type bodies
#: their own parsers read with MLIR's lexer.
REGISTERED_DIALECTS = frozenset(
    "affine arith builtin cf chlo complex func gpu llvm math memref mhlo mpmd nvgpu nvvm scf sdy shape stablehlo "
    "tensor ub vector vhlo".split())
_DIALECT = re.compile(r"[A-Za-z_][A-Za-z0-9_$\-]*")
_PREFIX_ERRORS = {"%": "invalid SSA name", "^": "invalid block name", "#": "invalid attribute name",
                  "!": "invalid type identifier"}
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"?')


def first_odd_character(text: str) -> int | None:
    """The offset of the first character of ``text`` (comments blanked) outside string literals and
    dialect bodies that MLIR's lexer rejects ("unexpected character") but Python reads as white space
    (``str.isspace``, ``\\s``: ``\\x1c``-``\\x1f``, non-ASCII spaces) or as a letter (``\\w``), so that
    the op parsers could pass it: any non-ASCII character, ``\\x1c``-``\\x1f``. None for most texts,
    found at C speed (``str.isascii``)."""
    if text.isascii() and not any(c in text for c in "\x1c\x1d\x1e\x1f"):
        return None
    found = _first(text, 0, len(text), _ODD_NEXT)
    return None if found is None else found[0]


def first_lexer_error(text: str, start: int, end: int, *, registered: bool = False) -> tuple[int, str] | None:
    """(offset, message) of the first character of ``text[start:end]`` (comments blanked) MLIR's lexer
    rejects, or None. ``registered``: the bodies of the dialects jaxlib registers are read too (their
    parsers lex them); the whole module's check, on the error path only (it reads every string)."""
    if _SUSPECT.search(text, start, end) is None:
        return None
    return _first(text, start, end, _NEXT, registered)


def _first(text: str, start: int, end: int, pattern: re.Pattern, registered: bool = False) -> tuple[int, str] | None:
    pos = start
    while (m := pattern.search(text, pos, end)) is not None:
        if m.group(1) is not None:
            pos = m.end()
        elif m.group(2) is not None:
            # (a body is delimited first, character by character: a registered dialect's parser then
            # lexes it, when it is closed)
            body_end = _body_end(text, m.end(), end)
            if body_end < 0:
                return None
            lexed = registered and _DIALECT.match(text, m.start() + 1).group() in REGISTERED_DIALECTS
            pos = m.end() if lexed else body_end
        else:
            at = m.start()
            c = text[at]
            if c in _PREFIX_ERRORS:
                return at, _PREFIX_ERRORS[c]
            if c == "@":
                return at + 1, "@ identifier expected to start with letter or '_'"
            if c == ".":  # (a dot that starts no identifier, number or '...': the lexer reads an ellipsis)
                return at + 1, "expected three consecutive dots for an ellipsis"
            return at, "unexpected character"
    return None


def _body_end(text: str, pos: int, n: int) -> int:
    """The end of a dialect symbol's body opened just before ``pos``, or ``-1`` if it is not closed by
    ``n`` or a bracket closes one of another kind (MLIR: "unbalanced ... character in pretty dialect name")."""
    stack = [">"]
    while pos < n:
        c = text[pos]
        if c == '"':
            pos = _STRING.match(text, pos).end()
            continue
        if c in _CLOSER_OF:
            stack.append(_CLOSER_OF[c])
        elif c == "-" and text.startswith(">", pos + 1):
            pos += 1  # ('->' is no closer)
        elif c in ">)]}":
            if stack.pop() != c:
                return -1
            if not stack:
                return pos + 1
        pos += 1
    return -1


_CLOSER_OF = {"<": ">", "(": ")", "[": "]", "{": "}"}


#: A value or block-argument name that starts with a digit and goes on with a letter (``%0sdy``): MLIR's
#: lexer reads a suffix id that starts with a digit as digits only (``%0``), then a token that does not fit.
_DIGIT_LED = re.compile(r"%\d+[A-Za-z_$.\-]")
_DIGIT_LED_NEXT = re.compile(r'("(?:[^"\\\n]|\\.)*"?)|([#!][A-Za-z_][A-Za-z0-9_$.\-]*<)|(%\d+(?=[A-Za-z_$.\-]))')
_RESULT_LIST_BEFORE = re.compile(r"(?:%[\w$.\-]+(?::\d+)?[ \t]*,[ \t]*)*\Z")


def first_digit_led_name(text: str) -> tuple[int, str] | None:
    """(offset, message) of the first ``%<digits><letter...>`` outside strings and dialect bodies of
    ``text`` (comments blanked), where MLIR stops: just after the digits. A result name there is MLIR's
    "expected '=' after SSA name", a ``.`` its lexer's ellipsis error; elsewhere the token after ``%<digits>``
    is what no syntax takes. None for most texts (one search)."""
    if _DIGIT_LED.search(text) is None:
        return None
    pos, n = 0, len(text)
    while (m := _DIGIT_LED_NEXT.search(text, pos, n)) is not None:
        if m.group(3) is None:
            if m.group(2) is not None:
                body_end = _body_end(text, m.end(), n)
                pos = m.end() if body_end < 0 else body_end
            else:
                pos = m.end()
            continue
        at = m.end()
        if text[at] == "." and not text.startswith("...", at):
            return at + 1, "expected three consecutive dots for an ellipsis"
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = text[line_start:m.start()].lstrip(" \t")
        if _RESULT_LIST_BEFORE.match(before) and re.match(r"[\w$.\-]*(?::\d+)?[ \t]*[,=:]", text[at:]):
            return at, "expected '=' after SSA name"
        word = re.match(r"[\w$.\-]+", text[at:]).group()
        return at, f"unexpected '{word}' after the SSA name '{m.group(3)}' (a name that starts with a digit is " \
                   "digits only)"
    return None
