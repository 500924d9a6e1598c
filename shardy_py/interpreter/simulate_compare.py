"""How ``simulate`` compares two results of one program: integers and booleans bit-exact, floating and
complex values within ``check.expect_almost_eq``'s tolerance (1e-4), relative for magnitudes above 1 and
never finer than 4 units in the last place of a narrow type (bf16, f16, the float8 types); NaN matches NaN
and an infinity only itself."""
from __future__ import annotations

import numpy as np

#: ``check.expect_almost_eq``'s default tolerance.
TOLERANCE = 1e-4


def _is_exact(dtype: np.dtype) -> bool:
    return dtype.kind in "iub"


def tolerance_of(dtype: np.dtype) -> float:
    """The tolerance of values of ``dtype`` (see the module docstring); 0 for exact types."""
    if _is_exact(dtype):
        return 0.0
    try:
        eps = float(np.finfo(dtype).eps)
    except (TypeError, ValueError):
        import ml_dtypes

        eps = float(ml_dtypes.finfo(dtype).eps)
    return max(TOLERANCE, 4 * eps)


def _as_float(a: np.ndarray) -> np.ndarray:
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def largest_difference(a: np.ndarray, b: np.ndarray) -> float:
    """The largest elementwise difference |a - b| (exact for integers; NaN against NaN is 0, NaN against
    a number or an infinity against anything else is infinite)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    if _is_exact(a.dtype) and _is_exact(b.dtype):
        differ = a != b
        if not differ.any():
            return 0.0
        return float(max(abs(int(x) - int(y)) for x, y in zip(a[differ].tolist(), b[differ].tolist(), strict=True)))
    x, y = _as_float(a), _as_float(b)
    with np.errstate(all="ignore"):
        same = (x == y) | (np.isnan(x) & np.isnan(y))
        diff = np.where(same, 0.0, np.abs(x - y))
    diff = np.where(np.isnan(diff), np.inf, diff)
    return float(diff.max())


def within_tolerance(actual: np.ndarray, expected: np.ndarray) -> bool:
    """Whether ``actual`` matches ``expected`` (see the module docstring)."""
    a, b = np.asarray(actual), np.asarray(expected)
    if a.shape != b.shape:
        return False
    if _is_exact(a.dtype) or _is_exact(b.dtype):
        return bool(np.array_equal(a, b))
    x, y = _as_float(a), _as_float(b)
    tol = tolerance_of(a.dtype)
    with np.errstate(all="ignore"):
        same = (x == y) | (np.isnan(x) & np.isnan(y))
        close = np.abs(x - y) <= tol * np.maximum(1.0, np.abs(y))
    return bool((same | close).all())


def replicas_agree(spread: float, expected: np.ndarray) -> bool:
    """Whether devices holding the same slice, ``spread`` apart at most, agree: exactly for integers and
    booleans, within the tolerance of the largest finite magnitude of ``expected`` (at least 1) for floats."""
    expected = np.asarray(expected)
    if spread == 0.0:
        return True
    if _is_exact(expected.dtype):
        return False
    magnitude = np.abs(_as_float(expected))
    finite = magnitude[np.isfinite(magnitude)]
    scale = max(1.0, float(finite.max())) if finite.size else 1.0
    return spread <= tolerance_of(expected.dtype) * scale
