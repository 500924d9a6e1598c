"""Where the sdy attributes written in an op's attribute value are, in the module's source text.

The parser keeps the location of each attribute *name*; Shardy reports a parse-time failure of an
sdy attribute (B1-B6, B49-B52) at the attribute itself, which may be on a later line
(``sdy.result_propagation_edges = [`` then one ``#sdy.propagation_edges<...>`` per line).  This
finds it again in ``Module.source``; every answer is checked against the text, and None (report at
the attribute name, as before) when the source does not show what the module holds.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from shardy_py.ir.module import Module
from shardy_py.ir.ops import Location
from shardy_py.syntax.brackets import closing_angle
from shardy_py.syntax.scanner import LineIndex, blank_comments
from shardy_py.syntax.sdy_parser import StringEscapeError, sdy_attribute_spans, unquote

_MODULE_HEAD = re.compile(r'(?:module|"builtin\.module")(?![\w$.])')
_NAME_EQ = re.compile(r'("(?:[^"\\]|\\.)*"|[A-Za-z_][\w$.-]*)\s*=')
#: A mesh written inline in a sharding (``mesh<["x"=2]>``): group 1 is its ``<``.
_INLINE_MESH = re.compile(r'"(?:[^"\\]|\\.)*"|(?<![\w$.#])mesh\s*(<)')
#: A mesh in an op's text: ``#sdy.mesh<`` or ``mesh<`` inline in a sharding (group 1: its ``<``).
_OP_MESH = re.compile(r'"(?:[^"\\]|\\.)*"|(?:#sdy\.|(?<![\w$.#]))mesh\s*(<)')
#: The custom form of ``sdy.mesh @name = <...>`` (group 1: the mesh's ``<``).
_MESH_OP_BODY = re.compile(r'sdy\.mesh\s+@(?:"(?:[^"\\]|\\.)*"|[\w$.-]+)\s*=\s*(<)')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


class SourcePositions:
    """Line and column of the sdy attributes inside op attribute values of one parsed module."""

    def __init__(self, module: Module) -> None:
        self.text = blank_comments(module.source)
        self.lines = LineIndex(self.text)
        self.first_line = self._first_line(module)

    def _first_line(self, module: Module) -> int | None:
        """The line number the parser gave the first line of ``module.source``."""
        loc = module.op.loc
        if loc is None:
            return None
        if not module.op.properties_view.get("explicit"):
            return loc.line  # the implicit module is placed at the first line
        starts = self.lines.starts
        for i, start in enumerate(starts):  # the explicit module is the first op: find its line
            pos = start + loc.column - 1
            end = starts[i + 1] if i + 1 < len(starts) else len(self.text)
            if pos < end and _MODULE_HEAD.match(self.text, pos):
                return loc.line - i
        return None

    def _offset(self, loc: Location) -> int | None:
        if self.first_line is None:
            return None
        i = loc.line - self.first_line
        if not 0 <= i < len(self.lines.starts):
            return None
        return self.lines.starts[i] + loc.column - 1

    def _value_start(self, name_loc: Location, name: str) -> int | None:
        """Offset of the value of attribute ``name`` written at ``name_loc`` (None if it is not there)."""
        off = self._offset(name_loc)
        m = _NAME_EQ.match(self.text, off) if off is not None else None
        if m is None:
            return None
        written = m.group(1)
        if written.startswith('"'):
            try:
                written = unquote(written)
            except StringEscapeError:
                return None
        return m.end() if written == name else None

    def sdy_attribute(self, name_loc: Location, name: str, index: int, mesh: int = -1,
                      axis: int = -1) -> tuple[int, int] | None:
        """``(line, column)`` of the ``<`` of the ``index``-th sdy attribute (outermost, in text order)
        in the value of the attribute ``name`` written at ``name_loc`` (of its ``mesh``-th inline mesh
        when ``mesh >= 0``; of that mesh's ``axis``-th axis name when ``axis >= 0``)."""
        start = self._value_start(name_loc, name)
        if start is None:
            return None
        for k, (_start, body, end) in enumerate(sdy_attribute_spans(self.text, start)):
            if k == index:
                return self._place(body, end, mesh, axis)
        return None

    def failing_mesh_in_op(self, start: Location, stop: Location | None,
                           judge: Callable[[str], int | None]) -> tuple[int, int] | None:
        """``(line, column)`` of the first mesh written in an op's text (from ``start``, the op's location, to
        ``stop``, the next op's, or the end) that ``judge`` (given ``#sdy.mesh<...>``) says fails: its ``<``,
        or the name of its axis of the index ``judge`` gives (``-1``: the mesh's own failure).  A mesh is
        ``sdy.mesh @m = <...>``'s, ``#sdy.mesh<...>`` or ``mesh<...>`` inline in a sharding."""
        lo = self._offset(start)
        if lo is None:
            return None
        hi = self._offset(stop) if stop is not None else None
        first = _MESH_OP_BODY.match(self.text, lo)
        bodies = [first.start(1)] if first else []
        bodies += [m.start(1) for m in _OP_MESH.finditer(self.text, lo, hi if hi is not None else len(self.text))
                   if m.group(1)]
        for body in bodies:
            end = closing_angle(self.text, body)
            if end < 0:
                continue
            axis = judge("#sdy.mesh" + self.text[body:end])
            if axis is not None:
                return self._locate(self._axis_name(body, end, axis) if axis >= 0 else body)
        return None

    def first_failing(self, start: Location, end: Location | None,
                      failing_mesh: Callable[[str], tuple[int, int] | None]) -> tuple[int, int] | None:
        """``(line, column)`` of the first sdy attribute written between ``start`` and ``end`` (an op's
        signature: a function's argument and result attributes) whose text ``failing_mesh`` says fails:
        at the ``<`` of its inline mesh of the index it gives, or its own ``<`` for -1 (at the name of the
        mesh's axis of the second index it gives, when that is not -1)."""
        lo = self._offset(start)
        hi = self._offset(end) if end is not None else None
        if lo is None:
            return None
        for s, body, e in sdy_attribute_spans(self.text, lo):
            if hi is not None and s >= hi:
                return None
            failing = failing_mesh(self.text[s:e])
            if failing is not None:
                return self._place(body, e, *failing)
        return None

    def _place(self, body: int, end: int, mesh: int, axis: int = -1) -> tuple[int, int]:
        """The ``<`` at ``body``, or that of the ``mesh``-th inline mesh before ``end``; the name of that mesh's
        ``axis``-th axis when ``axis >= 0``."""
        if mesh >= 0:
            found = [m.start(1) for m in _INLINE_MESH.finditer(self.text, body, end) if m.group(1)]
            if mesh < len(found):
                body = found[mesh]
        return self._locate(self._axis_name(body, end, axis) if axis >= 0 else body)

    def _axis_name(self, body: int, end: int, axis: int) -> int:
        """Offset of the name of the ``axis``-th axis of the mesh whose ``<`` is at ``body`` (``body`` itself
        when the text does not show it): axis names are the mesh's first strings."""
        for k, m in enumerate(_STRING.finditer(self.text, body, end)):
            if k == axis:
                return m.start()
        return body

    def _locate(self, offset: int) -> tuple[int, int]:
        line, column = self.lines.locate(offset)
        return line + self.first_line - 1, column
