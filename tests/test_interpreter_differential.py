"""The numpy interpreter against StableHLO's C++ reference interpreter in jaxlib 0.12
(``stablehlo.eval_module``) on drawn single-op modules: integer and boolean results bit-exact,
floating results within ``check.expect_almost_eq``'s tolerance (relative for large values) or 2 ULPs.
``benchmarks/differential_interpreter.py`` runs many more draws and reports counts per op."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("jax", reason="the oracle is StableHLO's C++ interpreter in jaxlib 0.12 (Python >= 3.12)")

from interpreter_cases import OPS, draw_case  # noqa: E402
from interpreter_oracle import cpp_eval  # noqa: E402

import shardy_py  # noqa: E402
from shardy_py.interpreter.check_ops import ulp_difference  # noqa: E402


def agree(ours: np.ndarray, cpp: np.ndarray) -> bool:
    """Whether one result of ours matches jaxlib's (see the module docstring)."""
    if ours.shape != cpp.shape:
        return False
    if ours.dtype.kind in "iub":
        return bool(np.array_equal(ours, cpp))
    if ours.dtype.kind == "c" or cpp.dtype.kind == "c":
        ours, cpp = np.asarray(ours, np.complex128), np.asarray(cpp, np.complex128)
        return agree(ours.real, cpp.real) and agree(ours.imag, cpp.imag)
    a, b = ours.astype(np.float64), cpp.astype(np.float64)
    with np.errstate(all="ignore"):
        close = (a == b) | (np.isnan(a) & np.isnan(b)) | (np.abs(a - b) <= 1e-4 * np.maximum(1.0, np.abs(b)))
    if close.all():
        return True
    return bool((close | (ulp_difference(ours, cpp.astype(ours.dtype)) <= 2)).all())


def compare(op: str, seed: int) -> tuple[bool, str]:
    """Run a drawn module of ``op`` on both interpreters: (agreed or jaxlib could not answer, text)."""
    text, args = draw_case(np.random.default_rng(seed), op)
    cpp = cpp_eval(text, args)
    if cpp is None:
        return True, text  # jaxlib rejected or crashed on it: nothing to compare
    ours = shardy_py.interpret(text, *[a for a, _ in args])
    ok = len(ours) == len(cpp) and all(agree(o, c) for o, c in zip(ours, cpp, strict=True))
    return ok, f"{text}\nargs={[a.tolist() for a, _ in args]}\nours={[o.tolist() for o in ours]}\n" \
               f"cpp={[c.tolist() for c in cpp]}"


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_drawn_op_matches_the_cpp_interpreter(op, seed):
    ok, detail = compare(op, seed)
    assert ok, detail
