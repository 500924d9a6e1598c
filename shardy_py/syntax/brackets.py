"""Finding the ``>`` that closes a ``<`` in kept attribute text (string literals skipped, ``->`` no closer)."""
from __future__ import annotations


def closing_angle(text: str, lt: int) -> int:
    """The offset after the ``>`` closing the ``<`` at ``lt``; -1 when the text ends first."""
    depth = 0
    i, n = lt, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "<":
            depth += 1
        elif c == ">" and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1
