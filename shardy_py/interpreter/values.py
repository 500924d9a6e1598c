"""Runtime values of the interpreter and their element types.

A tensor is a numpy array whose dtype holds the StableHLO element type:

* ``i1`` -> ``bool``; ``i8``..``i64`` / ``ui8``..``ui64`` -> numpy's integers; ``index`` -> ``int64``;
* ``i2``/``i4`` -> ``int8`` and ``ui2``/``ui4`` -> ``uint8``, wrapped to their width after every op
  (``fit``);
* ``f16``/``f32``/``f64`` -> numpy's floats; ``bf16`` and the float8/6/4 types -> ``ml_dtypes``;
* ``complex<f32>``/``complex<f64>`` -> ``complex64``/``complex128``.

A token is ``TOKEN``; a tuple is a Python ``tuple`` of values.  The element type of a value is read
from the IR type of the SSA value that holds it (``element_name``).
"""
from __future__ import annotations

import functools

import ml_dtypes
import numpy as np

from shardy_py.ir.dense_attrs import DenseElementsAttr, storage_bytes
from shardy_py.ir.types import QuantizedType, RankedTensorType, Type
from shardy_py.syntax.attr_reader import parse_mlir_type


class Token:
    """The value of a ``!stablehlo.token``."""

    def __repr__(self) -> str:
        return "TOKEN"


TOKEN = Token()

_FLOATS = {
    "f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn), "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz), "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz),
    "f8E4M3B11FNUZ": np.dtype(ml_dtypes.float8_e4m3b11fnuz), "f8E3M4": np.dtype(ml_dtypes.float8_e3m4),
    "f8E4M3": np.dtype(ml_dtypes.float8_e4m3), "f8E8M0FNU": np.dtype(ml_dtypes.float8_e8m0fnu),
    "f4E2M1FN": np.dtype(ml_dtypes.float4_e2m1fn), "f6E2M3FN": np.dtype(ml_dtypes.float6_e2m3fn),
    "f6E3M2FN": np.dtype(ml_dtypes.float6_e3m2fn),
}
_COMPLEX = {"complex<f32>": np.dtype(np.complex64), "complex<f64>": np.dtype(np.complex128)}


class UnsupportedType(ValueError):
    """An element type the interpreter does not know."""


def _storage_of(name: str) -> str:
    """The storage integer type of a quantized element type (``!quant.uniform<i8:f32, ...>`` -> ``i8``)."""
    q = quant_type(name)
    if q is None:
        raise UnsupportedType(f"unsupported element type {name}")
    return storage_name(q)


@functools.lru_cache(maxsize=1024)
def int_info(name: str) -> tuple[int, bool] | None:
    """(bit width, signed) of an integer element type name (``i1`` is unsigned, width 1); None otherwise;
    a quantized type's are its storage type's."""
    if name.startswith("!quant."):
        return int_info(_storage_of(name))
    if name == "index":
        return 64, True
    for prefix, signed in (("ui", False), ("si", True), ("i", True)):
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            width = int(name[len(prefix):])
            return width, signed and width != 1
    return None


def is_float(name: str) -> bool:
    return name in _FLOATS


def is_complex(name: str) -> bool:
    return name in _COMPLEX


def is_int(name: str) -> bool:
    """Integer types other than ``i1``."""
    info = int_info(name)
    return info is not None and info[0] != 1


def is_bool(name: str) -> bool:
    return name == "i1"


def is_unsigned(name: str) -> bool:
    info = int_info(name)
    return info is not None and not info[1]


@functools.lru_cache(maxsize=1024)
def dtype_of(name: str) -> np.dtype:
    """The numpy dtype holding elements of type ``name``; ``UnsupportedType`` when there is none."""
    if name.startswith("!quant."):
        return dtype_of(_storage_of(name))
    if name in _FLOATS:
        return _FLOATS[name]
    if name in _COMPLEX:
        return _COMPLEX[name]
    info = int_info(name)
    if info is None:
        raise UnsupportedType(f"unsupported element type {name}")
    width, signed = info
    if width == 1:
        return np.dtype(np.bool_)
    if width not in (2, 4, 8, 16, 32, 64):
        raise UnsupportedType(f"unsupported element type {name}")
    bits = max(width, 8)
    return np.dtype(f"{'i' if signed else 'u'}{bits // 8}")


def element_name(t: Type) -> str:
    """The element type name of a tensor type (``tensor<2xf32>`` -> ``f32``); a scalar type's own name."""
    if isinstance(t, RankedTensorType):
        return t.element_type
    return t.text


def fit(array: np.ndarray, name: str) -> np.ndarray:
    """``array`` as a tensor of element type ``name``: cast to its dtype, integers narrower than
    8 bits wrapped around to their width (two's complement for the signed ones)."""
    dtype = dtype_of(name)
    if array.dtype != dtype:
        array = array.astype(dtype)
    if dtype.itemsize != 1 or dtype.kind not in "iu":
        return array
    info = int_info(name)
    if info is not None and info[0] in (2, 4):
        width, signed = info
        mask = (1 << width) - 1
        if signed:
            half = 1 << (width - 1)
            array = (((array.astype(np.int16) + half) & mask) - half).astype(np.int8)
        else:
            array = (array & mask).astype(np.uint8)
    return array


def from_dense(attr: DenseElementsAttr) -> np.ndarray:
    """The tensor a ``dense<...>`` attribute holds."""
    t = attr.type
    name = element_name(t)
    dtype = dtype_of(name)
    shape = tuple(getattr(t, "shape", ()))
    info = int_info(name)
    if info is not None and info[0] < 8:
        raw = np.frombuffer(attr.data, dtype=np.uint8)
        width, signed = info
        if width == 1:
            flat = raw != 0
        else:
            flat = fit(raw.astype(np.int16) if signed else raw, name)
    elif name == "index":
        flat = np.frombuffer(attr.data, dtype="<i8")
    else:
        flat = np.frombuffer(attr.data, dtype=dtype.newbyteorder("<") if dtype.byteorder not in "|" else dtype)
        flat = flat.astype(dtype)
    if attr.splat:
        return np.broadcast_to(flat[:1].reshape(()), shape).copy()
    return flat.reshape(shape).copy()


def to_dense(array: np.ndarray, t: RankedTensorType) -> DenseElementsAttr:
    """The ``dense<...>`` attribute of a tensor of type ``t``."""
    name = element_name(t)
    info = int_info(name)
    array = np.ascontiguousarray(fit(np.asarray(array), name))
    if info is not None and info[0] < 8:
        width = info[0]
        data = (array.astype(np.uint8) & ((1 << width) - 1)).astype(np.uint8).tobytes()
    elif name == "index":
        data = array.astype("<i8").tobytes()
    else:
        dt = array.dtype
        data = array.astype(dt.newbyteorder("<")).tobytes() if dt.byteorder == ">" else array.tobytes()
    return DenseElementsAttr.from_raw(t, data)


def storage_width(name: str) -> int:
    """Bytes a scalar of ``name`` takes in MLIR's raw data."""
    info = int_info(name)
    if info is not None:
        return storage_bytes(info[0])
    return dtype_of(name).itemsize


def bit_width(name: str) -> int:
    """The bit width of an element type (``complex<f32>``: 64)."""
    info = int_info(name)
    if info is not None:
        return info[0]
    if name in _COMPLEX:
        return dtype_of(name).itemsize * 8
    return {"f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6}.get(name, dtype_of(name).itemsize * 8)


def tensor_type(shape, name: str) -> RankedTensorType:
    """``tensor<SHAPExNAME>``."""
    dims = "".join(f"{d}x" for d in shape)
    return RankedTensorType(f"tensor<{dims}{name}>", tuple(shape), name, None)


# -- quantized element types (``quant``) ------------------------------------------------------------
PREFIX = "!quant."


@functools.lru_cache(maxsize=256)
def quant_type(name: str) -> QuantizedType | None:
    """The quantized type an element type name spells, or None."""
    if not name.startswith(PREFIX):
        return None
    t = parse_mlir_type(name)
    return t if isinstance(t, QuantizedType) else None


def storage_name(q: QuantizedType) -> str:
    return f"{'i' if q.signed else 'ui'}{q.storage_width}"
