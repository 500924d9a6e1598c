"""Read-only public fields over private ``__slots__``: immutable values that stay cheap to build.

Setting a slot in ``__init__`` is a plain store (no ``object.__setattr__`` call per field), which
matters for ``HloSharding`` and ``TileAssignment``: building one is on the microsecond-scale path
of ``HloSharding.iota_tile``.  Assigning to the public name raises ``AttributeError``.
"""
from __future__ import annotations

from operator import attrgetter


def read_only(owner: str, name: str, doc: str) -> property:
    """A property returning slot ``_<name>``; assigning to it says ``owner`` is immutable."""

    def refuse(self, value) -> None:
        raise AttributeError(f"{owner} is immutable (cannot set {name!r}); build a new one")

    return property(attrgetter("_" + name), refuse, doc=doc)
