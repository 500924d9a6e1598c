"""Errors raised by the HloSharding code (all are ``ValueError`` subclasses)."""
from __future__ import annotations


class HloShardingError(ValueError):
    """Base class: an HloSharding operation was given something it cannot handle."""


class HloShardingParseError(HloShardingError):
    """HloSharding text that does not parse; ``position`` is the 0-based offset of the problem."""

    def __init__(self, message: str, text: str = "", position: int | None = None):
        self.text = text
        self.position = position
        if position is not None and text and len(text) <= 200:
            message = f"{message}\n  {text}\n  {' ' * position}^"
        elif position is not None:
            message = f"{message} (at offset {position})"
        super().__init__(message)


class UnsupportedShardingError(HloShardingError):
    """A valid HloSharding that has no Shardy equivalent (XLA's import aborts on it)."""
