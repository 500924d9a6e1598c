"""``--verify-diagnostics``: match diagnostics against ``// expected-<severity> @loc {{text}}`` annotations.

Like mlir-opt: ``@+N``/``@-N`` are relative lines, ``@above``/``@below`` the
nearest line that is not itself only an annotation, no designator the same
line.  The expected text must be a substring of the diagnostic message.
Every produced error/warning/note must be expected and every expectation met.
"""
from __future__ import annotations

import re

import attrs

from shardy_py.errors import source_lines
from shardy_py.verify.diagnostics import Diagnostic

_ANN = re.compile(r"expected-(error|warning|note|remark)\s*(@(?:[+-]\d+|above|below))?\s*\{\{(.*?)\}\}")
_ONLY_ANN = re.compile(r"^\s*//\s*expected-(error|warning|note|remark)")


@attrs.define
class Expectation:
    """One annotation: the line it points at, its severity and text."""

    line: int
    severity: str
    text: str
    written_at: int
    met: bool = False


def parse_expectations(text: str) -> list[Expectation]:
    """All annotations of ``text`` (line numbers are 1-based within ``text``)."""
    lines = source_lines(text)
    out = []
    for i, line in enumerate(lines, start=1):
        for m in _ANN.finditer(line):
            sev, where, msg = m.group(1), m.group(2), m.group(3)
            target = i
            if where in ("@above", "@below"):
                step = -1 if where == "@above" else 1
                target = i + step
                while 1 <= target <= len(lines) and _ONLY_ANN.match(lines[target - 1]):
                    target += step
            elif where:
                target = i + int(where[1:])
            out.append(Expectation(target, sev, msg, i))
    return out


def check_expectations(text: str, diags: list[Diagnostic], offset: int = 0) -> list[Diagnostic]:
    """Mismatches between ``diags`` (lines relative to ``text``) and the annotations in ``text``.

    Returns error diagnostics (lines shifted by ``offset``) for every unexpected
    diagnostic and every unmet expectation; empty when all match.
    """
    exps = parse_expectations(text)
    produced: list[tuple[int, int, str, str]] = []
    for d in diags:
        produced.append((d.line, d.column, d.severity, d.message))
        for ln, col, msg in d.notes:
            produced.append((ln, col, "note", msg))
    out = []
    for line, col, sev, msg in produced:
        match = next((e for e in exps if not e.met and e.line == line and e.severity == sev and e.text in msg), None)
        if match is None:
            match = next((e for e in exps if e.line == line and e.severity == sev and e.text in msg), None)
        if match is not None:
            match.met = True
        elif sev in ("error", "warning", "note"):
            out.append(Diagnostic(line + offset, col, "error", f"unexpected {sev}: {msg}"))
    for e in exps:
        if not e.met:
            out.append(Diagnostic(e.written_at + offset, 1, "error",
                                  f"expected {e.severity} on line {e.line + offset} was not produced: {e.text}"))
    return sorted(out, key=lambda d: (d.line, d.column))
