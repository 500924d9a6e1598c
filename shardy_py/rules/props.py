"""Reading an op's inherent attributes (properties) as plain values, for the rules of part 1."""
from __future__ import annotations

from shardy_py.dialects.attr_codecs import ints_of
from shardy_py.syntax.attr_reader import parse_attribute


def int_prop(op, name: str, default: int | None = None) -> int:
    """The integer property ``name`` (``1 : i64``); ``default`` when absent (KeyError if no default)."""
    attr = op.properties_view.get(name)
    if attr is None:
        if default is None:
            raise KeyError(f"'{op.name}' has no property '{name}'")
        return default
    return ints_of(attr)[0]


def ints_prop(op, name: str) -> tuple[int, ...] | None:
    """The integers of the array property ``name`` (``array<i64: 0, 1>``) or of a dense integer
    elements property (flattened row-major, a splat repeated); None when absent."""
    attr = op.properties_view.get(name)
    if attr is None:
        return None
    text = str(attr)
    if text.startswith("array<"):
        return tuple(ints_of(attr))
    return tuple(int(v) for v in parse_attribute(text).values())


def str_prop(op, name: str) -> str:
    """The string property ``name`` unquoted (``"foo"`` gives ``foo``); empty when absent."""
    attr = op.properties_view.get(name)
    if attr is None:
        return ""
    return parse_attribute(str(attr)).value
