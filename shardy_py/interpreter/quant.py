"""Uniform quantized types (``!quant.uniform<...>``): a quantized tensor is held as its storage
integers; ``uniform_quantize`` / ``uniform_dequantize`` convert, and any other op on quantized
values runs on their dequantized values with its result quantized again, as the reference's
``lowerQuantization`` rewrites the program before running it."""
from __future__ import annotations

import struct
from types import SimpleNamespace

import numpy as np

from shardy_py.interpreter.handlers import handler
from shardy_py.interpreter.values import PREFIX, dtype_of, quant_type, storage_name, tensor_type
from shardy_py.ir.types import QuantizedType


def _params(q: QuantizedType, ndim: int) -> tuple[np.ndarray, np.ndarray]:
    scales = np.array([struct.unpack("<d", s.to_bytes(8, "little"))[0] for s in q.scales])
    zps = np.array(q.zero_points, dtype=np.float64)
    if q.quantized_dimension is None:
        return scales.reshape(()), zps.reshape(())
    shape = [1] * ndim
    shape[q.quantized_dimension] = -1
    return scales.reshape(shape), zps.reshape(shape)


def dequantize(x: np.ndarray, q: QuantizedType) -> np.ndarray:
    scale, zp = _params(q, x.ndim)
    return ((x.astype(np.float64) - zp) * scale).astype(dtype_of(q.expressed_type.text))


def quantize(x: np.ndarray, q: QuantizedType) -> np.ndarray:
    scale, zp = _params(q, x.ndim)
    v = np.rint(x.astype(np.float64) / scale + zp)
    return np.clip(v, q.storage_min, q.storage_max).astype(dtype_of(storage_name(q)))


@handler("stablehlo.uniform_quantize")
def _uniform_quantize(ev, op, args):
    (x,) = args
    src = quant_type(op.operands[0].type.element_type)
    if src is not None:
        x = dequantize(x, src)
    return [quantize(x, quant_type(op.results[0].type.element_type))]


@handler("stablehlo.uniform_dequantize")
def _uniform_dequantize(ev, op, args):
    return [dequantize(args[0], quant_type(op.operands[0].type.element_type))]


#: Ops that see quantized values as they are (their storage integers).
RAW = frozenset({"stablehlo.uniform_quantize", "stablehlo.uniform_dequantize", "stablehlo.bitcast_convert",
                 "func.return", "stablehlo.return", "func.call"})


def has_quantized(op) -> bool:
    """Whether ``op`` takes or gives quantized tensors (and is not one that handles them itself)."""
    if op.name in RAW:
        return False
    types = [v.type for v in op.operands if v is not None] + [r.type for r in op.results]
    return any(str(getattr(t, "element_type", "")).startswith(PREFIX) for t in types)


def _expressed(t):
    q = quant_type(getattr(t, "element_type", ""))
    return t if q is None else tensor_type(t.shape, q.expressed_type.text)


class _ExpressedView:
    """``op`` as seen with its quantized types replaced by their expressed float types."""

    def __init__(self, op):
        self._op = op
        self.operands = [SimpleNamespace(type=_expressed(v.type), name=v.name) for v in op.operands]
        self.results = [SimpleNamespace(type=_expressed(r.type)) for r in op.results]

    def __getattr__(self, name):
        return getattr(self._op, name)


def run_dequantized(ev, op, fn, operands: list) -> list:
    """Run handler ``fn`` of ``op`` on the dequantized operands and quantize its results."""
    values = []
    for v, x in zip(op.operands, operands, strict=True):
        q = quant_type(getattr(v.type, "element_type", ""))
        values.append(dequantize(x, q) if q is not None else x)
    results = fn(ev, _ExpressedView(op), values)
    out = []
    for r, x in zip(op.results, results, strict=True):
        q = quant_type(getattr(r.type, "element_type", ""))
        out.append(quantize(np.asarray(x), q) if q is not None else x)
    return out
