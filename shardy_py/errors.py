"""Exceptions raised on bad input."""
from __future__ import annotations


class ParseError(ValueError):
    """A syntax error, located at 1-based ``line`` and ``column``.

    ``str(err)`` is ``LINE:COL: MESSAGE``; ``err.message`` is the bare message.
    ``offset`` is the 0-based character offset in the parsed text.  ``more`` holds the errors MLIR
    reports after this one for the same failure, as ``(line, column, message)`` (a StableHLO attribute
    parser's "failed parsing ... attribute" after the error inside the attribute).
    """

    def __init__(self, message: str, line: int = 1, column: int = 1, offset: int = 0, filename: str | None = None,
                 more: tuple[tuple[int, int, str], ...] = ()):
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
        self.filename = filename
        self.more = more
        super().__init__(f"{line}:{column}: {message}")

    def __reduce__(self):
        return (type(self), (self.message, self.line, self.column, self.offset, self.filename, self.more))


class AttrSyntaxError(Exception):
    """Internal: an error inside one attribute text, at ``offset`` in that text."""

    def __init__(self, message: str, offset: int):
        self.message = message
        self.offset = offset
        super().__init__(message)


def source_lines(text: str) -> list[str]:
    """``text``'s lines as MLIR numbers them: broken at ``\n`` only (a form feed or vertical tab
    inside a line does not start a new one, as ``str.splitlines`` would have it), ``\r`` dropped."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "" and text.endswith("\n"):
        lines.pop()
    return lines
