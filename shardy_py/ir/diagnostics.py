"""``Diagnostic`` (what the verifier reports) and ``Failure`` (what a rule returns)."""
from __future__ import annotations

import attrs

Note = tuple[int, int, str]


@attrs.frozen
class Diagnostic:
    """One verifier finding at ``line``:``column`` (1-based) of the source.

    ``severity`` is ``"error"``, ``"warning"`` or ``"note"``; ``notes`` holds
    ``(line, column, message)`` triples pointing at related places.
    """

    line: int
    column: int
    severity: str
    message: str
    notes: tuple[Note, ...] = attrs.field(default=(), converter=tuple)

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.severity}: {self.message}"


@attrs.frozen
class Failure:
    """A rule violation, before it is placed: a message and optional notes.

    Rules that check an attribute return a ``Failure`` (or None); the op-level
    rule that called them decides where it lands and which prefix it gets.
    """

    message: str
    notes: tuple[Note, ...] = attrs.field(default=(), converter=tuple)
    #: Where to report it, when not at the op being verified: ``(line, column)``.
    at: tuple[int, int] | None = None

    def prefixed(self, prefix: str) -> Failure:
        """The same failure with ``prefix`` in front of its message."""
        return Failure(prefix + self.message, self.notes, self.at)


def fail(message: str, *notes: Note) -> Failure:
    """Shorthand constructor for ``Failure``."""
    return Failure(message, notes)
