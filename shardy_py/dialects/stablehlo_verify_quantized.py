"""ODS operand constraints of StableHLO's ops on quantized element types (``StablehloOps.td``,
``Base.td``): most ops take per-tensor quantized tensors only (``HLO_Tensor`` and its kin), so a
per-axis quantized operand fails the op's operand constraint, with ODS's message naming the
constraint's description.  Registered in front of each op's own verifier (``registry.add_verifier``).
"""
from __future__ import annotations

import re

from shardy_py.dialects.registry import OPS, add_verifier
from shardy_py.dialects.stablehlo_verify_common import element
from shardy_py.ir.types import QuantizedType
from shardy_py.verify.diagnostics import Failure, fail

_F, _P, _I = "4/6/8/16/32/64-bit float", "bool", "2/4/8/16/32/64-bit integer"
_C, _Q = "complex type with 32/64-bit float elements", "per-tensor integer quantized"


def _ranked(*kinds: str) -> str:
    return "ranked tensor of " + " or ".join(kinds) + " values"


#: ``HLO_Tensor`` and the other per-tensor-only constraints, as ODS describes them.
TENSOR = _ranked(_F, _P, _I, _C, _Q)
FP_COMPLEX_OR_QUANTIZED = _ranked(_F, _C, _Q)
FP_OR_QUANTIZED = _ranked(_F, _Q)
INT_FP_COMPLEX_OR_QUANTIZED = _ranked(_I, _F, _C, _Q)
SIGNLESS_INT_FP_COMPLEX_OR_QUANTIZED = _ranked("2/4/8/16/32/64-bit signless integer", _F, _C, _Q)
VARIADIC_TENSOR = "variadic of " + TENSOR
VARIADIC_TENSOR_OR_TOKEN = VARIADIC_TENSOR + " or token"

_ALL = None
#: op -> (constraint description, the operand indices it covers; None: every operand).
CONSTRAINTS: dict[str, tuple[str, tuple[int, ...] | None]] = {
    **{n: (TENSOR, _ALL) for n in ("clamp", "compare", "maximum", "minimum", "multiply", "select_and_scatter",
                                   "and", "or", "xor", "shift_left", "shift_right_arithmetic",
                                   "shift_right_logical")},
    **{n: (TENSOR, (0,)) for n in ("collective_permute", "dynamic_slice", "gather", "pad", "reduce_scatter",
                                   "reverse", "slice", "dot_general", "convolution", "dynamic_conv", "dot",
                                   "real_dynamic_slice", "dynamic_pad", "dynamic_gather", "dynamic_iota")},
    "dynamic_update_slice": (TENSOR, (0, 1)),
    "select": (TENSOR, (1, 2)),
    **{n: (FP_COMPLEX_OR_QUANTIZED, _ALL) for n in ("atan2", "cbrt", "cholesky", "cosine", "exponential",
                                                    "exponential_minus_one", "log", "log_plus_one", "logistic",
                                                    "rsqrt", "sine", "sqrt", "tanh", "tan")},
    **{n: (FP_OR_QUANTIZED, _ALL) for n in ("ceil", "floor", "is_finite", "reduce_precision", "round_nearest_afz",
                                            "round_nearest_even")},
    **{n: (FP_OR_QUANTIZED, (0,)) for n in ("batch_norm_grad", "batch_norm_inference", "batch_norm_training")},
    **{n: (INT_FP_COMPLEX_OR_QUANTIZED, _ALL) for n in ("divide", "negate", "power", "remainder", "subtract")},
    "abs": (SIGNLESS_INT_FP_COMPLEX_OR_QUANTIZED, _ALL),
    **{n: (VARIADIC_TENSOR, _ALL) for n in ("all_gather", "all_reduce", "all_to_all", "concatenate", "map",
                                            "reduce", "reduce_window", "sort", "collective_broadcast",
                                            "collective_reduce")},
    "scatter": (VARIADIC_TENSOR, _ALL),
    "optimization_barrier": (VARIADIC_TENSOR_OR_TOKEN, _ALL),
}


_PER_AXIS_TEXT = re.compile(r"!quant\.uniform<[^:<>]+(?:<[^>]*>)?:[^:,]+:-?\d+\s*,\s*\{")


def _per_axis(t) -> bool:
    """A tensor of per-axis quantized elements (a storage type our type reader keeps as text, like
    ``ui8``, is recognised by its spelling)."""
    e = element(t) if t is not None else None
    if isinstance(e, QuantizedType):
        return e.is_per_axis
    return e is not None and bool(_PER_AXIS_TEXT.match(e.text))


def _rule(description: str, indices: tuple[int, ...] | None):
    def verify_operand_constraint(op, ctx) -> Failure | None:
        """ODS: no per-axis quantized operand where the constraint takes per-tensor quantization only."""
        for i, v in enumerate(op.operands):
            if (indices is None or i in indices) and v is not None and _per_axis(v.type):
                return fail(f"'{op.name}' op operand #{i} must be {description}, but got '{v.type}'")
        return None

    return verify_operand_constraint


for _name, (_description, _indices) in CONSTRAINTS.items():
    if f"stablehlo.{_name}" in OPS:
        add_verifier(f"stablehlo.{_name}", _rule(_description, _indices))
