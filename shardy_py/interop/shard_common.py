"""Shared pieces of the shard-dialect conversions: errors, locations and working copies."""
from __future__ import annotations

import re

import attrs

from shardy_py.ir.module import Module
from shardy_py.ir.ops import Location

#: Discardable attribute of a grid op naming its axes as the sdy mesh names them.
AXIS_NAMES_ATTR = "shardy_py.axis_names"
#: Discardable unit attribute of a ``shard.shard ... annotate_for_users`` op feeding ``func.return``
#: that stands for the function's result sharding (not for a sharding constraint).
FUNC_RESULT_ATTR = "shardy_py.func_result"
#: Op names per spelling of the dialect: grid, sharding, shard.
DIALECT_OPS = {
    "shard": ("shard.grid", "shard.sharding", "shard.shard"),
    "mesh": ("mesh.mesh", "mesh.sharding", "mesh.shard"),
}
DIALECT_NAMES = tuple(DIALECT_OPS)


def default_axis_name(index: int) -> str:
    """The sdy name of grid axis ``index`` when the grid does not name its axes."""
    return f"axis_{index}"


@attrs.frozen
class Problem:
    """One thing that could not be converted, at a 1-based line and column."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


class ConversionError(ValueError):
    """The module holds something with no counterpart in the target dialect.

    ``problems`` lists every one found (in source order); ``line``, ``column`` and
    ``message`` are those of the first.
    """

    def __init__(self, problems: list[Problem], filename: str | None = None):
        self.problems = tuple(sorted(problems, key=lambda p: (p.line, p.column)))
        first = self.problems[0]
        self.line, self.column, self.message = first.line, first.column, first.message
        self.filename = filename
        more = len(self.problems) - 1
        super().__init__(str(first) + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""))


class Reporter:
    """Collects problems, located in the module's source text when it has one."""

    def __init__(self, module: Module):
        self.module = module
        self.problems: list[Problem] = []
        self._line_starts: list[int] | None = None

    def error(self, where: Location | None, message: str, needle: str | None = None) -> None:
        """Record ``message`` at ``where``, or at the first ``needle`` in the source after it."""
        line, col = (where.line, where.column) if where is not None else (1, 1)
        if needle and where is not None and self.module.source:
            line, col = self._find(where, needle) or (line, col)
        self.problems.append(Problem(line, col, message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise ConversionError(self.problems, self.module.filename)

    def _find(self, where: Location, needle: str, window: int = 4000) -> tuple[int, int] | None:
        src = self.module.source
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", src)]
        if not 1 <= where.line <= len(self._line_starts):
            return None
        start = self._line_starts[where.line - 1] + where.column - 1
        i = src.find(needle, start, start + window)
        if i < 0:
            return None
        line = where.line
        while line < len(self._line_starts) and self._line_starts[line] <= i:
            line += 1
        return line, i - self._line_starts[line - 1] + 1


def working_copy(module: Module) -> Module:
    """A private copy of ``module`` to edit, made from its IR (``ir.clone.clone_module``): the
    source text and locations are kept, so problems found in the copy point into the user's file."""
    from shardy_py.ir.clone import clone_module

    return clone_module(module)


def finished(module: Module) -> Module:
    """The edited copy, as the conversion hands it back."""
    return module
