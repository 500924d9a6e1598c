"""Linear algebra: ``dot_general``/``dot``, ``triangular_solve``, ``fft``, ``cholesky``.

Integer and boolean products are computed with ``numpy.einsum`` over the whole tensors (integers in
their own dtype, which wraps around as the reference does).  Float and complex dot products are
accumulated as the reference's ``dotGeneralOp`` does: one contracting index at a time, in
row-major order from zero, each product and each sum rounded to the element type (so a sum split
across devices and all-reduced gives the same bits), vectorised over the whole result."""
from __future__ import annotations

import string

import numpy as np

from shardy_py.interpreter import arith
from shardy_py.interpreter.evaluator import InterpretError, attr, enum_attr, handler, ints, result_element
from shardy_py.interpreter.values import dtype_of, is_bool, is_complex, is_float


def dot_general(lhs: np.ndarray, rhs: np.ndarray, lhs_batch, rhs_batch, lhs_contract, rhs_contract,
                name: str) -> np.ndarray:
    """The result of ``dot_general``: batch dimensions, then lhs free, then rhs free dimensions."""
    letters = iter(string.ascii_letters)
    lhs_sub = [""] * lhs.ndim
    rhs_sub = [""] * rhs.ndim
    for lb, rb in zip(lhs_batch, rhs_batch, strict=True):
        lhs_sub[lb] = rhs_sub[rb] = next(letters)
    for lc, rc in zip(lhs_contract, rhs_contract, strict=True):
        lhs_sub[lc] = rhs_sub[rc] = next(letters)
    for subs in (lhs_sub, rhs_sub):
        for i, s in enumerate(subs):
            if not s:
                subs[i] = next(letters)
    out = [lhs_sub[d] for d in lhs_batch]
    out += [s for d, s in enumerate(lhs_sub) if d not in lhs_batch and d not in lhs_contract]
    out += [s for d, s in enumerate(rhs_sub) if d not in rhs_batch and d not in rhs_contract]
    spec = f"{''.join(lhs_sub)},{''.join(rhs_sub)}->{''.join(out)}"
    if is_bool(name):
        return np.einsum(spec, lhs.astype(np.int64), rhs.astype(np.int64)) != 0
    if is_float(name) or is_complex(name):
        return _accumulated(lhs, rhs, lhs_batch, rhs_batch, lhs_contract, rhs_contract, name)
    return np.einsum(spec, lhs, rhs)


def _accumulated(lhs: np.ndarray, rhs: np.ndarray, lhs_batch, rhs_batch, lhs_contract, rhs_contract,
                 name: str) -> np.ndarray:
    """``dotGeneralOp`` of floats or complex numbers: ``acc = acc + lhs * rhs`` per contracting
    index (row-major), every operation rounded to element type ``name``."""
    lhs_free = [d for d in range(lhs.ndim) if d not in lhs_batch and d not in lhs_contract]
    rhs_free = [d for d in range(rhs.ndim) if d not in rhs_batch and d not in rhs_contract]
    batch = [lhs.shape[d] for d in lhs_batch]
    free_l, free_r = [lhs.shape[d] for d in lhs_free], [rhs.shape[d] for d in rhs_free]
    depth = int(np.prod([lhs.shape[d] for d in lhs_contract], dtype=np.int64))
    groups = int(np.prod(batch, dtype=np.int64))
    m, n = int(np.prod(free_l, dtype=np.int64)), int(np.prod(free_r, dtype=np.int64))
    a = np.transpose(lhs, [*lhs_contract, *lhs_batch, *lhs_free]).reshape(depth, groups, m)
    b = np.transpose(rhs, [*rhs_contract, *rhs_batch, *rhs_free]).reshape(depth, groups, n)
    return accumulate(a, b, name).reshape([*batch, *free_l, *free_r])


def accumulate(a: np.ndarray, b: np.ndarray, name: str) -> np.ndarray:
    """The sums ``acc[g, i, j] = acc + a[k, g, i] * b[k, g, j]`` for ``k = 0, 1, ...`` from zero, as the
    reference's ``dotGeneralOp`` sums a float or complex dot product: every product and every partial
    sum rounded to element type ``name``.  ``a``: (depth, groups, m), ``b``: (depth, groups, n); the
    result (groups, m, n), one whole-array step per contracting index."""
    dtype = dtype_of(name)
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    shape = (a.shape[1], a.shape[2], b.shape[2])
    if is_complex(name):
        return _complex_sum(a, b, np.dtype(np.float32) if dtype == np.complex64 else np.dtype(np.float64))
    acc = np.zeros(shape, dtype=dtype)
    if dtype in _IEEE_FLOATS:  # numpy rounds each of these operations once, as the reference does
        product = np.empty(shape, dtype=dtype)
        for k in range(a.shape[0]):
            np.multiply(a[k, :, :, None], b[k, :, None, :], out=product)
            np.add(acc, product, out=acc)
        return acc
    for k in range(a.shape[0]):
        product = _rounded(arith.wide(a[k, :, :, None], name) * arith.wide(b[k, :, None, :], name), dtype)
        acc = _rounded(arith.wide(acc, name) + arith.wide(product, name), dtype)
    return acc


#: Float dtypes whose numpy multiply and add round the exact result once to the type (f16 through
#: f32, where a product is exact and the double rounding of a sum is innocuous).
_IEEE_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))


def _rounded(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return x if x.dtype == dtype else x.astype(dtype)


def _complex_sum(a: np.ndarray, b: np.ndarray, part: np.dtype) -> np.ndarray:
    """The complex dot product with the reference's component formulas, each real operation in
    the precision of the parts."""
    ar, ai = a.real.astype(part)[:, :, :, None], a.imag.astype(part)[:, :, :, None]
    br, bi = b.real.astype(part)[:, :, None, :], b.imag.astype(part)[:, :, None, :]
    shape = (a.shape[1], a.shape[2], b.shape[2])
    real, imag = np.zeros(shape, dtype=part), np.zeros(shape, dtype=part)
    for k in range(a.shape[0]):
        real = real + (ar[k] * br[k] - ai[k] * bi[k])
        imag = imag + (ar[k] * bi[k] + ai[k] * br[k])
    out = np.empty(shape, dtype=np.complex128 if part == np.float64 else np.complex64)
    out.real, out.imag = real, imag
    return out


@handler("stablehlo.dot_general")
def _dot_general(ev, op, args):
    dims = attr(op, "dot_dimension_numbers")
    lhs, rhs = args
    name = result_element(op)
    lhs, rhs = arith.convert(lhs, _element(op, 0), name), arith.convert(rhs, _element(op, 1), name)
    return [dot_general(lhs, rhs, dims.lhs_batching_dimensions, dims.rhs_batching_dimensions,
                        dims.lhs_contracting_dimensions, dims.rhs_contracting_dimensions, name)]


def _element(op, i: int) -> str:
    return op.operands[i].type.element_type


@handler("stablehlo.dot")
def _dot(ev, op, args):
    lhs, rhs = args
    name = result_element(op)
    lhs, rhs = arith.convert(lhs, _element(op, 0), name), arith.convert(rhs, _element(op, 1), name)
    return [dot_general(lhs, rhs, [], [], [lhs.ndim - 1], [0], name)]


def triangular_solve(a: np.ndarray, b: np.ndarray, left_side: bool, lower: bool, unit_diagonal: bool,
                     transpose_a: str) -> np.ndarray:
    """Solve ``op(a) x = b`` (``left_side``) or ``x op(a) = b`` by substitution, batched, with the
    triangle of ``a`` that ``lower`` names (``unit_diagonal``: its diagonal taken as ones)."""
    wide_type = np.complex128 if np.iscomplexobj(a) else np.float64
    a = a.astype(wide_type)
    b = b.astype(wide_type)
    n = a.shape[-1]
    tri = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        eye = np.eye(n, dtype=bool)
        tri = np.where(eye, 1, tri)
    if transpose_a in ("TRANSPOSE", "ADJOINT"):
        tri = np.swapaxes(tri, -1, -2)
        lower = not lower
        if transpose_a == "ADJOINT":
            tri = np.conj(tri)
    if not left_side:  # x M = b  <=>  M^T x^T = b^T
        tri = np.swapaxes(tri, -1, -2)
        b = np.swapaxes(b, -1, -2)
        lower = not lower
    x = np.zeros_like(b)
    # the sum runs over the solved entries only: the diagonal (maybe infinite) times an unsolved zero
    # would be NaN
    strict = np.where(np.eye(n, dtype=bool), 0, tri)
    order = range(n) if lower else range(n - 1, -1, -1)
    for i in order:
        acc = b[..., i, :] - np.einsum("...j,...jk->...k", strict[..., i, :], x)
        x[..., i, :] = acc / tri[..., i, i][..., None]
    if not left_side:
        x = np.swapaxes(x, -1, -2)
    return x


@handler("stablehlo.triangular_solve")
def _triangular_solve(ev, op, args):
    a, b = args
    return [triangular_solve(a, b, _flag(op, "left_side"), _flag(op, "lower"), _flag(op, "unit_diagonal"),
                             enum_attr(op, "transpose_a", "NO_TRANSPOSE"))]


def _flag(op, name: str) -> bool:
    v = attr(op, name)
    return bool(getattr(v, "value", v)) if v is not None else False


@handler("stablehlo.fft")
def _fft(ev, op, args):
    (x,) = args
    kind = enum_attr(op, "fft_type")
    lengths = ints(op, "fft_length")
    axes = tuple(range(x.ndim - len(lengths), x.ndim))
    if kind == "FFT":
        return [np.fft.fftn(x.astype(np.complex128), s=lengths, axes=axes)]
    if kind == "IFFT":
        return [np.fft.ifftn(x.astype(np.complex128), s=lengths, axes=axes)]
    if kind == "RFFT":
        return [np.fft.rfftn(x.astype(np.float64), s=lengths, axes=axes)]
    if kind == "IRFFT":
        return [np.fft.irfftn(x.astype(np.complex128), s=lengths, axes=axes)]
    raise InterpretError(f"unknown fft_type {kind}")


@handler("stablehlo.cholesky")
def _cholesky(ev, op, args):
    (a,) = args
    lower = _flag(op, "lower")
    wide_type = np.complex128 if np.iscomplexobj(a) else np.float64
    m = a.astype(wide_type)
    if not lower:
        m = np.conj(np.swapaxes(m, -1, -2))
    sym = np.tril(m) + np.conj(np.swapaxes(np.tril(m, -1), -1, -2))
    with np.errstate(all="ignore"):
        try:
            low = np.linalg.cholesky(sym)
        except np.linalg.LinAlgError:
            low = np.full_like(sym, np.nan)
    out = low if lower else np.conj(np.swapaxes(low, -1, -2))
    return [out]
