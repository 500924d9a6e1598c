"""CHLO's special functions (erf, erfc, erf_inv, lgamma, digamma) as StableHLO's chlo-legalize-to-stablehlo
decomposes them: against Python's math module, and against jaxlib's C++ interpreter running StableHLO's own
decomposition of the same op."""
from __future__ import annotations

import math

import numpy as np
import pytest

import shardy_py


def _run(op: str, x: np.ndarray, element: str) -> np.ndarray:
    t = f"tensor<{x.size}x{element}>"
    text = f"func.func @main(%a: {t}) -> {t} {{\n  %0 = chlo.{op} %a : {t} -> {t}\n  return %0 : {t}\n}}\n"
    (out,) = shardy_py.interpret(text, x)
    return out


POINTS = np.array([-3.5, -1.0, -0.25, 0.0, 0.3, 0.999, 1.0, 2.5, 6.0], np.float64)


@pytest.mark.parametrize("element, tolerance", [("f32", 2e-6), ("f64", 1e-14)])
def test_erf_and_erfc_match_the_math_module(element, tolerance):
    x = POINTS.astype(np.float32 if element == "f32" else np.float64)
    erf = _run("erf", x, element).astype(np.float64)
    erfc = _run("erfc", x, element).astype(np.float64)
    want = np.array([math.erf(v) for v in x.astype(np.float64)])
    want_c = np.array([math.erfc(v) for v in x.astype(np.float64)])
    assert np.all(np.abs(erf - want) <= tolerance)
    assert np.all(np.abs(erfc - want_c) <= tolerance * np.maximum(1, want_c) * 10)


@pytest.mark.parametrize("element, tolerance", [("f32", 1e-6), ("f64", 1e-15)])
def test_erf_inv_inverts_erf_and_is_infinite_at_one(element, tolerance):
    y = np.array([-1.0, -0.9, -0.3, 0.0, 0.5, 0.99, 1.0], np.float32 if element == "f32" else np.float64)
    x = _run("erf_inv", y, element)
    assert x[0] == -np.inf and x[-1] == np.inf and x[3] == 0
    back = np.array([math.erf(v) for v in x[1:-1].astype(np.float64)])
    assert np.all(np.abs(back - y[1:-1]) <= tolerance)


@pytest.mark.parametrize("element, tolerance", [("f32", 1e-5), ("f64", 1e-13)])
def test_lgamma_matches_the_math_module_and_poles_are_infinite(element, tolerance):
    x = np.array([-2.5, -0.5, 0.1, 1.0, 2.0, 3.7, 30.0], np.float32 if element == "f32" else np.float64)
    got = _run("lgamma", x, element).astype(np.float64)
    want = np.array([math.lgamma(v) for v in x.astype(np.float64)])
    assert np.all(np.abs(got - want) <= tolerance * np.maximum(1, np.abs(want)))
    poles = _run("lgamma", np.array([-2.0, 0.0, np.inf, -np.inf], x.dtype), element)
    assert poles.tolist() == [np.inf, np.inf, np.inf, np.inf]


def test_digamma_is_the_derivative_of_lgamma_and_nan_at_its_negative_poles():
    """At 0 jaxlib 0.12's decomposition gives -inf (StableHLO at STABLEHLO_COMMIT: NaN); jaxlib wins."""
    x = np.array([-1.5, 0.25, 1.0, 4.5], np.float64)
    h = 1e-6
    want = np.array([(math.lgamma(v + h) - math.lgamma(v - h)) / (2 * h) for v in x])
    assert np.allclose(_run("digamma", x, "f64"), want, rtol=1e-6, atol=1e-6)
    poles = _run("digamma", np.array([0.0, -1.0, -3.0]), "f64")
    assert poles[0] == -np.inf and np.isnan(poles[1:]).all()


def test_narrow_types_are_computed_in_f32():
    x = np.array([0.5, -1.25], np.float16)
    assert _run("erf", x, "f16").tolist() == _run("erf", x.astype(np.float32), "f32").astype(np.float16).tolist()


@pytest.mark.parametrize("op", ["erf", "erfc", "erf_inv", "lgamma", "digamma"])
@pytest.mark.parametrize("element", ["f32", "f64", "bf16"])
def test_special_functions_match_the_cpp_decomposition(op, element):
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12's chlo-legalize-to-stablehlo and eval_module")
    from interpreter_oracle import cpp_eval
    from test_interpreter_differential import agree

    from shardy_py.interpreter.values import dtype_of

    rng = np.random.default_rng(hash((op, element)) % 2**32)
    if op == "erf_inv":
        x = rng.uniform(-1, 1, 64)
    else:
        x = rng.standard_normal(64) * 4
    x = np.concatenate([x, [0.0, 1.0, -1.0, 2.0, -2.0, 0.5]]).astype(dtype_of(element))
    t = f"tensor<{x.size}x{element}>"
    text = f"func.func @main(%a: {t}) -> {t} {{\n  %0 = chlo.{op} %a : {t} -> {t}\n  return %0 : {t}\n}}\n"
    cpp = cpp_eval(text, [(x, element)])
    assert cpp is not None
    assert agree(_run(op, x, element), cpp[0])
