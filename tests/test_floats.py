"""Float literals print as MLIR prints them (``shardy_py.syntax.floats``)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shardy_py
from shardy_py.syntax.floats import FloatType, canonical_dense_body, canonical_float, print_float


@pytest.mark.parametrize(("literal", "type_name", "printed"), [
    ("0.8e+00", "f32", "8.000000e-01"),
    ("0.1", "f64", "1.000000e-01"),
    ("0.30000000000000004", "f64", "0.30000000000000004"),
    ("0.30000000000000004", "f32", "3.000000e-01"),
    ("123456789.0", "f64", "0x419D6F3454000000"),
    ("100000000000000000000000.0", "f64", "9.9999999999999991E+22"),
    ("0.000123456789", "f64", "1.23456789E-4"),
    ("3.14159265358979", "f32", "3.14159274"),
    ("-0.0", "f32", "-0.000000e+00"),
    ("0.1", "f16", "9.997550e-02"),
    ("123456789.0", "f16", "0x7C00"),
    ("123456789.0", "bf16", "1.232080e+08"),
    ("0x7F800000", "f32", "0x7F800000"),
    ("0x3F800000", "f32", "1.000000e+00"),
])
def test_float_prints_like_mlir(literal: str, type_name: str, printed: str) -> None:
    assert canonical_float(literal, type_name) == printed


def test_float_types_we_do_not_model_are_left_alone() -> None:
    assert canonical_float("1.5", "f128") is None


def test_small_float_formats_round_and_print_as_apfloat_does() -> None:
    assert canonical_float("1.5", "f8E4M3FN") == "1.500000e+00"
    assert canonical_float("0.125", "f4E2M1FN") == "0.000000e+00"  # below half the smallest subnormal
    assert canonical_float("0.1", "f8E8M0FNU") == "1.250000e-01"  # powers of two only
    assert canonical_float("0xFF", "f8E8M0FNU") == "0xFF"  # its NaN


SMALL_FORMATS = ["f8E5M2", "f8E4M3", "f8E3M4", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f8E4M3B11FNUZ",
                 "f8E8M0FNU", "f6E3M2FN", "f6E2M3FN", "f4E2M1FN", "tf32"]
SMALL_VALUES = ["0.0", "-0.0", "1.0", "0.125", "0.1", "3.1415", "-2.5", "1000.0", "-1000.0", "1.0e-3", "0x01", "0x07"]


@pytest.mark.parametrize("type_name", SMALL_FORMATS)
def test_small_float_dense_elements_print_as_jaxlib_does(type_name) -> None:
    jax_mlir = pytest.importorskip("jax._src.interpreters.mlir", reason="the oracle is MLIR in jaxlib")
    from jax._src.lib.mlir import ir

    from shardy_py.syntax.dense import canonical_dense_elements

    values = [v for v in SMALL_VALUES if not (v.startswith("-") and type_name == "f8E8M0FNU")]
    body = "[" + ", ".join(values) + "]"
    type_text = f"tensor<{len(values)}x{type_name}>"
    with jax_mlir.make_ir_context():
        want = str(ir.Attribute.parse(f"dense<{body}> : {type_text}"))
    assert f"{canonical_dense_elements(body, type_text)} : {type_text}" == want


@pytest.mark.parametrize(("body", "type_name", "printed"), [
    ("[1.0, 1.0]", "f32", "1.000000e+00"),
    ("[[1.0, 2.0]]", "f32", "[[1.000000e+00, 2.000000e+00]]"),
    ("[]", "f32", ""),
    ("[0x7F800000, 1.0]", "f32", "[0x7F800000, 1.000000e+00]"),
    ("(1.0, 2.0)", "f32", None),
    ('"0x0000803F"', "f32", None),
])
def test_dense_body_prints_like_mlir(body: str, type_name: str, printed: str | None) -> None:
    assert canonical_dense_body(body, type_name) == printed


def test_float_attribute_without_type_is_f64() -> None:
    text = 'func.func @f() {\n  "t.op"() {w = 2.5, i = 0x10} : () -> ()\n  return\n}\n'
    assert str(shardy_py.parse(text)) == (
        'module {\n  func.func @f() {\n    "t.op"() {i = 16 : i64, w = 2.500000e+00 : f64} : () -> ()\n'
        '    return\n  }\n}\n')


def test_custom_constant_takes_its_element_type_from_the_type_after_it() -> None:
    text = "func.func @f() {\n  %0 = stablehlo.constant dense<[0.8, 0.8]> : tensor<2xbf16>\n  return\n}\n"
    assert "stablehlo.constant dense<8.007810e-01> : tensor<2xbf16>" in str(shardy_py.parse(text))


def _literals(type_name: str):
    ftype = FloatType(type_name)
    bit_patterns = st.integers(0, (1 << ftype.width) - 1).map(ftype.hex)
    decimals = st.builds(lambda m, f, e: f"{m}.{f}e{e}", st.integers(-10**6, 10**6), st.integers(0, 10**12),
                         st.integers(-45, 45))
    return st.one_of(bit_patterns, decimals)


@pytest.mark.parametrize("type_name", ["f64", "f32", "f16", "bf16"])
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_floats_print_like_the_cpp_printer(type_name: str, data) -> None:
    """Differential: the C++ MLIR printer in jaxlib prints every drawn literal as we do."""
    pytest.importorskip("jax")
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    literals = data.draw(st.lists(_literals(type_name), min_size=1, max_size=20))
    ctx = mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    body = "\n".join(f'"t.op"() {{w = {lit} : {type_name}}} : () -> ()' for lit in literals)
    printed = [line.strip()[len('"t.op"() {w = '):].split(" : ")[0]
               for line in str(ir.Module.parse(body, context=ctx)).splitlines() if '"t.op"' in line]
    assert [canonical_float(lit, type_name) for lit in literals] == printed


def test_print_float_of_every_f16_reads_back() -> None:
    """Every finite f16 value prints as text that reads back as the same value."""
    ftype = FloatType("f16")
    for bits in range(1 << 16):
        text = print_float(ftype, bits)
        if not text.startswith("0x"):
            assert canonical_float(text, "f16") == text
