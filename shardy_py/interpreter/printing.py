"""Printing tensors as ``stablehlo-translate --interpret`` prints them (``Tensor::print``: the type,
then the elements nested by dimension with two-space indents; or, with ``--interpreter-print-dense``,
the ``dense<...>`` attribute MLIR prints)."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter.values import TOKEN, to_dense
from shardy_py.ir.builtin_attrs import element_text
from shardy_py.ir.dense_attrs import element_of
from shardy_py.ir.types import ComplexType, RankedTensorType


def element_texts(array: np.ndarray, t: RankedTensorType) -> list[str]:
    """Each element of ``array`` (row-major) as MLIR prints it with its type elided; a complex
    element is ``[re, im]``."""
    attr = to_dense(array, t)
    element = element_of(t)
    values = attr.values()
    if isinstance(element, ComplexType):
        inner = element.element
        return [f"[{element_text(re, inner)}, {element_text(im, inner)}]" for re, im in values]
    return [element_text(v, element) for v in values]


def tensor_text(array: np.ndarray, t: RankedTensorType) -> str:
    """``Tensor::print``: ``tensor<2xi32> {\\n  [3, 3]\\n}``; a scalar ``tensor<i32> {3}``."""
    texts = element_texts(array, t)
    shape = tuple(t.shape)
    out = [f"{t} {{"]

    def nest(offset: int, depth: int, stride: int, last: bool) -> None:
        if depth == len(shape):
            out.append(texts[offset])
            if not last:
                out.append(", ")
            return
        out.append("\n" + "  " * (depth + 1) + "[")
        n = shape[depth]
        inner = stride // n if n else 0
        for i in range(n):
            nest(offset + i * inner, depth + 1, inner, i == n - 1)
        out.append("]")
        if not last:
            out.append(",")
        else:
            out.append("\n" + "  " * depth)

    nest(0, 0, len(texts), True)
    out.append("}")
    return "".join(out)


def value_text(value, t, dense: bool = False) -> str:
    """A result as the interpreter prints it."""
    if value is TOKEN:
        return "!stablehlo.token"
    if isinstance(value, tuple):
        return "(" + ", ".join(value_text(v, s, dense) for v, s in zip(value, t.types, strict=False)) + ")"
    if dense:
        return str(to_dense(value, t))
    return tensor_text(value, t)
