"""Quantization rules of StableHLO's contractions (``TypeInference.cpp``:
``verifyConvolutionDotGeneralCommonQuantizationConstraints``, ``verifyConvolutionOpQuantizationConstraints``,
``verifyDotGeneralOpQuantizationConstraints``), run after the ops' own verifiers when an operand or the
result is quantized: a quantized rhs, lhs and result quantized alike, matching storage and expressed types,
the per-axis dimensions where the dimension numbers put the features, and (dot_general) a zero rhs zero
point off the contracting dimensions."""
from __future__ import annotations

from shardy_py.dialects.registry import OPS, add_verifier
from shardy_py.dialects.stablehlo_verify_common import element, typed_prop
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import QuantizedType


def _elements(op):
    """The lhs, rhs and result element types (None when a type is unknown or nothing is quantized)."""
    if len(op.operands) < 2 or len(op.results) != 1:
        return None
    types = [op.operands[0].type if op.operands[0] is not None else None,
             op.operands[1].type if op.operands[1] is not None else None, op.results[0].type]
    if any(t is None for t in types):
        return None
    elements = [element(t) for t in types]
    return elements if any(isinstance(e, QuantizedType) for e in elements) else None


def _storage(e: QuantizedType) -> tuple:
    return e.storage_width, e.signed, e.storage_type.startswith("si")


def common_constraints(lhs, rhs, result) -> Failure | None:
    """``verifyConvolutionDotGeneralCommonQuantizationConstraints``."""
    if not isinstance(rhs, QuantizedType) or isinstance(lhs, QuantizedType) != isinstance(result, QuantizedType):
        return fail("rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) "
                    "should hold")
    if isinstance(lhs, QuantizedType):
        if _storage(lhs) != _storage(rhs):
            return fail("mismatched lhs and rhs quantization storage types")
        if not str(lhs.expressed_type) == str(rhs.expressed_type) == str(result.expressed_type):
            return fail("mismatched lhs, rhs and result quantization expressed types")
        if not rhs.is_per_axis and result.is_per_axis:
            return fail("mismatched rhs and result quantization granularity")
        return None
    if not str(lhs) == str(rhs.expressed_type) == str(result):
        return fail("mismatched rhs quantization expressed type and lhs and result element type")
    return None


def verify_convolution_quantization(op, ctx) -> Failure | None:
    """``verifyConvolutionOpQuantizationConstraints``."""
    elements = _elements(op)
    dn = typed_prop(op, "dimension_numbers")
    if elements is None or dn is None or not hasattr(dn, "kernel_output_feature_dimension"):
        return None
    lhs, rhs, result = elements
    if isinstance(rhs, QuantizedType) and rhs.is_per_axis and \
            rhs.quantized_dimension != dn.kernel_output_feature_dimension:
        return fail("quantization dimension of rhs should be same with kernel_output_feature_dimension")
    if isinstance(result, QuantizedType) and result.is_per_axis and \
            result.quantized_dimension != dn.output_feature_dimension:
        return fail("quantization dimension of result should be same with output_feature_dimension")
    return common_constraints(lhs, rhs, result)


def verify_dot_general_quantization(op, ctx) -> Failure | None:
    """``verifyDotGeneralOpQuantizationConstraints``."""
    elements = _elements(op)
    dn = typed_prop(op, "dot_dimension_numbers")
    if elements is None or dn is None or not hasattr(dn, "rhs_contracting_dimensions"):
        return None
    lhs, rhs, result = elements
    if isinstance(rhs, QuantizedType):
        if not rhs.is_per_axis and rhs.zero_points[0] != 0:
            return fail("Zero point of rhs should be 0")
        if rhs.is_per_axis:
            if any(z != 0 for z in rhs.zero_points):
                return fail("Zero points of rhs should be 0")
            if rhs.quantized_dimension in dn.rhs_contracting_dimensions:
                return fail("Quantization dimension of rhs should not be in the contracting dimension of rhs")
    return common_constraints(lhs, rhs, result)


for _name, _fn in (("convolution", verify_convolution_quantization), ("dynamic_conv", verify_convolution_quantization),
                   ("dot_general", verify_dot_general_quantization)):
    if f"stablehlo.{_name}" in OPS:
        add_verifier(f"stablehlo.{_name}", _fn, after=True)
