"""Small helpers over ``shardy_py.ir.types``: shapes of ranked/unranked/tuple/other types."""
from __future__ import annotations

import functools
import re

from shardy_py.ir.types import DYNAMIC, RankedTensorType, Type, UnrankedTensorType, parse_type

_SHAPED_DIMS = re.compile(r"^(?:memref|vector)<((?:(?:\d+|\?|\[\d+\])x)*)")


@functools.lru_cache(maxsize=4096)
def shape_of(t: Type | None) -> tuple[int, ...] | None:
    """The shape of a ranked shaped type (``-1`` for dynamic dims), else None."""
    if isinstance(t, RankedTensorType):
        return t.shape
    if t is None or isinstance(t, UnrankedTensorType):
        return None
    m = _SHAPED_DIMS.match(t.text)
    if m:
        dims = [d.strip("[]") for d in m.group(1).split("x")[:-1]]
        return tuple(DYNAMIC if d == "?" else int(d) for d in dims)
    return None


def is_shaped(t: Type | None) -> bool:
    """MLIR's ShapedType: tensors (ranked or not), memrefs and vectors."""
    return t is not None and (isinstance(t, (RankedTensorType, UnrankedTensorType)) or t.is_shaped)


def is_ranked(t: Type | None) -> bool:
    """A shaped type with a rank."""
    return shape_of(t) is not None


def has_static_shape(t: Type | None) -> bool:
    """A ranked shaped type with no dynamic dimension."""
    s = shape_of(t)
    return s is not None and DYNAMIC not in s


def is_ranked_tensor(t: Type | None) -> bool:
    """``tensor<...>`` with a rank."""
    return isinstance(t, RankedTensorType)


def split_top_level(body: str) -> list[str]:
    """Split ``body`` on commas that are not nested in ``<>``, ``()``, ``[]`` or ``{}``."""
    out, depth, cur = [], 0, []
    for ch in body:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


@functools.lru_cache(maxsize=1024)
def tuple_elements(t: Type | None) -> list[Type] | None:
    """The element types of a ``tuple<...>`` type, or None if ``t`` is not a tuple."""
    if t is None or not t.text.startswith("tuple<") or not t.text.endswith(">"):
        return None
    return [parse_type(s) for s in split_top_level(t.text[len("tuple<"):-1])]


def type_str(t: Type | None) -> str:
    """A type quoted for a message: ``'tensor<8xf32>'``."""
    return f"'{t}'" if t is not None else "'<unknown type>'"


def same_type(a: Type | None, b: Type | None) -> bool:
    """Type equality by canonical text (unknown types compare equal to anything)."""
    if a is None or b is None:
        return True
    return a.text == b.text


def operand_types(op) -> list[Type | None]:
    """Types of ``op``'s operands: the resolved value's type, else the type written in the op."""
    operands, written = op.operands, op.operand_types_view
    names = op._operand_name_list  # (None: the operands' own names, as many; ``operand_names_view`` makes them)
    n = len(operands) if names is None else max(len(operands), len(names))
    out: list[Type | None] = []
    for i in range(n):
        v = operands[i] if i < len(operands) else None
        t = v.type if v is not None else None
        if t is None and i < len(written):
            t = written[i]
        out.append(t)
    return out
