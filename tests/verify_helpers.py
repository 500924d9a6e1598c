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
