"""Where and how the skeleton scan (``scanner``) fails when an op's brackets do not match: the error path only.

MLIR parses token by token, so a bracket that does not close is met as a wrong token somewhere: at the closer
that does not match, at the end of the input, or, when the bracket's text stops at a line end and the next line
starts an op, there; a pretty dialect name's ``<...>`` is scanned to its matching '>' by MLIR's lexer.
"""
from __future__ import annotations

import re

from shardy_py.errors import ParseError
from shardy_py.syntax.scanner import (
    _CLOSERS,
    _OP_HEAD,
    _PRETTY_NAME_BEFORE,
    _STRUCT,
    RawOp,
    Scanner,
    wrong_token_offset,
)

_PRETTY_CLOSERS = {">": "<", "]": "[", ")": "(", "}": "{"}
_STRING_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def pretty_body_failure(source: str, lt: int) -> tuple[int, str] | None:
    """MLIR's ``parseDialectSymbolBody`` from the '<' at ``lt``: the body of a pretty dialect attribute or type
    is scanned character by character (comments too; strings by the lexer) to its matching '>'.  Returns the
    error (offset, message) when it does not get there: at the last string it lexed (its current token), else
    at the '<'; None when the body closes."""
    scanned = scan_pretty_body(source, lt)
    return None if isinstance(scanned, int) else scanned


#: What a pretty dialect body's scan stops at: a bracket, '->' (no closer) or a string's quote.
_BODY_STOP = re.compile(r'->|[<\[({>\])}"]')


def scan_pretty_body(source: str, lt: int) -> int | tuple[int, str]:
    """The end of the pretty dialect body opened by the '<' at ``lt`` (just after its '>'), or MLIR's error
    (offset, message) where its scan fails (``pretty_body_failure``)."""
    nested: list[str] = []
    at, i = lt, lt
    while (m := _BODY_STOP.search(source, i)) is not None:
        c, i = m.group(), m.end()
        if c in "<[({":
            nested.append(c)
        elif c in _PRETTY_CLOSERS:
            if nested[-1] != _PRETTY_CLOSERS[c]:
                return at, f"unbalanced '{nested[-1]}' character in pretty dialect name"
            nested.pop()
            if not nested:
                return i
        elif c == '"':
            s = _STRING_TOKEN.match(source, i - 1)
            if s is None:  # (the lexer stops at the line's end, or the input's)
                end = source.find("\n", i)
                return end if end >= 0 else len(source), "expected '\"' in string literal"
            at, i = i - 1, s.end()
    return at, f"unbalanced '{nested[-1]}' character in pretty dialect name"


def open_brackets(scanner: Scanner, start: int, limit: int, op: RawOp) -> tuple[list[int], list[str], list[int]]:
    """The brackets of the op at ``start`` still open at ``limit`` (the scan of ``_scan_op`` again, on the
    error path only): where each opened, which, and the line breaks met directly inside the innermost."""
    text = scanner.text
    regions = {r.start: r.end for r in op.regions}
    opened: list[int] = []
    stack: list[str] = []
    breaks: list[list[int]] = []
    pos = start
    while (m := _STRUCT.search(text, pos, limit)) is not None:
        t, s, pos = m.group(), m.start(), m.end()
        if s in regions:
            pos = regions[s]
        elif len(t) > 1 and t[0] in '"/' or t == "->":
            continue
        elif t == "\n":
            if stack:
                breaks[-1].append(s)
        elif t in "([<{":
            stack.append(t)
            opened.append(s)
            breaks.append([])
        elif stack and stack[-1] == _CLOSERS.get(t):
            stack.pop()
            opened.pop()
            breaks.pop()
    return opened, stack, breaks[-1] if breaks else []


def cut_off(scanner: Scanner, opened: list[int], stack: list[str], breaks: list[int], limit: int) -> ParseError:
    """The error of a bracket mismatch at ``limit`` (``stack``: the brackets still open, ``opened``: where,
    ``breaks``: the line breaks met directly inside the innermost), as MLIR's token-by-token parser meets it:
    a pretty dialect name's ``<...>`` that does not close is "unbalanced '<' character in pretty dialect
    name" (MLIR scans such a body to its matching '>'); a bracket whose text stops at a line end, the next
    line starting an op or closing a region, is a wrong token there; else a wrong token at ``limit``.  Each
    wrong token is reported after the text before it.

    The error's ``scan_limit`` is where MLIR's parse of the op meets the mismatch (the closer, the end, the
    pretty name): the op's own syntax may fail before it (``salvage``)."""
    text = scanner.text
    for at, bracket in zip(opened, stack, strict=True):
        if bracket == "<" and (name := _PRETTY_NAME_BEFORE.search(text, max(0, at - 200), at)):
            failure = pretty_body_failure(scanner.source, at)
            if failure is not None:
                error = scanner.error(*failure)
                error.scan_limit = name.start()
                return error
            break
    closer = {"(": "')'", "[": "']'", "<": "'>'", "{": "'}'"}[stack[-1]]
    where = f"the '{stack[-1]}' opened at {':'.join(map(str, scanner.lines.locate(opened[-1])))}"
    for nl in breaks:
        nxt = scanner.skip_ws(nl + 1)
        if nxt <= limit and (_OP_HEAD.match(text, nxt) or text.startswith("}", nxt)):
            word = re.match(r"\S{1,20}", text[nxt:])
            error = scanner.error(wrong_token_offset(text, nxt),
                                  f"expected {closer} or more of {where}, found '{word.group()}'")
            break
    else:
        found = repr(text[limit]) if limit < scanner.n else "the end of the input"
        error = scanner.error(wrong_token_offset(text, limit), f"expected {closer} to close {where}, found {found}")
    error.scan_limit = limit
    return error
