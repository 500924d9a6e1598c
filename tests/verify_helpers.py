"""Helpers for the verifier tests: verify a snippet and get ``LINE: message`` strings."""
from __future__ import annotations

import textwrap

import shardy_py
from shardy_py.verify import verify


def errors(text: str) -> list[str]:
    """``["LINE: message", ...]`` for every diagnostic of ``text`` (dedented first)."""
    module = shardy_py.parse(textwrap.dedent(text))
    return [f"{d.line}: {d.message}" for d in verify(module)]


def ok(text: str) -> bool:
    """True when ``text`` verifies clean."""
    return errors(text) == []


def diagnostics(text: str):
    """The ``Diagnostic`` objects for ``text`` (dedented first)."""
    return verify(shardy_py.parse(textwrap.dedent(text)))


def first_error(text: str) -> tuple[int, int, str] | None:
    """(line, column, message) of the first error of parse + verify, None for a clean module."""
    try:
        module = shardy_py.parse(text)
    except shardy_py.ParseError as e:
        return (e.line, e.column, e.message)
    diags = [d for d in verify(module) if d.severity == "error"]
    return (diags[0].line, diags[0].column, diags[0].message) if diags else None
