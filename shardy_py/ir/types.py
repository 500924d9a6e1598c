"""MLIR types, as far as Shardy needs them.

Ranked tensors are modelled (shape, element type, encoding) because the
verifier and the device code need shapes; every other type is kept as its
text.  ``parse_type`` is memoised: a module repeats a few type texts.
"""
from __future__ import annotations

import functools
import re

import attrs

DYNAMIC = -1  # a ``?`` dimension


@attrs.frozen(cache_hash=True)
class Type:
    """Any MLIR type, kept as canonical text."""

    text: str

    def __str__(self) -> str:
        return self.text

    @property
    def is_shaped(self) -> bool:
        """True for tensors, memrefs and vectors (MLIR's ShapedType)."""
        return self.text.startswith(("tensor<", "memref<", "vector<"))


@attrs.frozen(cache_hash=True)
class RankedTensorType(Type):
    """``tensor<8x?x4xf32, #enc>``: ``shape`` uses ``DYNAMIC`` (-1) for ``?``."""

    shape: tuple[int, ...] = ()
    element_type: str = ""
    encoding: str | None = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def has_static_shape(self) -> bool:
        return DYNAMIC not in self.shape

    @property
    def num_elements(self) -> int | None:
        if not self.has_static_shape:
            return None
        n = 1
        for d in self.shape:
            n *= d
        return n


@attrs.frozen(cache_hash=True)
class UnrankedTensorType(Type):
    """``tensor<*xf32>``."""

    element_type: str = ""


_RANKED = re.compile(r"tensor<((?:(?:\d+|\?)x)*)([^,<>]*(?:<[^<>]*>)?)(?:,\s*(.*))?>\Z", re.S)
_WS = re.compile(r"\s+")


def _normalise(text: str) -> str:
    """Whitespace-normalise a type text the way MLIR prints it."""
    t = _WS.sub(" ", text.strip())
    t = re.sub(r"\s*([<>(),\[\]])\s*", r"\1", t)
    t = t.replace(",", ", ").replace("->", " -> ")
    return t


@functools.lru_cache(maxsize=4096)
def parse_type(text: str) -> Type:
    """The ``Type`` for ``text`` (a tensor type gets its shape parsed)."""
    t = text if ("\n" not in text and "  " not in text) else _normalise(text)
    if "#stablehlo." in t:
        from shardy_py.syntax.stablehlo_attr_text import canonical_stablehlo_attrs

        t = canonical_stablehlo_attrs(t)
    if t.startswith("tensor<"):
        if t.startswith("tensor<*x"):
            return UnrankedTensorType(t, t[len("tensor<*x"):-1])
        m = _RANKED.match(t)
        if m:
            dims = tuple(DYNAMIC if d == "?" else int(d) for d in m.group(1).split("x")[:-1])
            return RankedTensorType(t, dims, m.group(2), m.group(3))
    return Type(t)
