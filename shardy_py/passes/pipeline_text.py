"""MLIR's textual pass pipelines, as ``mlir-opt --pass-pipeline=`` reads them.

``builtin.module(sdy-import-pipeline, func.func(sdy-basic-propagate{conservative-propagation=true}))``
is an op anchor with a parenthesised list of passes (each with ``{options}``) and nested anchors.
A pass runs on the anchor its class declares (``Pass.anchor``): a function pass listed under
``builtin.module`` directly, or a module pass nested in ``func.func``, is an error, as MLIR's pass
manager refuses it.
"""
from __future__ import annotations

from shardy_py.passes.registry import lookup

ANCHORS = ("builtin.module", "func.func")


class PipelineSyntaxError(ValueError):
    """The pipeline text is malformed or names what is not there; the message says where."""


def _unquoted(text: str, start: int, end: int):
    """``(index, character)`` of ``text[start:end]`` outside quoted option values."""
    quote = None
    for k in range(start, end):
        c = text[k]
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        else:
            yield k, c


def _split_top(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of the comma-separated elements of ``text[start:end]`` (brackets and quotes kept whole)."""
    spans, depth, first = [], 0, start
    for k, c in _unquoted(text, start, end):
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((first, k))
            first = k + 1
    spans.append((first, end))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _closing(text: str, open_at: int) -> int:
    """Index of the bracket closing the one at ``open_at``."""
    pairs = {"(": ")", "{": "}"}
    stack: list[int] = []
    for k, c in _unquoted(text, open_at, len(text)):
        if c in pairs:
            stack.append(k)
        elif c in ")}":
            if not stack or pairs[text[stack[-1]]] != c:
                break
            stack.pop()
            if not stack:
                return k
    at = stack[-1] if stack else open_at
    raise PipelineSyntaxError(f"unbalanced '{text[at]}' at character {at + 1} of the pipeline")


def pipeline_flags(text: str) -> list[str]:
    """The ``sdy_opt`` flags (``-NAME=OPTIONS``) of a textual pipeline, in order."""
    text = text.strip()
    open_at = text.find("(")
    if open_at < 0 or text[:open_at].strip() != "builtin.module" or _closing(text, open_at) != len(text) - 1:
        raise PipelineSyntaxError("a pass pipeline is written 'builtin.module(PASS, func.func(PASS), ...)'")
    return _elements(text, open_at + 1, len(text) - 1, "builtin.module")


def _elements(text: str, start: int, end: int, anchor: str) -> list[str]:
    flags = []
    for a, b in _split_top(text, start, end):
        element = text[a:b].strip()
        offset = a + len(text[a:b]) - len(text[a:b].lstrip())
        paren, brace = element.find("("), element.find("{")
        if paren > 0 and (brace < 0 or paren < brace):
            name = element[:paren].strip()
            if name not in ANCHORS:
                raise PipelineSyntaxError(f"'{name}' is not an op passes can be nested on (use builtin.module "
                                          "or func.func)")
            if _closing(text, offset + paren) != offset + len(element) - 1:
                raise PipelineSyntaxError(f"unexpected text after '{name}(...)'")
            flags += _elements(text, offset + paren + 1, offset + len(element) - 1, name)
            continue
        name = element[:brace].strip() if brace > 0 else element
        options = None
        if brace > 0:
            if _closing(text, offset + brace) != offset + len(element) - 1:
                raise PipelineSyntaxError(f"unexpected text after the options of '{name}'")
            options = element[brace + 1:-1]
        cls = lookup(name)
        if cls is None:
            raise PipelineSyntaxError(f"'{name}' does not refer to a registered pass or pass pipeline "
                                      "(python -m shardy_py opt --help lists them)")
        if cls.anchor != anchor:
            raise PipelineSyntaxError(f"pass '{name}' runs on '{cls.anchor}', so it cannot be nested on "
                                      f"'{anchor}' (write {_suggest(name, cls.anchor)})")
        flags.append(f"-{name}" + (f"={options}" if options is not None else ""))
    return flags


def _suggest(name: str, anchor: str) -> str:
    return f"builtin.module(func.func({name}))" if anchor == "func.func" else f"builtin.module({name})"
