"""``!quant.uniform`` types the quant dialect rejects as it reads them (``TypeParser.cpp``'s checks and the
types' ``verifyInvariants``, ``QuantTypes.cpp``): a parse error at the type, never a type kept as written.
jaxlib's Python MLIR has no quant dialect, so the evidence is StableHLO's own tests
(``ops_stablehlo_quantized.mlir``: "scale 1.055040e+05 out of expressed type range", "illegal quantized
dimension: -1", on the line of the type), which ``score.py``'s ops_reject row runs."""
from __future__ import annotations

import pytest

import shardy_py


def _module(element: str) -> str:
    return (f"func.func @f(%arg0: tensor<1x2x{element}>) {{\n"
            f"  %0 = stablehlo.add %arg0, %arg0 : tensor<1x2x{element}>\n  func.return\n}}\n")


@pytest.mark.parametrize(("element", "column", "message"), [
    ("!quant.uniform<i4:f16, 10.550400e+04>", 68,
     "scale 1.055040e+05 out of expressed type range [5.960464e-08, 6.550400e+04]"),
    ("!quant.uniform<i4:f16, 4.960464e-08>", 67,
     "scale 4.960464e-08 out of expressed type range [5.960464e-08, 6.550400e+04]"),
    ("!quant.uniform<i8:f32, -1.0:3>", 59, "scale -1.000000e+00 out of expressed type range "
                                           "[1.401298e-45, 3.402823e+38]"),
    ("!quant.uniform<i8<-128:127>:f32:-1, {0.1:-30, 0.1:-30}>", 32, "illegal quantized dimension: -1"),
    ("!quant.uniform<i8<-129:127>:f32, 1.0>", 50, "illegal storage type minimum: -129"),
    ("!quant.uniform<u8<0:256>:f32, 1.0>", 52, "illegal storage type maximum: 256"),
    ("!quant.uniform<i8<5:2>:f32, 1.0>", 32, "illegal storage min and storage max: (5:2)"),
    ("!quant.uniform<i8:i32, 1.0>", 50, "invalid kind of type specified"),
])
def test_rejected_at_the_type(element: str, column: int, message: str) -> None:
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(_module(element))
    assert (e.value.line, e.value.column, e.value.message) == (1, column, message)


@pytest.mark.parametrize("element", [
    "!quant.uniform<i4:f16, 5.9604645e-08>",  # the smallest f16 (a subnormal, 2**-24) is in range
    "!quant.uniform<i4:f16, 6.550400e+04>",
    "!quant.uniform<i8<-127:127>:f32:1, {1.0:17, 2.0}>",
    "!quant.uniform<u8:f32, 0.5:3>",
])
def test_valid_quantized_types_parse(element: str) -> None:
    module = shardy_py.parse(_module(element))
    assert shardy_py.verify(module) == []
